//! Where the renderer and the repacking writers get pixels from.
//!
//! The model names its pixels (a slice of an image file, an SFF sprite); something that can
//! load files turns those names into RGBA images. Keeping that behind a trait lets the renderer
//! stay free of file access and lets tests supply pixels directly.

use crate::model::{AnimationSet, GraphicSource};
use image::RgbaImage;
use std::sync::Arc;

/// The pixels of one graphic source.
#[derive(Clone, Debug)]
pub struct SourcePixels {
    /// The pixels, already cut out of the sheet and rotated back if the slice was stored
    /// rotated; premultiplied alpha is not used.
    pub image: Arc<RgbaImage>,
    /// The source's own axis in its pixels (SFF sprite axis); (0, 0) for plain images.
    pub axis: (i32, i32),
}

/// Turns graphic sources into pixels. `Send + Sync`: the frames of one file are drawn on
/// several threads at once from one source.
pub trait PixelSource: Send + Sync {
    /// The pixels of `source` in `document`, or `None` when they cannot be had (missing file,
    /// no SFF, blank sprite).
    fn pixels(&self, document: &AnimationSet, source: &GraphicSource) -> Option<SourcePixels>;
}
