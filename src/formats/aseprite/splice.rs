//! Saving an edited document back into the Aseprite file it was read from, chunk by chunk:
//! every chunk the edit does not touch is copied byte for byte.
//!
//! What an edit rewrites:
//! - a frame's duration: that frame's header;
//! - sequences: the tags chunk (and the tags' user data, kept per tag);
//! - boxes and points: the slice chunks whose keys changed (others are copied);
//! - new frames with pictures the file does not have: a cel each on a new top layer,
//!   "Imported", in the file's colour mode ([`pictures`]; an indexed file's palette chunks
//!   and header take the colours it lacked, [`palette`]);
//! - the sprite's comments and colour: its user data chunk ([`prelude`]);
//! - deleted, duplicated and reordered frames: frames move whole, with every layer's cels;
//!   a duplicate's cels link to the frame it copies; a linked cel whose frame went away (or
//!   now comes later) takes the pixels over, and the others link to it.
//!
//! The document's frames are matched to the file's through their ids: reading the original
//! bytes again gives the same ids.

use super::AsepriteFormat;
use super::file::{
    self, CHUNK_CEL, CHUNK_SLICE, CHUNK_TAGS, CHUNK_USER_DATA, FileView, SliceRecord, TagRecord,
    Unit,
};
use super::mapping::{UNTAGGED_KEY, is_point_only};
use super::marks::{
    TagRule, information_losses, keep_centres, origin_of, per_frame, slices_of, tag_color,
    tag_keeping,
};
use super::scan::TagDirection;
use crate::formats::atlas::frames::render_frame;
use crate::formats::atlas::timing::run_millis;
use crate::formats::{Format, Loss, Place, ReadContext, ReadOptions, WriteError, Written};
use crate::model::{
    AnimationSet, Element, ElementId, ElementKind, Frame, FrameId, OriginalSource, SequenceId,
};
use crate::pixels::PixelSource;
use pictures::Encoding;
use prelude::{Rewrites, head_chunks, write_sprite_user_data};
use std::collections::HashMap;

mod palette;
mod pictures;
mod prelude;

/// Where an output frame comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    /// The file's frame of this index.
    Original(usize),
    /// A new frame showing the same picture as the file's frame of this index.
    CopyOf(usize),
    /// A new frame whose picture the file does not have.
    Foreign,
}

