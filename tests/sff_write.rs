//! SFF writing on every corpus archive: an unedited archive saves byte for byte, an edited one
//! keeps every untouched sprite's bytes, and every sprite re-encoded in each codec decodes to
//! the same pixels.

mod common;

use sprat::formats::sff::edit::{EditableSff, SpriteContent, StoredSprite, decode_stored};
use sprat::formats::sff::encode::{Codec, SpritePixels, encode_sprite};
use sprat::formats::sff::write::write_sff;
use sprat::formats::sff::{PaletteChoice, SffArchive};
use std::path::PathBuf;
use std::sync::Arc;

fn archives() -> Vec<(PathBuf, Arc<SffArchive>)> {
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
            (path, Arc::new(archive))
        })
        .collect()
}

#[test]
fn every_corpus_sff_resaves_byte_for_byte_unedited() {
    for (path, archive) in archives() {
        let sff = EditableSff::from_archive(archive.clone()).expect("held in memory");
        assert_eq!(
            write_sff(&sff).unwrap(),
            archive.bytes().expect("held in memory"),
            "{}",
            path.display()
        );
    }
}

/// A sprite's number, axis and RGBA pixels.
type Drawn = ((u16, u16), (i32, i32), Vec<u8>);

/// Every sprite's pixels and axis as drawn with the archive's own colours, by number.
fn drawn(archive: &SffArchive) -> Vec<Drawn> {
    let mut seen = std::collections::HashSet::new();
    archive
        .sprites()
        .iter()
        .enumerate()
        .filter(|(_, s)| seen.insert((s.group, s.image)))
        .map(|(i, s)| {
            let d = archive.decode(i, PaletteChoice::Own).unwrap();
            ((s.group, s.image), d.axis, d.image.into_raw())
        })
        .collect()
}

#[test]
fn every_corpus_sff_rebuilt_after_an_edit_draws_the_same_and_keeps_untouched_bytes() {
    for (path, archive) in archives() {
        let mut sff = EditableSff::from_archive(archive.clone()).expect("held in memory");
        // An edit that changes the layout (every offset moves) but no pixels.
        let first = &sff.sprites[0];
        let (group, image, axis) = (first.group, first.image, first.axis);
        sff.set_axis(group, image, (axis.0.wrapping_add(1), axis.1))
            .unwrap();
        let bytes = write_sff(&sff).unwrap();
        let written = SffArchive::parse(bytes).unwrap();
        assert_eq!(written.version(), archive.version(), "{}", path.display());
        // What the reader says of the archive is said of it rebuilt: an edit repairs nothing
        // it did not touch (v1 length fields counting palettes their sprites leave out stay).
        let said =
            |a: &SffArchive| -> Vec<String> { a.check().into_iter().map(|d| d.message).collect() };
        assert_eq!(said(&written), said(&archive), "{}", path.display());
        let mut expected = drawn(&archive);
        expected[0].1.0 = i32::from(axis.0.wrapping_add(1));
        assert_eq!(drawn(&written), expected, "{}", path.display());
        // Untouched sprites' stored bytes are all still there.
        for (i, info) in archive.sprites().iter().enumerate() {
            if info.linked_to.is_none() && archive.version().major() == 2 {
                let j = written.find(info.group.into(), info.image.into()).unwrap();
                let j = written.sprites()[j].linked_to.unwrap_or(j);
                assert_eq!(
                    written.stored_bytes(j),
                    archive.stored_bytes(i),
                    "{} sprite {},{}",
                    path.display(),
                    info.group,
                    info.image
                );
            }
        }
    }
}

/// Decodes what `encode_sprite` made through the reader's own decoders.
fn round_trip(pixels: &SpritePixels, codec: Codec) -> Result<SpritePixels, String> {
    let data = encode_sprite(pixels, codec, None).map_err(|e| e.message)?;
    let (width, height) = pixels.size();
    let stored = StoredSprite {
        codec,
        width,
        height,
        data,
        pixels_hash: 0,
    };
    decode_stored(&stored).map_err(|e| e.message)
}

