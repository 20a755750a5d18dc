//! Which collision boxes are in force on a frame.
//!
//! Most formats give each frame its own boxes. AIR also has default boxes that carry over to
//! later frames, and two engines disagree on what happens after a one-frame override; the rule
//! is a preview setting, never a property of the file.

use super::element::{BoxClass, CollisionBox, Element};
use super::frame::{BoxScope, Frame};

/// How a `ClsnN:` one-frame override interacts with an earlier `ClsnNDefault:`.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum DefaultBoxRule {
    /// MUGEN 1.1 and Ikemen GO: after a one-frame override, frames go back to the last default.
    #[default]
    ReturnToDefault,
    /// The AIR documentation: a default stops at the first frame that declares that class.
    DefaultEndsAtOverride,
}

/// Where a frame's box came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoxOrigin {
    /// Declared by the frame itself (one-frame boxes, or a default set on this frame).
    ThisFrame,
    /// A default declared on an earlier frame (its index in the direction).
    DefaultFrom(usize),
}

/// A box in force on a frame.
#[derive(Clone, Copy, Debug)]
pub struct EffectiveBox<'a> {
    /// The element holding the box (on this frame or the frame that set the default).
    pub element: &'a Element,
    /// The box.
    pub collision: &'a CollisionBox,
    /// Which frame the box comes from.
    pub origin: BoxOrigin,
}

impl EffectiveBox<'_> {
    /// True for a box in force by default: an AIR `ClsnNDefault` box, declared on an earlier
    /// frame or as a default on `frame` itself. The editor and the renderer draw these fainter
    /// and dashed.
    pub fn is_default(&self, frame: &Frame) -> bool {
        match self.origin {
            BoxOrigin::DefaultFrom(_) => true,
            BoxOrigin::ThisFrame => {
                frame.declared_scope(&self.collision.class) == Some(BoxScope::FromHereOn)
            }
        }
    }
}

/// The boxes in force on `frames[index]`, following `rule` for AIR defaults.
///
/// `frames` is the direction's frame list in play order.
pub fn effective_boxes<'a>(
    frames: &[&'a Frame],
    index: usize,
    rule: DefaultBoxRule,
) -> Vec<EffectiveBox<'a>> {
    let Some(frame) = frames.get(index) else {
        return Vec::new();
    };
    let mut result = Vec::new();
    let mut classes = frame.declared_classes();
    for earlier in frames[..index].iter() {
        for decl in &earlier.box_declarations {
            if decl.scope == BoxScope::FromHereOn && !classes.contains(&decl.class) {
                classes.push(decl.class.clone());
            }
        }
    }
    for class in classes {
        if frame.declared_scope(&class).is_some() {
            result.extend(own_boxes(frame, &class, BoxOrigin::ThisFrame));
        } else if let Some(source) = default_source(frames, index, &class, rule) {
            result.extend(own_boxes(
                frames[source],
                &class,
                BoxOrigin::DefaultFrom(source),
            ));
        }
    }
    result
}

fn own_boxes<'a>(
    frame: &'a Frame,
    class: &BoxClass,
    origin: BoxOrigin,
) -> impl Iterator<Item = EffectiveBox<'a>> {
    let class = class.clone();
    frame
        .boxes()
        .filter(move |(_, b)| b.class == class)
        .map(move |(element, collision)| EffectiveBox {
            element,
            collision,
            origin,
        })
}

/// The earlier frame whose default boxes of `class` apply to `frames[index]`, if any.
fn default_source(
    frames: &[&Frame],
    index: usize,
    class: &BoxClass,
    rule: DefaultBoxRule,
) -> Option<usize> {
    for i in (0..index).rev() {
        match frames[i].declared_scope(class) {
            Some(BoxScope::FromHereOn) => return Some(i),
            Some(BoxScope::ThisFrame) if rule == DefaultBoxRule::DefaultEndsAtOverride => {
                return None;
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{
        BoxDeclaration, ElementId, ElementKind, FrameDuration, Name, Point, element::CollisionBox,
    };

    fn frame_with(scope: Option<BoxScope>, boxes: usize, first_id: u64) -> Frame {
        let mut frame = Frame::new(FrameDuration::Ticks(10));
        for i in 0..boxes {
            let b = CollisionBox::rect_from_corners(
                BoxClass::Hurt,
                Point::from_ints(0, 0),
                Point::from_ints(i as i32 + 1, 1),
            );
            frame.elements.push(Element {
                id: ElementId(first_id + i as u64),
                name: Name::default(),
                kind: ElementKind::Box(b),
            });
        }
        if let Some(scope) = scope {
            frame.box_declarations.push(BoxDeclaration {
                class: BoxClass::Hurt,
                scope,
            });
        }
        frame
    }

    /// The example of mugen-air.txt: defaults on 0 and 3, a one-frame override on 5, nothing on 6.
    fn documented_example() -> Vec<Frame> {
        vec![
            frame_with(Some(BoxScope::FromHereOn), 2, 10),
            frame_with(None, 0, 0),
            frame_with(None, 0, 0),
            frame_with(Some(BoxScope::FromHereOn), 1, 20),
            frame_with(None, 0, 0),
            frame_with(Some(BoxScope::ThisFrame), 1, 30),
            frame_with(None, 0, 0),
        ]
    }

    fn ids(frames: &[Frame], index: usize, rule: DefaultBoxRule) -> Vec<u64> {
        let refs: Vec<&Frame> = frames.iter().collect();
        effective_boxes(&refs, index, rule)
            .iter()
            .map(|b| b.element.id.0)
            .collect()
    }

    #[test]
    fn defaults_carry_to_later_frames_until_replaced() {
        let frames = documented_example();
        assert_eq!(
            ids(&frames, 2, DefaultBoxRule::ReturnToDefault),
            vec![10, 11]
        );
        assert_eq!(ids(&frames, 4, DefaultBoxRule::ReturnToDefault), vec![20]);
        assert_eq!(ids(&frames, 5, DefaultBoxRule::ReturnToDefault), vec![30]);
    }

    #[test]
    fn mugen_rule_returns_to_the_default_after_a_one_frame_override() {
        let frames = documented_example();
        assert_eq!(ids(&frames, 6, DefaultBoxRule::ReturnToDefault), vec![20]);
    }

    #[test]
    fn documented_rule_ends_the_default_at_an_override() {
        let frames = documented_example();
        assert!(ids(&frames, 6, DefaultBoxRule::DefaultEndsAtOverride).is_empty());
    }

    #[test]
    fn an_empty_declaration_clears_the_class() {
        let mut frames = documented_example();
        frames[4] = frame_with(Some(BoxScope::ThisFrame), 0, 0);
        assert!(ids(&frames, 4, DefaultBoxRule::ReturnToDefault).is_empty());
    }
}