/// The original file with the document's edits written in.
pub fn splice(
    original: &OriginalSource,
    document: &AnimationSet,
    pixels: Option<&dyn PixelSource>,
) -> Result<Written, WriteError> {
    let bytes: &[u8] = &original.bytes;
    let damaged = || WriteError::new("the Aseprite file this document was read from is damaged");
    let view = FileView::of(bytes).ok_or_else(damaged)?;
    let first = reread(original, document).ok_or_else(damaged)?;
    let file_frames: Vec<FrameId> = first.frames.keys().copied().collect();
    if file_frames.len() != view.frames.len() || view.frames.is_empty() {
        return Err(damaged());
    }
    let mut losses = Vec::new();
    let order = frame_order(document, &file_frames);
    if order.is_empty() {
        return Err(WriteError::new("an Aseprite file needs at least one frame"));
    }
    let sources: Vec<Source> = order
        .iter()
        .map(|id| source_of(*id, document, &first, &file_frames))
        .collect();
    // New pictures go on a layer of their own, drawn by Sprat and written in the file's
    // colour mode.
    let layers = view.frames[0]
        .units
        .iter()
        .filter(|u| u.kind == file::CHUNK_LAYER)
        .count();
    let mut rewrites = Rewrites::default();
    let mut encoding = Encoding::of(bytes, &view);
    let (canvas, origin) = canvas_and_origin(bytes, &view);
    // Sprite space is placed on the canvas from the origin the file marks.
    let shift = origin.unwrap_or((0, 0));
    // Output position -> its cel (none when the picture shows nothing).
    let mut imported: HashMap<usize, Option<Vec<u8>>> = HashMap::new();
    if let (Ok(encoding), Some(pixels)) = (&mut encoding, pixels) {
        for (position, id) in order.iter().enumerate() {
            if sources[position] != Source::Foreign {
                continue;
            }
            let Some((image, place)) = render_frame(document, &document.frames[id], pixels, 1)?
            else {
                imported.insert(position, None);
                continue;
            };
            let encoded = encoding.encode(&image);
            if encoded.changed > 0 {
                losses.push(Loss::new(
                    Place::document(),
                    format!(
                        "frame {position}: {} pixels of its new picture {}",
                        encoded.changed,
                        encoding.change()
                    ),
                ));
            }
            let place = (
                place.0.saturating_add(shift.0),
                place.1.saturating_add(shift.1),
            );
            let outside = pixels_outside(&image, place, canvas);
            if outside > 0 {
                losses.push(Loss::new(
                    place_of(document, *id),
                    format!(
                        "{outside} pixels of its new picture, which lie outside the {}x{} canvas (Aseprite keeps them in the cel but shows only the canvas)",
                        canvas.0, canvas.1
                    ),
                ));
            }
            let size = (image.width() as u16, image.height() as u16);
            let cel = file::compressed_pixels_cel(layers as u16, place, size, &encoded.pixels)?;
            imported.insert(position, Some(cel));
        }
    }
    let grown_palette = encoding.as_ref().ok().and_then(Encoding::grown_palette);
    if let Some(palette) = grown_palette {
        let head = head_chunks(bytes, &view).ok_or_else(damaged)?;
        palette.rewrite(bytes, &head, &mut rewrites);
    }
    let colours = grown_palette.map(|p| p.len() as u16);
    let new_layer = imported
        .values()
        .any(Option::is_some)
        .then(|| file::layer_chunk("Imported", 0, 255));
    let unwritable = match (&encoding, pixels) {
        (Err(why), _) => *why,
        (Ok(_), None) => "the document's pixels were not given to the writer",
        (Ok(_), Some(_)) => "",
    };
    picture_losses(
        document,
        &first,
        &order,
        &sources,
        &imported,
        unwritable,
        &mut losses,
    );
    let frames: Vec<&Frame> = order.iter().map(|id| &document.frames[id]).collect();
    let (millis, notes) = run_millis(&frames, document.frame_rate.unwrap_or(0));
    for (index, note) in notes {
        losses.push(Loss::new(
            Place::document(),
            format!("frame {index}: {note}"),
        ));
    }
    let mut globals = global_units(
        bytes,
        &view,
        document,
        &first,
        &order,
        &file_frames,
        &frames,
        &mut rewrites,
        &mut losses,
    )?;
    if let Some(layer) = new_layer {
        // After the file's last layer: the new one is the top layer, numbered after the others.
        let mut seen = 0;
        let at = globals
            .iter()
            .position(|c| {
                seen += usize::from(file::word(c, 4) == Some(file::CHUNK_LAYER));
                seen == layers
            })
            .map_or(0, |i| i + 1);
        globals.insert(at, layer);
    }
    let cels = Cels::of(bytes, &view);
    let owners = cels.owners(&sources);
    let mut out = bytes[..super::scan::HEADER_SIZE].to_vec();
    if let Some(colours) = colours {
        out[32..34].copy_from_slice(&colours.to_le_bytes());
    }
    for (position, source) in sources.iter().enumerate() {
        let mut chunks: Vec<Vec<u8>> = if position == 0 {
            globals.clone()
        } else {
            Vec::new()
        };
        let duration = u16::try_from(millis[position]).unwrap_or_else(|_| {
            losses.push(Loss::new(
                Place::document(),
                format!(
                    "frame {position}: {} ms, longer than Aseprite's 65535 ms",
                    millis[position]
                ),
            ));
            u16::MAX
        });
        match *source {
            Source::Original(index) => {
                for unit in &view.frames[index].units {
                    if index == 0 && unit.kind != CHUNK_CEL {
                        continue;
                    }
                    if unit.kind == CHUNK_CEL {
                        chunks.push(cels.written(&owners, bytes, unit, index, position, &sources));
                    } else if !matches!(unit.kind, CHUNK_SLICE) {
                        chunks.push(bytes[unit.whole.clone()].to_vec());
                    }
                }
                let frame = &view.frames[index];
                let body_start = frame.range.start + file::FRAME_HEADER_SIZE;
                let same_body = chunks.iter().map(Vec::len).sum::<usize>()
                    == frame.range.end - body_start
                    && chunks
                        .iter()
                        .scan(body_start, |at, chunk| {
                            let same = bytes.get(*at..*at + chunk.len()) == Some(chunk.as_slice());
                            *at += chunk.len();
                            Some(same)
                        })
                        .all(|same| same);
                if same_body {
                    let mut copy = bytes[frame.range.clone()].to_vec();
                    copy[8..10].copy_from_slice(&duration.to_le_bytes());
                    out.extend_from_slice(&copy);
                    continue;
                }
            }
            Source::CopyOf(index) => {
                for unit in view.frames[index]
                    .units
                    .iter()
                    .filter(|u| u.kind == CHUNK_CEL)
                {
                    chunks.push(cels.written(&owners, bytes, unit, index, position, &sources));
                }
            }
            Source::Foreign => chunks.extend(imported.remove(&position).flatten()),
        }
        out.extend_from_slice(&file::frame(duration, &chunks));
    }
    let size = out.len() as u32;
    out[0..4].copy_from_slice(&size.to_le_bytes());
    out[6..8].copy_from_slice(&(order.len().min(usize::from(u16::MAX)) as u16).to_le_bytes());
    if order.len() > usize::from(u16::MAX) {
        return Err(WriteError::new(
            "an Aseprite file holds at most 65535 frames",
        ));
    }
    Ok(Written {
        bytes: out,
        losses,
        companions: Vec::new(),
    })
}

