//! The text edits planned over an ADL file before any is made: new values, keys, lines and
//! deletions by property, gathered by the edit (and the restructuring of animations whose
//! frames changed) and applied in one pass, so every byte nobody edited stays.

use std::collections::BTreeMap;
use std::ops::Range;

/// Text edits planned for one property's value.
#[derive(Default)]
pub(super) struct ValueEdit {
    /// Decoded ranges of the value and their new text.
    pub(super) replacements: Vec<(Range<usize>, String)>,
    /// Items appended at the end of the value.
    pub(super) appended: Vec<String>,
    /// A whole new value (frames rewritten after frames were added, removed or reordered).
    pub(super) whole: Option<String>,
}

/// A frame line the file lacks, to be written with these items.
pub(super) struct MissingFrame {
    /// Raw position to insert the line at.
    pub(super) at: usize,
    /// The line's key.
    pub(super) key: String,
    /// Its items.
    pub(super) items: Vec<String>,
}

/// All text edits, by property index.
#[derive(Default)]
pub(super) struct Plan {
    pub(super) values: BTreeMap<usize, ValueEdit>,
    pub(super) keys: BTreeMap<usize, String>,
    /// New lines: (raw position to insert at, the line without terminator).
    pub(super) new_lines: Vec<(usize, String)>,
    /// Lines the file lacks, by (animation, frame number).
    pub(super) missing: BTreeMap<(usize, usize), MissingFrame>,
    /// Raw ranges to delete (whole lines with their terminators).
    pub(super) deletions: Vec<Range<usize>>,
    /// Text added at the end of the file (new animations).
    pub(super) tail: String,
}

/// Escapes a value for a `.properties` file.
pub(super) fn escape_value(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for (i, ch) in value.chars().enumerate() {
        match ch {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\x0c' => out.push_str("\\f"),
            ' ' if i == 0 => out.push_str("\\ "),
            other => out.push(other),
        }
    }
    out
}

/// The line ending the file uses (CRLF when any line has one).
pub(super) fn line_ending(bytes: &[u8]) -> &'static str {
    if bytes.windows(2).any(|w| w == b"\r\n") {
        "\r\n"
    } else {
        "\n"
    }
}
