//! Every SFF in the shared corpus: the index reads and every sprite decodes.

mod common;

use sprat::formats::Severity;
use sprat::formats::sff::{PaletteChoice, SffArchive, SpriteFormat};
use std::path::Path;

fn archives() -> Vec<(std::path::PathBuf, SffArchive)> {
    let files = common::files_with_extensions(&common::corpus(), &["sff"]);
    assert!(
        files.len() >= 14,
        "expected the corpus SFF files, found {}",
        files.len()
    );
    files
        .into_iter()
        .map(|path| {
            let archive = SffArchive::open(&path)
                .unwrap_or_else(|e| panic!("{}: {}", path.display(), e.message));
            (path, archive)
        })
        .collect()
}

fn name(path: &Path) -> String {
    path.strip_prefix(common::corpus())
        .unwrap()
        .display()
        .to_string()
}

#[test]
fn every_sprite_of_every_corpus_sff_decodes() {
    for (path, archive) in archives() {
        let errors: Vec<_> = archive
            .diagnostics()
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{}: {errors:?}", name(&path));
        assert!(!archive.sprites().is_empty(), "{}", name(&path));
        for (i, result) in archive
            .decode_all(PaletteChoice::Own)
            .into_iter()
            .enumerate()
        {
            let info = &archive.sprites()[i];
            let sprite = result.unwrap_or_else(|e| panic!("{}: {}", name(&path), e.message));
            assert!(
                sprite.warnings.is_empty(),
                "{}: {:?}",
                name(&path),
                sprite.warnings
            );
            assert_eq!(
                (sprite.image.width(), sprite.image.height()),
                (info.width, info.height),
                "{} sprite {},{}",
                name(&path),
                info.group,
                info.image
            );
            assert_eq!(sprite.axis, info.axis);
            // Real art is never all transparent.
            assert!(
                sprite.image.pixels().any(|p| p[3] != 0),
                "{} sprite {},{} is empty",
                name(&path),
                info.group,
                info.image
            );
        }
    }
}

/// The stored bytes of sprite `index` after the u32 length prefix (v2 PNG sprites).
fn png_payload(archive: &SffArchive, index: usize) -> &[u8] {
    let bytes = archive.bytes().expect("held in memory");
    let table = u32::from_le_bytes(bytes[36..40].try_into().unwrap()) as usize;
    let entry = &bytes[table + 28 * index..table + 28 * (index + 1)];
    let word = |at: usize| u32::from_le_bytes(entry[at..at + 4].try_into().unwrap()) as usize;
    let block_at = if entry[26] & 1 != 0 { 60 } else { 52 };
    let block = u32::from_le_bytes(bytes[block_at..block_at + 4].try_into().unwrap()) as usize;
    let start = block + word(16);
    &bytes[start + 4..start + word(20)]
}

/// The PNG chunk checksum (CRC-32, polynomial 0xEDB88320).
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// The PNG with its PLTE chunk replaced by "colour i is (i, 0, 0)", so any decoder's red
/// channel gives the palette indices.
fn with_index_palette(png: &[u8]) -> Vec<u8> {
    let at = png
        .windows(4)
        .position(|w| w == b"PLTE")
        .expect("PNG8 has a PLTE chunk")
        - 4;
    let len = u32::from_be_bytes(png[at..at + 4].try_into().unwrap()) as usize;
    let mut out = png[..at].to_vec();
    let mut chunk = b"PLTE".to_vec();
    chunk.extend((0..256u32).flat_map(|i| [i as u8, 0, 0]));
    out.extend_from_slice(&(768u32).to_be_bytes());
    out.extend_from_slice(&chunk);
    out.extend_from_slice(&crc32(&chunk).to_be_bytes());
    out.extend_from_slice(&png[at + 12 + len..]);
    out
}