/// The original bytes read again the way the document was (composited or one graphic per
/// layer: the one whose frame ids the document shares).
fn reread(original: &OriginalSource, document: &AnimationSet) -> Option<AnimationSet> {
    let mut best: Option<(usize, AnimationSet)> = None;
    for aseprite_layers in [false, true] {
        let context = ReadContext {
            path: original.path.clone(),
            options: ReadOptions {
                aseprite_layers,
                ..ReadOptions::default()
            },
        };
        let read = AsepriteFormat
            .read(&original.bytes, &context)
            .ok()?
            .document;
        let shared = read
            .frames
            .keys()
            .filter(|id| document.frames.contains_key(*id))
            .count();
        // Most of the file's frames still in the document: this is how it was read (the
        // other reading, a full decode, is tried only when not).
        let most = shared * 2 > read.frames.len();
        if best.as_ref().is_none_or(|(s, _)| shared > *s) {
            best = Some((shared, read));
        }
        if most {
            break;
        }
    }
    best.map(|(_, read)| read)
}

/// The file's frames that are still in the document, in file order; new frames after the
/// frame before them in the first sequence listing them; then each sequence whose frames now
/// sit together but in another order moves them into its order (a reorder in the timeline).
fn frame_order(document: &AnimationSet, file_frames: &[FrameId]) -> Vec<FrameId> {
    let mut order: Vec<FrameId> = file_frames
        .iter()
        .filter(|id| document.frames.contains_key(*id))
        .copied()
        .collect();
    let lists: Vec<&Vec<FrameId>> = document
        .sequences()
        .into_iter()
        .flat_map(|s| s.directions.iter().map(|d| &d.frames))
        .collect();
    for id in document
        .frames
        .keys()
        .filter(|id| !file_frames.contains(id))
    {
        let at = lists
            .iter()
            .find_map(|list| {
                let here = list.iter().position(|f| f == id)?;
                let before = list[..here]
                    .iter()
                    .rev()
                    .find_map(|f| order.iter().position(|o| o == f));
                Some(before.map_or(0, |p| p + 1))
            })
            .unwrap_or(order.len());
        order.insert(at.min(order.len()), *id);
    }
    for list in lists {
        let mut distinct: Vec<FrameId> = Vec::new();
        for id in list {
            if !distinct.contains(id) {
                distinct.push(*id);
            }
        }
        if distinct.len() != list.len() || distinct.len() < 2 {
            continue;
        }
        let mut positions: Vec<usize> = distinct
            .iter()
            .filter_map(|id| order.iter().position(|o| o == id))
            .collect();
        positions.sort_unstable();
        let (low, high) = (positions[0], positions[positions.len() - 1]);
        if high - low + 1 != distinct.len() {
            continue;
        }
        let block = &order[low..=high];
        let reversed: Vec<FrameId> = block.iter().rev().copied().collect();
        if block != distinct.as_slice() && reversed != distinct {
            order[low..=high].copy_from_slice(&distinct);
        }
    }
    order
}

