//! Opaque masks kept across frames and documents, keyed by what the frame's picture is made
//! of, so a picture drawn by many frames (or by many copies of one document in a folder) is
//! rendered for its mask once.
//!
//! The key is everything the renderer reads to draw a frame's graphics: each graphic's pixels
//! (by content, not by file name, so copies of one sheet in different folders share their
//! masks, and an edited or reloaded file gets new ones without being told), its axis, its
//! placement (position, origin, flips, rotation, scale, opacity, blend) and its filtering.
//! Equal keys draw equal pictures, so a mask found under a key is the mask the renderer would
//! make.

use super::mask::{OpaqueMask, frame_mask};
use crate::cache::ByteLru;
use crate::model::{AnimationSet, BlendMode, Element, ElementKind, Frame, Origin, Point};
use crate::pixels::PixelSource;
use image::RgbaImage;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex, MutexGuard};

/// Masks kept at most by default (mask bits, the keys and the pictures the keys hold).
pub const MASK_BUDGET_BYTES: usize = 64 << 20;

/// A frame's masks, kept by picture and bounded by bytes (least recently used first out).
/// `Send + Sync`: the files of a `sprat check` run on several threads share one.
pub struct MaskCache {
    masks: Mutex<ByteLru<PictureKey, Option<Arc<OpaqueMask>>>>,
}

impl Default for MaskCache {
    fn default() -> MaskCache {
        MaskCache::with_budget(MASK_BUDGET_BYTES)
    }
}

impl std::fmt::Debug for MaskCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let masks = self.lock();
        f.debug_struct("MaskCache")
            .field("pictures", &masks.len())
            .field("bytes", &masks.bytes())
            .finish()
    }
}

impl MaskCache {
    /// An empty cache keeping at most [`MASK_BUDGET_BYTES`].
    pub fn new() -> MaskCache {
        MaskCache::default()
    }

    /// An empty cache keeping at most `budget` bytes.
    pub fn with_budget(budget: usize) -> MaskCache {
        MaskCache {
            masks: Mutex::new(ByteLru::new(budget)),
        }
    }

    /// The opaque pixels of `frame` as [`frame_mask`] draws them, rendered only the first time
    /// its picture is asked for; `None` when the frame draws nothing.
    pub fn mask(
        &self,
        document: &AnimationSet,
        frame: &Frame,
        pixels: &dyn PixelSource,
    ) -> Option<Arc<OpaqueMask>> {
        let key = PictureKey::of(document, frame, pixels);
        if let Some(kept) = self.lock().get(&key) {
            return kept.clone();
        }
        // Rendered outside the lock: other threads' lookups go on meanwhile.
        let mask = frame_mask(document, frame, pixels).map(Arc::new);
        let bytes = key.bytes() + mask.as_ref().map_or(0, |m| m.bytes());
        self.lock().insert(key, mask.clone(), bytes);
        mask
    }

    /// How many pictures' masks are kept.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether no mask is kept.
    pub fn is_empty(&self) -> bool {
        self.lock().is_empty()
    }

    /// Bytes kept now.
    pub fn cached_bytes(&self) -> usize {
        self.lock().bytes()
    }

    /// Forgets every mask (to give the memory back; never needed for correctness, since a
    /// changed picture has another key).
    pub fn clear(&self) {
        self.lock().clear();
    }

    /// A poisoned lock only means another thread panicked mid-insert; the map stays whole.
    fn lock(&self) -> MutexGuard<'_, ByteLru<PictureKey, Option<Arc<OpaqueMask>>>> {
        self.masks.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// What a frame's picture is made of: its graphics in draw order, each with its pixels.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PictureKey(Vec<PlacedPicture>);

impl PictureKey {
    /// The key of `frame`'s picture. Graphics whose pixels cannot be had draw nothing and are
    /// left out, as the renderer leaves them out.
    pub fn of(document: &AnimationSet, frame: &Frame, pixels: &dyn PixelSource) -> PictureKey {
        PictureKey(
            frame
                .elements
                .iter()
                .filter_map(|element| PlacedPicture::of(document, element, pixels))
                .collect(),
        )
    }

    /// Roughly what the key holds, for the cache's budget (the pictures counted whole, though
    /// the image store usually shares them).
    fn bytes(&self) -> usize {
        64 + self
            .0
            .iter()
            .map(|p| std::mem::size_of::<PlacedPicture>() + p.pixels.image.as_raw().len())
            .sum::<usize>()
    }
}

/// One graphic as the renderer draws it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct PlacedPicture {
    pixels: Pixels,
    axis: (i32, i32),
    nearest: bool,
    position: Point,
    origin: Origin,
    flip_h: bool,
    flip_v: bool,
    /// The bits of the rotation and scale factors (equal bits draw equally).
    rotation: u64,
    scale: (u64, u64),
    opacity: u16,
    blend: BlendMode,
}

