//! The file as stored: header, chunks in file order, and whatever follows the declared end.
//!
//! The raw layer keeps every byte (reserved fields, stride extras, unknown chunks, chunk tails),
//! so [`RawFile::encode`] of a parsed file gives the same bytes back. The model is built from it
//! in `read.rs`, and the writer builds a new one in `write.rs`.

use super::bytes::{ByteError, Reader, put_u32};
use super::frames::RawFrames;
use super::meta::{RawMeta, RawMetaPlus};
use super::textures::{RawNames, RawSlices, RawTextures};
use super::tier::RawTier;
use crate::formats::Diagnostic;

/// The 8-byte magic number.
pub const MAGIC: &[u8; 8] = b"ISPRITE ";
/// The header's size (D1).
pub const HEADER_LEN: usize = 24;
/// The major version this build reads and writes (D13).
pub const MAJOR: u8 = 1;

/// The 24-byte header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawHeader {
    /// The stored file size (total minus 12, D2); recomputed on encode.
    pub size_field: u32,
    /// Major version.
    pub major: u8,
    /// Minor version.
    pub minor: u8,
    /// Flags: bit 0 non-standard, bit 1 work file, the rest reserved.
    pub flags: u8,
    /// The non-standard extension id (ASCII, zero for standard files).
    pub extension_id: [u8; 3],
    /// Master frame rate.
    pub frame_rate: u8,
    /// The 5 reserved bytes (D1), kept as found.
    pub reserved: [u8; 5],
}

impl Default for RawHeader {
    fn default() -> Self {
        RawHeader {
            size_field: 0,
            major: MAJOR,
            minor: 0,
            flags: 0,
            extension_id: [0; 3],
            frame_rate: 0,
            reserved: [0; 5],
        }
    }
}

/// One chunk, known or not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RawChunk<'a> {
    /// `META`.
    Meta(RawMeta),
    /// `MET+`.
    MetaPlus(RawMetaPlus),
    /// `TEX `.
    Textures(RawTextures),
    /// `SLIC`.
    Slices(RawSlices),
    /// `NAME`.
    Names(RawNames),
    /// `TIER`.
    Tier(RawTier),
    /// `FRAM`.
    Frames(RawFrames<'a>),
    /// An unknown chunk, or a later duplicate of a known one (D11): kept byte for byte.
    Other {
        /// Its identifier.
        id: [u8; 4],
        /// Its body.
        body: Vec<u8>,
    },
}

/// The kinds of known chunk, in the order a new file gets them (D11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ChunkKind {
    /// `META`.
    Meta,
    /// `MET+`.
    MetaPlus,
    /// `TEX `.
    Textures,
    /// `SLIC`.
    Slices,
    /// `NAME`.
    Names,
    /// `TIER`.
    Tier,
    /// `FRAM`.
    Frames,
}

impl ChunkKind {
    /// Every kind in writing order.
    pub const ALL: [ChunkKind; 7] = [
        ChunkKind::Meta,
        ChunkKind::MetaPlus,
        ChunkKind::Textures,
        ChunkKind::Slices,
        ChunkKind::Names,
        ChunkKind::Tier,
        ChunkKind::Frames,
    ];

    /// The 4-byte identifier.
    pub fn id(self) -> &'static [u8; 4] {
        match self {
            ChunkKind::Meta => b"META",
            ChunkKind::MetaPlus => b"MET+",
            ChunkKind::Textures => b"TEX ",
            ChunkKind::Slices => b"SLIC",
            ChunkKind::Names => b"NAME",
            ChunkKind::Tier => b"TIER",
            ChunkKind::Frames => b"FRAM",
        }
    }

    fn from_id(id: &[u8]) -> Option<ChunkKind> {
        ChunkKind::ALL.into_iter().find(|k| k.id() == id)
    }
}