/// The graphics of a frame, without the element ids (a copy has new ones).
fn graphics(frame: &Frame) -> Vec<&ElementKind> {
    frame
        .elements
        .iter()
        .filter(|e| matches!(e.kind, ElementKind::Graphic(_)))
        .map(|e: &Element| &e.kind)
        .collect()
}

fn source_of(
    id: FrameId,
    document: &AnimationSet,
    first: &AnimationSet,
    file_frames: &[FrameId],
) -> Source {
    if let Some(index) = file_frames.iter().position(|f| *f == id) {
        return Source::Original(index);
    }
    let shows = graphics(&document.frames[&id]);
    if shows.is_empty() {
        return Source::Foreign;
    }
    file_frames
        .iter()
        .position(|f| graphics(&first.frames[f]) == shows)
        .map_or(Source::Foreign, Source::CopyOf)
}

/// The canvas's size, and the sprite's origin on it where a slice marks one.
fn canvas_and_origin(bytes: &[u8], view: &FileView) -> ((u32, u32), Option<(i32, i32)>) {
    let canvas = (
        u32::from(file::word(bytes, 8).unwrap_or(0)),
        u32::from(file::word(bytes, 10).unwrap_or(0)),
    );
    let origin = view
        .frames
        .iter()
        .flat_map(|f| f.units.iter().filter(|u| u.kind == CHUNK_SLICE))
        .filter_map(|u| file::slice_of(&bytes[u.chunk.clone()]))
        .find_map(|s| origin_of(&s, canvas));
    (canvas, origin)
}

/// How many visible pixels of `image`, placed at `place` on the canvas, lie outside it.
fn pixels_outside(image: &image::RgbaImage, place: (i32, i32), canvas: (u32, u32)) -> usize {
    let inside = |at: i32, offset: u32, size: u32| {
        let at = i64::from(at) + i64::from(offset);
        (0..i64::from(size)).contains(&at)
    };
    image
        .enumerate_pixels()
        .filter(|(x, y, p)| {
            p[3] > 0 && !(inside(place.0, *x, canvas.0) && inside(place.1, *y, canvas.1))
        })
        .count()
}

/// Where a frame is shown: the first sequence and direction listing it, at its place there
/// (the document as a whole when no sequence lists it).
fn place_of(document: &AnimationSet, id: FrameId) -> Place {
    document
        .sequences()
        .iter()
        .find_map(|sequence| {
            sequence
                .directions
                .iter()
                .enumerate()
                .find_map(|(d, direction)| {
                    let at = direction.frames.iter().position(|f| *f == id)?;
                    Some(Place::frame(&sequence.name, d, at))
                })
        })
        .unwrap_or_else(Place::document)
}

/// Edits to pictures are not written into the file's cels: they are named, as are new
/// pictures that could not be written (`unwritable` says why).
fn picture_losses(
    document: &AnimationSet,
    first: &AnimationSet,
    order: &[FrameId],
    sources: &[Source],
    imported: &HashMap<usize, Option<Vec<u8>>>,
    unwritable: &str,
    losses: &mut Vec<Loss>,
) {
    for (position, (id, source)) in order.iter().zip(sources).enumerate() {
        let what = match source {
            Source::Original(_) if graphics(&document.frames[id]) != graphics(&first.frames[id]) => {
                "changes to its pictures (Sprat writes an Aseprite file's cels as they were, copied or linked)".to_string()
            }
            Source::Foreign
                if !graphics(&document.frames[id]).is_empty()
                    && !imported.contains_key(&position) =>
            {
                format!("its new picture ({unwritable})")
            }
            _ => continue,
        };
        losses.push(Loss::new(
            Place::document(),
            format!("frame {position}: {what}"),
        ));
    }
}

