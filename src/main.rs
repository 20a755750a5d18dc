//! The `sprat` program: the editor, or a command-line tool over the same library. Built for
//! the web (`scripts/web`), it is the editor on the page's canvas (see `sprat::app::web`).

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
    #[cfg(unix)]
    let listener = {
        use sprat::single_instance::{hand_over, listen, socket_path};
        let handed = |file: &std::path::PathBuf| {
            let taken = socket_path().is_some_and(|s| hand_over(&s, std::slice::from_ref(file)));
            if taken {
                eprintln!(
                    "sprat: {} opened in the editor window already open (--new-window for a window of its own)",
                    file.display()
                );
            }
            taken
        };
        let wanted = file.as_ref().filter(|_| !new_window);
        if wanted.is_some_and(handed) {
            return ExitCode::SUCCESS;
        }
        let listener = listen();
        // Another start won the socket since the look above (several files opened at once
        // from a file manager): its window takes this file too.
        if listener.is_none() && wanted.is_some_and(handed) {
            return ExitCode::SUCCESS;
        }
        listener
    };
    #[cfg(not(unix))]
    let _ = new_window;
    match sprat::app::run(
        file,
        #[cfg(unix)]
        listener,
    ) {
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