impl RawChunk<'_> {
    /// The kind, for known chunks.
    pub fn kind(&self) -> Option<ChunkKind> {
        Some(match self {
            RawChunk::Meta(_) => ChunkKind::Meta,
            RawChunk::MetaPlus(_) => ChunkKind::MetaPlus,
            RawChunk::Textures(_) => ChunkKind::Textures,
            RawChunk::Slices(_) => ChunkKind::Slices,
            RawChunk::Names(_) => ChunkKind::Names,
            RawChunk::Tier(_) => ChunkKind::Tier,
            RawChunk::Frames(_) => ChunkKind::Frames,
            RawChunk::Other { .. } => return None,
        })
    }

    /// Appends the chunk: identifier, size, body. The body is written in place and its size
    /// filled in afterwards.
    fn encode(&self, out: &mut Vec<u8>) {
        let id = match self {
            RawChunk::Other { id, .. } => id,
            known => known.kind().expect("a known chunk").id(),
        };
        out.extend_from_slice(id);
        let size_at = out.len();
        put_u32(out, 0);
        match self {
            RawChunk::Meta(c) => out.extend_from_slice(&c.encode()),
            RawChunk::MetaPlus(c) => out.extend_from_slice(&c.encode()),
            RawChunk::Textures(c) => out.extend_from_slice(&c.encode()),
            RawChunk::Slices(c) => out.extend_from_slice(&c.encode()),
            RawChunk::Names(c) => out.extend_from_slice(&c.encode()),
            RawChunk::Tier(c) => out.extend_from_slice(&c.encode()),
            RawChunk::Frames(c) => c.encode(out),
            RawChunk::Other { body, .. } => out.extend_from_slice(body),
        }
        let size = (out.len() - size_at - 4) as u32;
        out[size_at..size_at + 4].copy_from_slice(&size.to_le_bytes());
    }
}

/// A whole file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawFile<'a> {
    /// The header.
    pub header: RawHeader,
    /// The chunks in file order.
    pub chunks: Vec<RawChunk<'a>>,
    /// Bytes after the end the header declares (D2), kept as found.
    pub trailer: Vec<u8>,
}

