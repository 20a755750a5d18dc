//! The desktop editor, in layers: the library below; [`context`], what every panel stands on
//! (the open document, settings, commands, the picture cache, the frame clipboard); the
//! panels, a folder per thing the user sees, each owning its state, its `show` function and
//! the edits it issues: [`tree`], [`timeline`] (with the transport), [`canvas`] (with its
//! tools), [`inspector`], [`sheet`], [`sprites`], [`diagnostics`], and the [`import`] and
//! [`export`] windows; then [`shell`], which assembles them: the [`SpratApp`] itself (the
//! frame in `shell/ui.rs`, every command in `shell/command_handling.rs`, the tabs each holding
//! a [`DocumentTab`](shell::document_tab::DocumentTab), opening, closing, recovery and
//! playback, the menus, tab bar and status bar); on top the entry points: [`run`] here for
//! the desktop and [`web`] for the page.

pub mod align;
pub mod canvas;
pub mod context;
pub mod diagnostics;
pub mod export;
pub mod import;
pub mod inspector;
pub mod retime;
pub mod sheet;
pub mod shell;
pub mod sprites;
pub mod timeline;
pub mod tree;
pub mod web;

pub use shell::app::{AfterConfirm, CentreTab, SpratApp};

use context::platform::Platform;
use context::settings::{self, Settings};
#[cfg(not(target_arch = "wasm32"))]
use std::path::PathBuf;

/// The editor's log file, beside its settings (`None` where the system has no such folder).
#[cfg(not(target_arch = "wasm32"))]
pub fn log_file() -> Option<PathBuf> {
    eframe::storage_dir("Sprat").map(|dir| crate::logging::log_file_in(&dir))
}

/// Opens the editor window on `path`, or on the bundled demo when `None`; `notice` is said in
/// the status bar once `path` has opened (why it is in a window of its own). Files that later
/// starts of sprat hand over arrive through `listener` (see `single_instance`).
#[cfg(not(target_arch = "wasm32"))]
pub fn run(
    path: Option<PathBuf>,
    notice: Option<&'static str>,
    listener: Option<crate::single_instance::Listener>,
) -> eframe::Result<()> {
    // The window's size is ours to keep (in unscaled points: see `settings::Appearance`);
    // eframe's own would store it divided by the UI scale.
    let stored = shell::native_platform::load_stored_settings("Sprat");
    let window_size = stored.appearance.initial_window_size();
    let dialogs = Box::new(shell::native_platform::NativeDialogs);
    let platform = shell::native_platform::NativePlatform::new(dialogs);
    // The file is read while the window and its renderer start, rather than after
    // (docs/speed.md, "The first picture"); the window is woken when it arrives.
    let window_context = std::sync::Arc::new(std::sync::OnceLock::<egui::Context>::new());
    let reading = path.map(|path| {
        let options = crate::formats::ReadOptions {
            aseprite_layers: stored.aseprite_layers,
            ..Default::default()
        };
        let window = std::sync::Arc::clone(&window_context);
        let wake = move || {
            if let Some(ctx) = window.get() {
                ctx.request_repaint();
            }
        };
        context::loader::PendingLoad::start(&platform, path, options, wake)
    });
    let listener = &listener;
    let options = native_options(window_size);
    eframe::run_native(
        "Sprat",
        options,
        Box::new(move |cc| {
            let _ = window_context.set(cc.egui_ctx.clone());
            if let Some(since_start) = crate::logging::since_start() {
                // Before this, the window and its renderer were being made (docs/speed.md).
                log::debug!(
                    "window made {:.0} ms after the program started",
                    since_start.as_secs_f64() * 1e3
                );
            }
            let mut app = create(cc, Box::new(platform));
            app.recovery_dir = eframe::storage_dir("Sprat").map(|d| d.join("recovery"));
            app.look_for_recovery();
            // SIGTERM and SIGHUP write the unsaved work aside before the window closes.
            #[cfg(unix)]
            {
                let ctx = cc.egui_ctx.clone();
                let wake = move || ctx.request_repaint();
                if let Err(e) = crate::stop_signals::forward_to(app.stop_request.clone(), wake) {
                    log::warn!("a stop signal will end the editor without saving: {e}");
                }
            }
            if let Some(listener) = listener {
                shell::opening::take_files_from(listener, &cc.egui_ctx);
            }
            match reading {
                Some(reading) => {
                    app.start_notice = notice;
                    app.take_started_load(reading);
                }
                None => app.open_demo(),
            }
            Ok(Box::new(app))
        }),
    )
}

/// The window eframe opens, `window_size` points wide and high. Many desktops without a GPU
/// (and every virtual machine without one) paint it with software GL, where each paint costs
/// a pass over the window's pixels per layer: nothing is asked for that would add to it.
#[cfg(not(target_arch = "wasm32"))]
fn native_options(window_size: [f32; 2]) -> eframe::NativeOptions {
    eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Sprat")
            .with_icon(window_icon())
            .with_app_id("sprat")
            .with_inner_size(window_size)
            .with_min_inner_size([640.0, 400.0])
            .with_drag_and_drop(true),
        persist_window: false,
        // Dithering adds noise to each pixel's colour in egui's shader, to break up the
        // banding of gradients the editor hardly draws (window shadows); with software GL it
        // is arithmetic on every pixel of every layer, each paint (a tenth of the driver's
        // time in the HD character's window, docs/speed.md). Flat colours and textures at
        // whole 8-bit values come out the same either way.
        dithering: false,
        ..Default::default()
    }
}

/// Sprat's icon (`assets/icon/`) for the window and the task bar.
#[cfg(not(target_arch = "wasm32"))]
fn window_icon() -> egui::IconData {
    eframe::icon_data::from_png_bytes(include_bytes!("../../assets/icon/sprat-64.png"))
        .expect("the icon is a PNG of ours")
}

/// The editor as eframe creates it, with the settings eframe stored (in a file beside the
/// log natively, in the browser's local storage on the web).
fn create(cc: &eframe::CreationContext, platform: Box<dyn Platform>) -> SpratApp {
    let settings = cc
        .storage
        .and_then(|s| eframe::get_value::<Settings>(s, settings::STORAGE_KEY))
        .unwrap_or_default();
    SpratApp::on_platform(settings, platform)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    #[test]
    fn the_window_asks_for_no_per_pixel_work_beyond_the_paint() {
        let options = super::native_options([1280.0, 800.0]);
        assert!(!options.dithering);
        assert_eq!(options.multisampling, 0);
        assert_eq!((options.depth_buffer, options.stencil_buffer), (0, 0));
        assert_eq!(options.viewport.inner_size, Some(egui::vec2(1280.0, 800.0)));
    }
}
