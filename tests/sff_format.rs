//! `.sff` opened alone: every sprite as a (group, image) list; it saves back as itself.

mod common;

use sprat::formats::sff::{SffArchive, SffFormat};
use sprat::formats::{Format, ReadContext, Sniff, WriteContext, registry};
use sprat::model::{ElementKind, FrameDuration, GraphicSource, ImageKind, Origin, PaletteSource};
use std::collections::BTreeSet;

#[test]
fn every_corpus_sff_opens_as_one_sequence_per_group() {
    for path in common::files_with_extensions(&common::corpus(), &["sff"]) {
        let (loaded, format) = registry().open(&path, &ReadContext::default()).unwrap();
        assert_eq!(format.id(), "mugen-sff");
        let document = loaded.document;
        let archive = SffArchive::open(&path).unwrap();
        let pairs: BTreeSet<(u16, u16)> = archive
            .sprites()
            .iter()
            .map(|s| (s.group, s.image))
            .collect();
        let groups: BTreeSet<u16> = pairs.iter().map(|p| p.0).collect();
        let sequences = document.sequences();
        assert_eq!(sequences.len(), groups.len(), "{}", path.display());

        // The archive is the one image, with its own palettes to switch between.
        assert_eq!(document.images.len(), 1);
        let image = &document.images[0];
        assert_eq!(image.resolved.as_deref(), Some(path.as_path()));
        assert_eq!(image.path, path.file_name().unwrap().to_string_lossy());
        let ImageKind::Sff {
            palettes,
            active_palette,
        } = &image.kind
        else {
            panic!("not an SFF image");
        };
        assert_eq!(palettes.len(), archive.palette_count());
        assert!(
            palettes
                .iter()
                .enumerate()
                .all(|(i, p)| *p == PaletteSource::Embedded(i as u32))
        );
        assert_eq!(*active_palette, None);

        // Every (group, image) pair once, in ascending order, drawn by its axis.
        let mut listed = Vec::new();
        for (sequence, group) in sequences.iter().zip(&groups) {
            assert_eq!(sequence.name, format!("group {group}"));
            assert_eq!(sequence.loop_point, Some(0));
            for frame in document.direction_frames(sequence, 0) {
                assert_eq!(frame.duration, FrameDuration::Ticks(6));
                let [element] = frame.elements.as_slice() else {
                    panic!("one graphic per frame")
                };
                let ElementKind::Graphic(graphic) = &element.kind else {
                    panic!("a graphic")
                };
                assert_eq!(graphic.origin, Origin::SourceAxis);
                let GraphicSource::SffSprite {
                    archive: id,
                    group: g,
                    image: n,
                } = graphic.source
                else {
                    panic!("an SFF sprite")
                };
                assert_eq!(id, image.id);
                assert_eq!(g, *group as i32);
                listed.push((g as u16, n as u16));
            }
        }
        assert_eq!(
            listed,
            pairs.into_iter().collect::<Vec<_>>(),
            "{}",
            path.display()
        );
    }
}

#[test]
fn reading_twice_gives_the_same_ids() {
    let path = common::corpus().join("mugen/kfm/kfm.sff");
    let bytes = std::fs::read(&path).unwrap();
    let context = ReadContext::for_path(&path);
    let a = SffFormat.read(&bytes, &context).unwrap().document;
    let b = SffFormat.read(&bytes, &context).unwrap().document;
    assert_eq!(a, b);
    assert_eq!(a.sequences()[0].name, "group 0");
}

#[test]
fn an_unedited_sff_writes_its_own_bytes_with_no_loss() {
    let path = common::corpus().join("mugen/stages/stage0.sff");
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(SffFormat.sniff(&bytes), Sniff::Yes);
    assert_eq!(SffFormat.sniff(b"[Begin Action 0]"), Sniff::No);
    let loaded = SffFormat
        .read(&bytes, &ReadContext::for_path(&path))
        .unwrap();
    let written = SffFormat
        .write(&loaded.document, &WriteContext::for_path(&path))
        .unwrap();
    assert!(written.bytes == bytes);
    assert!(written.losses.is_empty() && written.companions.is_empty());
    assert!(SffFormat.capabilities().write);
    assert!(!SffFormat.capabilities().boxes && !SffFormat.capabilities().per_frame_durations);
}

#[test]
fn a_file_that_is_not_sff_fails_with_an_offset() {
    let failure = SffFormat
        .read(b"ElecbyteSpr\0\0\0\0\x07", &ReadContext::default())
        .unwrap_err();
    assert_eq!(
        failure.diagnostics[0].location,
        sprat::formats::Location::Byte(12)
    );
    assert!(failure.diagnostics[0].message.contains("version"));
}
