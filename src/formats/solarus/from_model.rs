//! The document model -> Solarus animation descriptions, naming exactly what a Solarus sprite
//! cannot hold: per-frame durations, frames off the direction's grid, boxes, points, extra
//! graphics, transforms, frame text, groups.

use super::data::{AnimationData, DirectionData, TILESET_KEYWORD};
use super::quest::sprites_folder;
use crate::formats::paths::relative_to;
use crate::formats::{Loss, Place, WriteContext, WriteError};
use crate::model::{
    AnimationSet, ElementKind, EndBehavior, FrameDuration, Group, ImageKind, Origin, Sequence,
    SequenceId, TreeItem,
};

/// What the writers write: each animation with the sequence it comes from, in file order
/// (the default animation first, as the engine's writer does), and what is lost.
pub struct Described {
    /// The animations.
    pub animations: Vec<(SequenceId, AnimationData)>,
    /// What could not be written.
    pub losses: Vec<Loss>,
}

/// How the loss of an animation that is not written at all begins.
pub const NOT_WRITTEN: &str = "the whole animation is not written: ";

/// Describes every sequence of `document` as a Solarus animation.
pub fn describe(
    document: &AnimationSet,
    context: &WriteContext,
    solarus_source: bool,
) -> Result<Described, WriteError> {
    let mut losses = Vec::new();
    document_losses(document, &mut losses);
    let mut sequences = document.sequences();
    if let Some(default) = document.default_sequence
        && let Some(position) = sequences.iter().position(|s| s.id == default)
    {
        let first = sequences.remove(position);
        sequences.insert(0, first);
    }
    let mut animations: Vec<(SequenceId, AnimationData)> = Vec::new();
    for sequence in sequences {
        if sequence.name.is_empty() {
            return Err(WriteError::new(
                "an animation has no name; Solarus needs one for each",
            ));
        }
        if animations.iter().any(|(_, a)| a.name == sequence.name) {
            return Err(WriteError::new(format!(
                "two animations are named '{}'; Solarus needs unique names",
                sequence.name
            )));
        }
        if let Some(data) =
            describe_sequence(document, sequence, context, solarus_source, &mut losses)
        {
            animations.push((sequence.id, data));
        }
    }
    Ok(Described { animations, losses })
}

fn document_losses(document: &AnimationSet, losses: &mut Vec<Loss>) {
    losses.extend(crate::formats::loss::title_losses(document));
    if !document.metadata.is_empty() {
        losses.push(Loss::new(
            Place::document(),
            "metadata (title, author, ...): a Solarus sprite file has none",
        ));
    }
    fn groups(group: &Group, losses: &mut Vec<Loss>) {
        for item in &group.items {
            if let TreeItem::Group(child) = item {
                losses.push(Loss::new(
                    Place::document(),
                    format!(
                        "group '{}': Solarus has no groups, its animations are written at the top level",
                        child.name
                    ),
                ));
                groups(child, losses);
            }
        }
    }
    groups(&document.root, losses);
}

/// The milliseconds of a duration, and whether that is exact.
fn millis(duration: FrameDuration, frame_rate: Option<u32>) -> (u32, bool) {
    match duration {
        FrameDuration::Millis(ms) => (ms, true),
        FrameDuration::Forever => (0, true),
        other => match other.exact(frame_rate.unwrap_or(0)) {
            Some(time) => {
                let scaled = time.numerator as u128 * 1000;
                let denominator = time.denominator as u128;
                let rounded = (scaled + denominator / 2) / denominator;
                (
                    rounded.min(u32::MAX as u128) as u32,
                    scaled.is_multiple_of(denominator),
                )
            }
            None => (0, false),
        },
    }
}

