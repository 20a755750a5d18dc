//! The palette of an indexed file as its first frame sets it, the colours new pictures need,
//! and the palette chunks written again when colours were added.
//!
//! Aseprite reads the palette chunks of a frame in order, each changing the palette the
//! previous ones left; old chunks (0x0004, 0x0011) after a new one (0x2019) are ignored. When
//! colours are added, the file's last new palette chunk is rewritten to run to the end of the
//! palette (entries keep their names), or one is added before the old chunks; old chunks are
//! rewritten to hold the same colours, so every reader sees one palette.

use super::super::file::{
    self, CHUNK_HEADER_SIZE, CHUNK_OLD_PALETTE, CHUNK_OLD_PALETTE_6BIT, CHUNK_PALETTE, Out,
};
use super::prelude::Rewrites;
use std::ops::Range;

/// Most colours a cel of an indexed file can use.
const INDEXED_COLOURS: usize = 256;

/// One palette entry: its colour and, when the file names it, the name (a STRING's bytes).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    rgba: [u8; 4],
    name: Option<Vec<u8>>,
}

/// What an entry no chunk sets holds (Aseprite's new palettes are black).
const BLACK: Entry = Entry {
    rgba: [0, 0, 0, 255],
    name: None,
};

/// How a new picture's colour is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Lookup {
    /// The palette has exactly this colour at this index.
    Exact(u8),
    /// The nearest colour of a full palette.
    Nearest(u8),
}

/// The palette of the file's first frame.
pub(super) struct Palette {
    /// Its first 256 entries (the ones a cel can use).
    entries: Vec<Entry>,
    /// How many entries the file declares (it may declare more than 256).
    declared: usize,
    /// How many entries the file had before new pictures added theirs.
    from_file: usize,
    /// The index that is transparent on layers other than the background.
    transparent: u8,
}

fn rgb(bytes: &[u8]) -> [u8; 4] {
    [bytes[0], bytes[1], bytes[2], 255]
}

/// Aseprite's scaling of a 6-bit channel to 8 bits.
fn six_to_eight(value: u8) -> u8 {
    let value = value & 63;
    (value << 2) | (value >> 4)
}

impl Palette {
    /// The palette the chunks `head` (the first frame's chunks before its layers) of `bytes`
    /// set; `None` when one is damaged.
    pub fn of(bytes: &[u8], head: &[(u16, Range<usize>)]) -> Option<Palette> {
        let declared = match file::word(bytes, 32)? {
            0 => INDEXED_COLOURS,
            n => usize::from(n),
        };
        let mut palette = Palette {
            entries: vec![BLACK; declared.min(INDEXED_COLOURS)],
            declared,
            from_file: 0,
            transparent: *bytes.get(28)?,
        };
        let has_new = head.iter().any(|(kind, _)| *kind == CHUNK_PALETTE);
        for (kind, range) in head {
            let data = bytes.get(range.start + CHUNK_HEADER_SIZE..range.end)?;
            match *kind {
                CHUNK_PALETTE => palette.read_new(data)?,
                CHUNK_OLD_PALETTE if !has_new => palette.read_old(data, |c| c)?,
                CHUNK_OLD_PALETTE_6BIT if !has_new => palette.read_old(data, six_to_eight)?,
                _ => {}
            }
        }
        palette.from_file = palette.declared;
        Some(palette)
    }

    fn set(&mut self, index: usize, entry: Entry) {
        if index < INDEXED_COLOURS {
            if index >= self.entries.len() {
                self.entries.resize(index + 1, BLACK);
            }
            self.entries[index] = entry;
        }
        self.declared = self.declared.max(index + 1);
    }

    fn read_new(&mut self, data: &[u8]) -> Option<()> {
        let size = file::dword(data, 0)? as usize;
        let from = file::dword(data, 4)? as usize;
        let to = file::dword(data, 8)? as usize;
        if size > 0 {
            self.declared = size;
            self.entries.resize(size.min(INDEXED_COLOURS), BLACK);
        }
        let mut at = 20;
        for index in from..=to {
            let flags = file::word(data, at)?;
            let rgba: [u8; 4] = data.get(at + 2..at + 6)?.try_into().ok()?;
            at += 6;
            let name = if flags & 1 != 0 {
                let length = usize::from(file::word(data, at)?);
                let name = data.get(at..at + 2 + length)?.to_vec();
                at += 2 + length;
                Some(name)
            } else {
                None
            };
            self.set(index, Entry { rgba, name });
        }
        Some(())
    }

