//! Collision boxes and attachment points as atlas slices: whole pixels on the canvas, named
//! `hit1`, `hit2`, `hurt1`, ... (custom classes by their name and a number) and points by
//! their own name (a repeated name gets ` 2`, ` 3`, ...).

use crate::formats::{Loss, Place};
use crate::model::{BoxClass, ElementKind, Fx, Shape};
use crate::render::Scene;

/// What a mark is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MarkKind {
    /// A collision box of a class.
    Box(BoxClass),
    /// An attachment point: the pivot of a 1x1 rectangle at its position.
    Point,
}

/// A box or point in whole pixels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    /// The slice name.
    pub name: String,
    /// Box or point.
    pub kind: MarkKind,
    /// Left, top, width, height (a point is 1x1 with its pivot at the top-left).
    pub rect: (i32, i32, u32, u32),
}

impl Mark {
    /// Moves the mark by `(dx, dy)`.
    pub fn shift(&mut self, dx: i32, dy: i32) {
        self.rect.0 = self.rect.0.saturating_add(dx);
        self.rect.1 = self.rect.1.saturating_add(dy);
    }
}

/// The slice name stem of a box class.
pub fn class_stem(class: &BoxClass) -> &str {
    match class {
        BoxClass::Hit => "hit",
        BoxClass::Hurt => "hurt",
        BoxClass::Custom(name) => name,
    }
}

/// The boxes in force and the points of a scene, at `scale`, in sprite space.
pub fn of_scene(scene: &Scene, scale: u32, place: &Place, losses: &mut Vec<Loss>) -> Vec<Mark> {
    let mut marks = Vec::new();
    let mut counts: Vec<(String, usize)> = Vec::new();
    let mut next_name = |stem: &str, numbered_first: bool| {
        let n = match counts.iter_mut().find(|(s, _)| s == stem) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                counts.push((stem.to_string(), 1));
                1
            }
        };
        match (numbered_first, n) {
            (true, n) => format!("{stem}{n}"),
            (false, 1) => stem.to_string(),
            (false, n) => format!("{stem} {n}"),
        }
    };
    let s = scale as f64;
    for b in &scene.boxes {
        let (x0, y0, x1, y1) = match &b.shape {
            Shape::Rect {
                x,
                y,
                width,
                height,
                rotation,
            } => {
                if *rotation != 0.0 {
                    losses.push(Loss::new(
                        place.clone().element(format!("{} box", b.class.label())),
                        format!("rotation {rotation}° (written as the unrotated rectangle)"),
                    ));
                }
                (*x, *y, *x + *width, *y + *height)
            }
            Shape::Circle { center, radius } => {
                losses.push(Loss::new(
                    place.clone().element(format!("{} box", b.class.label())),
                    "a circle (written as the square around it)",
                ));
                (
                    center.x - *radius,
                    center.y - *radius,
                    center.x + *radius,
                    center.y + *radius,
                )
            }
        };
        if [x0, y0, x1, y1].iter().any(|v| !whole_at(*v, s)) {
            losses.push(Loss::new(
                place.clone().element(format!("{} box", b.class.label())),
                "sub-pixel edges (rounded to whole pixels)",
            ));
        }
        let (l, t) = (round(x0, s), round(y0, s));
        let (r, bottom) = (round(x1, s), round(y1, s));
        marks.push(Mark {
            name: next_name(class_stem(&b.class), true),
            kind: MarkKind::Box(b.class.clone()),
            rect: (l, t, span(l, r), span(t, bottom)),
        });
    }
    for element in &scene.frame.elements {
        let ElementKind::Point(p) = &element.kind else {
            continue;
        };
        let stem = if element.name.is_empty() {
            "point"
        } else {
            element.name.as_str()
        };
        let what = format!("point {stem}");
        if !whole_at(p.position.x, s) || !whole_at(p.position.y, s) {
            losses.push(Loss::new(
                place.clone().element(what.clone()),
                "a sub-pixel position (rounded to whole pixels)",
            ));
        }
        let plain = p.rotation == 0.0
            && p.scale_x == 1.0
            && p.scale_y == 1.0
            && !p.flip_h
            && !p.flip_v
            && p.opacity == crate::model::OPAQUE;
        if !plain {
            losses.push(Loss::new(
                place.clone().element(what),
                "its angle, scale, flips and opacity (a slice pivot is a position only)",
            ));
        }
        marks.push(Mark {
            name: next_name(stem, false),
            kind: MarkKind::Point,
            rect: (round(p.position.x, s), round(p.position.y, s), 1, 1),
        });
    }
    marks
}

/// The length from `start` to `end` (0 when reversed), without overflow.
fn span(start: i32, end: i32) -> u32 {
    (end as i64 - start as i64).clamp(0, u32::MAX as i64) as u32
}

fn whole_at(v: Fx, scale: f64) -> bool {
    let scaled = v.to_f64() * scale;
    scaled == scaled.round()
}

fn round(v: Fx, scale: f64) -> i32 {
    (v.to_f64() * scale)
        .round()
        .clamp(i32::MIN as f64, i32::MAX as f64) as i32
}
