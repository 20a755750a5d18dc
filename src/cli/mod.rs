//! The command line: `sprat info|check|convert|render|boxes|retime|cut|align|completions|manpage
//! ...`, over the same library as the editor.
//!
//! Each subcommand lives in its own file and returns an exit code; output goes to the writers
//! it is given so tests can run the commands in-process.

mod align;
mod batch;
mod boxes;
mod check;
mod convert;
mod cut;
mod edit_file;
mod info;
pub mod json;
mod load;
mod manual;
mod render;
mod retime;

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

/// Where the commands that edit a file (`boxes`, `retime`, `align`) write the edited copy.
#[derive(clap::Args, Debug, Clone)]
pub struct EditedCopyArgs {
    /// Where to write the result (in the input's format).
    #[arg(long, short = 'o', value_name = "OUT")]
    pub output: PathBuf,
    /// Overwrite an existing output file (the input included).
    #[arg(long)]
    pub force: bool,
    /// Write even when the input has errors (a damaged sprite, a missing picture), listing
    /// them.
    #[arg(long)]
    pub allow_errors: bool,
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
        /// Leave out the warnings about collision boxes (they look at every boxed frame's
        /// picture).
        #[arg(long)]
        no_box_lint: bool,
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
        /// Write even when the input has errors (a damaged sprite, a missing picture); what
        /// was broken is listed with what was lost.
        #[arg(long)]
        allow_errors: bool,
        /// Atlas frame names, with Aseprite's tokens: {title} {tag} {frame} {tagframe}
        /// {layer} (default: {frame}, numbers, as Phaser's createFromAseprite needs).
        #[arg(long, value_name = "PATTERN")]
        frame_names: Option<String>,
        /// How many threads draw and decode at once (default: one per core).
        #[arg(long, short = 'j', value_name = "N")]
        jobs: Option<usize>,
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
        /// Overwrite an existing output file (never a file the document reads).
        #[arg(long)]
        force: bool,
        /// Write even when the input has errors (a damaged sprite, a missing picture), listing
        /// them.
        #[arg(long)]
        allow_errors: bool,
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
        /// How many threads draw and decode at once (default: one per core).
        #[arg(long, short = 'j', value_name = "N")]
        jobs: Option<usize>,
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
        #[command(flatten)]
        copy: EditedCopyArgs,
        /// How many threads draw and decode at once (default: one per core).
        #[arg(long, short = 'j', value_name = "N")]
        jobs: Option<usize>,
        #[command(flatten)]
        read: ReadArgs,
    },
    /// New frame durations in the file's own unit: scale them (ratios kept), fit them to a
    /// total, or set a rate; the rounding is spread so the total is exact and nothing drifts.
    #[command(group(clap::ArgGroup::new("how").required(true).args(["scale", "total", "fps"])))]
    Retime {
        /// The file to read.
        file: PathBuf,
        /// Only this sequence (name or M.U.G.E.N action number); repeat for more. Default: all.
        #[arg(long, short = 's', value_name = "S")]
        sequence: Vec<String>,
        /// Multiply every duration by K (2, 1.5, 2/3).
        #[arg(long, value_name = "K", allow_negative_numbers = true)]
        scale: Option<String>,
        /// Make each sequence (each direction) last MS milliseconds in all, shared in proportion.
        #[arg(long, value_name = "MS", allow_negative_numbers = true)]
        total: Option<String>,
        /// Make every frame last one frame at F frames per second.
        #[arg(long, value_name = "F", allow_negative_numbers = true)]
        fps: Option<String>,
        #[command(flatten)]
        copy: EditedCopyArgs,
        #[command(flatten)]
        read: ReadArgs,
    },
    /// Cut a sprite sheet into the frames of a new document: by a grid, or by finding the
    /// separate sprites on it.
    #[command(group(clap::ArgGroup::new("how").args(["grid", "sprites", "auto"])))]
    Cut {
        /// The sheet (PNG, TGA or GIF).
        sheet: PathBuf,
        /// Cells of W x H pixels, row by row (wholly transparent cells are left out).
        #[arg(long, value_name = "WxH")]
        grid: Option<String>,
        /// With --grid: pixels before the first column and row.
        #[arg(long, value_name = "M", default_value_t = 0, requires = "grid")]
        margin: u32,
        /// With --grid: pixels between cells.
        #[arg(long, value_name = "S", default_value_t = 0, requires = "grid")]
        spacing: u32,
        /// Each separate sprite is a frame, row by row, even on a lattice.
        #[arg(long)]
        sprites: bool,
        /// Read the layout even when a data file beside the sheet (an Aseprite or
        /// TexturePacker JSON, a Solarus .dat, a .sprat) names its frames: a lattice of cells
        /// when the sprites sit on one, else separate sprites. Without --grid, --sprites or
        /// --auto, such a file is read for the frames, and the layout only where there is none.
        #[arg(long)]
        auto: bool,
        /// Say which layout was found and how the sheet was cut.
        #[arg(long)]
        explain: bool,
        /// Without --grid: parts this many transparent pixels apart are one sprite (a part
        /// small beside its sprite, or halves of a usual frame; sprites of like size stay apart).
        #[arg(long, value_name = "PX", default_value_t = crate::assets::sprites::SpriteOptions::DEFAULT.gap, conflicts_with = "grid")]
        gap: u32,
        /// Without --grid: sprites narrower and shorter than this are specks, left out.
        #[arg(long, value_name = "PX", default_value_t = crate::assets::sprites::SpriteOptions::DEFAULT.min_size, conflicts_with = "grid")]
        min: u32,
        /// The new sequence's name (default: the sheet's file name).
        #[arg(long, short = 's', value_name = "NAME")]
        sequence: Option<String>,
        /// Frames per second (default 10).
        #[arg(long, value_name = "F", allow_negative_numbers = true)]
        fps: Option<String>,
        /// Where to write (any writable format, by its extension).
        #[arg(long, short = 'o', value_name = "OUT")]
        output: PathBuf,
        /// Overwrite an existing output file.
        #[arg(long)]
        force: bool,
    },
    /// Move each frame so an anchor sits on the origin: the feet (bottom centre of the opaque
    /// pixels), the centre of mass, or a named attachment point.
    Align {
        /// The file to read.
        file: PathBuf,
        /// feet, centre or point:NAME.
        #[arg(long, value_name = "ANCHOR")]
        anchor: String,
        /// Only this sequence (name or M.U.G.E.N action number); repeat for more. Default: all.
        #[arg(long, short = 's', value_name = "S")]
        sequence: Vec<String>,
        #[command(flatten)]
        copy: EditedCopyArgs,
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

/// Runs a command on `jobs` threads (one per core by default): the pictures of its file are
/// decoded and drawn on all of them, and on no more. What it prints is held until it ends.
fn on_threads(
    jobs: Option<usize>,
    out: &mut dyn Write,
    err: &mut dyn Write,
    command: impl FnOnce(&mut dyn Write, &mut dyn Write) -> std::io::Result<i32> + Send,
) -> std::io::Result<i32> {
    let pool = batch::thread_pool(batch::jobs(jobs));
    let (mut printed, mut said) = (Vec::new(), Vec::new());
    let run = || command(&mut printed, &mut said);
    let code = match &pool {
        Some(pool) => pool.install(run),
        None => run(),
    };
    out.write_all(&printed)?;
    err.write_all(&said)?;
    code
}

/// Runs a subcommand, printing to `out` and `err`; returns the process exit code.
pub fn run(command: Command, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let result = match command {
        Command::Info { files, batch, read } => info::run(&files, &batch, &read, out, err),
        Command::Check {
            files,
            batch,
            no_box_lint,
            read,
        } => check::run(&files, &batch, &read, !no_box_lint, out, err),
        Command::Convert {
            input,
            output,
            to,
            force,
            allow_loss,
            allow_errors,
            frame_names,
            jobs,
            read,
        } => {
            let options = convert::Options {
                to,
                force,
                allow_loss,
                allow_errors,
                frame_names,
            };
            on_threads(jobs, out, err, |out, err| {
                convert::run(&input, &output, &options, &read, out, err)
            })
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
            force,
            allow_errors,
            overlay,
            scale,
            background,
            columns,
            game_sheet,
            jobs,
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
                force,
                allow_errors,
            };
            on_threads(jobs, out, err, |out, err| {
                render::run(&file, &options, &read, out, err)
            })
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
            copy,
            jobs,
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
                        copy,
                    };
                    on_threads(jobs, out, err, |out, err| {
                        boxes::run(&file, &options, &read, out, err)
                    })
                }
                None => writeln!(err, "sprat: boxes needs --fit CLASS or --trace CLASS").map(|_| 2),
            }
        }
        Command::Retime {
            file,
            sequence,
            scale,
            total,
            fps,
            copy,
            read,
        } => {
            let options = retime::Options {
                sequences: sequence,
                scale,
                total,
                fps,
                copy,
            };
            retime::run(&file, &options, &read, out, err)
        }
        Command::Cut {
            sheet,
            grid,
            margin,
            spacing,
            sprites,
            auto,
            explain,
            gap,
            min,
            sequence,
            fps,
            output,
            force,
        } => {
            let found = crate::assets::sprites::SpriteOptions { gap, min_size: min };
            let method = match grid {
                Some(size) => cut::Method::Grid {
                    size,
                    margin,
                    spacing,
                },
                None if sprites => cut::Method::Sprites(found),
                None => cut::Method::Automatic(found),
            };
            let options = cut::Options {
                // Only when no way of cutting was asked for.
                read_data: matches!(method, cut::Method::Automatic(_)) && !auto,
                method,
                explain,
                sequence,
                fps,
                output,
                force,
            };
            cut::run(&sheet, &options, out, err)
        }
        Command::Align {
            file,
            anchor,
            sequence,
            copy,
            read,
        } => {
            let options = align::Options {
                anchor,
                sequences: sequence,
                copy,
            };
            align::run(&file, &options, &read, out, err)
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
