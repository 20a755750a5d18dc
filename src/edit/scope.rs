//! Which frames a multi-frame tool works on: the timeline's selected cells, some sequences,
//! or every sequence.

use super::common_steps::{check_positions, sequence, sorted_unique};
use super::error::{EditError, EditResult};
use crate::model::{AnimationSet, SequenceId};

/// Which frames a tool works on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FrameScope {
    /// Cells of one direction, by position (the timeline's selection).
    Frames {
        /// The sequence.
        sequence: SequenceId,
        /// The direction index.
        direction: usize,
        /// Positions in the direction.
        positions: Vec<usize>,
    },
    /// Every direction of these sequences.
    Sequences(Vec<SequenceId>),
    /// Every sequence of the document.
    Everything,
}

/// Cells of one direction a tool works on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirectionCells {
    /// The sequence.
    pub sequence: SequenceId,
    /// The direction index.
    pub direction: usize,
    /// Positions in the direction, in play order, without repeats.
    pub positions: Vec<usize>,
    /// True when the positions are the whole direction.
    pub whole: bool,
}

impl FrameScope {
    /// The cells, grouped by sequence (one entry per direction), or a refusal: an empty
    /// selection, a position past the end, an unknown sequence, a document without sequences.
    pub fn cells(&self, doc: &AnimationSet) -> EditResult<Vec<Vec<DirectionCells>>> {
        let whole = |id: SequenceId| -> EditResult<Vec<DirectionCells>> {
            let s = sequence(doc, id)?;
            Ok(s.directions
                .iter()
                .enumerate()
                .map(|(direction, d)| DirectionCells {
                    sequence: id,
                    direction,
                    positions: (0..d.frames.len()).collect(),
                    whole: true,
                })
                .collect())
        };
        match self {
            FrameScope::Frames {
                sequence: id,
                direction,
                positions,
            } => {
                let s = sequence(doc, *id)?;
                let Some(listed) = s.directions.get(*direction) else {
                    return Err(EditError::new(format!(
                        "sequence \"{}\" has no direction {direction}",
                        s.name
                    )));
                };
                check_positions(positions, listed.frames.len())?;
                let positions = sorted_unique(positions);
                Ok(vec![vec![DirectionCells {
                    sequence: *id,
                    direction: *direction,
                    whole: positions.len() == listed.frames.len(),
                    positions,
                }]])
            }
            FrameScope::Sequences(ids) => {
                if ids.is_empty() {
                    return Err(EditError::new("no sequence is selected"));
                }
                ids.iter().map(|&id| whole(id)).collect()
            }
            FrameScope::Everything => {
                let ids: Vec<SequenceId> = doc.sequences().iter().map(|s| s.id).collect();
                if ids.is_empty() {
                    return Err(EditError::new("the document has no sequences"));
                }
                ids.into_iter().map(whole).collect()
            }
        }
    }
}
