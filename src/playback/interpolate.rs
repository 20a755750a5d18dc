//! Values between frames (AIR `Interpolate Offset|Blend|Scale|Angle`).
//!
//! A frame flagged for interpolation is reached gradually: while the frame before it shows,
//! the flagged values move linearly from that frame's values to the flagged frame's. "The frame
//! before" follows play order, so the last frame interpolates into the loop frame.

use super::Player;
use crate::model::{AnimationSet, BlendMode, ElementKind, Frame, Fx, Graphic, Interpolation};
use std::borrow::Cow;

/// The current frame as it should be drawn now, with interpolated values applied.
pub fn displayed_frame<'a>(player: &Player, document: &'a AnimationSet) -> Option<Cow<'a, Frame>> {
    let (current, next) = current_and_next(player, document)?;
    let Some(next) = next.filter(|next| !next.interpolation.is_none()) else {
        return Some(Cow::Borrowed(current));
    };
    let t = player.frame_progress(document);
    Some(Cow::Owned(blend_frames(
        current,
        next,
        next.interpolation,
        t,
    )))
}

/// Whether the picture changes while the current frame shows (the next frame is reached
/// gradually), so a preview must be redrawn continuously rather than at frame changes.
pub fn is_interpolating(player: &Player, document: &AnimationSet) -> bool {
    player.is_playing()
        && current_and_next(player, document)
            .and_then(|(_, next)| next)
            .is_some_and(|next| !next.interpolation.is_none())
}

/// The current frame and the one play order reaches next (the loop frame after the last).
fn current_and_next<'a>(
    player: &Player,
    document: &'a AnimationSet,
) -> Option<(&'a Frame, Option<&'a Frame>)> {
    let sequence = document.sequence(player.sequence())?;
    let direction = sequence.directions.get(player.direction())?;
    let current = document.frame(*direction.frames.get(player.frame_index())?)?;
    let next_index = if player.frame_index() + 1 < direction.frames.len() {
        Some(player.frame_index() + 1)
    } else {
        sequence
            .loop_point
            .filter(|&lp| lp < direction.frames.len() && player.looping())
    };
    let next = next_index.and_then(|i| document.frame(direction.frames[i]));
    Some((current, next))
}

/// `from` with the values `flags` names moved a fraction `t` (0..1) towards `to`. Graphics are
/// paired by position in the element list.
pub fn blend_frames(from: &Frame, to: &Frame, flags: Interpolation, t: f64) -> Frame {
    let mut out = from.clone();
    let targets: Vec<&Graphic> = to.elements.iter().filter_map(|e| e.as_graphic()).collect();
    let graphics = out.elements.iter_mut().filter_map(|e| match &mut e.kind {
        ElementKind::Graphic(g) => Some(g),
        _ => None,
    });
    for (graphic, target) in graphics.zip(targets) {
        interpolate_graphic(graphic, target, flags, t);
    }
    out
}

fn lerp(a: f64, b: f64, t: f64) -> f64 {
    a + (b - a) * t
}

fn lerp_fx(a: Fx, b: Fx, t: f64) -> Fx {
    Fx::from_f64(lerp(a.to_f64(), b.to_f64(), t))
}

fn interpolate_graphic(g: &mut Graphic, target: &Graphic, flags: Interpolation, t: f64) {
    if flags.offset {
        g.position.x = lerp_fx(g.position.x, target.position.x, t);
        g.position.y = lerp_fx(g.position.y, target.position.y, t);
    }
    if flags.scale {
        g.scale_x = lerp(g.scale_x, target.scale_x, t);
        g.scale_y = lerp(g.scale_y, target.scale_y, t);
    }
    if flags.angle {
        g.rotation = lerp(g.rotation, target.rotation, t);
    }
    if flags.blend {
        // Blend is not interpolated away from a subtractive frame; normal counts as add 256/0.
        let factors = |b: BlendMode| match b {
            BlendMode::Normal => Some((256.0, 0.0)),
            BlendMode::Add {
                source,
                destination,
            } => Some((source as f64, destination as f64)),
            BlendMode::Subtract => None,
        };
        if let (Some((s0, d0)), Some((s1, d1))) = (factors(g.blend), factors(target.blend)) {
            let source = lerp(s0, s1, t).round() as u16;
            let destination = lerp(d0, d1, t).round() as u16;
            g.blend = if destination == 0 && source == 256 && g.blend == BlendMode::Normal {
                BlendMode::Normal
            } else {
                BlendMode::Add {
                    source,
                    destination,
                }
            };
        }
    }
}