/// The cels of the file by frame and layer, and which cel each linked cel finally shows.
struct Cels {
    /// (frame, layer) -> the frame whose cel holds the pixels.
    root: HashMap<(usize, u16), usize>,
    /// (frame, layer) -> that frame's cel unit.
    unit: HashMap<(usize, u16), Unit>,
    /// frame -> the layers it has a cel on.
    layers_of: HashMap<usize, Vec<u16>>,
}

impl Cels {
    fn of(bytes: &[u8], view: &FileView) -> Cels {
        let mut unit = HashMap::new();
        let mut link = HashMap::new();
        for (index, frame) in view.frames.iter().enumerate() {
            for u in frame.units.iter().filter(|u| u.kind == CHUNK_CEL) {
                if let Some((layer, target)) = file::cel_layer_and_link(&bytes[u.chunk.clone()]) {
                    unit.insert((index, layer), u.clone());
                    if let Some(target) = target {
                        link.insert((index, layer), usize::from(target));
                    }
                }
            }
        }
        let mut root = HashMap::new();
        for &(index, layer) in unit.keys() {
            let mut at = index;
            // Links are followed a bounded number of times (a damaged file may loop).
            for _ in 0..view.frames.len() {
                match link.get(&(at, layer)) {
                    Some(&next) if unit.contains_key(&(next, layer)) && next != at => at = next,
                    _ => break,
                }
            }
            root.insert((index, layer), at);
        }
        let mut layers_of: HashMap<usize, Vec<u16>> = HashMap::new();
        for &(index, layer) in unit.keys() {
            layers_of.entry(index).or_default().push(layer);
        }
        Cels {
            root,
            unit,
            layers_of,
        }
    }

    /// For each (layer, frame holding the pixels), the first output position showing them.
    fn owners(&self, sources: &[Source]) -> HashMap<(u16, usize), usize> {
        let mut owners = HashMap::new();
        for (position, source) in sources.iter().enumerate() {
            if let Source::Original(i) | Source::CopyOf(i) = *source {
                for ((_, layer), root) in self.root_of_frame(i) {
                    owners.entry((layer, root)).or_insert(position);
                }
            }
        }
        owners
    }

