//! File formats: one module per format behind one [`Format`] trait, and a registry that picks
//! the format of a file by its content first and its extension second.
//!
//! A reader turns bytes into an [`AnimationSet`] plus [`Diagnostic`]s; a writer turns a set into
//! bytes plus the [`Loss`]es the format cannot hold. Readers keep the bytes they read in
//! [`AnimationSet::original`], so the writer of the same format can reproduce every byte the user
//! did not edit.

pub mod adl;
pub mod aseprite;
pub mod atlas;
pub mod atlas_json;
pub mod diagnostics;
pub mod fidelity;
pub mod godot;
pub mod input;
pub mod isprite;
pub mod line_index;
pub mod loss;
pub mod mugen;
pub mod pack;
pub mod paths;
pub mod registry;
pub mod sff;
pub mod solarus;
pub mod sprat;

pub use diagnostics::{
    Diagnostic, Location, Severity, Subject, error_and_warning_counts, has_errors, line_column,
};
pub use input::{InputError, MAX_FILE_BYTES, MAX_PICTURE_BYTES, pictures_too_large, read_file};
pub use line_index::LineIndex;
pub use loss::{Loss, Place};
pub use registry::{Registry, registry};

use crate::model::{AnimationSet, BoxClass};
use crate::pixels::PixelSource;
use std::path::{Path, PathBuf};

/// Options a reader takes from the user.
#[derive(Clone, Debug, Default)]
pub struct ReadOptions {
    /// The image to use for Solarus `tileset` animations (`--tileset PATH`).
    pub tileset: Option<PathBuf>,
    /// Aseprite files: one graphic per visible layer instead of one composited picture per
    /// frame (`--aseprite-layers`).
    pub aseprite_layers: bool,
}

/// What a reader knows besides the bytes.
#[derive(Clone, Debug, Default)]
pub struct ReadContext {
    /// The file being read, if it came from disk; readers resolve images and companion files
    /// (`.def` -> `.air`, `.sff`) relative to it. `None` (as in the fuzz tests) means: touch no
    /// file.
    pub path: Option<PathBuf>,
    /// User options.
    pub options: ReadOptions,
}

impl ReadContext {
    /// A context for a file on disk. The path is made absolute (against the current folder), so
    /// the files it names resolve the same whatever folder a relative path was given from.
    pub fn for_path(path: impl Into<PathBuf>) -> ReadContext {
        ReadContext {
            path: Some(absolute(path.into())),
            options: ReadOptions::default(),
        }
    }

    /// The file's name without its extension (what a document read from it is named after),
    /// or `default` when it was not read from a file.
    pub fn file_stem(&self, default: &str) -> String {
        paths::stem_or(self.path.as_deref(), default)
    }

    /// The folder holding the file, if known.
    pub fn dir(&self) -> Option<&Path> {
        self.path.as_deref().and_then(Path::parent)
    }

    /// What a reader keeps of the bytes it read, so the same format can save them back exactly.
    pub fn original(&self, format: &str, bytes: &[u8]) -> crate::model::OriginalSource {
        crate::model::OriginalSource {
            format: format.to_string(),
            bytes: std::sync::Arc::new(bytes.to_vec()),
            path: self.path.clone(),
        }
    }
}

/// What a writer knows besides the document.
#[derive(Default)]
pub struct WriteContext<'a> {
    /// Where the output will be saved, for relative paths and companion files.
    pub path: Option<PathBuf>,
    /// Pixels of the document's graphics, for writers that must repack images (ISPRITE).
    pub pixels: Option<&'a dyn PixelSource>,
}

/// `path` joined to the current folder when relative; as it is when that cannot be known. No
/// file system access: links are not resolved, so the names the user sees stay theirs.
pub fn absolute(path: PathBuf) -> PathBuf {
    if path.is_absolute() {
        path
    } else {
        std::path::absolute(&path).unwrap_or(path)
    }
}

impl WriteContext<'_> {
    /// A context for saving to `path` (made absolute, as in [`ReadContext::for_path`], so paths
    /// written relative to it are right whatever folder the path was given from).
    pub fn for_path(path: impl Into<PathBuf>) -> WriteContext<'static> {
        WriteContext {
            path: Some(absolute(path.into())),
            pixels: None,
        }
    }

    /// The folder the output goes to, if known.
    pub fn dir(&self) -> Option<&Path> {
        self.path.as_deref().and_then(Path::parent)
    }

    /// The output's file name without its extension (what companions are named after), or
    /// `default` when the output has no path.
    pub fn file_stem(&self, default: &str) -> String {
        paths::stem_or(self.path.as_deref(), default)
    }
}

