//! Builds the raw file from the model. Where the document was read from an ISPRITE file, every
//! record keeps what the model does not hold (reserved bytes, stride extras, flag bits, element
//! kinds, unknown chunks and elements, name indices) from the record it came from, so only
//! what was edited changes.

use super::bytes::{fits_fixed, text};
use super::elements::{Body, EXPANDED_GRAPHIC, RawShape, Transform};
use super::frames::{RawElement, RawFrame, RawFrames};
use super::meta::{META_STRINGS, RawMeta, RawMetaPlus, read_date, write_date};
use super::raw::{ChunkKind, RawChunk, RawFile, RawHeader};
use super::read::{
    DEFAULT_SEQUENCE_KEY, Reading, SEQUENCE_RATE_KEY, class_from_name, default_origin,
    loop_point, sequence_path,
};
use super::textures::{RawNames, RawSlice, RawSlices, RawTexture, RawTextures, SLICE_LEN};
use super::tier::{NO_LOOP, RawSequence, RawTier, RawTierItem};
use crate::formats::{Loss, Place, WriteError};
use crate::model::*;
use std::collections::HashMap;

/// Encodes a document whose graphics are all slices of texture images and whose durations are
/// holds (see `convert.rs` for everything else). `original` is the reading of the file the
/// document came from, when it came from an ISPRITE file.
pub fn encode(
    doc: &AnimationSet,
    original: Option<&Reading>,
    losses: &mut Vec<Loss>,
) -> Result<Vec<u8>, WriteError> {
    let mut w = Writer::new(doc, original, losses)?;
    let raw = w.file();
    Ok(raw.encode())
}

/// Keeps the stored bytes of a string when they still read as the model's text (invalid UTF-8
/// and cut strings survive unedited).
fn keep_text(model: &str, stored: Option<&[u8]>) -> Vec<u8> {
    match stored {
        Some(bytes) if text(bytes) == model => bytes.to_vec(),
        _ => model.as_bytes().to_vec(),
    }
}

struct OriginalElement<'a> {
    raw: &'a RawElement,
    body: Option<Body>,
}

struct Writer<'a> {
    doc: &'a AnimationSet,
    original: Option<&'a Reading>,
    losses: &'a mut Vec<Loss>,
    image_index: HashMap<ImageId, u8>,
    slice_index: HashMap<SliceId, usize>,
    frame_index: HashMap<FrameId, usize>,
    original_frames: HashMap<FrameId, &'a RawFrame>,
    original_elements: HashMap<ElementId, OriginalElement<'a>>,
    /// Unknown element records by frame, each after the element it followed (`None` = first).
    unknown_elements: HashMap<FrameId, Vec<(Option<ElementId>, &'a RawElement)>>,
    places: HashMap<FrameId, Place>,
    names: Vec<Vec<u8>>,
    name_index: HashMap<String, u16>,
}

