//! One export as the editor's Export dialog asks for it: a kind of output (PNG frames, a
//! strip, GIF, APNG, atlas + JSON, Godot SpriteFrames), the sequences it covers, the target
//! file and the look (scale, background, overlay).
//!
//! [`plan`] names the files before anything is drawn, so the dialog can ask before replacing
//! any; [`run`] draws everything in memory, counting in an [`ExportProgress`] that can cancel
//! it, and then saves every file together or none (an export into a folder that cannot be
//! written leaves nothing behind). No export ever replaces a file the document reads.

use super::ExportError;
use super::png::{encode_png, frame_image, strip_image};
use super::timeline::timeline;
use super::{export_apng, export_gif};
use crate::formats::atlas::{AtlasOptions, ExportProgress};
use crate::formats::atlas_json::write_atlas;
use crate::formats::godot::write_sprite_frames;
use crate::formats::paths::normalise;
use crate::formats::{Loss, Written};
use crate::model::{AnimationSet, SequenceId};
use crate::pixels::PixelSource;
use crate::render::{CanvasBounds, RenderOptions, direction_bounds};
use crate::session::atomic::FileToSave;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

/// What an export produces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ExportKind {
    /// One PNG per frame, on one canvas per direction so the frames line up.
    #[default]
    Frames,
    /// Every frame of a direction side by side in one PNG.
    Strip,
    /// An animated GIF with the exact timing (no partial transparency).
    Gif,
    /// An animated PNG with full alpha and exact delays.
    Apng,
    /// A texture atlas with JSON in the layout Aseprite writes (`aseprite-json`).
    AtlasJson,
    /// A Godot 4 `SpriteFrames` resource with its atlas.
    Godot,
}

impl ExportKind {
    /// Every kind, in the order the dialog lists them.
    pub const ALL: [ExportKind; 6] = [
        ExportKind::Frames,
        ExportKind::Strip,
        ExportKind::Gif,
        ExportKind::Apng,
        ExportKind::AtlasJson,
        ExportKind::Godot,
    ];

    /// The name the dialog shows.
    pub fn label(self) -> &'static str {
        match self {
            ExportKind::Frames => "PNG frames",
            ExportKind::Strip => "PNG strip",
            ExportKind::Gif => "Animated GIF",
            ExportKind::Apng => "Animated PNG (APNG)",
            ExportKind::AtlasJson => "Atlas + JSON (Aseprite layout)",
            ExportKind::Godot => "Godot 4 SpriteFrames",
        }
    }

    /// The extension of the file the user names.
    pub fn extension(self) -> &'static str {
        match self {
            ExportKind::Frames | ExportKind::Strip | ExportKind::Apng => "png",
            ExportKind::Gif => "gif",
            ExportKind::AtlasJson => "json",
            ExportKind::Godot => "tres",
        }
    }

    /// True for the pictures of frames as they are shown (boxes and points can be drawn on
    /// them); false for the atlases, which store frames bare and boxes as data.
    pub fn is_picture(self) -> bool {
        !self.packs_atlas()
    }

    /// True for the kinds that pack an atlas (their packing options apply).
    pub fn packs_atlas(self) -> bool {
        matches!(self, ExportKind::AtlasJson | ExportKind::Godot)
    }
}

/// One export.
#[derive(Clone, Debug, PartialEq)]
pub struct ExportRequest {
    /// What to produce.
    pub kind: ExportKind,
    /// Only this sequence (all its directions); every sequence when `None`.
    pub only: Option<SequenceId>,
    /// The file named by the user; several files are named after it (see [`plan`]).
    pub target: PathBuf,
    /// Output pixels per sprite pixel (1..=16).
    pub scale: u32,
    /// A colour under the frames, or transparent.
    pub background: Option<[u8; 4]>,
    /// Draw collision boxes and attachment points on pictures.
    pub overlay: bool,
    /// How atlases are packed (its `scale` and `only` are taken from this request).
    pub atlas: AtlasOptions,
}

