//! An Aseprite file as frames of chunks, each chunk a byte range of the file, and the few
//! chunks the writer rewrites decoded (tags, slices, cels' links).
//!
//! The writer copies every chunk it does not change byte for byte, so this view only has to
//! find chunk boundaries; [`super::parse`] has already checked them when the file was read, and
//! every access here is bounds-checked anyway (a damaged file gives `None`, never a panic).
//! Layout (Aseprite's `docs/ase-file-specs.md`): a 128-byte header, then per frame a 16-byte
//! header and chunks of `[size: u32][type: u16][data]`.

use super::scan::{HEADER_SIZE, TagDirection};
use std::ops::Range;

pub(crate) const FRAME_HEADER_SIZE: usize = 16;
pub(crate) const CHUNK_HEADER_SIZE: usize = 6;
pub(crate) const FRAME_MAGIC: u16 = 0xF1FA;
pub(crate) const CHUNK_LAYER: u16 = 0x2004;
pub(crate) const CHUNK_CEL: u16 = 0x2005;
pub(crate) const CHUNK_CEL_EXTRA: u16 = 0x2006;
pub(crate) const CHUNK_TAGS: u16 = 0x2018;
pub(crate) const CHUNK_PALETTE: u16 = 0x2019;
/// The old palette chunk (8-bit channels, no alpha), which Aseprite wrote beside the new one.
pub(crate) const CHUNK_OLD_PALETTE: u16 = 0x0004;
/// The oldest palette chunk (6-bit channels).
pub(crate) const CHUNK_OLD_PALETTE_6BIT: u16 = 0x0011;
pub(crate) const CHUNK_USER_DATA: u16 = 0x2020;
pub(crate) const CHUNK_SLICE: u16 = 0x2022;
/// A tileset chunk.
pub(crate) const CHUNK_TILESET: u16 = 0x2023;
/// A cel that shows another frame's cel of the same layer.
pub(crate) const CEL_LINKED: u16 = 1;
/// A cel of zlib-compressed pixels.
pub(crate) const CEL_COMPRESSED: u16 = 2;
/// A cel of tiles (a tilemap layer's).
pub(crate) const CEL_TILEMAP: u16 = 3;
/// Where a cel chunk's fields end and its pixels (or link) begin, counted from the chunk start.
pub(crate) const CEL_FIELDS_END: usize = CHUNK_HEADER_SIZE + 16;

/// A chunk and the chunks that only describe it (cel extras, user data), which travel with it.
#[derive(Clone, Debug)]
pub struct Unit {
    /// The chunk's type.
    pub kind: u16,
    /// The main chunk's bytes in the file.
    pub chunk: Range<usize>,
    /// The whole unit, the main chunk and its companions.
    pub whole: Range<usize>,
}

/// One frame: its header and its chunks grouped into units.
#[derive(Clone, Debug)]
pub struct FrameView {
    /// The frame's bytes, header included.
    pub range: Range<usize>,
    /// The frame's duration in milliseconds.
    pub duration: u16,
    /// The units, in file order.
    pub units: Vec<Unit>,
}

/// A tag as the tags chunk holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TagRecord {
    /// First frame.
    pub from: u16,
    /// Last frame.
    pub to: u16,
    /// How it plays.
    pub direction: TagDirection,
    /// Times it plays, 0 = forever.
    pub repeat: u16,
    /// Timeline colour.
    pub color: [u8; 3],
    /// The tag's name.
    pub name: String,
}

/// One key of a slice: from which frame the slice has these bounds (and pivot).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SliceKey {
    /// First frame the key is in force on.
    pub frame: u32,
    /// Bounds: x, y, width, height (a zero size hides the slice from this frame on).
    pub bounds: (i32, i32, u32, u32),
    /// Pivot, relative to the bounds' top-left corner.
    pub pivot: Option<(i32, i32)>,
    /// The 9-patch centre: x, y (relative to the bounds' top-left corner), width, height.
    pub center: Option<(i32, i32, u32, u32)>,
}

