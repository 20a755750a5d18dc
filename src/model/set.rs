//! The animation set: everything one file describes.

use super::element::{Element, GraphicSource};
use super::frame::Frame;
use super::ids::*;
use super::sequence::Sequence;
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A point in time as ISPRITE stores it (UTC).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Timestamp {
    /// Year CE.
    pub year: u16,
    /// 1..=12.
    pub month: u8,
    /// 1..=31.
    pub day: u8,
    /// 0..=23.
    pub hour: u8,
    /// 0..=59.
    pub minute: u8,
    /// 0..=59.
    pub second: u8,
    /// 0..=99.
    #[serde(default)]
    pub centisecond: u8,
}

/// Descriptive data about the set (ISPRITE META and MET+).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Metadata {
    /// Title.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub title: String,
    /// Author or authors.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub author: String,
    /// Comma-separated tags.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub tags: String,
    /// The project the set belongs to.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub project: String,
    /// The company owning the rights.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub company: String,
    /// Contact information.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub contact: String,
    /// A web address.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub url: String,
    /// Copyright notice.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub copyright: String,
    /// Free comments.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub comments: String,
    /// The program that first created the file (never to be changed by later programs).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub originating_program: String,
    /// The program that last saved the file.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub program: String,
    /// When the file was created.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created: Option<Timestamp>,
    /// When the file was last saved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub saved: Option<Timestamp>,
    /// Time spent working on the file, in milliseconds.
    #[serde(skip_serializing_if = "is_zero")]
    pub work_time_ms: u64,
    /// Free name/value pairs, in order (ISPRITE MET+).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub extra: Vec<(String, String)>,
}

fn is_zero(value: &u64) -> bool {
    *value == 0
}

impl Metadata {
    /// True when no field is set.
    pub fn is_empty(&self) -> bool {
        *self == Metadata::default()
    }
}

/// A palette an SFF archive can be drawn with.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PaletteSource {
    /// The archive's own palette (SFF v2 palette table index; SFF v1: the shared palette).
    Embedded(u32),
    /// A `.act` file (768 bytes, colours in reverse index order).
    ActFile {
        /// The path as the `.def` spells it.
        path: String,
        /// Where it was found on disk when read; not saved.
        #[serde(skip)]
        resolved: Option<PathBuf>,
    },
}

/// What kind of pixel source an image is.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ImageKind {
    /// An ordinary image file (PNG, TGA, ...).
    #[default]
    File,
    /// Solarus `tileset`: the current map's tileset entities image, chosen by the user and
    /// remembered beside the file's settings, never in the sprite file.
    SolarusTileset {
        /// The image the user picked, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        chosen: Option<PathBuf>,
    },
    /// An SFF sprite archive and the palettes it can be shown with.
    Sff {
        /// Available palettes: the `.def`'s pal1..pal12, then the archive's own.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        palettes: Vec<PaletteSource>,
        /// The palette in use (index into `palettes`); `None` = the archive's own colours.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        active_palette: Option<usize>,
    },
    /// Pixels that live in no file yet (the composited frames of an Aseprite file). Writers
    /// that reference image files write them out first; a project file never holds this kind
    /// (crash recovery does, as PNG bytes: see [`MemoryImage`]).
    Memory(MemoryImage),
}

/// RGBA pixels held in memory, shared between the document's copies (undo history, tabs).
#[derive(Clone)]
pub struct MemoryImage(pub Arc<image::RgbaImage>);

impl MemoryImage {
    /// Wraps decoded pixels.
    pub fn new(pixels: image::RgbaImage) -> MemoryImage {
        MemoryImage(Arc::new(pixels))
    }
}

impl PartialEq for MemoryImage {
    fn eq(&self, other: &Self) -> bool {
        // Copies of a document share the pixels; comparing them byte by byte is the fallback.
        Arc::ptr_eq(&self.0, &other.0) || *self.0 == *other.0
    }
}

impl Eq for MemoryImage {}

/// Serialised as the PNG bytes of the pixels, so crash recovery keeps them.
impl Serialize for MemoryImage {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use image::ImageEncoder;
        let mut png = Vec::new();
        image::codecs::png::PngEncoder::new(&mut png)
            .write_image(
                self.0.as_raw(),
                self.0.width(),
                self.0.height(),
                image::ExtendedColorType::Rgba8,
            )
            .map_err(serde::ser::Error::custom)?;
        serializer.serialize_bytes(&png)
    }
}

