//! A walk over the file's frame and chunk headers before the `asefile` crate reads it.
//!
//! The crate trusts the sizes a file declares: it reserves a cel's or tileset's decoded size
//! before inflating it and multiplies tile counts in 32 bits. The walk checks every declared size
//! against the bytes that hold it, so what the crate allocates stays tied to the file's length,
//! and it reports a damaged file at the byte where the damage is. It also reads the one thing
//! the crate drops: each tag's repeat count and the ping-pong-reverse direction, which the
//! crate refuses (the walk hands it a copy in which those tags say ping-pong).

use std::borrow::Cow;

/// The size of the file header.
pub const HEADER_SIZE: usize = 128;
const FRAME_HEADER_SIZE: usize = 16;
const CHUNK_HEADER_SIZE: usize = 6;
const FILE_MAGIC: u16 = 0xA5E0;
const FRAME_MAGIC: u16 = 0xF1FA;
const CHUNK_LAYER: u16 = 0x2004;
const CHUNK_CEL: u16 = 0x2005;
const CHUNK_COLOR_PROFILE: u16 = 0x2007;
const CHUNK_TAGS: u16 = 0x2018;
const CHUNK_TILESET: u16 = 0x2023;
const TILESET_HAS_TILES: u32 = 2;
const LAYER_VISIBLE: u16 = 1;
const LAYER_REFERENCE: u16 = 0x40;
const LAYER_GROUP: u16 = 1;
const GROUPS_COMPOSITE: u32 = 2;
/// zlib inflates at most 1032 bytes per input byte; a size declared beyond that (with room
/// for tiny images) cannot be real, and refusing it bounds what the crate reserves.
const MAX_INFLATE_RATIO: u64 = 1100;
const SMALL_IMAGE_BYTES: u64 = 64 * 1024;
/// The composited frames are kept in memory: canvas bytes times frames stay under this, and
/// under [`SMALL_CANVAS_BYTES`] plus [`MAX_INFLATE_RATIO`] times the file's length (a picture
/// can hold no more than the file's compressed pixels can fill, beyond a blank canvas).
pub const COMPOSITE_LIMIT: u64 = 512 * 1024 * 1024;
/// What a file of any length may composite (a blank 4096x4096 canvas).
pub const SMALL_CANVAS_BYTES: u64 = 64 * 1024 * 1024;

/// How a tag plays, as the file says (Aseprite's `AniDir`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TagDirection {
    /// First to last frame.
    Forward,
    /// Last to first frame.
    Reverse,
    /// First to last, then back.
    PingPong,
    /// Last to first, then back.
    PingPongReverse,
}

/// A tag's playing rule as the file stores it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TagHeader {
    /// First frame.
    pub from: u16,
    /// Last frame (inclusive).
    pub to: u16,
    /// How it plays.
    pub direction: TagDirection,
    /// Times it plays; 0 = forever.
    pub repeat: u16,
    /// The tag's colour in the timeline (the older field; newer files repeat it in user data).
    pub color: [u8; 3],
}

/// What the walk found.
#[derive(Debug)]
pub struct Scan<'a> {
    /// The bytes to give the crate (a copy only when a tag direction had to be rewritten).
    pub bytes: Cow<'a, [u8]>,
    /// Where each frame starts.
    pub frame_offsets: Vec<usize>,
    /// The tags of frame 0's tags chunk (the last one, as the crate takes it).
    pub tags: Vec<TagHeader>,
    /// What was read differently from the file, with where (an embedded colour profile).
    pub notes: Vec<(usize, String)>,
}

/// A damaged or unsupported file: where and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScanError {
    /// Byte offset.
    pub offset: usize,
    /// A plain sentence.
    pub message: String,
}

fn fail<T>(offset: usize, message: impl Into<String>) -> Result<T, ScanError> {
    Err(ScanError {
        offset,
        message: message.into(),
    })
}

fn word(bytes: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(bytes.get(at..at + 2)?.try_into().ok()?))
}

