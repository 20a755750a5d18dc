//! A frame of a [`Sprite`] drawn as Aseprite draws it (its `render::Render` with the default
//! new blend method), pixel for pixel.
//!
//! - Layers are drawn bottom to top, ordered by layer index plus each cel's z-index; hidden
//!   layers, layers under a hidden group and reference layers are left out. The background
//!   layer is drawn first, then the others.
//! - Groups are flattened (their layers drawn straight onto the frame), unless the header says
//!   groups composite apart: then each group is drawn into an image of its own first and that
//!   image blended onto the frame with the group's opacity and blend mode.
//! - A cel is blended with the layer's blend mode ([`super::blend`]) at opacity
//!   `MUL_UN8(cel opacity, layer opacity)`; linked cels show the content of the cel they link
//!   to at their own position and opacity; tilemaps draw each tile with its flips (tile 0 is
//!   empty); cels are clipped to the canvas.
//! - Colour modes: Aseprite draws a frame it exports in the sprite's own mode, so the canvas
//!   is too: RGBA pixels blend with [`blend`]; grayscale ones (value, alpha) with
//!   [`blend_gray`], then show as value, value, value, alpha; indexed ones copy palette indices
//!   (the transparent index left undrawn on every layer but the background) onto a frame filled
//!   with the transparent index, then show through the palette in force on the frame, the
//!   transparent index as transparent unless a visible background layer exists (as Aseprite's
//!   PNG export writes it).

use super::blend::{BlendMode, blend, blend_gray};
use super::cursor::{ParseError, fail};
use super::scan::COMPOSITE_LIMIT;
use super::sprite::{
    Cel, CelContent, ColorDepth, HEADER_COMPOSITE_GROUPS, LayerKind, Sprite, TILESET_ZERO_IS_EMPTY,
    Tiles, layer_flags,
};
use image::RgbaImage;
use std::collections::{HashMap, HashSet};

/// Pixels being drawn in the sprite's colour mode: RGBA; value and alpha; or an index (the
/// unused bytes stay 0).
struct Canvas {
    width: usize,
    height: usize,
    pixels: Vec<[u8; 4]>,
}

impl Canvas {
    fn new(width: usize, height: usize) -> Canvas {
        Canvas {
            width,
            height,
            pixels: vec![[0; 4]; width * height],
        }
    }

    /// The canvas as RGBA (`shown` converts one pixel).
    fn into_image(self, shown: impl Fn([u8; 4]) -> [u8; 4]) -> RgbaImage {
        let raw: Vec<u8> = self.pixels.into_iter().flat_map(shown).collect();
        RgbaImage::from_raw(self.width as u32, self.height as u32, raw)
            .unwrap_or_else(|| RgbaImage::new(self.width as u32, self.height as u32))
    }
}

/// Aseprite's `MUL_UN8`: `a * b / 255`, rounded as Aseprite rounds it.
pub fn mul_un8(a: u8, b: u8) -> u8 {
    let t = u32::from(a) * u32::from(b) + 0x80;
    (((t >> 8) + t) >> 8) as u8
}

/// What drawing one frame needs.
struct FrameDrawing<'a> {
    sprite: &'a Sprite,
    palette: &'a [[u8; 4]],
    /// The frame's cel of each layer that has one.
    cels: HashMap<usize, &'a Cel>,
    /// The groups holding one of those cels, when groups are drawn apart.
    groups_with_cels: HashSet<usize>,
}

/// Most pixels drawing a file's frames may blend: linked cels let a few bytes draw a big
/// picture many times, so the work is bounded here, not by the file's length (a 2000x2000
/// sprite of 20 layers covering the canvas on 10 frames takes a fifth of it).
pub const MAX_BLENDS: u64 = 1 << 32;