/// A successful read.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The document.
    pub document: AnimationSet,
    /// Warnings and errors that did not stop the read.
    pub diagnostics: Vec<Diagnostic>,
}

/// A read that produced no document; `diagnostics` holds at least one error.
#[derive(Clone, Debug)]
pub struct ReadFailure {
    /// What went wrong.
    pub diagnostics: Vec<Diagnostic>,
}

impl ReadFailure {
    /// A failure with one error.
    pub fn single(diagnostic: Diagnostic) -> ReadFailure {
        ReadFailure {
            diagnostics: vec![diagnostic],
        }
    }

    /// The first error's sentence, to say why the read failed in one line (empty when there
    /// is none).
    pub fn first_message(&self) -> String {
        self.diagnostics
            .first()
            .map(|d| d.message.clone())
            .unwrap_or_default()
    }
}

/// A file a writer produces besides the main one (ISPRITE's packed PNG sheets).
#[derive(Clone, Debug)]
pub struct CompanionFile {
    /// Path relative to the main file's folder.
    pub relative_path: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// Whether a companion's path (relative to the main file's folder) leads out of that folder:
/// an absolute path, or one that climbs with `..`. A save writes such a file only when the user
/// has confirmed that exact path; a `.def` from elsewhere must not make Save write anywhere.
pub fn escapes_folder(relative_path: &str) -> bool {
    let path = Path::new(relative_path);
    path.is_absolute()
        || path.components().any(|c| {
            matches!(
                c,
                std::path::Component::ParentDir
                    | std::path::Component::RootDir
                    | std::path::Component::Prefix(_)
            )
        })
}

/// A successful write.
#[derive(Clone, Debug, Default)]
pub struct Written {
    /// The main file's bytes.
    pub bytes: Vec<u8>,
    /// What the format could not hold; empty for a lossless write.
    pub losses: Vec<Loss>,
    /// Other files to save beside it.
    pub companions: Vec<CompanionFile>,
}

/// A write that cannot be done at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteError {
    /// A plain sentence.
    pub message: String,
}

