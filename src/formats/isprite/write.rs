//! Builds the raw file from the model. Where the document was read from an ISPRITE file, every
//! record keeps what the model does not hold (reserved bytes, stride extras, flag bits, element
//! kinds, unknown chunks and elements, name indices) from the record it came from, so only
//! what was edited changes.

use super::bytes::{fits_fixed, text};
use super::elements::{Body, EXPANDED_GRAPHIC, RawShape, Transform};
use super::frames::{ELEMENT_HEAD, RawElement, RawElements, RawFrame, RawFrames};
use super::meta::{META_STRINGS, RawMeta, RawMetaPlus, read_date, write_date};
use super::raw::{ChunkKind, RawChunk, RawFile, RawHeader};
use super::read::{
    DEFAULT_SEQUENCE_KEY, Reading, SEQUENCE_RATE_KEY, default_origin, loop_point, name_gives_class,
    sequence_path, sequences_with_paths,
};
use super::textures::{RawNames, RawSlice, RawSlices, RawTexture, RawTextures, SLICE_LEN};
use super::tier::{NO_LOOP, RawSequence, RawTier, RawTierItem, loop_flags_by_tree};
use crate::formats::{Loss, Place, WriteError};
use crate::model::*;
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

/// Bytes a typical element record takes (an expanded graphic: head and 26-byte body), to size
/// a frame's element buffer once.
const TYPICAL_ELEMENT_LEN: usize = ELEMENT_HEAD + 26;

/// Encodes a document whose graphics are all slices of texture images and whose durations are
/// holds (see `convert.rs` for everything else). `original` is the reading of the file the
/// document came from, when it came from an ISPRITE file.
pub fn encode(
    doc: &AnimationSet,
    original: Option<&Reading<'_>>,
    losses: &mut Vec<Loss>,
) -> Result<Vec<u8>, WriteError> {
    let mut w = Writer::new(doc, original, losses)?;
    let raw = w.file();
    Ok(raw.encode())
}

/// Keeps the stored bytes of a string when they still read as the model's text (invalid UTF-8
/// and cut strings survive unedited); otherwise the model's text. Borrows either way.
fn keep_text<'s>(model: &'s str, stored: Option<&'s [u8]>) -> Cow<'s, [u8]> {
    match stored {
        Some(bytes) if reads_as(bytes, model) => Cow::Borrowed(bytes),
        _ => Cow::Borrowed(model.as_bytes()),
    }
}

/// Name tables up to this size are searched by comparing, larger ones through `name_index`.
const SCANNED_NAMES: usize = 16;

/// True when stored string bytes read as `model` (without building the text when they are
/// valid UTF-8, as they nearly always are).
fn reads_as(stored: &[u8], model: &str) -> bool {
    match std::str::from_utf8(stored) {
        Ok(stored) => stored == model,
        Err(_) => text(stored) == model,
    }
}

/// The records of a chunk as read, by the model id each became (`ids` lists them in the
/// chunk's order, as the reading's origins do).
fn records_by_id<'r, K: Copy + Eq + std::hash::Hash, R>(
    ids: &[K],
    records: &'r [R],
) -> HashMap<K, &'r R> {
    ids.iter().copied().zip(records).collect()
}

/// Where something may be lost: a frame, or an element of it. Cheap to pass around; the
/// [`Place`] (with its strings) is only built when a loss is actually reported.
#[derive(Clone, Copy)]
struct Site<'e> {
    frame: FrameId,
    element: Option<&'e Element>,
}

/// The records of the original file, found by model id.
struct OriginalRecords<'a> {
    /// Frame id -> index of its record in `frames`.
    frame_index: HashMap<FrameId, usize>,
    /// The stored frames.
    frames: &'a [RawFrame<'a>],
    /// Where each model element came from: its frame index and its position among the frame's
    /// raw elements. Only built when an element is not found in its own frame's record (an
    /// element moved to another frame, or a new one).
    elements_anywhere: Option<HashMap<ElementId, (usize, usize)>>,
}

