//! The command line: `sprat info|check|convert|render|boxes|completions|manpage ...`, over the
//! same library as the editor.
//!
//! Each subcommand lives in its own file and returns an exit code; output goes to the writers
//! it is given so tests can run the commands in-process.

mod batch;
mod boxes;
mod check;
mod convert;
mod info;
pub mod json;
mod load;
mod manual;
mod render;

use clap::{Parser, Subcommand};
use std::io::Write;
use std::path::PathBuf;

/// Sprat: edit and preview 2D sprite animations.
#[derive(Parser, Debug)]
#[command(
    name = "sprat",
    version = env!("SPRAT_VERSION"),
    about,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// A file to open in the editor (the bundled demo when absent). When an editor window is
    /// already open, the file opens as a tab of it.
    pub file: Option<PathBuf>,
    /// Open a window of its own even when an editor window is already open.
    #[arg(long)]
    pub new_window: bool,
    /// What to do instead of opening the editor.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Options every command that reads a file takes.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ReadArgs {
    /// The image to use for Solarus `tileset` animations.
    #[arg(long, value_name = "PATH")]
    pub tileset: Option<PathBuf>,
    /// Aseprite files: one graphic per visible layer (named after it, with its opacity)
    /// instead of one composited picture per frame.
    #[arg(long)]
    pub aseprite_layers: bool,
}

/// Options of the commands that take several files and folders.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct BatchArgs {
    /// Print a JSON document instead of text (see "Machine-readable output" in the README).
    #[arg(long)]
    pub json: bool,
    /// How many files to read at once (default: one per core).
    #[arg(long, short = 'j', value_name = "N")]
    pub jobs: Option<usize>,
    /// Print every diagnostic of a file, not only the first 200.
    #[arg(long)]
    pub all: bool,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Print the hierarchy with frame counts, durations, boxes and points.
    Info {
        /// The files to describe; a folder stands for every file of a known format in it and
        /// below it.
        #[arg(required = true, value_name = "FILE|FOLDER")]
        files: Vec<PathBuf>,
        #[command(flatten)]
        batch: BatchArgs,
        #[command(flatten)]
        read: ReadArgs,
    },
    /// Print diagnostics; exit 1 if any file has errors.
    Check {
        /// The files to check; a folder stands for every file of a known format in it and
        /// below it.
        #[arg(required = true, value_name = "FILE|FOLDER")]
        files: Vec<PathBuf>,
        #[command(flatten)]
        batch: BatchArgs,
        #[command(flatten)]
        read: ReadArgs,
    },
    /// Convert a file to another format, printing what the target cannot hold.
    Convert {
        /// The file to read.
        input: PathBuf,
        /// The file to write.
        output: PathBuf,
        /// The target format id (default: from the output's extension).
        #[arg(long, value_name = "FORMAT")]
        to: Option<String>,
        /// Overwrite an existing output file.
        #[arg(long)]
        force: bool,
        /// Write even when the target cannot hold everything (exit 0).
        #[arg(long)]
        allow_loss: bool,
        /// Atlas frame names, with Aseprite's tokens: {title} {tag} {frame} {tagframe}
        /// {layer} (default: {frame}, numbers, as Phaser's createFromAseprite needs).
        #[arg(long, value_name = "PATTERN")]
        frame_names: Option<String>,
        #[command(flatten)]
        read: ReadArgs,
    },
    /// Render a frame, a strip of frames or an animated GIF.
    #[command(group(clap::ArgGroup::new("what").required(true).args(["frame", "strip", "gif", "apng"])))]
    Render {
        /// The file to render.
        file: PathBuf,
        /// The sequence (name or MUGEN action number; default: the default sequence).
        #[arg(long, short = 's')]
        sequence: Option<String>,
        /// The direction: a number or a name such as "left".
        #[arg(long, short = 'd', default_value = "0")]
        direction: String,
        /// One frame (index from 0) as PNG.
        #[arg(long)]
        frame: Option<usize>,
        /// Every frame of the direction side by side as PNG.
        #[arg(long)]
        strip: bool,
        /// The sequence as an animated GIF with its exact timing.
        #[arg(long)]
        gif: bool,
        /// The sequence as an animated PNG: full alpha, exact delays.
        #[arg(long)]
        apng: bool,
        /// Where to write the picture.
        #[arg(long, short = 'o', value_name = "OUT")]
        output: PathBuf,
        /// Draw the origin, collision boxes and attachment points.
        #[arg(long)]
        overlay: bool,
        /// Pixels per sprite pixel.
        #[arg(long, default_value_t = 1)]
        scale: u32,
        /// Background colour (#rrggbb or #rrggbbaa; default transparent).
        #[arg(long, value_parser = render::parse_colour)]
        background: Option<[u8; 4]>,
        /// Frames per row in a strip.
        #[arg(long)]
        columns: Option<u32>,
        /// With --strip on an ADL file: the game's assembled sheet (every animation on its
        /// ROW, cells of (w+32)x(h+16)) instead of one sequence.
        #[arg(long, requires = "strip")]
        game_sheet: bool,
        #[command(flatten)]
        read: ReadArgs,
    },
    /// Give frames first-pass collision boxes from their pictures: one fitted box, or a few
    /// traced ones, per frame.
    #[command(group(clap::ArgGroup::new("method").required(true).args(["fit", "trace"])))]
    Boxes {
        /// The file to read.
        file: PathBuf,
        /// One box of this class (hit, hurt or a custom name) around each frame's opaque pixels.
        #[arg(long, value_name = "CLASS", value_parser = boxes::parse_class)]
        fit: Option<crate::model::BoxClass>,
        /// Up to --max boxes of this class covering each frame's opaque pixels closely.
        #[arg(long, value_name = "CLASS", value_parser = boxes::parse_class)]
        trace: Option<crate::model::BoxClass>,
        /// Only this sequence (name or M.U.G.E.N action number); repeat for more. Default: all.
        #[arg(long, short = 's', value_name = "S")]
        sequence: Vec<String>,
        /// Trace: boxes per frame at most.
        #[arg(long, value_name = "N", default_value_t = 3,
              value_parser = clap::value_parser!(u32).range(1..=crate::boxes::trace::MAX_TRACE_BOXES as i64))]
        max: u32,
        /// Pixels added around each box (negative shrinks).
        #[arg(
            long,
            value_name = "PX",
            default_value_t = 0,
            allow_negative_numbers = true
        )]
        margin: i32,
        /// Trace: leave out parts thinner than this many pixels (a blade, a strand of hair).
        #[arg(long, value_name = "PX", default_value_t = 0)]
        thin: u32,
        /// Replace the boxes of the class frames already have (default: such frames are left
        /// alone).
        #[arg(long)]
        replace: bool,
        /// Where to write the result (in the input's format).
        #[arg(long, short = 'o', value_name = "OUT")]
        output: PathBuf,
        /// Overwrite an existing output file (the input included).
        #[arg(long)]
        force: bool,
        #[command(flatten)]
        read: ReadArgs,
    },
    /// Print the completions for a shell: bash, zsh, fish, powershell or elvish.
    Completions {
        /// The shell to complete for.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff, as `man` reads it).
    Manpage,
}

