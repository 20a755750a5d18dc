//! Rendering every frame of every sequence direction flat, trimming it, and storing pixels
//! that repeat once.

use super::marks;
use super::timing;
use super::{AtlasOptions, ExportProgress, Occurrence, Run};
use crate::formats::{Loss, Place, WriteError};
use crate::model::{AnimationSet, DefaultBoxRule, Frame, FrameId};
use crate::pixels::PixelSource;
use crate::render::{
    CanvasBounds, Overlay, RenderOptions, Scene, SpriteRect, content_bounds, render,
};
use image::RgbaImage;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::atomic::Ordering;

/// One distinct picture.
#[derive(Clone, Debug)]
pub struct Picture {
    /// Its pixels.
    pub image: RgbaImage,
}

/// What rendering produced.
pub struct Rendered {
    /// The canvas every frame shares, in scaled sprite space, holding the origin pixel.
    pub canvas: SpriteRect,
    /// Distinct pictures.
    pub pictures: Vec<Picture>,
    /// Every sequence direction with frames; occurrence positions are canvas pixels.
    pub runs: Vec<Run>,
    /// Durations that are not whole milliseconds.
    pub millis_losses: Vec<Loss>,
    /// Boxes and points that slices cannot hold exactly.
    pub mark_losses: Vec<Loss>,
}

/// Pictures stored once by their pixels.
#[derive(Default)]
struct PictureStore {
    pictures: Vec<Picture>,
    by_hash: HashMap<u64, Vec<usize>>,
}

impl PictureStore {
    fn add(&mut self, image: RgbaImage) -> usize {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        image.dimensions().hash(&mut hasher);
        image.as_raw().hash(&mut hasher);
        let bucket = self.by_hash.entry(hasher.finish()).or_default();
        if let Some(&same) = bucket.iter().find(|&&i| self.pictures[i].image == image) {
            return same;
        }
        self.pictures.push(Picture { image });
        bucket.push(self.pictures.len() - 1);
        self.pictures.len() - 1
    }
}

/// Renders every frame shown by a sequence direction.
pub fn render_all(
    document: &AnimationSet,
    pixels: &dyn PixelSource,
    options: &AtlasOptions,
    progress: Option<&ExportProgress>,
) -> Result<Rendered, WriteError> {
    let mut sequences = document.sequences();
    if let Some(only) = options.only {
        sequences.retain(|s| s.id == only);
    }
    let total: usize = sequences
        .iter()
        .flat_map(|s| s.directions.iter().map(|d| d.frames.len()))
        .sum();
    if let Some(p) = progress {
        p.total.store(total, Ordering::Relaxed);
        p.done.store(0, Ordering::Relaxed);
    }
    let mut store = PictureStore::default();
    // A frame shown in several places is rendered once: (picture, top-left in sprite space).
    let mut cache: HashMap<FrameId, (usize, (i32, i32))> = HashMap::new();
    let mut runs = Vec::new();
    let mut millis_losses = Vec::new();
    let mut mark_losses = Vec::new();
    let rule = DefaultBoxRule::default();
    for sequence in &sequences {
        let rate = sequence
            .frame_rate
            .or(document.frame_rate)
            .unwrap_or_default();
        for (d, direction) in sequence.directions.iter().enumerate() {
            if direction.frames.is_empty() {
                continue;
            }
            let frames: Vec<&Frame> = document.direction_frames(sequence, d);
            let (millis, inexact) = timing::run_millis(&frames, rate);
            for (i, what) in inexact {
                millis_losses.push(Loss::new(Place::frame(&sequence.name, d, i), what));
            }
            let mut occurrences = Vec::with_capacity(frames.len());
            for (i, id) in direction.frames.iter().enumerate() {
                if ExportProgress::cancelled(progress) {
                    return Err(WriteError::new("the export was cancelled"));
                }
                let Some(scene) = Scene::at(document, sequence.id, d, i, rule) else {
                    continue;
                };
                let (picture, at) = match cache.get(id) {
                    Some(hit) => *hit,
                    None => {
                        let drawn = render_frame(document, &scene.frame, pixels, options.scale)?;
                        let (image, at) = drawn.unwrap_or_else(|| (RgbaImage::new(1, 1), (0, 0)));
                        let entry = (store.add(image), at);
                        cache.insert(*id, entry);
                        entry
                    }
                };
                let place = Place::frame(&sequence.name, d, i);
                let marks = marks::of_scene(&scene, options.scale, &place, &mut mark_losses);
                occurrences.push(Occurrence {
                    picture,
                    at,
                    millis: millis.get(i).copied().unwrap_or(0),
                    marks,
                });
                if let Some(p) = progress {
                    p.done.fetch_add(1, Ordering::Relaxed);
                }
            }
            let several = sequence.directions.len() > 1;
            runs.push(Run {
                sequence: sequence.id,
                sequence_name: sequence.name.clone(),
                direction: d,
                direction_label: several.then(|| sequence.direction_label(d)),
                loops: sequence.loop_point.is_some(),
                frames: occurrences,
            });
        }
    }
    let canvas = canvas_of(&runs, &store.pictures);
    for run in &mut runs {
        for o in &mut run.frames {
            o.at = (
                o.at.0.saturating_sub(canvas.x),
                o.at.1.saturating_sub(canvas.y),
            );
            for mark in &mut o.marks {
                mark.shift(-canvas.x, -canvas.y);
            }
        }
    }
    let mut pictures = store.pictures;
    if !options.trim {
        pictures = untrimmed(&mut runs, &pictures, canvas);
    }
    Ok(Rendered {
        canvas,
        pictures,
        runs,
        millis_losses,
        mark_losses,
    })
}

