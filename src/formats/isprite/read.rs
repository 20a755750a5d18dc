//! Builds the document model from the raw file, and remembers which raw record each model id
//! came from so the writer can keep what the model does not hold.

use super::bytes::text;
use super::elements::{Body, RawShape};
use super::frames::RawFrames;
use super::meta::read_date;
use super::raw::{ChunkKind, RawChunk, RawFile};
use super::tier::{NO_LOOP, RawSequence, RawTierItem, loop_flags_by_tree};
use crate::formats::{Diagnostic, Location, Severity, Subject};
use crate::model::*;
use std::collections::HashMap;
use std::path::Path;

/// MET+ name prefix of a per-sequence frame rate (D9), followed by the sequence's path.
pub const SEQUENCE_RATE_KEY: &str = "seq-fps:";
/// MET+ name of the default sequence (ambiguity 12); the value is the sequence's path.
pub const DEFAULT_SEQUENCE_KEY: &str = "default-sequence";
/// Image extensions probed beside the file, in order (`.png` first, as the spec recommends).
pub const IMAGE_EXTENSIONS: [&str; 7] = ["png", "tga", "gif", "bmp", "jpg", "jpeg", "webp"];

/// Which raw record each model id came from.
#[derive(Clone, Debug, Default)]
pub struct Origins {
    /// Texture index -> image.
    pub images: Vec<ImageId>,
    /// Slice index -> slice.
    pub slices: Vec<SliceId>,
    /// Frame index -> frame.
    pub frames: Vec<FrameId>,
    /// Per raw element, frame after frame: the element it became (`None` = kept unread).
    /// [`Origins::frame_elements`] gives one frame's share.
    pub elements: Vec<Option<ElementId>>,
    /// Frame index -> where its raw elements start in `elements`.
    pub element_starts: Vec<usize>,
    /// Sequence -> its raw record.
    pub sequences: HashMap<SequenceId, RawSequence>,
}

impl Origins {
    /// The elements the raw elements of a frame became, in stored order.
    pub fn frame_elements(&self, frame: usize) -> &[Option<ElementId>] {
        let start = self.element_starts.get(frame).copied().unwrap_or(0);
        let end = self
            .element_starts
            .get(frame + 1)
            .copied()
            .unwrap_or(self.elements.len());
        self.elements.get(start..end).unwrap_or_default()
    }
}

/// A parsed file: the raw records (borrowing the file's bytes), the model, and the links
/// between them.
#[derive(Clone, Debug)]
pub struct Reading<'a> {
    /// The file as stored.
    pub raw: RawFile<'a>,
    /// The model.
    pub document: AnimationSet,
    /// Model ids -> raw records.
    pub origins: Origins,
    /// Warnings.
    pub diagnostics: Vec<Diagnostic>,
}

/// The class a collision object's name gives it (case-insensitive).
pub fn class_from_name(name: &str) -> BoxClass {
    let is = |names: [&str; 3]| names.iter().any(|n| n.eq_ignore_ascii_case(name));
    if is(["hit", "hitbox", "attack"]) {
        BoxClass::Hit
    } else if is(["hurt", "hurtbox", "body"]) {
        BoxClass::Hurt
    } else {
        BoxClass::Custom(name.to_string())
    }
}

/// True when a box of `class` named `name` reads back as the same class, without building the
/// class (which allocates for custom names).
pub fn name_gives_class(name: &str, class: &BoxClass) -> bool {
    let is = |names: [&str; 3]| names.iter().any(|n| n.eq_ignore_ascii_case(name));
    match class {
        BoxClass::Hit => is(["hit", "hitbox", "attack"]),
        BoxClass::Hurt => is(["hurt", "hurtbox", "body"]),
        BoxClass::Custom(custom) => {
            custom == name && !is(["hit", "hitbox", "attack"]) && !is(["hurt", "hurtbox", "body"])
        }
    }
}

/// The path MET+ uses for a sequence: its groups from the root, then its name, `/`-separated.
pub fn sequence_path(groups: &[&str], name: &str) -> String {
    let mut parts: Vec<&str> = groups.to_vec();
    parts.push(name);
    parts.join("/")
}

