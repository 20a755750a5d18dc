//! What the sprite browser asks of an archive, turned into undoable edits: the archive is
//! opened as the document holds it ([`edit_archive`]), changed through
//! [`EditableSff`], and handed to the document as one [`ChangeSprites`] step.

use crate::app::context::document::OpenDocument;
use crate::assets::ImageStore;
use crate::edit::Gesture;
use crate::edit::sprites::{ChangeSprites, SpriteNumber, frames_naming};
use crate::formats::sff::document::edit_archive;
use crate::formats::sff::edit::EditableSff;
use crate::formats::sff::encode::{Codec, SpritePixels};
use crate::formats::sff::import::{pixels_from_png, quantise as quantise_to};
use crate::model::ImageId;
use std::path::PathBuf;

/// Opens `archive`, lets `change` edit it, and applies the result as one step named `label`
/// (merged into `gesture`'s step when given: a drag).
fn change(
    doc: &mut OpenDocument,
    pixels: &ImageStore,
    archive: ImageId,
    label: String,
    gesture: Option<Gesture>,
    change: impl FnOnce(
        &mut EditableSff,
    ) -> Result<(Vec<(SpriteNumber, SpriteNumber)>, Vec<SpriteNumber>), String>,
) -> Result<(), String> {
    let mut sff = edit_archive(doc.document(), archive, pixels.sff()).map_err(|e| e.message)?;
    let (renumbered, cleared) = change(&mut sff)?;
    doc.apply(
        &ChangeSprites {
            label,
            image: archive,
            archive: sff,
            renumbered,
            cleared,
        },
        gesture,
    )
}

/// Moves the axis of `sprite` to `axis` (held to the format's 16-bit range), and every other
/// sprite of `also` by the same amount.
pub fn set_axis(
    doc: &mut OpenDocument,
    pixels: &ImageStore,
    archive: ImageId,
    sprite: SpriteNumber,
    axis: (i32, i32),
    also: &[SpriteNumber],
    gesture: Option<Gesture>,
) -> Result<(), String> {
    let label = if also.iter().any(|n| *n != sprite) {
        format!(
            "Move the axes of {}",
            crate::text::count(also.len().max(1), "sprite")
        )
    } else {
        format!("Move the axis of {},{}", sprite.0, sprite.1)
    };
    change(doc, pixels, archive, label, gesture, |sff| {
        let at = sff
            .find(sprite.0, sprite.1)
            .ok_or_else(|| format!("there is no sprite {},{}", sprite.0, sprite.1))?;
        let old = sff.sprites[at].axis;
        let axis = (clamp_i16(axis.0), clamp_i16(axis.1));
        let delta = (
            i32::from(axis.0) - i32::from(old.0),
            i32::from(axis.1) - i32::from(old.1),
        );
        sff.set_axis(sprite.0, sprite.1, axis)
            .map_err(|e| e.message)?;
        for other in also.iter().filter(|n| **n != sprite) {
            let Some(at) = sff.find(other.0, other.1) else {
                continue;
            };
            let (x, y) = sff.sprites[at].axis;
            let moved = (
                clamp_i16(i32::from(x) + delta.0),
                clamp_i16(i32::from(y) + delta.1),
            );
            sff.set_axis(other.0, other.1, moved)
                .map_err(|e| e.message)?;
        }
        Ok((Vec::new(), Vec::new()))
    })
}

fn clamp_i16(value: i32) -> i16 {
    value.clamp(i16::MIN as i32, i16::MAX as i32) as i16
}

/// Gives `sprite` the numbers `to`; every frame naming it follows.
pub fn renumber(
    doc: &mut OpenDocument,
    pixels: &ImageStore,
    archive: ImageId,
    sprite: SpriteNumber,
    to: SpriteNumber,
) -> Result<(), String> {
    let label = format!(
        "Renumber sprite {},{} to {},{}",
        sprite.0, sprite.1, to.0, to.1
    );
    change(doc, pixels, archive, label, None, |sff| {
        sff.renumber(sprite.0, sprite.1, to)
            .map_err(|e| e.message)?;
        Ok((vec![(sprite, to)], Vec::new()))
    })
}

/// The frames that show `sprite`, by the name of their sequence (for the question before a
/// delete, and the browser's "used by").
pub fn users(doc: &OpenDocument, archive: ImageId, sprite: SpriteNumber) -> (usize, Vec<String>) {
    let document = doc.document();
    let frames: Vec<_> = frames_naming(document, archive)
        .into_iter()
        .filter(|(_, n)| *n == sprite)
        .map(|(id, _)| id)
        .collect();
    let mut names = Vec::new();
    for sequence in document.sequences() {
        let shows = sequence
            .directions
            .iter()
            .flat_map(|d| &d.frames)
            .any(|id| frames.contains(id));
        if shows {
            names.push(sequence.name.clone());
        }
    }
    (frames.len(), names)
}

