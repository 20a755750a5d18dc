//! A new SFF for a document from another format: every image a frame draws that is not an
//! SFF sprite (a slice of a sheet, a whole image) becomes a sprite whose axis is the graphic's
//! origin, and the frames name those sprites, so a `.def` written from it is a character
//! M.U.G.E.N and Ikemen GO can load.
//!
//! Sprites are numbered by the sequence that first shows them: group = that sequence's place in
//! the tree, image = 0, 1, ... in the order the frames show them. When the art has at most 255
//! colours, all fully opaque or fully transparent, the sprites are palette indices sharing one
//! palette (1,1) and stored as RLE8, which both engines read; otherwise they are PNG32.

use super::edited::EditableSff;
use super::encode::SpritePixels;
use super::palette::Palette;
use super::write::write_sff;
use crate::formats::{CompanionFile, WriteContext, WriteError};
use crate::model::{
    AnimationSet, Element, ElementKind, GraphicSource, ImageId, ImageKind, Origin, PaletteSource,
    SourceImage,
};
use std::collections::HashMap;

/// The document with its images turned into sprites of a new archive, and that archive.
pub struct Built {
    /// The document, its graphics naming the new sprites.
    pub document: AnimationSet,
    /// The new `.sff`.
    pub archive: CompanionFile,
}

/// One sprite to make: the graphic source and the origin it is drawn with.
type Key = (GraphicSource, Origin);

/// Builds `stem.sff` from `document`'s images, or `None` when there is nothing to build (the
/// document already draws from an SFF, draws no image, or no pixels are at hand).
pub fn build_archive(
    document: &AnimationSet,
    context: &WriteContext,
    file_name: &str,
) -> Result<Option<Built>, WriteError> {
    let has_archive = document
        .images
        .iter()
        .any(|i| matches!(i.kind, ImageKind::Sff { .. }));
    let Some(source_pixels) = context.pixels.filter(|_| !has_archive) else {
        return Ok(None);
    };
    // Every (source, origin) in the order the sequences show them, with its number.
    let mut numbers: HashMap<Key, (u16, u16)> = HashMap::new();
    let mut order: Vec<Key> = Vec::new();
    for (place, sequence) in document.sequences().into_iter().enumerate() {
        let group = u16::try_from(place).map_err(|_| {
            WriteError::new("more than 65,535 sequences cannot be numbered as SFF groups")
        })?;
        let mut next_image = 0u16;
        for direction in &sequence.directions {
            for frame in direction.frames.iter().filter_map(|id| document.frame(*id)) {
                for graphic in frame.elements.iter().filter_map(Element::as_graphic) {
                    if matches!(graphic.source, GraphicSource::SffSprite { .. }) {
                        continue;
                    }
                    let key = (graphic.source.clone(), graphic.origin);
                    if let std::collections::hash_map::Entry::Vacant(slot) =
                        numbers.entry(key.clone())
                    {
                        slot.insert((group, next_image));
                        order.push(key);
                        next_image = next_image.checked_add(1).ok_or_else(|| {
                            WriteError::new(format!(
                                "sequence \"{}\" shows more than 65,535 images, more than an SFF group numbers",
                                sequence.name
                            ))
                        })?;
                    }
                }
            }
        }
    }
    if order.is_empty() {
        return Ok(None);
    }
    let mut images = Vec::with_capacity(order.len());
    for key in &order {
        let pixels = source_pixels.pixels(document, &key.0).ok_or_else(|| {
            WriteError::new(format!(
                "the pixels of {:?} could not be loaded, so its sprite cannot be made",
                key.0
            ))
        })?;
        let axis = match key.1 {
            Origin::At(point) => (point.x.floor(), point.y.floor()),
            Origin::SourceAxis => pixels.axis,
        };
        let axis = (
            i16::try_from(axis.0)
                .map_err(|_| WriteError::new("an origin is too far for an SFF axis"))?,
            i16::try_from(axis.1)
                .map_err(|_| WriteError::new("an origin is too far for an SFF axis"))?,
        );
        images.push((pixels.image, axis));
    }

    let palette = shared_palette(images.iter().map(|(image, _)| image.as_raw().as_slice()));
    let mut sff = EditableSff::new(
        palette
            .as_ref()
            .map_or_else(Palette::default, |p| p.0.clone()),
    );
    if let Some((_, count, _)) = &palette {
        sff.palettes[0].count = *count;
    }
    for (key, (image, axis)) in order.iter().zip(&images) {
        let (width, height) = image.dimensions();
        let pixels = match &palette {
            Some((_, _, known)) => SpritePixels::Indexed {
                width,
                height,
                indices: image
                    .as_raw()
                    .chunks_exact(4)
                    .map(|p| {
                        if p[3] == 0 {
                            0
                        } else {
                            known[&[p[0], p[1], p[2], 255]]
                        }
                    })
                    .collect(),
            },
            None => SpritePixels::Rgba {
                width,
                height,
                rgba: image.as_raw().clone(),
            },
        };
        let (group, number) = numbers[key];
        sff.add_sprite(group, number, *axis, &pixels, 0, None)
            .map_err(|e| WriteError::new(format!("sprite {group},{number}: {e}")))?;
    }
    let bytes = write_sff(&sff).map_err(|e| WriteError::new(e.message))?;

    let mut out = document.clone();
    let archive = ImageId(out.alloc_id());
    out.images.push(SourceImage {
        id: archive,
        path: file_name.to_string(),
        resolved: None,
        kind: ImageKind::Sff {
            palettes: vec![PaletteSource::Embedded(0)],
            active_palette: None,
        },
        nearest_neighbour: true,
    });
    for frame in out.frames.values_mut() {
        for element in &mut frame.elements {
            if let ElementKind::Graphic(graphic) = &mut element.kind
                && let Some(&(group, image)) =
                    numbers.get(&(graphic.source.clone(), graphic.origin))
            {
                graphic.source = GraphicSource::SffSprite {
                    archive,
                    group: group.into(),
                    image: image.into(),
                };
                graphic.origin = Origin::SourceAxis;
            }
        }
    }
    Ok(Some(Built {
        document: out,
        archive: CompanionFile {
            relative_path: file_name.to_string(),
            bytes,
        },
    }))
}

/// One palette for every image (index 0 transparent, the colours in order of first use) and
/// how many entries it uses, when the images have at most 255 colours and no partly
/// transparent pixel; with the index of each colour.
fn shared_palette<'a>(
    images: impl Iterator<Item = &'a [u8]>,
) -> Option<(Palette, u16, HashMap<[u8; 4], u8>)> {
    let mut palette = Palette::default();
    palette.set_colour(0, [0, 0, 0, 0]);
    let mut known: HashMap<[u8; 4], u8> = HashMap::new();
    for rgba in images {
        for p in rgba.chunks_exact(4) {
            match p[3] {
                0 => continue,
                255 => {}
                _ => return None,
            }
            let colour = [p[0], p[1], p[2], 255];
            if !known.contains_key(&colour) {
                let next = known.len() + 1;
                let index = u8::try_from(next).ok()?;
                known.insert(colour, index);
                palette.set_colour(index, colour);
            }
        }
    }
    let count = known.len() as u16 + 1;
    Some((palette, count, known))
}
