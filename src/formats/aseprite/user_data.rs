//! The user data chunk: text, colour and properties maps.
//!
//! Properties maps are walked to check they are well formed (every value inside the chunk,
//! known types, nesting no deeper than Aseprite's 128 levels) and kept as their bytes: no
//! reader of ours needs their values, and the writer copies the chunk as it is.

use super::cursor::{Cursor, ParseError, fail};
use super::sprite::UserData;

/// Aseprite's limit on nested vectors and maps.
const MAX_DEPTH: usize = 128;

/// Reads a user data chunk.
pub fn user_data(cursor: &mut Cursor) -> Result<UserData, ParseError> {
    let flags = cursor.dword()?;
    let text = if flags & 1 != 0 {
        Some(cursor.string()?)
    } else {
        None
    };
    let color = if flags & 2 != 0 {
        let rgba = cursor.take(4)?;
        Some([rgba[0], rgba[1], rgba[2], rgba[3]])
    } else {
        None
    };
    let properties = if flags & 4 != 0 {
        let start = cursor.at;
        let size = cursor.dword()? as usize;
        if size < 8 || size - 4 > cursor.left() {
            return fail(
                start,
                format!(
                    "the properties of a user data chunk declare {size} bytes, more than the chunk holds"
                ),
            );
        }
        let bytes = cursor.take(size - 4)?;
        let mut maps = Cursor::new(bytes, 0, bytes.len(), "user data");
        let count = maps.dword()?;
        // Each map takes at least 8 bytes, so the loop ends with the bytes.
        for _ in 0..count {
            maps.dword()?;
            let properties = maps.dword()?;
            map(&mut maps, properties, 0).map_err(|e| ParseError {
                offset: start + 4 + e.offset,
                message: e.message,
            })?;
        }
        Some((count, bytes.to_vec()))
    } else {
        None
    };
    Ok(UserData {
        text,
        color,
        properties,
    })
}

/// Walks `count` properties (name, type, value).
fn map(cursor: &mut Cursor, count: u32, depth: usize) -> Result<(), ParseError> {
    for _ in 0..count {
        cursor.string()?;
        let kind = cursor.word()?;
        value(cursor, kind, depth)?;
    }
    Ok(())
}

/// Walks one value of type `kind`.
fn value(cursor: &mut Cursor, kind: u16, depth: usize) -> Result<(), ParseError> {
    if depth > MAX_DEPTH {
        return fail(
            cursor.at,
            format!("user data properties nest deeper than {MAX_DEPTH} levels"),
        );
    }
    let fixed = match kind {
        0x0001..=0x0003 => 1,
        0x0004 | 0x0005 => 2,
        0x0006 | 0x0007 | 0x000A | 0x000B => 4,
        0x0008 | 0x0009 | 0x000C | 0x000E | 0x000F => 8,
        0x0010 | 0x0013 => 16,
        0x000D => {
            cursor.string()?;
            return Ok(());
        }
        0x0011 => {
            let count = cursor.dword()?;
            let element = cursor.word()?;
            // Every element takes at least one byte, so the loop ends with the bytes.
            for _ in 0..count {
                let kind = if element == 0 {
                    cursor.word()?
                } else {
                    element
                };
                value(cursor, kind, depth + 1)?;
            }
            return Ok(());
        }
        0x0012 => {
            let count = cursor.dword()?;
            return map(cursor, count, depth + 1);
        }
        other => {
            return fail(
                cursor.at.saturating_sub(2),
                format!("a user data property has unknown type {other}"),
            );
        }
    };
    cursor.skip(fixed)
}
