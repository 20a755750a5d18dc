//! A frame: a timed list of elements plus what happens when it starts.

use super::element::{BoxClass, CollisionBox, Element, ElementKind};
use super::timing::FrameDuration;
use serde::{Deserialize, Serialize};

/// Which values are interpolated from the previous frame into this one (AIR `Interpolate`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Interpolation {
    /// `Interpolate Offset`: the position.
    #[serde(default)]
    pub offset: bool,
    /// `Interpolate Blend`: the blend factors.
    #[serde(default)]
    pub blend: bool,
    /// `Interpolate Scale`: the scale.
    #[serde(default)]
    pub scale: bool,
    /// `Interpolate Angle`: the rotation.
    #[serde(default)]
    pub angle: bool,
}

impl Interpolation {
    /// True when nothing is interpolated.
    pub fn is_none(&self) -> bool {
        !(self.offset || self.blend || self.scale || self.angle)
    }
}

/// How long a frame's declared boxes of one class last (AIR `ClsnN:` vs `ClsnNDefault:`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BoxScope {
    /// The boxes belong to this frame only (`ClsnN:`).
    ThisFrame,
    /// The boxes become the default from this frame on (`ClsnNDefault:`).
    FromHereOn,
}

/// A frame's declaration that it sets the boxes of one class, even to an empty set.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BoxDeclaration {
    /// The class declared.
    pub class: BoxClass,
    /// How long the declared boxes last.
    pub scope: BoxScope,
}

/// One frame.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Frame {
    /// How long it shows.
    pub duration: FrameDuration,
    /// A label (ISPRITE).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub label: String,
    /// Commands passed to the game when the frame starts (ISPRITE triggers).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub triggers: String,
    /// Free notes.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub notes: String,
    /// Values interpolated from the previous frame into this one.
    #[serde(default, skip_serializing_if = "Interpolation::is_none")]
    pub interpolation: Interpolation,
    /// Elements in draw order.
    #[serde(default)]
    pub elements: Vec<Element>,
    /// Box classes this frame declares, with their scope. A class with boxes in `elements` but
    /// no declaration here counts as [`BoxScope::ThisFrame`]; a declaration with no boxes is an
    /// explicit empty set.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub box_declarations: Vec<BoxDeclaration>,
}

impl Frame {
    /// An empty frame of the given length.
    pub fn new(duration: FrameDuration) -> Frame {
        Frame {
            duration,
            label: String::new(),
            triggers: String::new(),
            notes: String::new(),
            interpolation: Interpolation::default(),
            elements: Vec::new(),
            box_declarations: Vec::new(),
        }
    }

    /// The collision boxes this frame itself holds, with their elements.
    pub fn boxes(&self) -> impl Iterator<Item = (&Element, &CollisionBox)> {
        self.elements.iter().filter_map(|e| match &e.kind {
            ElementKind::Box(b) => Some((e, b)),
            _ => None,
        })
    }

    /// The scope this frame declares for `class`, if it declares it at all.
    pub fn declared_scope(&self, class: &BoxClass) -> Option<BoxScope> {
        if let Some(decl) = self.box_declarations.iter().find(|d| &d.class == class) {
            return Some(decl.scope);
        }
        self.boxes()
            .any(|(_, b)| &b.class == class)
            .then_some(BoxScope::ThisFrame)
    }

    /// Every box class this frame declares or holds, in first-seen order.
    pub fn declared_classes(&self) -> Vec<BoxClass> {
        let mut classes: Vec<BoxClass> = Vec::new();
        let declared = self.box_declarations.iter().map(|d| &d.class);
        let held = self.boxes().map(|(_, b)| &b.class);
        for class in declared.chain(held) {
            if !classes.contains(class) {
                classes.push(class.clone());
            }
        }
        classes
    }
}