fn describe_sequence(
    document: &AnimationSet,
    sequence: &Sequence,
    context: &WriteContext,
    solarus_source: bool,
    losses: &mut Vec<Loss>,
) -> Option<AnimationData> {
    let name = &sequence.name;
    let skip = |losses: &mut Vec<Loss>, why: String| {
        losses.push(Loss::new(
            Place::sequence(name),
            format!("{NOT_WRITTEN}{why}"),
        ));
        None
    };
    if sequence.directions.is_empty() {
        return skip(losses, "it has no direction".into());
    }
    let frame_rate = sequence.frame_rate.or(document.frame_rate);
    let mut image = None;
    let mut frame_delay = None;
    let mut directions = Vec::with_capacity(sequence.directions.len());
    for (d, direction) in sequence.directions.iter().enumerate() {
        if let Some(label) = &direction.name {
            losses.push(Loss::new(
                Place {
                    direction: Some(d),
                    ..Place::sequence(name)
                },
                format!(
                    "direction name '{label}': Solarus numbers directions (0 = right, counter-clockwise)"
                ),
            ));
        }
        if direction.frames.is_empty() {
            return skip(losses, format!("direction {d} has no frame"));
        }
        let mut rects = Vec::with_capacity(direction.frames.len());
        let mut origins = Vec::with_capacity(direction.frames.len());
        for (f, frame_id) in direction.frames.iter().enumerate() {
            let place = Place::frame(name, d, f);
            let Some(frame) = document.frame(*frame_id) else {
                return skip(losses, format!("direction {d} frame {f} is missing"));
            };
            let (ms, exact) = millis(frame.duration, frame_rate);
            match frame_delay {
                None => {
                    frame_delay = Some(ms);
                    if !exact {
                        losses.push(Loss::new(
                            place.clone(),
                            format!("duration {} (written as {ms} ms)", frame.duration),
                        ));
                    }
                }
                Some(delay) if delay != ms || !exact => losses.push(Loss::new(
                    place.clone(),
                    format!(
                        "per-frame duration {} (the animation keeps one delay: {delay} ms)",
                        frame.duration
                    ),
                )),
                Some(_) => {}
            }
            frame_text_losses(frame, &place, losses);
            let mut graphic = None;
            for (e, element) in frame.elements.iter().enumerate() {
                let label = if element.name.is_empty() {
                    format!("element {e}")
                } else {
                    format!("element '{}'", element.name)
                };
                match &element.kind {
                    ElementKind::Graphic(g) if graphic.is_none() => graphic = Some(g),
                    ElementKind::Graphic(_) => losses.push(Loss::new(
                        place.clone().element(label),
                        "extra graphic: a Solarus frame shows one rectangle",
                    )),
                    ElementKind::Point(_) => losses.push(Loss::new(
                        place.clone().element(label),
                        "attachment point: Solarus sprites have none",
                    )),
                    ElementKind::Box(b) => losses.push(Loss::new(
                        place.clone().element(label),
                        format!(
                            "collision box ({}): Solarus sprites have none",
                            b.class.label()
                        ),
                    )),
                }
            }
            let Some(graphic) = graphic else {
                return skip(losses, format!("direction {d} frame {f} shows no graphic"));
            };
            let crate::model::GraphicSource::Slice(slice_id) = &graphic.source else {
                return skip(
                    losses,
                    format!("direction {d} frame {f} does not show a rectangle of an image file"),
                );
            };
            let Some(slice) = document.slice(*slice_id) else {
                return skip(
                    losses,
                    format!("direction {d} frame {f} names a missing slice"),
                );
            };
            match image {
                None => image = Some(slice.image),
                Some(first) if first != slice.image => losses.push(Loss::new(
                    place.clone(),
                    "a different image than the animation's first frame (one image per animation)",
                )),
                Some(_) => {}
            }
            if slice.rotated {
                losses.push(Loss::new(
                    place.clone(),
                    "rotated storage of the frame on its sheet",
                ));
            }
            if !graphic.is_plain() || graphic.flip_h || graphic.flip_v {
                losses.push(Loss::new(
                    place.clone(),
                    "transform (flip, rotation, scale, opacity or blending): Solarus draws frames as they are",
                ));
            }
            let origin = match graphic.origin {
                Origin::At(p) => p,
                Origin::SourceAxis => crate::model::Point::ZERO,
            };
            let solarus_origin = (origin.x - graphic.position.x, origin.y - graphic.position.y);
            let whole = (
                solarus_origin.0.to_int_exact(),
                solarus_origin.1.to_int_exact(),
            );
            let origin_px = match whole {
                (Some(x), Some(y)) => (x, y),
                _ => {
                    losses.push(Loss::new(
                        place.clone(),
                        "sub-pixel position (rounded down to whole pixels)",
                    ));
                    (solarus_origin.0.floor(), solarus_origin.1.floor())
                }
            };
            rects.push(slice.rect);
            origins.push(origin_px);
        }
        directions.push(grid_of(name, d, &rects, &origins, losses));
    }
    let frame_delay = frame_delay.unwrap_or(0);
    let shortest = directions.iter().map(|d| d.num_frames).min().unwrap_or(0);
    let loop_on_frame = match sequence.loop_point {
        Some(point) if (point as u64) < shortest as u64 => point as i32,
        Some(point) => {
            losses.push(Loss::new(
                Place::sequence(name),
                format!(
                    "loop point {point} is past the last frame of a direction; written as no loop"
                ),
            ));
            -1
        }
        None => -1,
    };
    if loop_on_frame < 0 {
        match sequence.on_end {
            EndBehavior::HoldLastFrame if frame_delay != 0 => losses.push(Loss::new(
                Place::sequence(name),
                "holding the last frame at the end: a Solarus animation without a loop disappears",
            )),
            EndBehavior::Disappear if frame_delay == 0 => losses.push(Loss::new(
                Place::sequence(name),
                "disappearing at the end: a Solarus animation with frame_delay 0 keeps its frame",
            )),
            _ => {}
        }
    }
    if let Some(follow_up) = &sequence.follow_up {
        losses.push(Loss::new(
            Place::sequence(name),
            format!("follow-up animation '{follow_up}': Solarus has none"),
        ));
    }
    let Some(image) = image.and_then(|id| document.image(id)) else {
        return skip(losses, "its image is missing".into());
    };
    let src_image = match &image.kind {
        ImageKind::SolarusTileset { .. } => TILESET_KEYWORD.to_string(),
        ImageKind::Sff { .. } => {
            return skip(losses, "its frames come from an SFF archive".into());
        }
        ImageKind::Memory(_) => {
            return skip(
                losses,
                "its frames are cut from pixels that are in no image file".into(),
            );
        }
        ImageKind::File => image_path(image, context, solarus_source),
    };
    Some(AnimationData {
        name: name.clone(),
        src_image,
        frame_delay,
        loop_on_frame,
        directions,
    })
}