impl WriteError {
    /// An error with a message.
    pub fn new(message: impl Into<String>) -> WriteError {
        WriteError {
            message: message.into(),
        }
    }
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// What a format can hold, so converters and the user interface know in advance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capabilities {
    /// It can be read.
    pub read: bool,
    /// It can be written.
    pub write: bool,
    /// Each frame may have its own duration.
    pub per_frame_durations: bool,
    /// More than one direction per sequence.
    pub directions: bool,
    /// Collision boxes.
    pub boxes: bool,
    /// Circular boxes.
    pub circles: bool,
    /// Rotated boxes.
    pub rotated_boxes: bool,
    /// Attachment points.
    pub points: bool,
    /// Several graphics per frame.
    pub layered_graphics: bool,
    /// Rotation, scale and opacity on graphics.
    pub transforms: bool,
    /// Blend modes.
    pub blending: bool,
    /// Triggers, labels and notes on frames.
    pub frame_text: bool,
    /// Nested groups.
    pub groups: bool,
    /// Sub-pixel positions.
    pub subpixel: bool,
    /// A sequence may name the sequence that plays after it.
    pub follow_ups: bool,
    /// A sequence may have its own frame rate.
    pub sequence_frame_rate: bool,
    /// A sequence may disappear after its last frame (rather than hold it).
    pub disappear_at_end: bool,
    /// Frames may interpolate position, scale, angle or opacity towards the next one.
    pub interpolation: bool,
    /// Boxes may be defaults that later frames inherit (M.U.G.E.N's `Clsn1Default`), so box
    /// edits ask whether they are for "this frame only" or "default from here on".
    pub default_boxes: bool,
    /// Boxes may have classes of their own besides hit and hurt.
    pub custom_box_classes: bool,
    /// The format says which box is a hit box and which a hurt box (M.U.G.E.N's `Clsn1` and
    /// `Clsn2`, Sprat's own classes), so the hit/hurt checks apply as read. Where it only
    /// names its boxes (Aseprite's slices), they apply to the names the user said are hit and
    /// hurt boxes ([`crate::boxes::roles`]).
    pub box_classes_known: bool,
    /// The format's own words for hit and hurt boxes, shown after Sprat's ("hit (Clsn1)");
    /// `None` where it has none.
    pub hit_hurt_words: Option<(&'static str, &'static str)>,
    /// What the format calls one of its boxes, when not "box" (Aseprite: "slice").
    pub box_noun: Option<&'static str>,
    /// A sequence may have a human title beside its name (M.U.G.E.N's comment line).
    pub sequence_titles: bool,
    /// Sequences are named by numbers (M.U.G.E.N action numbers): a new one takes the next
    /// free number rather than a word.
    pub numbered_sequences: bool,
    /// The sequences are only a view of the file's pictures (an SFF archive opened alone shows
    /// its groups): they are never written, so an empty new document of it has nothing to hold.
    pub sequences_are_a_view: bool,
    /// All the frames of a direction share one origin (a Solarus direction's `origin`), so a
    /// frame cannot be placed on its own (Align frames refuses).
    pub one_origin_per_direction: bool,
    /// The file numbers its frames and each sequence plays them in an order of its own
    /// (Aseprite's tags over the file's frames): several cells may show one frame of the
    /// file, and the timeline shows each cell's frame number in the file.
    pub numbered_file_frames: bool,
    /// A direction's frames are consecutive cells of one grid on its picture (a Solarus
    /// direction's `x`, `y`, frame size, `num_frames` and `num_columns`): frame N always shows
    /// cell N, so frames can be added or taken away at the end only, never moved, duplicated,
    /// pasted or taken out of the middle.
    pub frames_are_grid_cells: bool,
    /// The frames read from a file keep the pictures the file gives them (an Aseprite file's
    /// cels are written as they were, copied or linked): an edit that moves, changes or
    /// removes a graphic of one of them is refused ([`crate::session::Session::apply`]).
    pub pictures_as_read: bool,
    /// The unit its frame durations count in (new frames are timed in it).
    pub time_unit: crate::model::TimeUnit,
    /// Frames have no origin of their own: sprite space's (0, 0) is the top-left corner of the
    /// file's canvas (Aseprite, unless the file marks an origin). Facing left, the editor turns
    /// such a frame about the middle of its canvas rather than about that corner.
    pub origin_at_canvas_corner: bool,
    /// A file of it holds at least one frame (an Aseprite file): an edit that would leave the
    /// document without any is refused ([`crate::session::Session::apply`]).
    pub needs_a_frame: bool,
}

impl Default for Capabilities {
    fn default() -> Capabilities {
        Capabilities::NONE
    }
}

impl Capabilities {
    /// A format that can hold nothing, timed in milliseconds: what each format's constant
    /// starts from (`..Capabilities::NONE`), being the default a constant can name.
    pub const NONE: Capabilities = Capabilities {
        read: false,
        write: false,
        per_frame_durations: false,
        directions: false,
        boxes: false,
        circles: false,
        rotated_boxes: false,
        points: false,
        layered_graphics: false,
        transforms: false,
        blending: false,
        frame_text: false,
        groups: false,
        subpixel: false,
        follow_ups: false,
        sequence_frame_rate: false,
        disappear_at_end: false,
        interpolation: false,
        default_boxes: false,
        custom_box_classes: false,
        box_classes_known: false,
        hit_hurt_words: None,
        box_noun: None,
        sequence_titles: false,
        numbered_sequences: false,
        sequences_are_a_view: false,
        one_origin_per_direction: false,
        numbered_file_frames: false,
        frames_are_grid_cells: false,
        pictures_as_read: false,
        time_unit: crate::model::TimeUnit::Millis,
        origin_at_canvas_corner: false,
        needs_a_frame: false,
    };

