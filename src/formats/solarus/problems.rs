//! Diagnostics gathered while reading, by byte offset, turned into line:column at the end.

use super::data::{DirectionData, MAX_FRAMES_PER_DIRECTION};
use crate::formats::{Diagnostic, LineIndex, Location, Severity, Subject};

/// Problems found so far, in the order found.
#[derive(Default)]
pub struct Problems {
    found: Vec<(usize, Severity, String, Option<Subject>)>,
    errors: usize,
}

impl Problems {
    /// An error at a byte offset.
    pub fn error(&mut self, at: usize, message: impl Into<String>) {
        self.errors += 1;
        self.found.push((at, Severity::Error, message.into(), None));
    }

    /// A warning at a byte offset.
    pub fn warning(&mut self, at: usize, message: impl Into<String>) {
        self.found
            .push((at, Severity::Warning, message.into(), None));
    }

    /// A warning about a part of the document.
    pub fn warning_about(&mut self, at: usize, message: impl Into<String>, subject: Subject) {
        self.found
            .push((at, Severity::Warning, message.into(), Some(subject)));
    }

    /// How many errors so far.
    pub fn error_count(&self) -> usize {
        self.errors
    }

    /// The diagnostics with line and column in `text`, errors first, then in file order.
    pub fn into_diagnostics(self, text: &[u8]) -> Vec<Diagnostic> {
        // Positions are worked out in file order, so the index counts each line once; the
        // diagnostics keep the order they were found in.
        let mut by_offset: Vec<usize> = (0..self.found.len()).collect();
        by_offset.sort_by_key(|&i| self.found[i].0);
        let mut lines = LineIndex::new(text);
        let mut positions = vec![(0, 0); self.found.len()];
        for i in by_offset {
            positions[i] = lines.line_column(self.found[i].0);
        }
        let mut diagnostics: Vec<Diagnostic> = self
            .found
            .into_iter()
            .zip(positions)
            .map(|((_, severity, message, subject), (line, column))| {
                let mut diagnostic =
                    Diagnostic::new(severity, Location::Text { line, column }, message);
                diagnostic.subject = subject;
                diagnostic
            })
            .collect();
        // Stable: keeps file order within each severity.
        diagnostics.sort_by_key(|d| d.severity);
        diagnostics
    }
}

/// Checks the grid numbers of a direction both syntaxes share; false if it cannot be used.
pub fn check_grid(direction: &DirectionData, at: usize, problems: &mut Problems) -> bool {
    if direction.num_frames == 0 {
        problems.error(at, "num_frames must be at least 1");
        return false;
    }
    if direction.num_frames > MAX_FRAMES_PER_DIRECTION {
        problems.error(
            at,
            format!(
                "{} frames in one direction is more than Sprat accepts ({MAX_FRAMES_PER_DIRECTION})",
                direction.num_frames
            ),
        );
        return false;
    }
    if direction.num_columns == 0 || direction.num_columns > direction.num_frames {
        problems.error(
            at,
            format!(
                "num_columns must be between 1 and num_frames ({}), not {}",
                direction.num_frames, direction.num_columns
            ),
        );
        return false;
    }
    if direction.frame_width == 0 || direction.frame_height == 0 {
        problems.error(at, "frames must be at least 1 pixel wide and high");
        return false;
    }
    true
}
