//! Reshapes a document for ISPRITE before it is encoded: one direction per sequence, hold-based
//! durations at one master rate, collision boxes on every frame they apply to, and every graphic
//! a slice of a texture image (SFF sprites, whole body-part images and tileset cut-outs are
//! packed into PNG sheets). Each change that loses something is reported as a [`Loss`].
//!
//! A document read from an ISPRITE file passes through unchanged (same ids), so the writer can
//! match it against the original records.

use super::read::IMAGE_EXTENSIONS;
use crate::formats::pack;
use crate::formats::paths::relative_to;
use crate::formats::{CompanionFile, Loss, Place, WriteContext, WriteError};
use crate::model::*;
use crate::pixels::SourcePixels;
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

/// A document ready for the ISPRITE encoder, what reshaping it lost, and the packed sheets.
pub struct Prepared<'d> {
    /// The reshaped document: the document itself when it needed no change (a document read
    /// from ISPRITE usually does not), else a reshaped copy.
    pub document: Cow<'d, AnimationSet>,
    /// What ISPRITE cannot hold.
    pub losses: Vec<Loss>,
    /// PNG sheets to save beside the file.
    pub companions: Vec<CompanionFile>,
}

/// Reshapes `document`; `native` is true when it was read from an ISPRITE file.
pub fn prepare<'d>(
    document: &'d AnimationSet,
    context: &WriteContext,
    native: bool,
) -> Result<Prepared<'d>, WriteError> {
    // Every step looks before it changes anything, so an unchanged document is never copied.
    let mut p = Preparer {
        doc: Cow::Borrowed(document),
        losses: Vec::new(),
        companions: Vec::new(),
    };
    p.split_directions();
    p.durations();
    p.boxes();
    p.frame_extras();
    p.graphics(context)?;
    let moved = document
        .original
        .as_ref()
        .and_then(|o| o.path.as_deref())
        .and_then(std::path::Path::parent)
        .zip(context.dir())
        .is_some_and(|(from, to)| from != to);
    if !native || moved {
        p.texture_paths(context, native);
    }
    Ok(Prepared {
        document: p.doc,
        losses: p.losses,
        companions: p.companions,
    })
}

struct Preparer<'d> {
    doc: Cow<'d, AnimationSet>,
    losses: Vec<Loss>,
    companions: Vec<CompanionFile>,
}