    /// A box class as this format's users know it: "hit (Clsn1)" on M.U.G.E.N, "hit"
    /// elsewhere, a named class (an Aseprite slice's name) as written.
    pub fn box_class_label(&self, class: &BoxClass) -> String {
        let words = self.hit_hurt_words;
        match (class, words) {
            (BoxClass::Hit, Some((hit, _))) => format!("hit ({hit})"),
            (BoxClass::Hurt, Some((_, hurt))) => format!("hurt ({hurt})"),
            (BoxClass::Hit, None) => "hit".to_string(),
            (BoxClass::Hurt, None) => "hurt".to_string(),
            (BoxClass::Custom(name), _) => name.clone(),
        }
    }

    /// The word for one box ("box", or the format's own: "slice").
    pub fn box_word(&self) -> &'static str {
        self.box_noun.unwrap_or("box")
    }
}

/// How sure a format is that some bytes are its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Sniff {
    /// Not this format.
    No,
    /// Could be (plain text that parses the first lines).
    Maybe,
    /// A magic number or an unmistakable construct.
    Yes,
}

/// A format shows as its id (sessions and pending saves hold one and are `Debug`).
impl std::fmt::Debug for dyn Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Format({})", self.id())
    }
}

/// What a format states about itself, once, as the constant [`Stated::INFO`] of its type: what
/// it is called, the extensions it claims, what it can hold and who answers an unedited save.
#[derive(Clone, Copy, Debug)]
pub struct FormatInfo {
    /// A short stable id ("sprat", "solarus-lua", "mugen-air", ...), also used by `--to`.
    pub id: &'static str,
    /// A human name ("Solarus 1.x sprite (Lua)").
    pub name: &'static str,
    /// File extensions without the dot, lowercase.
    pub extensions: &'static [&'static str],
    /// What it can hold.
    pub capabilities: Capabilities,
    /// Who gives back the bytes read when a document is saved unedited.
    pub baseline: Baseline,
}

/// Who answers the save of a document that has not changed since this format read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Baseline {
    /// The shared rule ([`fidelity::unchanged_original`]): [`Format::write`] gives back the
    /// bytes read before the format's writer runs.
    Shared,
    /// The format's writer: it keeps its own baseline (M.U.G.E.N's AIR and `.def` rewrite the
    /// text they read only where it changed, an SFF archive is saved from the bytes it holds,
    /// Solarus reads the original once for both the unchanged answer and its splice).
    Own,
}

/// A format type's statement of itself, as a constant: every type that states one answers
/// [`Described::info`] with it, so a format writes what it is and nothing more.
pub trait Stated {
    /// What the format states about itself.
    const INFO: FormatInfo;
}

/// What a format states about itself, asked of a format behind `dyn` (a trait with a constant
/// cannot be one, hence this one beside [`Stated`]).
pub trait Described {
    /// What the format states about itself.
    fn info(&self) -> &'static FormatInfo;
}

impl<T: Stated> Described for T {
    fn info(&self) -> &'static FormatInfo {
        &T::INFO
    }
}

/// One file format: a type that states what it is ([`Stated`]) and sniffs, reads and writes.
pub trait Format: Described + Sync + Send {
    /// A short stable id ("sprat", "solarus-lua", "mugen-air", ...), also used by `--to`.
    fn id(&self) -> &'static str {
        self.info().id
    }
    /// A human name ("Solarus 1.x sprite (Lua)").
    fn name(&self) -> &'static str {
        self.info().name
    }
    /// File extensions without the dot, lowercase.
    fn extensions(&self) -> &'static [&'static str] {
        self.info().extensions
    }
    /// What it can hold.
    fn capabilities(&self) -> Capabilities {
        self.info().capabilities
    }
    /// Whether `bytes` look like this format.
    fn sniff(&self, bytes: &[u8]) -> Sniff;
    /// Reads a document. Never panics, hangs or allocates beyond a bound tied to `bytes.len()`.
    fn read(&self, bytes: &[u8], context: &ReadContext) -> Result<Loaded, ReadFailure>;
    /// Writes a document; an unedited document read by this format gives back the same bytes.
    /// Formats do not replace this: it applies the shared unedited-save rule (unless the
    /// format keeps its own [`Baseline`]) and otherwise runs [`Format::write_document`].
    fn write(
        &self,
        document: &AnimationSet,
        context: &WriteContext,
    ) -> Result<Written, WriteError> {
        if self.info().baseline == Baseline::Shared
            && let Some(bytes) = fidelity::unchanged_original(self, document, context)
        {
            return Ok(Written {
                bytes,
                ..Written::default()
            });
        }
        self.write_document(document, context)
    }
    /// The format's writer, behind [`Format::write`]: a document it read, edited (or, with its
    /// own baseline, perhaps not), or a document from elsewhere.
    fn write_document(
        &self,
        document: &AnimationSet,
        context: &WriteContext,
    ) -> Result<Written, WriteError>;
    /// What this format read `document` from, if it did.
    fn own_original<'a>(
        &self,
        document: &'a AnimationSet,
    ) -> Option<&'a crate::model::OriginalSource> {
        document.original.as_ref().filter(|o| o.format == self.id())
    }
}

