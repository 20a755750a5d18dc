//! The JSON an atlas holds, as serde reads it: `frames` (a hash keyed by frame name or an
//! array with `filename`s, in file order either way) and `meta` (image, size, tags, slices),
//! or Phaser 3's multi-atlas, a `textures` list of sheets each with its own `image` and
//! `frames`. Unknown keys are ignored, so sheets from TexturePacker and other tools read too.

use serde::Deserialize;
use serde::de::{Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// A whole atlas JSON file.
#[derive(Debug)]
pub struct SheetJson {
    /// The frames, in file order (none in a Phaser 3 multi-atlas: see `textures`).
    pub frames: Frames,
    /// Everything else.
    pub meta: Meta,
    /// Phaser 3's multi-atlas: the sheets, each with its frames.
    pub textures: Vec<TextureJson>,
}

/// A whole atlas JSON file as it is written: `frames`, or a `textures` list in their place.
#[derive(Debug, Deserialize)]
struct SheetText {
    #[serde(default)]
    frames: Option<Frames>,
    meta: Meta,
    #[serde(default)]
    textures: Vec<TextureJson>,
}

/// One sheet of a Phaser 3 multi-atlas (`textures`): its image and the frames cut from it.
#[derive(Debug, Deserialize)]
pub struct TextureJson {
    /// The sheet image, relative to the JSON file.
    pub image: String,
    /// The sheet's size.
    #[serde(default)]
    pub size: Option<Size>,
    /// The frames, in file order.
    #[serde(default)]
    pub frames: Frames,
}

impl SheetJson {
    /// The sheets the file describes, each with its frames and its image in `meta`: the file
    /// itself, or each texture of a Phaser 3 multi-atlas (with the file's `meta.app`).
    pub fn pages(self) -> Vec<SheetJson> {
        if self.textures.is_empty() {
            return vec![self];
        }
        let app = self.meta.app;
        self.textures
            .into_iter()
            .map(|texture| SheetJson {
                frames: texture.frames,
                meta: Meta {
                    app: app.clone(),
                    image: Some(texture.image),
                    size: texture.size,
                    ..Meta::default()
                },
                textures: Vec::new(),
            })
            .collect()
    }
}

/// The frames in file order, from either form.
#[derive(Debug, Default)]
pub struct Frames {
    /// The frames.
    pub list: Vec<FrameEntry>,
    /// True when the file used the array form.
    pub array: bool,
}

/// One frame: where its pixels are on the sheet and where they go on the canvas.
#[derive(Debug, Deserialize)]
pub struct FrameEntry {
    /// The frame's name (the hash key, or `filename` in the array form).
    #[serde(default)]
    pub filename: String,
    /// The rectangle on the sheet; for a rotated frame, `w` and `h` are the size as shown.
    pub frame: Rect,
    /// Stored turned 90° clockwise (TexturePacker).
    #[serde(default)]
    pub rotated: bool,
    /// Transparent borders were cut off.
    #[serde(default)]
    pub trimmed: bool,
    /// Where the stored pixels sit on the canvas.
    #[serde(default, rename = "spriteSourceSize")]
    pub sprite_source_size: Option<Rect>,
    /// The canvas size.
    #[serde(default, rename = "sourceSize")]
    pub source_size: Option<Size>,
    /// Milliseconds (Aseprite's default 100 when absent, as in TexturePacker files).
    #[serde(default = "default_duration")]
    pub duration: u32,
}

fn default_duration() -> u32 {
    100
}

/// A rectangle in whole pixels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct Rect {
    /// Left.
    pub x: i32,
    /// Top.
    pub y: i32,
    /// Width.
    pub w: u32,
    /// Height.
    pub h: u32,
}

/// A size in whole pixels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct Size {
    /// Width.
    pub w: u32,
    /// Height.
    pub h: u32,
}

/// A point in whole pixels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct Xy {
    /// Horizontal.
    pub x: i32,
    /// Vertical.
    pub y: i32,
}

