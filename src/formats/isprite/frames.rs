//! `FRAM`: the frame records and their element records, kept as stored.
//!
//! A parsed frame borrows its strings and its element records from the file's bytes: a file of
//! many frames is read without copying or allocating per element. The writer builds frames
//! whose element records it encoded itself.

use super::bytes::{ByteError, Reader, put_string, put_u16, put_u32};
use crate::formats::Diagnostic;
use std::borrow::Cow;

/// The frame marker `F`.
pub const FRAME: u8 = b'F';
/// Bytes of a frame record before its strings, after the size field: count, hold, flags.
const FIXED_AFTER_SIZE: usize = 5;
/// The smallest frame record: marker, size, count, hold, flags, three empty strings.
const MIN_FRAME: usize = 1 + 4 + FIXED_AFTER_SIZE + 6;
/// Bytes of an element record before its body: marker, name index, size.
pub const ELEMENT_HEAD: usize = 4;

/// One element record, viewed in place: marker, name index, and its `size` bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawElement<'a> {
    /// The element marker (`g`, `G`, `A`, `C`, or unknown).
    pub marker: u8,
    /// Index into NAME; `FFFF` = unnamed (D10).
    pub name: u16,
    /// The bytes after the size byte.
    pub body: &'a [u8],
}

impl RawElement<'_> {
    /// Appends the record (marker, name index, size, body). The body is at most 255 bytes:
    /// readers only produce such bodies, and encoders write the standard lengths plus the
    /// extra bytes of a stored record.
    pub fn encode(&self, out: &mut Vec<u8>) {
        out.push(self.marker);
        put_u16(out, self.name);
        out.push(self.body.len() as u8);
        out.extend_from_slice(self.body);
    }
}

/// The element records of a frame, back to back as the file stores them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawElements<'a> {
    /// How many records `bytes` holds.
    pub count: usize,
    /// The records: marker, name index, size byte, body; `count` of them.
    pub bytes: Cow<'a, [u8]>,
}

impl<'a> RawElements<'a> {
    /// No elements, ready for the writer to append to.
    pub fn with_capacity(bytes: usize) -> RawElements<'static> {
        RawElements {
            count: 0,
            bytes: Cow::Owned(Vec::with_capacity(bytes)),
        }
    }

    /// Appends a record.
    pub fn push(&mut self, element: RawElement) {
        element.encode(self.bytes.to_mut());
        self.count += 1;
    }

    /// Appends a record whose body `body` writes; returns false (appending nothing) when the
    /// body came out longer than the 255 bytes a record can hold.
    pub fn push_with(&mut self, marker: u8, name: u16, body: impl FnOnce(&mut Vec<u8>)) -> bool {
        let out = self.bytes.to_mut();
        let start = out.len();
        out.push(marker);
        put_u16(out, name);
        out.push(0);
        body(out);
        let len = out.len() - start - ELEMENT_HEAD;
        if len > u8::MAX as usize {
            out.truncate(start);
            return false;
        }
        out[start + 3] = len as u8;
        self.count += 1;
        true
    }

    /// The records in order.
    pub fn iter(&self) -> ElementIter<'_> {
        ElementIter {
            bytes: &self.bytes,
            left: self.count,
        }
    }

    /// How many records there are.
    pub fn len(&self) -> usize {
        self.count
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}

/// Walks element records; stops early (rather than panicking) at a record cut short, which
/// the parser never lets through.
pub struct ElementIter<'e> {
    bytes: &'e [u8],
    left: usize,
}

impl<'e> Iterator for ElementIter<'e> {
    type Item = RawElement<'e>;

    fn next(&mut self) -> Option<RawElement<'e>> {
        if self.left == 0 {
            return None;
        }
        let head = self.bytes.get(..ELEMENT_HEAD)?;
        let size = head[3] as usize;
        let body = self.bytes.get(ELEMENT_HEAD..ELEMENT_HEAD + size)?;
        self.bytes = &self.bytes[ELEMENT_HEAD + size..];
        self.left -= 1;
        Some(RawElement {
            marker: head[0],
            name: u16::from_le_bytes([head[1], head[2]]),
            body,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.left))
    }
}

/// One frame record as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawFrame<'a> {
    /// The stored size field (D6: bytes after the field; other conventions are accepted).
    pub size_field: u32,
    /// Hold time.
    pub hold: u16,
    /// Flags; bit 0 = loop point (D8).
    pub flags: u8,
    /// Label.
    pub label: Cow<'a, [u8]>,
    /// Triggers.
    pub triggers: Cow<'a, [u8]>,
    /// Notes.
    pub notes: Cow<'a, [u8]>,
    /// Elements in draw order, known or not.
    pub elements: RawElements<'a>,
}