/// The image path relative to the output quest's `sprites/` folder. Paths read from a Solarus
/// file are already relative to `sprites/` and stay as spelled.
fn image_path(
    image: &crate::model::SourceImage,
    context: &WriteContext,
    solarus_source: bool,
) -> String {
    if solarus_source {
        return image.path.clone();
    }
    let sprites = context.path.as_deref().and_then(sprites_folder);
    match (&image.resolved, sprites) {
        (Some(resolved), Some(sprites)) => {
            relative_to(&sprites, resolved).unwrap_or_else(|| image.path.clone())
        }
        _ => image.path.clone(),
    }
}

fn frame_text_losses(frame: &crate::model::Frame, place: &Place, losses: &mut Vec<Loss>) {
    for (what, text) in [
        ("label", &frame.label),
        ("triggers", &frame.triggers),
        ("notes", &frame.notes),
    ] {
        if !text.is_empty() {
            losses.push(Loss::new(place.clone(), format!("frame {what} '{text}'")));
        }
    }
    if !frame.interpolation.is_none() {
        losses.push(Loss::new(
            place.clone(),
            "interpolation from the previous frame",
        ));
    }
    for declaration in &frame.box_declarations {
        if !frame.boxes().any(|(_, b)| b.class == declaration.class) {
            losses.push(Loss::new(
                place.clone(),
                format!(
                    "empty collision box declaration ({})",
                    declaration.class.label()
                ),
            ));
        }
    }
}