/// The `meta` object.
#[derive(Debug, Default, Deserialize)]
pub struct Meta {
    /// The program that wrote the file.
    #[serde(default)]
    pub app: String,
    /// The sheet image, relative to the JSON file.
    #[serde(default)]
    pub image: Option<String>,
    /// The sheet's size.
    #[serde(default)]
    pub size: Option<Size>,
    /// Animations.
    #[serde(default, rename = "frameTags")]
    pub frame_tags: Vec<Tag>,
    /// Named rectangles with per-frame keys.
    #[serde(default)]
    pub slices: Vec<SliceJson>,
    /// More atlas files of the same set (TexturePacker's multipack, read by PixiJS).
    #[serde(default)]
    pub related_multi_packs: Vec<String>,
}

/// A frame tag: an animation over a range of frames.
#[derive(Debug, Deserialize)]
pub struct Tag {
    /// Its name.
    pub name: String,
    /// First frame index.
    pub from: usize,
    /// Last frame index (inclusive).
    pub to: usize,
    /// `forward`, `reverse`, `pingpong` or `pingpong_reverse`.
    #[serde(default)]
    pub direction: String,
    /// How many times it plays; absent or 0 = forever. Aseprite writes a string.
    #[serde(default)]
    pub repeat: Option<Repeat>,
    /// User data text.
    #[serde(default)]
    pub data: String,
}

/// A repeat count, written as a string by Aseprite and as a number by some tools.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum Repeat {
    /// `"3"`.
    Text(String),
    /// `3`.
    Number(u64),
}

impl Repeat {
    /// The count, `None` when it is not a number.
    pub fn count(&self) -> Option<u64> {
        match self {
            Repeat::Text(text) => text.trim().parse().ok(),
            Repeat::Number(n) => Some(*n),
        }
    }
}

/// A slice: a named rectangle whose keys change it from a frame on.
#[derive(Debug, Deserialize)]
pub struct SliceJson {
    /// Its name.
    pub name: String,
    /// User data text.
    #[serde(default)]
    pub data: String,
    /// The keys, by frame.
    #[serde(default)]
    pub keys: Vec<SliceKey>,
}

/// A slice's rectangle from one frame on.
#[derive(Debug, Deserialize)]
pub struct SliceKey {
    /// The frame the key starts at.
    pub frame: usize,
    /// The rectangle on the canvas; an empty one removes the slice from this frame on.
    pub bounds: Rect,
    /// The pivot, relative to the bounds.
    #[serde(default)]
    pub pivot: Option<Xy>,
}

impl<'de> Deserialize<'de> for Frames {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Frames, D::Error> {
        deserializer.deserialize_any(FramesVisitor)
    }
}

struct FramesVisitor;

impl<'de> Visitor<'de> for FramesVisitor {
    type Value = Frames;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object of frames by name or an array of frames")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Frames, A::Error> {
        let mut list = Vec::new();
        while let Some((name, mut entry)) = map.next_entry::<String, FrameEntry>()? {
            entry.filename = name;
            list.push(entry);
        }
        Ok(Frames { list, array: false })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Frames, A::Error> {
        let mut list = Vec::new();
        while let Some(entry) = seq.next_element::<FrameEntry>()? {
            list.push(entry);
        }
        Ok(Frames { list, array: true })
    }
}

/// Parses the text; an error carries serde's one-based line and column (0 and 0 for the
/// whole file).
pub fn parse(bytes: &[u8]) -> Result<SheetJson, (u32, u32, String)> {
    let text: SheetText = serde_json::from_slice(bytes).map_err(|e| {
        let text = e.to_string();
        // serde_json appends " at line L column C"; the location goes in front instead.
        let message = match text.rfind(" at line ") {
            Some(at) => text[..at].to_string(),
            None => text,
        };
        (e.line() as u32, e.column() as u32, message)
    })?;
    match (text.frames, text.textures.is_empty()) {
        (None, true) => Err((
            0,
            0,
            "the atlas has no \"frames\" (nor a \"textures\" list of sheets with frames)"
                .to_string(),
        )),
        (frames, _) => Ok(SheetJson {
            frames: frames.unwrap_or_default(),
            meta: text.meta,
            textures: text.textures,
        }),
    }
}