/// The union of every shown picture and the origin pixel.
fn canvas_of(runs: &[Run], pictures: &[Picture]) -> SpriteRect {
    let mut canvas = SpriteRect {
        x: 0,
        y: 0,
        width: 1,
        height: 1,
    };
    for o in runs.iter().flat_map(|r| &r.frames) {
        let (w, h) = pictures[o.picture].image.dimensions();
        canvas = canvas.union(&SpriteRect {
            x: o.at.0,
            y: o.at.1,
            width: w,
            height: h,
        });
    }
    canvas
}

/// Every picture drawn onto a whole canvas at its place (trimming off); pictures are stored
/// once per distinct (pixels, place).
fn untrimmed(runs: &mut [Run], pictures: &[Picture], canvas: SpriteRect) -> Vec<Picture> {
    let mut store = PictureStore::default();
    let mut made: HashMap<(usize, (i32, i32)), usize> = HashMap::new();
    for o in runs.iter_mut().flat_map(|r| r.frames.iter_mut()) {
        let key = (o.picture, o.at);
        let index = *made.entry(key).or_insert_with(|| {
            let mut whole = RgbaImage::new(canvas.width, canvas.height);
            image::imageops::overlay(
                &mut whole,
                &pictures[o.picture].image,
                o.at.0 as i64,
                o.at.1 as i64,
            );
            store.add(whole)
        });
        o.picture = index;
        o.at = (0, 0);
    }
    store.pictures
}

/// A picture and the position of its top-left corner.
pub type Placed = (RgbaImage, (i32, i32));

/// A frame's pixels cut to their opaque part and the sprite-space (scaled) position of its
/// top-left corner; `None` when nothing shows.
pub fn render_frame(
    document: &AnimationSet,
    frame: &Frame,
    pixels: &dyn PixelSource,
    scale: u32,
) -> Result<Option<Placed>, WriteError> {
    let scene = Scene::of_frame(frame);
    let Some(rect) = content_bounds(document, &scene, pixels, Overlay::NONE) else {
        return Ok(None);
    };
    let options = RenderOptions {
        scale,
        bounds: CanvasBounds::Fixed(rect),
        ..RenderOptions::default()
    };
    let image = render(document, &scene, pixels, &options);
    if image.width() as u64 != rect.width as u64 * scale as u64
        || image.height() as u64 != rect.height as u64 * scale as u64
    {
        return Err(WriteError::new(format!(
            "a frame is {}x{} pixels at scale {scale}, larger than Sprat renders",
            rect.width, rect.height
        )));
    }
    let Some((x0, y0, w, h)) = opaque_bounds(&image) else {
        return Ok(None);
    };
    let cut = image::imageops::crop_imm(&image, x0, y0, w, h).to_image();
    let left = rect.x as i64 * scale as i64 + x0 as i64;
    let top = rect.y as i64 * scale as i64 + y0 as i64;
    Ok(Some((cut, (clamp_i32(left), clamp_i32(top)))))
}

fn clamp_i32(v: i64) -> i32 {
    v.clamp(i32::MIN as i64, i32::MAX as i64) as i32
}

/// The smallest rectangle holding every pixel with some alpha.
fn opaque_bounds(image: &RgbaImage) -> Option<(u32, u32, u32, u32)> {
    let (w, h) = image.dimensions();
    let row_bytes = w as usize * 4;
    let raw = image.as_raw();
    let row_has = |y: u32| {
        raw[y as usize * row_bytes..(y as usize + 1) * row_bytes]
            .chunks_exact(4)
            .any(|p| p[3] != 0)
    };
    let top = (0..h).find(|&y| row_has(y))?;
    let bottom = (top..h).rev().find(|&y| row_has(y))?;
    let column_has = |x: u32| (top..=bottom).any(|y| image.get_pixel(x, y)[3] != 0);
    let left = (0..w).find(|&x| column_has(x))?;
    let right = (left..w).rev().find(|&x| column_has(x))?;
    Some((left, top, right - left + 1, bottom - top + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opaque_bounds_cut_transparent_borders() {
        let mut image = RgbaImage::new(6, 5);
        image.put_pixel(2, 1, image::Rgba([1, 2, 3, 4]));
        image.put_pixel(4, 3, image::Rgba([1, 2, 3, 255]));
        assert_eq!(opaque_bounds(&image), Some((2, 1, 3, 3)));
        assert_eq!(opaque_bounds(&RgbaImage::new(3, 3)), None);
    }

    #[test]
    fn identical_pictures_are_stored_once() {
        let mut store = PictureStore::default();
        let a = RgbaImage::from_pixel(2, 2, image::Rgba([9, 9, 9, 255]));
        let b = RgbaImage::from_pixel(2, 2, image::Rgba([9, 9, 8, 255]));
        assert_eq!(store.add(a.clone()), 0);
        assert_eq!(store.add(b), 1);
        assert_eq!(store.add(a), 0);
        assert_eq!(store.pictures.len(), 2);
    }
}
