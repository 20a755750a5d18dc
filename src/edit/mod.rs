//! Editing: every change the editor makes to a document, as undoable commands.
//!
//! Reading order: [`command`] (the interface), [`snapshot`] (how changes are recorded, which
//! makes undo exact), [`history`] (undo, redo, drags as one step), [`selection`], then the
//! commands by area: [`tree`], [`timeline`], [`clipboard`], [`inspector`], [`canvas`],
//! [`boxes`], [`points`], [`sheet`].

pub mod boxes;
pub mod canvas;
pub mod clipboard;
pub mod command;
pub mod error;
pub mod history;
pub mod inspector;
pub mod points;
pub mod selection;
pub mod sheet;
pub mod snapshot;
mod support;
pub mod timeline;
pub mod tree;

pub use command::{Command, Gesture, Transaction};
pub use error::{EditError, EditResult};
pub use history::{History, HistoryEntry, HistoryPosition};
pub use selection::Selection;
pub use snapshot::Tx;
