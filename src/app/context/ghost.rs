//! Frames shown faint where a tool would move them, before it is applied: the Align frames
//! window says what it would do, the canvas draws it.

use crate::model::{Point, SequenceId};

/// The moves a tool would make to the frames of one direction.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameGhost {
    /// The sequence.
    pub sequence: SequenceId,
    /// The direction index.
    pub direction: usize,
    /// `(position, move)`: the frame at that position would be drawn moved by that much.
    pub moves: Vec<(usize, Point)>,
}
