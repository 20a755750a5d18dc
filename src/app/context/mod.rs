//! What every panel stands on: the open document, the settings, the commands (and what Delete
//! removes), tab ids, which fields a format can hold, drag payloads, the skeleton of the frame
//! windows and of the small centred windows that ask one thing, the picture cache, the frame
//! clipboard, what an edit works on, a tool's preview of moved frames, what the status bar
//! says, the platform, and the one context value a panel's `show` takes. It imports the
//! library and egui, never another part of the editor, so panels and the shell can both use
//! it.

pub mod allocator;
pub mod availability;
pub mod centred_window;
pub mod checking;
pub mod clipboard;
pub mod command_sender;
pub mod commands;
pub mod deletion;
pub mod document;
pub mod drag;
pub mod duration_field;
pub mod duration_text;
pub mod edit;
pub mod feedback;
pub mod field_support;
pub mod frames_window;
pub mod ghost;
pub mod loader;
pub mod memo;
pub mod number_field;
pub mod panel;
pub mod pictures;
pub mod platform;
pub mod reference;
pub mod reload;
pub mod settings;
pub mod tab_id;
pub mod tree_row;