impl<'a> Writer<'a> {
    fn new(
        doc: &'a AnimationSet,
        original: Option<&'a Reading>,
        losses: &'a mut Vec<Loss>,
    ) -> Result<Writer<'a>, WriteError> {
        if doc.images.len() > 255 {
            return Err(WriteError::new(format!(
                "ISPRITE holds at most 255 textures; this document has {}",
                doc.images.len()
            )));
        }
        let mut w = Writer {
            doc,
            original,
            losses,
            image_index: doc
                .images
                .iter()
                .enumerate()
                .map(|(i, img)| (img.id, i as u8))
                .collect(),
            slice_index: doc
                .slices
                .iter()
                .enumerate()
                .map(|(i, s)| (s.id, i))
                .collect(),
            frame_index: doc
                .frames
                .keys()
                .enumerate()
                .map(|(i, id)| (*id, i))
                .collect(),
            original_frames: HashMap::new(),
            original_elements: HashMap::new(),
            unknown_elements: HashMap::new(),
            places: HashMap::new(),
            names: Vec::new(),
            name_index: HashMap::new(),
        };
        w.index_original();
        w.index_places();
        Ok(w)
    }

    fn index_original(&mut self) {
        let Some(reading) = self.original else {
            return;
        };
        if let Some(RawChunk::Names(names)) = reading.raw.chunk(ChunkKind::Names) {
            for (i, n) in names.names.iter().enumerate() {
                self.name_index.entry(text(n)).or_insert(i as u16);
            }
            self.names = names.names.clone();
        }
        let Some(RawChunk::Frames(frames)) = reading.raw.chunk(ChunkKind::Frames) else {
            return;
        };
        for ((raw, id), elements) in frames
            .frames
            .iter()
            .zip(&reading.origins.frames)
            .zip(&reading.origins.elements)
        {
            self.original_frames.insert(*id, raw);
            let mut previous = None;
            for (element, eid) in raw.elements.iter().zip(elements) {
                match eid {
                    Some(eid) => {
                        self.original_elements.insert(
                            *eid,
                            OriginalElement {
                                raw: element,
                                body: Body::decode(element),
                            },
                        );
                        previous = Some(*eid);
                    }
                    None => self
                        .unknown_elements
                        .entry(*id)
                        .or_default()
                        .push((previous, element)),
                }
            }
        }
    }

    fn index_places(&mut self) {
        for sequence in self.doc.sequences() {
            for (d, direction) in sequence.directions.iter().enumerate() {
                for (i, frame) in direction.frames.iter().enumerate() {
                    self.places
                        .entry(*frame)
                        .or_insert_with(|| Place::frame(&sequence.name, d, i));
                }
            }
        }
    }

    fn place(&self, frame: FrameId) -> Place {
        self.places.get(&frame).cloned().unwrap_or_else(|| Place {
            element: Some(format!(
                "unused frame {}",
                self.frame_index.get(&frame).copied().unwrap_or(0)
            )),
            ..Place::default()
        })
    }

    fn lose(&mut self, place: Place, what: impl Into<String>) {
        self.losses.push(Loss::new(place, what));
    }

    fn original_chunk(&self, kind: ChunkKind) -> Option<&'a RawChunk> {
        self.original.and_then(|r| r.raw.chunk(kind))
    }

    fn file(&mut self) -> RawFile {
        let header = self.header();
        let tier = self.tier();
        let frames = self.frames(&tier);
        let mut fresh: Vec<(ChunkKind, RawChunk)> = Vec::new();
        if let Some(meta) = self.meta() {
            fresh.push((ChunkKind::Meta, RawChunk::Meta(meta)));
        }
        if let Some(plus) = self.meta_plus() {
            fresh.push((ChunkKind::MetaPlus, RawChunk::MetaPlus(plus)));
        }
        fresh.push((ChunkKind::Textures, RawChunk::Textures(self.textures())));
        fresh.push((ChunkKind::Slices, RawChunk::Slices(self.slices())));
        fresh.push((
            ChunkKind::Names,
            RawChunk::Names(RawNames {
                names: std::mem::take(&mut self.names),
                tail: match self.original_chunk(ChunkKind::Names) {
                    Some(RawChunk::Names(n)) => n.tail.clone(),
                    _ => Vec::new(),
                },
            }),
        ));
        fresh.push((ChunkKind::Tier, RawChunk::Tier(tier)));
        fresh.push((ChunkKind::Frames, RawChunk::Frames(frames)));
        let chunks = self.arrange(fresh);
        RawFile {
            header,
            chunks,
            trailer: self
                .original
                .map(|r| r.raw.trailer.clone())
                .unwrap_or_default(),
        }
    }

    /// Puts the new chunks where the original file had them (unknown chunks and duplicates stay
    /// in place); chunks the original lacked go at their D11 position.
    fn arrange(&self, fresh: Vec<(ChunkKind, RawChunk)>) -> Vec<RawChunk> {
        let Some(reading) = self.original else {
            return fresh.into_iter().map(|(_, c)| c).collect();
        };
        let mut fresh: HashMap<ChunkKind, RawChunk> = fresh.into_iter().collect();
        let mut out: Vec<(Option<ChunkKind>, RawChunk)> = Vec::new();
        let mut placed = Vec::new();
        for chunk in &reading.raw.chunks {
            match chunk.kind() {
                Some(kind) if !placed.contains(&kind) => {
                    placed.push(kind);
                    if let Some(c) = fresh.remove(&kind) {
                        out.push((Some(kind), c));
                    }
                }
                _ => out.push((None, chunk.clone())),
            }
        }
        for kind in ChunkKind::ALL {
            if let Some(c) = fresh.remove(&kind) {
                let at = out
                    .iter()
                    .position(|(k, _)| k.is_some_and(|k| k > kind))
                    .unwrap_or(out.len());
                out.insert(at, (Some(kind), c));
            }
        }
        out.into_iter().map(|(_, c)| c).collect()
    }

    fn header(&mut self) -> RawHeader {
        let mut header = self
            .original
            .map(|r| r.raw.header.clone())
            .unwrap_or_default();
        let rate = self.doc.frame_rate.unwrap_or(header.frame_rate as u32);
        if rate > 255 {
            self.lose(
                Place::document(),
                format!("master frame rate {rate} fps (ISPRITE holds at most 255; 255 is written)"),
            );
        }
        header.frame_rate = rate.min(255) as u8;
        header
    }

    fn meta(&mut self) -> Option<RawMeta> {
        let m = &self.doc.metadata;
        let original = match self.original_chunk(ChunkKind::Meta) {
            Some(RawChunk::Meta(meta)) => Some(meta),
            _ => None,
        };
        let strings = [
            &m.tags,
            &m.title,
            &m.project,
            &m.author,
            &m.company,
            &m.contact,
            &m.url,
            &m.copyright,
            &m.comments,
            &m.originating_program,
            &m.program,
        ];
        let has_content = strings.iter().any(|s| !s.is_empty())
            || m.created.is_some()
            || m.saved.is_some()
            || m.work_time_ms != 0;
        if original.is_none() && !has_content {
            return None;
        }
        let last_used = strings.iter().rposition(|s| !s.is_empty()).map_or(0, |i| i + 1);
        let count = match original {
            Some(o) => o.strings.len().max(last_used),
            None => META_STRINGS,
        };
        let date = |stored: Option<&[u8; 8]>, value: Option<&Timestamp>| match stored {
            Some(bytes) if read_date(bytes).as_ref() == value => *bytes,
            _ => write_date(value),
        };
        Some(RawMeta {
            created: date(original.map(|o| &o.created), m.created.as_ref()),
            saved: date(original.map(|o| &o.saved), m.saved.as_ref()),
            work_time_ms: m.work_time_ms,
            strings: strings[..count]
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    keep_text(s, original.and_then(|o| o.strings.get(i)).map(|v| v.as_slice()))
                })
                .collect(),
            tail: original.map(|o| o.tail.clone()).unwrap_or_default(),
        })
    }

    fn meta_plus(&mut self) -> Option<RawMetaPlus> {
        let original = match self.original_chunk(ChunkKind::MetaPlus) {
            Some(RawChunk::MetaPlus(m)) => Some(m),
            _ => None,
        };
        // The pairs the model holds outside `extra`.
        let mut rates: Vec<(String, String)> = Vec::new();
        let mut groups: Vec<&str> = Vec::new();
        collect_rates(&self.doc.root, &mut groups, &mut rates);
        let mut default = self.doc.default_sequence.and_then(|id| {
            let path = self.doc.group_path(id);
            let sequence = self.doc.sequence(id)?;
            let names: Vec<&str> = path.iter().skip(1).map(|g| g.name.as_str()).collect();
            Some((
                DEFAULT_SEQUENCE_KEY.to_string(),
                sequence_path(&names, &sequence.name),
            ))
        });
        let mut extras: std::collections::VecDeque<&(String, String)> =
            self.doc.metadata.extra.iter().collect();
        if original.is_none() && extras.is_empty() && rates.is_empty() && default.is_none() {
            return None;
        }
        let mut pairs: Vec<(String, String)> = Vec::new();
        // Follow the original order: each stored pair's slot gets the current pair of its kind.
        for (name, _) in original.map(|o| o.pairs.as_slice()).unwrap_or_default() {
            let name = text(name);
            if name == DEFAULT_SEQUENCE_KEY && default.is_some() {
                pairs.push(default.take().expect("checked"));
            } else if let Some(at) = rates.iter().position(|(n, _)| *n == name) {
                pairs.push(rates.remove(at));
            } else if let Some(extra) = extras.pop_front() {
                pairs.push(extra.clone());
            }
        }
        pairs.extend(extras.into_iter().cloned());
        pairs.extend(rates);
        pairs.extend(default);
        let stored: Vec<&(Vec<u8>, Vec<u8>)> =
            original.map(|o| o.pairs.iter().collect()).unwrap_or_default();
        Some(RawMetaPlus {
            pairs: pairs
                .into_iter()
                .enumerate()
                .map(|(i, (n, v))| {
                    let s = stored.get(i);
                    (
                        keep_text(&n, s.map(|p| p.0.as_slice())),
                        keep_text(&v, s.map(|p| p.1.as_slice())),
                    )
                })
                .collect(),
            tail: original.map(|o| o.tail.clone()).unwrap_or_default(),
        })
    }

    fn textures(&mut self) -> RawTextures {
        let (stride, by_id, tail) = match (self.original, self.original_chunk(ChunkKind::Textures))
        {
            (Some(reading), Some(RawChunk::Textures(t))) => (
                t.stride.max(1),
                reading
                    .origins
                    .images
                    .iter()
                    .zip(&t.textures)
                    .map(|(id, raw)| (*id, raw))
                    .collect(),
                t.tail.clone(),
            ),
            _ => (1, HashMap::new(), Vec::new()),
        };
        let textures = self
            .doc
            .images
            .iter()
            .map(|image| {
                let stored: Option<&RawTexture> = by_id.get(&image.id).copied();
                let mut extra = stored.map(|t| t.extra.clone()).unwrap_or_default();
                extra.resize(stride as usize - 1, 0);
                RawTexture {
                    flags: (stored.map_or(0, |t| t.flags) & !1) | image.nearest_neighbour as u8,
                    extra,
                    name: keep_text(&image.path, stored.map(|t| t.name.as_slice())),
                }
            })
            .collect();
        RawTextures {
            stride,
            textures,
            tail,
        }
    }

    fn slices(&mut self) -> RawSlices {
        let (stride, by_id, tail) = match (self.original, self.original_chunk(ChunkKind::Slices)) {
            (Some(reading), Some(RawChunk::Slices(s))) => (
                s.stride,
                reading
                    .origins
                    .slices
                    .iter()
                    .zip(&s.slices)
                    .map(|(id, raw)| (*id, raw))
                    .collect(),
                s.tail.clone(),
            ),
            _ => (SLICE_LEN as u8, HashMap::new(), Vec::new()),
        };
        let mut out = Vec::with_capacity(self.doc.slices.len());
        for (index, slice) in self.doc.slices.iter().enumerate() {
            let stored: Option<&RawSlice> = by_id.get(&slice.id).copied();
            let texture = match self.image_index.get(&slice.image) {
                Some(t) => *t,
                None => stored.map_or(255, |s| s.texture),
            };
            let r = slice.rect;
            let fits = |v: i64| (0..=u16::MAX as i64).contains(&v);
            if !(fits(r.x as i64) && fits(r.y as i64) && fits(r.width as i64) && fits(r.height as i64))
            {
                self.lose(
                    Place::document().element(format!("slice {index}")),
                    format!(
                        "slice rectangle {}x{} at ({}, {}) (texture coordinates are 0..65535; clamped)",
                        r.width, r.height, r.x, r.y
                    ),
                );
            }
            let clamp = |v: i64| v.clamp(0, u16::MAX as i64) as u16;
            let mut extra = stored.map(|s| s.extra.clone()).unwrap_or_default();
            extra.resize(stride as usize - SLICE_LEN, 0);
            out.push(RawSlice {
                texture,
                flags: (stored.map_or(0, |s| s.flags) & !1) | slice.rotated as u8,
                x: clamp(r.x as i64),
                y: clamp(r.y as i64),
                width: clamp(r.width as i64),
                height: clamp(r.height as i64),
                extra,
            });
        }
        RawSlices {
            stride,
            slices: out,
            tail,
        }
    }

    fn tier(&mut self) -> RawTier {
        let mut items = Vec::new();
        let root = &self.doc.root;
        self.tier_group(root, &mut items);
        RawTier {
            items,
            tail: match self.original_chunk(ChunkKind::Tier) {
                Some(RawChunk::Tier(t)) => t.tail.clone(),
                _ => Vec::new(),
            },
        }
    }

    fn tier_group(&mut self, group: &'a Group, items: &mut Vec<RawTierItem>) {
        for item in &group.items {
            match item {
                TreeItem::Group(g) => {
                    items.push(RawTierItem::Group(g.name.as_bytes().to_vec()));
                    self.tier_group(g, items);
                    items.push(RawTierItem::Close(super::tier::CLOSE));
                }
                TreeItem::Sequence(s) => {
                    let raw = self.tier_sequence(s);
                    items.push(RawTierItem::Sequence(raw));
                }
            }
        }
    }

    fn tier_sequence(&mut self, s: &Sequence) -> RawSequence {
        let stored = self.original.and_then(|r| r.origins.sequences.get(&s.id));
        if s.directions.len() > 1 {
            self.lose(
                Place::sequence(&s.name),
                format!(
                    "directions 1 to {} (an ISPRITE sequence has one direction)",
                    s.directions.len() - 1
                ),
            );
        }
        let mut frames = Vec::new();
        for (i, id) in s.directions.first().map(|d| d.frames.as_slice()).unwrap_or_default().iter().enumerate() {
            match self.frame_index.get(id) {
                Some(index) => frames.push(*index as u32),
                None => self.lose(
                    Place::frame(&s.name, 0, i),
                    format!("frame {id}, which the document does not hold"),
                ),
            }
        }
        let count = frames.len();
        let loop_value = match s.loop_point {
            None => match stored {
                Some(st) if st.loop_point != NO_LOOP && loop_point(st.loop_point, count).is_none() => {
                    st.loop_point
                }
                _ => NO_LOOP,
            },
            Some(v) => {
                if v + 1 >= count {
                    self.lose(
                        Place::sequence(&s.name),
                        format!(
                            "loop point {v} on or past the last frame (ISPRITE stops there instead of looping; the last frame stays on screen)"
                        ),
                    );
                }
                v.min(NO_LOOP as usize - 1) as u32
            }
        };
        if s.on_end == EndBehavior::Disappear {
            self.lose(
                Place::sequence(&s.name),
                "disappearing at the end (ISPRITE keeps the last frame on screen)",
            );
        }
        RawSequence {
            loop_point: loop_value,
            name: keep_text(&s.name, stored.map(|st| st.name.as_slice())),
            follow_up: keep_text(
                s.follow_up.as_deref().unwrap_or(""),
                stored.map(|st| st.follow_up.as_slice()),
            ),
            frames,
        }
    }

    fn frames(&mut self, tier: &RawTier) -> RawFrames {
        // Which frames are loop points (D8): only decided for frames in exactly one sequence.
        let mut membership: HashMap<u32, (usize, bool)> = HashMap::new();
        for (n, item) in tier.items.iter().enumerate() {
            if let RawTierItem::Sequence(s) = item {
                let mut seen_here = Vec::new();
                for (position, f) in s.frames.iter().enumerate() {
                    let is_loop = position as u32 == s.loop_point;
                    let entry = membership.entry(*f).or_insert((n, false));
                    if entry.0 != n && !seen_here.contains(f) {
                        entry.0 = usize::MAX;
                    }
                    entry.1 |= is_loop;
                    seen_here.push(*f);
                }
            }
        }
        let ids: Vec<FrameId> = self.doc.frames.keys().copied().collect();
        let mut frames = Vec::with_capacity(ids.len());
        for (index, id) in ids.iter().enumerate() {
            let loop_bit = match membership.get(&(index as u32)) {
                Some((owner, is_loop)) if *owner != usize::MAX => Some(*is_loop),
                _ => None,
            };
            frames.push(self.frame(*id, loop_bit));
        }
        let max = frames.iter().map(|f| f.elements.len()).max().unwrap_or(0);
        RawFrames {
            max_elements: max.min(u16::MAX as usize) as u16,
            frames,
            tail: match self.original_chunk(ChunkKind::Frames) {
                Some(RawChunk::Frames(f)) => f.tail.clone(),
                _ => Vec::new(),
            },
        }
    }

    fn frame(&mut self, id: FrameId, loop_bit: Option<bool>) -> RawFrame {
        let frame = &self.doc.frames[&id];
        let stored = self.original_frames.get(&id).copied();
        let place = self.place(id);
        let hold = match frame.duration {
            FrameDuration::Holds(h) => {
                if h > u16::MAX as u32 {
                    self.lose(place.clone(), format!("hold time {h} (at most 65535; 65535 is written)"));
                }
                h.min(u16::MAX as u32) as u16
            }
            other => {
                self.lose(place.clone(), format!("duration {other} (written as 1 hold)"));
                1
            }
        };
        let stored_flags = stored.map_or(0, |f| f.flags);
        let bit = loop_bit.unwrap_or(stored_flags & 1 != 0) as u8;
        let mut elements = Vec::with_capacity(frame.elements.len());
        let unknown = self.unknown_elements.remove(&id).unwrap_or_default();
        let mut pending: Vec<(Option<ElementId>, &RawElement)> = unknown;
        let take_after = |pending: &mut Vec<(Option<ElementId>, &'a RawElement)>,
                          after: Option<ElementId>,
                          out: &mut Vec<RawElement>| {
            pending.retain(|(p, e)| {
                if *p == after {
                    out.push((*e).clone());
                    false
                } else {
                    true
                }
            });
        };
        take_after(&mut pending, None, &mut elements);
        for element in &frame.elements {
            if let Some(raw) = self.element(element, &place) {
                elements.push(raw);
            }
            take_after(&mut pending, Some(element.id), &mut elements);
        }
        elements.extend(pending.into_iter().map(|(_, e)| e.clone()));
        if elements.len() > u16::MAX as usize {
            self.lose(place.clone(), format!("elements past the 65535th of {}", elements.len()));
            elements.truncate(u16::MAX as usize);
        }
        let mut raw = RawFrame {
            size_field: 0,
            hold,
            flags: (stored_flags & !1) | bit,
            label: keep_text(&frame.label, stored.map(|f| f.label.as_slice())),
            triggers: keep_text(&frame.triggers, stored.map(|f| f.triggers.as_slice())),
            notes: keep_text(&frame.notes, stored.map(|f| f.notes.as_slice())),
            elements,
        };
        let len = raw.content_len() as i64;
        let delta = stored.map_or(0, |f| f.size_field as i64 - f.content_len() as i64);
        raw.size_field = (len + delta).clamp(0, u32::MAX as i64) as u32;
        raw
    }

    fn name_index(&mut self, name: &str, stored: Option<u16>, place: &Place) -> u16 {
        if let Some(index) = stored {
            let decoded = match index {
                u16::MAX => String::new(),
                i => self.names.get(i as usize).map(|n| text(n)).unwrap_or_default(),
            };
            if decoded == name {
                return index;
            }
        }
        if name.is_empty() {
            return u16::MAX;
        }
        if let Some(index) = self.name_index.get(name) {
            return *index;
        }
        if self.names.len() >= u16::MAX as usize {
            self.lose(place.clone(), format!("element name \"{name}\" (the name table is full)"));
            return u16::MAX;
        }
        let index = self.names.len() as u16;
        self.names.push(name.as_bytes().to_vec());
        self.name_index.insert(name.to_string(), index);
        index
    }

    fn fixed(&mut self, value: Fx, what: &str, place: &Place) -> Fx {
        if fits_fixed(value) {
            return value;
        }
        self.lose(
            place.clone(),
            format!("{what} {value} px (outside -32768..32767; clamped)"),
        );
        Fx(value.0.clamp(i16::MIN as i32 * 256, i16::MAX as i32 * 256 + 255))
    }

    fn real(&mut self, value: f64, what: &str, place: &Place) -> Fx {
        let fx = Fx::from_f64(value);
        if fx.to_f64() != value && value.is_finite() {
            self.lose(
                place.clone(),
                format!("{what} {value} (ISPRITE stores 1/256 steps; {} is written)", fx.to_f64()),
            );
        }
        self.fixed(fx, what, place)
    }

    fn point(&mut self, p: Point, what: &str, place: &Place) -> Point {
        Point {
            x: self.fixed(p.x, &format!("{what} x"), place),
            y: self.fixed(p.y, &format!("{what} y"), place),
        }
    }

    fn transform(
        &mut self,
        rotation: f64,
        scale_x: f64,
        scale_y: f64,
        opacity: u16,
        place: &Place,
    ) -> Transform {
        Transform {
            rotation: self.real(rotation, "rotation", place),
            scale_x: self.real(scale_x, "horizontal scale", place),
            scale_y: self.real(scale_y, "vertical scale", place),
            opacity,
        }
    }

    fn element(&mut self, element: &Element, frame_place: &Place) -> Option<RawElement> {
        let stored = self.original_elements.get(&element.id);
        let stored_name = stored.map(|s| s.raw.name);
        let stored_body = stored.and_then(|s| s.body.clone());
        let stored_marker = stored.map(|s| s.raw.marker);
        let label = if element.name.is_empty() {
            format!("element {}", element.id)
        } else {
            format!("element \"{}\"", element.name)
        };
        let place = frame_place.clone().element(label);
        let mut name = element.name.clone();
        let body = match &element.kind {
            ElementKind::Graphic(g) => {
                let slice = match &g.source {
                    GraphicSource::Slice(id) => match self.slice_index.get(id) {
                        Some(i) if *i <= u16::MAX as usize => *i as u16,
                        // An index that was past the table when read stays as it was.
                        None if id.0 >= u64::MAX - u16::MAX as u64 => (u64::MAX - id.0) as u16,
                        _ => {
                            self.lose(place, "graphic whose slice ISPRITE cannot reach (dropped)");
                            return None;
                        }
                    },
                    other => {
                        self.lose(place, format!("graphic from {other:?} (not a slice; dropped)"));
                        return None;
                    }
                };
                let origin = match g.origin {
                    Origin::At(p) => p,
                    Origin::SourceAxis => {
                        self.lose(place.clone(), "the source's own axis as origin (0, 0 is used)");
                        Point::ZERO
                    }
                };
                if g.blend != BlendMode::Normal {
                    self.lose(place.clone(), format!("blend mode {:?}", g.blend));
                }
                let default = self
                    .doc
                    .slices
                    .get(slice as usize)
                    .map(|s| default_origin(&s.rect));
                let plain = g.rotation == 0.0
                    && g.scale_x == 1.0
                    && g.scale_y == 1.0
                    && g.opacity == OPAQUE
                    && Some(origin) == default;
                // A stored expanded graphic stays expanded; otherwise simple when it can be.
                let expanded_now = stored_marker == Some(EXPANDED_GRAPHIC) || !plain;
                let (old_mirror, old_extra) = match &stored_body {
                    Some(Body::Graphic { mirror, expanded, extra, .. }) => (
                        *mirror,
                        if expanded.is_some() == expanded_now { extra.clone() } else { Vec::new() },
                    ),
                    _ => (0, Vec::new()),
                };
                let expanded = if expanded_now {
                    let origin = self.point(origin, "origin", &place);
                    let t = self.transform(g.rotation, g.scale_x, g.scale_y, g.opacity, &place);
                    Some((origin, t))
                } else {
                    None
                };
                Body::Graphic {
                    slice,
                    position: self.point(g.position - origin, "position", &place),
                    mirror: (old_mirror & !3) | g.flip_h as u8 | (g.flip_v as u8) << 1,
                    expanded,
                    extra: old_extra,
                }
            }
            ElementKind::Point(p) => {
                let (old_mirror, old_extra) = match &stored_body {
                    Some(Body::Attachment { mirror, extra, .. }) => (*mirror, extra.clone()),
                    _ => (0, Vec::new()),
                };
                Body::Attachment {
                    id: p.point_id,
                    position: self.point(p.position, "position", &place),
                    mirror: (old_mirror & !3) | p.flip_h as u16 | (p.flip_v as u16) << 1,
                    transform: self.transform(p.rotation, p.scale_x, p.scale_y, p.opacity, &place),
                    extra: old_extra,
                }
            }
            ElementKind::Box(b) => {
                if class_from_name(&name) != b.class {
                    let class_name = match &b.class {
                        BoxClass::Hit => "hit".to_string(),
                        BoxClass::Hurt => "hurt".to_string(),
                        BoxClass::Custom(n) => n.clone(),
                    };
                    if !name.is_empty() {
                        self.lose(
                            place.clone(),
                            format!(
                                "box name \"{name}\" (ISPRITE tells box classes apart by name; \"{class_name}\" is written)"
                            ),
                        );
                    }
                    name = class_name;
                }
                let (reserved, old_rect_reserved, old_extra) = match (&stored_body, &b.shape) {
                    (Some(Body::Collision { reserved, shape: RawShape::Rect { reserved: r20, .. }, extra, .. }), Shape::Rect { .. }) => {
                        (*reserved, *r20, extra.clone())
                    }
                    (Some(Body::Collision { reserved, shape: RawShape::Circle { .. }, extra, .. }), Shape::Circle { .. }) => {
                        (*reserved, 0, extra.clone())
                    }
                    (Some(Body::Collision { reserved, .. }), _) => (*reserved, 0, Vec::new()),
                    _ => (0, 0, Vec::new()),
                };
                let shape = match &b.shape {
                    Shape::Rect { x, y, width, height, rotation } => RawShape::Rect {
                        corner: self.point(Point { x: *x, y: *y }, "box corner", &place),
                        width: self.fixed(*width, "box width", &place),
                        height: self.fixed(*height, "box height", &place),
                        reserved: old_rect_reserved,
                        rotation: self.real(*rotation, "box rotation", &place),
                    },
                    Shape::Circle { center, radius } => RawShape::Circle {
                        center: self.point(*center, "circle centre", &place),
                        radius: self.fixed(*radius, "circle radius", &place),
                    },
                };
                Body::Collision {
                    reserved,
                    id: b.box_id,
                    shape,
                    extra: old_extra,
                }
            }
        };
        let (marker, bytes) = body.encode();
        let name = self.name_index(&name, stored_name, &place);
        Some(RawElement {
            marker,
            name,
            body: bytes,
        })
    }
}

fn collect_rates<'d>(group: &'d Group, path: &mut Vec<&'d str>, out: &mut Vec<(String, String)>) {
    for item in &group.items {
        match item {
            TreeItem::Group(g) => {
                path.push(&g.name);
                collect_rates(g, path, out);
                path.pop();
            }
            TreeItem::Sequence(s) => {
                if let Some(rate) = s.frame_rate {
                    out.push((
                        format!("{SEQUENCE_RATE_KEY}{}", sequence_path(path, &s.name)),
                        rate.to_string(),
                    ));
                }
            }
        }
    }
}
