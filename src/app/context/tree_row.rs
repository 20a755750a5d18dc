//! What a line of the hierarchy tree stands for: a group, a sequence or one of its
//! directions. The tree panel lays its rows out by it, and a click on a row is queued as a
//! [`SystemCommand`](crate::app::context::command_sender::SystemCommand) carrying it.

use crate::model::{GroupId, SequenceId};

/// One line of the tree.
#[derive(Clone, Debug, PartialEq)]
pub enum RowKind {
    /// A group header.
    Group(GroupId),
    /// A sequence.
    Sequence(SequenceId),
    /// One direction of a multi-direction sequence.
    Direction(SequenceId, usize),
}

impl RowKind {
    /// What the row is, as the user names it ("group", "sequence", "direction").
    pub fn noun(&self) -> &'static str {
        match self {
            RowKind::Group(_) => "group",
            RowKind::Sequence(_) => "sequence",
            RowKind::Direction(..) => "direction",
        }
    }
}