impl<'de> Deserialize<'de> for MemoryImage {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct PngBytes;
        impl<'de> serde::de::Visitor<'de> for PngBytes {
            type Value = Vec<u8>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("the PNG bytes of an image")
            }
            fn visit_bytes<E: serde::de::Error>(self, bytes: &[u8]) -> Result<Vec<u8>, E> {
                Ok(bytes.to_vec())
            }
            fn visit_byte_buf<E: serde::de::Error>(self, bytes: Vec<u8>) -> Result<Vec<u8>, E> {
                Ok(bytes)
            }
        }
        let png = deserializer.deserialize_byte_buf(PngBytes)?;
        // The decoder's default limits bound what a damaged recovery file can allocate.
        let pixels = image::load_from_memory_with_format(&png, image::ImageFormat::Png)
            .map_err(serde::de::Error::custom)?;
        Ok(MemoryImage::new(pixels.into_rgba8()))
    }
}

impl std::fmt::Debug for MemoryImage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "MemoryImage({}x{})", self.0.width(), self.0.height())
    }
}

/// An image (or archive of images) the set draws from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SourceImage {
    /// Stable id.
    pub id: ImageId,
    /// The path as the source file spells it (relative to wherever that format resolves it).
    pub path: String,
    /// Where the file was found on disk when read; not saved.
    #[serde(skip)]
    pub resolved: Option<PathBuf>,
    /// What kind of source it is.
    #[serde(default, skip_serializing_if = "is_file")]
    pub kind: ImageKind,
    /// Draw with nearest-neighbour filtering (pixel art).
    #[serde(default = "yes")]
    pub nearest_neighbour: bool,
}

fn yes() -> bool {
    true
}

fn is_file(kind: &ImageKind) -> bool {
    *kind == ImageKind::File
}

/// A rectangle in image pixels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PixelRect {
    /// Left edge.
    pub x: i32,
    /// Top edge.
    pub y: i32,
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
}

/// A rectangle on a source image that graphics can show.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Slice {
    /// Stable id.
    pub id: SliceId,
    /// The image it is cut from.
    pub image: ImageId,
    /// Where on the image. For a rotated slice, width and height are the displayed size; the
    /// texture footprint is height × width.
    pub rect: PixelRect,
    /// Stored rotated 90° clockwise on the image (ISPRITE packing); shown rotated back.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rotated: bool,
}

/// A group of the hierarchy tree; the set's root group is implicit and unnamed.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Group {
    /// Stable id.
    pub id: GroupId,
    /// Name (empty for the root).
    #[serde(default)]
    pub name: String,
    /// Child groups and sequences, in order.
    #[serde(default)]
    pub items: Vec<TreeItem>,
}

/// A child of a group.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum TreeItem {
    /// A nested group.
    Group(Group),
    /// A sequence.
    Sequence(Sequence),
}

/// The bytes a document was read from, kept so the writer of the same format can reproduce
/// every byte the user did not edit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OriginalSource {
    /// The id of the format that read it (see [`crate::formats::Format::id`]).
    pub format: String,
    /// The file's bytes as read.
    pub bytes: Arc<Vec<u8>>,
    /// Where the file was read from, if from disk.
    pub path: Option<PathBuf>,
}

/// Everything one animation file describes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AnimationSet {
    /// Descriptive data.
    #[serde(default, skip_serializing_if = "Metadata::is_empty")]
    pub metadata: Metadata,
    /// Master frame rate for hold-based durations (ISPRITE); 0 = no automatic playback.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame_rate: Option<u32>,
    /// Source images, archives and placeholders.
    #[serde(default)]
    pub images: Vec<SourceImage>,
    /// Rectangles on the images.
    #[serde(default)]
    pub slices: Vec<Slice>,
    /// The hierarchy: groups and sequences under the implicit root.
    pub root: Group,
    /// Every frame, by id, in file order. Sequences refer to them; some may be unused.
    #[serde(default)]
    pub frames: IndexMap<FrameId, Frame>,
    /// The sequence shown first; `None` = the first one in the tree.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_sequence: Option<SequenceId>,
    /// The next unused id.
    pub next_id: u64,
    /// The bytes this set was read from and by which format; not saved.
    #[serde(skip)]
    pub original: Option<OriginalSource>,
    /// Other files read together with the main one, with their bytes (the `.air` a character
    /// `.def` names), so the main format's writer can save them keeping every byte the user did
    /// not edit; and the archives and `.act` palettes a save wrote over, as they were before
    /// (kept whatever is undone, see [`AnimationSet::held_file`]); not saved.
    #[serde(skip)]
    pub companion_originals: Vec<OriginalSource>,
    /// Source images whose file was edited and not yet saved (an SFF archive whose sprites,
    /// axes or palettes changed): the whole file as it is to be written, by image. The writer
    /// of the set saves each beside it; not saved in project files.
    #[serde(skip)]
    pub edited_files: Vec<EditedFile>,
}

