//! Sequences (animations, actions) and their directions.

use super::ids::{DirectionId, FrameId, SequenceId};
use serde::{Deserialize, Serialize};

/// What a sequence does after its last frame when it does not loop.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EndBehavior {
    /// The last frame stays on screen.
    #[default]
    HoldLastFrame,
    /// The sprite disappears (Solarus `loop_on_frame = -1` with a non-zero delay).
    Disappear,
}

/// One direction of a sequence: the frames it plays, in order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Direction {
    /// Stable id.
    pub id: DirectionId,
    /// A name for the user interface; `None` uses the conventional one (see
    /// [`Sequence::direction_label`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The frames, in play order. The same frame may appear in several places.
    pub frames: Vec<FrameId>,
}

/// An animation: one or more directions that share a loop point and timing rules.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sequence {
    /// Stable id.
    pub id: SequenceId,
    /// Its name (MUGEN: the action number as text).
    pub name: String,
    /// At least one direction (Solarus has 4 or 8; the other formats 1).
    pub directions: Vec<Direction>,
    /// The frame index playback goes back to after the last frame; `None` = stop at the end.
    pub loop_point: Option<usize>,
    /// What happens after the last frame when there is no loop.
    #[serde(default)]
    pub on_end: EndBehavior,
    /// The sequence that starts when this one ends (ISPRITE follow-up), found by the
    /// set-animation-by-name rule. It wins over the loop point.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub follow_up: Option<String>,
    /// Frames per second for [`super::FrameDuration::Holds`]; `None` uses the set's rate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame_rate: Option<u32>,
    /// A human title shown beside the name (M.U.G.E.N: the comment line above
    /// `[Begin Action N]`, such as "Standing Animation"); one line of text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

const FOUR_WAY: [&str; 4] = ["right", "up", "left", "down"];
const EIGHT_WAY: [&str; 8] = [
    "right",
    "up-right",
    "up",
    "up-left",
    "left",
    "down-left",
    "down",
    "down-right",
];

impl Sequence {
    /// A sequence with one empty direction.
    pub fn new(id: SequenceId, name: impl Into<String>, direction: DirectionId) -> Sequence {
        Sequence {
            id,
            name: name.into(),
            directions: vec![Direction {
                id: direction,
                name: None,
                frames: Vec::new(),
            }],
            loop_point: Some(0),
            on_end: EndBehavior::HoldLastFrame,
            follow_up: None,
            frame_rate: None,
            title: None,
        }
    }

    /// The label of direction `index`: its own name, else the 4-way or 8-way convention
    /// (0 = right, counter-clockwise), else its number.
    pub fn direction_label(&self, index: usize) -> String {
        if let Some(name) = self.directions.get(index).and_then(|d| d.name.clone()) {
            return name;
        }
        match self.directions.len() {
            4 => FOUR_WAY[index.min(3)].to_string(),
            8 => EIGHT_WAY[index.min(7)].to_string(),
            _ => index.to_string(),
        }
    }

    /// The largest frame count over all directions.
    pub fn max_frames(&self) -> usize {
        self.directions
            .iter()
            .map(|d| d.frames.len())
            .max()
            .unwrap_or(0)
    }
}
