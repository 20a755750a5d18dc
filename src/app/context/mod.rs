//! What every panel stands on: the open document, the settings, the commands, tab ids, the
//! picture cache, the frame clipboard and what an edit works on. It imports the library and
//! egui, never another part of the editor, so panels and the shell can both use it.

pub mod clipboard;
pub mod commands;
pub mod document;
pub mod edit;
pub mod pictures;
pub mod settings;
pub mod tab_id;