/// The new contents of a source image's file, edited in Sprat and not yet saved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EditedFile {
    /// The image (an SFF archive) whose file this replaces.
    pub image: ImageId,
    /// `None`: the image's own file; `Some(n)`: the `.act` file of the image's palette
    /// source `n` (a `.def`'s `palN`).
    pub palette: Option<usize>,
    /// The file's bytes as they are to be written. Shared: undo steps and views hold the same
    /// bytes, never copies.
    pub bytes: Arc<Vec<u8>>,
}

impl EditedFile {
    /// Sets the unsaved contents of image `image`'s file (`palette`: `None`) or of its palette
    /// source `palette`'s `.act` in `files`, replacing what was there.
    pub fn put(
        files: &mut Vec<EditedFile>,
        image: ImageId,
        palette: Option<usize>,
        bytes: Arc<Vec<u8>>,
    ) {
        match files
            .iter_mut()
            .find(|f| f.image == image && f.palette == palette)
        {
            Some(file) => file.bytes = bytes,
            None => files.push(EditedFile {
                image,
                palette,
                bytes,
            }),
        }
    }
}

impl Default for AnimationSet {
    fn default() -> Self {
        AnimationSet::new()
    }
}

impl AnimationSet {
    /// An empty set.
    pub fn new() -> AnimationSet {
        AnimationSet {
            metadata: Metadata::default(),
            frame_rate: None,
            images: Vec::new(),
            slices: Vec::new(),
            root: Group {
                id: GroupId(0),
                name: String::new(),
                items: Vec::new(),
            },
            frames: IndexMap::new(),
            default_sequence: None,
            next_id: 1,
            original: None,
            companion_originals: Vec::new(),
            edited_files: Vec::new(),
        }
    }

