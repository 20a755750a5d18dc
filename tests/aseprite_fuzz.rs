//! Random, mutated and truncated Aseprite bytes: reading never panics, never loops forever,
//! never makes an allocation larger than the file could fill, and a refused file is reported
//! at a byte offset inside it.
//!
//! A counting allocator records the largest single allocation each test thread makes, so the
//! bound is checked, not assumed.

mod common;

use common::allocation::{Tracking, largest_allocation};
use proptest::prelude::*;
use sprat::assets::ImageStore;
use sprat::formats::aseprite::AsepriteFormat;
use sprat::formats::{Format, Location, ReadContext};
use sprat::render::{RenderOptions, Scene, render};

#[global_allocator]
static ALLOCATOR: Tracking = Tracking;

/// What a file of `len` bytes may take at once: a blank 4096x4096 canvas, or pixels at zlib's
/// best ratio (1032 bytes a byte, rounded up to 1100) of its length, as RGBA.
fn allowed(len: usize) -> usize {
    (64 << 20) + len * 1100 * 4
}

/// Reads the bytes and draws every frame of what was read.
fn exercise(bytes: &[u8]) -> Result<(), TestCaseError> {
    match AsepriteFormat.read(bytes, &ReadContext::default()) {
        Ok(loaded) => {
            let store = ImageStore::new();
            for frame in loaded.document.frames.values() {
                render(
                    &loaded.document,
                    &Scene::of_frame(frame),
                    &store,
                    &RenderOptions::default(),
                );
            }
        }
        Err(failure) => {
            prop_assert!(!failure.diagnostics.is_empty());
            for diagnostic in failure.diagnostics {
                let Location::Byte(offset) = diagnostic.location else {
                    return Err(TestCaseError::fail(format!(
                        "no byte offset: {diagnostic:?}"
                    )));
                };
                prop_assert!(
                    offset as usize <= bytes.len(),
                    "offset {offset} past the end"
                );
            }
        }
    }
    Ok(())
}

fn check(bytes: &[u8]) -> Result<(), TestCaseError> {
    let mut outcome = Ok(());
    let largest = largest_allocation(|| outcome = exercise(bytes));
    outcome?;
    prop_assert!(
        largest <= allowed(bytes.len()),
        "a {}-byte file made a {largest}-byte allocation",
        bytes.len()
    );
    Ok(())
}

/// Small corpus files of every kind: RGBA, indexed, grayscale, layers and tags, linked cels,
/// tilemaps, slices, user data, the old palette chunk.
const SEEDS: [&str; 10] = [
    "basic-16x16.aseprite",
    "layers_and_tags.aseprite",
    "linked_cels.aseprite",
    "indexed.aseprite",
    "grayscale.aseprite",
    "tilemap.aseprite",
    "slice_advanced.aseprite",
    "user_data.aseprite",
    "256_color_old_palette_chunk.aseprite",
    "blend_saturation_bug.aseprite",
];

fn corpus_file(name: &str) -> Vec<u8> {
    std::fs::read(common::corpus().join("aseprite").join(name)).unwrap()
}

/// The first bytes of a file (the header and the first chunk headers), where most edits land.
const HEAD: usize = 256;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn random_bytes_after_the_magic_never_panic(
        tail in prop::collection::vec(any::<u8>(), 0..1024),
    ) {
        let mut bytes = vec![0u8, 0, 0, 0, 0xE0, 0xA5];
        bytes.extend_from_slice(&tail);
        check(&bytes)?;
    }

    #[test]
    fn plain_random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        check(&bytes)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(192))]

    #[test]
    fn mutated_corpus_files_never_panic(
        seed in 0..SEEDS.len(),
        edits in prop::collection::vec((any::<u32>(), any::<u8>()), 1..16),
        keep in prop_oneof![3 => Just(1000u16), 1 => 0..1000u16],
    ) {
        check(&common::fuzz::overwrite_and_cut(corpus_file(SEEDS[seed]), &edits, keep, HEAD))?;
    }
}

