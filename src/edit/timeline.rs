//! Commands on a direction's frame list: insert, duplicate, delete, reorder, durations, the
//! loop point, and the order its frames play in (an Aseprite tag's direction and repeat).

use super::command::Command;
use super::common_steps::{
    add_frame_copy, check_positions, direction_frames, direction_frames_mut, drop_orphans,
    loop_point_after_removal, sequence, sorted_unique,
};
use super::error::{EditError, EditResult};
use super::selection::Selection;
use super::snapshot::Tx;
use crate::model::play_order::{play_order, play_rule};
use crate::model::{AnimationSet, Frame, FrameDuration, FrameId, PlayDirection, SequenceId};
use std::mem::discriminant;

/// Inserts frames (copies of `frames` under new ids) at a position of a direction.
#[derive(Clone, Debug)]
pub struct InsertFrames {
    /// The sequence.
    pub sequence: SequenceId,
    /// The direction index.
    pub direction: usize,
    /// Where: 0 = before the first frame, the frame count = at the end.
    pub index: usize,
    /// The frames to insert.
    pub frames: Vec<Frame>,
}

impl Command for InsertFrames {
    fn label(&self) -> String {
        crate::text::acting_on("Insert", self.frames.len(), "frame")
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        if self.frames.is_empty() {
            return Err(EditError::new("there is no frame to insert"));
        }
        for frame in &self.frames {
            check_duration_unit(tx.doc(), None, frame.duration)?;
        }
        let ids: Vec<FrameId> = self
            .frames
            .iter()
            .map(|frame| add_frame_copy(tx, frame))
            .collect();
        insert_ids(tx, self.sequence, self.direction, self.index, &ids)
    }
}

/// Inserts a blank frame, as long as the frame before it (or after it, or the set's first).
#[derive(Clone, Debug)]
pub struct InsertBlankFrame {
    /// The sequence.
    pub sequence: SequenceId,
    /// The direction index.
    pub direction: usize,
    /// Where: 0 = before the first frame, the frame count = at the end.
    pub index: usize,
}

impl Command for InsertBlankFrame {
    fn label(&self) -> String {
        "Insert frame".to_string()
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        let frames = direction_frames(tx.doc(), self.sequence, self.direction)?;
        let neighbour = self
            .index
            .checked_sub(1)
            .and_then(|i| frames.get(i))
            .or_else(|| frames.get(self.index))
            .and_then(|id| tx.doc().frame(*id))
            .or_else(|| tx.doc().frames.values().next());
        let duration = neighbour.map_or(FrameDuration::Millis(100), |f| f.duration);
        let id = tx.add_frame(Frame::new(duration));
        insert_ids(tx, self.sequence, self.direction, self.index, &[id])
    }
}

/// Lists `ids` at `index` of a direction, moves the loop point with the frames after it, and
/// selects the new cells.
pub(crate) fn insert_ids(
    tx: &mut Tx,
    sequence_id: SequenceId,
    direction: usize,
    index: usize,
    ids: &[FrameId],
) -> EditResult {
    let len = direction_frames(tx.doc(), sequence_id, direction)?.len();
    if index > len {
        return Err(EditError::new(format!(
            "cannot insert at frame {index}: the direction has {}",
            crate::text::count(len, "frame")
        )));
    }
    let seq = tx.sequence_mut(sequence_id)?;
    let frames = &mut seq.directions[direction].frames;
    frames.splice(index..index, ids.iter().copied());
    // Inserting inside the part before the loop keeps looping on the same frame. With several
    // directions the loop point is shared, so it only moves when there is one.
    if seq.directions.len() == 1
        && let Some(lp) = seq.loop_point
        && index < lp
    {
        seq.loop_point = Some(lp + ids.len());
    }
    tx.select(Selection::frames(
        sequence_id,
        direction,
        (index..index + ids.len()).collect(),
    ));
    Ok(())
}

/// Copies the frames at some positions (under new ids) and inserts the copies after the last one.
#[derive(Clone, Debug)]
pub struct DuplicateFrames {
    /// The sequence.
    pub sequence: SequenceId,
    /// The direction index.
    pub direction: usize,
    /// The positions to copy (any order; copies keep timeline order).
    pub positions: Vec<usize>,
}

impl Command for DuplicateFrames {
    fn label(&self) -> String {
        crate::text::acting_on("Duplicate", sorted_unique(&self.positions).len(), "frame")
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        let frames = direction_frames(tx.doc(), self.sequence, self.direction)?.to_vec();
        check_positions(&self.positions, frames.len())?;
        let positions = sorted_unique(&self.positions);
        let mut ids = Vec::new();
        for p in &positions {
            let frame =
                tx.doc().frame(frames[*p]).cloned().ok_or_else(|| {
                    EditError::new(format!("frame {} does not exist", frames[*p]))
                })?;
            ids.push(add_frame_copy(tx, &frame));
        }
        let after = positions.last().expect("not empty") + 1;
        insert_ids(tx, self.sequence, self.direction, after, &ids)
    }
}

