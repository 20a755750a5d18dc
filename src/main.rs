//! The `sprat` program: the editor, or a command-line tool over the same library.

use clap::Parser;
use sprat::cli::Cli;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(command) => {
            let code = sprat::cli::run(command, &mut std::io::stdout(), &mut std::io::stderr());
            ExitCode::from(code as u8)
        }
        None => open_editor(cli.file),
    }
}

fn open_editor(file: Option<std::path::PathBuf>) -> ExitCode {
    let _ = file;
    eprintln!("sprat: the editor is not part of this build yet; use a subcommand (see --help)");
    ExitCode::from(2)
}
