//! What saving into an Aseprite file keeps beyond frames, tags and slices' bounds: the 9-patch
//! centres of slices an edit rewrites, and the sprite's user data (comments and colour). What
//! we write is read back by the `asefile` crate (an independent reader) and by Sprat.

mod aseprite_write_support;
mod common;

use aseprite_write_support::{folder, read, read_bytes, save};
use sprat::formats::aseprite::file::FileView;
use sprat::model::*;
use std::path::{Path, PathBuf};

fn corpus_file(name: &str) -> PathBuf {
    folder().join(name)
}

fn read_back(bytes: &[u8]) -> AnimationSet {
    read_bytes(bytes, Path::new("saved.aseprite"))
}

fn frame_mut(document: &mut AnimationSet, index: usize) -> &mut Frame {
    document.frames.get_index_mut(index).unwrap().1
}

/// The box named `name` on frame `index`, set to `width`x`height` at (`x`, `y`).
fn set_box(document: &mut AnimationSet, index: usize, name: &str, rect: (i32, i32, i32, i32)) {
    let (x, y, width, height) = rect;
    let element = frame_mut(document, index)
        .elements
        .iter_mut()
        .find(|e| e.name == name && e.as_box().is_some())
        .unwrap_or_else(|| panic!("frame {index} has a box named {name}"));
    let ElementKind::Box(boxed) = &mut element.kind else {
        unreachable!()
    };
    boxed.shape = CollisionBox::rect_from_corners(
        boxed.class.clone(),
        Point::from_ints(x, y),
        Point::from_ints(x + width, y + height),
    )
    .shape;
}

/// Each chunk of `bytes` (with the chunks that travel with it), in file order, but those of
/// `kind`.
fn chunks_but(bytes: &[u8], kind: u16) -> Vec<Vec<u8>> {
    let view = FileView::of(bytes).expect("a file Sprat wrote parses");
    view.frames
        .iter()
        .flat_map(|f| f.units.iter())
        .filter(|u| u.kind != kind)
        .map(|u| bytes[u.whole.clone()].to_vec())
        .collect()
}

#[test]
fn a_rewritten_nine_patch_slice_keeps_its_centres_clamped_where_it_shrank() {
    let path = corpus_file("slice_advanced.aseprite");
    let original = std::fs::read(&path).unwrap();
    let before = asefile::AsepriteFile::read(&original[..]).unwrap();
    let centre = |file: &asefile::AsepriteFile, key: usize| {
        let slice = file.slices().iter().find(|s| s.name == "Slice 2").unwrap();
        let nine = slice.keys[key].slice9.as_ref().expect("a 9-patch key");
        (
            slice.keys[key].from_frame,
            slice.keys[key].origin,
            slice.keys[key].size,
            (
                nine.center_x,
                nine.center_y,
                nine.center_width,
                nine.center_height,
            ),
        )
    };
    assert_eq!(centre(&before, 0), (0, (2, 1), (8, 8), (3, 3, 2, 2)));

    let mut document = read(&path);
    set_box(&mut document, 1, "Slice 2", (1, 1, 10, 10));
    set_box(&mut document, 2, "Slice 2", (2, 1, 4, 4));
    let written = save(&document, &path);
    let losses: Vec<String> = written.losses.iter().map(|l| l.to_string()).collect();
    assert_eq!(losses.len(), 1, "{losses:?}");
    assert!(
        losses[0].contains("Slice 2") && losses[0].contains("frame 2"),
        "{losses:?}"
    );
    assert!(losses[0].contains("clamped"), "{losses:?}");

    let after = asefile::AsepriteFile::read(&written.bytes[..]).unwrap();
    assert_eq!(centre(&after, 0), (0, (2, 1), (8, 8), (3, 3, 2, 2)));
    assert_eq!(centre(&after, 1), (1, (1, 1), (10, 10), (3, 3, 2, 2)));
    assert_eq!(centre(&after, 2), (2, (2, 1), (4, 4), (3, 3, 1, 1)));
    assert_eq!(centre(&after, 3), (3, (2, 1), (8, 8), (3, 3, 2, 2)));
    // The other slice, untouched, is copied as it was.
    let other = |file: &asefile::AsepriteFile| {
        let slice = file.slices().iter().find(|s| s.name == "Slice 1").unwrap();
        format!("{:?}", slice.keys)
    };
    assert_eq!(other(&after), other(&before));

    // Sprat reads the new bounds back.
    let again = read_back(&written.bytes);
    let bounds = |doc: &AnimationSet, index: usize| {
        let frame = doc.frames.get_index(index).unwrap().1;
        let (_, boxed) = frame.boxes().find(|(e, _)| e.name == "Slice 2").unwrap();
        format!("{:?}", boxed.shape)
    };
    for index in 0..4 {
        assert_eq!(bounds(&again, index), bounds(&document, index), "{index}");
    }
}

