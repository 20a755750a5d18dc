//! Why an edit was refused.

use std::fmt;

/// A refused edit: a plain sentence for the user. Nothing was applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EditError {
    /// What is wrong, in words a user understands.
    pub message: String,
}

impl EditError {
    /// A refusal with a message.
    pub fn new(message: impl Into<String>) -> EditError {
        EditError {
            message: message.into(),
        }
    }
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for EditError {}

/// Shorthand for command results.
pub type EditResult<T = ()> = Result<T, EditError>;