/// Reads bytes into a model. `dir` is the folder to look for textures in, if any.
pub fn read<'a>(bytes: &'a [u8], dir: Option<&Path>) -> Result<Reading<'a>, Vec<Diagnostic>> {
    let mut diagnostics = Vec::new();
    let raw = match RawFile::parse(bytes, &mut diagnostics) {
        Ok(raw) => raw,
        Err(e) => {
            diagnostics.insert(0, Diagnostic::error_at_byte(e.offset, e.message));
            return Err(diagnostics);
        }
    };
    let mut builder = Builder {
        doc: AnimationSet::new(),
        origins: Origins::default(),
        diagnostics,
        names: Vec::new(),
    };
    builder.doc.frame_rate = Some(raw.header.frame_rate as u32);
    if let Some(RawChunk::Meta(meta)) = raw.chunk(ChunkKind::Meta) {
        builder.metadata(meta);
    }
    if let Some(RawChunk::Textures(t)) = raw.chunk(ChunkKind::Textures) {
        builder.textures(t, dir);
    }
    if let Some(RawChunk::Slices(s)) = raw.chunk(ChunkKind::Slices) {
        builder.slices(s);
    }
    if let Some(RawChunk::Names(n)) = raw.chunk(ChunkKind::Names) {
        builder.names = n.names.iter().map(|b| Name::from(text(b))).collect();
    }
    if let Some(RawChunk::Frames(f)) = raw.chunk(ChunkKind::Frames) {
        builder.frames(f);
    }
    if let Some(RawChunk::Tier(t)) = raw.chunk(ChunkKind::Tier) {
        builder.tier(&t.items);
        if let Some(RawChunk::Frames(f)) = raw.chunk(ChunkKind::Frames) {
            builder.loop_flag_disagreements(&t.items, f);
        }
    }
    if let Some(RawChunk::MetaPlus(m)) = raw.chunk(ChunkKind::MetaPlus) {
        builder.meta_plus(&m.pairs);
    }
    let Builder {
        doc,
        origins,
        diagnostics,
        ..
    } = builder;
    Ok(Reading {
        raw,
        document: doc,
        origins,
        diagnostics,
    })
}

struct Builder {
    doc: AnimationSet,
    origins: Origins,
    diagnostics: Vec<Diagnostic>,
    /// The name table, each name made once: the elements naming it in every frame share it.
    names: Vec<Name>,
}

impl Builder {
    fn warn(&mut self, message: String) {
        self.diagnostics
            .push(Diagnostic::new(Severity::Warning, Location::File, message));
    }

    fn metadata(&mut self, meta: &super::meta::RawMeta) {
        let s = |i: usize| meta.strings.get(i).map(|b| text(b)).unwrap_or_default();
        let m = &mut self.doc.metadata;
        m.created = read_date(&meta.created);
        m.saved = read_date(&meta.saved);
        m.work_time_ms = meta.work_time_ms;
        m.tags = s(0);
        m.title = s(1);
        m.project = s(2);
        m.author = s(3);
        m.company = s(4);
        m.contact = s(5);
        m.url = s(6);
        m.copyright = s(7);
        m.comments = s(8);
        m.originating_program = s(9);
        m.program = s(10);
    }

    fn textures(&mut self, textures: &super::textures::RawTextures, dir: Option<&Path>) {
        for t in &textures.textures {
            let id = ImageId(self.doc.alloc_id());
            let path = text(&t.name);
            let resolved = dir.and_then(|d| resolve_texture(d, &path));
            if is_absolute(&path) {
                self.warn(format!(
                    "texture \"{path}\" has an absolute path; textures must be relative to the sprite file"
                ));
            }
            self.doc.images.push(SourceImage {
                id,
                path,
                resolved,
                kind: ImageKind::File,
                nearest_neighbour: t.flags & 1 != 0,
            });
            self.origins.images.push(id);
        }
    }

    fn slices(&mut self, slices: &super::textures::RawSlices) {
        for (index, s) in slices.slices.iter().enumerate() {
            let id = SliceId(self.doc.alloc_id());
            let image = match self.origins.images.get(s.texture as usize) {
                Some(image) => *image,
                None => {
                    self.warn(format!(
                        "slice {index} uses texture {}, which does not exist; it draws nothing",
                        s.texture
                    ));
                    ImageId(self.doc.alloc_id())
                }
            };
            if s.width == 0 || s.height == 0 {
                self.warn(format!("slice {index} has a zero width or height"));
            }
            self.doc.slices.push(Slice {
                id,
                image,
                rect: PixelRect {
                    x: s.x as i32,
                    y: s.y as i32,
                    width: s.width as u32,
                    height: s.height as u32,
                },
                rotated: s.flags & 1 != 0,
            });
            self.origins.slices.push(id);
        }
    }