/// The grid of one direction: the first frame's rectangle, as many columns as frames on the
/// first row, one origin. Frames off that grid are reported and written at their grid place.
fn grid_of(
    name: &str,
    d: usize,
    rects: &[crate::model::PixelRect],
    origins: &[(i32, i32)],
    losses: &mut Vec<Loss>,
) -> DirectionData {
    let first = rects[0];
    let columns = rects
        .iter()
        .enumerate()
        .take_while(|(i, r)| {
            r.y == first.y && r.x as i64 == first.x as i64 + *i as i64 * first.width as i64
        })
        .count()
        .max(1);
    let direction = DirectionData {
        x: first.x,
        y: first.y,
        frame_width: first.width,
        frame_height: first.height,
        origin_x: origins[0].0,
        origin_y: origins[0].1,
        num_frames: rects.len() as u32,
        num_columns: columns as u32,
    };
    for (f, (rect, origin)) in rects.iter().zip(origins).enumerate() {
        let (x, y, w, h) = direction.frame_rect(f as u32);
        if (rect.x as i64, rect.y as i64, rect.width, rect.height) != (x, y, w, h) {
            losses.push(Loss::new(
                Place::frame(name, d, f),
                format!(
                    "frame rectangle {}×{} at ({}, {}) is not on the direction's grid; written as {w}×{h} at ({x}, {y})",
                    rect.width, rect.height, rect.x, rect.y
                ),
            ));
        }
        if *origin != origins[0] {
            losses.push(Loss::new(
                Place::frame(name, d, f),
                format!(
                    "origin ({}, {}) differs from the direction's ({}, {})",
                    origin.0, origin.1, origins[0].0, origins[0].1
                ),
            ));
        }
    }
    direction
}

/// A document whose whole-image frames were laid out on new sheets, the sheets' PNG files, and
/// what could not be laid out.
pub struct NewSheets<'a> {
    /// The document to describe (the one given when nothing was laid out).
    pub document: std::borrow::Cow<'a, AnimationSet>,
    /// The PNG files to write, relative to the sprite file's folder.
    pub companions: Vec<crate::formats::CompanionFile>,
    /// Sequences that could not be laid out, and why.
    pub losses: Vec<Loss>,
}

/// A new sheet for one sequence: its image, its slices, and per direction which frame each
/// slice replaces (and whether the frame was drawn flat, see [`Drawn`]).
struct Sheet {
    sequence: SequenceId,
    image: crate::model::SourceImage,
    cells: Vec<Vec<(crate::model::FrameId, crate::model::SliceId, Drawn)>>,
    slices: Vec<crate::model::Slice>,
    /// Directions whose frames were padded to one cell, with the origin they now share.
    padded: Vec<(usize, (i32, i32))>,
}

/// True for pictures a Solarus animation cannot name as they are: a whole image (an
/// Aseprite frame), a cut of pixels held in memory (an imported sheet) or an SFF sprite.
fn in_no_file(document: &AnimationSet, source: &crate::model::GraphicSource) -> bool {
    use crate::model::GraphicSource;
    match source {
        GraphicSource::Image(_) | GraphicSource::SffSprite { .. } => true,
        GraphicSource::Slice(_) => document
            .source_image(source)
            .is_some_and(|image| matches!(image.kind, ImageKind::Memory(_))),
    }
}

/// How a frame's picture reached the new sheet.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Drawn {
    /// Its one graphic's pixels as they are; the graphic keeps its place and look.
    AsIs,
    /// The whole frame rendered flat (an SFF sprite with its palette, offset and flips, and
    /// any further graphics): the copy shows that picture alone, untransformed, with this
    /// origin in it.
    Flat((i32, i32)),
}