/// What an export wrote.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Exported {
    /// Every file written.
    pub files: Vec<PathBuf>,
    /// What the output could not hold.
    pub losses: Vec<Loss>,
}

/// A file drawn in memory: where it goes and its bytes.
type Drawn = (PathBuf, Vec<u8>);

/// An export drawn in memory ([`draw`]), not written yet.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DrawnExport {
    /// Each file: where the export writes it, and its bytes.
    pub files: Vec<(PathBuf, Vec<u8>)>,
    /// What the output could not hold.
    pub losses: Vec<Loss>,
}

/// A sequence direction to draw, and what tells its files from the others'.
struct Piece {
    sequence: SequenceId,
    direction: usize,
    frames: usize,
    /// The file-name part naming it, `None` when the export has only this piece.
    label: Option<String>,
}

/// The directions with frames the request covers, in tree order.
fn pieces(document: &AnimationSet, only: Option<SequenceId>) -> Vec<Piece> {
    let mut pieces = Vec::new();
    for sequence in document.sequences() {
        if only.is_some_and(|id| id != sequence.id) {
            continue;
        }
        let several = sequence.directions.len() > 1;
        for (d, direction) in sequence.directions.iter().enumerate() {
            if direction.frames.is_empty() {
                continue;
            }
            let label = match (only.is_some(), several) {
                (true, false) => None,
                (true, true) => Some(sequence.direction_label(d)),
                (false, false) => Some(sequence.name.clone()),
                (false, true) => Some(format!("{}_{}", sequence.name, sequence.direction_label(d))),
            };
            pieces.push(Piece {
                sequence: sequence.id,
                direction: d,
                frames: direction.frames.len(),
                label,
            });
        }
    }
    if let [only_piece] = pieces.as_mut_slice() {
        only_piece.label = None;
    }
    pieces
}

/// A name as a file-name part: letters, digits, `-`, `_` and `.` kept, anything else `_`.
pub fn file_safe(name: &str) -> String {
    let safe = crate::text::file_name_characters(name);
    let safe = safe.trim_matches('.');
    if safe.is_empty() {
        "_".to_string()
    } else {
        safe.to_string()
    }
}

/// The files an export will write, named after `request.target`: `walk.gif` for one
/// direction, `walk_left.gif`, `walk_right.gif` for a sequence's directions, `demo_walk.gif`,
/// `demo_run.gif` for every sequence; PNG frames add the frame number (`walk_07.png`). An atlas
/// lists its main file; its sheets are named when they are written.
pub fn plan(document: &AnimationSet, request: &ExportRequest) -> Result<Vec<PathBuf>, String> {
    if request.kind.packs_atlas() {
        return Ok(vec![request.target.clone()]);
    }
    let pieces = pieces(document, request.only);
    if pieces.is_empty() {
        return Err(match request.only {
            Some(_) => "the sequence has no frames to export".to_string(),
            None => "the document has no frames to export".to_string(),
        });
    }
    let dir = request.target.parent().unwrap_or(Path::new(""));
    let stem = request
        .target
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|s| !s.is_empty())
        .ok_or_else(|| format!("\"{}\" names no file", request.target.display()))?;
    let extension = request.kind.extension();
    let mut taken = HashSet::new();
    let mut files = Vec::new();
    for piece in &pieces {
        let base = match &piece.label {
            Some(label) => format!("{stem}_{}", file_safe(label)),
            None => stem.clone(),
        };
        // Two sequences whose names differ only in characters a file name cannot hold.
        let base = unique(&base, &mut taken);
        if request.kind == ExportKind::Frames {
            let width = (piece.frames - 1).to_string().len();
            for i in 0..piece.frames {
                files.push(dir.join(format!("{base}_{i:0width$}.{extension}")));
            }
        } else {
            files.push(dir.join(format!("{base}.{extension}")));
        }
    }
    Ok(files)
}