fn dword(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

/// True when `bytes` start like an Aseprite file.
pub fn has_magic(bytes: &[u8]) -> bool {
    word(bytes, 4) == Some(FILE_MAGIC)
}

/// Walks the headers of `bytes`.
pub fn scan(bytes: &[u8]) -> Result<Scan<'_>, ScanError> {
    if bytes.len() < HEADER_SIZE {
        return fail(
            bytes.len(),
            format!("the file ends inside its {HEADER_SIZE}-byte header"),
        );
    }
    if !has_magic(bytes) {
        return fail(
            4,
            "not an Aseprite file (the magic number 0xA5E0 is missing)",
        );
    }
    let frames = word(bytes, 6).unwrap_or(0);
    let (width, height) = (word(bytes, 8).unwrap_or(0), word(bytes, 10).unwrap_or(0));
    let depth = word(bytes, 12).unwrap_or(0);
    let bytes_per_pixel: u64 = match depth {
        8 => 1,
        16 => 2,
        32 => 4,
        other => return fail(12, format!("unknown colour depth {other} (8, 16 or 32)")),
    };
    if width == 0 || height == 0 {
        return fail(8, format!("the canvas is {width}x{height} pixels"));
    }
    let composite = u64::from(width) * u64::from(height) * 4 * u64::from(frames);
    let limit = COMPOSITE_LIMIT.min(SMALL_CANVAS_BYTES + bytes.len() as u64 * MAX_INFLATE_RATIO);
    if composite > limit {
        return fail(
            6,
            format!(
                "{frames} frames of {width}x{height} pixels need {} MiB composited, more than the {} MiB a file of this length can fill",
                composite >> 20,
                limit >> 20
            ),
        );
    }
    let mut walk = Walk {
        bytes,
        groups_composite: dword(bytes, 14).unwrap_or(0) & GROUPS_COMPOSITE != 0,
        bytes_per_pixel,
        tags: None,
        child_levels: Vec::new(),
        frames,
        rewrite: Vec::new(),
        notes: Vec::new(),
    };
    let mut frame_offsets = Vec::with_capacity(usize::from(frames));
    let mut at = HEADER_SIZE;
    for index in 0..frames {
        frame_offsets.push(at);
        at = walk.frame(at, index)?;
    }
    let bytes = if walk.rewrite.is_empty() {
        Cow::Borrowed(bytes)
    } else {
        let mut copy = bytes.to_vec();
        for &(offset, value) in &walk.rewrite {
            copy[offset] = value;
        }
        Cow::Owned(copy)
    };
    Ok(Scan {
        bytes,
        frame_offsets,
        tags: walk.tags.unwrap_or_default(),
        notes: walk.notes,
    })
}

struct Walk<'a> {
    bytes: &'a [u8],
    /// The header says group layers are composited on their own, with their opacity and blend
    /// mode (Aseprite 1.3 files).
    groups_composite: bool,
    bytes_per_pixel: u64,
    tags: Option<Vec<TagHeader>>,
    /// The child level of each layer read so far.
    child_levels: Vec<u16>,
    /// The frame count the header declares.
    frames: u16,
    /// Bytes the crate must see otherwise (offset, value): ping-pong-reverse tags as
    /// ping-pong, embedded colour profiles as sRGB, reference layers hidden.
    rewrite: Vec<(usize, u8)>,
    notes: Vec<(usize, String)>,
}