/// A slice chunk decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SliceRecord {
    /// Its name.
    pub name: String,
    /// Its keys, in file order.
    pub keys: Vec<SliceKey>,
}

/// The whole file seen as frames of units.
#[derive(Clone, Debug)]
pub struct FileView {
    /// The frames in file order.
    pub frames: Vec<FrameView>,
}

pub(crate) fn word(bytes: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(
        bytes.get(at..at.checked_add(2)?)?.try_into().ok()?,
    ))
}

pub(crate) fn dword(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(
        bytes.get(at..at.checked_add(4)?)?.try_into().ok()?,
    ))
}

fn long(bytes: &[u8], at: usize) -> Option<i32> {
    dword(bytes, at).map(|v| v as i32)
}

/// A STRING: a u16 length and that many UTF-8 bytes; the text and where it ends.
fn string(bytes: &[u8], at: usize) -> Option<(String, usize)> {
    let length = usize::from(word(bytes, at)?);
    let text = bytes.get(at + 2..at + 2 + length)?;
    Some((String::from_utf8_lossy(text).into_owned(), at + 2 + length))
}

impl FileView {
    /// The frames and chunks of `bytes`, or `None` when a frame or chunk runs past the end.
    pub fn of(bytes: &[u8]) -> Option<FileView> {
        let count = word(bytes, 6)?;
        let mut frames =
            Vec::with_capacity(usize::from(count).min(bytes.len() / FRAME_HEADER_SIZE));
        let mut at = HEADER_SIZE;
        for _ in 0..count {
            let size = dword(bytes, at)? as usize;
            if word(bytes, at + 4)? != FRAME_MAGIC || size < FRAME_HEADER_SIZE {
                return None;
            }
            let end = at.checked_add(size).filter(|&e| e <= bytes.len())?;
            let duration = word(bytes, at + 8)?;
            let old_count = word(bytes, at + 6)?;
            let new_count = dword(bytes, at + 12)?;
            let chunks = if new_count == 0 {
                u32::from(old_count)
            } else {
                new_count
            };
            let mut units: Vec<Unit> = Vec::new();
            let mut chunk = at + FRAME_HEADER_SIZE;
            for _ in 0..chunks {
                let chunk_size = dword(bytes, chunk)? as usize;
                let kind = word(bytes, chunk + 4)?;
                let chunk_end = chunk
                    .checked_add(chunk_size)
                    .filter(|&e| e <= end && chunk_size >= CHUNK_HEADER_SIZE)?;
                let attached = matches!(kind, CHUNK_USER_DATA | CHUNK_CEL_EXTRA);
                match units.last_mut() {
                    Some(unit) if attached => unit.whole.end = chunk_end,
                    _ => units.push(Unit {
                        kind,
                        chunk: chunk..chunk_end,
                        whole: chunk..chunk_end,
                    }),
                }
                chunk = chunk_end;
            }
            frames.push(FrameView {
                range: at..end,
                duration,
                units,
            });
            at = end;
        }
        Some(FileView { frames })
    }
}

/// The layer index of a cel chunk, and the frame it links to when it is a linked cel.
pub(crate) fn cel_layer_and_link(chunk: &[u8]) -> Option<(u16, Option<u16>)> {
    let data = CHUNK_HEADER_SIZE;
    let layer = word(chunk, data)?;
    let kind = word(chunk, data + 7)?;
    let link = if kind == CEL_LINKED {
        Some(word(chunk, data + 16)?)
    } else {
        None
    };
    Some((layer, link))
}

