//! Texture atlas + JSON in the layout Aseprite's "Export Sprite Sheet" writes (`aseprite-json`),
//! the sheet format Phaser, PixiJS, LÖVE, Godot and Unity importers read: one or more PNG sheets
//! and a JSON file per sheet, in the hash or the array form.
//!
//! Writing renders every frame of every sequence direction flat ([`crate::formats::atlas`]),
//! one tag per direction (`name`, or `name_direction` with the user data
//! `direction:<label>` when a sequence has several), boxes and points as slices, and the
//! sprite's origin as the pivot of a slice named `origin`. When the frames need more than one
//! sheet, each sheet gets its own complete JSON (whole animations per sheet) and the first names
//! the others in `meta.related_multi_packs`, TexturePacker's multipack convention that PixiJS
//! loads; any engine can load each file on its own. Reading ([`read`]) takes Aseprite's and
//! TexturePacker's sheets as well as ours.

pub mod layout;
pub mod names;
pub mod read;
pub mod schema;

use crate::formats::atlas::{self, AtlasOptions, ExportProgress};
use crate::formats::{
    Baseline, Capabilities, CompanionFile, Format, FormatInfo, Loaded, ReadContext, ReadFailure,
    Sniff, Stated, WriteContext, WriteError, Written,
};
use crate::model::AnimationSet;
use crate::pixels::PixelSource;
use layout::PageNames;
use std::path::Path;

/// The format id.
pub const FORMAT_ID: &str = "aseprite-json";
/// The slice whose pivot is the sprite's origin.
pub const ORIGIN_SLICE: &str = "origin";
/// The tag user data that marks a tag as one direction of a sequence.
pub const DIRECTION_DATA: &str = "direction:";

/// Texture atlas + JSON (Aseprite layout).
pub struct AsepriteJsonFormat;

impl Stated for AsepriteJsonFormat {
    /// What the atlas + JSON format is.
    const INFO: FormatInfo = FormatInfo {
        id: FORMAT_ID,
        name: "Texture atlas + JSON (Aseprite layout)",
        extensions: &["json"],
        capabilities: Capabilities {
            read: true,
            write: true,
            per_frame_durations: true,
            directions: true,
            boxes: true,
            points: true,
            custom_box_classes: true,
            box_classes_known: true,
            ..Capabilities::NONE
        },
        baseline: Baseline::Shared,
    };
}

impl Format for AsepriteJsonFormat {
    fn sniff(&self, bytes: &[u8]) -> Sniff {
        let head = &bytes[..bytes.len().min(4096)];
        let starts_object = head
            .iter()
            .find(|b| !b.is_ascii_whitespace())
            .is_some_and(|b| *b == b'{');
        let has = |needle: &[u8]| head.windows(needle.len()).any(|w| w == needle);
        if !starts_object || !has(b"\"frames\"") {
            Sniff::No
        } else if has(b"\"spriteSourceSize\"") || has(b"\"frame\"") {
            Sniff::Yes
        } else {
            Sniff::Maybe
        }
    }

    fn read(&self, bytes: &[u8], context: &ReadContext) -> Result<Loaded, ReadFailure> {
        read::read(bytes, context)
    }

    fn write_document(
        &self,
        document: &AnimationSet,
        context: &WriteContext,
    ) -> Result<Written, WriteError> {
        let mut written = write_with_frame_names(document, context, "")?;
        written
            .losses
            .extend(crate::formats::loss::unused_picture_losses(document));
        Ok(written)
    }
}

/// Writes `document` as a new atlas for `context.path`, naming frames by `pattern` (see
/// [`names`]; empty for the document's default).
pub fn write_with_frame_names(
    document: &AnimationSet,
    context: &WriteContext,
    pattern: &str,
) -> Result<Written, WriteError> {
    let (pixels, path) = atlas::sheet_target(context, "an atlas", "atlas.json")?;
    let options = AtlasOptions {
        frame_names: pattern.to_string(),
        ..AtlasOptions::default()
    };
    write_atlas(document, pixels, &path, &options, None)
}

/// Writes `document` as atlas pages for the main file `path` (`hero.json`): its sheet
/// `hero.png`, further pages `hero-1.json` + `hero-1.png`, ..., all as companions (sheets take
/// another name when the document draws from a file of that name, see
/// [`atlas::sheet_stem`]). Save them with [`crate::export::save_written`]. `progress` counts
/// rendered frames and can cancel.
pub fn write_atlas(
    document: &AnimationSet,
    pixels: &dyn PixelSource,
    path: &Path,
    options: &AtlasOptions,
    progress: Option<&ExportProgress>,
) -> Result<Written, WriteError> {
    let built = atlas::build(document, pixels, options, progress)?;
    let frame_pattern = match options.frame_names.trim() {
        "" => names::default_pattern(document),
        chosen => chosen.to_string(),
    };
    let stem = atlas::file_stem(path, "atlas");
    let sheet_stem = atlas::sheet_stem(document, path.parent(), &stem);
    let related: Vec<String> = (1..built.pages.len())
        .map(|k| format!("{}.json", atlas::page_stem(&stem, k)))
        .collect();
    let mut main = Vec::new();
    let mut companions = Vec::new();
    for (k, page) in built.pages.iter().enumerate() {
        let title = atlas::page_stem(&stem, k);
        let image = format!("{}.png", atlas::page_stem(&sheet_stem, k));
        let names = PageNames {
            title: &title,
            frame_pattern: &frame_pattern,
            image: &image,
            related: if k == 0 { &related } else { &[] },
        };
        let text = layout::page_json(&built, k, &names)?;
        let png = atlas::sheet_png(page, &image)?;
        companions.push(CompanionFile {
            relative_path: image,
            bytes: png,
        });
        if k == 0 {
            main = text.into_bytes();
        } else {
            companions.push(CompanionFile {
                relative_path: format!("{title}.json"),
                bytes: text.into_bytes(),
            });
        }
    }
    let mut losses = built.losses;
    losses.extend(built.millis_losses);
    losses.extend(built.mark_losses);
    Ok(Written {
        bytes: main,
        losses,
        companions,
    })
}
