//! Little-endian reading with bounds, and the matching writer helpers.
//!
//! Every read checks the bytes that are left first, so a reader built on [`Reader`] can take
//! arbitrary input without panicking; every failure names the absolute byte offset.

use crate::formats::Diagnostic;
use crate::model::Fx;

/// Why a read stopped: the absolute byte offset and a plain message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ByteError {
    /// Offset from the start of the file.
    pub offset: u64,
    /// What was expected there.
    pub message: String,
}

impl ByteError {
    /// An error at an offset.
    pub fn new(offset: usize, message: impl Into<String>) -> ByteError {
        ByteError {
            offset: offset as u64,
            message: message.into(),
        }
    }
}

/// A cursor over a window of the file; offsets in errors are absolute.
#[derive(Clone, Debug)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    /// Absolute offset of `bytes[0]`.
    base: usize,
    pos: usize,
}

impl<'a> Reader<'a> {
    /// A reader over `bytes`, which start at absolute offset `base`.
    pub fn new(bytes: &'a [u8], base: usize) -> Reader<'a> {
        Reader {
            bytes,
            base,
            pos: 0,
        }
    }

    /// The absolute offset of the next byte.
    #[inline]
    pub fn offset(&self) -> usize {
        self.base + self.pos
    }

    /// Bytes left in the window.
    #[inline]
    pub fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    /// True when the window is used up.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.remaining() == 0
    }

    /// The next `n` bytes, or an error naming `what`.
    #[inline]
    pub fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], ByteError> {
        if n > self.remaining() {
            return Err(self.short(n, what));
        }
        let out = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(out)
    }

    /// The error for a read of `n` bytes past the window; kept out of line so the reads that
    /// succeed (nearly all of them) stay small enough to inline.
    #[cold]
    #[inline(never)]
    fn short(&self, n: usize, what: &str) -> ByteError {
        ByteError::new(
            self.offset(),
            format!(
                "{what} needs {n} bytes but only {} are left",
                self.remaining()
            ),
        )
    }

    /// Everything left in the window.
    #[inline]
    pub fn rest(&mut self) -> &'a [u8] {
        let out = &self.bytes[self.pos..];
        self.pos = self.bytes.len();
        out
    }

    /// The next byte without consuming it.
    #[inline]
    pub fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// A sub-reader over the next `n` bytes, consumed from this one.
    pub fn sub(&mut self, n: usize, what: &str) -> Result<Reader<'a>, ByteError> {
        let base = self.offset();
        let bytes = self.take(n, what)?;
        Ok(Reader::new(bytes, base))
    }

    /// One byte.
    #[inline]
    pub fn u8(&mut self, what: &str) -> Result<u8, ByteError> {
        Ok(self.take(1, what)?[0])
    }

    /// A little-endian u16.
    #[inline]
    pub fn u16(&mut self, what: &str) -> Result<u16, ByteError> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    /// A little-endian u32.
    #[inline]
    pub fn u32(&mut self, what: &str) -> Result<u32, ByteError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// A little-endian u64.
    #[inline]
    pub fn u64(&mut self, what: &str) -> Result<u64, ByteError> {
        let b = self.take(8, what)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }

    /// A fixed-point value: signed 16-bit whole part, then an unsigned 1/256 fraction (D7).
    #[inline]
    pub fn fixed(&mut self, what: &str) -> Result<Fx, ByteError> {
        let b = self.take(3, what)?;
        let whole = i16::from_le_bytes([b[0], b[1]]);
        Ok(Fx::from_parts(whole as i32, b[2]))
    }

    /// A string's raw bytes: a u16 length, then the bytes. A length running past the window
    /// is cut at the window's end (ambiguity 15); `truncated` tells the caller so it can warn.
    pub fn string(&mut self, what: &str) -> Result<RawString<'a>, ByteError> {
        let at = self.offset();
        let len = self.u16(what)? as usize;
        let truncated = len > self.remaining();
        let bytes = self.take(len.min(self.remaining()), what)?;
        Ok(RawString {
            bytes,
            at,
            truncated,
        })
    }
}

