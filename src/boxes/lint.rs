//! Warnings about collision boxes a user can act on: hit boxes with nothing to be hit, boxes
//! away from the picture, hurt boxes that miss most of the body, a frame without boxes in the
//! middle of boxed frames, and (on formats with default boxes) the same boxes repeated on every
//! frame of a run where one default would do. Each names sequence, direction and frame, and
//! selects the frame in the editor.
//!
//! Which boxes are hit and hurt boxes comes from the format where it says so, else from the
//! names the user gave ([`super::roles`]): on a format whose boxes are only named (Aseprite's
//! slices), boxes nobody said are hit or hurt boxes are not checked at all, so a file nobody
//! edited gets no warning because of what its slices are called.

use super::mask::OpaqueMask;
use super::mask_cache::MaskCache;
use super::roles::{BoxRoles, Role};
use crate::formats::{Diagnostic, Location, Place, Severity, Subject};
use crate::model::{
    AnimationSet, BoxClass, BoxScope, DefaultBoxRule, Frame, FrameId, Sequence, Shape,
    effective_boxes,
};
use crate::pixels::PixelSource;
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;

/// Hurt boxes covering less than this share of a frame's opaque pixels are reported.
pub const MIN_HURT_COVERAGE: f64 = 0.5;

/// A run of at least this many frames with the same one-frame boxes is reported where the
/// format has default boxes.
pub const REPEATED_RUN: usize = 3;

/// What the lint needs besides the document.
pub struct LintContext<'a> {
    /// Where pictures come from; `None` skips the checks that need pixels.
    pub pixels: Option<&'a dyn PixelSource>,
    /// The default-box rule (which boxes a frame shows).
    pub rule: DefaultBoxRule,
    /// The format has default boxes (M.U.G.E.N `ClsnNDefault`).
    pub default_boxes: bool,
    /// Which boxes are hit and hurt boxes.
    pub classes: BoxClasses,
}

/// Where the lint learns which boxes are hit and hurt boxes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoxClasses {
    /// The format says it (its [`crate::formats::Capabilities::box_classes_known`]): every box
    /// is checked, hit and hurt boxes by their class.
    Known,
    /// The format only names its boxes: only those the roles name are checked.
    Named(BoxRoles),
}

impl BoxClasses {
    /// What the lint of `document` in a format with `capabilities` goes by: the format's
    /// classes, or the roles the document keeps with `settings` (the caller's, from Sprat's
    /// settings for this document) added.
    pub fn of(
        document: &AnimationSet,
        capabilities: &crate::formats::Capabilities,
        settings: &BoxRoles,
    ) -> BoxClasses {
        if capabilities.box_classes_known {
            BoxClasses::Known
        } else {
            BoxClasses::Named(BoxRoles::of_document(document).with(settings))
        }
    }

    /// The role of a box of `class`; `None` for a box that is neither.
    fn role(&self, class: &BoxClass) -> Option<Role> {
        match self {
            BoxClasses::Known => BoxRoles::default().role_of(class, true),
            BoxClasses::Named(roles) => roles.role_of(class, false),
        }
    }

    /// Whether a box of `class` is checked at all.
    fn checks(&self, class: &BoxClass) -> bool {
        matches!(self, BoxClasses::Known) || self.role(class).is_some()
    }
}

/// The fixed part of every message the lint gives, so a new run can replace an old one's.
const PHRASES: [&str; 5] = [
    ": hit boxes but no hurt box",
    ": no boxes, though the frames before and after have some",
    " is entirely outside the frame's pictures",
    "% of the picture's opaque pixels",
    " one default (ClsnDefault) on this frame would do",
];

/// True for a diagnostic the lint gave.
pub fn is_box_warning(diagnostic: &Diagnostic) -> bool {
    diagnostic.severity == Severity::Warning
        && diagnostic.location == Location::File
        && PHRASES.iter().any(|p| diagnostic.message.contains(p))
}

/// Every box warning of `document`.
pub fn lint_boxes(document: &AnimationSet, context: &LintContext) -> Vec<Diagnostic> {
    lint_boxes_with(document, context, &MaskCache::new())
}

/// Every box warning of `document`, the frames' masks taken from `masks` where their pictures
/// were drawn before (by this document or another of the same run) and kept there otherwise.
pub fn lint_boxes_with(
    document: &AnimationSet,
    context: &LintContext,
    masks: &MaskCache,
) -> Vec<Diagnostic> {
    // Directions are linted on every thread of the current pool; their warnings are put
    // together in document order.
    let directions: Vec<(&Sequence, usize)> = document
        .sequences()
        .into_iter()
        .flat_map(|sequence| (0..sequence.directions.len()).map(move |d| (sequence, d)))
        .collect();
    let found: Vec<Vec<Diagnostic>> = directions
        .into_par_iter()
        .map(|place| {
            let mut out = Vec::new();
            lint_direction(document, place, context, masks, &mut out);
            out
        })
        .collect();
    found.into_iter().flatten().collect()
}

/// The masks of the frames met so far in one direction (a frame listed twice is looked up once).
type FrameMasks = HashMap<FrameId, Option<Arc<OpaqueMask>>>;

