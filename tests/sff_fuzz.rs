//! Random and mutated SFF bytes: reading and decoding never panic, never loop forever, and
//! never make an allocation larger than the file could fill.
//!
//! A counting allocator records the largest single allocation each test thread makes, so the
//! bound is checked, not assumed.

mod common;

use common::allocation::{Tracking, largest_allocation};
use proptest::prelude::*;
use sprat::formats::sff::{PaletteChoice, SffArchive, SffFormat};
use sprat::formats::{Format, ReadContext};

#[global_allocator]
static ALLOCATOR: Tracking = Tracking;

/// What any sprite of a file of `len` bytes may take: its indices and RGBA pixels at the best
/// codec ratio (LZ5, 132 pixels a byte, 4 bytes a pixel), plus a fixed allowance for tables
/// and the PNG decoder's working buffers.
fn allowed(len: usize) -> usize {
    (1 << 20) + len * 132 * 4
}

/// Reads and decodes everything every way the program does.
fn exercise(bytes: &[u8]) {
    if let Ok(archive) = SffArchive::parse(bytes.to_vec()) {
        for result in archive.decode_all(PaletteChoice::Own) {
            drop(result);
        }
        let _ = archive.decode(0, PaletteChoice::Embedded(1));
        let _ = archive.check();
        for (i, s) in archive.sprites().iter().enumerate() {
            assert!(
                s.linked_to
                    .is_none_or(|t| t < archive.sprites().len() && t != i)
            );
        }
    }
    let _ = SffFormat.read(bytes, &ReadContext::default());
}

fn check(bytes: &[u8]) -> Result<(), TestCaseError> {
    let largest = largest_allocation(|| exercise(bytes));
    prop_assert!(
        largest <= allowed(bytes.len()),
        "a {}-byte file made a {largest}-byte allocation",
        bytes.len()
    );
    Ok(())
}

fn corpus_file(name: &str) -> Vec<u8> {
    std::fs::read(common::corpus().join("mugen").join(name)).unwrap()
}

/// Small corpus archives of every kind: v1 PCX, v2.00 LZ5/RLE8, v2.01 LZ5/PNG24/PNG32/PNG8.
const SEEDS: [&str; 6] = [
    "kfm/intro.sff",
    "fonts/f-4x6.sff",
    "fonts/f-6x9.sff",
    "stages_ikemen2018/stage0.sff",
    "stages/stageZ.sff",
    "stages/interactivestage.sff",
];

/// The first bytes of a file (the header, the sprite and palette tables), where most edits land.
const HEAD: usize = 1024;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_bytes_after_a_signature_never_panic(
        version in prop::sample::select(vec![[0u8, 1, 0, 1], [0, 0, 0, 2], [0, 1, 0, 2], [9, 9, 9, 9]]),
        tail in prop::collection::vec(any::<u8>(), 0..2048),
    ) {
        let mut bytes = b"ElecbyteSpr\0".to_vec();
        bytes.extend_from_slice(&version);
        bytes.extend_from_slice(&tail);
        check(&bytes)?;
    }

    #[test]
    fn plain_random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        check(&bytes)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn mutated_corpus_archives_never_panic(
        seed in 0..SEEDS.len(),
        edits in prop::collection::vec((any::<u32>(), any::<u8>()), 1..24),
        keep in prop_oneof![3 => Just(1000u16), 1 => 0..1000u16],
    ) {
        check(&common::fuzz::overwrite_and_cut(corpus_file(SEEDS[seed]), &edits, keep, HEAD))?;
    }
}

#[test]
fn a_sprite_claiming_65535_squared_allocates_next_to_nothing() {
    // f-4x6.sff: sprite entries start at 640, 28 bytes each; width and height at +4 and +6.
    let mut bytes = corpus_file("fonts/f-4x6.sff");
    for sprite in 0..94 {
        let at = 640 + 28 * sprite + 4;
        bytes[at..at + 4].copy_from_slice(&[0xFF; 4]);
    }
    let largest = largest_allocation(|| {
        let archive = SffArchive::parse(bytes.clone()).unwrap();
        for result in archive.decode_all(PaletteChoice::Own) {
            let error = result.unwrap_err();
            assert!(error.message.contains("65535x65535"), "{}", error.message);
        }
    });
    assert!(largest < 64 * 1024, "largest allocation {largest}");
}
