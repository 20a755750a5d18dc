//! Our Aseprite compositor against the `asefile` crate, an independent reader: every frame of
//! every corpus file draws the same pixels (fully transparent pixels compared as transparent,
//! whatever colour they store).
//!
//! Where `asefile` refuses what Aseprite reads, or draws otherwise than Aseprite, it is handed
//! the file with that one thing changed in a way that leaves the frames' pixels as Aseprite
//! draws them (see [`for_asefile`]).

mod common;

use sprat::formats::aseprite::file::FileView;
use sprat::formats::aseprite::{compose, parse, sprite as parse_sprite};
use std::path::Path;

const LAYER: u16 = 0x2004;
const COLOR_PROFILE: u16 = 0x2007;
const TAGS: u16 = 0x2018;

/// `bytes` as `asefile` can read and draw them:
/// - an embedded ICC profile (which it refuses) becomes sRGB: a profile changes how colours
///   are shown on a screen, never the stored pixels Aseprite exports;
/// - a ping-pong-reverse tag (which it refuses) becomes ping-pong: tags do not change pixels;
/// - a visible reference layer is hidden: it draws reference layers, Aseprite never does.
fn for_asefile(bytes: &[u8]) -> Vec<u8> {
    let mut copy = bytes.to_vec();
    let view = FileView::of(bytes).expect("chunk boundaries");
    for unit in view.frames.iter().flat_map(|f| f.units.iter()) {
        let data = unit.chunk.start + 6;
        match unit.kind {
            COLOR_PROFILE if copy[data] == 2 => copy[data] = 1,
            TAGS => {
                let count = u16::from_le_bytes([copy[data], copy[data + 1]]);
                let mut at = data + 10;
                for _ in 0..count {
                    if copy[at + 4] == 3 {
                        copy[at + 4] = 2;
                    }
                    let name = u16::from_le_bytes([copy[at + 17], copy[at + 18]]);
                    at += 19 + usize::from(name);
                }
            }
            LAYER if copy[data] & 0x40 != 0 => copy[data] &= !1,
            _ => {}
        }
    }
    copy
}

/// A frame as RGBA bytes with every fully transparent pixel zeroed.
fn normalised(mut raw: Vec<u8>) -> Vec<u8> {
    for pixel in raw.chunks_exact_mut(4) {
        if pixel[3] == 0 {
            pixel.copy_from_slice(&[0; 4]);
        }
    }
    raw
}

/// The first differing pixels of two frames of `width` pixels a row, as text.
fn differences(ours: &[u8], theirs: &[u8], width: usize) -> Vec<String> {
    ours.chunks_exact(4)
        .zip(theirs.chunks_exact(4))
        .enumerate()
        .filter(|(_, (a, b))| a != b)
        .take(4)
        .map(|(i, (a, b))| format!("({},{}) ours {a:?} asefile {b:?}", i % width, i / width))
        .collect()
}

/// Aseprite before 1.3.15 (whose exports the `asefile` project's reference images are, and
/// which `asefile` follows) drew the Saturation mode wrongly when two channels of the backdrop
/// are equal; we draw as Aseprite draws today. True when the backdrop `[r, g, b, a]` is such
/// a colour (the condition `formats::aseprite::blend`'s tests spell out).
fn saturation_fixed_since_1_3_15([r, g, b, _]: [u8; 4]) -> bool {
    (r == g && g < b) || (g == b && b < r) || (r == g && g == b && r > 0)
}

/// The pixels where ours and theirs may differ: under a visible Saturation layer, where the
/// backdrop (the frame drawn without it) is a colour the old Saturation drew otherwise.
fn old_saturation_pixels(sprite: &parse_sprite::Sprite, frame: usize) -> Vec<bool> {
    const SATURATION: u16 = 13;
    let pixels = usize::from(sprite.header.width) * usize::from(sprite.header.height);
    let mut allowed = vec![false; pixels];
    for (index, layer) in sprite.layers.iter().enumerate() {
        if layer.effective_blend != SATURATION || !sprite.shown(index) {
            continue;
        }
        let mut without = sprite.clone();
        without.layers[index].flags &= !1;
        let backdrop = compose::frame(&without, frame).into_raw();
        for (pixel, allow) in backdrop.chunks_exact(4).zip(allowed.iter_mut()) {
            *allow |= saturation_fixed_since_1_3_15([pixel[0], pixel[1], pixel[2], pixel[3]]);
        }
    }
    allowed
}

fn compare(path: &Path) -> Vec<String> {
    let bytes = std::fs::read(path).unwrap();
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let sprite = parse::parse(&bytes).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    let theirs = asefile::AsepriteFile::read(&for_asefile(&bytes)[..])
        .unwrap_or_else(|e| panic!("{name}: asefile refuses it: {e}"));
    assert_eq!(sprite.frames.len(), theirs.num_frames() as usize, "{name}");
    let mut failures = Vec::new();
    for index in 0..sprite.frames.len() {
        let mut ours = normalised(compose::frame(&sprite, index).into_raw());
        let expected = normalised(theirs.frame(index as u32).image().into_raw());
        let width = usize::from(sprite.header.width);
        let allowed = old_saturation_pixels(&sprite, index);
        for (pixel, (theirs, &allow)) in ours
            .chunks_exact_mut(4)
            .zip(expected.chunks_exact(4).zip(&allowed))
        {
            if allow {
                pixel.copy_from_slice(theirs);
            }
        }
        let differing = differences(&ours, &expected, width);
        if !differing.is_empty() {
            failures.push(format!("{name} frame {index}: {differing:?}"));
        }
    }
    failures
}

#[test]
fn every_frame_of_every_corpus_file_draws_as_asefile_draws_it() {
    let folder = common::corpus().join("aseprite");
    let files = common::files_with_extensions(&folder, &["aseprite", "ase"]);
    assert!(files.len() >= 30, "found only {} files", files.len());
    let failures: Vec<String> = files.iter().flat_map(|path| compare(path)).collect();
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The reference image of `blend_saturation_bug.aseprite` (which `aseprite_corpus` leaves out)
/// is what `asefile` draws: so the test above checks our frame against it, and the pixels we
/// draw otherwise are exactly those of the Saturation fix.
#[test]
fn the_saturation_reference_predates_the_fix_and_differs_only_where_it_applies() {
    let folder = common::corpus().join("aseprite");
    let bytes = std::fs::read(folder.join("blend_saturation_bug.aseprite")).unwrap();
    let reference = image::open(folder.join("blend_saturation_bug.png"))
        .unwrap()
        .into_rgba8();
    let theirs = asefile::AsepriteFile::read(&bytes[..]).unwrap();
    assert_eq!(
        normalised(theirs.frame(0).image().into_raw()),
        normalised(reference.into_raw())
    );
    let sprite = parse::parse(&bytes).unwrap();
    let ours = normalised(compose::frame(&sprite, 0).into_raw());
    let allowed = old_saturation_pixels(&sprite, 0);
    let expected = normalised(theirs.frame(0).image().into_raw());
    let changed = ours
        .chunks_exact(4)
        .zip(expected.chunks_exact(4))
        .filter(|(a, b)| a != b)
        .count();
    assert!(
        changed > 0,
        "the fixed Saturation changes some pixels of this file"
    );
    assert!(changed <= allowed.iter().filter(|&&a| a).count());
}