    /// A fresh id, never handed out before in this set.
    pub fn alloc_id(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    /// Every sequence, depth first in tree order.
    pub fn sequences(&self) -> Vec<&Sequence> {
        let mut out = Vec::new();
        collect_sequences(&self.root, &mut out);
        out
    }

    /// The sequence with this id.
    pub fn sequence(&self, id: SequenceId) -> Option<&Sequence> {
        find_sequence(&self.root, id)
    }

    /// The sequence with this id, mutably.
    pub fn sequence_mut(&mut self, id: SequenceId) -> Option<&mut Sequence> {
        find_sequence_mut(&mut self.root, id)
    }

    /// Every sequence mutably, depth first in tree order.
    pub fn sequences_mut(&mut self) -> Vec<&mut Sequence> {
        let mut out = Vec::new();
        collect_sequences_mut(&mut self.root, &mut out);
        out
    }

    /// The group with this id (the root has id 0 unless a reader chose another).
    pub fn group(&self, id: GroupId) -> Option<&Group> {
        find_group(&self.root, id)
    }

    /// The groups from the root down to the group holding `sequence` (root first).
    pub fn group_path(&self, sequence: SequenceId) -> Vec<&Group> {
        let mut path = Vec::new();
        if group_path(&self.root, sequence, &mut path) {
            path
        } else {
            Vec::new()
        }
    }

    /// The sequence played first: the default one, else the first in the tree.
    pub fn first_sequence(&self) -> Option<&Sequence> {
        self.default_sequence
            .and_then(|id| self.sequence(id))
            .or_else(|| self.sequences().into_iter().next())
    }

    /// The first sequence with exactly this name.
    pub fn sequence_by_name(&self, name: &str) -> Option<&Sequence> {
        self.sequences().into_iter().find(|s| s.name == name)
    }

    /// The frame with this id.
    pub fn frame(&self, id: FrameId) -> Option<&Frame> {
        self.frames.get(&id)
    }

    /// The frame with this id, mutably.
    pub fn frame_mut(&mut self, id: FrameId) -> Option<&mut Frame> {
        self.frames.get_mut(&id)
    }

    /// The box classes used anywhere in the document (drawn or declared), sorted: hit and
    /// hurt first.
    pub fn box_classes(&self) -> Vec<super::BoxClass> {
        let mut classes = Vec::new();
        for frame in self.frames.values() {
            let drawn = frame.boxes().map(|(_, b)| &b.class);
            for class in drawn.chain(frame.box_declarations.iter().map(|d| &d.class)) {
                if !classes.contains(class) {
                    classes.push(class.clone());
                }
            }
        }
        classes.sort();
        classes
    }

    /// The frames of one direction of a sequence, in play order (missing ids are skipped).
    pub fn direction_frames(&self, sequence: &Sequence, direction: usize) -> Vec<&Frame> {
        sequence
            .directions
            .get(direction)
            .map(|d| {
                d.frames
                    .iter()
                    .filter_map(|id| self.frames.get(id))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The image with this id.
    pub fn image(&self, id: ImageId) -> Option<&SourceImage> {
        self.images.iter().find(|i| i.id == id)
    }

    /// The contents the document holds for image `id`'s file (an SFF archive): its unsaved
    /// edits, else the bytes it was read as when the document holds them (see
    /// [`AnimationSet::held_file`]). `None`: the file on disk is the archive as the document
    /// has it.
    pub fn edited_file(&self, id: ImageId) -> Option<&Arc<Vec<u8>>> {
        self.held_file(id, None)
    }

    /// The contents the document holds for the `.act` file of palette source `palette` of
    /// image `id`: its unsaved colours, else the bytes it was read as when the document holds
    /// them (see [`AnimationSet::held_file`]). `None`: the file on disk is the palette.
    pub fn edited_palette(&self, id: ImageId, palette: usize) -> Option<&Arc<Vec<u8>>> {
        self.held_file(id, Some(palette))
    }

    /// The contents the document holds for image `id`'s file (`palette`: `None`) or for the
    /// `.act` of its palette source `palette`: the unsaved edits, else the bytes the file was
    /// read as, when [`AnimationSet::original`] or [`AnimationSet::companion_originals`] hold
    /// them (the document's own file, or one a save wrote over: after an undo back to before
    /// the edit, the file on disk holds the undone edit, not what the document has).
    pub fn held_file(&self, id: ImageId, palette: Option<usize>) -> Option<&Arc<Vec<u8>>> {
        self.edited_files
            .iter()
            .find(|f| f.image == id && f.palette == palette)
            .map(|f| &f.bytes)
            .or_else(|| self.as_read(self.source_file(id, palette)?))
    }

    /// Where image `id`'s file (`palette`: `None`) or the `.act` of its palette source
    /// `palette` was found on disk.
    pub fn source_file(&self, id: ImageId, palette: Option<usize>) -> Option<&Path> {
        let image = self.image(id)?;
        match palette {
            None => image.resolved.as_deref(),
            Some(n) => match &image.kind {
                ImageKind::Sff { palettes, .. } => match palettes.get(n)? {
                    PaletteSource::ActFile { resolved, .. } => resolved.as_deref(),
                    PaletteSource::Embedded(_) => None,
                },
                _ => None,
            },
        }
    }

    /// The bytes the file at `path` was read as, when the document holds them: its own file's
    /// or a companion's.
    pub fn as_read(&self, path: &Path) -> Option<&Arc<Vec<u8>>> {
        self.original
            .iter()
            .chain(&self.companion_originals)
            .find(|o| o.path.as_deref() == Some(path))
            .map(|o| &o.bytes)
    }

    /// The files a save writes beside the document's own: every edited archive and `.act`
    /// palette, and every one a save wrote over whose edits were undone since (the bytes it
    /// was read as, which the file on disk no longer holds). A file the document holds no
    /// contents of is left as it is on disk.
    pub fn files_to_write_beside(&self) -> Vec<EditedFile> {
        let mut files = self.edited_files.clone();
        for image in &self.images {
            let ImageKind::Sff { palettes, .. } = &image.kind else {
                continue;
            };
            let sources = std::iter::once(None).chain((0..palettes.len()).map(Some));
            for palette in sources {
                if files
                    .iter()
                    .any(|f| f.image == image.id && f.palette == palette)
                {
                    continue;
                }
                let Some(path) = self.source_file(image.id, palette) else {
                    continue;
                };
                // The document's own file is its format's to write, not a file beside it.
                let beside = self
                    .companion_originals
                    .iter()
                    .find(|o| o.path.as_deref() == Some(path));
                if let Some(read) = beside {
                    files.push(EditedFile {
                        image: image.id,
                        palette,
                        bytes: Arc::clone(&read.bytes),
                    });
                }
            }
        }
        files
    }

    /// The slice with this id.
    pub fn slice(&self, id: SliceId) -> Option<&Slice> {
        self.slices.iter().find(|s| s.id == id)
    }

    /// The image a graphic source draws from.
    pub fn source_image(&self, source: &GraphicSource) -> Option<&SourceImage> {
        match source {
            GraphicSource::Slice(id) => self.slice(*id).and_then(|s| self.image(s.image)),
            GraphicSource::Image(id) => self.image(*id),
            GraphicSource::SffSprite { archive, .. } => self.image(*archive),
        }
    }

    /// The element with this id and the frame holding it.
    pub fn element(&self, id: ElementId) -> Option<(FrameId, &Element)> {
        self.frames
            .iter()
            .find_map(|(fid, f)| f.elements.iter().find(|e| e.id == id).map(|e| (*fid, e)))
    }

    /// The smallest id not used by anything in the set, for readers that take ids from a file.
    pub fn max_used_id(&self) -> u64 {
        let mut max = self.root.id.0;
        let mut groups = vec![&self.root];
        while let Some(group) = groups.pop() {
            max = max.max(group.id.0);
            for item in &group.items {
                match item {
                    TreeItem::Group(g) => groups.push(g),
                    TreeItem::Sequence(s) => {
                        max = max.max(s.id.0);
                        for d in &s.directions {
                            max = max.max(d.id.0);
                        }
                    }
                }
            }
        }
        for (id, frame) in &self.frames {
            max = max.max(id.0);
            for e in &frame.elements {
                max = max.max(e.id.0);
            }
        }
        for i in &self.images {
            max = max.max(i.id.0);
        }
        for s in &self.slices {
            max = max.max(s.id.0);
        }
        max
    }
}

fn collect_sequences<'a>(group: &'a Group, out: &mut Vec<&'a Sequence>) {
    for item in &group.items {
        match item {
            TreeItem::Group(g) => collect_sequences(g, out),
            TreeItem::Sequence(s) => out.push(s),
        }
    }
}

fn collect_sequences_mut<'a>(group: &'a mut Group, out: &mut Vec<&'a mut Sequence>) {
    for item in &mut group.items {
        match item {
            TreeItem::Group(g) => collect_sequences_mut(g, out),
            TreeItem::Sequence(s) => out.push(s),
        }
    }
}

fn find_sequence(group: &Group, id: SequenceId) -> Option<&Sequence> {
    group.items.iter().find_map(|item| match item {
        TreeItem::Group(g) => find_sequence(g, id),
        TreeItem::Sequence(s) => (s.id == id).then_some(s),
    })
}

fn find_sequence_mut(group: &mut Group, id: SequenceId) -> Option<&mut Sequence> {
    group.items.iter_mut().find_map(|item| match item {
        TreeItem::Group(g) => find_sequence_mut(g, id),
        TreeItem::Sequence(s) => (s.id == id).then_some(s),
    })
}

fn find_group(group: &Group, id: GroupId) -> Option<&Group> {
    if group.id == id {
        return Some(group);
    }
    group.items.iter().find_map(|item| match item {
        TreeItem::Group(g) => find_group(g, id),
        TreeItem::Sequence(_) => None,
    })
}

fn group_path<'a>(group: &'a Group, sequence: SequenceId, path: &mut Vec<&'a Group>) -> bool {
    path.push(group);
    for item in &group.items {
        match item {
            TreeItem::Sequence(s) if s.id == sequence => return true,
            TreeItem::Group(g) if group_path(g, sequence, path) => return true,
            _ => {}
        }
    }
    path.pop();
    false
}
