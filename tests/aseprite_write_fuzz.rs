//! Saving documents read from mutated Aseprite files never panics: whatever the reader
//! accepted, an edited save (a retimed frame, a renamed sequence, a deleted and a duplicated
//! frame, a new box, a resized box, new comments, an imported picture in any colour mode)
//! either writes a file that reads back or says why it cannot; the chunk view the writer uses
//! takes any bytes.

mod aseprite_write_support;
mod common;

use proptest::prelude::*;
use sprat::assets::ImageStore;
use sprat::formats::aseprite::AsepriteFormat;
use sprat::formats::aseprite::file::FileView;
use sprat::formats::{Format, ReadContext, WriteContext};
use sprat::model::*;

const SEEDS: [&str; 10] = [
    "layers_and_tags.aseprite",
    "grayscale.aseprite",
    "256_color_old_palette_chunk.aseprite",
    "linked_cels.aseprite",
    "indexed.aseprite",
    "tilemap.aseprite",
    "slice_advanced.aseprite",
    "slice.aseprite",
    "user_data.aseprite",
    "transparency.aseprite",
];

fn corpus_file(name: &str) -> Vec<u8> {
    std::fs::read(common::corpus().join("aseprite").join(name)).unwrap()
}

/// Edits every kind of thing the writer rewrites.
fn edit(document: &mut AnimationSet) {
    if let Some((_, frame)) = document.frames.get_index_mut(0) {
        frame.duration = FrameDuration::Millis(333);
    }
    let Some(first) = document.sequences().first().map(|s| s.id) else {
        return;
    };
    let frames = document.sequence(first).unwrap().directions[0]
        .frames
        .clone();
    if let Some(&last) = frames.last()
        && frames.len() > 1
    {
        document.sequence_mut(first).unwrap().directions[0]
            .frames
            .pop();
        if !document
            .sequences()
            .iter()
            .any(|s| s.directions[0].frames.contains(&last))
        {
            document.frames.shift_remove(&last);
        }
    }
    if let Some(&head) = frames.first() {
        let copy = document.frames[&head].clone();
        let id = FrameId(document.alloc_id());
        document.frames.insert(id, copy);
        let box_id = ElementId(document.alloc_id());
        document.frames[&id].elements.push(Element {
            id: box_id,
            name: Name::default(),
            kind: ElementKind::Box(CollisionBox::rect_from_corners(
                BoxClass::Hurt,
                Point::from_ints(1, 1),
                Point::from_ints(4, 5),
            )),
        });
        document.sequence_mut(first).unwrap().directions[0]
            .frames
            .push(id);
    }
    document.sequence_mut(first).unwrap().name = "renamed".into();
    document.metadata.comments = "edited".into();
    // A smaller box on the first frame (a 9-patch slice's centre is clamped into it).
    if let Some((_, frame)) = document.frames.get_index_mut(0)
        && let Some(ElementKind::Box(boxed)) = frame
            .elements
            .iter_mut()
            .map(|e| &mut e.kind)
            .find(|k| matches!(k, ElementKind::Box(_)))
    {
        boxed.shape = CollisionBox::rect_from_corners(
            boxed.class.clone(),
            Point::from_ints(0, 0),
            Point::from_ints(1, 2),
        )
        .shape;
    }
    // A picture the file does not have, with a transparent pixel and colours no palette has.
    let picture = image::RgbaImage::from_fn(3, 2, |x, y| {
        image::Rgba([
            7 * x as u8 + 1,
            200,
            13 * y as u8,
            if x == 0 { 0 } else { 255 },
        ])
    });
    let id = aseprite_write_support::picture_frame(document, &picture, (1, 1), 50);
    document.sequence_mut(first).unwrap().directions[0]
        .frames
        .push(id);
}

fn exercise(bytes: &[u8]) -> Result<(), TestCaseError> {
    let _ = FileView::of(bytes);
    let Ok(loaded) = AsepriteFormat.read(bytes, &ReadContext::default()) else {
        return Ok(());
    };
    let mut document = loaded.document;
    edit(&mut document);
    let store = ImageStore::new();
    let context = WriteContext {
        path: None,
        pixels: Some(&store),
    };
    if let Ok(written) = AsepriteFormat.write(&document, &context) {
        prop_assert!(FileView::of(&written.bytes).is_some());
        let again = AsepriteFormat.read(&written.bytes, &ReadContext::default());
        prop_assert!(again.is_ok(), "{:?}", again.err());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn edited_saves_of_mutated_files_never_panic(
        seed in 0..SEEDS.len(),
        edits in prop::collection::vec((any::<u32>(), any::<u8>()), 1..12),
    ) {
        let mut bytes = corpus_file(SEEDS[seed]);
        let len = bytes.len();
        for (position, value) in edits {
            bytes[position as usize % len] = value;
        }
        exercise(&bytes)?;
    }

    #[test]
    fn the_chunk_view_takes_any_bytes(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        let _ = FileView::of(&bytes);
    }
}

#[test]
fn every_corpus_seed_saves_edited_and_reads_back() {
    for seed in SEEDS {
        exercise(&corpus_file(seed)).unwrap_or_else(|e| panic!("{seed}: {e}"));
    }
}