/// `base`, or `base-2`, `base-3`, … when an earlier piece took it (ignoring ASCII case, as
/// some file systems do).
fn unique(base: &str, taken: &mut HashSet<String>) -> String {
    let mut candidate = base.to_string();
    let mut n = 2;
    while !taken.insert(candidate.to_lowercase()) {
        candidate = format!("{base}-{n}");
        n += 1;
    }
    candidate
}

/// Draws everything the request asks for and saves it all or nothing; `keep` lists files the
/// export must never replace (the document's own file and every image it reads). Progress
/// counts drawn frames; a cancel stops before anything is written.
pub fn run(
    document: &AnimationSet,
    pixels: &dyn PixelSource,
    request: &ExportRequest,
    progress: &ExportProgress,
    keep: &[PathBuf],
) -> Result<Exported, String> {
    if let Some(dir) = request.target.parent()
        && !dir.as_os_str().is_empty()
        && !dir.is_dir()
    {
        return Err(format!(
            "the folder {} does not exist; nothing was written",
            dir.display()
        ));
    }
    let DrawnExport { files, losses } = draw(document, pixels, request, progress, keep)?;
    let to_save: Vec<FileToSave> = files
        .iter()
        .map(|(path, bytes)| FileToSave {
            path: path.clone(),
            bytes,
        })
        .collect();
    let files = super::files::save_together_sparing(to_save, keep)?;
    Ok(Exported { files, losses })
}

/// Draws everything the request asks for in memory, without writing: each file's path and
/// bytes (exactly what [`run`] writes), and what the output could not hold. Where there is no
/// disk (the web page) the files are handed to the user instead. Refused like [`run`] when a
/// file would replace one of `keep`, or when cancelled.
pub fn draw(
    document: &AnimationSet,
    pixels: &dyn PixelSource,
    request: &ExportRequest,
    progress: &ExportProgress,
    keep: &[PathBuf],
) -> Result<DrawnExport, String> {
    let (files, losses) = if request.kind.packs_atlas() {
        draw_atlas(document, pixels, request, progress)?
    } else {
        (
            draw_pictures(document, pixels, request, progress)?,
            Vec::new(),
        )
    };
    if progress.cancel.load(Ordering::Relaxed) {
        return Err(ExportError::Cancelled.to_string());
    }
    let kept: HashSet<PathBuf> = keep.iter().map(|p| normalise(p)).collect();
    if let Some((path, _)) = files.iter().find(|(p, _)| kept.contains(&normalise(p))) {
        return Err(format!(
            "the export would replace {}, which the document reads; choose another name (nothing was written)",
            path.display()
        ));
    }
    Ok(DrawnExport { files, losses })
}

/// The look every picture is drawn with.
fn render_options(request: &ExportRequest) -> RenderOptions {
    let scale = request.scale.clamp(1, crate::formats::atlas::MAX_SCALE);
    RenderOptions::picture(scale, request.background, request.overlay)
}

