//! What an atlas cannot hold, found on the document before anything is rendered: the tree's
//! groups, loop points other than the first frame, follow-ups, frame text, interpolation,
//! separate graphics (flattened into one picture per frame) and box defaults.

use crate::formats::loss::frame_text_losses;
use crate::formats::{Loss, Place};
use crate::model::{AnimationSet, BoxScope, EndBehavior, Group, TreeItem};
use std::collections::HashSet;

/// Every loss that does not depend on rendering.
pub fn document_losses(document: &AnimationSet) -> Vec<Loss> {
    let mut losses = Vec::new();
    groups(&document.root, &mut losses);
    if !document.metadata.is_empty() {
        losses.push(Loss::new(
            Place::document(),
            "the document's metadata (an atlas has no place for it)",
        ));
    }
    let mut flattened = false;
    let mut seen_frames = HashSet::new();
    for sequence in document.sequences() {
        let name = &sequence.name;
        match sequence.loop_point {
            Some(0) | None => {}
            Some(k) => losses.push(Loss::new(
                Place::sequence(name),
                format!(
                    "its loop back to frame {k} (an atlas animation loops from its first frame)"
                ),
            )),
        }
        if sequence.on_end == EndBehavior::Disappear {
            losses.push(Loss::new(
                Place::sequence(name),
                "disappearing after its last frame (an atlas animation holds its last frame)",
            ));
        }
        if let Some(next) = &sequence.follow_up {
            losses.push(Loss::new(
                Place::sequence(name),
                format!("its follow-up \"{next}\""),
            ));
        }
        let mut defaults = false;
        for (d, direction) in sequence.directions.iter().enumerate() {
            if direction.frames.is_empty() {
                losses.push(Loss::new(
                    Place::sequence(name),
                    format!(
                        "direction {} has no frames (an atlas animation needs one)",
                        sequence.direction_label(d)
                    ),
                ));
            }
            for (i, id) in direction.frames.iter().enumerate() {
                let Some(frame) = document.frame(*id) else {
                    continue;
                };
                defaults |= frame
                    .box_declarations
                    .iter()
                    .any(|b| b.scope == BoxScope::FromHereOn);
                let graphics: Vec<_> = frame
                    .elements
                    .iter()
                    .filter_map(|e| e.as_graphic())
                    .collect();
                flattened |= graphics.len() > 1
                    || graphics
                        .iter()
                        .any(|g| !g.is_plain() || g.flip_h || g.flip_v);
                if !seen_frames.insert(*id) {
                    continue;
                }
                let place = Place::frame(name, d, i);
                losses.extend(frame_text_losses(&place, frame));
                if !frame.interpolation.is_none() {
                    losses.push(Loss::new(
                        place.clone(),
                        "its interpolation from the previous frame (an atlas holds finished pictures)",
                    ));
                }
            }
        }
        if defaults {
            losses.push(Loss::new(
                Place::sequence(name),
                "default boxes (ClsnNDefault): written onto each frame they apply to",
            ));
        }
    }
    if flattened {
        losses.push(Loss::new(
            Place::document(),
            "separate graphics: each frame is one flattened picture (layers, flips, rotation, scale, opacity and blend modes are baked into its pixels)",
        ));
    }
    losses
}

fn groups(group: &Group, losses: &mut Vec<Loss>) {
    for item in &group.items {
        if let TreeItem::Group(g) = item {
            losses.push(Loss::new(
                Place::document().element(format!("group \"{}\"", g.name)),
                "the group (atlas animations are a flat list; its sequences are written at the top)",
            ));
            groups(g, losses);
        }
    }
}
