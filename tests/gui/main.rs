//! The editor driven as a user drives it (egui_kittest: clicks, typing and drags by widget
//! label, assertions on the document), and the screenshots of the real app.
//!
//! One test binary for all of them: each binary that links wgpu costs minutes of link time on
//! two cores.
#![cfg(feature = "gui")]

#[path = "../aseprite_write_support/mod.rs"]
mod aseprite_write_support;
#[path = "../common/mod.rs"]
mod common;
#[path = "../gui_support/mod.rs"]
mod gui_support;

mod aseprite;
mod aseprite_import;
mod backdrop;
mod big_sprites;
mod boxes;
mod canvas;
mod commands;
mod diagnostics;
mod document;
mod duration;
mod editing;
mod editor;
mod export;
mod import;
mod inspector;
mod inspector_layout;
mod layout;
mod lone_sff;
mod messages;
mod onion;
mod outside;
mod painting;
mod restore;
mod save;
mod screenshots;
mod sheet;
mod sheet_tab;
mod sprites;
mod status;
mod tabs;
mod timeline;
mod tools;
mod tree;
mod words;