fn lint_direction(
    document: &AnimationSet,
    (sequence, direction): (&Sequence, usize),
    context: &LintContext,
    masks: &MaskCache,
    out: &mut Vec<Diagnostic>,
) {
    let mut by_frame: FrameMasks = HashMap::new();
    let ids = &sequence.directions[direction].frames;
    let frames = document.direction_frames(sequence, direction);
    if frames.len() != ids.len() {
        return;
    }
    let shown: Vec<Vec<(BoxClass, Shape)>> = (0..frames.len())
        .map(|i| {
            effective_boxes(&frames, i, context.rule)
                .into_iter()
                .filter(|b| context.classes.checks(&b.collision.class))
                .map(|b| (b.collision.class.clone(), b.collision.shape.clone()))
                .collect()
        })
        .collect();
    let warn = |out: &mut Vec<Diagnostic>, index: usize, text: String| {
        let place = Place::frame(&sequence.name, direction, index);
        out.push(
            Diagnostic::new(
                Severity::Warning,
                Location::File,
                format!("{place}: {text}"),
            )
            .about(Subject::Frame {
                sequence: sequence.id,
                direction,
                index,
                frame: ids[index],
            }),
        );
    };
    for (index, boxes) in shown.iter().enumerate() {
        let has = |role: Role| {
            boxes
                .iter()
                .any(|(c, _)| context.classes.role(c) == Some(role))
        };
        if has(Role::Hit) && !has(Role::Hurt) {
            warn(
                out,
                index,
                "hit boxes but no hurt box (the character cannot be hit on this frame)".into(),
            );
        }
        let middle = index > 0 && index + 1 < shown.len();
        if middle
            && boxes.is_empty()
            && !shown[index - 1].is_empty()
            && !shown[index + 1].is_empty()
        {
            warn(
                out,
                index,
                "no boxes, though the frames before and after have some".into(),
            );
        }
        let Some(pixels) = context.pixels else {
            continue;
        };
        if boxes.is_empty() {
            continue;
        }
        let mask = by_frame
            .entry(ids[index])
            .or_insert_with(|| masks.mask(document, frames[index], pixels));
        if let Some(mask) = mask {
            picture_checks(mask, boxes, &context.classes, |text| warn(out, index, text));
        }
    }
    if context.default_boxes {
        for class in [BoxClass::Hit, BoxClass::Hurt] {
            for (start, len) in repeated_runs(&frames, &class) {
                warn(
                    out,
                    start,
                    format!(
                        "the same {} boxes are repeated on {len} frames from here; one default (ClsnDefault) on this frame would do",
                        class.label()
                    ),
                );
            }
        }
    }
}

/// The checks against the frame's picture: boxes entirely outside it, hurt boxes covering too
/// little of it.
fn picture_checks(
    mask: &OpaqueMask,
    boxes: &[(BoxClass, Shape)],
    classes: &BoxClasses,
    mut warn: impl FnMut(String),
) {
    let (left, top) = (mask.left() as f64, mask.top() as f64);
    let (right, bottom) = (left + mask.width() as f64, top + mask.height() as f64);
    for (n, (class, shape)) in boxes.iter().enumerate() {
        let (x0, y0, x1, y1) = shape_bounds(shape);
        if x1 <= left || x0 >= right || y1 <= top || y0 >= bottom {
            warn(format!(
                "{} box {n} is entirely outside the frame's pictures",
                class.label()
            ));
        }
    }
    let hurt: Vec<Shape> = boxes
        .iter()
        .filter(|(c, _)| classes.role(c) == Some(Role::Hurt))
        .map(|(_, s)| s.clone())
        .collect();
    let opaque = mask.count();
    if hurt.is_empty() || opaque == 0 {
        return;
    }
    let share = mask.covered_by(&hurt) as f64 / opaque as f64;
    if share < MIN_HURT_COVERAGE {
        warn(format!(
            "the hurt boxes cover only {:.0}% of the picture's opaque pixels",
            share * 100.0
        ));
    }
}

/// `(left, top, right, bottom)` of a shape in sprite space.
fn shape_bounds(shape: &Shape) -> (f64, f64, f64, f64) {
    match shape {
        Shape::Rect { .. } => {
            let corners = crate::render::overlay::rect_corners(shape, 1.0).unwrap_or_default();
            corners.iter().fold(
                (f64::MAX, f64::MAX, f64::MIN, f64::MIN),
                |(a, b, c, d), (x, y)| (a.min(*x), b.min(*y), c.max(*x), d.max(*y)),
            )
        }
        Shape::Circle { center, radius } => {
            let (x, y, r) = (center.x.to_f64(), center.y.to_f64(), radius.to_f64());
            (x - r, y - r, x + r, y + r)
        }
    }
}

/// Runs of at least [`REPEATED_RUN`] frames that each declare the same non-empty one-frame
/// boxes of `class`: `(first position, length)`.
fn repeated_runs(frames: &[&Frame], class: &BoxClass) -> Vec<(usize, usize)> {
    let own = |f: &Frame| -> Option<Vec<Shape>> {
        (f.declared_scope(class) == Some(BoxScope::ThisFrame)).then(|| {
            f.boxes()
                .filter(|(_, b)| &b.class == class)
                .map(|(_, b)| b.shape.clone())
                .collect()
        })
    };
    let mut runs = Vec::new();
    let mut start = 0;
    while start < frames.len() {
        let Some(first) = own(frames[start]).filter(|s| !s.is_empty()) else {
            start += 1;
            continue;
        };
        let mut end = start + 1;
        while end < frames.len() && own(frames[end]).as_ref() == Some(&first) {
            end += 1;
        }
        if end - start >= REPEATED_RUN {
            runs.push((start, end - start));
        }
        start = end;
    }
    runs
}
