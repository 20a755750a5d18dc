//! Messages about a file: where, how bad, and what.

use crate::model::{FrameId, ImageId, SequenceId};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Diagnostics listed per file before "… and N more", on the command line and in the editor
/// (which has a button for the rest): a damaged archive can have tens of thousands, and the
/// first ones say what is wrong.
pub const FIRST_DIAGNOSTICS_LISTED: usize = 200;

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Severity {
    /// The file (or part of it) cannot be used as it is.
    Error,
    /// Something is odd but the file was read.
    Warning,
    /// For information only.
    Info,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        })
    }
}

/// Where in a file a diagnostic points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Location {
    /// The file as a whole.
    File,
    /// A text position; both one-based.
    Text {
        /// Line, from 1.
        line: u32,
        /// Column, from 1, counted in characters (bytes for non-UTF-8 text).
        column: u32,
    },
    /// A byte offset from the start of a binary file.
    Byte(u64),
}

/// The part of the document a diagnostic is about, so the editor can select it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Subject {
    /// A sequence.
    Sequence(SequenceId),
    /// A frame of a sequence.
    Frame {
        /// The sequence.
        sequence: SequenceId,
        /// Direction index.
        direction: usize,
        /// Frame index within the direction.
        index: usize,
        /// The frame.
        frame: FrameId,
    },
    /// An image, sheet or archive the document draws from (a missing file, say).
    Image(ImageId),
}

/// One message about a file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// How bad.
    pub severity: Severity,
    /// Where in the file.
    pub location: Location,
    /// A plain sentence.
    pub message: String,
    /// The part of the document it names, when known.
    pub subject: Option<Subject>,
    /// The file it is about, when it is not the file that was opened (an `.air` named by a
    /// `.def`, an `.sff`).
    pub file: Option<String>,
}

impl Diagnostic {
    /// A diagnostic at a location.
    pub fn new(severity: Severity, location: Location, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity,
            location,
            message: message.into(),
            subject: None,
            file: None,
        }
    }

    /// An error at a text position.
    pub fn error_at(line: u32, column: u32, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Error, Location::Text { line, column }, message)
    }

    /// A warning at a text position.
    pub fn warning_at(line: u32, column: u32, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Warning, Location::Text { line, column }, message)
    }

    /// An error at a byte offset.
    pub fn error_at_byte(offset: u64, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Error, Location::Byte(offset), message)
    }

    /// A warning at a byte offset.
    pub fn warning_at_byte(offset: u64, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Warning, Location::Byte(offset), message)
    }

    /// The same diagnostic naming a part of the document.
    pub fn about(mut self, subject: Subject) -> Diagnostic {
        self.subject = Some(subject);
        self
    }

    /// The same diagnostic naming the file it is about.
    pub fn in_file(mut self, file: impl Into<String>) -> Diagnostic {
        self.file = Some(file.into());
        self
    }

    /// `file:line:column: severity: message` (or `file:@offset: ...` for binary files).
    pub fn display_with(&self, opened_file: &str) -> String {
        format!(
            "{}: {}: {}",
            self.place_with(opened_file),
            self.severity,
            self.message
        )
    }

    /// Where it points: `file`, `file:line:column` or `file:@offset` (`opened_file` unless the
    /// diagnostic names another file).
    pub fn place_with(&self, opened_file: &str) -> String {
        let file = self.file.as_deref().unwrap_or(opened_file);
        match self.location {
            Location::File => file.to_string(),
            Location::Text { line, column } => format!("{file}:{line}:{column}"),
            Location::Byte(offset) => format!("{file}:@{offset}"),
        }
    }
}

/// Line and column (both one-based) of a byte offset in text; columns count characters.
pub fn line_column(text: &[u8], offset: usize) -> (u32, u32) {
    let offset = offset.min(text.len());
    let before = &text[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let column = match std::str::from_utf8(&before[line_start..]) {
        Ok(s) => s.chars().count(),
        Err(_) => offset - line_start,
    } + 1;
    (line as u32, column as u32)
}

/// True if any diagnostic is an error.
pub fn has_errors(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().any(|d| d.severity == Severity::Error)
}

/// How many errors and how many warnings (infos are neither), for every summary the user
/// sees, so the command line, the status bar and the list always agree.
pub fn error_and_warning_counts<'a>(
    diagnostics: impl IntoIterator<Item = &'a Diagnostic>,
) -> (usize, usize) {
    diagnostics
        .into_iter()
        .fold((0, 0), |(errors, warnings), d| match d.severity {
            Severity::Error => (errors + 1, warnings),
            Severity::Warning => (errors, warnings + 1),
            Severity::Info => (errors, warnings),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_column_counts_from_one_in_characters() {
        let text = "ab\nçd\nx".as_bytes();
        assert_eq!(line_column(text, 0), (1, 1));
        assert_eq!(line_column(text, 3), (2, 1));
        // 'ç' is two bytes: the byte after it is the second character.
        assert_eq!(line_column(text, 5), (2, 2));
        assert_eq!(line_column(text, 100), (3, 2));
    }

    #[test]
    fn display_names_file_line_and_column() {
        let d = Diagnostic::error_at(3, 7, "bad number");
        assert_eq!(d.display_with("a.dat"), "a.dat:3:7: error: bad number");
        let d = Diagnostic::warning_at_byte(12, "size mismatch");
        assert_eq!(d.display_with("x.sff"), "x.sff:@12: warning: size mismatch");
    }
}
