//! Reads an Aseprite file into a [`Sprite`]: the header, each frame's header, and every chunk
//! the specification lists ([`super::chunks`] reads each kind).
//!
//! Any bytes are taken: a damaged file is an error with the byte offset where the damage is
//! and a plain sentence, never a panic. Every allocation is bounded by what the file's bytes
//! can fill: counts are checked against the bytes left before anything is reserved, and
//! compressed pixels are inflated no further than their declared size, itself checked against
//! zlib's best ratio first.

use super::chunks::{self, Attach};
pub use super::cursor::{Cursor, ParseError, fail};
use super::file::{CHUNK_HEADER_SIZE, FRAME_HEADER_SIZE, FRAME_MAGIC, dword, word};
use super::pixels::check_picture_budget;
use super::scan::{COMPOSITE_LIMIT, HEADER_SIZE, MAX_INFLATE_RATIO, SMALL_CANVAS_BYTES, has_magic};
use super::sprite::{ColorDepth, FrameHeader, Header, Sprite};

/// Reads the whole file: first every frame's and chunk's bounds (so a cut or damaged layout is
/// refused before any pixel is inflated), then each chunk.
pub fn parse(bytes: &[u8]) -> Result<Sprite, ParseError> {
    let header = header(bytes)?;
    let frames = layout(bytes, header.frames)?;
    let chunks = frames.iter().flat_map(|frame| frame.chunks.iter().cloned());
    check_picture_budget(bytes, chunks, header.depth)?;
    let speed = header.speed;
    let mut sprite = Sprite {
        header,
        frames: frames
            .iter()
            .map(|frame| FrameHeader {
                offset: frame.offset,
                duration: if frame.duration == 0 {
                    speed
                } else {
                    frame.duration
                },
            })
            .collect(),
        layers: Vec::new(),
        cels: Vec::new(),
        palettes: Vec::new(),
        tilesets: Vec::new(),
        tags: Vec::new(),
        slices: Vec::new(),
        user_data: None,
        external_files: Vec::new(),
        color_profile: None,
        notes: Vec::new(),
    };
    let mut state = chunks::State::default();
    for (index, frame) in frames.iter().enumerate() {
        state.attach = Attach::Nothing;
        for chunk in &frame.chunks {
            let (start, end) = (chunk.start, chunk.end);
            let kind = word(bytes, start + 4).unwrap_or(0);
            chunks::read(
                bytes,
                start,
                end,
                kind,
                index as u16,
                &mut sprite,
                &mut state,
            )?;
        }
    }
    Ok(sprite)
}

/// A frame's place in the file.
struct FrameLayout {
    offset: usize,
    duration: u16,
    /// Each chunk's bytes, header included.
    chunks: Vec<std::ops::Range<usize>>,
}

/// The bounds of every frame and chunk, checked against each other and the file's length.
fn layout(bytes: &[u8], frames: u16) -> Result<Vec<FrameLayout>, ParseError> {
    let mut layout = Vec::with_capacity(usize::from(frames).min(bytes.len() / FRAME_HEADER_SIZE));
    let mut at = HEADER_SIZE;
    for index in 0..frames {
        let frame = frame(bytes, at, index)?;
        at = frame
            .chunks
            .last()
            .map_or(at + FRAME_HEADER_SIZE, |c| c.end);
        // The next frame starts where this one says it ends (as Aseprite seeks), never
        // before its last chunk.
        let declared = dword(bytes, frame.offset).unwrap_or(0) as usize;
        at = at.max(frame.offset.saturating_add(declared).min(bytes.len()));
        layout.push(frame);
    }
    Ok(layout)
}

/// The bounds of the frame at `at` and of its chunks.
fn frame(bytes: &[u8], at: usize, index: u16) -> Result<FrameLayout, ParseError> {
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
    let duration = word(bytes, at + 8).unwrap_or(0);
    let new_count = dword(bytes, at + 12).unwrap_or(0);
    let count = if new_count == 0 {
        u32::from(old_count)
    } else {
        new_count
    };
    let frame_end = at.saturating_add(declared).min(bytes.len());
    let mut chunks = Vec::with_capacity((count as usize).min(bytes.len() / CHUNK_HEADER_SIZE));
    let mut chunk = at + FRAME_HEADER_SIZE;
    // Each chunk takes at least its 6-byte header, so the loop ends with the bytes.
    for _ in 0..count {
        if bytes.len() < chunk + CHUNK_HEADER_SIZE {
            return fail(
                chunk,
                format!("the file ends inside a chunk of frame {index}"),
            );
        }
        let size = dword(bytes, chunk).unwrap_or(0) as usize;
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
        chunks.push(chunk..end);
        chunk = end;
    }
    Ok(FrameLayout {
        offset: at,
        duration,
        chunks,
    })
}

/// Reads and checks the 128-byte header.
fn header(bytes: &[u8]) -> Result<Header, ParseError> {
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
    let mut cursor = Cursor::new(bytes, 6, HEADER_SIZE, "header");
    let frames = cursor.word()?;
    let width = cursor.word()?;
    let height = cursor.word()?;
    let depth = match cursor.word()? {
        8 => ColorDepth::Indexed,
        16 => ColorDepth::Grayscale,
        32 => ColorDepth::Rgba,
        other => return fail(12, format!("unknown colour depth {other} (8, 16 or 32)")),
    };
    if width == 0 || height == 0 {
        return fail(8, format!("the canvas is {width}x{height} pixels"));
    }
    let flags = cursor.dword()?;
    let speed = cursor.word()?;
    cursor.skip(8)?;
    let transparent_index = cursor.byte()?;
    cursor.skip(3)?;
    let colors = cursor.word()?;
    let pixel_ratio = (cursor.byte()?, cursor.byte()?);
    let grid = (
        cursor.short_int()?,
        cursor.short_int()?,
        cursor.word()?,
        cursor.word()?,
    );
    // Every frame is composited into memory: the canvas times the frames must fit what a
    // file of this length can fill.
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
    Ok(Header {
        frames,
        width,
        height,
        depth,
        flags,
        speed,
        transparent_index,
        colors,
        pixel_ratio,
        grid,
    })
}

#[cfg(test)]
#[path = "parse_tests.rs"]
mod tests;
