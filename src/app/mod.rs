//! The desktop editor: a thin eframe shell over the library, a folder per thing the user sees.
//!
//! Reading order: [`shell`] (the [`SpratApp`] itself: the frame in `shell/ui.rs`, every command
//! in `shell/command_handling.rs`, opening, closing, recovery and playback beside them, the
//! menus, tab bar and status bar), then the panels, each owning its state (held by a
//! [`DocumentTab`](document_tab::DocumentTab)), its `show` function and the edits it issues:
//! [`tree`], [`timeline`] (with the transport), [`canvas`] (with its tools), [`inspector`],
//! [`sheet`], [`sprites`], and the [`import`] and [`export`] windows.

pub mod canvas;
pub mod clipboard;
pub mod diagnostics;
pub mod document_tab;
pub mod export;
pub mod frame_textures;
pub mod import;
pub mod inspector;
pub mod sheet;
pub mod shell;
pub mod sprites;
pub mod timeline;
pub mod tree;
pub mod web;

pub use shell::app::{AfterConfirm, CentreTab, SpratApp};

use shell::dialogs::Dialogs;
use shell::settings::{self, Settings};
#[cfg(not(target_arch = "wasm32"))]
use std::path::PathBuf;

/// The editor's log file, beside its settings (`None` where the system has no such folder).
#[cfg(not(target_arch = "wasm32"))]
pub fn log_file() -> Option<PathBuf> {
    eframe::storage_dir("Sprat").map(|dir| crate::logging::log_file_in(&dir))
}

/// Opens the editor window on `path`, or on the bundled demo when `None`.
#[cfg(not(target_arch = "wasm32"))]
pub fn run(path: Option<PathBuf>) -> eframe::Result<()> {
    // The window's size is ours to keep (in unscaled points: see `settings::Appearance`);
    // eframe's own would store it divided by the UI scale.
    let window_size = settings::load_stored("Sprat")
        .appearance
        .initial_window_size();
    // Files opened by later starts of sprat arrive here (see `single_instance`).
    #[cfg(unix)]
    let listener = &crate::single_instance::listen();
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Sprat")
            .with_icon(window_icon())
            .with_app_id("sprat")
            .with_inner_size(window_size)
            .with_min_inner_size([640.0, 400.0])
            .with_drag_and_drop(true),
        persist_window: false,
        ..Default::default()
    };
    eframe::run_native(
        "Sprat",
        options,
        Box::new(move |cc| {
            let mut app = create(cc, Box::new(shell::dialogs::NativeDialogs));
            app.recovery_dir = eframe::storage_dir("Sprat").map(|d| d.join("recovery"));
            app.look_for_recovery();
            #[cfg(unix)]
            if let Some(listener) = listener {
                shell::opening::take_files_from(listener, &cc.egui_ctx);
            }
            match path {
                Some(path) => app.open_path(&cc.egui_ctx, path),
                None => app.open_demo(),
            }
            Ok(Box::new(app))
        }),
    )
}

/// Sprat's icon (`assets/icon/`) for the window and the task bar.
#[cfg(not(target_arch = "wasm32"))]
fn window_icon() -> egui::IconData {
    eframe::icon_data::from_png_bytes(include_bytes!("../../assets/icon/sprat-64.png"))
        .expect("the icon is a PNG of ours")
}

/// The editor as eframe creates it, with the settings eframe stored (in a file beside the
/// log natively, in the browser's local storage on the web).
fn create(cc: &eframe::CreationContext, dialogs: Box<dyn Dialogs>) -> SpratApp {
    let settings = cc
        .storage
        .and_then(|s| eframe::get_value::<Settings>(s, settings::STORAGE_KEY))
        .unwrap_or_default();
    SpratApp::new(settings, dialogs)
}