#[test]
fn an_unclamped_centre_is_no_loss() {
    let path = corpus_file("slice_advanced.aseprite");
    let mut document = read(&path);
    set_box(&mut document, 3, "Slice 2", (0, 0, 12, 9));
    let written = save(&document, &path);
    assert!(written.losses.is_empty(), "{:?}", written.losses);
    let after = asefile::AsepriteFile::read(&written.bytes[..]).unwrap();
    let slice = after.slices().iter().find(|s| s.name == "Slice 2").unwrap();
    let keys: Vec<_> = slice
        .keys
        .iter()
        .map(|k| {
            (
                k.from_frame,
                k.size,
                k.slice9.as_ref().unwrap().center_width,
            )
        })
        .collect();
    assert_eq!(keys, [(0, (8, 8), 2), (3, (12, 9), 2)]);
    // Only the slice chunks changed.
    let original = std::fs::read(&path).unwrap();
    assert_eq!(
        chunks_but(&written.bytes, 0x2022),
        chunks_but(&original, 0x2022)
    );
}

/// Every chunk of `bytes` one by one (user data apart from what it describes), in file order.
fn single_chunks(bytes: &[u8]) -> Vec<Vec<u8>> {
    let view = FileView::of(bytes).expect("a file Sprat wrote parses");
    let mut chunks = Vec::new();
    for unit in view.frames.iter().flat_map(|f| f.units.iter()) {
        let mut at = unit.whole.start;
        while at < unit.whole.end {
            let size = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
            chunks.push(bytes[at..at + size].to_vec());
            at += size;
        }
    }
    chunks
}