/// Removes the frames at some positions of a direction (frames nothing else lists are deleted).
#[derive(Clone, Debug)]
pub struct DeleteFrames {
    /// The sequence.
    pub sequence: SequenceId,
    /// The direction index.
    pub direction: usize,
    /// The positions to remove.
    pub positions: Vec<usize>,
}

impl Command for DeleteFrames {
    fn label(&self) -> String {
        crate::text::acting_on("Delete", sorted_unique(&self.positions).len(), "frame")
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        let len = direction_frames(tx.doc(), self.sequence, self.direction)?.len();
        check_positions(&self.positions, len)?;
        let positions = sorted_unique(&self.positions);
        let frames = direction_frames_mut(tx, self.sequence, self.direction)?;
        // One pass over the list, however many positions go.
        let removed: Vec<FrameId> = positions.iter().rev().map(|&p| frames[p]).collect();
        let mut position = 0;
        let mut gone = positions.iter().peekable();
        frames.retain(|_| {
            let keep = gone.next_if_eq(&&position).is_none();
            position += 1;
            keep
        });
        let new_len = frames.len();
        let seq = tx.sequence_mut(self.sequence)?;
        seq.loop_point = if seq.directions.len() == 1 {
            loop_point_after_removal(seq.loop_point, &positions, seq.max_frames())
        } else {
            seq.loop_point
                .map(|lp| lp.min(seq.max_frames().saturating_sub(1)))
        };
        drop_orphans(tx, removed);
        let first = positions[0].min(new_len.saturating_sub(1));
        let selected = if new_len == 0 {
            Vec::new()
        } else {
            vec![first]
        };
        tx.select(Selection::frames(self.sequence, self.direction, selected));
        Ok(())
    }
}

/// Moves some frames of a direction, keeping their order, to a gap of the timeline (dragging
/// a multi-selection).
#[derive(Clone, Debug)]
pub struct MoveFrames {
    /// The sequence.
    pub sequence: SequenceId,
    /// The direction index.
    pub direction: usize,
    /// The positions moved.
    pub positions: Vec<usize>,
    /// The gap they are dropped in, counted before the move: 0 = before the first frame, the
    /// frame count = after the last.
    pub to: usize,
}

impl Command for MoveFrames {
    fn label(&self) -> String {
        crate::text::acting_on("Move", sorted_unique(&self.positions).len(), "frame")
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        let len = direction_frames(tx.doc(), self.sequence, self.direction)?.len();
        check_positions(&self.positions, len)?;
        if self.to > len {
            return Err(EditError::new(format!(
                "cannot move to frame {}: the direction has {}",
                self.to,
                crate::text::count(len, "frame")
            )));
        }
        let positions = sorted_unique(&self.positions);
        let frames = direction_frames_mut(tx, self.sequence, self.direction)?;
        let moved: Vec<FrameId> = positions.iter().map(|p| frames[*p]).collect();
        for p in positions.iter().rev() {
            frames.remove(*p);
        }
        let at = self.to - positions.iter().filter(|&&p| p < self.to).count();
        frames.splice(at..at, moved.iter().copied());
        tx.select(Selection::frames(
            self.sequence,
            self.direction,
            (at..at + moved.len()).collect(),
        ));
        Ok(())
    }
}

/// Sets the duration of the frames at some positions (the inspector with several cells
/// selected). The unit stays the file's own.
#[derive(Clone, Debug)]
pub struct SetDurations {
    /// The sequence.
    pub sequence: SequenceId,
    /// The direction index.
    pub direction: usize,
    /// The positions.
    pub positions: Vec<usize>,
    /// The new duration.
    pub duration: FrameDuration,
}

impl Command for SetDurations {
    fn label(&self) -> String {
        format!("Set duration to {}", self.duration)
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        let frames = direction_frames(tx.doc(), self.sequence, self.direction)?.to_vec();
        check_positions(&self.positions, frames.len())?;
        for p in sorted_unique(&self.positions) {
            set_duration(tx, frames[p], self.duration)?;
        }
        Ok(())
    }
}

/// Sets one frame's duration (dragging a cell's edge; give the drag a gesture).
#[derive(Clone, Debug)]
pub struct SetFrameDuration {
    /// The frame.
    pub frame: FrameId,
    /// The new duration.
    pub duration: FrameDuration,
}

impl Command for SetFrameDuration {
    fn label(&self) -> String {
        format!("Set duration to {}", self.duration)
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        set_duration(tx, self.frame, self.duration)
    }
}

