//! Sheets for pictures a Solarus animation cannot name as they are (whole images of an
//! Aseprite file, pixels held in memory, SFF sprites): drawn onto a new sheet per animation
//! beside the sprite file, one band per direction, and the document made to show those
//! sheets' rectangles.

use crate::formats::{Loss, Place, WriteContext, WriteError};
use crate::model::{AnimationSet, ElementKind, ImageKind, Origin, Sequence, SequenceId};

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
    // A frame that shows nothing (an AIR frame of sprite -1) keeps its place as a blank cell.
    let Some(graphic) = frame.elements.iter().find_map(|e| e.as_graphic()) else {
        let blank = std::sync::Arc::new(image::RgbaImage::new(1, 1));
        return Some((blank, (0, 0), Drawn::Flat((0, 0))));
    };
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
    // How far the pictures reach from their origins on each side, the furthest of them.
    let furthest = |reach: fn(&image::RgbaImage, (i32, i32)) -> i32| {
        pictures
            .iter()
            .zip(origins)
            .map(|(p, &o)| reach(p, o))
            .max()
            .unwrap_or(0)
    };
    let left = furthest(|_, o| o.0);
    let top = furthest(|_, o| o.1);
    let right = furthest(|p, o| p.width() as i32 - o.0);
    let bottom = furthest(|p, o| p.height() as i32 - o.1);
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
    use crate::model::{GraphicSource, Name, Slice, SliceId, SourceImage};
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
            && crate::formats::read_file(&path).is_ok_and(|existing| existing != bytes)
        {
            return Err(WriteError::new(format!(
                "{} already exists and this document did not write it; nothing was saved (move it away or save the sprite elsewhere)",
                path.display()
            )));
        }
        let resolved = context.dir().map(|dir| dir.join(&relative));
        // Named as a Solarus file names its pictures, from the quest's sprites folder (a
        // document read from Solarus is written with its images' names as they are).
        let sprites = context
            .path
            .as_deref()
            .and_then(super::quest::sprites_folder);
        let path = resolved
            .as_deref()
            .zip(sprites)
            .and_then(|(file, sprites)| crate::formats::paths::relative_to(&sprites, file))
            .unwrap_or_else(|| relative.clone());
        let image = SourceImage {
            id: image_id,
            path,
            resolved,
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
                    if !frame.elements.iter().any(|e| e.as_graphic().is_some()) {
                        let graphic = crate::model::Graphic::new(
                            GraphicSource::Slice(slice_id),
                            crate::model::Point::ZERO,
                            Origin::At(crate::model::Point::from_ints(origin.0, origin.1)),
                        );
                        let id = crate::model::ElementId(doc.alloc_id());
                        frame.elements.insert(
                            0,
                            crate::model::Element {
                                id,
                                name: Name::default(),
                                kind: ElementKind::Graphic(graphic),
                            },
                        );
                    }
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
