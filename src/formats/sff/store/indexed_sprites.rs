//! A paletted sprite as its colour indices and the colours they stand for, kept apart: what a
//! GPU draws through a palette lookup, so the editor never makes the sprite's RGBA pixels, and
//! a palette change costs a new table of 256 colours, not a new decode.
//!
//! The indices and colours are exactly those [`SffStore::sprite_of`] turns into RGBA (the same
//! sprite decoded, the same palette chosen, index 0 transparent): drawing colour
//! `colours[indices[i]]` for each pixel gives the renderer's pixels.

use super::{SffStore, SpriteRequest};
use crate::formats::sff::Palette;
use crate::formats::sff::encode::SpritePixels;
use std::path::PathBuf;
use std::sync::Arc;

/// A palette as drawn: 256 straight RGBA colours, index 0 transparent.
pub type Colours = [[u8; 4]; 256];

/// A decoded sprite's colour indices, one byte a pixel, row by row from the top (what the GPU
/// takes as it is: rows tightly packed).
#[derive(Debug, PartialEq, Eq)]
pub struct Indices {
    /// Pixels across.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// `width * height` colour indices.
    pub pixels: Vec<u8>,
}

/// Which decoded indices these are, whatever palette colours them: the archive (its path, or
/// an unsaved edition's key) and the position of the sprite whose bytes were decoded.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IndicesKey {
    archive: PathBuf,
    index: usize,
}

/// A paletted sprite ready for a palette lookup.
#[derive(Clone, Debug)]
pub struct IndexedSprite {
    /// The sprite's colour indices.
    pub indices: Arc<Indices>,
    /// Which indices they are (to keep them across palette changes).
    pub key: IndicesKey,
    /// The colours the indices stand for, as the renderer draws them.
    pub colours: Arc<Colours>,
    /// The sprite's axis in its pixels.
    pub axis: (i32, i32),
}

impl SffStore {
    /// The sprite `request` asks for as indices and colours, decoded straight from the
    /// archive's bytes into the index buffer (no RGBA made); `known` gives indices decoded
    /// before (then nothing is decoded). `None` for a sprite stored as RGBA (PNG24/32), a
    /// blank, missing or empty one, or one that does not decode (its problem is noted as
    /// [`SffStore::sprite_of`] notes it).
    pub fn indexed(
        &self,
        request: &SpriteRequest,
        known: &dyn Fn(&IndicesKey) -> Option<Arc<Indices>>,
    ) -> Option<IndexedSprite> {
        if request.group < 0 {
            return None;
        }
        let (path, palette) = self.request_place(request)?;
        let (archive, act) = {
            let mut state = self.lock();
            let archive = state.archive(&path)?;
            let act = state.act_of(&palette, &path);
            (archive, act)
        };
        let index = archive.find(request.group, request.number)?;
        // As `sprite_of` decodes: a link's target when it shares its pixels, with that
        // sprite's palette.
        let decoded = archive.same_pixels_as(index);
        let choice = super::palette_choice(&palette, act.as_deref());
        let colours = match archive.colours_for(decoded, choice) {
            Some(palette) => palette.drawn(),
            None => Palette::grey_ramp().drawn(),
        };
        let key = IndicesKey {
            archive: path.clone(),
            index: decoded,
        };
        let indices = match known(&key) {
            Some(indices) => indices,
            None => {
                let (pixels, warnings) = match archive.decode_pixels(decoded) {
                    Ok(decoded) => decoded,
                    Err(problem) => {
                        self.note_problems(&path, &archive, vec![problem]);
                        return None;
                    }
                };
                let SpritePixels::Indexed {
                    width,
                    height,
                    indices,
                } = pixels
                else {
                    return None;
                };
                self.note_problems(&path, &archive, warnings);
                Arc::new(Indices {
                    width,
                    height,
                    pixels: indices,
                })
            }
        };
        if indices.width == 0 || indices.height == 0 {
            return None;
        }
        Some(IndexedSprite {
            indices,
            key,
            colours: Arc::new(colours),
            axis: archive.sprites().get(index)?.axis,
        })
    }
}