    fn name(&mut self, index: u16, frame: usize) -> Name {
        if index == u16::MAX {
            return Name::default();
        }
        match self.names.get(index as usize) {
            Some(name) => name.clone(),
            None => {
                self.warn(format!(
                    "an element of frame {frame} uses name {index}, past the {} names; it is unnamed",
                    self.names.len()
                ));
                Name::default()
            }
        }
    }

    fn frames(&mut self, frames: &RawFrames) {
        let count = frames.frames.len();
        self.doc.frames.reserve(count);
        self.origins.frames.reserve(count);
        self.origins.element_starts.reserve(count);
        for (index, raw) in frames.frames.iter().enumerate() {
            let id = FrameId(self.doc.alloc_id());
            let mut frame = Frame::new(FrameDuration::Holds(raw.hold as u32));
            frame.label = text(&raw.label);
            frame.triggers = text(&raw.triggers);
            frame.notes = text(&raw.notes);
            self.origins
                .element_starts
                .push(self.origins.elements.len());
            frame.elements.reserve_exact(raw.elements.len());
            for element in raw.elements.iter() {
                let Some(body) = Body::decode(&element) else {
                    if matches!(element.marker, b'g' | b'G' | b'A' | b'C') {
                        self.warn(format!(
                            "an element \"{}\" of frame {index} is too short or of an unknown type; it is kept but not shown",
                            element.marker as char
                        ));
                    }
                    self.origins.elements.push(None);
                    continue;
                };
                let name = self.name(element.name, index);
                let kind = self.element_kind(body, &name);
                let element_id = ElementId(self.doc.alloc_id());
                frame.elements.push(Element {
                    id: element_id,
                    name,
                    kind,
                });
                self.origins.elements.push(Some(element_id));
            }
            self.doc.frames.insert(id, frame);
            self.origins.frames.push(id);
        }
    }

    fn element_kind(&mut self, body: Body, name: &str) -> ElementKind {
        match body {
            Body::Graphic {
                slice,
                position,
                mirror,
                expanded,
                ..
            } => {
                let slice_id = self.slice_id(slice);
                let (origin, t) = match expanded {
                    Some((origin, t)) => (origin, t),
                    None => (
                        // Slices are in the model in file order, so the index finds it.
                        self.doc
                            .slices
                            .get(slice as usize)
                            .map_or(Point::ZERO, |s| default_origin(&s.rect)),
                        super::elements::Transform::default(),
                    ),
                };
                ElementKind::Graphic(Graphic {
                    source: GraphicSource::Slice(slice_id),
                    position: position + origin,
                    origin: Origin::At(origin),
                    flip_h: mirror & 1 != 0,
                    flip_v: mirror & 2 != 0,
                    rotation: t.rotation.to_f64(),
                    scale_x: t.scale_x.to_f64(),
                    scale_y: t.scale_y.to_f64(),
                    opacity: t.opacity,
                    blend: BlendMode::Normal,
                })
            }
            Body::Attachment {
                id,
                position,
                mirror,
                transform: t,
                ..
            } => ElementKind::Point(AttachmentPoint {
                point_id: id,
                position,
                rotation: t.rotation.to_f64(),
                scale_x: t.scale_x.to_f64(),
                scale_y: t.scale_y.to_f64(),
                flip_h: mirror & 1 != 0,
                flip_v: mirror & 2 != 0,
                opacity: t.opacity,
            }),
            Body::Collision { id, shape, .. } => ElementKind::Box(CollisionBox {
                class: class_from_name(name),
                shape: match shape {
                    RawShape::Rect {
                        corner,
                        width,
                        height,
                        rotation,
                        ..
                    } => Shape::Rect {
                        x: corner.x,
                        y: corner.y,
                        width,
                        height,
                        rotation: rotation.to_f64(),
                    },
                    RawShape::Circle { center, radius } => Shape::Circle { center, radius },
                },
                box_id: id,
                corners: None,
            }),
        }
    }

    /// The slice id for an index; an index past the table gets an id of its own that names no
    /// slice (the graphic draws nothing and the index is written back).
    fn slice_id(&mut self, index: u16) -> SliceId {
        match self.origins.slices.get(index as usize) {
            Some(id) => *id,
            None => {
                self.warn(format!(
                    "a graphic uses slice {index}, which does not exist; it draws nothing"
                ));
                SliceId(u64::MAX - index as u64)
            }
        }
    }