impl Walk<'_> {
    /// Checks the frame at `at`; returns where the next one starts.
    fn frame(&mut self, at: usize, index: u16) -> Result<usize, ScanError> {
        let bytes = self.bytes;
        if bytes.len() < at + FRAME_HEADER_SIZE {
            return fail(
                at,
                format!("the file ends inside the header of frame {index}"),
            );
        }
        if word(bytes, at + 4) != Some(FRAME_MAGIC) {
            return fail(
                at + 4,
                format!("frame {index} lacks its magic number 0xF1FA"),
            );
        }
        let declared = dword(bytes, at).unwrap_or(0) as usize;
        let old_count = word(bytes, at + 6).unwrap_or(0);
        let new_count = dword(bytes, at + 12).unwrap_or(0);
        let count = if new_count == 0 {
            u32::from(old_count)
        } else {
            new_count
        };
        let frame_end = at.saturating_add(declared).min(bytes.len());
        let mut chunk = at + FRAME_HEADER_SIZE;
        for _ in 0..count {
            if bytes.len() < chunk + CHUNK_HEADER_SIZE {
                return fail(
                    chunk,
                    format!("the file ends inside a chunk of frame {index}"),
                );
            }
            let size = dword(bytes, chunk).unwrap_or(0) as usize;
            let kind = word(bytes, chunk + 4).unwrap_or(0);
            if size < CHUNK_HEADER_SIZE {
                return fail(
                    chunk,
                    format!("a chunk of frame {index} declares {size} bytes"),
                );
            }
            let end = chunk.saturating_add(size);
            if end > bytes.len() {
                return fail(
                    chunk,
                    format!("the file ends inside a {size}-byte chunk of frame {index}"),
                );
            }
            if end > frame_end {
                return fail(
                    chunk,
                    format!(
                        "a chunk of frame {index} declares {size} bytes, past the end of its frame"
                    ),
                );
            }
            let data = &bytes[chunk + CHUNK_HEADER_SIZE..end];
            let data_at = chunk + CHUNK_HEADER_SIZE;
            match kind {
                CHUNK_CEL => self.cel(data, data_at)?,
                CHUNK_TILESET => self.tileset(data, data_at)?,
                CHUNK_COLOR_PROFILE => self.color_profile(data, data_at),
                CHUNK_LAYER => self.layer(data, data_at)?,
                CHUNK_TAGS if index == 0 => self.tags = Some(self.read_tags(data, data_at)?),
                _ => {}
            }
            chunk = end;
        }
        Ok(chunk)
    }

    fn cel(&self, data: &[u8], at: usize) -> Result<(), ScanError> {
        let kind = word(data, 7).unwrap_or(u16::MAX);
        // The crate looks a cel's layer and a linked cel's frame up without checking them.
        let layer = word(data, 0).unwrap_or(0);
        if usize::from(layer) >= self.child_levels.len() {
            return fail(
                at,
                format!(
                    "a cel is on layer {layer}, but the file has {} layer(s)",
                    self.child_levels.len()
                ),
            );
        }
        if kind == 1 {
            let target = word(data, 16).unwrap_or(u16::MAX);
            if target >= self.frames {
                return fail(
                    at + 16,
                    format!(
                        "a linked cel shows frame {target}, but the file has {} frame(s)",
                        self.frames
                    ),
                );
            }
        }
        let bytes_per_pixel = match kind {
            0 | 2 => self.bytes_per_pixel,
            3 => 4,
            _ => return Ok(()),
        };
        let (Some(width), Some(height)) = (word(data, 16), word(data, 18)) else {
            return fail(at, "a cel chunk is too short for its size");
        };
        let decoded = u64::from(width) * u64::from(height) * bytes_per_pixel;
        check_declared(decoded, data.len(), at, &format!("a {width}x{height} cel"))?;
        // The crate indexes the pixels it decoded by the declared size: fewer pixels than that
        // would make it panic, so a cel that holds fewer is refused here.
        let held = match kind {
            0 => data.len().saturating_sub(20) as u64,
            2 => inflated_length(data.get(20..).unwrap_or_default(), decoded),
            _ => return Ok(()),
        };
        if held < decoded {
            return fail(
                at,
                format!(
                    "a {width}x{height} cel holds {held} bytes of pixels, fewer than the {decoded} its size needs: the file is damaged"
                ),
            );
        }
        Ok(())
    }

    fn tileset(&self, data: &[u8], at: usize) -> Result<(), ScanError> {
        let flags = dword(data, 4).unwrap_or(0);
        if flags & TILESET_HAS_TILES == 0 {
            return Ok(());
        }
        let (Some(count), Some(width), Some(height)) =
            (dword(data, 8), word(data, 12), word(data, 14))
        else {
            return fail(at, "a tileset chunk is too short for its size");
        };
        let pixels = u64::from(count) * u64::from(width) * u64::from(height);
        // The crate counts the pixels in 32 bits.
        if pixels > u64::from(u32::MAX) {
            return fail(
                at,
                format!("a tileset declares {count} tiles of {width}x{height} pixels"),
            );
        }
        let what = format!("a tileset of {count} {width}x{height} tiles");
        check_declared(pixels * self.bytes_per_pixel, data.len(), at, &what)
    }

    /// The crate refuses ICC profiles and custom gamma, which only change how colours are
    /// shown on screen, never the stored pixels: they are read as sRGB, and the user told.
    fn color_profile(&mut self, data: &[u8], at: usize) {
        let (Some(kind), Some(flags)) = (word(data, 0), word(data, 2)) else {
            return;
        };
        if kind == 2 {
            self.rewrite.push((at, 1));
            self.rewrite.push((at + 1, 0));
            let note = "the embedded ICC colour profile is not applied: colours are shown as sRGB";
            self.notes.push((at, note.to_string()));
        }
        if flags & 1 != 0 {
            self.rewrite.push((at + 2, (flags & 0xFE) as u8));
            let note = "the custom gamma of the colour profile is not applied";
            self.notes.push((at + 2, note.to_string()));
        }
    }

    /// Reference layers are tracing aids: Aseprite leaves them out of what it exports, so the
    /// crate is shown them hidden. Group opacity and blend modes are not applied by the crate
    /// (it draws a group's layers straight onto the frame): the user is told.
    fn layer(&mut self, data: &[u8], at: usize) -> Result<(), ScanError> {
        let (Some(flags), Some(kind)) = (word(data, 0), word(data, 2)) else {
            return Ok(());
        };
        let name_length = usize::from(word(data, 16).unwrap_or(0));
        let name = data
            .get(18..18 + name_length)
            .map(String::from_utf8_lossy)
            .unwrap_or_default();
        // A nested layer sits under an earlier one of a lower level (its group); the crate
        // panics looking for a group that is not there.
        let level = word(data, 4).unwrap_or(0);
        if level > 0 && !self.child_levels.iter().any(|&l| l < level) {
            return fail(
                at + 4,
                format!("layer \"{name}\" is nested {level} level(s) deep under no group"),
            );
        }
        self.child_levels.push(level);
        if flags & LAYER_REFERENCE != 0 && flags & LAYER_VISIBLE != 0 {
            self.rewrite.push((at, (flags & !LAYER_VISIBLE) as u8));
            let note =
                format!("reference layer \"{name}\" is not drawn (Aseprite does not export it)");
            self.notes.push((at, note));
        }
        let (blend, opacity) = (word(data, 10).unwrap_or(0), data.get(12).copied());
        let group_drawn_apart = kind == LAYER_GROUP && self.groups_composite;
        if group_drawn_apart && (blend != 0 || opacity.is_some_and(|o| o < 255)) {
            let note = format!(
                "group \"{name}\": its own opacity and blend mode are not applied; its layers are drawn with theirs"
            );
            self.notes.push((at, note));
        }
        Ok(())
    }

    fn read_tags(&mut self, data: &[u8], at: usize) -> Result<Vec<TagHeader>, ScanError> {
        let count = word(data, 0).unwrap_or(0);
        let mut tags = Vec::new();
        let mut pos = 10;
        for _ in 0..count {
            // A damaged name length can put `pos` past the chunk: the error points at its end.
            let short = || fail(at + pos.min(data.len()), "the tags chunk ends inside a tag");
            let (Some(from), Some(to), Some(&direction), Some(repeat)) = (
                word(data, pos),
                word(data, pos + 2),
                data.get(pos + 4),
                word(data, pos + 5),
            ) else {
                return short();
            };
            let Some(color) = data.get(pos + 13..pos + 16) else {
                return short();
            };
            let Some(name_length) = word(data, pos + 17) else {
                return short();
            };
            let direction = match direction {
                0 => TagDirection::Forward,
                1 => TagDirection::Reverse,
                2 => TagDirection::PingPong,
                3 => {
                    self.rewrite.push((at + pos + 4, 2));
                    TagDirection::PingPongReverse
                }
                other => return fail(at + pos + 4, format!("unknown tag direction {other}")),
            };
            tags.push(TagHeader {
                from,
                to,
                direction,
                repeat,
                color: [color[0], color[1], color[2]],
            });
            pos += 19 + usize::from(name_length);
        }
        Ok(tags)
    }
}

fn check_declared(decoded: u64, held: usize, at: usize, what: &str) -> Result<(), ScanError> {
    if decoded > held as u64 * MAX_INFLATE_RATIO + SMALL_IMAGE_BYTES {
        return fail(
            at,
            format!(
                "{what} needs {decoded} bytes but its chunk holds only {held}: the file is damaged"
            ),
        );
    }
    Ok(())
}

/// How many bytes the zlib stream `compressed` inflates to, counting no further than `needed`
/// (a damaged stream counts what inflated before the damage).
fn inflated_length(compressed: &[u8], needed: u64) -> u64 {
    use std::io::Read;
    let mut inflater = flate2::read::ZlibDecoder::new(compressed).take(needed);
    let mut scratch = [0u8; 16 * 1024];
    let mut total = 0u64;
    while let Ok(n) = inflater.read(&mut scratch) {
        if n == 0 {
            break;
        }
        total += n as u64;
    }
    total
}