#[test]
fn every_corpus_sprite_re_encoded_in_each_codec_decodes_to_the_same_pixels() {
    let indexed_codecs = [
        Codec::Raw,
        Codec::Rle8,
        Codec::Rle5,
        Codec::Lz5,
        Codec::Png8,
        Codec::Pcx,
    ];
    let mut checked = 0;
    for (path, archive) in archives() {
        for (i, info) in archive.sprites().iter().enumerate() {
            if info.linked_to.is_some() {
                continue;
            }
            let (pixels, _) = archive.decode_pixels(i).unwrap();
            let name = format!("{} sprite {},{}", path.display(), info.group, info.image);
            match &pixels {
                SpritePixels::Indexed { indices, .. } => {
                    let high = indices.iter().any(|&c| c >= 32);
                    for codec in indexed_codecs {
                        match round_trip(&pixels, codec) {
                            Ok(back) => assert_eq!(back, pixels, "{name} as {codec:?}"),
                            Err(e) => assert!(
                                codec == Codec::Lz5 && high && e.contains("0 to 31"),
                                "{name} as {codec:?}: {e}"
                            ),
                        }
                    }
                    assert!(round_trip(&pixels, Codec::Png32).is_err(), "{name}");
                }
                SpritePixels::Rgba { rgba, .. } => {
                    assert_eq!(round_trip(&pixels, Codec::Png32).unwrap(), pixels, "{name}");
                    if rgba.chunks_exact(4).all(|p| p[3] == 255) {
                        assert_eq!(round_trip(&pixels, Codec::Png24).unwrap(), pixels, "{name}");
                    }
                    assert!(round_trip(&pixels, Codec::Rle8).is_err(), "{name}");
                }
            }
            checked += 1;
        }
    }
    assert!(checked > 1000, "{checked} sprites");
}

#[test]
fn kept_sprites_stay_kept_and_new_identical_ones_are_linked() {
    let path = common::corpus().join("mugen/kfm/kfm.sff");
    let archive = Arc::new(SffArchive::open(&path).unwrap());
    let mut sff = EditableSff::from_archive(archive.clone()).expect("held in memory");
    let (pixels, _) = archive.decode_pixels(archive.find(0, 0).unwrap()).unwrap();
    sff.add_sprite(7000, 0, (3, 4), &pixels, 0, None).unwrap();
    sff.add_sprite(7000, 1, (5, 6), &pixels, 0, None).unwrap();
    sff.delete_sprite(0, 1).unwrap();
    sff.renumber(0, 2, (6000, 2)).unwrap();
    assert!(matches!(sff.sprites[0].content, SpriteContent::Kept(0)));
    let written = SffArchive::parse(write_sff(&sff).unwrap()).unwrap();
    assert!(written.check().is_empty(), "{:?}", written.check());
    let a = written.find(7000, 0).unwrap();
    let b = written.find(7000, 1).unwrap();
    assert_eq!(written.sprites()[b].linked_to, Some(a));
    assert_eq!(written.sprites()[b].axis, (5, 6));
    assert_eq!(written.decode_pixels(b).unwrap().0, pixels);
    assert!(written.find(0, 1).is_none());
    assert!(written.find(6000, 2).is_some() && written.find(0, 2).is_none());
}

/// An axis edit rewrites only that sprite's entry: the writer keeps each archive's own habits
/// (where a v1 archive's last sprite points, what a link's data offset says, the compatible
/// version, v1 length fields that count palette bytes their sprites leave out or run past the
/// end of the file, as in `kfm/intro.sff` and Ikemen's `fightfx.sff`).
#[test]
fn an_axis_edit_changes_only_that_sprites_entry_in_every_corpus_archive() {
    let laid_out_so = [
        "fightfx/fightfx.sff",
        "fightfx_ikemen2018/fightfx.sff",
        "kfm/intro.sff",
        "fonts/f-4x6.sff",
        "fonts/f-6x9.sff",
        "gofx/gofx.sff",
        "kfm/kfm.sff",
        "kfm720/kfm720.sff",
        "kfm_ikemen2018/kfm.sff",
        "lifebar/fight.sff",
        "stages/interactivestage.sff",
        "stages/kfm.sff",
        "stages/stage0.sff",
        "stages/stageZ.sff",
        "stages_ikemen2018/stage0.sff",
    ];
    for name in laid_out_so {
        let path = common::corpus().join("mugen").join(name);
        let archive = Arc::new(SffArchive::open(&path).unwrap());
        let mut sff = EditableSff::from_archive(archive.clone()).expect("held in memory");
        let first = &sff.sprites[0];
        let (group, image, axis) = (first.group, first.image, first.axis);
        sff.set_axis(group, image, (axis.0.wrapping_add(1), axis.1))
            .unwrap();
        let written = write_sff(&sff).unwrap();
        let original = archive.bytes().expect("held in memory");
        // A sprite's entry: v1's 32-byte subheader, v2's 28-byte sprite node.
        let entry_len = if archive.version().major() == 1 {
            32
        } else {
            28
        };
        let start = archive.sprites()[0].header_offset as usize;
        assert_eq!(written.len(), original.len(), "{name}");
        let changed: Vec<usize> = (0..written.len())
            .filter(|&i| written[i] != original[i])
            .collect();
        assert!(
            !changed.is_empty()
                && changed
                    .iter()
                    .all(|i| (start..start + entry_len).contains(i)),
            "{name}: bytes {:?} changed",
            &changed[..changed.len().min(8)]
        );
    }
}
