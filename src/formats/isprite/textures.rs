//! `TEX ` (source textures), `SLIC` (slices) and `NAME` (element names).

use super::bytes::{ByteError, Reader, put_string, put_u16, put_u32};
use crate::formats::Diagnostic;

/// One texture as stored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawTexture {
    /// Flags; bit 0 = nearest-neighbour filtering.
    pub flags: u8,
    /// Bytes a later minor version adds before the filename (stride - 1), kept as found.
    pub extra: Vec<u8>,
    /// The filename, without extension.
    pub name: Vec<u8>,
}

/// The `TEX ` chunk as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawTextures {
    /// Bytes per texture before its filename (1 in version 1.0).
    pub stride: u8,
    /// The textures.
    pub textures: Vec<RawTexture>,
    /// Bytes after the last texture.
    pub tail: Vec<u8>,
}

impl Default for RawTextures {
    fn default() -> Self {
        RawTextures {
            stride: 1,
            textures: Vec::new(),
            tail: Vec::new(),
        }
    }
}

impl RawTextures {
    /// Parses the chunk body.
    pub fn parse(
        r: &mut Reader,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Result<RawTextures, ByteError> {
        let count = r.u8("the texture count")? as usize;
        let stride_at = r.offset();
        let stride = r.u8("the texture stride")?;
        if stride == 0 && count > 0 {
            return Err(ByteError::new(
                stride_at,
                "texture stride 0 leaves no room for the flags",
            ));
        }
        let mut textures = Vec::with_capacity(count.min(r.remaining() / 3));
        for _ in 0..count {
            let fixed = r.take(stride as usize, "a texture entry")?;
            let name = r.string("a texture filename")?;
            name.warn_if_cut("a texture filename", "TEX", diagnostics);
            textures.push(RawTexture {
                flags: fixed[0],
                extra: fixed[1..].to_vec(),
                name: name.bytes.to_vec(),
            });
        }
        Ok(RawTextures {
            stride,
            textures,
            tail: r.rest().to_vec(),
        })
    }

    /// The chunk body.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = vec![self.textures.len() as u8, self.stride];
        for t in &self.textures {
            out.push(t.flags);
            out.extend_from_slice(&t.extra);
            put_string(&mut out, &t.name);
        }
        out.extend_from_slice(&self.tail);
        out
    }
}

/// The bytes a 1.0 slice uses.
pub const SLICE_LEN: usize = 10;

/// One slice as stored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawSlice {
    /// The texture index.
    pub texture: u8,
    /// Flags; bit 0 = stored rotated 90° clockwise.
    pub flags: u8,
    /// Upper-left x on the texture.
    pub x: u16,
    /// Upper-left y on the texture.
    pub y: u16,
    /// Displayed width (ambiguity 3).
    pub width: u16,
    /// Displayed height.
    pub height: u16,
    /// Bytes past the 10 this version defines (stride - 10), kept as found.
    pub extra: Vec<u8>,
}

/// The `SLIC` chunk as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawSlices {
    /// Bytes per slice (10 in version 1.0).
    pub stride: u8,
    /// The slices.
    pub slices: Vec<RawSlice>,
    /// Bytes after the last slice.
    pub tail: Vec<u8>,
}

impl Default for RawSlices {
    fn default() -> Self {
        RawSlices {
            stride: SLICE_LEN as u8,
            slices: Vec::new(),
            tail: Vec::new(),
        }
    }
}

impl RawSlices {
    /// Parses the chunk body.
    pub fn parse(r: &mut Reader, _: &mut Vec<Diagnostic>) -> Result<RawSlices, ByteError> {
        let count_at = r.offset();
        let count = r.u32("the slice count")? as usize;
        let stride_at = r.offset();
        let stride = r.u8("the slice stride")?;
        if (stride as usize) < SLICE_LEN {
            return Err(ByteError::new(
                stride_at,
                format!("slice stride {stride} is smaller than the 10 bytes a slice needs"),
            ));
        }
        if count.saturating_mul(stride as usize) > r.remaining() {
            return Err(ByteError::new(
                count_at,
                format!(
                    "SLIC claims {count} slices but holds room for {}",
                    r.remaining() / stride as usize
                ),
            ));
        }
        let mut slices = Vec::with_capacity(count);
        for _ in 0..count {
            let mut s = r.sub(stride as usize, "a slice")?;
            slices.push(RawSlice {
                texture: s.u8("the slice texture")?,
                flags: s.u8("the slice flags")?,
                x: s.u16("the slice x")?,
                y: s.u16("the slice y")?,
                width: s.u16("the slice width")?,
                height: s.u16("the slice height")?,
                extra: s.rest().to_vec(),
            });
        }
        Ok(RawSlices {
            stride,
            slices,
            tail: r.rest().to_vec(),
        })
    }

    /// The chunk body.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::new();
        put_u32(&mut out, self.slices.len() as u32);
        out.push(self.stride);
        for s in &self.slices {
            out.extend_from_slice(&[s.texture, s.flags]);
            for v in [s.x, s.y, s.width, s.height] {
                put_u16(&mut out, v);
            }
            out.extend_from_slice(&s.extra);
        }
        out.extend_from_slice(&self.tail);
        out
    }
}

/// The `NAME` chunk as stored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawNames {
    /// The names, by index.
    pub names: Vec<Vec<u8>>,
    /// Bytes after the last name.
    pub tail: Vec<u8>,
}

impl RawNames {
    /// Parses the chunk body.
    pub fn parse(r: &mut Reader, diagnostics: &mut Vec<Diagnostic>) -> Result<RawNames, ByteError> {
        let count_at = r.offset();
        let count = r.u16("the name count")? as usize;
        if count.saturating_mul(2) > r.remaining() {
            return Err(ByteError::new(
                count_at,
                format!(
                    "NAME claims {count} names but holds at most {}",
                    r.remaining() / 2
                ),
            ));
        }
        let mut names = Vec::with_capacity(count);
        for _ in 0..count {
            let s = r.string("an element name")?;
            s.warn_if_cut("an element name", "NAME", diagnostics);
            names.push(s.bytes.to_vec());
        }
        Ok(RawNames {
            names,
            tail: r.rest().to_vec(),
        })
    }

    /// The chunk body.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::new();
        put_u16(&mut out, self.names.len() as u16);
        for n in &self.names {
            put_string(&mut out, n);
        }
        out.extend_from_slice(&self.tail);
        out
    }
}
