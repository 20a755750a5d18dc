//! `META` (file information) and `MET+` (free name/value pairs).

use super::bytes::{ByteError, Reader, put_string};
use crate::formats::Diagnostic;
use crate::model::Timestamp;

/// How many strings META holds after its first 32 bytes (ambiguity 16).
pub const META_STRINGS: usize = 11;

/// The `META` chunk as stored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawMeta {
    /// Creation date.
    pub created: [u8; 8],
    /// Save date.
    pub saved: [u8; 8],
    /// Work time in milliseconds.
    pub work_time_ms: u64,
    /// Tags, title, project, author, company, contact, URL, copyright, comments, originating
    /// program, program; fewer when the chunk ended early.
    pub strings: Vec<Vec<u8>>,
    /// Bytes after the last string, kept as found.
    pub tail: Vec<u8>,
}

impl RawMeta {
    /// Parses the chunk body.
    pub fn parse(r: &mut Reader, diagnostics: &mut Vec<Diagnostic>) -> Result<RawMeta, ByteError> {
        let mut created = [0u8; 8];
        created.copy_from_slice(r.take(8, "the creation date")?);
        let mut saved = [0u8; 8];
        saved.copy_from_slice(r.take(8, "the save date")?);
        let work_time_ms = r.u64("the work time")?;
        let mut strings = Vec::new();
        while strings.len() < META_STRINGS && r.remaining() >= 2 {
            let s = r.string("a metadata string")?;
            s.warn_if_cut("a metadata string", "META", diagnostics);
            strings.push(s.bytes.to_vec());
        }
        Ok(RawMeta {
            created,
            saved,
            work_time_ms,
            strings,
            tail: r.rest().to_vec(),
        })
    }

    /// The chunk body.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&self.created);
        out.extend_from_slice(&self.saved);
        out.extend_from_slice(&self.work_time_ms.to_le_bytes());
        for s in &self.strings {
            put_string(&mut out, s);
        }
        out.extend_from_slice(&self.tail);
        out
    }
}

/// A stored date; all zeros means unknown.
pub fn read_date(bytes: &[u8; 8]) -> Option<Timestamp> {
    if bytes.iter().all(|&b| b == 0) {
        return None;
    }
    Some(Timestamp {
        day: bytes[0],
        month: bytes[1],
        year: u16::from_le_bytes([bytes[2], bytes[3]]),
        hour: bytes[4],
        minute: bytes[5],
        second: bytes[6],
        centisecond: bytes[7],
    })
}

/// The stored form of a date.
pub fn write_date(date: Option<&Timestamp>) -> [u8; 8] {
    match date {
        None => [0; 8],
        Some(t) => {
            let year = t.year.to_le_bytes();
            [
                t.day,
                t.month,
                year[0],
                year[1],
                t.hour,
                t.minute,
                t.second,
                t.centisecond,
            ]
        }
    }
}

/// The `MET+` chunk as stored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawMetaPlus {
    /// Name/value pairs in order.
    pub pairs: Vec<(Vec<u8>, Vec<u8>)>,
    /// A dangling name without a value, or other bytes after the last pair (ambiguity 17).
    pub tail: Vec<u8>,
}

impl RawMetaPlus {
    /// Parses the chunk body.
    pub fn parse(
        r: &mut Reader,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Result<RawMetaPlus, ByteError> {
        let mut pairs = Vec::new();
        loop {
            let mut attempt = r.clone();
            let pair = (|| -> Result<_, ByteError> {
                let name = attempt.string("a MET+ name")?;
                let value = attempt.string("a MET+ value")?;
                Ok((name, value))
            })();
            match pair {
                Ok((name, value)) if !name.truncated && !value.truncated => {
                    pairs.push((name.bytes.to_vec(), value.bytes.to_vec()));
                    *r = attempt;
                }
                _ => break,
            }
        }
        if !r.is_empty() {
            diagnostics.push(Diagnostic::warning_at_byte(
                r.offset() as u64,
                "MET+ ends with an incomplete name/value pair; it is ignored but kept",
            ));
        }
        Ok(RawMetaPlus {
            pairs,
            tail: r.rest().to_vec(),
        })
    }

    /// The chunk body.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for (name, value) in &self.pairs {
            put_string(&mut out, name);
            put_string(&mut out, value);
        }
        out.extend_from_slice(&self.tail);
        out
    }
}