/// A string as stored, with where it starts.
#[derive(Clone, Copy, Debug)]
pub struct RawString<'a> {
    /// Its content bytes.
    pub bytes: &'a [u8],
    /// Absolute offset of its length field.
    pub at: usize,
    /// Its length ran past the end of the chunk and was cut.
    pub truncated: bool,
}

impl RawString<'_> {
    /// When the string ran past the end of `chunk` and was cut, warns on `diagnostics` that
    /// `what` ("a texture filename") was cut there.
    pub fn warn_if_cut(&self, what: &str, chunk: &str, diagnostics: &mut Vec<Diagnostic>) {
        if self.truncated {
            diagnostics.push(Diagnostic::warning_at_byte(
                self.at as u64,
                format!("{what} runs past the end of {chunk}; it is cut there"),
            ));
        }
    }
}

/// The text of a stored string (UTF-8, invalid bytes replaced).
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Appends a u16.
pub fn put_u16(out: &mut Vec<u8>, value: u16) {
    out.extend_from_slice(&value.to_le_bytes());
}

/// Appends a u32.
pub fn put_u32(out: &mut Vec<u8>, value: u32) {
    out.extend_from_slice(&value.to_le_bytes());
}

/// Appends a fixed-point value (the caller has checked the range with [`fits_fixed`]).
pub fn put_fixed(out: &mut Vec<u8>, value: Fx) {
    let (whole, fraction) = value.to_parts();
    let whole = whole.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
    out.extend_from_slice(&whole.to_le_bytes());
    out.push(fraction);
}

/// True when `value` fits the 24-bit fixed point (-32768 to 32767 + 255/256).
pub fn fits_fixed(value: Fx) -> bool {
    let (whole, _) = value.to_parts();
    (i16::MIN as i32..=i16::MAX as i32).contains(&whole)
}

/// Appends a string: u16 length then the bytes (the caller keeps it at most 65535 bytes).
pub fn put_string(out: &mut Vec<u8>, bytes: &[u8]) {
    let len = bytes.len().min(u16::MAX as usize);
    put_u16(out, len as u16);
    out.extend_from_slice(&bytes[..len]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_point_reads_the_floor_convention() {
        let mut r = Reader::new(&[0xF3, 0xFF, 0x80, 0x04, 0x00, 0x80], 0);
        assert_eq!(r.fixed("y").unwrap(), Fx::from_f64(-12.5));
        assert_eq!(r.fixed("x").unwrap(), Fx::from_f64(4.5));
        let mut out = Vec::new();
        put_fixed(&mut out, Fx::from_f64(-12.5));
        assert_eq!(out, [0xF3, 0xFF, 0x80]);
    }

    #[test]
    fn reads_past_the_end_fail_with_the_absolute_offset() {
        let mut r = Reader::new(&[1, 2, 3], 100);
        r.u8("a").unwrap();
        let e = r.u32("b").unwrap_err();
        assert_eq!(e.offset, 101);
    }

    #[test]
    fn long_strings_are_cut_at_the_window_end() {
        let mut r = Reader::new(&[9, 0, b'a', b'b'], 0);
        let s = r.string("s").unwrap();
        assert_eq!(s.bytes, b"ab");
        assert!(s.truncated);
    }

    #[test]
    fn only_a_cut_string_is_warned_about_at_its_length_field() {
        let mut r = Reader::new(&[1, 0, b'a', 9, 0, b'b'], 40);
        let whole = r.string("whole").unwrap();
        let cut = r.string("cut").unwrap();
        let mut diagnostics = Vec::new();
        whole.warn_if_cut("a name", "NAME", &mut diagnostics);
        assert!(diagnostics.is_empty());
        cut.warn_if_cut("a name", "NAME", &mut diagnostics);
        assert_eq!(
            diagnostics,
            [Diagnostic::warning_at_byte(
                43,
                "a name runs past the end of NAME; it is cut there"
            )]
        );
    }

    #[test]
    fn range_check_matches_the_int16_whole_part() {
        assert!(fits_fixed(Fx::from_parts(32767, 255)));
        assert!(fits_fixed(Fx::from_parts(-32768, 0)));
        assert!(!fits_fixed(Fx::from_int(32768)));
        assert!(!fits_fixed(Fx::from_parts(-32769, 255)));
    }
}
