//! The Sprat project format against arbitrary input, large documents and the bundled demo.

mod common;

use proptest::prelude::*;
use sprat::formats::sprat::SpratFormat;
use sprat::formats::{Format, Location, ReadContext, WriteContext};
use std::path::Path;

fn demo_bytes() -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/demo.sprat")).unwrap()
}

#[test]
fn the_demo_reads_cleanly_and_saves_byte_for_byte() {
    let bytes = demo_bytes();
    let loaded = SpratFormat.read(&bytes, &ReadContext::default()).unwrap();
    assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
    let names: Vec<&str> = loaded
        .document
        .sequences()
        .iter()
        .map(|s| s.name.as_str())
        .collect();
    assert_eq!(names, ["idle", "walk", "attack"]);
    let written = SpratFormat
        .write(&loaded.document, &WriteContext::default())
        .unwrap();
    assert_eq!(written.bytes, bytes);
}

#[test]
fn a_large_document_round_trips() {
    let set = sprat::model::fixtures::long_sequence(10_000);
    let written = SpratFormat.write(&set, &WriteContext::default()).unwrap();
    let mut back = SpratFormat
        .read(&written.bytes, &ReadContext::default())
        .unwrap()
        .document;
    back.original = None;
    assert_eq!(back, set);
}

#[test]
fn image_paths_are_written_relative_to_the_project_file() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let mut set = sprat::model::fixtures::long_sequence(1);
    set.images[0].resolved = Some(dir.join("art/sheet.png"));
    let context = WriteContext::for_path(dir.join("projects/hero.sprat"));
    let written = SpratFormat.write(&set, &context).unwrap();
    let text = String::from_utf8(written.bytes).unwrap();
    assert!(text.contains("path: \"../art/sheet.png\""), "{text}");
    let back = SpratFormat
        .read(
            text.as_bytes(),
            &ReadContext::for_path(dir.join("projects/hero.sprat")),
        )
        .unwrap();
    let resolved = back.document.images[0].resolved.clone().unwrap();
    assert_eq!(
        sprat::formats::paths::normalise(&resolved),
        dir.join("art/sheet.png")
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        if let Err(failure) = SpratFormat.read(&bytes, &ReadContext::default()) {
            prop_assert!(!failure.diagnostics.is_empty());
        }
    }

    #[test]
    fn mutated_demo_files_never_panic_and_errors_have_positions(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8),
        cut in any::<prop::sample::Index>(),
    ) {
        let mut bytes = demo_bytes();
        for (index, value) in edits {
            let i = index.index(bytes.len());
            bytes[i] = value;
        }
        bytes.truncate(cut.index(bytes.len() + 1));
        match SpratFormat.read(&bytes, &ReadContext::default()) {
            Ok(_) => {}
            Err(failure) => {
                let d = &failure.diagnostics[0];
                let positioned = matches!(d.location, Location::Text { line, column } if line >= 1 && column >= 1);
                prop_assert!(positioned, "{d:?}");
            }
        }
    }
}

#[test]
fn hand_edited_files_using_all_of_ron_read_like_the_files_sprat_writes() {
    let set = sprat::model::fixtures::long_sequence(3);
    let written = SpratFormat.write(&set, &WriteContext::default()).unwrap();
    let text = String::from_utf8(written.bytes).unwrap();
    // Raw strings, hexadecimal and underscored numbers, nested comments and a struct name are
    // valid RON outside what the fast reader handles; the file must still read the same.
    let edited = format!("/* outer /* nested */ */\n{text}")
        .replacen("path: \"sheet.png\"", "path: r#\"sheet.png\"#", 1)
        .replacen("next_id: ", "next_id: 0x0_", 1)
        .replacen("set: (", "set: AnimationSet(", 1);
    assert_ne!(edited, text);
    // (`next_id` now reads as hexadecimal 0x17.., a different number, so it is not compared.)
    let from_edited = SpratFormat
        .read(edited.as_bytes(), &ReadContext::default())
        .unwrap()
        .document;
    let from_written = SpratFormat
        .read(text.as_bytes(), &ReadContext::default())
        .unwrap()
        .document;
    assert_eq!(from_edited.images, from_written.images);
    assert_eq!(from_edited.frames, from_written.frames);
    assert_eq!(from_edited.root, from_written.root);
}