/// Every truncation of every corpus file (the file's layout is walked before any pixel is
/// inflated, so each cut costs next to nothing): refused, at an offset inside what is left,
/// allocating no more than those bytes could fill.
#[test]
fn every_prefix_of_every_corpus_file_is_refused_at_an_offset_inside_it() {
    let folder = common::corpus().join("aseprite");
    let files = common::files_with_extensions(&folder, &["aseprite", "ase"]);
    assert!(files.len() >= 30, "found only {} files", files.len());
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.display();
        for len in 0..bytes.len() {
            let largest = largest_allocation(|| {
                let failure = AsepriteFormat
                    .read(&bytes[..len], &ReadContext::default())
                    .expect_err("a truncated file must be refused");
                let Location::Byte(offset) = failure.diagnostics[0].location else {
                    panic!("{name} cut at {len}: no offset");
                };
                assert!(
                    offset as usize <= len,
                    "{name} cut at {len}: offset {offset}"
                );
            });
            assert!(
                largest <= allowed(len),
                "{name} cut at {len}: a {largest}-byte allocation"
            );
        }
    }
}

#[test]
fn a_cel_claiming_65535_squared_pixels_allocates_next_to_nothing() {
    let mut bytes = corpus_file("basic-16x16.aseprite");
    // Every cel chunk (type 0x2005) of the file: its width and height are 22 bytes in.
    let cels: Vec<usize> = (0..bytes.len() - 6)
        .filter(|&at| bytes[at + 4..at + 6] == [0x05, 0x20] && at >= 144)
        .collect();
    assert!(!cels.is_empty());
    for at in cels {
        bytes[at + 22..at + 26].copy_from_slice(&[0xFF; 4]);
    }
    let largest = largest_allocation(|| {
        let failure = AsepriteFormat
            .read(&bytes, &ReadContext::default())
            .expect_err("refused");
        assert!(
            failure.diagnostics[0].message.contains("65535x65535"),
            "{:?}",
            failure.diagnostics
        );
    });
    assert!(largest < 1 << 20, "largest allocation {largest}");
}

/// Counts panics anywhere while `run` runs (a reader that catches a panic still prints it).
fn panics_during(run: impl FnOnce()) -> usize {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static PANICS: AtomicUsize = AtomicUsize::new(0);
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {
        PANICS.fetch_add(1, Ordering::SeqCst);
    }));
    let before = PANICS.load(Ordering::SeqCst);
    run();
    let after = PANICS.load(Ordering::SeqCst);
    std::panic::set_hook(previous);
    after - before
}

/// The byte offsets of the chunks of `kind` in `bytes`.
fn chunks_of(bytes: &[u8], kind: u16) -> Vec<usize> {
    let view = sprat::formats::aseprite::file::FileView::of(bytes).unwrap();
    view.frames
        .iter()
        .flat_map(|f| f.units.iter())
        .filter(|u| u.kind == kind)
        .map(|u| u.chunk.start)
        .collect()
}

/// Damage found by mutating the corpus files (the reader crate once panicked on each) is
/// refused at the damaged chunk, and nothing about a panic is printed.
#[test]
fn damaged_chunks_are_refused_without_a_panic() {
    const LAYER: u16 = 0x2004;
    const CEL: u16 = 0x2005;
    let mut cases: Vec<(&str, Vec<u8>, &str)> = Vec::new();
    // The first layer nested under no group.
    let mut bytes = corpus_file("layers_and_tags.aseprite");
    let at = chunks_of(&bytes, LAYER)[0];
    bytes[at + 10] = 1;
    cases.push(("nesting", bytes, "under no group"));
    // A cel on a layer the file does not have.
    let mut bytes = corpus_file("layers_and_tags.aseprite");
    let at = chunks_of(&bytes, CEL)[0];
    bytes[at + 6] = 200;
    cases.push(("layer", bytes, "layer 200"));
    // A linked cel showing a frame the file does not have.
    let mut bytes = corpus_file("linked_cels.aseprite");
    let linked = chunks_of(&bytes, CEL)
        .into_iter()
        .find(|&at| bytes[at + 13] == 1)
        .expect("a linked cel");
    bytes[linked + 22..linked + 24].copy_from_slice(&999u16.to_le_bytes());
    cases.push(("link", bytes, "frame 999"));
    // A compressed cel one pixel wider than its pixels.
    let mut bytes = corpus_file("basic-16x16.aseprite");
    let at = chunks_of(&bytes, CEL)[0];
    bytes[at + 22] += 1;
    cases.push(("pixels", bytes, "fewer than"));
    for (what, bytes, says) in cases {
        let mut outcome = None;
        let panics = panics_during(|| {
            outcome = Some(AsepriteFormat.read(&bytes, &ReadContext::default()));
        });
        assert_eq!(panics, 0, "{what}: the reader panicked");
        let failure = outcome.unwrap().expect_err(what);
        let message = &failure.diagnostics[0].message;
        assert!(message.contains(says), "{what}: {message}");
    }
}
