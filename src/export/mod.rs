//! Pictures out of a document: one frame or a strip of frames as PNG, a sequence as an animated
//! GIF or APNG with exact timing, [`files`] to save a writer's output (main file plus
//! companions) all or nothing, and [`job`]: a whole export as the editor's Export dialog asks
//! for it, with progress and Cancel. Everything is drawn by [`crate::render`] and timed by the playback
//! engine ([`timeline`]); the functions return bytes or images and leave writing files to the
//! caller.

pub mod apng;
pub mod files;
pub mod gif;
pub mod job;
pub mod png;
pub mod timeline;

pub use apng::{ApngExport, export_apng};
pub use files::{save_together, save_written};
pub use gif::{GifExport, export_gif, spread_delays};
pub use png::{encode_png, frame_image, game_sheet_image, strip_image};
pub use timeline::{Ending, Step, Timeline};

use crate::model::SequenceId;
use std::fmt;

/// Why an export failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExportError {
    /// No sequence has this id.
    NoSequence(SequenceId),
    /// The sequence has no direction with this index.
    NoDirection(usize),
    /// The direction has no frame with this index.
    NoFrame(usize),
    /// The direction has no frames at all.
    NoFrames,
    /// The picture would be too large to hold in memory.
    TooLarge {
        /// Width in pixels.
        width: u64,
        /// Height in pixels.
        height: u64,
    },
    /// The image encoder failed.
    Encode(String),
    /// The caller cancelled the export.
    Cancelled,
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportError::NoSequence(id) => write!(f, "there is no sequence {id}"),
            ExportError::NoDirection(d) => write!(f, "the sequence has no direction {d}"),
            ExportError::NoFrame(i) => write!(f, "the direction has no frame {i}"),
            ExportError::NoFrames => write!(f, "the direction has no frames"),
            ExportError::TooLarge { width, height } => {
                write!(
                    f,
                    "the picture would be {width} × {height} pixels, too large"
                )
            }
            ExportError::Encode(message) => write!(f, "cannot encode the image: {message}"),
            ExportError::Cancelled => write!(f, "the export was cancelled"),
        }
    }
}

impl std::error::Error for ExportError {}
