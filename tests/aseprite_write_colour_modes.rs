//! New pictures saved into indexed and grayscale Aseprite files: an indexed file's pixels use
//! the palette entry of exactly their colour, the palette takes the colours it lacks while it
//! has fewer than 256 (its chunks and the header's colour count rewritten) and the nearest
//! colour beyond, named as a loss; a grayscale file takes gray pixels exactly and coloured
//! ones by Aseprite's luma rule, named as a loss. Read back by `asefile` and by Sprat; every
//! other chunk is unchanged.

mod aseprite_write_support;
mod common;

use aseprite_write_support::{composited, folder, picture_frame, read, read_bytes, save};
use sprat::formats::Written;
use sprat::formats::aseprite::file::FileView;
use sprat::model::*;
use std::path::{Path, PathBuf};

const PALETTE_KINDS: [u16; 3] = [0x2019, 0x0004, 0x0011];
const TAGS: u16 = 0x2018;
const LAYER: u16 = 0x2004;
/// Where the picture is placed in the new frame.
const PLACE: (u32, u32) = (2, 3);

fn corpus_file(name: &str) -> PathBuf {
    folder().join(name)
}

/// `path` read, a frame showing `picture` at [`PLACE`] appended to its first sequence, saved.
fn import_and_save(path: &Path, picture: &image::RgbaImage) -> (AnimationSet, Written) {
    let mut document = read(path);
    let place = (PLACE.0 as i32, PLACE.1 as i32);
    let id = picture_frame(&mut document, picture, place, 70);
    let sequence = document.sequences()[0].id;
    document.sequence_mut(sequence).unwrap().directions[0]
        .frames
        .push(id);
    let written = save(&document, path);
    (document, written)
}

/// Every chunk of the file's first `frames` frames, one by one, but the palette and tags
/// chunks and the new "Imported" layer.
fn kept_chunks(bytes: &[u8], frames: usize) -> Vec<Vec<u8>> {
    let view = FileView::of(bytes).expect("a file Sprat wrote parses");
    let mut chunks = Vec::new();
    for unit in view.frames[..frames].iter().flat_map(|f| f.units.iter()) {
        let mut at = unit.whole.start;
        while at < unit.whole.end {
            let size = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
            let chunk = &bytes[at..at + size];
            let kind = u16::from_le_bytes([chunk[4], chunk[5]]);
            let imported_layer = kind == LAYER && chunk.ends_with(b"Imported");
            if !PALETTE_KINDS.contains(&kind) && kind != TAGS && !imported_layer {
                chunks.push(chunk.to_vec());
            }
            at += size;
        }
    }
    chunks
}

/// The header and the file's own frames are unchanged but for the file size, the frame
/// count, the colour count and the chunks named in [`kept_chunks`].
fn assert_rest_unchanged(original: &[u8], written: &[u8]) {
    let frames = usize::from(u16::from_le_bytes([original[6], original[7]]));
    assert_eq!(written[8..32], original[8..32], "header");
    assert_eq!(written[34..128], original[34..128], "header");
    assert_eq!(
        kept_chunks(written, frames),
        kept_chunks(original, frames),
        "the file's own chunks"
    );
}

/// `picture`'s pixels as `asefile` and Sprat draw the saved file's last frame, each mapped
/// through `expected` first.
fn assert_drawn(
    written: &[u8],
    path: &Path,
    picture: &image::RgbaImage,
    expected: impl Fn([u8; 4]) -> [u8; 4],
) {
    let file = asefile::AsepriteFile::read(written).unwrap();
    let top = file.layer(file.num_layers() - 1);
    assert_eq!(top.name(), "Imported");
    let by_asefile = file.frame(file.num_frames() - 1).image();
    let again = read_bytes(written, path);
    let by_sprat = composited(&again, again.frames.len() - 1);
    for (x, y, pixel) in picture.enumerate_pixels() {
        let want = expected(pixel.0);
        let (cx, cy) = (x + PLACE.0, y + PLACE.1);
        // A transparent pixel's colour channels mean nothing.
        let seen = |p: [u8; 4]| if p[3] == 0 { [0; 4] } else { p };
        let (a, s) = (by_asefile.get_pixel(cx, cy).0, by_sprat.get_pixel(cx, cy).0);
        assert_eq!(seen(a), seen(want), "asefile at ({x}, {y})");
        assert_eq!(seen(s), seen(want), "Sprat at ({x}, {y})");
    }
}

fn losses(written: &Written) -> Vec<String> {
    written.losses.iter().map(|l| l.to_string()).collect()
}

