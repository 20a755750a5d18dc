//! Frames that stay colour indices until the GPU: a frame that is one paletted sprite drawn as
//! it is (moved and flipped by whole pixels, full opacity, the normal blend: most frames of a
//! M.U.G.E.N character) is kept as the sprite's indices and its palette, a quarter of the
//! bytes of its RGBA picture, and drawn through a palette lookup ([`super::gpu_palette`]).
//! The indices are decoded straight from the archive's bytes and never made into RGBA.
//!
//! [`IndexedPicture::texels`] is the same lookup on the CPU, for where no palette lookup runs
//! on the GPU (a texture of the frame made all the same).

use crate::assets::ImageStore;
use crate::formats::sff::store::{IndexedSprite, Indices, IndicesKey, SpriteRequest};
use crate::model::{AnimationSet, ImageKind};
use crate::render::{Scene, SpriteRect, plain_graphic, plain_placement};
use egui::{Color32, ColorImage};
use std::sync::Arc;

/// One paletted sprite as a frame shows it.
#[derive(Clone, Debug)]
pub struct IndexedPicture {
    /// The sprite's indices and colours.
    pub sprite: IndexedSprite,
    /// Where the picture goes in sprite space (one pixel per sprite pixel).
    pub rect: SpriteRect,
    /// Whether the sprite is read right to left.
    pub flipped_x: bool,
    /// Whether the sprite is read bottom to top.
    pub flipped_y: bool,
}

impl IndexedPicture {
    /// The bytes the picture holds: its indices and its 256 colours.
    pub fn bytes(&self) -> usize {
        self.sprite.indices.pixels.len() + std::mem::size_of_val(&*self.sprite.colours)
    }

    /// The picture's pixels row by row from the top, straight RGBA: each index looked up in
    /// the colours, with the flips (what the GPU's lookup draws, pixel for pixel).
    pub fn straight_pixels(&self) -> Vec<[u8; 4]> {
        let Indices {
            width,
            height,
            pixels,
        } = &*self.sprite.indices;
        let (width, height) = (*width as usize, *height as usize);
        let colours = &*self.sprite.colours;
        let mut out = Vec::with_capacity(width * height);
        for j in 0..height {
            let row = if self.flipped_y { height - 1 - j } else { j };
            let row = pixels[row * width..(row + 1) * width].iter();
            let colour = |i: &u8| colours[usize::from(*i)];
            if self.flipped_x {
                out.extend(row.rev().map(colour));
            } else {
                out.extend(row.map(colour));
            }
        }
        out
    }

    /// The picture as a texture's pixels (premultiplied), for where it is not drawn through
    /// the GPU's lookup.
    pub fn texels(&self) -> ColorImage {
        let size = [
            self.sprite.indices.width as usize,
            self.sprite.indices.height as usize,
        ];
        let texels = self
            .straight_pixels()
            .into_iter()
            .map(|[r, g, b, a]| Color32::from_rgba_unmultiplied(r, g, b, a))
            .collect();
        ColorImage::new(size, texels)
    }
}

/// `scene` as an [`IndexedPicture`] when it draws one paletted SFF sprite as it is; `None`
/// for anything else (several graphics, a turn, a scale, a blend, a fade, a sprite stored as
/// RGBA, an image file), which is composed into RGBA. `known` gives indices decoded before.
pub fn indexed_picture(
    document: &AnimationSet,
    scene: &Scene,
    pixels: &ImageStore,
    known: &dyn Fn(&IndicesKey) -> Option<Arc<Indices>>,
) -> Option<IndexedPicture> {
    let graphic = plain_graphic(scene)?;
    let request = SpriteRequest::of(document, &graphic.source)?;
    if !matches!(request.archive.kind, ImageKind::Sff { .. }) {
        return None;
    }
    let sprite = pixels.sff().indexed(&request, known)?;
    let size = (sprite.indices.width, sprite.indices.height);
    let placement = plain_placement(graphic, size, sprite.axis)?;
    Some(IndexedPicture {
        rect: placement.rect,
        flipped_x: placement.flipped_x(),
        flipped_y: placement.flipped_y(),
        sprite,
    })
}