impl RawFrame<'_> {
    /// The size field under decision D6: the bytes after the size field.
    pub fn content_len(&self) -> usize {
        FIXED_AFTER_SIZE
            + 6
            + self.label.len()
            + self.triggers.len()
            + self.notes.len()
            + self.elements.bytes.len()
    }

    fn encode(&self, out: &mut Vec<u8>) {
        out.push(FRAME);
        put_u32(out, self.size_field);
        put_u16(out, self.elements.count as u16);
        put_u16(out, self.hold);
        out.push(self.flags);
        put_string(out, &self.label);
        put_string(out, &self.triggers);
        put_string(out, &self.notes);
        out.extend_from_slice(&self.elements.bytes);
    }
}

/// The `FRAM` chunk as stored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawFrames<'a> {
    /// The stored maximum element count (recomputed by writers, never trusted).
    pub max_elements: u16,
    /// The frame records.
    pub frames: Vec<RawFrame<'a>>,
    /// Bytes after the last frame.
    pub tail: Vec<u8>,
}

impl<'a> RawFrames<'a> {
    /// Parses the chunk body.
    pub fn parse(
        r: &mut Reader<'a>,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Result<RawFrames<'a>, ByteError> {
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

    /// The length of the chunk body.
    pub fn encoded_len(&self) -> usize {
        6 + self
            .frames
            .iter()
            .map(|f| 5 + f.content_len())
            .sum::<usize>()
            + self.tail.len()
    }

    /// Appends the chunk body.
    pub fn encode(&self, out: &mut Vec<u8>) {
        out.reserve(self.encoded_len());
        put_u32(out, self.frames.len() as u32);
        put_u16(out, self.max_elements);
        for f in &self.frames {
            f.encode(out);
        }
        out.extend_from_slice(&self.tail);
    }
}

fn parse_frame<'a>(
    r: &mut Reader<'a>,
    index: usize,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<RawFrame<'a>, ByteError> {
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
        s.warn_if_cut(&format!("a string of frame {index}"), "FRAM", diagnostics);
    }
    if element_count.saturating_mul(ELEMENT_HEAD) > r.remaining() {
        return Err(ByteError::new(
            at + 5,
            format!(
                "frame {index} claims {element_count} elements but FRAM holds room for at most {}",
                r.remaining() / ELEMENT_HEAD
            ),
        ));
    }
    // Walk the records to find where they end; they are kept in place.
    let start = r.clone();
    let mut elements_len = 0;
    for _ in 0..element_count {
        r.u8("an element marker")?;
        r.u16("an element name index")?;
        let size = r.u8("an element size")? as usize;
        r.take(size, "the element data")?;
        elements_len += ELEMENT_HEAD + size;
    }
    let elements = RawElements {
        count: element_count,
        bytes: Cow::Borrowed(start.clone().take(elements_len, "the elements")?),
    };
    let frame = RawFrame {
        size_field,
        hold,
        flags,
        label: Cow::Borrowed(label.bytes),
        triggers: Cow::Borrowed(triggers.bytes),
        notes: Cow::Borrowed(notes.bytes),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn element_records_are_walked_in_place_and_appended_whole() {
        let mut elements = RawElements::with_capacity(0);
        elements.push(RawElement {
            marker: b'A',
            name: 7,
            body: &[1, 2, 3],
        });
        assert!(elements.push_with(b'x', u16::MAX, |out| out.extend_from_slice(&[9; 255])));
        assert_eq!(elements.len(), 2);
        assert_eq!(&elements.bytes[..7], &[b'A', 7, 0, 3, 1, 2, 3]);
        let read: Vec<RawElement> = elements.iter().collect();
        assert_eq!(read[0].body, &[1, 2, 3]);
        assert_eq!(
            (read[1].marker, read[1].name, read[1].body.len()),
            (b'x', u16::MAX, 255)
        );
    }

    #[test]
    fn a_body_too_long_for_its_size_byte_is_not_appended() {
        let mut elements = RawElements::with_capacity(0);
        assert!(!elements.push_with(b'g', 0, |out| out.extend_from_slice(&[0; 256])));
        assert!(elements.is_empty());
        assert!(elements.bytes.is_empty());
    }

    #[test]
    fn a_walk_over_cut_records_stops_instead_of_panicking() {
        let elements = RawElements {
            count: 3,
            bytes: Cow::Borrowed(&[b'g', 0, 0, 2, 1, 2, b'g', 0, 0, 9, 1]),
        };
        assert_eq!(elements.iter().count(), 1);
    }
}