/// The tags of a tags chunk (`chunk` includes its header).
pub(crate) fn tags_of(chunk: &[u8]) -> Option<Vec<TagRecord>> {
    let data = &chunk.get(CHUNK_HEADER_SIZE..)?;
    let count = word(data, 0)?;
    let mut tags = Vec::with_capacity(usize::from(count).min(data.len() / 19));
    let mut at = 10;
    for _ in 0..count {
        let direction = match data.get(at + 4)? {
            0 => TagDirection::Forward,
            1 => TagDirection::Reverse,
            2 => TagDirection::PingPong,
            3 => TagDirection::PingPongReverse,
            _ => return None,
        };
        let color = data.get(at + 13..at + 16)?;
        let (name, end) = string(data, at + 17)?;
        tags.push(TagRecord {
            from: word(data, at)?,
            to: word(data, at + 2)?,
            direction,
            repeat: word(data, at + 5)?,
            color: [color[0], color[1], color[2]],
            name,
        });
        at = end;
    }
    Some(tags)
}

/// The slice of a slice chunk (`chunk` includes its header).
pub(crate) fn slice_of(chunk: &[u8]) -> Option<SliceRecord> {
    let data = &chunk.get(CHUNK_HEADER_SIZE..)?;
    let count = dword(data, 0)?;
    let flags = dword(data, 4)?;
    let (name, mut at) = string(data, 12)?;
    let nine_patch = flags & 1 != 0;
    let has_pivot = flags & 2 != 0;
    let key_size = 20 + if nine_patch { 16 } else { 0 } + if has_pivot { 8 } else { 0 };
    let mut keys = Vec::with_capacity((count as usize).min(data.len() / key_size));
    for _ in 0..count {
        let bounds = (
            long(data, at + 4)?,
            long(data, at + 8)?,
            dword(data, at + 12)?,
            dword(data, at + 16)?,
        );
        let center = if nine_patch {
            Some((
                long(data, at + 20)?,
                long(data, at + 24)?,
                dword(data, at + 28)?,
                dword(data, at + 32)?,
            ))
        } else {
            None
        };
        let pivot_at = at + 20 + if nine_patch { 16 } else { 0 };
        let pivot = if has_pivot {
            Some((long(data, pivot_at)?, long(data, pivot_at + 4)?))
        } else {
            None
        };
        keys.push(SliceKey {
            frame: dword(data, at)?,
            bounds,
            pivot,
            center,
        });
        at += key_size;
    }
    Some(SliceRecord { name, keys })
}

/// Bytes of a file being written, with the field writers the chunks need.
#[derive(Default)]
pub(crate) struct Out(pub Vec<u8>);

