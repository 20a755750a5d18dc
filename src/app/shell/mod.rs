//! The shell assembles the panels: the app with its tabs (a [`document_tab::DocumentTab`]
//! each), the menus, the tab bar and status bar, the commands carried out, and the windows
//! that open, save, recover and close documents.
//!
//! Reading order: [`app`] (the [`SpratApp`](app::SpratApp) and its accessors), [`ui`] (the
//! frame: bars, panels, windows), [`command_handling`] (every command of
//! [`UICommand`](crate::app::context::commands::UICommand) carried out), then by job:
//! [`opening`], [`closing`], [`recovery`], [`playback`], [`tabs`].

pub mod app;
pub mod backdrop;
pub mod closing;
pub mod command_handling;
pub mod disk_waker;
pub mod document_tab;
pub mod font_sampling;
pub mod menus;
pub mod native_platform;
pub mod new_document;
pub mod opening;
pub mod playback;
pub mod recovery;
pub mod restore_backup;
pub mod save_as;
pub mod status_bar;
pub mod tabs;
pub mod ui;