/// Refuses a file whose frames would take more than [`MAX_BLENDS`] blends to draw, or (for
/// the reading with one picture per cel, `per_cel`) more pictures than memory can hold, at
/// the frame where the limit is passed.
pub fn check_work(sprite: &Sprite, per_cel: bool) -> Result<(), ParseError> {
    let canvas = u64::from(sprite.header.width) * u64::from(sprite.header.height);
    let (mut blends, mut pictures) = (0u64, 0u64);
    for (index, header) in sprite.frames.iter().enumerate() {
        let drawing = FrameDrawing::new(sprite, index);
        for (&layer, cel) in &drawing.cels {
            if !sprite.shown(layer) || sprite.layers[layer].has(layer_flags::REFERENCE) {
                continue;
            }
            blends = blends.saturating_add(drawing.cel_area(cel, layer));
            pictures += 1;
        }
        // Groups drawn apart are blended whole onto what is below them, once per pass.
        if sprite.header.flags & HEADER_COMPOSITE_GROUPS != 0 {
            let groups = drawing.groups_with_cels.len() as u64 + 1;
            blends = blends.saturating_add(groups * canvas * 2);
        }
        if blends > MAX_BLENDS {
            return fail(
                header.offset,
                format!(
                    "drawing the frames up to frame {index} blends {blends} pixels, more than the {MAX_BLENDS} Sprat draws for one file (linked cels draw their picture again each time)"
                ),
            );
        }
        let bytes = pictures.saturating_mul(canvas * 4);
        if per_cel && bytes > COMPOSITE_LIMIT {
            return fail(
                header.offset,
                format!(
                    "one picture per cel needs {} MiB by frame {index}, more than the {} MiB Sprat keeps: open the file with its layers composited",
                    bytes >> 20,
                    COMPOSITE_LIMIT >> 20
                ),
            );
        }
    }
    Ok(())
}

/// Draws frame `frame` of `sprite`.
pub fn frame(sprite: &Sprite, frame: usize) -> RgbaImage {
    let drawing = FrameDrawing::new(sprite, frame);
    let mut canvas = Canvas::new(
        usize::from(sprite.header.width),
        usize::from(sprite.header.height),
    );
    let transparent = sprite.header.transparent_index;
    if sprite.header.depth == ColorDepth::Indexed {
        canvas.pixels.fill([transparent, 0, 0, 0]);
    }
    let top_level: Vec<usize> = (0..sprite.layers.len())
        .filter(|&i| sprite.layers[i].parent.is_none())
        .collect();
    // Aseprite draws the background layer in a pass of its own, then the other layers.
    for background_pass in [true, false] {
        if sprite.header.flags & HEADER_COMPOSITE_GROUPS != 0 {
            // The whole sprite is a group too: drawn apart, then blended normally.
            let mut root = Canvas::new(canvas.width, canvas.height);
            if drawing.draw_items(&mut root, &in_order(&top_level), background_pass) {
                drawing.blend_canvas(&mut canvas, &root, BlendMode::Normal, 255);
            }
        } else {
            // Flattened, every layer keeps its index as its order.
            let leaves: Vec<(i64, usize)> = drawing.cels.keys().map(|&l| (l as i64, l)).collect();
            drawing.draw_items(&mut canvas, &leaves, background_pass);
        }
    }
    let background = drawing.background_shown();
    match sprite.header.depth {
        ColorDepth::Rgba => canvas.into_image(|pixel| pixel),
        ColorDepth::Grayscale => canvas.into_image(|[v, a, ..]| [v, v, v, a]),
        ColorDepth::Indexed => canvas.into_image(|[index, ..]| {
            if index == transparent && !background {
                [0; 4]
            } else {
                drawing
                    .palette
                    .get(usize::from(index))
                    .copied()
                    .unwrap_or_default()
            }
        }),
    }
}

/// The cel of `layer` on `frame` drawn alone on a transparent canvas at its cel opacity
/// (not the layer's opacity, nor its blend mode), or `None` when the layer has no cel there.
pub fn cel_picture(sprite: &Sprite, frame: usize, layer: usize) -> Option<RgbaImage> {
    let drawing = FrameDrawing::new(sprite, frame);
    let cel = drawing.cels.get(&layer)?;
    let mut canvas = Canvas::new(
        usize::from(sprite.header.width),
        usize::from(sprite.header.height),
    );
    let mode = BlendMode::Normal;
    match sprite.header.depth {
        ColorDepth::Rgba => {
            drawing.draw_cel(&mut canvas, cel, layer, cel.opacity, mode);
            Some(canvas.into_image(|pixel| pixel))
        }
        ColorDepth::Grayscale => {
            drawing.draw_cel(&mut canvas, cel, layer, cel.opacity, mode);
            Some(canvas.into_image(|[v, a, ..]| [v, v, v, a]))
        }
        ColorDepth::Indexed => {
            // Indices cannot carry the cel's opacity: the cel is drawn in RGBA through the
            // palette, its opacity on every pixel.
            let transparent = sprite.header.transparent_index;
            let background = sprite.layers[layer].has(layer_flags::BACKGROUND);
            let mut indices = canvas;
            indices.pixels.fill([transparent, 0, 0, 0]);
            drawing.draw_cel(&mut indices, cel, layer, 255, mode);
            Some(indices.into_image(
                |[index, ..]| match drawing.palette.get(usize::from(index)) {
                    Some(&[r, g, b, a]) if index != transparent || background => {
                        [r, g, b, mul_un8(a, cel.opacity)]
                    }
                    _ => [0; 4],
                },
            ))
        }
    }
}