/// Deletes `sprites`; frames that show them lose that graphic (the caller has asked).
pub fn delete(
    doc: &mut OpenDocument,
    pixels: &ImageStore,
    archive: ImageId,
    sprites: &[SpriteNumber],
) -> Result<(), String> {
    let label = match sprites {
        [one] => format!("Delete sprite {},{}", one.0, one.1),
        many => format!("Delete {} sprites", many.len()),
    };
    change(doc, pixels, archive, label, None, |sff| {
        for sprite in sprites {
            sff.delete_sprite(sprite.0, sprite.1)
                .map_err(|e| e.message)?;
        }
        Ok((Vec::new(), sprites.to_vec()))
    })
}

/// Adds each PNG file as a new sprite of `group`, numbered after the group's last, with its
/// axis at the bottom centre; indexed PNGs keep their indices, others are stored as true
/// colour. Files that cannot be read or stored are named and skipped; the rest are one step.
/// Returns the numbers given and the files skipped.
pub fn add_pngs(
    doc: &mut OpenDocument,
    pixels: &ImageStore,
    archive: ImageId,
    group: u16,
    files: &[PathBuf],
    quantise: bool,
) -> Result<(Vec<SpriteNumber>, Vec<String>), String> {
    let mut added = Vec::new();
    let mut skipped = Vec::new();
    let label = format!(
        "Add {} to group {group}",
        crate::text::count(files.len(), "sprite")
    );
    change(doc, pixels, archive, label, None, |sff| {
        for file in files {
            let name = file
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let read = crate::formats::input::read_file(file)
                .map_err(|e| e.to_string())
                .and_then(|bytes| pixels_from_png(&bytes));
            let sprite = match read {
                // True colour becomes indices of the character's palette when asked.
                Ok(sprite @ SpritePixels::Rgba { .. }) if quantise => {
                    match sff.palette(main_palette(sff)) {
                        Some(palette) => quantise_to(&sprite, palette),
                        None => sprite,
                    }
                }
                Ok(sprite) => sprite,
                Err(why) => {
                    skipped.push(format!("{name}: {why}"));
                    continue;
                }
            };
            let next = sff
                .sprites
                .iter()
                .filter(|s| s.group == group)
                .map(|s| s.image.saturating_add(1))
                .max()
                .unwrap_or(0);
            let (width, height) = sprite.size();
            let axis = (clamp_i16(width as i32 / 2), clamp_i16(height as i32));
            let palette = main_palette(sff);
            match sff.add_sprite(group, next, axis, &sprite, palette, None) {
                Ok(_) => added.push((group, next)),
                Err(e) => skipped.push(format!("{name}: {}", e.message)),
            }
        }
        if added.is_empty() {
            return Err(format!("no sprite was added ({})", skipped.join("; ")));
        }
        Ok((Vec::new(), Vec::new()))
    })?;
    Ok((added, skipped))
}

/// Replaces the pixels of `sprite` with a PNG file's (its axis and numbers stay).
pub fn replace_image(
    doc: &mut OpenDocument,
    pixels: &ImageStore,
    archive: ImageId,
    sprite: SpriteNumber,
    file: &std::path::Path,
) -> Result<(), String> {
    let bytes = crate::formats::input::read_file(file).map_err(|e| e.to_string())?;
    let png = pixels_from_png(&bytes)?;
    let label = format!("Replace the image of sprite {},{}", sprite.0, sprite.1);
    change(doc, pixels, archive, label, None, |sff| {
        sff.replace_image(sprite.0, sprite.1, &png, None)
            .map_err(|e| e.message)?;
        Ok((Vec::new(), Vec::new()))
    })
}

/// The palette a character's sprites share: 1,1 in a v2 archive, else the first.
fn main_palette(sff: &EditableSff) -> usize {
    sff.palettes
        .iter()
        .position(|p| (p.group, p.item) == (1, 1))
        .unwrap_or(0)
}

/// Stores `sprite` again with `codec` (its pixels unchanged).
pub fn store_as(
    doc: &mut OpenDocument,
    pixels: &ImageStore,
    archive: ImageId,
    sprite: SpriteNumber,
    codec: Codec,
) -> Result<(), String> {
    let label = format!("Store sprite {},{} as {codec:?}", sprite.0, sprite.1);
    change(doc, pixels, archive, label, None, |sff| {
        let picture = sff.pixels(sprite.0, sprite.1).map_err(|e| e.message)?;
        sff.replace_image(sprite.0, sprite.1, &picture, Some(codec))
            .map_err(|e| e.message)?;
        Ok((Vec::new(), Vec::new()))
    })
}

/// Saves the archive as SFF v2.01 from now on: its PCX sprites are stored as RLE8 (the same
/// indices, losslessly), every other byte of it kept.
pub fn convert_to_v2(
    doc: &mut OpenDocument,
    pixels: &ImageStore,
    archive: ImageId,
) -> Result<(), String> {
    let label = "Convert the sprite file to SFF v2".to_string();
    change(doc, pixels, archive, label, None, |sff| {
        sff.convert_to_v2(Codec::Rle8).map_err(|e| e.message)?;
        Ok((Vec::new(), Vec::new()))
    })
}
