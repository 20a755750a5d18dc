//! A bounds-checked reader over one chunk's bytes, and the error every Aseprite reader
//! returns: a byte offset and a plain sentence. The parser ([`super::parse`]) and the chunk
//! readers it calls share them from here.

use super::file::{dword, word};

/// A damaged or unsupported file: where and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Byte offset in the file.
    pub offset: usize,
    /// A plain sentence.
    pub message: String,
}

/// An error at `offset`.
pub fn fail<T>(offset: usize, message: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError {
        offset,
        message: message.into(),
    })
}

/// A bounds-checked walk over one chunk's data: each read either gives the field or an error
/// at the offset where the chunk ran out.
pub struct Cursor<'a> {
    /// The whole file.
    bytes: &'a [u8],
    /// The next byte to read.
    pub at: usize,
    /// Where the chunk ends.
    pub end: usize,
    /// What the chunk is, for error sentences ("layer", "cel", ...).
    pub what: &'static str,
}

impl<'a> Cursor<'a> {
    /// A cursor over `bytes[at..end]`.
    pub fn new(bytes: &'a [u8], at: usize, end: usize, what: &'static str) -> Cursor<'a> {
        Cursor {
            bytes,
            at,
            end: end.min(bytes.len()),
            what,
        }
    }

    /// Bytes left in the chunk.
    pub fn left(&self) -> usize {
        self.end.saturating_sub(self.at)
    }

    fn short<T>(&self) -> Result<T, ParseError> {
        fail(
            self.at.min(self.end),
            format!("the {} chunk ends inside one of its fields", self.what),
        )
    }

    /// The next `n` bytes.
    pub fn take(&mut self, n: usize) -> Result<&'a [u8], ParseError> {
        if n > self.left() {
            return self.short();
        }
        let bytes = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(bytes)
    }

    /// Skips `n` bytes.
    pub fn skip(&mut self, n: usize) -> Result<(), ParseError> {
        self.take(n).map(|_| ())
    }

    /// A BYTE.
    pub fn byte(&mut self) -> Result<u8, ParseError> {
        Ok(self.take(1)?[0])
    }

    /// A field of `size` bytes, as `decode` reads it at an offset of the file.
    fn fixed<T>(
        &mut self,
        size: usize,
        decode: fn(&[u8], usize) -> Option<T>,
    ) -> Result<T, ParseError> {
        match (self.left() >= size)
            .then(|| decode(self.bytes, self.at))
            .flatten()
        {
            Some(value) => {
                self.at += size;
                Ok(value)
            }
            None => self.short(),
        }
    }

    /// A WORD.
    pub fn word(&mut self) -> Result<u16, ParseError> {
        self.fixed(2, word)
    }

    /// A SHORT.
    pub fn short_int(&mut self) -> Result<i16, ParseError> {
        self.word().map(|v| v as i16)
    }

    /// A DWORD.
    pub fn dword(&mut self) -> Result<u32, ParseError> {
        self.fixed(4, dword)
    }

    /// A LONG (or FIXED).
    pub fn long(&mut self) -> Result<i32, ParseError> {
        self.dword().map(|v| v as i32)
    }

    /// A STRING: a WORD length and that many UTF-8 bytes (invalid UTF-8 is replaced).
    pub fn string(&mut self) -> Result<String, ParseError> {
        let length = usize::from(self.word()?);
        Ok(String::from_utf8_lossy(self.take(length)?).into_owned())
    }

    /// The rest of the chunk.
    pub fn rest(&mut self) -> &'a [u8] {
        let rest = &self.bytes[self.at.min(self.end)..self.end];
        self.at = self.end;
        rest
    }
}
