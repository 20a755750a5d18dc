//! Undo and redo: a list of done steps and a list of undone ones.

use super::command::{Command, Gesture};
use super::error::EditResult;
use super::selection::Selection;
use super::snapshot::{Snapshot, Tx};
use crate::model::AnimationSet;

/// How many steps are kept by default; older ones are forgotten.
pub const DEFAULT_LIMIT: usize = 1000;

/// A point in the history, to tell whether the document still matches what was saved.
///
/// Every new or merged step gets a new position, so a document that went back to a saved state
/// by undo compares equal, and one that reached the same step count by other edits does not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HistoryPosition(u64);

#[derive(Debug)]
struct Step {
    label: String,
    before: Snapshot,
    after: Snapshot,
    selection_before: Selection,
    selection_after: Selection,
    gesture: Option<Gesture>,
    serial: u64,
}

/// Which side of a step undo or redo puts the document back to.
#[derive(Clone, Copy)]
enum Side {
    Before,
    After,
}

impl Step {
    /// Restores the document as it was on `side` of the step; the selection it had then.
    fn put_back(&self, document: &mut AnimationSet, side: Side) -> Selection {
        let (snapshot, selection) = match side {
            Side::Before => (&self.before, &self.selection_before),
            Side::After => (&self.after, &self.selection_after),
        };
        snapshot.restore(document);
        selection.clone()
    }
}

/// One line of the history list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryEntry {
    /// The step's label.
    pub label: String,
    /// True for steps in effect (false for undone steps that redo would bring back).
    pub done: bool,
}

/// The undo history of one document.
#[derive(Debug)]
pub struct History {
    done: Vec<Step>,
    undone: Vec<Step>,
    next_serial: u64,
    limit: usize,
}

impl Default for History {
    fn default() -> Self {
        History::new()
    }
}

impl History {
    /// An empty history keeping [`DEFAULT_LIMIT`] steps.
    pub fn new() -> History {
        History::with_limit(DEFAULT_LIMIT)
    }

    /// An empty history keeping at most `limit` steps (at least 1).
    pub fn with_limit(limit: usize) -> History {
        History {
            done: Vec::new(),
            undone: Vec::new(),
            next_serial: 1,
            limit: limit.max(1),
        }
    }

    /// Runs `command` on `document` as a new undo step and returns the selection to show.
    ///
    /// `selection` is what the editor has selected now; undoing the step gives it back. With a
    /// `gesture` equal to the previous step's, the two become one step (a drag), named by the
    /// later command. A refused command changes nothing, and a command that changes nothing
    /// adds no step.
    pub fn apply(
        &mut self,
        document: &mut AnimationSet,
        selection: &Selection,
        command: &dyn Command,
        gesture: Option<Gesture>,
    ) -> EditResult<Selection> {
        let mut tx = Tx::new(document, selection);
        if let Err(error) = command.apply(&mut tx) {
            tx.roll_back();
            return Err(error);
        }
        let (before, selection_after) = tx.finish();
        let after = before.capture_like(document);
        if before == after {
            return Ok(selection_after);
        }
        self.undone.clear();
        let serial = self.take_serial();
        let merge =
            gesture.is_some() && self.done.last().is_some_and(|last| last.gesture == gesture);
        if merge {
            let last = self.done.pop().expect("checked above");
            let before = Snapshot::merge_before(last.before, before);
            let after = before.capture_like(document);
            // The latest command names the whole step: a drag's label says where it ended
            // ("Set duration to 9 ticks"), not where it began.
            self.done.push(Step {
                label: command.label(),
                before,
                after,
                selection_before: last.selection_before,
                selection_after: selection_after.clone(),
                gesture,
                serial,
            });
        } else {
            self.done.push(Step {
                label: command.label(),
                before,
                after,
                selection_before: selection.clone(),
                selection_after: selection_after.clone(),
                gesture,
                serial,
            });
            if self.done.len() > self.limit {
                self.done.remove(0);
            }
        }
        Ok(selection_after)
    }

    fn take_serial(&mut self) -> u64 {
        let serial = self.next_serial;
        self.next_serial += 1;
        serial
    }

    /// Undoes the last step; returns the selection from before it, or `None` if nothing to undo.
    pub fn undo(&mut self, document: &mut AnimationSet) -> Option<Selection> {
        let step = self.done.pop()?;
        let selection = step.put_back(document, Side::Before);
        self.undone.push(step);
        Some(selection)
    }

    /// Redoes the last undone step; returns the selection after it, or `None` if nothing to redo.
    pub fn redo(&mut self, document: &mut AnimationSet) -> Option<Selection> {
        let step = self.undone.pop()?;
        let selection = step.put_back(document, Side::After);
        self.done.push(step);
        Some(selection)
    }

    /// True when there is a step to undo.
    pub fn can_undo(&self) -> bool {
        !self.done.is_empty()
    }

    /// True when there is a step to redo.
    pub fn can_redo(&self) -> bool {
        !self.undone.is_empty()
    }

    /// The label of the step undo would undo.
    pub fn undo_label(&self) -> Option<&str> {
        self.done.last().map(|s| s.label.as_str())
    }

    /// The frames the last done step added, removed or changed (none for a step that
    /// touched only the tree, the images or the document's fields).
    pub fn last_step_frames(&self) -> Vec<crate::model::FrameId> {
        self.done
            .last()
            .map(|step| step.before.changed_frames(&step.after))
            .unwrap_or_default()
    }

    /// The label of the step redo would redo.
    pub fn redo_label(&self) -> Option<&str> {
        self.undone.last().map(|s| s.label.as_str())
    }

    /// Every step, oldest first: the done ones, then the undone ones in redo order.
    pub fn entries(&self) -> Vec<HistoryEntry> {
        let done = self.done.iter().map(|s| HistoryEntry {
            label: s.label.clone(),
            done: true,
        });
        let undone = self.undone.iter().rev().map(|s| HistoryEntry {
            label: s.label.clone(),
            done: false,
        });
        done.chain(undone).collect()
    }

    /// How many steps are in effect (the index in [`History::entries`] just after the current state).
    pub fn done_count(&self) -> usize {
        self.done.len()
    }

    /// Undoes or redoes until exactly `done_count` steps are in effect (clamped to what exists);
    /// returns the selection to show, or `None` if nothing moved.
    pub fn jump_to(&mut self, document: &mut AnimationSet, done_count: usize) -> Option<Selection> {
        let mut selection = None;
        while self.done.len() > done_count {
            selection = self.undo(document);
        }
        while self.done.len() < done_count && self.can_redo() {
            selection = self.redo(document);
        }
        selection
    }

    /// Where the history stands now.
    pub fn position(&self) -> HistoryPosition {
        HistoryPosition(self.done.last().map_or(0, |s| s.serial))
    }

    /// Forgets every step (after a reload from disk, whose ids no longer match).
    pub fn clear(&mut self) {
        self.done.clear();
        self.undone.clear();
    }
}
