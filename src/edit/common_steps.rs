//! The steps and look-ups the commands share: copying frames under new ids, dropping frames
//! nothing uses any more, finding directions, and naming copies.

use super::error::{EditError, EditResult};
use super::snapshot::Tx;
use crate::model::{AnimationSet, ElementId, Frame, FrameId, Sequence, SequenceId};
use std::collections::HashSet;

/// `frame` with fresh element ids (a copy that can be edited apart from the original).
pub(crate) fn with_fresh_element_ids(tx: &mut Tx, frame: &Frame) -> Frame {
    let mut copy = frame.clone();
    for element in &mut copy.elements {
        element.id = ElementId(tx.alloc_id());
    }
    copy
}

/// Adds a copy of `frame` under new frame and element ids.
pub(crate) fn add_frame_copy(tx: &mut Tx, frame: &Frame) -> FrameId {
    let copy = with_fresh_element_ids(tx, frame);
    tx.add_frame(copy)
}

/// Every frame id some sequence lists.
pub(crate) fn used_frames(doc: &AnimationSet) -> HashSet<FrameId> {
    doc.sequences()
        .iter()
        .flat_map(|s| s.directions.iter())
        .flat_map(|d| d.frames.iter().copied())
        .collect()
}

/// Removes those of `candidates` that no sequence lists any more. Only frames an edit just
/// unlisted are candidates, so frames the file itself kept unused stay.
pub(crate) fn drop_orphans(tx: &mut Tx, candidates: impl IntoIterator<Item = FrameId>) {
    let used = used_frames(tx.doc());
    let mut seen = HashSet::new();
    let orphans: Vec<FrameId> = candidates
        .into_iter()
        .filter(|id| !used.contains(id) && seen.insert(*id) && tx.doc().frames.contains_key(id))
        .collect();
    tx.remove_frames(&orphans);
}

/// The sequence, or a refusal naming the id.
pub(crate) fn sequence(doc: &AnimationSet, id: SequenceId) -> EditResult<&Sequence> {
    doc.sequence(id)
        .ok_or_else(|| EditError::new(format!("sequence {id} does not exist")))
}

/// The frame list of one direction, or a refusal.
pub(crate) fn direction_frames(
    doc: &AnimationSet,
    sequence_id: SequenceId,
    direction: usize,
) -> EditResult<&[FrameId]> {
    let sequence = sequence(doc, sequence_id)?;
    sequence
        .directions
        .get(direction)
        .map(|d| d.frames.as_slice())
        .ok_or_else(|| {
            EditError::new(format!(
                "sequence \"{}\" has no direction {direction}",
                sequence.name
            ))
        })
}

/// The frame list of one direction, for changing.
pub(crate) fn direction_frames_mut<'t>(
    tx: &'t mut Tx,
    sequence_id: SequenceId,
    direction: usize,
) -> EditResult<&'t mut Vec<FrameId>> {
    direction_frames(tx.doc(), sequence_id, direction)?;
    let sequence = tx.sequence_mut(sequence_id)?;
    Ok(&mut sequence.directions[direction].frames)
}

/// Refuses positions outside a direction of `len` frames, and empty selections.
pub(crate) fn check_positions(positions: &[usize], len: usize) -> EditResult {
    if positions.is_empty() {
        return Err(EditError::new("no frame is selected"));
    }
    if let Some(bad) = positions.iter().find(|&&p| p >= len) {
        return Err(EditError::new(format!(
            "there is no frame {bad} (the direction has {})",
            crate::text::count(len, "frame")
        )));
    }
    Ok(())
}

/// Sorted, without repeats.
pub(crate) fn sorted_unique(positions: &[usize]) -> Vec<usize> {
    let mut out = positions.to_vec();
    out.sort_unstable();
    out.dedup();
    out
}

/// Refuses an empty name or one another sequence already has.
pub(crate) fn check_sequence_name(
    doc: &AnimationSet,
    name: &str,
    except: Option<SequenceId>,
) -> EditResult {
    if name.trim().is_empty() {
        return Err(EditError::new("a sequence needs a name"));
    }
    if doc
        .sequences()
        .iter()
        .any(|s| s.name == name && Some(s.id) != except)
    {
        return Err(EditError::new(format!(
            "another sequence is already named \"{name}\""
        )));
    }
    Ok(())
}

/// `base`, or `base 2`, `base 3`, ... whichever no sequence uses yet.
pub(crate) fn unique_sequence_name(doc: &AnimationSet, base: &str) -> String {
    let taken: HashSet<&str> = doc.sequences().iter().map(|s| s.name.as_str()).collect();
    if !taken.contains(base) {
        return base.to_string();
    }
    (2..)
        .map(|n| format!("{base} {n}"))
        .find(|candidate| !taken.contains(candidate.as_str()))
        .expect("an unused name exists")
}

/// After `removed` positions (sorted) left a direction, the loop point that keeps pointing at
/// the same frame, or at the frame that took its place, inside the new length.
pub(crate) fn loop_point_after_removal(
    loop_point: Option<usize>,
    removed: &[usize],
    new_max_frames: usize,
) -> Option<usize> {
    loop_point.map(|lp| {
        let before = removed.iter().filter(|&&r| r < lp).count();
        (lp - before).min(new_max_frames.saturating_sub(1))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_past_a_one_frame_direction_is_refused_in_plain_words() {
        assert_eq!(
            check_positions(&[2], 1).unwrap_err().message,
            "there is no frame 2 (the direction has 1 frame)"
        );
        assert_eq!(
            check_positions(&[5], 3).unwrap_err().message,
            "there is no frame 5 (the direction has 3 frames)"
        );
    }
}