    fn tier(&mut self, items: &[RawTierItem]) {
        let frame_count = self.origins.frames.len();
        // The stack of open groups; the root is the implicit bottom.
        let mut stack: Vec<Group> = vec![std::mem::take(&mut self.doc.root)];
        for item in items {
            match item {
                RawTierItem::Group(name) => {
                    let id = GroupId(self.doc.alloc_id());
                    stack.push(Group {
                        id,
                        name: text(name),
                        items: Vec::new(),
                    });
                }
                RawTierItem::Close(_) => {
                    if stack.len() > 1 {
                        let group = stack.pop().expect("more than the root");
                        push_item(&mut stack, TreeItem::Group(group));
                    } else {
                        self.warn("a group close at the root is ignored".into());
                    }
                }
                RawTierItem::Sequence(raw) => {
                    let id = SequenceId(self.doc.alloc_id());
                    let direction = DirectionId(self.doc.alloc_id());
                    let name = text(&raw.name);
                    let mut frames = Vec::with_capacity(raw.frames.len());
                    for &f in &raw.frames {
                        match self.origins.frames.get(f as usize) {
                            Some(frame) => frames.push(*frame),
                            None => self.diagnostics.push(Diagnostic::new(
                                Severity::Error,
                                Location::File,
                                format!(
                                    "sequence \"{name}\" lists frame {f}, but FRAM has {frame_count} frames; it is left out"
                                ),
                            )),
                        }
                    }
                    let mut sequence = Sequence::new(id, name, direction);
                    sequence.loop_point = loop_point(raw.loop_point, frames.len());
                    sequence.directions[0].frames = frames;
                    sequence.follow_up = (!raw.follow_up.is_empty()).then(|| text(&raw.follow_up));
                    self.origins.sequences.insert(id, raw.clone());
                    push_item(&mut stack, TreeItem::Sequence(sequence));
                }
            }
        }
        if stack.len() > 1 {
            self.warn(format!(
                "{} groups are still open at the end of TIER; they are closed there",
                stack.len() - 1
            ));
        }
        while stack.len() > 1 {
            let group = stack.pop().expect("more than the root");
            push_item(&mut stack, TreeItem::Group(group));
        }
        self.doc.root = stack.pop().expect("the root");
    }

    /// An info diagnostic per sequence whose frames' loop flags disagree with its TIER loop
    /// point. Readers go by TIER (D8) and so does the model; the flags are kept as stored until
    /// the sequence is edited.
    fn loop_flag_disagreements(&mut self, items: &[RawTierItem], frames: &RawFrames) {
        let by_tree = loop_flags_by_tree(items, frames.frames.len());
        let mut disagreeing: Vec<(usize, Vec<usize>)> = Vec::new();
        for (index, (raw, owner)) in frames.frames.iter().zip(by_tree).enumerate() {
            let Some((item, at_loop)) = owner else {
                continue;
            };
            if (raw.flags & 1 != 0) == at_loop {
                continue;
            }
            match disagreeing.iter_mut().find(|(i, _)| *i == item) {
                Some((_, list)) => list.push(index),
                None => disagreeing.push((item, vec![index])),
            }
        }
        if disagreeing.is_empty() {
            return;
        }
        let sequences: Vec<(SequenceId, String, Option<usize>)> = self
            .doc
            .sequences()
            .into_iter()
            .map(|s| (s.id, s.name.clone(), s.loop_point))
            .collect();
        // TIER items that are sequences, in order, are the model's sequences in tree order.
        let item_to_sequence: HashMap<usize, usize> = items
            .iter()
            .enumerate()
            .filter(|(_, item)| matches!(item, RawTierItem::Sequence(_)))
            .enumerate()
            .map(|(n, (item, _))| (item, n))
            .collect();
        for (item, frame_indices) in disagreeing {
            let Some((id, name, loop_point)) = item_to_sequence
                .get(&item)
                .and_then(|n| sequences.get(*n))
                .cloned()
            else {
                continue;
            };
            let list: Vec<String> = frame_indices.iter().map(|i| i.to_string()).collect();
            let point = match loop_point {
                Some(p) => format!("loops to frame {p}"),
                None => "does not loop".to_string(),
            };
            self.diagnostics.push(
                Diagnostic::new(
                    Severity::Info,
                    Location::File,
                    format!(
                        "sequence \"{name}\" {point} by its TIER loop point, but the loop flag of FRAM frame{} {} says otherwise; the loop point is used and the flags are kept as they are until the sequence is edited",
                        if list.len() == 1 { "" } else { "s" },
                        list.join(", ")
                    ),
                )
                .about(Subject::Sequence(id)),
            );
        }
    }

