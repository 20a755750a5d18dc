//! The `sprat` program: the editor, or a command-line tool over the same library. Built for
//! the web (`scripts/web`), it is the editor on the page's canvas (see `sprat::app::web`).
//! On Windows it is a window program, opening no console from Explorer; the command line
//! prints in the terminal it was started from (see `sprat::console`).
#![cfg_attr(windows, windows_subsystem = "windows")]

#[cfg(not(target_arch = "wasm32"))]
use clap::Parser;
#[cfg(not(target_arch = "wasm32"))]
use sprat::cli::Cli;
#[cfg(not(target_arch = "wasm32"))]
use std::process::ExitCode;

/// On the web the page starts the editor; there is no command line.
#[cfg(all(target_arch = "wasm32", feature = "gui"))]
fn main() {
    sprat::app::web::start();
}

#[cfg(all(target_arch = "wasm32", not(feature = "gui")))]
compile_error!("the web build is the editor: build it with the `gui` feature (scripts/web)");

#[cfg(not(target_arch = "wasm32"))]
fn main() -> ExitCode {
    sprat::logging::mark_start();
    #[cfg(windows)]
    sprat::console::attach_to_parent();
    let cli = Cli::parse();
    match cli.command {
        Some(command) => {
            sprat::logging::init(None);
            let code = sprat::cli::run(command, &mut std::io::stdout(), &mut std::io::stderr());
            ExitCode::from(code as u8)
        }
        None => open_editor(cli.file, cli.new_window),
    }
}

#[cfg(all(feature = "gui", not(target_arch = "wasm32")))]
fn open_editor(file: Option<std::path::PathBuf>, new_window: bool) -> ExitCode {
    sprat::logging::init(sprat::app::log_file().as_deref());
    // A file opened while an editor runs becomes a tab of its window (see `single_instance`).
    let (listener, notice) = {
        use sprat::single_instance::{Start, socket_path, start};
        let wanted = file.as_deref().filter(|_| !new_window);
        match start(socket_path().as_deref(), wanted) {
            Start::HandedOver => {
                if let Some(file) = wanted {
                    eprintln!(
                        "sprat: {} opened in the editor window already open (--new-window for a window of its own)",
                        file.display()
                    );
                }
                return ExitCode::SUCCESS;
            }
            Start::OwnWindow { listener, notice } => {
                if let (Some(notice), Some(file)) = (notice, wanted) {
                    eprintln!("sprat: {}: {notice}", file.display());
                }
                (listener, notice)
            }
        }
    };
    match sprat::app::run(file, notice, listener) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sprat: cannot open the editor window: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(all(not(feature = "gui"), not(target_arch = "wasm32")))]
fn open_editor(_file: Option<std::path::PathBuf>, _new_window: bool) -> ExitCode {
    eprintln!("sprat: this build has no editor (built without the `gui` feature); see --help");
    ExitCode::from(2)
}