struct Writer<'a> {
    doc: &'a AnimationSet,
    original: Option<&'a Reading<'a>>,
    records: Option<OriginalRecords<'a>>,
    losses: &'a mut Vec<Loss>,
    image_index: HashMap<ImageId, u8>,
    slice_index: HashMap<SliceId, usize>,
    /// Where each frame is first used; built on the first loss.
    places: Option<HashMap<FrameId, Place>>,
    names: Vec<Vec<u8>>,
    name_index: HashMap<String, u16>,
    /// TIER item indices of the sequences written exactly as they were read (same frames, same
    /// loop point): their frames keep the loop flags the file had, even where the flags
    /// disagree with the loop point (readers go by TIER; a save must not "fix" the flags).
    unedited_sequences: HashSet<usize>,
}

impl<'a> Writer<'a> {
    fn new(
        doc: &'a AnimationSet,
        original: Option<&'a Reading<'a>>,
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
            records: None,
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
            places: None,
            names: Vec::new(),
            name_index: HashMap::new(),
            unedited_sequences: HashSet::new(),
        };
        w.index_original();
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
        let frame_count = frames.frames.len().min(reading.origins.frames.len());
        self.records = Some(OriginalRecords {
            frame_index: reading.origins.frames[..frame_count]
                .iter()
                .enumerate()
                .map(|(i, id)| (*id, i))
                .collect(),
            frames: &frames.frames[..frame_count],
            elements_anywhere: None,
        });
    }

    /// The stored record of a frame, with what each of its raw elements became.
    fn original_frame(&self, id: FrameId) -> Option<(&'a RawFrame<'a>, &'a [Option<ElementId>])> {
        let reading = self.original?;
        let records = self.records.as_ref()?;
        let index = *records.frame_index.get(&id)?;
        Some((
            &records.frames[index],
            reading.origins.frame_elements(index),
        ))
    }

    /// The stored record of an element: first looked for in the record of the frame being
    /// written (where it nearly always is), then anywhere in the file.
    fn original_element(
        &mut self,
        id: ElementId,
        own: Option<(&'a RawFrame<'a>, &'a [Option<ElementId>])>,
    ) -> Option<RawElement<'a>> {
        if let Some((raw, ids)) = own
            && let Some(at) = ids.iter().position(|e| *e == Some(id))
        {
            return raw.elements.iter().nth(at);
        }
        let reading = self.original?;
        let records = self.records.as_mut()?;
        let anywhere = records.elements_anywhere.get_or_insert_with(|| {
            let mut map = HashMap::with_capacity(reading.origins.elements.len());
            for frame in 0..records.frames.len() {
                for (at, e) in reading.origins.frame_elements(frame).iter().enumerate() {
                    if let Some(e) = e {
                        map.insert(*e, (frame, at));
                    }
                }
            }
            map
        });
        let (frame, at) = *anywhere.get(&id)?;
        records.frames[frame].elements.iter().nth(at)
    }

    /// Where a frame is first used, for loss reports.
    fn frame_place(&mut self, frame: FrameId) -> Place {
        let doc = self.doc;
        let places = self.places.get_or_insert_with(|| {
            let mut places = HashMap::new();
            for sequence in doc.sequences() {
                for (d, direction) in sequence.directions.iter().enumerate() {
                    for (i, frame) in direction.frames.iter().enumerate() {
                        places
                            .entry(*frame)
                            .or_insert_with(|| Place::frame(&sequence.name, d, i));
                    }
                }
            }
            places
        });
        places.get(&frame).cloned().unwrap_or_else(|| Place {
            element: Some(format!(
                "unused frame {}",
                doc.frames.get_index_of(&frame).unwrap_or(0)
            )),
            ..Place::default()
        })
    }

    fn place(&mut self, site: Site) -> Place {
        let place = self.frame_place(site.frame);
        match site.element {
            Some(element) if element.name.is_empty() => {
                place.element(format!("element {}", element.id))
            }
            Some(element) => place.element(format!("element \"{}\"", element.name)),
            None => place,
        }
    }

    fn lose_at(&mut self, site: Site, what: impl Into<String>) {
        let place = self.place(site);
        self.lose(place, what);
    }

    fn lose(&mut self, place: Place, what: impl Into<String>) {
        self.losses.push(Loss::new(place, what));
    }

    fn original_chunk(&self, kind: ChunkKind) -> Option<&'a RawChunk<'a>> {
        self.original.and_then(|r| r.raw.chunk(kind))
    }

    fn file(&mut self) -> RawFile<'a> {
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
    fn arrange(&self, fresh: Vec<(ChunkKind, RawChunk<'a>)>) -> Vec<RawChunk<'a>> {
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
        let last_used = strings
            .iter()
            .rposition(|s| !s.is_empty())
            .map_or(0, |i| i + 1);
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
                    keep_text(
                        s,
                        original
                            .and_then(|o| o.strings.get(i))
                            .map(|v| v.as_slice()),
                    )
                    .into_owned()
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
        let mut rates: Vec<(String, String)> = sequences_with_paths(&self.doc.root)
            .into_iter()
            .filter_map(|(path, sequence)| {
                let rate = sequence.frame_rate?;
                Some((format!("{SEQUENCE_RATE_KEY}{path}"), rate.to_string()))
            })
            .collect();
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
        let stored: Vec<&(Vec<u8>, Vec<u8>)> = original
            .map(|o| o.pairs.iter().collect())
            .unwrap_or_default();
        Some(RawMetaPlus {
            pairs: pairs
                .into_iter()
                .enumerate()
                .map(|(i, (n, v))| {
                    let s = stored.get(i);
                    (
                        keep_text(&n, s.map(|p| p.0.as_slice())).into_owned(),
                        keep_text(&v, s.map(|p| p.1.as_slice())).into_owned(),
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
                records_by_id(&reading.origins.images, &t.textures),
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
                    name: keep_text(&image.path, stored.map(|t| t.name.as_slice())).into_owned(),
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
                records_by_id(&reading.origins.slices, &s.slices),
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
            if !(fits(r.x as i64)
                && fits(r.y as i64)
                && fits(r.width as i64)
                && fits(r.height as i64))
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
                    if self.is_unedited(s, &raw) {
                        self.unedited_sequences.insert(items.len());
                    }
                    items.push(RawTierItem::Sequence(raw));
                }
            }
        }
    }

    /// Whether a sequence is written with the frames and loop point it was read with.
    fn is_unedited(&self, s: &Sequence, raw: &RawSequence) -> bool {
        let Some(reading) = self.original else {
            return false;
        };
        let Some(stored) = reading.origins.sequences.get(&s.id) else {
            return false;
        };
        let frames = s.directions.first().map(|d| d.frames.as_slice());
        s.directions.len() == 1
            && stored.loop_point == raw.loop_point
            && frames.is_some_and(|frames| {
                frames.len() == stored.frames.len()
                    && stored
                        .frames
                        .iter()
                        .zip(frames)
                        .all(|(index, id)| reading.origins.frames.get(*index as usize) == Some(id))
            })
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
        let listed = s.directions.first().map_or(0, |d| d.frames.len());
        let mut frames = Vec::with_capacity(listed);
        for (i, id) in s
            .directions
            .first()
            .map(|d| d.frames.as_slice())
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            match self.doc.frames.get_index_of(id) {
                Some(index) => frames.push(index as u32),
                None => self.lose(
                    Place::frame(&s.name, 0, i),
                    format!("frame {id}, which the document does not hold"),
                ),
            }
        }
        let count = frames.len();
        let loop_value = match s.loop_point {
            None => match stored {
                Some(st)
                    if st.loop_point != NO_LOOP && loop_point(st.loop_point, count).is_none() =>
                {
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
            name: keep_text(&s.name, stored.map(|st| st.name.as_slice())).into_owned(),
            follow_up: keep_text(
                s.follow_up.as_deref().unwrap_or(""),
                stored.map(|st| st.follow_up.as_slice()),
            )
            .into_owned(),
            frames,
        }
    }

    fn frames(&mut self, tier: &RawTier) -> RawFrames<'a> {
        let doc = self.doc;
        // Which frames are loop points (D8): decided by the tree for frames in exactly one
        // sequence, unless that sequence is unedited (then the stored flag stays).
        let by_tree = loop_flags_by_tree(&tier.items, doc.frames.len());
        let mut frames = Vec::with_capacity(doc.frames.len());
        for ((id, frame), owner) in doc.frames.iter().zip(by_tree) {
            let loop_bit = owner
                .filter(|(item, _)| !self.unedited_sequences.contains(item))
                .map(|(_, at_loop)| at_loop);
            frames.push(self.frame(*id, frame, loop_bit));
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

    fn frame(&mut self, id: FrameId, frame: &'a Frame, loop_bit: Option<bool>) -> RawFrame<'a> {
        let site = Site {
            frame: id,
            element: None,
        };
        let hold = match frame.duration {
            FrameDuration::Holds(h) => {
                if h > u16::MAX as u32 {
                    self.lose_at(
                        site,
                        format!("hold time {h} (at most 65535; 65535 is written)"),
                    );
                }
                h.min(u16::MAX as u32) as u16
            }
            other => {
                self.lose_at(site, format!("duration {other} (written as 1 hold)"));
                1
            }
        };
        let own = self.original_frame(id);
        let stored = own.map(|(raw, _)| raw);
        let stored_flags = stored.map_or(0, |f| f.flags);
        let bit = loop_bit.unwrap_or(stored_flags & 1 != 0) as u8;
        // Stored records the model does not hold (unknown elements), each with the element it
        // followed (`None` = first): they are written back after that element.
        let mut pending: Vec<(Option<ElementId>, RawElement<'a>)> = Vec::new();
        if let Some((raw, ids)) = own {
            let mut previous = None;
            for (element, eid) in raw.elements.iter().zip(ids) {
                match eid {
                    Some(eid) => previous = Some(*eid),
                    None => pending.push((previous, element)),
                }
            }
        }
        const MAX_ELEMENTS: usize = u16::MAX as usize;
        let mut elements = RawElements::with_capacity(frame.elements.len() * TYPICAL_ELEMENT_LEN);
        let mut total = 0usize;
        let mut take_after =
            |after: Option<ElementId>, elements: &mut RawElements<'a>, total: &mut usize| {
                pending.retain(|(p, e)| {
                    if *p != after {
                        return true;
                    }
                    *total += 1;
                    if elements.len() < MAX_ELEMENTS {
                        elements.push(*e);
                    }
                    false
                });
            };
        take_after(None, &mut elements, &mut total);
        for element in &frame.elements {
            if let Some((name, body)) = self.element(id, element, own) {
                total += 1;
                if elements.len() < MAX_ELEMENTS
                    && !elements.push_with(body.marker(), name, |out| {
                        body.encode(out);
                    })
                {
                    self.lose_at(
                        Site {
                            frame: id,
                            element: Some(element),
                        },
                        "element longer than the 255 bytes a record holds (dropped)",
                    );
                }
            }
            take_after(Some(element.id), &mut elements, &mut total);
        }
        for (_, e) in pending {
            total += 1;
            if elements.len() < MAX_ELEMENTS {
                elements.push(e);
            }
        }
        if total > MAX_ELEMENTS {
            self.lose_at(site, format!("elements past the 65535th of {total}"));
        }
        let mut raw = RawFrame {
            size_field: 0,
            hold,
            flags: (stored_flags & !1) | bit,
            label: keep_text(&frame.label, stored.map(|f| &*f.label)),
            triggers: keep_text(&frame.triggers, stored.map(|f| &*f.triggers)),
            notes: keep_text(&frame.notes, stored.map(|f| &*f.notes)),
            elements,
        };
        let len = raw.content_len() as i64;
        let delta = stored.map_or(0, |f| f.size_field as i64 - f.content_len() as i64);
        raw.size_field = (len + delta).clamp(0, u32::MAX as i64) as u32;
        raw
    }

    fn name_index(&mut self, name: &str, stored: Option<u16>, site: Site) -> u16 {
        if let Some(index) = stored {
            let same = match index {
                u16::MAX => name.is_empty(),
                i => match self.names.get(i as usize) {
                    Some(stored) => reads_as(stored, name),
                    None => name.is_empty(),
                },
            };
            if same {
                return index;
            }
        }
        if name.is_empty() {
            return u16::MAX;
        }
        // Name tables are usually a handful of entries, where comparing beats hashing (this
        // runs for every element); both find the first entry that reads as the name.
        let found = if self.names.len() <= SCANNED_NAMES {
            self.names
                .iter()
                .position(|n| reads_as(n, name))
                .map(|i| i as u16)
        } else {
            self.name_index.get(name).copied()
        };
        if let Some(index) = found {
            return index;
        }
        if self.names.len() >= u16::MAX as usize {
            self.lose_at(
                site,
                format!("element name \"{name}\" (the name table is full)"),
            );
            return u16::MAX;
        }
        let index = self.names.len() as u16;
        self.names.push(name.as_bytes().to_vec());
        self.name_index.insert(name.to_string(), index);
        index
    }

    fn fixed(&mut self, value: Fx, what: &str, site: Site) -> Fx {
        if fits_fixed(value) {
            return value;
        }
        self.lose_at(
            site,
            format!("{what} {value} px (outside -32768..32767; clamped)"),
        );
        Fx(value
            .0
            .clamp(i16::MIN as i32 * 256, i16::MAX as i32 * 256 + 255))
    }

    fn real(&mut self, value: f64, what: &str, site: Site) -> Fx {
        let fx = Fx::from_f64(value);
        if fx.to_f64() != value {
            self.lose_at(
                site,
                format!(
                    "{what} {value} (ISPRITE stores 1/256 steps; {} is written)",
                    fx.to_f64()
                ),
            );
        }
        self.fixed(fx, what, site)
    }

    fn point(&mut self, p: Point, what: &str, site: Site) -> Point {
        // The axis names are only spelled out when something is lost (the common case is a
        // point that fits, and this runs for every element of every frame).
        if fits_fixed(p.x) && fits_fixed(p.y) {
            return p;
        }
        Point {
            x: self.fixed(p.x, &format!("{what} x"), site),
            y: self.fixed(p.y, &format!("{what} y"), site),
        }
    }

    fn transform(
        &mut self,
        rotation: f64,
        scale_x: f64,
        scale_y: f64,
        opacity: u16,
        site: Site,
    ) -> Transform {
        Transform {
            rotation: self.real(rotation, "rotation", site),
            scale_x: self.real(scale_x, "horizontal scale", site),
            scale_y: self.real(scale_y, "vertical scale", site),
            opacity,
        }
    }

    /// The name index and content of an element's record, or `None` when it cannot be
    /// written (the loss is reported).
    fn element(
        &mut self,
        frame: FrameId,
        element: &'a Element,
        own: Option<(&'a RawFrame<'a>, &'a [Option<ElementId>])>,
    ) -> Option<(u16, Body)> {
        let stored = self.original_element(element.id, own);
        let stored_name = stored.map(|s| s.name);
        let stored_body = stored.as_ref().and_then(Body::decode);
        let stored_marker = stored.map(|s| s.marker);
        let site = Site {
            frame,
            element: Some(element),
        };
        let mut name: Cow<str> = Cow::Borrowed(&element.name);
        let body = match &element.kind {
            ElementKind::Graphic(g) => {
                let slice = match &g.source {
                    GraphicSource::Slice(id) => match self.slice_index.get(id) {
                        Some(i) if *i <= u16::MAX as usize => *i as u16,
                        // An index that was past the table when read stays as it was.
                        None if id.0 >= u64::MAX - u16::MAX as u64 => (u64::MAX - id.0) as u16,
                        _ => {
                            self.lose_at(
                                site,
                                "graphic whose slice ISPRITE cannot reach (dropped)",
                            );
                            return None;
                        }
                    },
                    other => {
                        self.lose_at(
                            site,
                            format!("graphic from {other:?} (not a slice; dropped)"),
                        );
                        return None;
                    }
                };
                let origin = match g.origin {
                    Origin::At(p) => p,
                    Origin::SourceAxis => {
                        self.lose_at(site, "the source's own axis as origin (0, 0 is used)");
                        Point::ZERO
                    }
                };
                if g.blend != BlendMode::Normal {
                    self.lose_at(site, format!("blend mode {:?}", g.blend));
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
                    Some(Body::Graphic {
                        mirror,
                        expanded,
                        extra,
                        ..
                    }) => (
                        *mirror,
                        if expanded.is_some() == expanded_now {
                            extra.clone()
                        } else {
                            Vec::new()
                        },
                    ),
                    _ => (0, Vec::new()),
                };
                let expanded = if expanded_now {
                    let origin = self.point(origin, "origin", site);
                    let t = self.transform(g.rotation, g.scale_x, g.scale_y, g.opacity, site);
                    Some((origin, t))
                } else {
                    None
                };
                Body::Graphic {
                    slice,
                    position: self.point(g.position - origin, "position", site),
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
                    position: self.point(p.position, "position", site),
                    mirror: (old_mirror & !3) | p.flip_h as u16 | (p.flip_v as u16) << 1,
                    transform: self.transform(p.rotation, p.scale_x, p.scale_y, p.opacity, site),
                    extra: old_extra,
                }
            }
            ElementKind::Box(b) => {
                if !name_gives_class(&name, &b.class) {
                    let class_name = match &b.class {
                        BoxClass::Hit => "hit".to_string(),
                        BoxClass::Hurt => "hurt".to_string(),
                        BoxClass::Custom(n) => n.clone(),
                    };
                    if !name.is_empty() {
                        self.lose_at(
                            site,
                            format!(
                                "box name \"{name}\" (ISPRITE tells box classes apart by name; \"{class_name}\" is written)"
                            ),
                        );
                    }
                    name = Cow::Owned(class_name);
                }
                let (reserved, old_rect_reserved, old_extra) = match (&stored_body, &b.shape) {
                    (
                        Some(Body::Collision {
                            reserved,
                            shape: RawShape::Rect { reserved: r20, .. },
                            extra,
                            ..
                        }),
                        Shape::Rect { .. },
                    ) => (*reserved, *r20, extra.clone()),
                    (
                        Some(Body::Collision {
                            reserved,
                            shape: RawShape::Circle { .. },
                            extra,
                            ..
                        }),
                        Shape::Circle { .. },
                    ) => (*reserved, 0, extra.clone()),
                    (Some(Body::Collision { reserved, .. }), _) => (*reserved, 0, Vec::new()),
                    _ => (0, 0, Vec::new()),
                };
                let shape = match &b.shape {
                    Shape::Rect {
                        x,
                        y,
                        width,
                        height,
                        rotation,
                    } => RawShape::Rect {
                        corner: self.point(Point { x: *x, y: *y }, "box corner", site),
                        width: self.fixed(*width, "box width", site),
                        height: self.fixed(*height, "box height", site),
                        reserved: old_rect_reserved,
                        rotation: self.real(*rotation, "box rotation", site),
                    },
                    Shape::Circle { center, radius } => RawShape::Circle {
                        center: self.point(*center, "circle centre", site),
                        radius: self.fixed(*radius, "circle radius", site),
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
        let name = self.name_index(&name, stored_name, site);
        Some((name, body))
    }
}