#[cfg(test)]
mod baseline_tests {
    use super::*;

    /// A format whose writer always writes `new`, reading any bytes as an empty document.
    struct Plain(&'static FormatInfo);

    const SHARED: FormatInfo = FormatInfo {
        id: "plain",
        name: "Plain",
        extensions: &["plain"],
        capabilities: Capabilities {
            read: true,
            write: true,
            ..Capabilities::NONE
        },
        baseline: Baseline::Shared,
    };
    const OWN: FormatInfo = FormatInfo {
        baseline: Baseline::Own,
        ..SHARED
    };

    /// Its statement is chosen when it is made, so one type serves both baselines.
    impl Described for Plain {
        fn info(&self) -> &'static FormatInfo {
            self.0
        }
    }

    impl Format for Plain {
        fn sniff(&self, _bytes: &[u8]) -> Sniff {
            Sniff::Maybe
        }
        fn read(&self, bytes: &[u8], context: &ReadContext) -> Result<Loaded, ReadFailure> {
            let mut document = AnimationSet::new();
            document.original = Some(context.original(self.id(), bytes));
            Ok(Loaded {
                document,
                diagnostics: Vec::new(),
            })
        }
        fn write_document(
            &self,
            _document: &AnimationSet,
            _context: &WriteContext,
        ) -> Result<Written, WriteError> {
            Ok(Written {
                bytes: b"new".to_vec(),
                ..Written::default()
            })
        }
    }

    fn saved(format: &Plain, edit: impl Fn(&mut AnimationSet)) -> Vec<u8> {
        let mut document = format
            .read(b"as read", &ReadContext::default())
            .unwrap()
            .document;
        edit(&mut document);
        format
            .write(&document, &WriteContext::default())
            .unwrap()
            .bytes
    }

    #[test]
    fn the_shared_baseline_answers_an_unedited_save_before_the_writer() {
        let shared = Plain(&SHARED);
        assert_eq!(saved(&shared, |_| {}), b"as read");
        assert_eq!(saved(&shared, |d| d.frame_rate = Some(7)), b"new");
        // A format with its own baseline is asked every time.
        assert_eq!(saved(&Plain(&OWN), |_| {}), b"new");
    }

    #[test]
    fn a_format_states_itself_once_and_only_the_listed_keep_their_own_baseline() {
        let own: Vec<&str> = registry()
            .formats()
            .filter(|f| f.info().baseline == Baseline::Own)
            .map(|f| f.id())
            .collect();
        assert_eq!(
            own,
            [
                "mugen-sff",
                "solarus-lua",
                "solarus-legacy",
                "mugen-air",
                "mugen-def"
            ]
        );
        for format in registry().formats() {
            let info = format.info();
            assert_eq!(
                (format.id(), format.name(), format.extensions()),
                (info.id, info.name, info.extensions)
            );
            assert_eq!(format.capabilities(), info.capabilities);
        }
        assert_eq!(Capabilities::default(), Capabilities::NONE);
    }
}

#[cfg(test)]
mod escapes_tests {
    use super::escapes_folder;

    #[test]
    fn only_paths_that_leave_the_folder_escape_it() {
        // `~` is a folder name to a save (nothing expands it), so `~/.bashrc` stays inside.
        for inside in ["kfm.air", "chars/kfm.air", "./kfm.air", "~/.bashrc"] {
            assert!(!escapes_folder(inside), "{inside}");
        }
        // Any `..` counts, even one that comes back: the rule is simple to state and check.
        for outside in [
            "/etc/passwd",
            "../kfm.air",
            "chars/../../kfm.air",
            "a/../b.air",
        ] {
            assert!(escapes_folder(outside), "{outside}");
        }
    }
}
