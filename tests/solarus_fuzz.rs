//! Arbitrary and mutated input never makes the Solarus readers panic, hang or fail to save.

mod common;

use proptest::prelude::*;
use sprat::formats::solarus::{SolarusLegacyFormat, SolarusLuaFormat};
use sprat::formats::{Format, ReadContext, WriteContext};

fn corpus_samples() -> Vec<Vec<u8>> {
    common::files_with_extensions(&common::corpus().join("solarus"), &["dat", "zsd"])
        .into_iter()
        .map(|p| std::fs::read(p).unwrap())
        .filter(|b| !b.is_empty())
        .collect()
}

/// Reads with both formats; whatever reads must also write without panicking.
fn read_and_write(bytes: &[u8]) {
    for format in [&SolarusLegacyFormat as &dyn Format, &SolarusLuaFormat] {
        let _ = format.sniff(bytes);
        if let Ok(loaded) = format.read(bytes, &ReadContext::default()) {
            let _ = format.write(&loaded.document, &WriteContext::default());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        read_and_write(&bytes);
    }

    #[test]
    fn random_lua_like_text_never_panics(
        pieces in proptest::collection::vec(
            prop_oneof![
                Just("animation"), Just("{"), Just("}"), Just("("), Just(")"), Just("="),
                Just(","), Just(";"), Just("-"), Just("--"), Just("[["), Just("]]"),
                Just("\""), Just("\\"), Just("name"), Just("src_image"), Just("directions"),
                Just("x"), Just("y"), Just("frame_width"), Just("frame_height"),
                Just("num_frames"), Just("num_columns"), Just("frame_delay"),
                Just("frame_to_loop_on"), Just("0"), Just("1"), Just("-1"), Just("99999999999"),
                Just("1e400"), Just("0x7fffffff"), Just(" "), Just("\n"), Just("\"a.png\""),
            ],
            0..80,
        )
    ) {
        read_and_write(pieces.concat().as_bytes());
    }

    #[test]
    fn mutated_corpus_files_never_panic(
        index in any::<prop::sample::Index>(),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..8),
    ) {
        let samples = corpus_samples();
        let mut bytes = samples[index.index(samples.len())].clone();
        common::fuzz::edit_bytes(&mut bytes, &edits);
        read_and_write(&bytes);
    }
}

#[test]
fn huge_counts_are_refused_without_allocating() {
    let legacy = b"a i.png 1 100 0\n0 0 1 1 0 0 2000000000 2000000000\n";
    let diagnostics = match SolarusLegacyFormat.read(legacy, &ReadContext::default()) {
        Ok(l) => l.diagnostics,
        Err(f) => f.diagnostics,
    };
    assert!(diagnostics[0].message.contains("more than Sprat accepts"));
    let lua: String = (0..20)
        .map(|i| format!("animation{{ name = \"a{i}\", src_image = \"i.png\", directions = {{ {{ x = 0, y = 0, frame_width = 1, frame_height = 1, num_frames = 4000 }} }} }}\n"))
        .collect();
    let loaded = SolarusLuaFormat
        .read(lua.as_bytes(), &ReadContext::default())
        .unwrap();
    assert!(loaded.document.frames.len() <= 65_536);
    let over: Vec<_> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.message.contains("frames in all"))
        .collect();
    assert_eq!(over.len(), 1, "said once, for the first animation left out");
    assert!(over[0].message.contains("animation 'a16'"));
}

#[test]
fn deep_nesting_is_refused_without_overflowing_the_stack() {
    let text = format!("animation{}", "{".repeat(100_000));
    let failure = SolarusLuaFormat
        .read(text.as_bytes(), &ReadContext::default())
        .unwrap_err();
    assert!(failure.diagnostics[0].message.contains("nested too deeply"));
}
