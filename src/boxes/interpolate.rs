//! Interpolate: the boxes and points between two keyframes, by time.

use crate::model::{AttachmentPoint, Fx, Point, Shape};

/// How the in-between values move over time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Easing {
    /// Evenly.
    #[default]
    Linear,
    /// Slow at both keyframes, fast between (smoothstep).
    EaseInOut,
    /// Slow at the first keyframe.
    EaseIn,
    /// Slow at the second keyframe.
    EaseOut,
}

impl Easing {
    /// Every easing, for menus.
    pub const ALL: [Easing; 4] = [
        Easing::Linear,
        Easing::EaseInOut,
        Easing::EaseIn,
        Easing::EaseOut,
    ];

    /// A name for menus and the command line.
    pub fn label(self) -> &'static str {
        match self {
            Easing::Linear => "linear",
            Easing::EaseInOut => "ease in-out",
            Easing::EaseIn => "ease in",
            Easing::EaseOut => "ease out",
        }
    }

    /// The eased share of the way at time share `t` (0 to 1).
    pub fn apply(self, t: f64) -> f64 {
        let t = t.clamp(0.0, 1.0);
        match self {
            Easing::Linear => t,
            Easing::EaseInOut => t * t * (3.0 - 2.0 * t),
            Easing::EaseIn => t * t,
            Easing::EaseOut => t * (2.0 - t),
        }
    }
}

fn mix(a: Fx, b: Fx, s: f64) -> Fx {
    Fx::from_f64(a.to_f64() + (b.to_f64() - a.to_f64()) * s)
}

fn mix_f64(a: f64, b: f64, s: f64) -> f64 {
    a + (b - a) * s
}

fn mix_point(a: Point, b: Point, s: f64) -> Point {
    Point {
        x: mix(a.x, b.x, s),
        y: mix(a.y, b.y, s),
    }
}

/// The shape `s` of the way from `a` to `b` (already eased); `None` when one is a rectangle and
/// the other a circle.
///
/// Positions snap to the grid the keyframes use: whole pixels when both keyframes are whole,
/// so formats without sub-pixel positions hold the result.
pub fn interpolate_shape(a: &Shape, b: &Shape, s: f64) -> Option<Shape> {
    let shape = match (a, b) {
        (
            Shape::Rect {
                x: ax,
                y: ay,
                width: aw,
                height: ah,
                rotation: ar,
            },
            Shape::Rect {
                x: bx,
                y: by,
                width: bw,
                height: bh,
                rotation: br,
            },
        ) => {
            let whole = [ax, ay, aw, ah, bx, by, bw, bh]
                .iter()
                .all(|v| v.to_int_exact().is_some());
            let m = |p: Fx, q: Fx| snap(mix(p, q, s), whole);
            Shape::Rect {
                x: m(*ax, *bx),
                y: m(*ay, *by),
                width: m(*aw, *bw),
                height: m(*ah, *bh),
                rotation: mix_f64(*ar, *br, s),
            }
        }
        (
            Shape::Circle {
                center: ac,
                radius: arad,
            },
            Shape::Circle {
                center: bc,
                radius: brad,
            },
        ) => {
            let whole = [ac.x, ac.y, *arad, bc.x, bc.y, *brad]
                .iter()
                .all(|v| v.to_int_exact().is_some());
            let c = mix_point(*ac, *bc, s);
            Shape::Circle {
                center: Point {
                    x: snap(c.x, whole),
                    y: snap(c.y, whole),
                },
                radius: snap(mix(*arad, *brad, s), whole),
            }
        }
        _ => return None,
    };
    Some(shape)
}

/// The point `s` of the way from `a` to `b` (position, angle and scale; flags from `a`).
pub fn interpolate_point(a: &AttachmentPoint, b: &AttachmentPoint, s: f64) -> AttachmentPoint {
    let whole = [a.position.x, a.position.y, b.position.x, b.position.y]
        .iter()
        .all(|v| v.to_int_exact().is_some());
    let p = mix_point(a.position, b.position, s);
    AttachmentPoint {
        position: Point {
            x: snap(p.x, whole),
            y: snap(p.y, whole),
        },
        rotation: mix_f64(a.rotation, b.rotation, s),
        scale_x: mix_f64(a.scale_x, b.scale_x, s),
        scale_y: mix_f64(a.scale_y, b.scale_y, s),
        ..a.clone()
    }
}

/// `v` rounded to the nearest whole pixel (halves away from zero) when `whole`.
fn snap(v: Fx, whole: bool) -> Fx {
    if whole {
        Fx::from_int(v.to_f64().round() as i32)
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::boxes::test_shapes::rect;

    #[test]
    fn halfway_is_the_mean_on_whole_pixels() {
        let mid = interpolate_shape(&rect(0, 0, 10, 10), &rect(10, -20, 20, 30), 0.5).unwrap();
        assert_eq!(mid, rect(5, -10, 15, 20));
        let third = interpolate_shape(&rect(0, 0, 10, 10), &rect(10, 0, 10, 10), 1.0 / 3.0);
        assert_eq!(third.unwrap(), rect(3, 0, 10, 10));
    }

    #[test]
    fn easings_start_and_end_at_the_keyframes() {
        for easing in Easing::ALL {
            assert_eq!(easing.apply(0.0), 0.0);
            assert_eq!(easing.apply(1.0), 1.0);
        }
        assert!(Easing::EaseIn.apply(0.25) < 0.25);
        assert!(Easing::EaseOut.apply(0.25) > 0.25);
    }

    #[test]
    fn a_rectangle_and_a_circle_do_not_interpolate() {
        let circle = Shape::Circle {
            center: Point::ZERO,
            radius: Fx::from_int(3),
        };
        assert!(interpolate_shape(&rect(0, 0, 1, 1), &circle, 0.5).is_none());
    }
}