#[test]
fn png_sprites_match_the_image_crate() {
    let mut checked = [0usize; 3];
    for (path, archive) in archives() {
        for (i, info) in archive.sprites().iter().enumerate() {
            if info.linked_to.is_some() {
                continue;
            }
            let ours = archive.decode(i, PaletteChoice::Own).unwrap().image;
            match info.format {
                SpriteFormat::Png24 | SpriteFormat::Png32 => {
                    let theirs = image::load_from_memory_with_format(
                        png_payload(&archive, i),
                        image::ImageFormat::Png,
                    )
                    .unwrap()
                    .to_rgba8();
                    assert_eq!(ours, theirs, "{} sprite {i}", name(&path));
                    checked[(info.format == SpriteFormat::Png32) as usize] += 1;
                }
                SpriteFormat::Png8 => {
                    // The PNG's own palette is ignored by SFF; give it one that spells out the
                    // indices, decode with the image crate, and colour them with the SFF's.
                    let indices = image::load_from_memory_with_format(
                        &with_index_palette(png_payload(&archive, i)),
                        image::ImageFormat::Png,
                    )
                    .unwrap()
                    .to_rgb8();
                    let palette = sprite_palette(&archive, i).expect("PNG8 names a palette");
                    assert_eq!(indices.dimensions(), ours.dimensions());
                    for (index, pixel) in indices.pixels().zip(ours.pixels()) {
                        let expected = match index[0] {
                            0 => [0, 0, 0, 0],
                            n => palette.colour(n),
                        };
                        assert_eq!(pixel.0, expected, "{} sprite {i}", name(&path));
                    }
                    checked[2] += 1;
                }
                _ => {}
            }
        }
    }
    // PNG24, PNG32 and PNG8 sprites are all in the corpus.
    assert!(checked.iter().all(|&n| n > 0), "{checked:?}");
}

/// The palette table entry sprite `index` names (v2 sprite entry, offset 24).
fn sprite_palette(archive: &SffArchive, index: usize) -> Option<&sprat::formats::sff::Palette> {
    let bytes = archive.bytes().expect("held in memory");
    let table = u32::from_le_bytes(bytes[36..40].try_into().unwrap()) as usize;
    let at = table + 28 * index + 24;
    archive.palette(u16::from_le_bytes([bytes[at], bytes[at + 1]]) as usize)
}

#[test]
fn kfm_sprites_decode_alike_in_both_releases() {
    let corpus = common::corpus();
    let new = SffArchive::open(&corpus.join("mugen/kfm/kfm.sff")).unwrap();
    let old = SffArchive::open(&corpus.join("mugen/kfm_ikemen2018/kfm.sff")).unwrap();
    let mut same = 0;
    let mut different = Vec::new();
    for (i, info) in new.sprites().iter().enumerate() {
        let Some(j) = old.find(info.group as i32, info.image as i32) else {
            continue;
        };
        let a = new.decode(i, PaletteChoice::Own).unwrap();
        let b = old.decode(j, PaletteChoice::Own).unwrap();
        if a.image == b.image && a.axis == b.axis {
            same += 1;
        } else {
            different.push((
                info.group,
                info.image,
                new.sprites()[i].format,
                old.sprites()[j].format,
            ));
        }
    }
    // Same art everywhere: every one of the 281 sprites (their LZ5 data is byte-identical),
    // including the portrait, stored as PNG8 in one release and RLE8 in the other.
    assert!(different.is_empty(), "{different:?}");
    assert_eq!(same, 281);
    let portrait = |a: &SffArchive| a.sprites()[a.find(9000, 1).unwrap()].format;
    assert_eq!(
        (portrait(&new), portrait(&old)),
        (SpriteFormat::Png8, SpriteFormat::Rle8)
    );
}

#[test]
fn lying_length_fields_do_not_change_the_pixels() {
    // The same fightfx.sff twice: a re-save with honest length fields, and the original whose
    // fields lie (the last one overruns the end of the file).
    let corpus = common::corpus();
    let honest = SffArchive::open(&corpus.join("mugen/fightfx/fightfx.sff")).unwrap();
    let lying = SffArchive::open(&corpus.join("mugen/fightfx_ikemen2018/fightfx.sff")).unwrap();
    assert!(
        honest.diagnostics().is_empty(),
        "{:?}",
        honest.diagnostics()
    );
    let warnings: Vec<&str> = lying
        .diagnostics()
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("sprite 130,3") && w.contains("past the end"))
    );
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("83 same-palette sprites"))
    );
    assert_eq!(honest.sprites(), lying.sprites());
    for i in 0..honest.sprites().len() {
        let a = honest.decode(i, PaletteChoice::Own).unwrap();
        let b = lying.decode(i, PaletteChoice::Own).unwrap();
        assert_eq!(a.image, b.image, "sprite {i}");
    }
}