/// Gives every frame of every direction of a sequence one duration: the animation's delay, for
/// formats that keep one per animation (Solarus `frame_delay`) rather than one per frame.
#[derive(Clone, Debug)]
pub struct SetSequenceDelay {
    /// The sequence.
    pub sequence: SequenceId,
    /// The delay.
    pub duration: FrameDuration,
}

impl Command for SetSequenceDelay {
    fn label(&self) -> String {
        format!("Set delay to {}", self.duration)
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        let frames: Vec<FrameId> = sequence(tx.doc(), self.sequence)?
            .directions
            .iter()
            .flat_map(|d| d.frames.iter().copied())
            .collect();
        for frame in frames {
            set_duration(tx, frame, self.duration)?;
        }
        Ok(())
    }
}

fn set_duration(tx: &mut Tx, frame: FrameId, duration: FrameDuration) -> EditResult {
    let current = tx.frame_mut(frame)?.duration;
    check_duration_unit(tx.doc(), Some(current), duration)?;
    tx.frame_mut(frame)?.duration = duration;
    Ok(())
}

/// Refuses a duration in another unit than the frame's (or, for a frame shown forever or a
/// new frame, than the document's): a MUGEN file counts ticks, a Solarus file milliseconds.
pub(crate) fn check_duration_unit(
    doc: &AnimationSet,
    current: Option<FrameDuration>,
    new: FrameDuration,
) -> EditResult {
    if new == FrameDuration::Forever {
        return Ok(());
    }
    let reference = current
        .filter(|d| *d != FrameDuration::Forever)
        .or_else(|| {
            doc.frames
                .values()
                .map(|f| f.duration)
                .find(|d| *d != FrameDuration::Forever)
        });
    match reference {
        Some(unit) if discriminant(&unit) != discriminant(&new) => Err(EditError::new(format!(
            "this document counts frame durations in {}, not {}",
            unit.unit_name(),
            new.unit_name()
        ))),
        _ => Ok(()),
    }
}

/// Plays the frames a direction shows (each once, in the document's frame order: the file's
/// order) forwards, backwards or bouncing, `repeat` times, 0 looping forever: an Aseprite
/// tag's direction and repeat count. The cells are spelled out again (a ping-pong's way back
/// shows the same frames again) and the sequence loops to its first cell, or plays once.
#[derive(Clone, Debug)]
pub struct SetPlayOrder {
    /// The sequence.
    pub sequence: SequenceId,
    /// The direction index.
    pub direction: usize,
    /// How the frames play.
    pub play: PlayDirection,
    /// How many times; 0 = forever.
    pub repeat: u16,
}

impl SetPlayOrder {
    /// The cells the direction of `doc` would have and whether they loop.
    pub fn spelled_out(&self, doc: &AnimationSet) -> EditResult<(Vec<FrameId>, bool)> {
        let cells = direction_frames(doc, self.sequence, self.direction)?;
        let mut shown: Vec<FrameId> = Vec::new();
        for id in cells {
            if !shown.contains(id) {
                shown.push(*id);
            }
        }
        if shown.is_empty() {
            return Err(EditError::new("the direction has no frames to play"));
        }
        shown.sort_by_key(|id| doc.frames.get_index_of(id));
        let order = play_order(0, shown.len() - 1, self.play, self.repeat);
        if order.repeat_dropped {
            return Err(EditError::new(format!(
                "{} repeats of {} are too many to spell out; choose fewer, or 0 to loop forever",
                self.repeat,
                crate::text::count(shown.len(), "frame")
            )));
        }
        Ok((
            order.frames.iter().map(|i| shown[*i]).collect(),
            order.loops,
        ))
    }
}

impl Command for SetPlayOrder {
    fn label(&self) -> String {
        let times = match self.repeat {
            0 => "forever".to_string(),
            n => crate::text::count(usize::from(n), "time"),
        };
        format!("Play {} {times}", self.play.label())
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        let (cells, loops) = self.spelled_out(tx.doc())?;
        let now = direction_frames(tx.doc(), self.sequence, self.direction)?;
        let looped = tx.doc().sequence(self.sequence).map(|s| s.loop_point) == Some(Some(0));
        if now == cells.as_slice() && looped == loops {
            // Two frames play the same forward and ping-pong: say so rather than do nothing.
            return Err(EditError::new(format!(
                "{} plays these {} as they play now",
                self.play.label(),
                crate::text::count(cells.len(), "cell")
            )));
        }
        *direction_frames_mut(tx, self.sequence, self.direction)? = cells;
        tx.sequence_mut(self.sequence)?.loop_point = loops.then_some(0);
        Ok(())
    }
}