/// The pixels a frame shows on a new sheet and the origin within them: its graphic's own
/// pixels for whole images and imported cuts, the frame rendered flat for SFF sprites (whose
/// palette, offset and flips a sheet cannot otherwise keep). `None` when the pixels are not at
/// hand.
fn sheet_picture(
    document: &AnimationSet,
    frame: &crate::model::Frame,
    pixels: &dyn crate::pixels::PixelSource,
) -> Option<(std::sync::Arc<image::RgbaImage>, (i32, i32), Drawn)> {
    let graphic = frame.elements.iter().find_map(|e| e.as_graphic())?;
    if matches!(
        graphic.source,
        crate::model::GraphicSource::SffSprite { .. }
    ) {
        let flat = crate::formats::atlas::frames::render_frame(document, frame, pixels, 1).ok()?;
        let (image, at) = flat.unwrap_or_else(|| (image::RgbaImage::new(1, 1), (0, 0)));
        let origin = (-at.0, -at.1);
        return Some((std::sync::Arc::new(image), origin, Drawn::Flat(origin)));
    }
    let origin = match graphic.origin {
        Origin::At(p) => (p.x.floor(), p.y.floor()),
        Origin::SourceAxis => (0, 0),
    };
    in_no_file(document, &graphic.source)
        .then(|| pixels.pixels(document, &graphic.source))
        .flatten()
        .map(|p| (p.image, origin, Drawn::AsIs))
}

/// Cells of one size, the cell size and the origin they share.
type PaddedCells = (
    Vec<std::sync::Arc<image::RgbaImage>>,
    (u32, u32),
    (i32, i32),
);

/// Pictures of several sizes and origins drawn into cells of one size with one origin: each
/// placed so that its origin lands on the shared one. Returns the cells, the cell size and the
/// shared origin.
fn pad_to_one_cell(
    pictures: &[std::sync::Arc<image::RgbaImage>],
    origins: &[(i32, i32)],
) -> PaddedCells {
    let left = origins.iter().map(|o| o.0).max().unwrap_or(0);
    let top = origins.iter().map(|o| o.1).max().unwrap_or(0);
    let right = pictures
        .iter()
        .zip(origins)
        .map(|(p, o)| p.width() as i32 - o.0)
        .max()
        .unwrap_or(0);
    let bottom = pictures
        .iter()
        .zip(origins)
        .map(|(p, o)| p.height() as i32 - o.1)
        .max()
        .unwrap_or(0);
    let (width, height) = ((left + right).max(1) as u32, (top + bottom).max(1) as u32);
    let cells = pictures
        .iter()
        .zip(origins)
        .map(|(picture, origin)| {
            let mut cell = image::RgbaImage::new(width, height);
            image::imageops::replace(
                &mut cell,
                &**picture,
                i64::from(left - origin.0),
                i64::from(top - origin.1),
            );
            std::sync::Arc::new(cell)
        })
        .collect();
    (cells, (width, height), (left, top))
}

/// Leaves one plain graphic in a frame rendered flat (where its first graphic was), its pivot
/// `origin` at the sprite's origin, until the sheet's slice is set; boxes and points stay.
fn flatten(frame: &mut crate::model::Frame, origin: (i32, i32)) {
    let first = frame.elements.iter().position(|e| e.as_graphic().is_some());
    let Some(first) = first else {
        return;
    };
    let mut kept = frame.elements[first].clone();
    if let ElementKind::Graphic(g) = &kept.kind {
        let plain = crate::model::Graphic::new(
            g.source.clone(),
            crate::model::Point::ZERO,
            Origin::At(crate::model::Point::from_ints(origin.0, origin.1)),
        );
        kept.kind = ElementKind::Graphic(plain);
    }
    let mut index = 0;
    frame.elements.retain(|e| {
        let keep = index == first || e.as_graphic().is_none();
        index += 1;
        keep
    });
    if let Some(slot) = frame.elements.iter_mut().find(|e| e.as_graphic().is_some()) {
        *slot = kept;
    }
}

/// Widest a new sheet's row of frames grows before it wraps.
const SHEET_ROW_WIDTH: u32 = 4096;

