//! The `sprat` program: the editor, or a command-line tool over the same library.

use clap::Parser;
use sprat::cli::Cli;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(command) => {
            sprat::logging::init(None);
            let code = sprat::cli::run(command, &mut std::io::stdout(), &mut std::io::stderr());
            ExitCode::from(code as u8)
        }
        None => open_editor(cli.file),
    }
}

#[cfg(feature = "gui")]
fn open_editor(file: Option<std::path::PathBuf>) -> ExitCode {
    sprat::logging::init(sprat::app::log_file().as_deref());
    match sprat::app::run(file) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sprat: cannot open the editor window: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(not(feature = "gui"))]
fn open_editor(_file: Option<std::path::PathBuf>) -> ExitCode {
    eprintln!("sprat: this build has no editor (built without the `gui` feature); see --help");
    ExitCode::from(2)
}