impl Preparer<'_> {
    fn lose(&mut self, place: Place, what: impl Into<String>) {
        self.losses.push(Loss::new(place, what));
    }

    /// A sequence with several directions becomes a group of that name holding one sequence
    /// per direction, named by the direction's label.
    fn split_directions(&mut self) {
        if !self.doc.sequences().iter().any(|s| s.directions.len() > 1) {
            return;
        }
        let mut root = std::mem::take(&mut self.doc.to_mut().root);
        self.split_in(&mut root);
        self.doc.to_mut().root = root;
    }

    fn split_in(&mut self, group: &mut Group) {
        for item in &mut group.items {
            match item {
                TreeItem::Group(g) => self.split_in(g),
                TreeItem::Sequence(s) if s.directions.len() > 1 => {
                    let mut items = Vec::with_capacity(s.directions.len());
                    for (i, direction) in s.directions.iter().enumerate() {
                        let mut one = s.clone();
                        one.id = if i == 0 {
                            s.id
                        } else {
                            SequenceId(self.doc.to_mut().alloc_id())
                        };
                        one.name = s.direction_label(i);
                        one.directions = vec![direction.clone()];
                        items.push(TreeItem::Sequence(one));
                    }
                    self.losses.push(Loss::new(
                        Place::sequence(&s.name),
                        format!(
                            "its {} directions (ISPRITE has one per sequence; they become the sequences of group \"{}\")",
                            s.directions.len(),
                            s.name
                        ),
                    ));
                    *item = TreeItem::Group(Group {
                        id: GroupId(self.doc.to_mut().alloc_id()),
                        name: s.name.clone(),
                        items,
                    });
                }
                TreeItem::Sequence(_) => {}
            }
        }
    }

    /// Turns milliseconds, ticks and seconds into holds at one master rate: 60 fps for AIR
    /// ticks, else the smallest rate that makes every duration a whole number of holds (when it
    /// is at most 255 fps), else 60 fps with each inexact frame reported.
    fn durations(&mut self) {
        let foreign = self
            .doc
            .frames
            .values()
            .any(|f| !matches!(f.duration, FrameDuration::Holds(_)));
        if !foreign {
            return;
        }
        let master = self.doc.frame_rate.unwrap_or(0);
        let exact: Vec<Option<ExactTime>> = self
            .doc
            .frames
            .values()
            .map(|f| match f.duration {
                FrameDuration::Holds(_) if master == 0 => None,
                d => d.exact(master).filter(|_| !d.is_zero()),
            })
            .collect();
        let all_ticks = self
            .doc
            .frames
            .values()
            .all(|f| matches!(f.duration, FrameDuration::Ticks(_) | FrameDuration::Forever));
        let rate = if all_ticks {
            TICKS_PER_SECOND
        } else {
            let mut rate: u64 = 1;
            for t in exact.iter().flatten() {
                let needed = t.denominator / gcd(t.numerator, t.denominator).max(1);
                rate = lcm(rate, needed).min(u32::MAX as u64);
            }
            if rate <= 255 { rate } else { TICKS_PER_SECOND }
        };
        let places = frame_places(&self.doc);
        let last_frames = last_frames(&self.doc);
        let forever: Vec<FrameId> = self
            .doc
            .frames
            .iter()
            .filter(|(_, f)| f.duration == FrameDuration::Forever)
            .map(|(id, _)| *id)
            .collect();
        let ids: Vec<FrameId> = self.doc.frames.keys().copied().collect();
        for (id, time) in ids.into_iter().zip(exact) {
            let place = places.get(&id).cloned().unwrap_or_default();
            let duration = self.doc.frames[&id].duration;
            let holds = match (duration, time) {
                (FrameDuration::Forever, _) => {
                    if !last_frames.contains(&id) {
                        self.lose(
                            place,
                            "a frame shown forever before the end of its sequence (ISPRITE holds at most 65535; 65535 is written)",
                        );
                        u16::MAX as u32
                    } else {
                        1
                    }
                }
                (d, None) => {
                    self.lose(
                        place,
                        format!("zero-length frame ({d}), which the source skips (ISPRITE shows it for one hold)"),
                    );
                    1
                }
                (d, Some(t)) => {
                    let scaled = t.numerator as u128 * rate as u128;
                    let den = t.denominator as u128;
                    let holds = ((scaled + den / 2) / den).max(1);
                    if holds * den != scaled {
                        self.lose(
                            place,
                            format!("duration {d} (at {rate} fps it becomes {holds} holds)"),
                        );
                    }
                    holds.min(u32::MAX as u128) as u32
                }
            };
            self.doc.to_mut().frames[&id].duration = FrameDuration::Holds(holds);
        }
        // Rates come from the master rate alone now; a sequence ending on a frame shown
        // forever stops there, as in its source (it could never loop).
        for sequence in self.doc.to_mut().sequences_mut() {
            sequence.frame_rate = None;
            let ends_forever = sequence
                .directions
                .first()
                .and_then(|d| d.frames.last())
                .is_some_and(|f| forever.contains(f));
            if ends_forever {
                sequence.loop_point = None;
            }
        }
        self.doc.to_mut().frame_rate = Some(rate as u32);
    }

    /// AIR default boxes (`ClsnNDefault`) become boxes on every frame they apply to; a frame
    /// used where different boxes apply is copied.
    fn boxes(&mut self) {
        let has_defaults = self.doc.frames.values().any(|f| {
            f.box_declarations
                .iter()
                .any(|d| d.scope == BoxScope::FromHereOn)
        });
        if has_defaults {
            self.materialise_defaults();
        }
        if self
            .doc
            .frames
            .values()
            .any(|f| !f.box_declarations.is_empty())
        {
            for frame in self.doc.to_mut().frames.values_mut() {
                frame.box_declarations.clear();
            }
        }
    }

    fn materialise_defaults(&mut self) {
        let original = self.doc.frames.clone();
        let mut claimed: HashMap<FrameId, Vec<ElementId>> = HashMap::new();
        let mut copies: HashMap<(FrameId, Vec<ElementId>), FrameId> = HashMap::new();
        let mut reported = Vec::new();
        let sequence_ids: Vec<SequenceId> = self.doc.sequences().iter().map(|s| s.id).collect();
        for sid in sequence_ids {
            let sequence = self.doc.sequence(sid).expect("listed").clone();
            for (d, direction) in sequence.directions.iter().enumerate() {
                let frames: Vec<&Frame> = direction
                    .frames
                    .iter()
                    .filter_map(|f| original.get(f))
                    .collect();
                if frames.len() != direction.frames.len() {
                    continue;
                }
                let mut new_ids = direction.frames.clone();
                for (i, fid) in direction.frames.iter().enumerate() {
                    let effective = effective_boxes(&frames, i, DefaultBoxRule::ReturnToDefault);
                    let key: Vec<ElementId> = effective.iter().map(|b| b.element.id).collect();
                    if effective.iter().any(|b| b.origin != BoxOrigin::ThisFrame)
                        && !reported.contains(&sid)
                    {
                        reported.push(sid);
                        self.losses.push(Loss::new(
                            Place::sequence(&sequence.name),
                            "AIR default boxes (ClsnNDefault): ISPRITE has none, so they are copied onto each frame they apply to",
                        ));
                    }
                    let boxes: Vec<Element> = effective.iter().map(|b| b.element.clone()).collect();
                    match claimed.get(fid) {
                        None => {
                            claimed.insert(*fid, key.clone());
                            let fresh = self.with_boxes(&original[fid], &boxes, false);
                            self.doc.to_mut().frames[fid] = fresh;
                        }
                        Some(existing) if *existing == key => {}
                        Some(_) => {
                            let copy = match copies.get(&(*fid, key.clone())) {
                                Some(copy) => *copy,
                                None => {
                                    let copy = FrameId(self.doc.to_mut().alloc_id());
                                    let frame = self.with_boxes(&original[fid], &boxes, true);
                                    self.doc.to_mut().frames.insert(copy, frame);
                                    copies.insert((*fid, key), copy);
                                    copy
                                }
                            };
                            new_ids[i] = copy;
                        }
                    }
                }
                if let Some(s) = self.doc.to_mut().sequence_mut(sid) {
                    s.directions[d].frames = new_ids;
                }
            }
        }
    }

    /// `frame` with its boxes replaced by `boxes`; boxes from other frames (and every element
    /// of a copy) get fresh ids.
    fn with_boxes(&mut self, frame: &Frame, boxes: &[Element], copy: bool) -> Frame {
        let own: Vec<ElementId> = frame.elements.iter().map(|e| e.id).collect();
        let mut out = frame.clone();
        out.elements.retain(|e| e.as_box().is_none());
        out.elements.extend(boxes.iter().cloned());
        for e in &mut out.elements {
            if copy || !own.contains(&e.id) {
                e.id = ElementId(self.doc.to_mut().alloc_id());
            }
        }
        out
    }

    /// Interpolation flags have no ISPRITE field.
    fn frame_extras(&mut self) {
        if self.doc.frames.values().all(|f| f.interpolation.is_none()) {
            return;
        }
        let places = frame_places(&self.doc);
        let ids: Vec<FrameId> = self.doc.frames.keys().copied().collect();
        for id in ids {
            if !self.doc.frames[&id].interpolation.is_none() {
                let frame = &mut self.doc.to_mut().frames[&id];
                let i = frame.interpolation;
                frame.interpolation = Interpolation::default();
                let what: Vec<&str> = [
                    (i.offset, "offset"),
                    (i.blend, "blend"),
                    (i.scale, "scale"),
                    (i.angle, "angle"),
                ]
                .iter()
                .filter(|(on, _)| *on)
                .map(|(_, n)| *n)
                .collect();
                self.lose(
                    places.get(&id).cloned().unwrap_or_default(),
                    format!(
                        "per-frame interpolation of {} (ISPRITE has no interpolation settings)",
                        what.join(", ")
                    ),
                );
            }
        }
    }

    /// The slices that cut from something other than an image file (a tileset, an archive):
    /// their graphics are packed like whole images and SFF sprites.
    fn slices_to_pack(&self) -> HashSet<SliceId> {
        let non_file: HashSet<ImageId> = self
            .doc
            .images
            .iter()
            .filter(|i| i.kind != ImageKind::File)
            .map(|i| i.id)
            .collect();
        self.doc
            .slices
            .iter()
            .filter(|s| non_file.contains(&s.image))
            .map(|s| s.id)
            .collect()
    }

    /// Packs every graphic that is not a slice of an image file into PNG sheets.
    fn graphics(&mut self, context: &WriteContext) -> Result<(), WriteError> {
        // Blank AIR sprites draw nothing: the frame stays, the element goes.
        let is_blank = |e: &Element| e.as_graphic().is_some_and(|g| g.source.is_blank());
        if self
            .doc
            .frames
            .values()
            .any(|f| f.elements.iter().any(is_blank))
        {
            for frame in self.doc.to_mut().frames.values_mut() {
                frame.elements.retain(|e| !is_blank(e));
            }
        }
        let mut sources: Vec<GraphicSource> = Vec::new();
        let slices_to_pack = self.slices_to_pack();
        let needs_packing = |source: &GraphicSource| match source {
            GraphicSource::Slice(id) => slices_to_pack.contains(id),
            GraphicSource::Image(_) | GraphicSource::SffSprite { .. } => true,
        };
        let mut seen: HashSet<&GraphicSource> = HashSet::new();
        for frame in self.doc.frames.values() {
            for g in frame.elements.iter().filter_map(Element::as_graphic) {
                if needs_packing(&g.source) && seen.insert(&g.source) {
                    sources.push(g.source.clone());
                }
            }
        }
        if sources.is_empty() {
            return Ok(());
        }
        let Some(pixels) = context.pixels else {
            return Err(WriteError::new(
                "this document draws from SFF sprites or whole images; writing ISPRITE packs them into PNG sheets and needs their pixels",
            ));
        };
        let mut found: Vec<(GraphicSource, SourcePixels)> = Vec::new();
        let mut missing = Vec::new();
        for source in sources {
            match pixels.pixels(&self.doc, &source) {
                Some(p) if p.image.width() > 0 && p.image.height() > 0 => found.push((source, p)),
                _ => missing.push(source),
            }
        }
        let places = frame_places(&self.doc);
        let ids: Vec<FrameId> = self.doc.frames.keys().copied().collect();
        for id in &ids {
            let frame = &self.doc.frames[id];
            let gone: Vec<String> = frame
                .elements
                .iter()
                .filter(|e| e.as_graphic().is_some_and(|g| missing.contains(&g.source)))
                .map(|e| format!("{:?}", e.as_graphic().expect("graphic").source))
                .collect();
            for what in gone {
                self.lose(
                    places.get(id).cloned().unwrap_or_default(),
                    format!("graphic {what}, whose pixels could not be loaded (dropped)"),
                );
            }
            self.doc.to_mut().frames[id]
                .elements
                .retain(|e| !e.as_graphic().is_some_and(|g| missing.contains(&g.source)));
        }
        let sizes: Vec<(u32, u32)> = found
            .iter()
            .map(|(_, p)| (p.image.width(), p.image.height()))
            .collect();
        let (placements, sheet_sizes) = pack::place(&sizes);
        let images: Vec<&image::RgbaImage> = found.iter().map(|(_, p)| p.image.as_ref()).collect();
        let sheets = pack::draw(&images, &placements, &sheet_sizes);
        let stem = context.file_stem("sprite");
        let mut sheet_ids = Vec::with_capacity(sheets.len());
        for (n, sheet) in sheets.iter().enumerate() {
            let name = format!("{stem}-sheet{n}");
            let bytes = pack::png(sheet)
                .map_err(|e| WriteError::new(format!("cannot encode sheet {name}.png: {e}")))?;
            self.companions.push(CompanionFile {
                relative_path: format!("{name}.png"),
                bytes,
            });
            let id = ImageId(self.doc.to_mut().alloc_id());
            self.doc.to_mut().images.push(SourceImage {
                id,
                path: name.clone(),
                resolved: context.dir().map(|d| d.join(format!("{name}.png"))),
                kind: ImageKind::File,
                nearest_neighbour: true,
            });
            sheet_ids.push(id);
        }
        let mut replacement: HashMap<GraphicSource, (SliceId, (i32, i32))> = HashMap::new();
        for ((source, p), place) in found.iter().zip(&placements) {
            let id = SliceId(self.doc.to_mut().alloc_id());
            self.doc.to_mut().slices.push(Slice {
                id,
                image: sheet_ids[place.sheet],
                rect: PixelRect {
                    x: place.x as i32,
                    y: place.y as i32,
                    width: p.image.width(),
                    height: p.image.height(),
                },
                rotated: false,
            });
            replacement.insert(source.clone(), (id, p.axis));
        }
        for frame in self.doc.to_mut().frames.values_mut() {
            for element in &mut frame.elements {
                if let ElementKind::Graphic(g) = &mut element.kind
                    && let Some((slice, axis)) = replacement.get(&g.source)
                {
                    g.source = GraphicSource::Slice(*slice);
                    if g.origin == Origin::SourceAxis {
                        g.origin = Origin::At(Point::from_ints(axis.0, axis.1));
                    }
                }
            }
        }
        // Archives, tilesets and whole images now live in the sheets.
        let used_whole: Vec<ImageId> = replacement
            .keys()
            .filter_map(|s| match s {
                GraphicSource::Image(id) => Some(*id),
                _ => None,
            })
            .collect();
        let slice_images: Vec<ImageId> = self.doc.slices.iter().map(|s| s.image).collect();
        // A file image stays while a slice still cuts from it or it was never drawn whole.
        self.doc.to_mut().images.retain(|i| {
            let still_cut = slice_images.contains(&i.id);
            i.kind == ImageKind::File && (still_cut || !used_whole.contains(&i.id))
        });
        let kept: Vec<ImageId> = self.doc.images.iter().map(|i| i.id).collect();
        self.doc.to_mut().slices.retain(|s| kept.contains(&s.image));
        Ok(())
    }

    /// Texture names carry no extension and are relative to the written file. A document
    /// read from ISPRITE and saved to another folder only rebases the textures it found (their
    /// stored names have no extension to strip).
    fn texture_paths(&mut self, context: &WriteContext, native: bool) {
        for index in 0..self.doc.images.len() {
            let image = &self.doc.images[index];
            let rebased = match (context.dir(), &image.resolved) {
                (Some(dir), Some(resolved)) => relative_to(dir, resolved),
                _ => None,
            };
            if native && rebased.is_none() {
                continue;
            }
            let mut path = rebased.unwrap_or_else(|| image.path.clone());
            let lower = path.to_ascii_lowercase();
            if let Some(ext) = IMAGE_EXTENSIONS
                .iter()
                .find(|ext| lower.ends_with(&format!(".{ext}")))
            {
                path.truncate(path.len() - ext.len() - 1);
            }
            let path = path.replace('\\', "/");
            if path != image.path {
                self.doc.to_mut().images[index].path = path;
            }
        }
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

fn lcm(a: u64, b: u64) -> u64 {
    if a == 0 || b == 0 {
        return a.max(b);
    }
    (a / gcd(a, b)).saturating_mul(b)
}

/// Where each frame is first used, for loss reports.
fn frame_places(doc: &AnimationSet) -> HashMap<FrameId, Place> {
    let mut out = HashMap::new();
    for s in doc.sequences() {
        for (d, direction) in s.directions.iter().enumerate() {
            for (i, f) in direction.frames.iter().enumerate() {
                out.entry(*f).or_insert_with(|| Place::frame(&s.name, d, i));
            }
        }
    }
    for (i, id) in doc.frames.keys().enumerate() {
        out.entry(*id)
            .or_insert_with(|| Place::document().element(format!("unused frame {i}")));
    }
    out
}

/// Frames that end a sequence (a frame shown forever there is the same as stopping on it).
fn last_frames(doc: &AnimationSet) -> Vec<FrameId> {
    doc.sequences()
        .iter()
        .flat_map(|s| s.directions.iter().filter_map(|d| d.frames.last().copied()))
        .collect()
}
