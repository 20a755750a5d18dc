//! The shell around the panels: the app's commands and menus, the tab bar and status bar,
//! settings, and the windows that open, save, recover and close documents.
//!
//! Reading order: [`app`] (the [`SpratApp`](app::SpratApp) and its accessors), [`ui`] (the
//! frame: bars, panels, windows), [`command_handling`] (every command of [`commands`]
//! carried out), then by job: [`opening`], [`closing`], [`recovery`], [`playback`], [`tabs`].

pub mod app;
pub mod background;
pub mod closing;
pub mod command_handling;
pub mod commands;
pub mod demo;
pub mod dialogs;
pub mod disk_waker;
pub mod loader;
pub mod menus;
pub mod new_document;
pub mod opening;
pub mod playback;
pub mod recovery;
pub mod save_as;
pub mod settings;
pub mod status_bar;
pub mod tab_id;
pub mod tabs;
pub mod ui;
pub mod workspace;