impl<'a> RawFile<'a> {
    /// Parses a file. Structural damage (a chunk running past the end, a count larger than its
    /// chunk, a truncated header) is an error; oddities that leave the content usable are
    /// warnings in `diagnostics`.
    pub fn parse(
        bytes: &'a [u8],
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Result<RawFile<'a>, ByteError> {
        let mut r = Reader::new(bytes, 0);
        let magic = r.take(8, "the magic number")?;
        if magic != MAGIC {
            return Err(ByteError::new(
                0,
                "not an ISPRITE file (no \"ISPRITE \" magic)",
            ));
        }
        let size_field = r.u32("the file size")?;
        let major = r.u8("the major version")?;
        if major != MAJOR {
            return Err(ByteError::new(
                12,
                format!("ISPRITE major version {major} is not supported (this reader knows 1.x)"),
            ));
        }
        let minor = r.u8("the minor version")?;
        let flags = r.u8("the header flags")?;
        if flags & !0b11 != 0 {
            diagnostics.push(Diagnostic::warning_at_byte(
                14,
                format!("header flags 0x{flags:02X} set reserved bits; they are kept as found"),
            ));
        }
        let mut extension_id = [0u8; 3];
        extension_id.copy_from_slice(r.take(3, "the non-standard identifier")?);
        let frame_rate = r.u8("the master frame rate")?;
        let mut reserved = [0u8; 5];
        reserved.copy_from_slice(r.take(5, "the reserved header bytes")?);
        let header = RawHeader {
            size_field,
            major,
            minor,
            flags,
            extension_id,
            frame_rate,
            reserved,
        };

        let declared_end = 12usize.saturating_add(size_field as usize);
        if declared_end > bytes.len() {
            return Err(ByteError::new(
                8,
                format!(
                    "the file is truncated: the header declares {declared_end} bytes but there are {}",
                    bytes.len()
                ),
            ));
        }
        if declared_end < bytes.len() {
            diagnostics.push(Diagnostic::warning_at_byte(
                declared_end as u64,
                format!(
                    "{} bytes follow the end the header declares; they are kept but not read",
                    bytes.len() - declared_end
                ),
            ));
        }
        if declared_end < HEADER_LEN {
            return Err(ByteError::new(
                8,
                "the file size is smaller than the header",
            ));
        }
        let mut body = Reader::new(&bytes[HEADER_LEN..declared_end], HEADER_LEN);
        let trailer = bytes[declared_end..].to_vec();
        let mut chunks = Vec::new();
        let mut seen = Vec::new();
        while !body.is_empty() {
            let at = body.offset();
            let id = body.take(4, "a chunk identifier")?;
            let size = body.u32("a chunk size")? as usize;
            let mut chunk = body.sub(size, "the chunk body").map_err(|_| {
                ByteError::new(
                    at + 4,
                    format!(
                        "chunk \"{}\" claims {size} bytes but the file has {} left",
                        String::from_utf8_lossy(id),
                        body.remaining()
                    ),
                )
            })?;
            let kind = ChunkKind::from_id(id).filter(|k| !seen.contains(k));
            let parsed = match kind {
                None => {
                    if ChunkKind::from_id(id).is_some() {
                        diagnostics.push(Diagnostic::warning_at_byte(
                            at as u64,
                            format!(
                                "a second \"{}\" chunk is ignored (the first one counts); it is kept as it is",
                                String::from_utf8_lossy(id)
                            ),
                        ));
                    }
                    let mut four = [0u8; 4];
                    four.copy_from_slice(id);
                    RawChunk::Other {
                        id: four,
                        body: chunk.rest().to_vec(),
                    }
                }
                Some(ChunkKind::Meta) => RawChunk::Meta(RawMeta::parse(&mut chunk, diagnostics)?),
                Some(ChunkKind::MetaPlus) => {
                    RawChunk::MetaPlus(RawMetaPlus::parse(&mut chunk, diagnostics)?)
                }
                Some(ChunkKind::Textures) => {
                    RawChunk::Textures(RawTextures::parse(&mut chunk, diagnostics)?)
                }
                Some(ChunkKind::Slices) => {
                    RawChunk::Slices(RawSlices::parse(&mut chunk, diagnostics)?)
                }
                Some(ChunkKind::Names) => {
                    RawChunk::Names(RawNames::parse(&mut chunk, diagnostics)?)
                }
                Some(ChunkKind::Tier) => RawChunk::Tier(RawTier::parse(&mut chunk, diagnostics)?),
                Some(ChunkKind::Frames) => {
                    RawChunk::Frames(RawFrames::parse(&mut chunk, diagnostics)?)
                }
            };
            if let Some(kind) = kind {
                seen.push(kind);
            }
            chunks.push(parsed);
        }
        Ok(RawFile {
            header,
            chunks,
            trailer,
        })
    }

    /// The bytes of the file; the size field is computed.
    pub fn encode(&self) -> Vec<u8> {
        let frames_len = self
            .chunks
            .iter()
            .map(|c| match c {
                RawChunk::Frames(f) => 8 + f.encoded_len(),
                _ => 0,
            })
            .sum::<usize>();
        let mut out = Vec::with_capacity(HEADER_LEN + frames_len + 4096);
        out.extend_from_slice(MAGIC);
        put_u32(&mut out, 0);
        let h = &self.header;
        out.extend_from_slice(&[h.major, h.minor, h.flags]);
        out.extend_from_slice(&h.extension_id);
        out.push(h.frame_rate);
        out.extend_from_slice(&h.reserved);
        for chunk in &self.chunks {
            chunk.encode(&mut out);
        }
        let size = (out.len() - 12) as u32;
        out[8..12].copy_from_slice(&size.to_le_bytes());
        out.extend_from_slice(&self.trailer);
        out
    }

    /// The first chunk of a kind.
    pub fn chunk(&self, kind: ChunkKind) -> Option<&RawChunk<'a>> {
        self.chunks.iter().find(|c| c.kind() == Some(kind))
    }
}
