//! The SFF v1 index: a chain of 32-byte sprite headers, each followed by a PCX image.

use super::bytes::{i16_at, u16_at, u32_at};
use super::index::{Index, PaletteTable, SpriteData, SpriteFormat, SpriteInfo};
use super::links::resolve_links;
use super::palette::{Palette, RGB_PALETTE_LEN};
use super::pcx::{PcxHeader, trailing_palette};
use crate::formats::Diagnostic;
use std::collections::HashMap;

/// Size of the v1 file header.
pub const V1_HEADER_LEN: usize = 512;
/// Size of a v1 sprite header.
pub const V1_SPRITE_HEADER_LEN: usize = 32;

/// Reads the index of a v1 archive. Never fails: what cannot be read is reported and left
/// out.
pub fn parse_v1(bytes: &[u8]) -> Index {
    let mut index = Index::default();
    let diagnostics = &mut index.diagnostics;
    let Some(image_count) = u32_at(bytes, 20) else {
        diagnostics.push(Diagnostic::error_at_byte(
            0,
            "the SFF v1 header is cut short: no image count",
        ));
        return index;
    };
    let first = u32_at(bytes, 24).unwrap_or(0) as usize;
    if let Some(size) = u32_at(bytes, 28)
        && size as usize != V1_SPRITE_HEADER_LEN
    {
        diagnostics.push(Diagnostic::warning_at_byte(
            28,
            format!("sprite header size is {size}; SFF v1 headers are 32 bytes, read as such"),
        ));
    }
    // Every sprite needs at least its header: no more can exist than fit in the file.
    let fitting = bytes.len() / V1_SPRITE_HEADER_LEN;
    let count = (image_count as usize).min(fitting);
    if count < image_count as usize {
        diagnostics.push(Diagnostic::error_at_byte(
            20,
            format!("the header counts {image_count} images, more than the file can hold"),
        ));
    }

    let mut links: Vec<Option<usize>> = Vec::new();
    // Same-palette sprites whose length still counts the palette they leave out: common
    // enough in real files to report once.
    let mut palette_counted: Vec<(usize, u16, u16)> = Vec::new();
    let mut offset = first;
    for number in 0..count {
        if offset
            .checked_add(V1_SPRITE_HEADER_LEN)
            .is_none_or(|end| end > bytes.len())
        {
            diagnostics.push(Diagnostic::error_at_byte(
                offset as u64,
                format!(
                    "sprite header {number} of {image_count} lies past the end of the file; the rest are missing"
                ),
            ));
            break;
        }
        let field = |at: usize| u32_at(bytes, offset + at).unwrap_or(0) as usize;
        let next = field(0);
        let length = field(4);
        let axis = (
            i16_at(bytes, offset + 8).unwrap_or(0) as i32,
            i16_at(bytes, offset + 10).unwrap_or(0) as i32,
        );
        let group = u16_at(bytes, offset + 12).unwrap_or(0);
        let image = u16_at(bytes, offset + 14).unwrap_or(0);
        let link = u16_at(bytes, offset + 16).unwrap_or(0) as usize;
        let same_palette = bytes[offset + 18] != 0;
        let data_start = offset + V1_SPRITE_HEADER_LEN;

        let mut info = SpriteInfo {
            group,
            image,
            width: 0,
            height: 0,
            axis,
            format: SpriteFormat::Pcx,
            linked_to: None,
            header_offset: offset as u64,
        };
        let mut data = SpriteData {
            range: data_start..data_start,
            palette: None,
            pcx_has_palette: !same_palette,
            broken: None,
        };
        if length == 0 {
            links.push(Some(link));
        } else {
            links.push(None);
            // The data runs to the next header; the length field is only a claim.
            let end = if next > data_start {
                next.min(bytes.len())
            } else {
                data_start.saturating_add(length).min(bytes.len())
            };
            data.range = data_start..end;
            let actual = end - data_start;
            if data_start.saturating_add(length) > bytes.len() {
                diagnostics.push(Diagnostic::warning_at_byte(
                    offset as u64 + 4,
                    format!(
                        "sprite {group},{image}: the length field says {length} bytes, which runs past \
                         the end of the file; using the {actual} there"
                    ),
                ));
            } else if same_palette && length == actual + RGB_PALETTE_LEN {
                palette_counted.push((offset, group, image));
            } else if actual != length {
                diagnostics.push(Diagnostic::warning_at_byte(
                    offset as u64 + 4,
                    format!(
                        "sprite {group},{image}: the length field says {length} bytes but the data \
                         runs {actual} bytes to the next header; using {actual}"
                    ),
                ));
            }
            match PcxHeader::parse(&bytes[data.range.clone()]) {
                Ok(header) => {
                    info.width = header.width;
                    info.height = header.height;
                }
                Err(e) => {
                    data.broken = Some(Box::new(Diagnostic::error_at_byte(
                        (data_start + e.offset) as u64,
                        format!("sprite {group},{image}: {}", e.message),
                    )));
                }
            }
        }
        index.sprites.push(info);
        index.data.push(data);

        if next == 0 || next >= bytes.len() {
            if number + 1 < count {
                diagnostics.push(Diagnostic::error_at_byte(
                    offset as u64,
                    format!(
                        "sprite {group},{image} is the last one the chain reaches, but the header counts {image_count}"
                    ),
                ));
            }
            break;
        }
        if next <= offset {
            diagnostics.push(Diagnostic::error_at_byte(
                offset as u64,
                format!(
                    "sprite {group},{image}: the next header offset {next} points backwards; the rest are skipped"
                ),
            ));
            break;
        }
        offset = next;
    }

    if let Some(&(offset, group, image)) = palette_counted.first() {
        index.diagnostics.push(Diagnostic::warning_at_byte(
            offset as u64 + 4,
            format!(
                "{} same-palette sprites (the first is {group},{image}) have length fields that still \
                 count the 768 palette bytes they leave out; their data is taken up to the next header",
                palette_counted.len()
            ),
        ));
    }
    resolve_links(&mut index, &links);
    index.palettes = assign_palettes(bytes, &mut index);
    index
}