    /// The cels of file frame `index`: (frame, layer) -> the frame holding their pixels.
    fn root_of_frame(&self, index: usize) -> Vec<((usize, u16), usize)> {
        self.layers_of
            .get(&index)
            .map(|layers| {
                layers
                    .iter()
                    .filter_map(|&layer| Some(((index, layer), *self.root.get(&(index, layer))?)))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The cel `unit` of file frame `index` as written at output `position`: its pixels if
    /// this is the first frame showing them, else a link to that frame.
    fn written(
        &self,
        owners: &HashMap<(u16, usize), usize>,
        bytes: &[u8],
        unit: &Unit,
        index: usize,
        position: usize,
        sources: &[Source],
    ) -> Vec<u8> {
        let chunk = &bytes[unit.chunk.clone()];
        let Some((layer, _)) = file::cel_layer_and_link(chunk) else {
            return bytes[unit.whole.clone()].to_vec();
        };
        let root = self.root.get(&(index, layer)).copied().unwrap_or(index);
        let owner = owners.get(&(layer, root)).copied().unwrap_or(position);
        let root_unit = self.unit.get(&(root, layer)).unwrap_or(unit);
        if owner == position {
            return bytes[root_unit.whole.clone()].to_vec();
        }
        let is_link = root != index && matches!(sources[position], Source::Original(_));
        if is_link {
            let mut copy = bytes[unit.whole.clone()].to_vec();
            let at = file::CEL_FIELDS_END;
            if copy.len() >= at + 2 {
                copy[at..at + 2].copy_from_slice(&(owner as u16).to_le_bytes());
                return copy;
            }
        }
        file::linked_cel(&bytes[root_unit.chunk.clone()], owner as u16)
    }
}

/// The chunks of the first frame that describe the whole file (palette, layers, tilesets,
/// tags, slices, ...), with the tags and slices rewritten where the document changed them.
#[allow(clippy::too_many_arguments)]
fn global_units(
    bytes: &[u8],
    view: &FileView,
    document: &AnimationSet,
    first: &AnimationSet,
    order: &[FrameId],
    file_frames: &[FrameId],
    frames: &[&Frame],
    rewrites: &mut Rewrites,
    losses: &mut Vec<Loss>,
) -> Result<Vec<Vec<u8>>, WriteError> {
    let same_frames = order == file_frames;
    let all_slices: Vec<(Unit, SliceRecord)> = view
        .frames
        .iter()
        .flat_map(|f| f.units.iter().filter(|u| u.kind == CHUNK_SLICE))
        .filter_map(|u| Some((u.clone(), file::slice_of(&bytes[u.chunk.clone()])?)))
        .collect();
    let (canvas, origin) = canvas_and_origin(bytes, view);
    let records: Vec<&SliceRecord> = all_slices.iter().map(|(_, s)| s).collect();
    let marks_origin = |slice: &SliceRecord| origin.is_some() && origin_of(slice, canvas).is_some();
    let names: Vec<String> = records.iter().map(|s| s.name.clone()).collect();
    let owners = slice_owners(first, file_frames, &records, &marks_origin);
    let mut wanted = slices_of(frames, origin.unwrap_or((0, 0)), &names, &owners, losses);
    let mut slice_chunks: Vec<Vec<u8>> = Vec::new();
    for (index, (unit, slice)) in all_slices.iter().enumerate() {
        if marks_origin(slice) {
            slice_chunks.push(bytes[unit.whole.clone()].to_vec());
            continue;
        }
        let Some(at) = wanted.iter().position(|w| w.file_slice == Some(index)) else {
            continue;
        };
        let mut new = wanted.remove(at).record;
        let unchanged =
            same_frames && per_frame(slice, frames.len()) == per_frame(&new, frames.len());
        if unchanged {
            slice_chunks.push(bytes[unit.whole.clone()].to_vec());
        } else {
            let file_frame_of = |position: usize| {
                let id = order.get(position)?;
                file_frames.iter().position(|f| f == id)
            };
            for change in keep_centres(&mut new, slice, frames.len(), file_frame_of) {
                let what = format!("slice \"{}\": {change}", slice.name);
                losses.push(Loss::new(Place::document(), what));
            }
            let mut written = file::slice_chunk(&new);
            written.extend_from_slice(&bytes[unit.chunk.end..unit.whole.end]);
            slice_chunks.push(written);
        }
    }
    slice_chunks.extend(wanted.iter().map(|w| file::slice_chunk(&w.record)));
    let tags = tags_unit(bytes, &view.frames[0].units, document, first, order, losses);
    write_sprite_user_data(bytes, view, document, first, rewrites);
    information_losses(document, losses);
    let mut out = Vec::new();
    let mut tags_written = false;
    let mut slices_written = false;
    for unit in &view.frames[0].units {
        match unit.kind {
            CHUNK_CEL => {}
            CHUNK_TAGS if !tags_written => {
                out.extend(tags.clone());
                tags_written = true;
            }
            CHUNK_SLICE if !slices_written => {
                if !tags_written {
                    out.extend(tags.clone());
                    tags_written = true;
                }
                out.append(&mut slice_chunks);
                slices_written = true;
            }
            CHUNK_SLICE | CHUNK_TAGS => {}
            _ => out.push(rewrites.unit(bytes, unit.whole.clone())),
        }
    }
    if !tags_written {
        out.extend(tags);
    }
    out.append(&mut slice_chunks);
    Ok(out)
}

/// Which of the file's `slices` each box and point of `first` (the file as read) was read
/// from, found the way [`super::mapping`] reads them: on each frame, slice by slice in file
/// order, a box unless the key marks a point alone, then a point where the key has a pivot.
/// Empty when the elements do not line up so (names are then the only key).
fn slice_owners(
    first: &AnimationSet,
    file_frames: &[FrameId],
    slices: &[&SliceRecord],
    marks_origin: &dyn Fn(&SliceRecord) -> bool,
) -> HashMap<ElementId, usize> {
    let values: Vec<_> = slices
        .iter()
        .map(|s| per_frame(s, file_frames.len()))
        .collect();
    let mut owners = HashMap::new();
    for (index, id) in file_frames.iter().enumerate() {
        let Some(frame) = first.frames.get(id) else {
            return HashMap::new();
        };
        let mut marks = frame
            .elements
            .iter()
            .filter(|e| !matches!(e.kind, ElementKind::Graphic(_)));
        for (i, slice) in slices.iter().enumerate() {
            if marks_origin(slice) {
                continue;
            }
            let Some((bounds, pivot)) = values[i][index] else {
                continue;
            };
            let point_only = is_point_only((bounds.2, bounds.3), pivot);
            let expected = [(!point_only, true), (pivot.is_some(), false)];
            for (present, is_box) in expected {
                if !present {
                    continue;
                }
                match marks.next() {
                    Some(e)
                        if e.name == slice.name
                            && matches!(e.kind, ElementKind::Box(_)) == is_box =>
                    {
                        owners.insert(e.id, i);
                    }
                    _ => return HashMap::new(),
                }
            }
        }
        if marks.next().is_some() {
            return HashMap::new();
        }
    }
    owners
}

/// The tags chunk (with its user data) for the document's sequences: the file's own bytes when
/// the tags are the same.
fn tags_unit(
    bytes: &[u8],
    units: &[Unit],
    document: &AnimationSet,
    first: &AnimationSet,
    order: &[FrameId],
    losses: &mut Vec<Loss>,
) -> Vec<Vec<u8>> {
    let unit = units.iter().find(|u| u.kind == CHUNK_TAGS);
    let old: Vec<TagRecord> = unit
        .and_then(|u| file::tags_of(&bytes[u.chunk.clone()]))
        .unwrap_or_default();
    // Each tag's user data chunk, in tag order.
    let old_user_data: Vec<&[u8]> = unit
        .map(|u| user_data_chunks(&bytes[u.chunk.end..u.whole.end]))
        .unwrap_or_default();
    let frame_count = first.frames.len();
    let first_sequences = first.sequences();
    // Each sequence read from a tag: the tag's place and the name the sequence was given
    // (a tag sharing its name with an earlier one reads as "Idle (2)").
    let mut tag_of_sequence: HashMap<SequenceId, (usize, &str)> = HashMap::new();
    let mut next = 0;
    for (index, tag) in old.iter().enumerate() {
        if usize::from(tag.from.max(tag.to)) < frame_count {
            if let Some(sequence) = first_sequences.get(next) {
                tag_of_sequence.insert(sequence.id, (index, sequence.name.as_str()));
            }
            next += 1;
        }
    }
    let mut tags: Vec<TagRecord> = Vec::new();
    let mut sources: Vec<Option<usize>> = Vec::new();
    // Which tags are of untagged frames still playing forward: written only when needed.
    let mut stays_untagged: Vec<bool> = Vec::new();
    for sequence in document.sequences() {
        for (d, direction) in sequence.directions.iter().enumerate() {
            let positions: Vec<usize> = direction
                .frames
                .iter()
                .filter_map(|id| order.iter().position(|o| o == id))
                .collect();
            if positions.is_empty() {
                if direction.frames.is_empty() {
                    losses.push(Loss::new(
                        Place::sequence(&sequence.name),
                        format!("direction {d}: it has no frame (an Aseprite tag spans frames)"),
                    ));
                }
                continue;
            }
            let loops = sequence.loop_point.is_some();
            let untagged = document
                .metadata
                .extra
                .iter()
                .any(|(k, _)| k.strip_prefix(UNTAGGED_KEY) == Some(sequence.name.as_str()));
            let read_from = tag_of_sequence.get(&sequence.id).filter(|_| d == 0);
            let previous = read_from.and_then(|(s, _)| old.get(*s)).map(|t| TagRule {
                from: usize::from(t.from),
                to: usize::from(t.to),
                direction: t.direction,
                repeat: t.repeat,
            });
            let rule = tag_keeping(&positions, loops, previous);
            // Said before an untagged sequence is left untagged: it loops whole too.
            if sequence.loop_point.is_some_and(|l| l > 0) {
                losses.push(Loss::new(
                    Place::sequence(&sequence.name),
                    "its loop back to a frame other than the first (the tag loops whole)",
                ));
            }
            let plays_untagged = untagged
                && rule.is_some_and(|r| r.direction == TagDirection::Forward && r.repeat == 0);
            let rule = rule.unwrap_or_else(|| {
                losses.push(Loss::new(
                    Place::sequence(&sequence.name),
                    "its frame order, which no Aseprite tag plays (written as a forward tag over its frames' range)",
                ));
                let from = positions.iter().copied().min().unwrap_or(0);
                let to = positions.iter().copied().max().unwrap_or(0);
                TagRule { from, to, direction: TagDirection::Forward, repeat: u16::from(!loops) }
            });
            let source = read_from.map(|(s, _)| *s);
            let name = if let Some((s, read_as)) = read_from
                && sequence.name == *read_as
                && let Some(tag) = old.get(*s)
            {
                // Not renamed since it was read: the tag's own name, as the file has it.
                tag.name.clone()
            } else if d == 0 {
                sequence.name.clone()
            } else {
                format!("{}_{}", sequence.name, sequence.direction_label(d))
            };
            let color = source
                .and_then(|s| old.get(s))
                .map(|t| t.color)
                .or_else(|| tag_color(document, &name))
                .unwrap_or([0, 0, 0]);
            tags.push(TagRecord {
                from: rule.from as u16,
                to: rule.to as u16,
                direction: rule.direction,
                repeat: rule.repeat,
                color,
                name,
            });
            sources.push(source);
            stays_untagged.push(plays_untagged);
        }
    }
    leave_untagged_tail(&mut tags, &mut sources, &stays_untagged);
    let same_sources = sources.iter().enumerate().all(|(i, s)| *s == Some(i));
    if let Some(unit) = unit
        && tags == old
        && same_sources
    {
        return vec![bytes[unit.whole.clone()].to_vec()];
    }
    if tags.is_empty() && unit.is_none() {
        return Vec::new();
    }
    let mut out = vec![file::tags_chunk(&tags)];
    // Files that keep user data per tag (Aseprite 1.3) keep it, tag by tag.
    if !old_user_data.is_empty() || unit.is_none() {
        for (tag, source) in tags.iter().zip(&sources) {
            match source.and_then(|s| old_user_data.get(s)) {
                Some(chunk) => out.push(chunk.to_vec()),
                None => out.push(file::color_user_data(tag.color)),
            }
        }
    }
    out
}

/// Drops the tags of sequences that can stay untagged. A file reads its tags first and its
/// untagged frames after them, run by run in frame order, so only the last sequences can stay
/// untagged, in frame order: an untagged sequence the document places before a tagged one (a
/// duplicate, an import or a move put after it) is written as a tag, or it would reopen after.
fn leave_untagged_tail(
    tags: &mut Vec<TagRecord>,
    sources: &mut Vec<Option<usize>>,
    stays_untagged: &[bool],
) {
    let mut kept = tags.len();
    while kept > 0
        && stays_untagged[kept - 1]
        && tags
            .get(kept)
            .is_none_or(|next| tags[kept - 1].from.max(tags[kept - 1].to) < next.from.min(next.to))
    {
        kept -= 1;
    }
    tags.truncate(kept);
    sources.truncate(kept);
}

/// The user data chunks in `bytes` (chunks following one another).
fn user_data_chunks(bytes: &[u8]) -> Vec<&[u8]> {
    let mut chunks = Vec::new();
    let mut at = 0;
    while let Some(size) = file::dword(bytes, at) {
        let end = at + size as usize;
        if size < 6 || end > bytes.len() || file::word(bytes, at + 4) != Some(CHUNK_USER_DATA) {
            break;
        }
        chunks.push(&bytes[at..end]);
        at = end;
    }
    chunks
}
