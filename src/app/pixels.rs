//! The editor's pixel source: image files through the [`ImageStore`], SFF sprites through the
//! [`SffStore`], both caches kept for as long as the editor runs.

use crate::assets::ImageStore;
use crate::formats::sff::store::SffStore;
use crate::model::{AnimationSet, GraphicSource};
use crate::pixels::{PixelSource, SourcePixels};

/// Image files and SFF archives, decoded once and cached.
#[derive(Default)]
pub struct EditorPixels {
    /// PNG, TGA and GIF files, and slices cut from them.
    pub images: ImageStore,
    /// SFF archives and their sprites.
    pub sff: SffStore,
}

impl PixelSource for EditorPixels {
    fn pixels(&self, document: &AnimationSet, source: &GraphicSource) -> Option<SourcePixels> {
        match source {
            GraphicSource::SffSprite { .. } => self.sff.pixels(document, source),
            _ => self.images.pixels(document, source),
        }
    }
}