/// A Solarus animation shows rectangles of one image; frames that show whole images of their
/// own (an imported Aseprite file) or pixels held in memory (imported frames) are drawn onto
/// a new sheet per animation, beside the sprite
/// file (so under the quest's `sprites/` folder): each direction a grid of its frames, in rows,
/// one band below the other. Frames of one direction must share one size, as the engine cuts
/// them. An existing file with other content is never replaced.
pub fn lay_out_whole_images<'a>(
    document: &'a AnimationSet,
    context: &WriteContext,
) -> Result<NewSheets<'a>, WriteError> {
    use crate::model::{GraphicSource, Slice, SliceId, SourceImage};
    let shows_whole_image = |id: &crate::model::FrameId| {
        document.frame(*id).is_some_and(|f| {
            f.elements
                .iter()
                .find_map(|e| e.as_graphic())
                .is_some_and(|g| in_no_file(document, &g.source))
        })
    };
    let candidates: Vec<&Sequence> = document
        .sequences()
        .into_iter()
        .filter(|s| {
            s.directions
                .iter()
                .flat_map(|d| &d.frames)
                .any(shows_whole_image)
        })
        .collect();
    let mut out = NewSheets {
        document: std::borrow::Cow::Borrowed(document),
        companions: Vec::new(),
        losses: Vec::new(),
    };
    if candidates.is_empty() {
        return Ok(out);
    }
    let Some(pixels) = context.pixels else {
        return Err(WriteError::new(
            "this document shows whole images; writing Solarus draws them onto new sheets and needs their pixels",
        ));
    };
    let stem = context.file_stem("sprite");
    let mut sheets: Vec<Sheet> = Vec::new();
    let mut doc = document.clone();
    for sequence in candidates {
        let place = Place::sequence(&sequence.name);
        let mut bands: Vec<(Vec<std::sync::Arc<image::RgbaImage>>, Vec<Drawn>)> = Vec::new();
        let mut problem = None;
        let mut padded: Vec<(usize, (i32, i32))> = Vec::new();
        for (d, direction) in sequence.directions.iter().enumerate() {
            let mut band = Vec::new();
            let mut origins = Vec::new();
            let mut how = Vec::new();
            for (f, id) in direction.frames.iter().enumerate() {
                let picture = document
                    .frame(*id)
                    .and_then(|frame| sheet_picture(document, frame, pixels));
                match picture {
                    Some((image, origin, drawn)) => {
                        band.push(image);
                        origins.push(origin);
                        how.push(drawn);
                    }
                    None => {
                        problem = Some(format!(
                            "direction {d} frame {f} shows no whole image whose pixels are at hand"
                        ))
                    }
                }
            }
            // Solarus cuts one size per direction with one origin: frames of other sizes or
            // origins are padded to a common cell, each placed so its origin lands on the
            // cell's, so they look exactly as before.
            let mixed = band.iter().any(|p| p.dimensions() != band[0].dimensions())
                || origins.iter().any(|o| *o != origins[0]);
            if mixed && problem.is_none() {
                let (band_padded, cell, origin) = pad_to_one_cell(&band, &origins);
                band = band_padded;
                padded.push((d, origin));
                out.losses.push(Loss::new(
                    Place::sequence(&sequence.name),
                    format!(
                        "direction {d}'s frames differ in size or origin: padded to {}x{} cells with one origin, as Solarus cuts them (they look the same)",
                        cell.0, cell.1
                    ),
                ));
            }
            bands.push((band, how));
        }
        if let Some(why) = problem {
            out.losses
                .push(Loss::new(place, format!("no sheet drawn: {why}")));
            continue;
        }
        let grids: Vec<(u32, u32, u32, u32)> = bands
            .iter()
            .map(|(band, _)| {
                let (w, h) = band.first().map_or((1, 1), |p| p.dimensions());
                let columns = (SHEET_ROW_WIDTH / w.max(1)).clamp(1, band.len().max(1) as u32);
                let rows = (band.len() as u32).div_ceil(columns);
                (w, h, columns, rows)
            })
            .collect();
        let width = grids.iter().map(|(w, _, c, _)| w * c).max().unwrap_or(1);
        let height: u32 = grids.iter().map(|(_, h, _, r)| h * r).sum();
        let mut sheet = image::RgbaImage::new(width.max(1), height.max(1));
        let image_id = crate::model::ImageId(doc.alloc_id());
        let mut slices = Vec::new();
        let mut cells = Vec::new();
        let mut top = 0;
        for (((band, how), direction), (w, h, columns, rows)) in
            bands.iter().zip(&sequence.directions).zip(&grids)
        {
            let mut band_cells = Vec::new();
            for (f, ((picture, frame_id), drawn)) in
                band.iter().zip(&direction.frames).zip(how).enumerate()
            {
                let (x, y) = ((f as u32 % columns) * w, top + (f as u32 / columns) * h);
                image::imageops::replace(&mut sheet, &**picture, i64::from(x), i64::from(y));
                let id = SliceId(doc.alloc_id());
                slices.push(Slice {
                    id,
                    image: image_id,
                    rect: crate::model::PixelRect {
                        x: x as i32,
                        y: y as i32,
                        width: *w,
                        height: *h,
                    },
                    rotated: false,
                });
                band_cells.push((*frame_id, id, *drawn));
            }
            cells.push(band_cells);
            top += h * rows;
        }
        let name: String = sequence
            .name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let relative = format!("{stem}_{name}.png");
        let bytes = crate::formats::pack::png(&sheet)
            .map_err(|e| WriteError::new(format!("cannot encode {relative}: {e}")))?;
        if let Some(path) = context.dir().map(|dir| dir.join(&relative))
            && std::fs::read(&path).is_ok_and(|existing| existing != bytes)
        {
            return Err(WriteError::new(format!(
                "{} already exists and this document did not write it; nothing was saved (move it away or save the sprite elsewhere)",
                path.display()
            )));
        }
        let image = SourceImage {
            id: image_id,
            path: relative.clone(),
            resolved: context.dir().map(|dir| dir.join(&relative)),
            kind: ImageKind::File,
            nearest_neighbour: true,
        };
        out.companions.push(crate::formats::CompanionFile {
            relative_path: relative,
            bytes,
        });
        sheets.push(Sheet {
            sequence: sequence.id,
            image,
            cells,
            slices,
            padded,
        });
    }
    // Each sequence gets its own copies of its frames, now showing the sheet: a frame may be
    // shared by several tags, each with its own sheet.
    for Sheet {
        sequence: sequence_id,
        image,
        cells,
        slices,
        padded,
    } in sheets
    {
        doc.images.push(image);
        doc.slices.extend(slices);
        for (d, band) in cells.into_iter().enumerate() {
            let mut copies = Vec::with_capacity(band.len());
            for (frame_id, slice_id, drawn) in band {
                let Some(mut frame) = doc.frame(frame_id).cloned() else {
                    continue;
                };
                if let Drawn::Flat(origin) = drawn {
                    flatten(&mut frame, origin);
                }
                if let Some(graphic) = frame.elements.iter_mut().find_map(|e| match &mut e.kind {
                    ElementKind::Graphic(g) => Some(g),
                    _ => None,
                }) {
                    graphic.source = GraphicSource::Slice(slice_id);
                    if let Some((_, (x, y))) = padded.iter().find(|(pd, _)| *pd == d) {
                        graphic.origin = Origin::At(crate::model::Point::from_ints(*x, *y));
                    }
                }
                let copy = crate::model::FrameId(doc.alloc_id());
                doc.frames.insert(copy, frame);
                copies.push(copy);
            }
            if let Some(direction) = doc
                .sequence_mut(sequence_id)
                .and_then(|s| s.directions.get_mut(d))
            {
                direction.frames = copies;
            }
        }
    }
    out.document = std::borrow::Cow::Owned(doc);
    Ok(out)
}