/// Runs a subcommand, printing to `out` and `err`; returns the process exit code.
pub fn run(command: Command, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let result = match command {
        Command::Info { files, batch, read } => info::run(&files, &batch, &read, out, err),
        Command::Check { files, batch, read } => check::run(&files, &batch, &read, out, err),
        Command::Convert {
            input,
            output,
            to,
            force,
            allow_loss,
            frame_names,
            read,
        } => {
            let options = convert::Options {
                to,
                force,
                allow_loss,
                frame_names,
            };
            convert::run(&input, &output, &options, &read, out, err)
        }
        Command::Render {
            file,
            sequence,
            direction,
            frame,
            strip,
            gif,
            apng,
            output,
            overlay,
            scale,
            background,
            columns,
            game_sheet,
            read,
        } => {
            let what = match (frame, strip, gif) {
                _ if apng => render::Output::Apng,
                (Some(index), _, _) => render::Output::Frame(index),
                (None, true, _) if game_sheet => render::Output::GameSheet,
                (None, true, _) => render::Output::Strip,
                _ => render::Output::Gif,
            };
            let options = render::Options {
                sequence,
                direction,
                output: what,
                out_path: output,
                overlay,
                scale,
                background,
                columns,
            };
            render::run(&file, &options, &read, out, err)
        }
        Command::Boxes {
            file,
            fit,
            trace,
            sequence,
            max,
            margin,
            thin,
            replace,
            output,
            force,
            read,
        } => {
            let method = match (fit, trace) {
                (Some(class), _) => Some((class, crate::boxes::BoxMethod::Fit { margin })),
                (None, Some(class)) => Some((
                    class,
                    crate::boxes::BoxMethod::Trace(crate::boxes::TraceOptions {
                        max_boxes: max as usize,
                        thin,
                        margin,
                    }),
                )),
                (None, None) => None,
            };
            match method {
                Some((class, method)) => {
                    let options = boxes::Options {
                        class,
                        method,
                        sequences: sequence,
                        replace,
                        output,
                        force,
                    };
                    boxes::run(&file, &options, &read, out, err)
                }
                None => writeln!(err, "sprat: boxes needs --fit CLASS or --trace CLASS").map(|_| 2),
            }
        }
        Command::Completions { shell } => manual::completions(shell, out),
        Command::Manpage => manual::manpage(out),
    };
    match result {
        Ok(code) => code,
        // The reader of our output went away (`sprat info FILE | head`): nothing is left to
        // say to anyone, and it is not a failure of ours.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            let _ = writeln!(err, "sprat: {e}");
            2
        }
    }
}