impl<'a> FrameDrawing<'a> {
    fn new(sprite: &'a Sprite, frame: usize) -> FrameDrawing<'a> {
        // Cels are in file order, so in frame order.
        let first = sprite
            .cels
            .partition_point(|c| usize::from(c.frame) < frame);
        let last = sprite
            .cels
            .partition_point(|c| usize::from(c.frame) <= frame);
        let mut cels = HashMap::new();
        for cel in sprite.cels.get(first..last).unwrap_or_default() {
            cels.entry(usize::from(cel.layer)).or_insert(cel);
        }
        let mut drawing = FrameDrawing {
            sprite,
            palette: sprite.palette(frame),
            cels,
            groups_with_cels: Default::default(),
        };
        if sprite.header.flags & HEADER_COMPOSITE_GROUPS != 0 {
            drawing.groups_with_cels = drawing.find_groups_with_cels();
        }
        drawing
    }

    /// The groups that hold (at any depth) a cel of this frame.
    fn find_groups_with_cels(&self) -> HashSet<usize> {
        let mut groups = HashSet::new();
        for &layer in self.cels.keys() {
            let mut above = self.sprite.layers.get(layer).and_then(|l| l.parent);
            while let Some(group) = above {
                if !groups.insert(group) {
                    break;
                }
                above = self.sprite.layers[group].parent;
            }
        }
        groups
    }

    /// How many canvas pixels `cel` of `layer` covers (its picture or its tiles, clipped).
    fn cel_area(&self, cel: &Cel, layer: usize) -> u64 {
        let content = match &cel.content {
            CelContent::Linked(source) => self.sprite.cels.get(*source).map(|c| &c.content),
            content => Some(content),
        };
        let size = match (content, self.sprite.layers[layer].kind) {
            (Some(CelContent::Image(pixels)), _) => {
                (usize::from(pixels.width), usize::from(pixels.height))
            }
            (Some(CelContent::Tilemap(tiles)), LayerKind::Tilemap { tileset }) => {
                match self.sprite.tileset(tileset) {
                    Some(set) => (
                        usize::from(tiles.width) * usize::from(set.tile_width),
                        usize::from(tiles.height) * usize::from(set.tile_height),
                    ),
                    None => (0, 0),
                }
            }
            _ => (0, 0),
        };
        let width = usize::from(self.sprite.header.width);
        let height = usize::from(self.sprite.header.height);
        let columns = clip(i64::from(cel.x), size.0, width).len() as u64;
        let rows = clip(i64::from(cel.y), size.1, height).len() as u64;
        columns * rows
    }

    /// True when the first layer is a visible background layer (Aseprite's
    /// `Sprite::backgroundLayer`).
    fn background_shown(&self) -> bool {
        self.sprite.layers.first().is_some_and(|l| {
            l.has(layer_flags::BACKGROUND) && l.has(layer_flags::VISIBLE) && l.parent.is_none()
        })
    }

    /// The z-index of `layer`'s cel on this frame (0 without a cel).
    fn z_index(&self, layer: usize) -> i64 {
        self.cels.get(&layer).map_or(0, |c| i64::from(c.z_index))
    }

    /// Draws `items` (each an order and a layer) ordered by their order plus their cel's
    /// z-index, as Aseprite's render plan orders them, in the pass for the background layer or
    /// for the others; groups among them are drawn apart. Returns true when anything was drawn.
    fn draw_items(
        &self,
        canvas: &mut Canvas,
        items: &[(i64, usize)],
        background_pass: bool,
    ) -> bool {
        let mut ordered: Vec<(i64, i64, usize)> = items
            .iter()
            .map(|&(order, layer)| {
                let z = self.z_index(layer);
                (order + z, z, layer)
            })
            .collect();
        ordered.sort_unstable();
        let mut drew = false;
        for (_, _, index) in ordered {
            if !self.sprite.shown(index) {
                continue;
            }
            let layer = &self.sprite.layers[index];
            let mode = BlendMode::from_code(layer.effective_blend).unwrap_or(BlendMode::Normal);
            if layer.kind == LayerKind::Group {
                // A group without a cel this frame draws nothing: no picture is made for it.
                if !self.groups_with_cels.contains(&index) {
                    continue;
                }
                let children: Vec<usize> = (index + 1..self.sprite.layers.len())
                    .filter(|&i| self.sprite.layers[i].parent == Some(index))
                    .collect();
                let mut group = Canvas::new(canvas.width, canvas.height);
                if self.draw_items(&mut group, &in_order(&children), background_pass) {
                    self.blend_canvas(canvas, &group, mode, layer.opacity);
                    drew = true;
                }
                continue;
            }
            if layer.has(layer_flags::BACKGROUND) != background_pass
                || layer.has(layer_flags::REFERENCE)
            {
                continue;
            }
            if let Some(cel) = self.cels.get(&index) {
                let opacity = mul_un8(cel.opacity, layer.opacity);
                self.draw_cel(canvas, cel, index, opacity, mode);
                drew = true;
            }
        }
        drew
    }

    /// Blends `cel` of `layer` onto `canvas`.
    fn draw_cel(&self, canvas: &mut Canvas, cel: &Cel, layer: usize, opacity: u8, mode: BlendMode) {
        let content = match &cel.content {
            CelContent::Linked(source) => match self.sprite.cels.get(*source) {
                Some(source) => &source.content,
                None => return,
            },
            content => content,
        };
        let background = self.sprite.layers[layer].has(layer_flags::BACKGROUND);
        let origin = (i64::from(cel.x), i64::from(cel.y));
        match content {
            CelContent::Image(pixels) => {
                let size = (usize::from(pixels.width), usize::from(pixels.height));
                let source = Source {
                    data: &pixels.data,
                    stride: size.0,
                    flips: Flips::default(),
                };
                self.draw_image(canvas, &source, origin, size, background, opacity, mode);
            }
            CelContent::Tilemap(tiles) => {
                if let LayerKind::Tilemap { tileset } = self.sprite.layers[layer].kind {
                    self.draw_tiles(canvas, tiles, tileset, origin, opacity, mode);
                }
            }
            CelContent::Linked(_) => {}
        }
    }

    /// Draws each tile of `tiles` from the tileset `tileset`.
    fn draw_tiles(
        &self,
        canvas: &mut Canvas,
        tiles: &Tiles,
        tileset: u32,
        origin: (i64, i64),
        opacity: u8,
        mode: BlendMode,
    ) {
        let Some(tileset) = self.sprite.tileset(tileset) else {
            return;
        };
        let Some(pixels) = &tileset.pixels else {
            return;
        };
        let (tile_width, tile_height) = (
            usize::from(tileset.tile_width),
            usize::from(tileset.tile_height),
        );
        let tile_bytes = tile_width * tile_height * self.sprite.header.depth.bytes_per_pixel();
        let zero_is_empty = tileset.flags & TILESET_ZERO_IS_EMPTY != 0;
        let shift = tiles.id_mask.trailing_zeros().min(31);
        let flag = |tile: u32, mask: u32| mask != 0 && tile & mask == mask;
        for (place, &tile) in tiles.tiles.iter().enumerate() {
            let id = ((tile & tiles.id_mask) >> shift) as usize;
            let empty = if zero_is_empty {
                id == 0
            } else {
                tile == u32::MAX
            };
            // A tile id past the tileset (up to 2^32 times the tile's bytes) draws nothing.
            let start = id.checked_mul(tile_bytes);
            let bytes = start.and_then(|start| pixels.get(start..start.checked_add(tile_bytes)?));
            let Some(data) = bytes else {
                continue;
            };
            if empty || tile_bytes == 0 {
                continue;
            }
            let (u, v) = (
                place % usize::from(tiles.width),
                place / usize::from(tiles.width),
            );
            let at = (
                origin.0 + (u * tile_width) as i64,
                origin.1 + (v * tile_height) as i64,
            );
            let source = Source {
                data,
                stride: tile_width,
                flips: Flips {
                    x: flag(tile, tiles.x_flip),
                    y: flag(tile, tiles.y_flip),
                    diagonal: flag(tile, tiles.d_flip),
                },
            };
            self.draw_image(
                canvas,
                &source,
                at,
                (tile_width, tile_height),
                false,
                opacity,
                mode,
            );
        }
    }

    /// Blends an image of `size` whose top-left corner is at `origin` onto `canvas`, clipped.
    #[allow(clippy::too_many_arguments)]
    fn draw_image(
        &self,
        canvas: &mut Canvas,
        source: &Source,
        origin: (i64, i64),
        size: (usize, usize),
        background: bool,
        opacity: u8,
        mode: BlendMode,
    ) {
        let bytes_per_pixel = self.sprite.header.depth.bytes_per_pixel();
        let transparent = (!background).then_some(self.sprite.header.transparent_index);
        // A diagonal flip swaps axes: only the square part of the image has pixels to show.
        let limit = if source.flips.diagonal {
            let side = size.0.min(size.1);
            (side, side)
        } else {
            size
        };
        let x_range = clip(origin.0, size.0, canvas.width);
        for dy in clip(origin.1, size.1, canvas.height) {
            let y = (origin.1 + dy as i64) as usize;
            for dx in x_range.clone() {
                let x = (origin.0 + dx as i64) as usize;
                let (sx, sy) = source.flips.source_of(dx, dy, size);
                if sx >= limit.0 || sy >= limit.1 {
                    continue;
                }
                let at = (sy * source.stride + sx) * bytes_per_pixel;
                let Some(pixel) = source.data.get(at..at + bytes_per_pixel) else {
                    continue;
                };
                let target = &mut canvas.pixels[y * canvas.width + x];
                match *pixel {
                    [r, g, b, a] => *target = blend(mode, *target, [r, g, b, a], opacity),
                    [v, a] => {
                        let [v, a] = blend_gray(mode, [target[0], target[1]], [v, a], opacity);
                        *target = [v, a, 0, 0];
                    }
                    [index] if Some(index) != transparent => *target = [index, 0, 0, 0],
                    _ => {}
                }
            }
        }
    }
}

/// A group's layers (in file order) with their places among them as their order.
fn in_order(layers: &[usize]) -> Vec<(i64, usize)> {
    layers
        .iter()
        .enumerate()
        .map(|(place, &l)| (place as i64, l))
        .collect()
}

impl FrameDrawing<'_> {
    /// Blends the whole of `source` onto `canvas` (a group's picture onto what is below it),
    /// in the sprite's colour mode; an indexed group's picture masks the transparent index.
    fn blend_canvas(&self, canvas: &mut Canvas, source: &Canvas, mode: BlendMode, opacity: u8) {
        let transparent = self.sprite.header.transparent_index;
        for (target, &pixel) in canvas.pixels.iter_mut().zip(&source.pixels) {
            *target = match self.sprite.header.depth {
                ColorDepth::Rgba => blend(mode, *target, pixel, opacity),
                ColorDepth::Grayscale => {
                    let [v, a] =
                        blend_gray(mode, [target[0], target[1]], [pixel[0], pixel[1]], opacity);
                    [v, a, 0, 0]
                }
                ColorDepth::Indexed if pixel[0] != transparent => pixel,
                ColorDepth::Indexed => *target,
            };
        }
    }
}

/// The offsets 0..`length` of an image placed at `start` that fall inside 0..`canvas`.
fn clip(start: i64, length: usize, canvas: usize) -> std::ops::Range<usize> {
    let first = (-start).clamp(0, length as i64) as usize;
    let last = (canvas as i64 - start).clamp(0, length as i64) as usize;
    first..last.max(first)
}

/// Where an image's pixels come from: rows of `stride` pixels.
struct Source<'a> {
    data: &'a [u8],
    stride: usize,
    flips: Flips,
}

/// A tile's flips.
#[derive(Clone, Copy, Default)]
struct Flips {
    x: bool,
    y: bool,
    diagonal: bool,
}

impl Flips {
    /// The source pixel drawn at offset (`dx`, `dy`) of an image of `size`: the flips first,
    /// then the axes swapped (Aseprite's `composite_image_general_with_tile_flags`).
    fn source_of(self, dx: usize, dy: usize, size: (usize, usize)) -> (usize, usize) {
        let sx = if self.x { size.0 - 1 - dx } else { dx };
        let sy = if self.y { size.1 - 1 - dy } else { dy };
        if self.diagonal { (sy, sx) } else { (sx, sy) }
    }
}

#[cfg(test)]
#[path = "compose_tests.rs"]
mod tests;
