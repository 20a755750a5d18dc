//! Godot 4 `SpriteFrames` resources (`godot-spriteframes`, write only): a text resource
//! (`.tres`) with one animation per sequence direction (`name`, or `name_direction`), one
//! `AtlasTexture` per distinct frame picture on the packed sheet(s) beside it, and timing
//! that is exact where Godot's model allows: a frame shows `duration / speed` seconds, so
//! [`timing::godot_timing`] picks a speed at which every frame's duration is a whole number.
//!
//! Trimmed frames get an `AtlasTexture.margin`, so every frame is the canvas' size and
//! nothing jumps. Texture paths are `res://` paths when a `project.godot` is found above the
//! output folder, else relative to the `.tres` (Godot resolves those against the resource's
//! folder).

pub mod timing;
pub mod tres;

use crate::formats::atlas::{self, AtlasOptions, ExportProgress};
use crate::formats::diagnostics::{Diagnostic, Severity};
use crate::formats::{
    Baseline, Capabilities, CompanionFile, Format, FormatInfo, Loaded, Location, Loss, Place,
    ReadContext, ReadFailure, Sniff, Stated, WriteContext, WriteError, Written,
};
use crate::model::AnimationSet;
use crate::pixels::PixelSource;
use std::path::Path;

/// The format id.
pub const FORMAT_ID: &str = "godot-spriteframes";

/// Godot 4 SpriteFrames resource.
pub struct GodotSpriteFramesFormat;

impl Stated for GodotSpriteFramesFormat {
    /// What the SpriteFrames format is (written only).
    const INFO: FormatInfo = FormatInfo {
        id: FORMAT_ID,
        name: "Godot 4 SpriteFrames (.tres + atlas PNG)",
        extensions: &["tres"],
        capabilities: Capabilities {
            write: true,
            per_frame_durations: true,
            directions: true,
            ..Capabilities::NONE
        },
        baseline: Baseline::Shared,
    };
}

impl Format for GodotSpriteFramesFormat {
    fn sniff(&self, _bytes: &[u8]) -> Sniff {
        Sniff::No
    }

    fn read(&self, _bytes: &[u8], _context: &ReadContext) -> Result<Loaded, ReadFailure> {
        Err(ReadFailure::single(Diagnostic::new(
            Severity::Error,
            Location::File,
            "Sprat writes Godot SpriteFrames but does not read them",
        )))
    }

    fn write_document(
        &self,
        document: &AnimationSet,
        context: &WriteContext,
    ) -> Result<Written, WriteError> {
        let (pixels, path) = atlas::sheet_target(context, "SpriteFrames", "sprite_frames.tres")?;
        write_sprite_frames(document, pixels, &path, &AtlasOptions::default(), None)
    }
}

/// The `res://` folder of `dir` when a Godot project (`project.godot`) holds it.
pub fn res_folder(dir: &Path) -> Option<String> {
    let dir = crate::formats::paths::normalise(dir);
    let mut relative: Vec<String> = Vec::new();
    let mut at = dir.as_path();
    loop {
        if crate::formats::input::is_file(&at.join("project.godot")) {
            relative.reverse();
            let inner = relative.join("/");
            return Some(if inner.is_empty() {
                "res://".to_string()
            } else {
                format!("res://{inner}/")
            });
        }
        relative.push(at.file_name()?.to_string_lossy().into_owned());
        at = at.parent()?;
    }
}

/// Writes `document` as the `.tres` at `path` (the returned bytes) and its sheets
/// `hero.png`, `hero-1.png`, ... for `hero.tres` (companions; another name when the document
/// draws from a file of that name, see [`atlas::sheet_stem`]). Save them with
/// [`crate::export::save_written`]. `progress` counts rendered frames and can cancel.
pub fn write_sprite_frames(
    document: &AnimationSet,
    pixels: &dyn PixelSource,
    path: &Path,
    options: &AtlasOptions,
    progress: Option<&ExportProgress>,
) -> Result<Written, WriteError> {
    let built = atlas::build(document, pixels, options, progress)?;
    let stem = atlas::file_stem(path, "sprite_frames");
    let sheet_stem = atlas::sheet_stem(document, path.parent(), &stem);
    let res_dir = path.parent().and_then(res_folder);
    let mut losses = built.losses.clone();
    let mut companions = Vec::new();
    let mut sheet_paths = Vec::new();
    for (k, page) in built.pages.iter().enumerate() {
        let name = format!("{}.png", atlas::page_stem(&sheet_stem, k));
        let bytes = atlas::sheet_png(page, &name)?;
        sheet_paths.push(match &res_dir {
            Some(dir) => format!("{dir}{name}"),
            None => name.clone(),
        });
        companions.push(CompanionFile {
            relative_path: name,
            bytes,
        });
    }
    let (ox, oy) = built.origin();
    let (cw, ch) = built.canvas_size();
    // An origin at the canvas' top-left corner is where Godot puts it with `centered` off.
    if (ox, oy) != (0, 0) {
        losses.push(Loss::new(
        Place::document(),
        format!(
            "the sprite's origin: SpriteFrames has none; every frame is the {cw}x{ch} canvas with the origin at ({ox}, {oy}), so give the AnimatedSprite2D offset ({}, {}) with centered on, or ({}, {}) with centered off",
            cw as f64 / 2.0 - ox as f64,
            ch as f64 / 2.0 - oy as f64,
            -ox,
            -oy
        ),
    ));
    }
    for sequence in document.sequences() {
        let marked = sequence.directions.iter().any(|d| {
            d.frames.iter().filter_map(|f| document.frame(*f)).any(|f| {
                f.elements
                    .iter()
                    .any(|e| e.as_box().is_some() || e.as_point().is_some())
                    || !f.box_declarations.is_empty()
            })
        });
        if marked {
            losses.push(Loss::new(
                Place::sequence(&sequence.name),
                "its collision boxes and attachment points (SpriteFrames holds pictures only)",
            ));
        }
    }
    let text = tres::sprite_frames(&built, document, &sheet_paths, &stem, &mut losses);
    Ok(Written {
        bytes: text.into_bytes(),
        losses,
        companions,
    })
}
