//! `FRAM`: the frame records and their element records, kept as stored.

use super::bytes::{ByteError, Reader, put_string, put_u16, put_u32};
use crate::formats::Diagnostic;

/// The frame marker `F`.
pub const FRAME: u8 = b'F';
/// Bytes of a frame record before its strings, after the size field: count, hold, flags.
const FIXED_AFTER_SIZE: usize = 5;
/// The smallest frame record: marker, size, count, hold, flags, three empty strings.
const MIN_FRAME: usize = 1 + 4 + FIXED_AFTER_SIZE + 6;

/// One element record: marker, name index, and its `size` bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawElement {
    /// The element marker (`g`, `G`, `A`, `C`, or unknown).
    pub marker: u8,
    /// Index into NAME; `FFFF` = unnamed (D10).
    pub name: u16,
    /// The bytes after the size byte.
    pub body: Vec<u8>,
}

/// One frame record as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawFrame {
    /// The stored size field (D6: bytes after the field; other conventions are accepted).
    pub size_field: u32,
    /// Hold time.
    pub hold: u16,
    /// Flags; bit 0 = loop point (D8).
    pub flags: u8,
    /// Label.
    pub label: Vec<u8>,
    /// Triggers.
    pub triggers: Vec<u8>,
    /// Notes.
    pub notes: Vec<u8>,
    /// Elements in draw order, known or not.
    pub elements: Vec<RawElement>,
}

impl RawFrame {
    /// The size field under decision D6: the bytes after the size field.
    pub fn content_len(&self) -> usize {
        FIXED_AFTER_SIZE
            + 6
            + self.label.len()
            + self.triggers.len()
            + self.notes.len()
            + self
                .elements
                .iter()
                .map(|e| 4 + e.body.len())
                .sum::<usize>()
    }

    fn encode(&self, out: &mut Vec<u8>) {
        out.push(FRAME);
        put_u32(out, self.size_field);
        put_u16(out, self.elements.len() as u16);
        put_u16(out, self.hold);
        out.push(self.flags);
        put_string(out, &self.label);
        put_string(out, &self.triggers);
        put_string(out, &self.notes);
        for e in &self.elements {
            out.push(e.marker);
            put_u16(out, e.name);
            out.push(e.body.len() as u8);
            out.extend_from_slice(&e.body);
        }
    }
}

/// The `FRAM` chunk as stored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawFrames {
    /// The stored maximum element count (recomputed by writers, never trusted).
    pub max_elements: u16,
    /// The frame records.
    pub frames: Vec<RawFrame>,
    /// Bytes after the last frame.
    pub tail: Vec<u8>,
}

impl RawFrames {
    /// Parses the chunk body.
    pub fn parse(
        r: &mut Reader,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Result<RawFrames, ByteError> {
        let count_at = r.offset();
        let count = r.u32("the frame count")? as usize;
        let max_elements = r.u16("the maximum element count")?;
        if count.saturating_mul(MIN_FRAME) > r.remaining() {
            return Err(ByteError::new(
                count_at,
                format!(
                    "FRAM claims {count} frames but holds room for at most {}",
                    r.remaining() / MIN_FRAME
                ),
            ));
        }
        let mut frames = Vec::with_capacity(count);
        for index in 0..count {
            frames.push(parse_frame(r, index, diagnostics)?);
        }
        Ok(RawFrames {
            max_elements,
            frames,
            tail: r.rest().to_vec(),
        })
    }

    /// The chunk body.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::new();
        put_u32(&mut out, self.frames.len() as u32);
        put_u16(&mut out, self.max_elements);
        for f in &self.frames {
            f.encode(&mut out);
        }
        out.extend_from_slice(&self.tail);
        out
    }
}

fn parse_frame(
    r: &mut Reader,
    index: usize,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<RawFrame, ByteError> {
    let at = r.offset();
    let marker = r.u8("a frame marker")?;
    if marker != FRAME {
        return Err(ByteError::new(
            at,
            format!("frame {index} should start with \"F\" but has 0x{marker:02X}"),
        ));
    }
    let size_field = r.u32("the frame size")?;
    let element_count = r.u16("the element count")? as usize;
    let hold = r.u16("the hold time")?;
    let flags = r.u8("the frame flags")?;
    let label = r.string("the frame label")?;
    let triggers = r.string("the frame triggers")?;
    let notes = r.string("the frame notes")?;
    for s in [&label, &triggers, &notes] {
        if s.truncated {
            diagnostics.push(Diagnostic::warning_at_byte(
                s.at as u64,
                format!("a string of frame {index} runs past the end of FRAM; it is cut there"),
            ));
        }
    }
    if element_count.saturating_mul(4) > r.remaining() {
        return Err(ByteError::new(
            at + 5,
            format!(
                "frame {index} claims {element_count} elements but FRAM holds room for at most {}",
                r.remaining() / 4
            ),
        ));
    }
    let mut elements = Vec::with_capacity(element_count);
    for _ in 0..element_count {
        let marker = r.u8("an element marker")?;
        let name = r.u16("an element name index")?;
        let size = r.u8("an element size")? as usize;
        let body = r.take(size, "the element data")?.to_vec();
        elements.push(RawElement { marker, name, body });
    }
    let frame = RawFrame {
        size_field,
        hold,
        flags,
        label: label.bytes.to_vec(),
        triggers: triggers.bytes.to_vec(),
        notes: notes.bytes.to_vec(),
        elements,
    };
    let n = frame.content_len() as u64;
    let stored = size_field as u64;
    if stored != n {
        let convention = if stored == n + 1 || stored == n + 5 {
            " (another reading of the size field; accepted)"
        } else {
            ""
        };
        diagnostics.push(Diagnostic::warning_at_byte(
            (at + 1) as u64,
            format!("frame {index} stores size {stored} but holds {n} bytes{convention}"),
        ));
    }
    if hold == 0 {
        diagnostics.push(Diagnostic::warning_at_byte(
            (at + 7) as u64,
            format!("frame {index} has hold time 0, which plays as 1"),
        ));
    }
    Ok(frame)
}