impl PlacedPicture {
    fn of(
        document: &AnimationSet,
        element: &Element,
        pixels: &dyn PixelSource,
    ) -> Option<PlacedPicture> {
        let ElementKind::Graphic(graphic) = &element.kind else {
            return None;
        };
        if graphic.source.is_blank() {
            return None;
        }
        let source = pixels.pixels(document, &graphic.source)?;
        Some(PlacedPicture {
            pixels: Pixels::new(source.image),
            axis: source.axis,
            nearest: document
                .source_image(&graphic.source)
                .is_none_or(|image| image.nearest_neighbour),
            position: graphic.position,
            origin: graphic.origin,
            flip_h: graphic.flip_h,
            flip_v: graphic.flip_v,
            rotation: graphic.rotation.to_bits(),
            scale: (graphic.scale_x.to_bits(), graphic.scale_y.to_bits()),
            opacity: graphic.opacity,
            blend: graphic.blend,
        })
    }
}

/// A picture compared by content: the same image held twice is equal at once; two copies of
/// one picture compare equal byte by byte. The digest only spreads keys over the map.
#[derive(Clone, Debug)]
struct Pixels {
    image: Arc<RgbaImage>,
    digest: u64,
}

impl Pixels {
    fn new(image: Arc<RgbaImage>) -> Pixels {
        let digest = digest(&image);
        Pixels { image, digest }
    }
}

impl PartialEq for Pixels {
    fn eq(&self, other: &Pixels) -> bool {
        self.digest == other.digest
            && (Arc::ptr_eq(&self.image, &other.image)
                || (self.image.dimensions() == other.image.dimensions()
                    && self.image.as_raw() == other.image.as_raw()))
    }
}

impl Eq for Pixels {}

impl Hash for Pixels {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.digest);
    }
}

/// A quick digest of an image's size and bytes, eight bytes at a time (a multiply-rotate mix:
/// collisions cost only a byte comparison, so speed matters more than strength here).
fn digest(image: &RgbaImage) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mix = |h: u64, word: u64| (h.rotate_left(5) ^ word).wrapping_mul(K);
    let (width, height) = image.dimensions();
    let mut h = mix(0, (u64::from(width) << 32) | u64::from(height));
    let bytes = image.as_raw();
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        h = mix(h, u64::from_le_bytes(word.try_into().expect("eight bytes")));
    }
    let mut tail = [0u8; 8];
    tail[..words.remainder().len()].copy_from_slice(words.remainder());
    mix(h, u64::from_le_bytes(tail))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ElementId, FrameDuration, Graphic, GraphicSource, ImageId, Name};
    use crate::pixels::SourcePixels;

    /// Hands out one fixed image for every source.
    struct OneImage(Arc<RgbaImage>);

    impl PixelSource for OneImage {
        fn pixels(
            &self,
            _: &AnimationSet,
            _: &GraphicSource,
        ) -> Option<crate::pixels::SourcePixels> {
            Some(SourcePixels {
                image: self.0.clone(),
                axis: (0, 0),
            })
        }
    }

    fn frame_at(x: i32) -> Frame {
        let mut frame = Frame::new(FrameDuration::Millis(100));
        frame.elements.push(Element {
            id: ElementId(1),
            name: Name::default(),
            kind: ElementKind::Graphic(Graphic::new(
                GraphicSource::Image(ImageId(1)),
                Point::from_ints(x, 0),
                Origin::At(Point::ZERO),
            )),
        });
        frame
    }

    fn half_opaque() -> RgbaImage {
        RgbaImage::from_fn(4, 4, |x, _| {
            image::Rgba([9, 9, 9, if x < 2 { 255 } else { 0 }])
        })
    }

    #[test]
    fn copies_of_a_picture_share_one_key_and_other_pixels_do_not() {
        let a = Arc::new(RgbaImage::from_pixel(3, 2, image::Rgba([1, 2, 3, 255])));
        let copy = Arc::new((*a).clone());
        let other = Arc::new(RgbaImage::from_pixel(3, 2, image::Rgba([1, 2, 3, 0])));
        let wide = Arc::new(RgbaImage::from_pixel(6, 1, image::Rgba([1, 2, 3, 255])));
        assert_eq!(Pixels::new(a.clone()), Pixels::new(copy));
        assert_ne!(Pixels::new(a.clone()), Pixels::new(other));
        assert_ne!(Pixels::new(a), Pixels::new(wide));
    }

    #[test]
    fn a_cached_mask_is_the_one_the_renderer_makes_and_is_made_once_per_picture() {
        let document = AnimationSet::new();
        let pixels = OneImage(Arc::new(half_opaque()));
        let copy = OneImage(Arc::new(half_opaque()));
        let cache = MaskCache::new();
        let first = cache.mask(&document, &frame_at(0), &pixels).unwrap();
        assert_eq!(
            Some(&*first),
            frame_mask(&document, &frame_at(0), &pixels).as_ref()
        );
        let again = cache.mask(&document, &frame_at(0), &copy).unwrap();
        assert!(
            Arc::ptr_eq(&first, &again),
            "a copy of the pixels shares the mask"
        );
        assert_eq!(cache.len(), 1);
        let moved = cache.mask(&document, &frame_at(5), &pixels).unwrap();
        assert_eq!(cache.len(), 2, "another placement is another picture");
        assert_eq!(moved.left(), first.left() + 5);
        let clear = OneImage(Arc::new(RgbaImage::new(4, 4)));
        let cleared = cache.mask(&document, &frame_at(0), &clear).unwrap();
        assert_eq!(cleared.count(), 0, "other pixels give their own mask");
        assert_eq!(first.count(), 8);
    }
}
