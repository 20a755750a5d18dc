//! `sprat completions SHELL` and `sprat manpage`: the shell completions and the manual page,
//! both generated from the command line's own definition ([`Cli`]), so they always name the
//! commands and options the program takes.

use super::Cli;
use clap::CommandFactory;
use std::io::{self, Write};

/// Prints the completion script for `shell`.
pub fn completions(shell: clap_complete::Shell, out: &mut dyn Write) -> io::Result<i32> {
    // clap_complete panics when its writer fails; a closed pipe (`sprat completions bash |
    // head`) must end quietly like every other command, so the script is made first.
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "sprat", &mut script);
    out.write_all(&script)?;
    Ok(0)
}

/// Prints the manual page: the program's synopsis and options, then one section per command
/// (`SPRAT INFO`, ...) with its synopsis, description and options, so `man sprat` shows every
/// command and option in one page.
pub fn manpage(out: &mut dyn Write) -> io::Result<i32> {
    let mut command = Cli::command().disable_help_subcommand(true);
    command.build();
    let man = clap_mangen::Man::new(command.clone()).manual("Sprat Manual");
    man.render_title(out)?;
    man.render_name_section(out)?;
    man.render_synopsis_section(out)?;
    man.render_description_section(out)?;
    man.render_options_section(out)?;
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        let title = format!("SPRAT {}", sub.get_name().to_uppercase());
        writeln!(out, ".SH \"{title}\"")?;
        let man = clap_mangen::Man::new(sub.clone());
        // Each of clap_mangen's sections starts with its own `.SH` heading; inside a
        // command's section they are sub-headings, or none at all for the usage line.
        write_section_body(out, |w| man.render_synopsis_section(w), None)?;
        writeln!(out, ".PP")?;
        write_section_body(out, |w| man.render_description_section(w), None)?;
        if sub
            .get_arguments()
            .any(|a| !a.is_positional() && !a.is_hide_set())
        {
            write_section_body(out, |w| man.render_options_section(w), Some("Options"))?;
        }
    }
    man.render_version_section(out)?;
    Ok(0)
}

/// Writes one rendered section with its `.SH` heading line replaced by a `.SS` sub-heading
/// (or dropped when `heading` is `None`).
fn write_section_body(
    out: &mut dyn Write,
    render: impl Fn(&mut dyn Write) -> io::Result<()>,
    heading: Option<&str>,
) -> io::Result<()> {
    let mut section = Vec::new();
    render(&mut section)?;
    let text = String::from_utf8_lossy(&section);
    for line in text.lines() {
        if line.starts_with(".SH ") {
            if let Some(heading) = heading {
                writeln!(out, ".SS {heading}")?;
            }
            continue;
        }
        writeln!(out, "{line}")?;
    }
    Ok(())
}
