//! Bad input never panics, and edits survive a save and a re-read.

mod common;

use proptest::prelude::*;
use sprat::formats::adl::{AdlFormat, move_part};
use sprat::formats::{Format, ReadContext, WriteContext};
use sprat::model::{AnimationSet, ElementKind, Point};
use std::sync::OnceLock;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn frames_removed_reordered_or_duplicated_survive_a_save(
        file in 0usize..8,
        ops in proptest::collection::vec((0u8..3, any::<u16>(), any::<u16>(), -2i32..3), 1..6),
    ) {
        let bytes = &corpus_files()[file % corpus_files().len()];
        let mut doc = AdlFormat.read(bytes, &ReadContext::default()).unwrap().document;
        for (op, a, b, d) in ops {
            let names: Vec<String> = doc.sequences().iter().map(|s| s.name.clone()).collect();
            let name = &names[usize::from(a) % names.len()];
            let frames = doc.sequence_by_name(name).unwrap().directions[0].frames.clone();
            let mut new_frames = frames.clone();
            match op {
                0 if frames.len() > 1 => { new_frames.remove(usize::from(b) % frames.len()); }
                1 => new_frames.swap(usize::from(a) % frames.len(), usize::from(b) % frames.len()),
                _ => {
                    let source = frames[usize::from(b) % frames.len()];
                    let mut copy = doc.frame(source).unwrap().clone();
                    for e in &mut copy.elements {
                        e.id = sprat::model::ElementId(doc.alloc_id());
                        if let ElementKind::Graphic(g) = &mut e.kind {
                            g.position = g.position + Point::from_ints(d, 0);
                        }
                        if let ElementKind::Point(p) = &mut e.kind {
                            p.position = p.position + Point::from_ints(d, 0);
                        }
                    }
                    let id = sprat::model::FrameId(doc.alloc_id());
                    doc.frames.insert(id, copy);
                    new_frames.push(id);
                }
            }
            for s in doc.sequences_mut() {
                if &s.name == name {
                    s.directions[0].frames = new_frames.clone();
                }
            }
        }
        let written = AdlFormat.write(&doc, &WriteContext::for_path("/elsewhere/x.properties")).unwrap();
        prop_assert!(written.losses.is_empty(), "{:?}", written.losses);
        let back = AdlFormat.read(&written.bytes, &ReadContext::default()).unwrap().document;
        prop_assert_eq!(placed(&back), placed(&doc));
    }
}

fn corpus_files() -> &'static Vec<Vec<u8>> {
    static FILES: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    FILES.get_or_init(|| {
        common::files_with_extensions(&common::corpus().join("adl"), &["properties"])
            .iter()
            .map(|p| std::fs::read(p).unwrap())
            .collect()
    })
}

/// Reads, then saves unedited: must not panic, and the save gives the same bytes.
fn read_and_save(bytes: &[u8]) {
    let _ = AdlFormat.sniff(bytes);
    if let Ok(loaded) = AdlFormat.read(bytes, &ReadContext::default()) {
        let written = AdlFormat
            .write(&loaded.document, &WriteContext::default())
            .unwrap();
        assert_eq!(written.bytes, bytes);
        let _ = sprat::formats::adl::game_sheet_layout(&loaded.document);
    }
}

/// Pieces of ADL syntax, so random texts reach deep into the reader.
fn fragment() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("SPRITESHEET=a/b_\n".to_string()),
        Just("EXTENSION=.tga\n".to_string()),
        Just("CONFIG=SIZE 4,4;ORIGINX 2\n".to_string()),
        Just("BODYPARTS=".to_string()),
        Just("SKELETON_S=".to_string()),
        Just("ANIM_A=DELAY 0.1;ROW 1;SKELETON SKELETON_S\n".to_string()),
        Just("ANIM_A_".to_string()),
        Just("ALL ".to_string()),
        Just("HEAD ".to_string()),
        Just(";".to_string()),
        Just(" ".to_string()),
        Just("=".to_string()),
        Just(":".to_string()),
        Just("\\\n  ".to_string()),
        Just("\\u00".to_string()),
        Just("#".to_string()),
        Just("\n".to_string()),
        Just("\r\n".to_string()),
        Just("-".to_string()),
        Just(",".to_string()),
        (0u32..100_000_000).prop_map(|n| n.to_string()),
        "[a-zA-Z_]{1,6}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        read_and_save(&bytes);
    }

    #[test]
    fn random_adl_like_text_never_panics(parts in proptest::collection::vec(fragment(), 0..60)) {
        read_and_save(parts.concat().as_bytes());
    }

    #[test]
    fn mutated_corpus_files_never_panic(
        file in 0usize..8,
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..8),
    ) {
        let mut bytes = corpus_files()[file % corpus_files().len()].clone();
        common::fuzz::edit_bytes(&mut bytes, &edits);
        read_and_save(&bytes);
    }

    #[test]
    fn moved_parts_land_where_they_were_put_after_a_save(
        file in 0usize..8,
        moves in proptest::collection::vec((any::<u16>(), any::<u16>(), -3i32..4, -3i32..4), 1..6),
    ) {
        let bytes = &corpus_files()[file % corpus_files().len()];
        let mut doc = AdlFormat.read(bytes, &ReadContext::default()).unwrap().document;
        let frames: Vec<_> = doc.frames.keys().copied().collect();
        for (f, part, dx, dy) in moves {
            let frame = frames[usize::from(f) % frames.len()];
            let names: Vec<String> = doc.frame(frame).unwrap().elements.iter()
                .filter(|e| e.as_graphic().is_some())
                .map(|e| e.name.to_string())
                .collect();
            let name = &names[usize::from(part) % names.len()];
            move_part(&mut doc, frame, name, Point::from_ints(dx, dy));
        }
        let written = AdlFormat.write(&doc, &WriteContext::for_path("/elsewhere/x.properties")).unwrap();
        prop_assert!(written.losses.is_empty(), "{:?}", written.losses);
        let back = AdlFormat.read(&written.bytes, &ReadContext::default()).unwrap().document;
        prop_assert_eq!(positions(&back), positions(&doc));
    }
}

/// (sequence, frame index, element name, position) of every graphic and point.
fn placed(doc: &AnimationSet) -> Vec<(String, usize, String, Point)> {
    let mut out = Vec::new();
    for sequence in doc.sequences() {
        for (i, id) in sequence.directions[0].frames.iter().enumerate() {
            for e in &doc.frame(*id).unwrap().elements {
                let p = match &e.kind {
                    ElementKind::Graphic(g) => g.position,
                    ElementKind::Point(p) => p.position,
                    ElementKind::Box(_) => continue,
                };
                out.push((sequence.name.clone(), i, e.name.to_string(), p));
            }
        }
    }
    out.sort_by(|a, b| (&a.0, a.1, &a.2).cmp(&(&b.0, b.1, &b.2)));
    out
}

fn positions(doc: &AnimationSet) -> Vec<(u64, Point)> {
    doc.frames
        .values()
        .flat_map(|f| f.elements.iter())
        .filter_map(|e| match &e.kind {
            ElementKind::Graphic(g) => Some((e.id.0, g.position)),
            ElementKind::Point(p) => Some((e.id.0, p.position)),
            ElementKind::Box(_) => None,
        })
        .collect()
}