    fn read_old(&mut self, data: &[u8], channel: fn(u8) -> u8) -> Option<()> {
        let packets = file::word(data, 0)?;
        let (mut at, mut index) = (2, 0usize);
        for _ in 0..packets {
            index += usize::from(*data.get(at)?);
            let count = match *data.get(at + 1)? {
                0 => 256,
                n => usize::from(n),
            };
            at += 2;
            for _ in 0..count {
                let colour = data.get(at..at + 3)?;
                let rgba = rgb(&[channel(colour[0]), channel(colour[1]), channel(colour[2])]);
                self.set(index, Entry { rgba, name: None });
                index += 1;
                at += 3;
            }
        }
        Some(())
    }

    /// The transparent index.
    pub fn transparent(&self) -> u8 {
        self.transparent
    }

    /// The index to write a visible pixel of colour `rgba` with: the entry of exactly that
    /// colour (never the transparent index), a new entry while the palette has fewer than 256,
    /// else the nearest colour.
    pub fn index_of(&mut self, rgba: [u8; 4]) -> Lookup {
        let transparent = usize::from(self.transparent);
        let count = self.entries.len();
        let usable = move || (0..count).filter(move |&i| i != transparent);
        if let Some(index) = usable().find(|&i| self.entries[i].rgba == rgba) {
            return Lookup::Exact(index as u8);
        }
        if self.declared < INDEXED_COLOURS {
            let index = self.declared;
            self.set(index, Entry { rgba, name: None });
            return Lookup::Exact(index as u8);
        }
        let nearest = usable()
            .min_by_key(|&i| distance(self.entries[i].rgba, rgba))
            .unwrap_or(0);
        Lookup::Nearest(nearest as u8)
    }

    /// How many entries the palette has now.
    pub fn len(&self) -> usize {
        self.declared
    }

    /// True when new pictures added colours.
    pub fn grew(&self) -> bool {
        self.declared > self.from_file
    }

    /// The palette chunks of `head` (the first frame's chunks before its layers) written
    /// again to hold the added colours.
    pub fn rewrite(&self, bytes: &[u8], head: &[(u16, Range<usize>)], rewrites: &mut Rewrites) {
        let last_new = head.iter().rev().find(|(kind, _)| *kind == CHUNK_PALETTE);
        if let Some((_, chunk)) = last_new {
            let from = file::dword(bytes, chunk.start + CHUNK_HEADER_SIZE + 4).unwrap_or(0);
            let from = (from as usize).min(self.entries.len());
            rewrites.replace(chunk, self.new_chunk(from));
        }
        // Without a new palette chunk, one goes before the first old chunk.
        let mut new_needed = last_new.is_none();
        for (kind, chunk) in head {
            if matches!(*kind, CHUNK_OLD_PALETTE | CHUNK_OLD_PALETTE_6BIT) {
                let mut written = Vec::new();
                if new_needed {
                    written = self.new_chunk(0);
                    new_needed = false;
                }
                written.extend_from_slice(&self.old_chunk(*kind));
                rewrites.replace(chunk, written);
            }
        }
    }

    /// A new palette chunk holding the entries from `from` to the last.
    fn new_chunk(&self, from: usize) -> Vec<u8> {
        let mut out = Out::default();
        out.dword(self.entries.len() as u32);
        out.dword(from as u32);
        out.dword(self.entries.len().saturating_sub(1) as u32);
        out.zeros(8);
        for entry in &self.entries[from..] {
            out.word(u16::from(entry.name.is_some()));
            out.0.extend_from_slice(&entry.rgba);
            if let Some(name) = &entry.name {
                out.0.extend_from_slice(name);
            }
        }
        file::chunk(CHUNK_PALETTE, &out.0)
    }

    /// An old palette chunk of `kind` holding every entry in one packet (no alpha; 6-bit
    /// channels for 0x0011).
    fn old_chunk(&self, kind: u16) -> Vec<u8> {
        let mut out = Out::default();
        out.word(1);
        out.byte(0);
        out.byte(self.entries.len() as u8); // 256 is written as 0
        for entry in &self.entries {
            for channel in &entry.rgba[..3] {
                out.byte(if kind == CHUNK_OLD_PALETTE_6BIT {
                    channel >> 2
                } else {
                    *channel
                });
            }
        }
        file::chunk(kind, &out.0)
    }
}