/// The chunks of `a` and `b` that differ, as (index in `a`, index in `b`) around one
/// inserted, removed or replaced chunk: the chunks before and after it are equal.
fn one_chunk_changed(a: &[Vec<u8>], b: &[Vec<u8>]) -> (usize, usize) {
    let head = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let tail = a[head..]
        .iter()
        .rev()
        .zip(b[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    assert!(
        a.len() - head - tail <= 1 && b.len() - head - tail <= 1,
        "more than one chunk changed: {} and {} of {} and {}",
        a.len() - head - tail,
        b.len() - head - tail,
        a.len(),
        b.len()
    );
    (a.len() - head - tail, b.len() - head - tail)
}

fn sprite_color(document: &AnimationSet) -> Option<&str> {
    document
        .metadata
        .extra
        .iter()
        .find(|(k, _)| k == "aseprite.sprite.color")
        .map(|(_, v)| v.as_str())
}

#[test]
fn editing_the_comments_rewrites_only_the_sprite_user_data() {
    let path = corpus_file("user_data.aseprite");
    let original = std::fs::read(&path).unwrap();
    let mut document = read(&path);
    assert_eq!(document.metadata.comments, "test_user_data_sprite");
    let color = sprite_color(&document).map(str::to_string);
    assert!(color.is_some());
    document.metadata.comments = "jump frames: keep the feet on the ground".into();
    let written = save(&document, &path);
    assert!(written.losses.is_empty(), "{:?}", written.losses);
    assert_eq!(
        one_chunk_changed(&single_chunks(&original), &single_chunks(&written.bytes)),
        (1, 1)
    );
    assert_eq!(written.bytes[4..128], original[4..128]);

    let file = asefile::AsepriteFile::read(&written.bytes[..]).unwrap();
    let user = file.sprite_user_data().expect("the sprite has user data");
    assert_eq!(
        user.text.as_deref(),
        Some("jump frames: keep the feet on the ground")
    );
    assert_eq!(user.color.map(|c| c.0), Some([0, 255, 0, 255]));
    // The tags', the layer's, the slice's and the cels' user data stay theirs.
    assert_eq!(
        file.tag(0).user_data().and_then(|u| u.text.as_deref()),
        Some("test_user_data_tag_0")
    );
    let again = read_back(&written.bytes);
    assert_eq!(again.metadata.comments, document.metadata.comments);
    assert_eq!(sprite_color(&again), color.as_deref());

    // Comments cleared: the colour stays, the text goes.
    document.metadata.comments.clear();
    let written = save(&document, &path);
    let file = asefile::AsepriteFile::read(&written.bytes[..]).unwrap();
    let user = file.sprite_user_data().expect("the colour is still there");
    assert_eq!(user.text, None);
    assert_eq!(user.color.map(|c| c.0), Some([0, 255, 0, 255]));
}

#[test]
fn comments_and_a_colour_given_to_a_file_without_user_data_are_added_after_the_palette() {
    let path = corpus_file("layers_and_tags.aseprite");
    let original = std::fs::read(&path).unwrap();
    let mut document = read(&path);
    assert!(document.metadata.comments.is_empty());
    assert_eq!(sprite_color(&document), None);
    document.metadata.comments = "hero, second pass".into();
    document
        .metadata
        .extra
        .push(("aseprite.sprite.color".into(), "#3366ccff".into()));
    let written = save(&document, &path);
    assert!(written.losses.is_empty(), "{:?}", written.losses);
    let (before, after) = (single_chunks(&original), single_chunks(&written.bytes));
    assert_eq!(one_chunk_changed(&before, &after), (0, 1));
    // Right after the palette chunks (the old one last), before the tags and layers.
    let kind = |chunk: &Vec<u8>| u16::from_le_bytes([chunk[4], chunk[5]]);
    let at = after.iter().position(|c| kind(c) == 0x2020).unwrap();
    assert_eq!(kind(&after[at - 1]), 0x0004);

    let file = asefile::AsepriteFile::read(&written.bytes[..]).unwrap();
    let user = file.sprite_user_data().expect("the sprite has user data");
    assert_eq!(user.text.as_deref(), Some("hero, second pass"));
    assert_eq!(user.color.map(|c| c.0), Some([0x33, 0x66, 0xcc, 0xff]));
    let again = read_back(&written.bytes);
    assert_eq!(again.metadata.comments, "hero, second pass");
    assert_eq!(sprite_color(&again), Some("#3366ccff"));
}

#[test]
fn a_converted_document_keeps_its_comments_and_colour_as_sprite_user_data() {
    let path = corpus_file("layers_and_tags.aseprite");
    let mut document = read(&path);
    document.original = None;
    document.metadata.comments = "drawn for the demo".into();
    document
        .metadata
        .extra
        .push(("aseprite.sprite.color".into(), "#102030".into()));
    let written = save(&document, &path);
    let file = asefile::AsepriteFile::read(&written.bytes[..]).unwrap();
    let user = file.sprite_user_data().expect("the sprite has user data");
    assert_eq!(user.text.as_deref(), Some("drawn for the demo"));
    assert_eq!(user.color.map(|c| c.0), Some([0x10, 0x20, 0x30, 0xff]));
    let again = read_back(&written.bytes);
    assert_eq!(again.metadata.comments, "drawn for the demo");
    assert_eq!(sprite_color(&again), Some("#102030ff"));
}

#[test]
fn comments_longer_than_a_user_data_text_are_cut_and_named() {
    let path = corpus_file("user_data.aseprite");
    let mut document = read(&path);
    document.metadata.comments = "n".repeat(70_000);
    let written = save(&document, &path);
    let losses: Vec<String> = written.losses.iter().map(|l| l.to_string()).collect();
    assert_eq!(losses.len(), 1, "{losses:?}");
    assert!(losses[0].contains("last 4465 bytes"), "{losses:?}");
    let file = asefile::AsepriteFile::read(&written.bytes[..]).unwrap();
    let text = file.sprite_user_data().unwrap().text.as_deref().unwrap();
    assert_eq!(text.len(), 65_535);
}

#[test]
fn an_untagged_sequence_looping_back_later_and_an_empty_sequence_are_listed_as_lost() {
    // The file has no tags: its one sequence is the whole file, written untagged. A loop
    // back to frame 1 and a new sequence with no frame have no place in it: both are listed,
    // where the save wrote nothing before.
    let path = corpus_file("linked_cels.aseprite");
    let mut document = read(&path);
    let id = document.sequences()[0].id;
    document.sequence_mut(id).unwrap().loop_point = Some(1);
    let written = save(&document, &path);
    let lost: Vec<String> = written.losses.iter().map(ToString::to_string).collect();
    assert!(
        lost.iter()
            .any(|l| l.contains("its loop back to a frame other than the first")),
        "{lost:?}"
    );

    let mut document = read(&path);
    let history = &mut sprat::edit::History::new();
    let add = sprat::edit::tree::AddSequence {
        parent: document.root.id,
        index: None,
        name: "empty".into(),
    };
    history
        .apply(&mut document, &sprat::edit::Selection::none(), &add, None)
        .unwrap();
    let written = save(&document, &path);
    let lost: Vec<String> = written.losses.iter().map(ToString::to_string).collect();
    assert_eq!(
        lost,
        vec!["sequence \"empty\": direction 0: it has no frame (an Aseprite tag spans frames)"]
    );
}