#[test]
fn an_indexed_file_takes_the_colours_its_palette_lacks() {
    let path = corpus_file("indexed.aseprite");
    let original = std::fs::read(&path).unwrap();
    let before = asefile::AsepriteFile::read(&original[..]).unwrap();
    let palette = before.palette().unwrap();
    let colours = palette.num_colors();
    let transparent = u32::from(before.transparent_color_index().unwrap());
    let known = (0..colours)
        .filter(|&i| i != transparent)
        .map(|i| palette.color(i).unwrap().raw_rgba8())
        .find(|c| c[3] == 255)
        .unwrap();
    let new_opaque = [1, 2, 3, 255];
    let new_translucent = [10, 200, 30, 128];
    let picture = image::RgbaImage::from_fn(4, 2, |x, y| {
        image::Rgba(match (x, y) {
            (0, 0) => [0, 0, 0, 0],
            (1, 0) | (1, 1) => new_opaque,
            (2, _) => new_translucent,
            _ => known,
        })
    });
    let (_, written) = import_and_save(&path, &picture);
    assert!(written.losses.is_empty(), "{:?}", losses(&written));

    let file = asefile::AsepriteFile::read(&written.bytes[..]).unwrap();
    assert_eq!(file.num_frames(), before.num_frames() + 1);
    let after = file.palette().unwrap();
    assert_eq!(after.num_colors(), colours + 2);
    assert_eq!(after.color(colours).unwrap().raw_rgba8(), new_opaque);
    assert_eq!(
        after.color(colours + 1).unwrap().raw_rgba8(),
        new_translucent
    );
    for index in 0..colours {
        assert_eq!(
            after.color(index).unwrap().raw_rgba8(),
            palette.color(index).unwrap().raw_rgba8(),
            "entry {index} keeps its colour"
        );
    }
    let header_colours = u16::from_le_bytes([written.bytes[32], written.bytes[33]]);
    assert_eq!(u32::from(header_colours), colours + 2);
    assert_drawn(&written.bytes, &path, &picture, |c| c);
    assert_rest_unchanged(&original, &written.bytes);

    // Both palette chunks hold the new colours (the old one without alpha).
    let view = FileView::of(&written.bytes).unwrap();
    let old = view.frames[0]
        .units
        .iter()
        .find(|u| u.kind == 0x0004)
        .unwrap();
    let old = &written.bytes[old.chunk.clone()];
    assert_eq!(
        old[9],
        (colours + 2) as u8,
        "colours in the old chunk's packet"
    );
    let last = &old[old.len() - 6..];
    assert_eq!(last, [1, 2, 3, 10, 200, 30]);
}

#[test]
fn a_full_palette_gives_the_nearest_colour_and_names_the_loss() {
    let path = corpus_file("256_color_old_palette_chunk.aseprite");
    let original = std::fs::read(&path).unwrap();
    let before = asefile::AsepriteFile::read(&original[..]).unwrap();
    let palette = before.palette().unwrap();
    assert_eq!(palette.num_colors(), 256);
    let entries: Vec<[u8; 4]> = (0..256)
        .map(|i| palette.color(i).unwrap().raw_rgba8())
        .collect();
    let transparent = usize::from(before.transparent_color_index().unwrap());
    let known = entries[(transparent + 1) % 256];
    // A colour the palette lacks.
    let missing = (0..=255u8)
        .map(|v| [v, 255 - v, v / 2 + 1, 255])
        .find(|c| !entries.contains(c))
        .unwrap();
    let picture = image::RgbaImage::from_fn(2, 1, |x, _| {
        image::Rgba(if x == 0 { known } else { missing })
    });
    let (_, written) = import_and_save(&path, &picture);
    let losses = losses(&written);
    assert_eq!(losses.len(), 1, "{losses:?}");
    assert!(
        losses[0].contains("1 pixels") && losses[0].contains("nearest"),
        "{losses:?}"
    );
    let file = asefile::AsepriteFile::read(&written.bytes[..]).unwrap();
    let drawn = file.frame(file.num_frames() - 1).image();
    assert_eq!(drawn.get_pixel(PLACE.0, PLACE.1).0, known);
    let nearest = drawn.get_pixel(PLACE.0 + 1, PLACE.1).0;
    assert!(
        entries.contains(&nearest),
        "{nearest:?} is a palette colour"
    );
    assert_ne!(nearest, entries[transparent]);
    // The palette is unchanged: the whole first frame but the new layer is as it was.
    assert_eq!(written.bytes[8..128], original[8..128]);
    assert_rest_unchanged(&original, &written.bytes);
    let view = FileView::of(&written.bytes).unwrap();
    let palettes = |bytes: &[u8], view: &FileView| -> Vec<Vec<u8>> {
        view.frames[0]
            .units
            .iter()
            .filter(|u| PALETTE_KINDS.contains(&u.kind))
            .map(|u| bytes[u.whole.clone()].to_vec())
            .collect()
    };
    let original_view = FileView::of(&original).unwrap();
    assert_eq!(
        palettes(&written.bytes, &view),
        palettes(&original, &original_view)
    );
}

#[test]
fn a_grayscale_file_takes_gray_exactly_and_colours_by_aseprites_luma() {
    let path = corpus_file("grayscale.aseprite");
    let original = std::fs::read(&path).unwrap();
    let luma = |[r, g, b, _]: [u8; 4]| {
        ((u32::from(r) * 2126 + u32::from(g) * 7152 + u32::from(b) * 722) / 10000) as u8
    };
    let picture = image::RgbaImage::from_fn(3, 2, |x, y| {
        image::Rgba(match (x, y) {
            (0, 0) => [0, 0, 0, 0],
            (1, 0) => [200, 40, 90, 255],
            (2, 0) => [30, 200, 10, 128],
            (2, 1) => [140, 140, 140, 200],
            _ => [77, 77, 77, 255],
        })
    });
    let (_, written) = import_and_save(&path, &picture);
    let losses = losses(&written);
    assert_eq!(losses.len(), 1, "{losses:?}");
    assert!(
        losses[0].contains("2 pixels") && losses[0].contains("not gray"),
        "{losses:?}"
    );
    assert_drawn(&written.bytes, &path, &picture, |c| {
        let v = luma(c);
        [v, v, v, c[3]]
    });
    assert_eq!(written.bytes[32..34], original[32..34]);
    assert_rest_unchanged(&original, &written.bytes);
}