/// How the cells of a direction of `doc` play its frames (each once, in the document's frame
/// order), when some direction and repeat count plays them so: what [`SetPlayOrder`] sets.
pub fn play_order_of(
    doc: &AnimationSet,
    sequence: SequenceId,
    direction: usize,
) -> Option<(PlayDirection, u16)> {
    let cells = direction_frames(doc, sequence, direction).ok()?;
    let mut shown: Vec<FrameId> = cells.to_vec();
    shown.sort_by_key(|id| doc.frames.get_index_of(id));
    shown.dedup();
    let positions: Vec<usize> = cells
        .iter()
        .filter_map(|id| shown.iter().position(|s| s == id))
        .collect();
    let loops = doc.sequence(sequence)?.loop_point == Some(0);
    let (_, _, play, repeat) = play_rule(&positions, loops)?;
    Some((play, repeat))
}

/// Sets the frame playback goes back to after the last one (`None` = play once).
#[derive(Clone, Debug)]
pub struct SetLoopPoint {
    /// The sequence.
    pub sequence: SequenceId,
    /// The frame index looped to.
    pub loop_point: Option<usize>,
}

impl Command for SetLoopPoint {
    fn label(&self) -> String {
        match self.loop_point {
            Some(i) => format!("Loop from frame {i}"),
            None => "Play once".to_string(),
        }
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        let seq = sequence(tx.doc(), self.sequence)?;
        if let Some(lp) = self.loop_point {
            let count = seq.max_frames();
            if lp >= count.max(1) {
                return Err(EditError::new(format!(
                    "the loop point must be one of the sequence's frames (0 to {}); {lp} is past the end",
                    count.saturating_sub(1)
                )));
            }
        }
        tx.sequence_mut(self.sequence)?.loop_point = self.loop_point;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::{History, Selection};
    use crate::model::{DirectionId, Sequence, TreeItem};

    /// A sequence whose cells show the frames 0 1 2 1 (a ping-pong looping forever).
    fn bouncing() -> (AnimationSet, SequenceId, Vec<FrameId>) {
        let mut doc = AnimationSet::new();
        let id = SequenceId(doc.alloc_id());
        let direction = DirectionId(doc.alloc_id());
        let mut sequence = Sequence::new(id, "bounce", direction);
        let frames: Vec<FrameId> = (0..3)
            .map(|_| {
                let frame = FrameId(doc.alloc_id());
                doc.frames
                    .insert(frame, Frame::new(FrameDuration::Millis(100)));
                frame
            })
            .collect();
        sequence.directions[0].frames = vec![frames[0], frames[1], frames[2], frames[1]];
        sequence.loop_point = Some(0);
        doc.root.items.push(TreeItem::Sequence(sequence));
        (doc, id, frames)
    }

    #[test]
    fn the_play_order_of_a_direction_is_read_and_set_in_one_undo_step() {
        let (mut doc, id, f) = bouncing();
        let before = doc.clone();
        assert_eq!(
            play_order_of(&doc, id, 0),
            Some((PlayDirection::PingPong, 0))
        );
        let mut history = History::new();
        let reverse_twice = SetPlayOrder {
            sequence: id,
            direction: 0,
            play: PlayDirection::Reverse,
            repeat: 2,
        };
        assert_eq!(reverse_twice.label(), "Play reverse 2 times");
        history
            .apply(&mut doc, &Selection::none(), &reverse_twice, None)
            .unwrap();
        let sequence = doc.sequence(id).unwrap();
        assert_eq!(
            sequence.directions[0].frames,
            vec![f[2], f[1], f[0], f[2], f[1], f[0]]
        );
        assert_eq!(sequence.loop_point, None, "a finite repeat plays once");
        assert_eq!(
            play_order_of(&doc, id, 0),
            Some((PlayDirection::Reverse, 2))
        );
        let ping_pong_reverse = SetPlayOrder {
            play: PlayDirection::PingPongReverse,
            repeat: 0,
            ..reverse_twice
        };
        history
            .apply(&mut doc, &Selection::none(), &ping_pong_reverse, None)
            .unwrap();
        let sequence = doc.sequence(id).unwrap();
        assert_eq!(sequence.directions[0].frames, vec![f[2], f[1], f[0], f[1]]);
        assert_eq!(sequence.loop_point, Some(0));
        history.undo(&mut doc);
        history.undo(&mut doc);
        assert_eq!(doc, before);

        let too_many = SetPlayOrder {
            repeat: u16::MAX,
            ..reverse_twice
        };
        let refused = history.apply(&mut doc, &Selection::none(), &too_many, None);
        assert!(refused.unwrap_err().message.contains("too many"));
        assert_eq!(doc, before);

        // What already plays so is refused in words, not done silently as nothing.
        let again = SetPlayOrder {
            play: PlayDirection::PingPong,
            repeat: 0,
            ..reverse_twice
        };
        let refused = history.apply(&mut doc, &Selection::none(), &again, None);
        assert_eq!(
            refused.unwrap_err().message,
            "ping-pong plays these 4 cells as they play now"
        );
        assert_eq!(doc, before);
    }
}