    fn meta_plus(&mut self, pairs: &[(Vec<u8>, Vec<u8>)]) {
        let paths = sequence_paths(&self.doc);
        for (name, value) in pairs {
            let (name, value) = (text(name), text(value));
            if let Some(path) = name.strip_prefix(SEQUENCE_RATE_KEY)
                && let Some(id) = paths.get(path)
                && let Ok(rate) = value.parse::<u32>()
                && let Some(sequence) = self.doc.sequence_mut(*id)
                && sequence.frame_rate.is_none()
            {
                sequence.frame_rate = Some(rate);
                continue;
            }
            if name == DEFAULT_SEQUENCE_KEY
                && self.doc.default_sequence.is_none()
                && let Some(id) = paths.get(value.as_str())
            {
                self.doc.default_sequence = Some(*id);
                continue;
            }
            self.doc.metadata.extra.push((name, value));
        }
    }
}

fn push_item(stack: &mut [Group], item: TreeItem) {
    stack
        .last_mut()
        .expect("the root is always there")
        .items
        .push(item);
}

/// The model's loop point for a stored one: `FFFFFFFF` and any point on or past the last
/// frame stop there (D8, the Looping section).
pub fn loop_point(stored: u32, frame_count: usize) -> Option<usize> {
    if stored == NO_LOOP || (stored as usize).saturating_add(1) >= frame_count {
        None
    } else {
        Some(stored as usize)
    }
}

/// The origin a simple graphic gets: the centre of its slice (ambiguity 6).
pub fn default_origin(rect: &PixelRect) -> Point {
    Point {
        x: Fx((rect.width as i32).saturating_mul(Fx::ONE / 2)),
        y: Fx((rect.height as i32).saturating_mul(Fx::ONE / 2)),
    }
}

/// Every sequence by its MET+ path (the first of equal paths wins).
pub fn sequence_paths(doc: &AnimationSet) -> HashMap<String, SequenceId> {
    let mut out = HashMap::new();
    for (path, sequence) in sequences_with_paths(&doc.root) {
        out.entry(path).or_insert(sequence.id);
    }
    out
}

/// Every sequence under `group` in tree order, with its MET+ path ([`sequence_path`]) from
/// `group`.
pub fn sequences_with_paths(group: &Group) -> Vec<(String, &Sequence)> {
    fn walk<'a>(group: &'a Group, path: &mut Vec<&'a str>, out: &mut Vec<(String, &'a Sequence)>) {
        for item in &group.items {
            match item {
                TreeItem::Group(g) => {
                    path.push(&g.name);
                    walk(g, path, out);
                    path.pop();
                }
                TreeItem::Sequence(s) => out.push((sequence_path(path, &s.name), s)),
            }
        }
    }
    let mut out = Vec::new();
    walk(group, &mut Vec::new(), &mut out);
    out
}

fn is_absolute(path: &str) -> bool {
    path.starts_with('/') || path.starts_with('\\') || path.as_bytes().get(1) == Some(&b':')
}

/// The image a texture name refers to: the name plus the first image extension found.
pub fn resolve_texture(dir: &Path, name: &str) -> Option<std::path::PathBuf> {
    if name.is_empty() || is_absolute(name) {
        return None;
    }
    IMAGE_EXTENSIONS
        .iter()
        .map(|ext| dir.join(format!("{name}.{ext}")))
        .find(|p| crate::formats::input::is_file(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_class_check_agrees_with_the_class_a_name_gives() {
        let names = [
            "hit", "HitBox", "attack", "hurt", "Body", "hurtbox", "", "weak", "hits",
        ];
        let classes = [
            BoxClass::Hit,
            BoxClass::Hurt,
            BoxClass::Custom("weak".into()),
            BoxClass::Custom("hit".into()),
            BoxClass::Custom(String::new()),
        ];
        for name in names {
            for class in &classes {
                assert_eq!(
                    name_gives_class(name, class),
                    class_from_name(name) == *class,
                    "{name:?} as {class:?}"
                );
            }
        }
    }
}