/// PNG frames, strips, GIFs or APNGs, one file each as [`plan`] names them.
fn draw_pictures(
    document: &AnimationSet,
    pixels: &dyn PixelSource,
    request: &ExportRequest,
    progress: &ExportProgress,
) -> Result<Vec<Drawn>, String> {
    let names = plan(document, request)?;
    let pieces = pieces(document, request.only);
    let options = render_options(request);
    // Counted in pictures: the frames of each direction, or the steps of each animation pass.
    let sizes: Vec<usize> = pieces
        .iter()
        .map(|piece| match request.kind {
            ExportKind::Gif | ExportKind::Apng => {
                timeline(document, piece.sequence, piece.direction)
                    .map_or(piece.frames, |pass| pass.steps.len())
            }
            _ => piece.frames,
        })
        .collect();
    progress.total.store(sizes.iter().sum(), Ordering::Relaxed);
    progress.done.store(0, Ordering::Relaxed);
    let failed = |piece: &Piece, e: ExportError| {
        let name = document
            .sequence(piece.sequence)
            .map_or(String::new(), |s| s.name.clone());
        match e {
            ExportError::Cancelled => e.to_string(),
            e => format!("cannot export \"{name}\": {e}"),
        }
    };
    let mut names = names.into_iter();
    let mut files = Vec::new();
    let mut counted = 0;
    for (piece, size) in pieces.iter().zip(&sizes) {
        if progress.cancel.load(Ordering::Relaxed) {
            return Err(ExportError::Cancelled.to_string());
        }
        let (sequence, direction) = (piece.sequence, piece.direction);
        match request.kind {
            ExportKind::Frames => {
                // One canvas for the whole direction, so the frames line up when played.
                let bounds = direction_bounds(document, sequence, direction, pixels, &options);
                let options = RenderOptions {
                    bounds: bounds.map_or(options.bounds, CanvasBounds::Fixed),
                    ..options
                };
                for index in 0..piece.frames {
                    if progress.cancel.load(Ordering::Relaxed) {
                        return Err(ExportError::Cancelled.to_string());
                    }
                    let bytes = frame_image(document, sequence, direction, index, pixels, &options)
                        .and_then(|image| encode_png(&image))
                        .map_err(|e| failed(piece, e))?;
                    files.push((names.next().unwrap_or_default(), bytes));
                    progress.done.fetch_add(1, Ordering::Relaxed);
                }
            }
            ExportKind::Strip => {
                let bytes = strip_image(document, sequence, direction, None, pixels, &options)
                    .and_then(|image| encode_png(&image))
                    .map_err(|e| failed(piece, e))?;
                files.push((names.next().unwrap_or_default(), bytes));
            }
            ExportKind::Gif | ExportKind::Apng => {
                let watched = Some(progress);
                let bytes = if request.kind == ExportKind::Gif {
                    export_gif(document, sequence, direction, pixels, &options, watched)
                        .map(|gif| gif.bytes)
                } else {
                    export_apng(document, sequence, direction, pixels, &options, watched)
                        .map(|apng| apng.bytes)
                }
                .map_err(|e| failed(piece, e))?;
                files.push((names.next().unwrap_or_default(), bytes));
            }
            ExportKind::AtlasJson | ExportKind::Godot => unreachable!("atlases are packed"),
        }
        // A pass draws a picture per shown step, not per step: catch the count up.
        counted += size;
        progress.done.store(counted, Ordering::Relaxed);
    }
    Ok(files)
}

/// An atlas with its JSON or `.tres`: the main file and every sheet and page beside it.
fn draw_atlas(
    document: &AnimationSet,
    pixels: &dyn PixelSource,
    request: &ExportRequest,
    progress: &ExportProgress,
) -> Result<(Vec<Drawn>, Vec<Loss>), String> {
    let options = AtlasOptions {
        scale: request.scale,
        only: request.only,
        ..request.atlas.clone()
    };
    let path = &request.target;
    let written: Written = match request.kind {
        ExportKind::Godot => write_sprite_frames(document, pixels, path, &options, Some(progress)),
        _ => write_atlas(document, pixels, path, &options, Some(progress)),
    }
    .map_err(|e| e.message)?;
    let files = super::files::placed_files(path, &written)?
        .into_iter()
        .map(|(path, bytes)| (path, bytes.to_vec()))
        .collect();
    Ok((files, written.losses))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_keep_letters_and_replace_the_rest() {
        assert_eq!(file_safe("walk left"), "walk_left");
        assert_eq!(file_safe("a/b:c"), "a_b_c");
        assert_eq!(file_safe(".."), "_");
        assert_eq!(file_safe("Gehen-2.x"), "Gehen-2.x");
    }

    #[test]
    fn a_name_taken_twice_gets_a_number() {
        let mut taken = HashSet::new();
        assert_eq!(unique("demo_a_b", &mut taken), "demo_a_b");
        assert_eq!(unique("demo_a_b", &mut taken), "demo_a_b-2");
        assert_eq!(unique("DEMO_A_B", &mut taken), "DEMO_A_B-3");
    }
}
