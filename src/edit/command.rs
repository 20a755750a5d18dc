//! The command interface: every change the editor makes is a small command object.

use super::error::EditResult;
use super::snapshot::Tx;
use std::fmt;

/// One edit of an [`crate::model::AnimationSet`].
///
/// A command checks its input against the document first and refuses with a plain message
/// ([`super::EditError`]) when it cannot be done. It makes its changes through the [`Tx`], which
/// records what it touches, so undo and redo need no code in the command, and a refusal halfway
/// through leaves the document as it was.
pub trait Command: fmt::Debug {
    /// A short label for the history list and the Edit menu ("Move 3 frames").
    fn label(&self) -> String;
    /// Does the edit. May call [`Tx::select`] to say what the editor should select afterwards.
    fn apply(&self, tx: &mut Tx) -> EditResult;
}

/// Identifies one continuous user gesture (a drag, a held arrow key): consecutive commands
/// given the same gesture are one undo step. The editor hands out a fresh value per drag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Gesture(pub u64);

/// Several commands done and undone as one step, in order. If one is refused, none is applied.
#[derive(Debug)]
pub struct Transaction {
    label: String,
    steps: Vec<Box<dyn Command>>,
}

impl Transaction {
    /// An empty transaction with a label for the history.
    pub fn new(label: impl Into<String>) -> Transaction {
        Transaction {
            label: label.into(),
            steps: Vec::new(),
        }
    }

    /// Adds a command to run after the ones already added.
    pub fn push(&mut self, command: impl Command + 'static) -> &mut Transaction {
        self.steps.push(Box::new(command));
        self
    }

    /// Builder form of [`Transaction::push`].
    pub fn with(mut self, command: impl Command + 'static) -> Transaction {
        self.push(command);
        self
    }

    /// True when it holds no command.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }
}

impl Command for Transaction {
    fn label(&self) -> String {
        self.label.clone()
    }

    fn apply(&self, tx: &mut Tx) -> EditResult {
        for step in &self.steps {
            step.apply(tx)?;
        }
        Ok(())
    }
}
