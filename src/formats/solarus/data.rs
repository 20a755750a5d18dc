//! The Solarus animation description both syntaxes share, and where each part of it sits in
//! the file, so diagnostics can point at it and the writer can keep untouched text.

use std::ops::Range;

/// The image keyword that means "the current map's tileset entities image".
pub const TILESET_KEYWORD: &str = "tileset";

/// At most this many frames in one direction; a larger count is refused so a few bytes cannot
/// make the reader allocate millions of frames.
pub const MAX_FRAMES_PER_DIRECTION: u32 = 4096;

/// At most this many frames in one file, for the same reason.
pub const MAX_FRAMES_PER_FILE: usize = 65_536;

/// One direction: frames of one size laid row by row on a grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirectionData {
    /// Left edge of the first frame.
    pub x: i32,
    /// Top edge of the first frame.
    pub y: i32,
    /// Width of every frame.
    pub frame_width: u32,
    /// Height of every frame.
    pub frame_height: u32,
    /// The origin, from the top-left corner of a frame.
    pub origin_x: i32,
    /// The origin, from the top-left corner of a frame.
    pub origin_y: i32,
    /// How many frames.
    pub num_frames: u32,
    /// Frames per grid row (1..=num_frames).
    pub num_columns: u32,
}

impl DirectionData {
    /// The rectangle of frame `index`: row by row, `num_columns` per row.
    pub fn frame_rect(&self, index: u32) -> (i64, i64, u32, u32) {
        let columns = self.num_columns.max(1);
        let column = (index % columns) as i64;
        let row = (index / columns) as i64;
        (
            self.x as i64 + column * self.frame_width as i64,
            self.y as i64 + row * self.frame_height as i64,
            self.frame_width,
            self.frame_height,
        )
    }
}

/// One animation as the file describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnimationData {
    /// Its name, unique in the file.
    pub name: String,
    /// The image path relative to `sprites/`, or [`TILESET_KEYWORD`].
    pub src_image: String,
    /// Milliseconds per frame; 0 = one still frame that never ends.
    pub frame_delay: u32,
    /// The frame to loop on, or -1 for no loop.
    pub loop_on_frame: i32,
    /// The directions, numbered from 0.
    pub directions: Vec<DirectionData>,
}

/// An animation read from a file, with the places of its parts.
#[derive(Clone, Debug)]
pub struct Entry {
    /// What it says. Only meaningful when `usable`.
    pub data: AnimationData,
    /// The bytes of the whole animation, from its first token to its last.
    pub span: Range<usize>,
    /// Where its name is (for diagnostics).
    pub name_at: usize,
    /// Where the loop frame is given, or the animation's start when it is not.
    pub loop_at: usize,
    /// Where each direction starts.
    pub direction_at: Vec<usize>,
    /// False when the animation has an error that keeps it out of the document; its text is
    /// still written back untouched.
    pub usable: bool,
    /// Syntax-specific pieces the writer needs to re-emit the animation faithfully.
    pub extra: EntryExtra,
}

/// What one syntax keeps about an entry besides the shared data.
#[derive(Clone, Debug, Default)]
pub enum EntryExtra {
    /// Nothing more.
    #[default]
    None,
    /// The legacy text form: the byte ranges of the header line and of each direction line
    /// (without their line ends).
    Lines {
        /// The header line.
        header: Range<usize>,
        /// One range per direction line.
        directions: Vec<Range<usize>>,
    },
    /// The Lua form: fields the engine does not know, as written, re-emitted after the known
    /// ones when the animation is rewritten.
    UnknownFields(Vec<String>),
}