/// How far apart two colours look, with the weights Aseprite's nearest-colour search gives the
/// channels (green most, then red, blue, alpha).
fn distance(a: [u8; 4], b: [u8; 4]) -> u64 {
    const WEIGHTS: [u64; 4] = [30 * 30, 59 * 59, 11 * 11, 8 * 8];
    a.iter()
        .zip(b)
        .zip(WEIGHTS)
        .map(|((x, y), weight)| {
            let d = u64::from(x.abs_diff(y));
            d * d * weight
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn palette(colours: &[[u8; 4]], transparent: u8) -> Palette {
        let entries: Vec<Entry> = colours
            .iter()
            .map(|&rgba| Entry { rgba, name: None })
            .collect();
        Palette {
            declared: entries.len(),
            from_file: entries.len(),
            entries,
            transparent,
        }
    }

    #[test]
    fn colours_are_found_added_then_approached() {
        let mut p = palette(&[[5, 5, 5, 255], [9, 9, 9, 255], [200, 0, 0, 255]], 0);
        assert_eq!(p.index_of([200, 0, 0, 255]), Lookup::Exact(2));
        assert!(!p.grew());
        // The transparent entry is never used for a visible pixel of its colour.
        assert_eq!(p.index_of([5, 5, 5, 255]), Lookup::Exact(3));
        assert_eq!(p.index_of([5, 5, 5, 255]), Lookup::Exact(3));
        assert!(p.grew());
        assert_eq!(p.len(), 4);
        let mut full = palette(&vec![[10, 10, 10, 255]; 256], 0);
        full.entries[7].rgba = [250, 0, 0, 255];
        assert_eq!(full.index_of([240, 5, 0, 255]), Lookup::Nearest(7));
        assert!(!full.grew());
    }

    #[test]
    fn a_file_with_old_palette_chunks_only_gets_a_new_one_before_them() {
        let mut bytes = vec![0u8; 128];
        bytes[28] = 9; // the transparent index, outside this palette
        bytes[32] = 2; // colours
        let old = file::chunk(CHUNK_OLD_PALETTE_6BIT, &[1, 0, 0, 2, 63, 0, 0, 0, 63, 0]);
        let start = bytes.len();
        bytes.extend_from_slice(&old);
        let head = [(CHUNK_OLD_PALETTE_6BIT, start..bytes.len())];
        let mut palette = Palette::of(&bytes, &head).unwrap();
        assert_eq!(palette.index_of([255, 0, 0, 255]), Lookup::Exact(0));
        assert_eq!(palette.index_of([0, 255, 0, 255]), Lookup::Exact(1));
        assert_eq!(palette.index_of([1, 2, 3, 200]), Lookup::Exact(2));
        let mut rewrites = Rewrites::default();
        palette.rewrite(&bytes, &head, &mut rewrites);
        let written = rewrites.unit(&bytes, start..bytes.len());
        let new_size = file::dword(&written, 0).unwrap() as usize;
        assert_eq!(file::word(&written, 4), Some(CHUNK_PALETTE));
        assert_eq!(
            file::word(&written, new_size + 4),
            Some(CHUNK_OLD_PALETTE_6BIT)
        );
        // Read again, the palette is the grown one (the new chunk wins, alpha included).
        let mut again = bytes[..128].to_vec();
        again.extend_from_slice(&written);
        let head = [
            (CHUNK_PALETTE, 128..128 + new_size),
            (CHUNK_OLD_PALETTE_6BIT, 128 + new_size..again.len()),
        ];
        let read = Palette::of(&again, &head).unwrap();
        let colours: Vec<[u8; 4]> = read.entries.iter().map(|e| e.rgba).collect();
        assert_eq!(
            colours,
            [[255, 0, 0, 255], [0, 255, 0, 255], [1, 2, 3, 200]]
        );
        // The old chunk holds the three colours in 6 bits.
        let old = &written[new_size + 6..];
        assert_eq!(old[..4], [1, 0, 0, 3]);
        assert_eq!(old[4..], [63, 0, 0, 0, 63, 0, 0, 0, 0]);
    }

    #[test]
    fn six_bit_channels_scale_as_aseprite_does() {
        assert_eq!(six_to_eight(0), 0);
        assert_eq!(six_to_eight(63), 255);
        assert_eq!(six_to_eight(32), 130);
    }
}
