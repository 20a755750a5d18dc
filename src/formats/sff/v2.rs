//! The SFF v2 index: a palette table and a sprite table whose data lives in the ldata or
//! tdata block.

use super::bytes::{i16_at, u16_at, u32_at};
use super::index::{Index, PaletteTable, SpriteData, SpriteFormat, SpriteInfo};
use super::links::{LinkEnd, follow_links, resolve_links};
use super::palette::Palette;
use crate::formats::Diagnostic;

/// Size of a palette table entry.
const PALETTE_ENTRY_LEN: usize = 16;
/// Size of a sprite table entry.
const SPRITE_ENTRY_LEN: usize = 28;
/// The header fields end here.
const V2_HEADER_LEN: usize = 68;

/// The header's block offsets and lengths.
struct Blocks {
    ldata: usize,
    tdata: usize,
}

/// Reads the index of a v2 archive. `palette_alpha` is false for v2.00 (its alpha bytes are
/// ignored). Never fails: what cannot be read is reported and left out.
pub fn parse_v2(bytes: &[u8], palette_alpha: bool) -> Index {
    let mut index = Index::default();
    if bytes.len() < V2_HEADER_LEN {
        index.diagnostics.push(Diagnostic::error_at_byte(
            bytes.len() as u64,
            format!(
                "the SFF v2 header is cut short: {} of {V2_HEADER_LEN} bytes",
                bytes.len()
            ),
        ));
        return index;
    }
    let field = |at: usize| u32_at(bytes, at).unwrap_or(0) as usize;
    let blocks = Blocks {
        ldata: field(52),
        tdata: field(60),
    };
    for (at, name) in [(52, "ldata"), (60, "tdata")] {
        let (start, len) = (field(at), field(at + 4));
        if start.saturating_add(len) > bytes.len() {
            index.diagnostics.push(Diagnostic::warning_at_byte(
                at as u64,
                format!(
                    "the {name} block ({len} bytes at {start}) runs past the end of the file ({} bytes)",
                    bytes.len()
                ),
            ));
        }
    }
    index.palettes = parse_palettes(
        bytes,
        field(44),
        field(48),
        &blocks,
        palette_alpha,
        &mut index.diagnostics,
    );
    let links = parse_sprites(bytes, field(36), field(40), &blocks, &mut index);
    resolve_links(&mut index, &links);
    index
}

/// Caps a table's count by what fits between its offset and the end of the file.
fn fitting_count(
    bytes: &[u8],
    table: usize,
    count: usize,
    entry_len: usize,
    what: &str,
    count_at: u64,
    diagnostics: &mut Vec<Diagnostic>,
) -> usize {
    let fits = bytes.len().saturating_sub(table) / entry_len;
    if count > fits {
        diagnostics.push(Diagnostic::error_at_byte(
            count_at,
            format!(
                "the header counts {count} {what}, but only {fits} fit between offset {table} and the end of the file"
            ),
        ));
    }
    count.min(fits)
}

fn parse_palettes(
    bytes: &[u8],
    table: usize,
    count: usize,
    blocks: &Blocks,
    use_alpha: bool,
    diagnostics: &mut Vec<Diagnostic>,
) -> PaletteTable {
    let count = fitting_count(
        bytes,
        table,
        count,
        PALETTE_ENTRY_LEN,
        "palettes",
        48,
        diagnostics,
    );
    let mut out = PaletteTable::default();
    let mut links = Vec::with_capacity(count);
    for number in 0..count {
        let at = table + number * PALETTE_ENTRY_LEN;
        let group = u16_at(bytes, at).unwrap_or(0);
        let item = u16_at(bytes, at + 2).unwrap_or(0);
        let colours = u16_at(bytes, at + 4).unwrap_or(0) as usize;
        let link = u16_at(bytes, at + 6).unwrap_or(0) as usize;
        let offset = u32_at(bytes, at + 8).unwrap_or(0) as usize;
        let size = u32_at(bytes, at + 12).unwrap_or(0) as usize;
        out.labels.push(format!("{group},{item}"));
        if size == 0 {
            links.push(Some(link));
            out.palettes.push(Palette::default());
            continue;
        }
        links.push(None);
        let start = blocks.ldata.saturating_add(offset);
        let end = start.saturating_add(size).min(bytes.len());
        if start.saturating_add(size) > bytes.len() {
            diagnostics.push(Diagnostic::error_at_byte(
                at as u64 + 8,
                format!(
                    "palette {group},{item}: its {size} bytes at {start} run past the end of the file"
                ),
            ));
        }
        if size != colours * 4 {
            diagnostics.push(Diagnostic::warning_at_byte(
                at as u64 + 12,
                format!(
                    "palette {group},{item}: {colours} colours need {} bytes, the entry says {size}",
                    colours * 4
                ),
            ));
        }
        let rgba = bytes.get(start..end).unwrap_or(&[]);
        out.palettes.push(Palette::from_rgba(rgba, use_alpha));
    }
    out.slots = (0..count).collect();
    for (number, end) in follow_links(&links).into_iter().enumerate() {
        match end {
            LinkEnd::Source(target) => {
                if target != number {
                    out.palettes[number] = out.palettes[target].clone();
                    out.slots[number] = target;
                }
            }
            LinkEnd::Dangling(_) | LinkEnd::Loop => {
                diagnostics.push(Diagnostic::error_at_byte(
                    (table + number * PALETTE_ENTRY_LEN) as u64 + 6,
                    format!(
                        "palette {} links to a palette that is missing or part of a loop; it shows black",
                        out.labels[number]
                    ),
                ));
            }
        }
    }
    out.main =
        out.labels
            .iter()
            .position(|l| l == "1,1")
            .or(if count > 0 { Some(0) } else { None });
    out
}