/// Gives each sprite its palette: its own, else the one before it. The shared palette (the
/// one the `.def`'s `.act` files replace) is sprite 0,0's, else the first sprite's.
fn assign_palettes(bytes: &[u8], index: &mut Index) -> PaletteTable {
    let mut table = PaletteTable::default();
    let mut known: HashMap<Palette, usize> = HashMap::new();
    let mut current: Option<usize> = None;
    let mut missing_reported = false;
    for (info, data) in index.sprites.iter().zip(index.data.iter_mut()) {
        if info.linked_to.is_some() || data.broken.is_some() {
            continue;
        }
        if data.pcx_has_palette {
            match trailing_palette(&bytes[data.range.clone()]) {
                Some(palette) => {
                    let next = table.palettes.len();
                    let number = *known.entry(palette.clone()).or_insert(next);
                    if number == next {
                        table.palettes.push(palette);
                        table
                            .labels
                            .push(format!("from sprite {},{}", info.group, info.image));
                    }
                    current = Some(number);
                }
                None => {
                    data.pcx_has_palette = false;
                    index.diagnostics.push(Diagnostic::warning_at_byte(
                        info.header_offset + 18,
                        format!(
                            "sprite {},{} should carry its own palette but its data does not end with one; \
                             it uses the previous palette",
                            info.group, info.image
                        ),
                    ));
                }
            }
        }
        if current.is_none() && !missing_reported {
            missing_reported = true;
            index.diagnostics.push(Diagnostic::warning_at_byte(
                info.header_offset,
                format!(
                    "sprite {},{} uses the previous palette but no sprite before it has one; shown in greys",
                    info.group, info.image
                ),
            ));
        }
        data.palette = current;
    }
    // Linked sprites show their source's pixels with their source's palette.
    for i in 0..index.sprites.len() {
        if let Some(target) = index.sprites[i].linked_to {
            index.data[i].palette = index.data[target].palette;
            index.data[i].pcx_has_palette = index.data[target].pcx_has_palette;
        }
    }
    let shared = index
        .sprites
        .iter()
        .position(|s| s.group == 0 && s.image == 0)
        .and_then(|i| index.data[i].palette)
        .or(if table.palettes.is_empty() {
            None
        } else {
            Some(0)
        });
    if let Some(shared) = shared
        && shared != 0
    {
        // Put the shared palette first so Embedded(0) always means it.
        table.palettes.swap(0, shared);
        table.labels.swap(0, shared);
        for data in &mut index.data {
            data.palette = data.palette.map(|p| match p {
                p if p == shared => 0,
                0 => shared,
                p => p,
            });
        }
    }
    table.slots = (0..table.palettes.len()).collect();
    table.main = shared.map(|_| 0);
    table
}
