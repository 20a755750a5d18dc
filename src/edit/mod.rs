//! Editing: every change the editor makes to a document, as undoable commands.
//!
//! Reading order: [`command`] (the interface), [`snapshot`] (how changes are recorded, which
//! makes undo exact), [`history`] (undo, redo, drags as one step), [`selection`], then the
//! commands by area: [`tree`], [`timeline`], [`clipboard`], [`inspector`], [`canvas`],
//! [`boxes`], [`box_tools`] (fit, trace, interpolate, mirror over many frames), [`points`],
//! [`sheet`], and the tools over many frames: [`scope`] (which frames), [`retime`], [`align`],
//! [`paste_special`].
//!
//! The editor builds a command value, hands it to [`History::apply`] (or
//! [`crate::session::Session::apply`], which also keeps the selection), and shows the message of
//! a refusal. A drag sends one command per mouse move with the same [`Gesture`]; they become one
//! undo step.
//!
//! ```
//! use sprat::edit::timeline::{InsertBlankFrame, SetLoopPoint};
//! use sprat::edit::{History, Selection};
//! use sprat::model::{AnimationSet, DirectionId, Sequence, SequenceId, TreeItem};
//!
//! let mut doc = AnimationSet::new();
//! let id = SequenceId(doc.alloc_id());
//! let direction = DirectionId(doc.alloc_id());
//! doc.root.items.push(TreeItem::Sequence(Sequence::new(id, "walk", direction)));
//! let before = doc.clone();
//!
//! let mut history = History::new();
//! let insert = InsertBlankFrame { sequence: id, direction: 0, index: 0 };
//! let selection = history.apply(&mut doc, &Selection::none(), &insert, None).unwrap();
//! assert_eq!(selection.frames, vec![0]);
//!
//! let refused = SetLoopPoint { sequence: id, loop_point: Some(4) };
//! let error = history.apply(&mut doc, &selection, &refused, None).unwrap_err();
//! assert!(error.message.contains("past the end"));
//!
//! history.undo(&mut doc);
//! assert_eq!(doc, before);
//! ```

pub mod align;
pub mod box_tools;
pub mod boxes;
pub mod canvas;
pub mod clipboard;
pub mod command;
mod common_steps;
pub mod elements;
pub mod error;
pub mod history;
pub mod import;
pub mod inspector;
pub mod paste_special;
pub mod points;
pub mod retime;
pub mod scope;
pub mod selection;
pub mod sheet;
pub mod snapshot;
pub mod sprites;
pub mod timeline;
pub mod tree;

pub use command::{Command, Gesture, Transaction};
pub use error::{EditError, EditResult};
pub use history::{History, HistoryEntry, HistoryPosition};
pub use selection::Selection;
pub use snapshot::Tx;