fn parse_sprites(
    bytes: &[u8],
    table: usize,
    count: usize,
    blocks: &Blocks,
    index: &mut Index,
) -> Vec<Option<usize>> {
    let count = fitting_count(
        bytes,
        table,
        count,
        SPRITE_ENTRY_LEN,
        "sprites",
        40,
        &mut index.diagnostics,
    );
    let palette_count = index.palettes.palettes.len();
    // The count fits in the file (checked above): room for every entry at once, where growth
    // by doubling left up to half of a large index unused.
    index.sprites.reserve_exact(count);
    index.data.reserve_exact(count);
    let mut links = Vec::with_capacity(count);
    for number in 0..count {
        let at = table + number * SPRITE_ENTRY_LEN;
        let word = |o: usize| u16_at(bytes, at + o).unwrap_or(0);
        let (group, image) = (word(0), word(2));
        let format_code = bytes[at + 14];
        let offset = u32_at(bytes, at + 16).unwrap_or(0) as usize;
        let length = u32_at(bytes, at + 20).unwrap_or(0) as usize;
        let palette = word(24) as usize;
        let in_tdata = word(26) & 1 != 0;
        let info = SpriteInfo {
            group,
            image,
            width: word(4) as u32,
            height: word(6) as u32,
            axis: (
                i16_at(bytes, at + 8).unwrap_or(0) as i32,
                i16_at(bytes, at + 10).unwrap_or(0) as i32,
            ),
            format: SpriteFormat::from_v2(format_code),
            linked_to: None,
            header_offset: at as u64,
        };
        let mut data = SpriteData {
            range: 0..0,
            palette: None,
            pcx_has_palette: false,
            broken: None,
        };
        if info.format.is_paletted() {
            if palette < palette_count {
                data.palette = Some(palette);
            } else {
                index.diagnostics.push(Diagnostic::warning_at_byte(
                    at as u64 + 24,
                    format!(
                        "sprite {group},{image} uses palette number {palette}, but the file has {palette_count}; shown in greys"
                    ),
                ));
            }
        }
        if length == 0 {
            links.push(Some(word(12) as usize));
        } else {
            links.push(None);
            let base = if in_tdata { blocks.tdata } else { blocks.ldata };
            let start = base.saturating_add(offset);
            let claimed_end = start.saturating_add(length);
            let end = claimed_end.min(bytes.len());
            data.range = start.min(end)..end;
            if claimed_end > bytes.len() {
                index.diagnostics.push(Diagnostic::warning_at_byte(
                    at as u64 + 20,
                    format!(
                        "sprite {group},{image}: its {length} bytes at {start} run past the end of the file; \
                         {} are there",
                        end.saturating_sub(start)
                    ),
                ));
            }
            if let SpriteFormat::Unknown(code) = info.format {
                data.broken = Some(Box::new(Diagnostic::error_at_byte(
                    at as u64 + 14,
                    format!("sprite {group},{image} uses unknown format {code}"),
                )));
            }
        }
        index.sprites.push(info);
        index.data.push(data);
    }
    links
}
