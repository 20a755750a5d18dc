//! The chunks at the head of the first frame, which describe the whole sprite (its palette and
//! its user data), rewritten where the document changed them; every other chunk is copied.
//!
//! Aseprite's decoder gives a user data chunk to the last object read, and before any layer,
//! cel, tags, slice or tileset chunk that object is the sprite: its user data is the first
//! user data chunk there (Aseprite 1.3 writes it right after the palette).

use super::super::file::{
    self, CHUNK_CEL, CHUNK_HEADER_SIZE, CHUNK_LAYER, CHUNK_OLD_PALETTE, CHUNK_OLD_PALETTE_6BIT,
    CHUNK_SLICE, CHUNK_TAGS, CHUNK_USER_DATA, FRAME_HEADER_SIZE, FileView, UserData,
};
use super::super::marks::sprite_user_data;
use crate::model::AnimationSet;
use std::collections::HashMap;
use std::ops::Range;

/// The tileset chunk, which (like a layer) takes the user data that follows it.
const CHUNK_TILESET: u16 = 0x2023;

/// Chunks of the first frame written differently: the start of a chunk in the file -> the
/// bytes written in its place (empty: the chunk is removed; more chunks: they follow it).
#[derive(Default)]
pub(super) struct Rewrites(HashMap<usize, Vec<u8>>);

impl Rewrites {
    /// The bytes of `whole` (chunks one after another), each rewritten chunk replaced.
    pub fn unit(&self, bytes: &[u8], whole: Range<usize>) -> Vec<u8> {
        if self.0.is_empty() {
            return bytes[whole].to_vec();
        }
        let mut out = Vec::with_capacity(whole.len());
        let mut at = whole.start;
        while at < whole.end {
            let size = file::dword(bytes, at).map_or(0, |s| s as usize);
            let end = at
                .saturating_add(size.max(CHUNK_HEADER_SIZE))
                .min(whole.end);
            match self.0.get(&at) {
                Some(written) => out.extend_from_slice(written),
                None => out.extend_from_slice(&bytes[at..end]),
            }
            at = end;
        }
        out
    }

    /// Writes `chunk` (a chunk of the file) as `written` instead.
    pub fn replace(&mut self, chunk: &Range<usize>, written: Vec<u8>) {
        self.0.insert(chunk.start, written);
    }

    /// Writes `extra` right after `chunk` (a chunk of the file, rewritten or not).
    fn append_after(&mut self, bytes: &[u8], chunk: &Range<usize>, extra: &[u8]) {
        self.0
            .entry(chunk.start)
            .or_insert_with(|| bytes[chunk.clone()].to_vec())
            .extend_from_slice(extra);
    }

    /// Writes `extra` right before `chunk`.
    fn insert_before(&mut self, bytes: &[u8], chunk: &Range<usize>, extra: &[u8]) {
        let written = self
            .0
            .entry(chunk.start)
            .or_insert_with(|| bytes[chunk.clone()].to_vec());
        written.splice(0..0, extra.iter().copied());
    }
}

/// The first frame's chunks before its first layer, cel, tags, slice or tileset chunk: kind
/// and bytes in the file. `None` when the file has no frame.
pub(super) fn head_chunks(bytes: &[u8], view: &FileView) -> Option<Vec<(u16, Range<usize>)>> {
    let frame = view.frames.first()?;
    let mut chunks = Vec::new();
    let mut at = frame.range.start + FRAME_HEADER_SIZE;
    while at < frame.range.end {
        let size = file::dword(bytes, at)? as usize;
        let kind = file::word(bytes, at + 4)?;
        let end = at.checked_add(size.max(CHUNK_HEADER_SIZE))?;
        if matches!(
            kind,
            CHUNK_LAYER | CHUNK_CEL | CHUNK_TAGS | CHUNK_SLICE | CHUNK_TILESET
        ) || end > frame.range.end
        {
            break;
        }
        chunks.push((kind, at..end));
        at = end;
    }
    Some(chunks)
}

/// The first chunk of the first frame (where a chunk goes that nothing else must precede).
fn first_chunk(bytes: &[u8], view: &FileView) -> Option<Range<usize>> {
    let start = view.frames.first()?.range.start + FRAME_HEADER_SIZE;
    let size = file::dword(bytes, start)? as usize;
    Some(start..start + size)
}

/// Writes the document's sprite user data (its comments and colour) where the file had its
/// own: that chunk rewritten (its properties kept), removed when nothing is left, or a new
/// chunk after the palette chunks. Nothing changes when the document's are the file's.
pub(super) fn write_sprite_user_data(
    bytes: &[u8],
    view: &FileView,
    document: &AnimationSet,
    first: &AnimationSet,
    rewrites: &mut Rewrites,
) {
    let wanted = sprite_user_data(document);
    if wanted == sprite_user_data(first) {
        return;
    }
    let Some(head) = head_chunks(bytes, view) else {
        return;
    };
    let found = head.iter().find(|(kind, _)| *kind == CHUNK_USER_DATA);
    if let Some((_, chunk)) = found {
        let old = file::user_data_of(&bytes[chunk.clone()]).unwrap_or_default();
        let user = UserData {
            properties: old.properties,
            ..wanted
        };
        let written = if user.is_empty() {
            Vec::new()
        } else {
            file::user_data_chunk(&user)
        };
        rewrites.replace(chunk, written);
        return;
    }
    let chunk = file::user_data_chunk(&wanted);
    let palette = head.iter().rev().find(|(kind, _)| {
        matches!(
            *kind,
            file::CHUNK_PALETTE | CHUNK_OLD_PALETTE | CHUNK_OLD_PALETTE_6BIT
        )
    });
    match palette {
        Some((_, after)) => rewrites.append_after(bytes, after, &chunk),
        None => {
            if let Some(before) = first_chunk(bytes, view) {
                rewrites.insert_before(bytes, &before, &chunk);
            }
        }
    }
}