impl Out {
    pub fn byte(&mut self, v: u8) {
        self.0.push(v);
    }
    pub fn word(&mut self, v: u16) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    pub fn dword(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    pub fn long(&mut self, v: i32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    pub fn zeros(&mut self, n: usize) {
        self.0.resize(self.0.len() + n, 0);
    }
    /// A STRING (u16 length, UTF-8 bytes), cut at 65535 bytes.
    pub fn string(&mut self, text: &str) {
        let mut end = text.len().min(usize::from(u16::MAX));
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        self.word(end as u16);
        self.0.extend_from_slice(&text.as_bytes()[..end]);
    }
}

/// A chunk of `kind` around `data`.
pub(crate) fn chunk(kind: u16, data: &[u8]) -> Vec<u8> {
    let mut out = Out::default();
    out.dword((data.len() + CHUNK_HEADER_SIZE) as u32);
    out.word(kind);
    out.0.extend_from_slice(data);
    out.0
}

/// A tags chunk holding `tags`.
pub(crate) fn tags_chunk(tags: &[TagRecord]) -> Vec<u8> {
    let mut out = Out::default();
    out.word(tags.len() as u16);
    out.zeros(8);
    for tag in tags {
        out.word(tag.from);
        out.word(tag.to);
        out.byte(match tag.direction {
            TagDirection::Forward => 0,
            TagDirection::Reverse => 1,
            TagDirection::PingPong => 2,
            TagDirection::PingPongReverse => 3,
        });
        out.word(tag.repeat);
        out.zeros(6);
        out.0.extend_from_slice(&tag.color);
        out.byte(0);
        out.string(&tag.name);
    }
    chunk(CHUNK_TAGS, &out.0)
}

/// A user data chunk holding only a colour (how Aseprite 1.3 keeps a tag's colour).
pub(crate) fn color_user_data(color: [u8; 3]) -> Vec<u8> {
    let [r, g, b] = color;
    user_data_chunk(&UserData {
        color: Some([r, g, b, 255]),
        ..UserData::default()
    })
}

/// The fields of a user data chunk.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UserData {
    /// Its text.
    pub text: Option<String>,
    /// Its colour, RGBA.
    pub color: Option<[u8; 4]>,
    /// Its properties maps as the file holds them (size field included), kept as bytes.
    pub properties: Option<Vec<u8>>,
}

impl UserData {
    /// True when it holds nothing (Aseprite then writes no chunk for a sprite).
    pub fn is_empty(&self) -> bool {
        self.text.is_none() && self.color.is_none() && self.properties.is_none()
    }
}

/// The fields of a user data chunk (`chunk` includes its header).
pub(crate) fn user_data_of(chunk: &[u8]) -> Option<UserData> {
    let data = chunk.get(CHUNK_HEADER_SIZE..)?;
    let flags = dword(data, 0)?;
    let mut at = 4;
    let mut user = UserData::default();
    if flags & 1 != 0 {
        let (text, end) = string(data, at)?;
        user.text = Some(text);
        at = end;
    }
    if flags & 2 != 0 {
        user.color = Some(data.get(at..at + 4)?.try_into().ok()?);
        at += 4;
    }
    if flags & 4 != 0 {
        let size = dword(data, at)? as usize;
        user.properties = Some(data.get(at..at.checked_add(size)?)?.to_vec());
    }
    Some(user)
}

/// A user data chunk holding `user` (its text cut at 65535 bytes).
pub(crate) fn user_data_chunk(user: &UserData) -> Vec<u8> {
    let flags = u32::from(user.text.is_some())
        | if user.color.is_some() { 2 } else { 0 }
        | if user.properties.is_some() { 4 } else { 0 };
    let mut out = Out::default();
    out.dword(flags);
    if let Some(text) = &user.text {
        out.string(text);
    }
    if let Some(color) = user.color {
        out.0.extend_from_slice(&color);
    }
    if let Some(properties) = &user.properties {
        out.0.extend_from_slice(properties);
    }
    chunk(CHUNK_USER_DATA, &out.0)
}

/// A slice chunk holding `slice`'s keys (9-patch when a key has a centre, with a pivot when a
/// key has one; the other keys then hold zeros there).
pub(crate) fn slice_chunk(slice: &SliceRecord) -> Vec<u8> {
    let has_pivot = slice.keys.iter().any(|k| k.pivot.is_some());
    let nine_patch = slice.keys.iter().any(|k| k.center.is_some());
    let mut out = Out::default();
    out.dword(slice.keys.len() as u32);
    out.dword(u32::from(nine_patch) | if has_pivot { 2 } else { 0 });
    out.dword(0);
    out.string(&slice.name);
    for key in &slice.keys {
        out.dword(key.frame);
        out.long(key.bounds.0);
        out.long(key.bounds.1);
        out.dword(key.bounds.2);
        out.dword(key.bounds.3);
        if nine_patch {
            let (x, y, width, height) = key.center.unwrap_or((0, 0, 0, 0));
            out.long(x);
            out.long(y);
            out.dword(width);
            out.dword(height);
        }
        if has_pivot {
            let (x, y) = key.pivot.unwrap_or((0, 0));
            out.long(x);
            out.long(y);
        }
    }
    chunk(CHUNK_SLICE, &out.0)
}

/// How many chunks follow one another in `bytes` (a unit holds its companions too).
fn chunk_count(bytes: &[u8]) -> usize {
    let mut count = 0;
    let mut at = 0;
    while let Some(size) = dword(bytes, at) {
        count += 1;
        at += (size as usize).max(CHUNK_HEADER_SIZE);
    }
    count
}

/// A frame: its header (size, magic, chunk counts, duration) and `units` (each one chunk or a
/// chunk and its companions).
pub(crate) fn frame(duration: u16, units: &[Vec<u8>]) -> Vec<u8> {
    let chunks: usize = units.iter().map(|u| chunk_count(u)).sum();
    let body: usize = units.iter().map(Vec::len).sum();
    let mut out = Out(Vec::with_capacity(FRAME_HEADER_SIZE + body));
    out.dword((FRAME_HEADER_SIZE + body) as u32);
    out.word(FRAME_MAGIC);
    out.word(u16::try_from(chunks).unwrap_or(u16::MAX));
    out.word(duration);
    out.zeros(2);
    out.dword(chunks as u32);
    for unit in units {
        out.0.extend_from_slice(unit);
    }
    out.0
}

/// A cel that links to `frame`, with the fields (layer, place, opacity, z-index) of `cel`.
pub(crate) fn linked_cel(cel: &[u8], frame: u16) -> Vec<u8> {
    let mut data = cel
        .get(CHUNK_HEADER_SIZE..CEL_FIELDS_END)
        .map(<[u8]>::to_vec)
        .unwrap_or_else(|| vec![0; 16]);
    data[7..9].copy_from_slice(&CEL_LINKED.to_le_bytes());
    data.extend_from_slice(&frame.to_le_bytes());
    chunk(CHUNK_CEL, &data)
}

/// A cel chunk's header and fields (no pixels): `layer`, placed at (`x`, `y`), opaque, of the
/// compressed-image type.
pub(crate) fn cel_head(layer: u16, x: i32, y: i32) -> Vec<u8> {
    let mut fields = Out::default();
    fields.word(layer);
    fields.word(x.clamp(i16::MIN.into(), i16::MAX.into()) as i16 as u16);
    fields.word(y.clamp(i16::MIN.into(), i16::MAX.into()) as i16 as u16);
    fields.byte(255);
    fields.word(CEL_COMPRESSED);
    fields.word(0);
    fields.zeros(5);
    chunk(CHUNK_CEL, &fields.0)
}

/// A cel of `layer` at (`x`, `y`) holding `image`'s RGBA pixels, zlib-compressed.
pub(crate) fn compressed_cel(
    layer: u16,
    x: i32,
    y: i32,
    image: &image::RgbaImage,
) -> Result<Vec<u8>, crate::formats::WriteError> {
    let size = (image.width() as u16, image.height() as u16);
    compressed_pixels_cel(layer, (x, y), size, image.as_raw())
}

/// A cel of `layer` at `place` holding `size` (width, height) pixels in the file's colour
/// mode (4, 2 or 1 bytes each, row by row), zlib-compressed.
pub(crate) fn compressed_pixels_cel(
    layer: u16,
    place: (i32, i32),
    size: (u16, u16),
    pixels: &[u8],
) -> Result<Vec<u8>, crate::formats::WriteError> {
    use std::io::Write;
    let mut data = cel_head(layer, place.0, place.1)[CHUNK_HEADER_SIZE..].to_vec();
    data.extend_from_slice(&size.0.to_le_bytes());
    data.extend_from_slice(&size.1.to_le_bytes());
    let mut encoder = flate2::write::ZlibEncoder::new(data, flate2::Compression::default());
    encoder
        .write_all(pixels)
        .and_then(|_| encoder.finish())
        .map(|data| chunk(CHUNK_CEL, &data))
        .map_err(|e| crate::formats::WriteError::new(format!("cannot compress a picture: {e}")))
}

/// A visible, editable image layer at the top level, drawn with Aseprite's blend mode `blend`
/// (0 normal, 16 addition, 17 subtract, ...) at `opacity` (0 to 255).
pub(crate) fn layer_chunk(name: &str, blend: u16, opacity: u8) -> Vec<u8> {
    let mut out = Out::default();
    out.word(3);
    out.word(0);
    out.word(0);
    out.word(0);
    out.word(0);
    out.word(blend);
    out.byte(opacity);
    out.zeros(3);
    out.string(name);
    chunk(CHUNK_LAYER, &out.0)
}
