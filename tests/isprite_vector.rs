//! The shared ISPRITE test vector (`../shared/spec/isprite-minimal.isprite`), both ways, and
//! edits that must change only the bytes they touch.

use sprat::formats::isprite::IspriteFormat;
use sprat::formats::{Format, ReadContext, WriteContext};
use sprat::model::*;
use std::path::PathBuf;

fn vector_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/spec/isprite-minimal.isprite")
}

fn vector() -> Vec<u8> {
    std::fs::read(vector_path()).expect("the shared test vector")
}

fn read(bytes: &[u8]) -> AnimationSet {
    let loaded = IspriteFormat
        .read(bytes, &ReadContext::default())
        .expect("reads");
    assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
    loaded.document
}

fn write(doc: &AnimationSet) -> Vec<u8> {
    let written = IspriteFormat
        .write(doc, &WriteContext::default())
        .expect("writes");
    assert!(written.losses.is_empty(), "{:?}", written.losses);
    assert!(written.companions.is_empty());
    written.bytes
}

fn px(v: f64) -> Fx {
    Fx::from_f64(v)
}

#[test]
fn the_vector_is_the_documented_file() {
    let bytes = vector();
    assert_eq!(bytes.len(), 240);
    assert_eq!(&bytes[..8], b"ISPRITE ");
}

#[test]
fn the_vector_reads_to_the_documented_content() {
    let doc = read(&vector());
    assert_eq!(doc.frame_rate, Some(12));
    assert!(doc.metadata.is_empty());

    assert_eq!(doc.images.len(), 1);
    assert_eq!(doc.images[0].path, "hero");
    assert!(doc.images[0].nearest_neighbour);
    assert_eq!(doc.slices.len(), 1);
    let slice = &doc.slices[0];
    assert_eq!(slice.image, doc.images[0].id);
    assert_eq!(
        slice.rect,
        PixelRect {
            x: 0,
            y: 0,
            width: 16,
            height: 24
        }
    );
    assert!(!slice.rotated);

    // Root -> group "Main" -> sequence "Idle" [0, 1], loop 0.
    assert_eq!(doc.root.items.len(), 1);
    let TreeItem::Group(main) = &doc.root.items[0] else {
        panic!("Main is a group")
    };
    assert_eq!(main.name, "Main");
    let TreeItem::Sequence(idle) = &main.items[0] else {
        panic!("Idle is a sequence")
    };
    assert_eq!(idle.name, "Idle");
    assert_eq!(idle.loop_point, Some(0));
    assert_eq!(idle.follow_up, None);
    assert_eq!(idle.frame_rate, None);
    let ids: Vec<FrameId> = doc.frames.keys().copied().collect();
    assert_eq!(idle.directions.len(), 1);
    assert_eq!(idle.directions[0].frames, ids);

    let f0 = &doc.frames[&ids[0]];
    assert_eq!(f0.duration, FrameDuration::Holds(1));
    assert_eq!(f0.elements.len(), 3);
    let g = f0.elements[0].as_graphic().expect("graphic");
    assert_eq!(f0.elements[0].name, "");
    assert_eq!(g.source, GraphicSource::Slice(slice.id));
    // Stored upper-left (-8, -24) plus the default origin, the slice's centre (8, 12).
    assert_eq!(
        g.origin,
        Origin::At(Point {
            x: px(8.0),
            y: px(12.0)
        })
    );
    assert_eq!(
        g.position,
        Point {
            x: px(0.0),
            y: px(-12.0)
        }
    );
    assert!(g.is_plain() && !g.flip_h && !g.flip_v);

    assert_eq!(f0.elements[1].name, "hand");
    let hand = f0.elements[1].as_point().expect("point");
    assert_eq!(
        hand.position,
        Point {
            x: px(4.5),
            y: px(-12.5)
        }
    );
    assert_eq!(hand.point_id, 0);
    assert_eq!((hand.scale_x, hand.scale_y, hand.rotation), (1.0, 1.0, 0.0));
    assert_eq!(hand.opacity, OPAQUE);

    assert_eq!(f0.elements[2].name, "hitbox");
    let hit = f0.elements[2].as_box().expect("box");
    assert_eq!(hit.class, BoxClass::Hit);
    assert_eq!(
        hit.shape,
        Shape::Rect {
            x: px(-6.0),
            y: px(-22.0),
            width: px(12.0),
            height: px(22.0),
            rotation: 0.0
        }
    );

    let f1 = &doc.frames[&ids[1]];
    assert_eq!(f1.duration, FrameDuration::Holds(2));
    assert_eq!(f1.label, "end");
    assert!(f1.elements.is_empty());
}

#[test]
fn an_unedited_save_gives_the_vector_back() {
    let bytes = vector();
    assert_eq!(write(&read(&bytes)), bytes);
}

#[test]
fn a_fresh_encoding_of_the_content_is_the_vector() {
    // Without the original bytes the writer must still produce exactly the documented layout.
    let mut doc = read(&vector());
    doc.original = None;
    assert_eq!(write(&doc), vector());
}

fn differing_offsets(a: &[u8], b: &[u8]) -> Vec<usize> {
    assert_eq!(a.len(), b.len());
    (0..a.len()).filter(|&i| a[i] != b[i]).collect()
}

fn frame(doc: &mut AnimationSet, index: usize) -> &mut Frame {
    let id = *doc.frames.keys().nth(index).unwrap();
    doc.frames.get_mut(&id).unwrap()
}

#[test]
fn moving_a_box_changes_only_its_bytes() {
    let original = vector();
    let mut doc = read(&original);
    if let ElementKind::Box(b) = &mut frame(&mut doc, 0).elements[2].kind
        && let Shape::Rect { width, .. } = &mut b.shape
    {
        *width = px(12.5);
    }
    let edited = write(&doc);
    assert_eq!(differing_offsets(&original, &edited), vec![0xD5]);
    assert_eq!(
        read(&edited).frames[0].elements[2],
        doc.frames[0].elements[2]
    );
}

#[test]
fn moving_a_graphic_keeps_it_simple_and_changes_only_its_position() {
    let original = vector();
    let mut doc = read(&original);
    if let ElementKind::Graphic(g) = &mut frame(&mut doc, 0).elements[0].kind {
        g.position.x = px(-0.25);
    }
    let edited = write(&doc);
    // x = -8.25 - ... : upper-left x becomes -8.25 = int -9, fraction 0xC0.
    assert_eq!(differing_offsets(&original, &edited), vec![0xA5, 0xA7]);
    assert_eq!(&edited[0xA5..0xA8], &[0xF7, 0xFF, 0xC0]);
}

#[test]
fn relabelling_a_frame_changes_its_label_and_the_sizes_only() {
    let original = vector();
    let mut doc = read(&original);
    frame(&mut doc, 1).label = "stop".into();
    let edited = write(&doc);
    assert_eq!(edited.len(), original.len() + 1);
    let mut expected = original.clone();
    expected.splice(0xE7..0xEC, [4, 0, b's', b't', b'o', b'p']);
    expected[0x08] += 1; // file size
    expected[0x85] += 1; // FRAM chunk size
    expected[0xDE] += 1; // frame 1 size
    assert_eq!(edited, expected);
}

#[test]
fn rotating_a_graphic_expands_it() {
    let mut doc = read(&vector());
    if let ElementKind::Graphic(g) = &mut frame(&mut doc, 0).elements[0].kind {
        g.rotation = 22.5;
        g.opacity = 0x8000;
    }
    let edited = write(&doc);
    let back = read(&edited);
    assert_eq!(back.frames[0].elements[0], doc.frames[0].elements[0]);
    assert_eq!(
        edited.len(),
        240 + 17,
        "the simple 13-byte element became a 30-byte one"
    );
}

#[test]
fn unknown_chunks_and_elements_survive_an_edit_in_place() {
    let original = vector();
    // Insert an unknown chunk between NAME and TIER, and an unknown element "Z" at the end of
    // frame 0 (after the collision object).
    let mut bytes = original[..0x58].to_vec();
    bytes.extend_from_slice(b"XTRA\x03\x00\x00\x00abc");
    let mut rest = original[0x58..].to_vec();
    // In `rest`, frame 0's last element ends at 0xDD - 0x58.
    let insert_at = 0xDD - 0x58;
    rest.splice(insert_at..insert_at, [b'Z', 0xFF, 0xFF, 2, 7, 7]);
    // Fix the FRAM chunk size, frame 0's size and element count.
    let fram_size = 0x85 - 0x58;
    rest[fram_size] += 6;
    rest[0x90 - 0x58] += 6;
    rest[0x94 - 0x58] += 1;
    bytes.extend_from_slice(&rest);
    let total = (bytes.len() - 12) as u32;
    bytes[8..12].copy_from_slice(&total.to_le_bytes());

    let loaded = IspriteFormat
        .read(&bytes, &ReadContext::default())
        .expect("reads");
    let mut doc = loaded.document;
    assert_eq!(
        doc.frames[0].elements.len(),
        3,
        "the unknown element is not shown"
    );
    assert_eq!(write(&doc), bytes, "unedited");
    frame(&mut doc, 1).notes = "n".into();
    let edited = write(&doc);
    assert_eq!(&edited[0x58..0x63], b"XTRA\x03\x00\x00\x00abc");
    let z = edited
        .windows(6)
        .position(|w| w == [b'Z', 0xFF, 0xFF, 2, 7, 7])
        .expect("the unknown element is still there");
    assert_eq!(z, 0xDD + 11, "right after the collision object");
    let back = read_lenient(&edited);
    assert_eq!(back.frames[1].notes, "n");
}

fn read_lenient(bytes: &[u8]) -> AnimationSet {
    IspriteFormat
        .read(bytes, &ReadContext::default())
        .expect("reads")
        .document
}

#[test]
fn the_texture_is_found_beside_the_file_png_first() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    std::fs::write(dir.join("hero.tga"), b"x").unwrap();
    std::fs::write(dir.join("hero.png"), b"x").unwrap();
    let file = dir.join("hero.isprite");
    let loaded = IspriteFormat
        .read(&vector(), &ReadContext::for_path(&file))
        .unwrap();
    assert_eq!(
        loaded.document.images[0].resolved,
        Some(dir.join("hero.png"))
    );
    assert_eq!(loaded.document.images[0].path, "hero");
}

#[test]
fn every_truncation_is_an_error() {
    let bytes = vector();
    for len in 0..bytes.len() {
        let result = IspriteFormat.read(&bytes[..len], &ReadContext::default());
        let failure = result
            .err()
            .unwrap_or_else(|| panic!("{len} bytes read as a file"));
        assert!(!failure.diagnostics.is_empty());
    }
}

#[test]
fn a_per_sequence_rate_and_default_sequence_round_trip_through_met_plus() {
    let mut doc = read(&vector());
    doc.original = None;
    let idle = doc.sequences()[0].id;
    doc.sequence_mut(idle).unwrap().frame_rate = Some(24);
    doc.default_sequence = Some(idle);
    doc.metadata.extra.push(("engine".into(), "vr2".into()));
    let bytes = write(&doc);
    let back = read(&bytes);
    assert_eq!(back.sequences()[0].frame_rate, Some(24));
    assert_eq!(back.default_sequence, Some(back.sequences()[0].id));
    assert_eq!(
        back.metadata.extra,
        vec![("engine".to_string(), "vr2".to_string())]
    );
    let text = String::from_utf8_lossy(&bytes);
    assert!(text.contains("seq-fps:Main/Idle"));
}

#[test]
fn saving_into_another_folder_rebases_the_textures_it_found() {
    let scratch = tempfile::tempdir().unwrap();
    let root = scratch.path();
    let (from, to) = (root.join("art"), root.join("out"));
    std::fs::create_dir_all(&from).unwrap();
    std::fs::create_dir_all(&to).unwrap();
    std::fs::write(from.join("hero.png"), b"x").unwrap();
    let loaded = IspriteFormat
        .read(&vector(), &ReadContext::for_path(from.join("a.isprite")))
        .unwrap();
    let written = IspriteFormat
        .write(
            &loaded.document,
            &WriteContext::for_path(to.join("a.isprite")),
        )
        .unwrap();
    let back = read(&written.bytes);
    assert_eq!(back.images[0].path, "../art/hero");
    // Saved beside the original, nothing changes.
    let same = IspriteFormat
        .write(
            &loaded.document,
            &WriteContext::for_path(from.join("b.isprite")),
        )
        .unwrap();
    assert_eq!(same.bytes, vector());
}

/// The vector with frame 0's loop flag cleared: "Idle" still loops to frame 0 by TIER.
fn vector_with_a_cleared_loop_flag() -> Vec<u8> {
    use sprat::formats::isprite::raw::{RawChunk, RawFile};
    let bytes = vector();
    let mut diagnostics = Vec::new();
    let mut raw = RawFile::parse(&bytes, &mut diagnostics).expect("parses");
    let frames = raw
        .chunks
        .iter_mut()
        .find_map(|c| match c {
            RawChunk::Frames(f) => Some(f),
            _ => None,
        })
        .expect("a FRAM chunk");
    assert_eq!(
        frames.frames[0].flags & 1,
        1,
        "the vector flags its loop frame"
    );
    frames.frames[0].flags &= !1;
    raw.encode()
}

fn loop_flags(bytes: &[u8]) -> Vec<u8> {
    use sprat::formats::isprite::raw::{RawChunk, RawFile};
    let mut diagnostics = Vec::new();
    let raw = RawFile::parse(bytes, &mut diagnostics).expect("parses");
    raw.chunks
        .iter()
        .find_map(|c| match c {
            RawChunk::Frames(f) => Some(f.frames.iter().map(|f| f.flags & 1).collect()),
            _ => None,
        })
        .expect("a FRAM chunk")
}

#[test]
fn a_loop_flag_that_disagrees_with_the_tree_is_kept_and_reported() {
    let bytes = vector_with_a_cleared_loop_flag();
    let loaded = IspriteFormat
        .read(&bytes, &ReadContext::default())
        .expect("reads");
    let idle = loaded.document.sequences()[0].clone();
    assert_eq!(idle.loop_point, Some(0), "TIER decides");
    let infos: Vec<_> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.severity == sprat::formats::Severity::Info)
        .collect();
    assert_eq!(infos.len(), 1, "{:?}", loaded.diagnostics);
    assert!(
        infos[0].message.contains("\"Idle\""),
        "{}",
        infos[0].message
    );
    assert!(infos[0].message.contains("frame 0"), "{}", infos[0].message);
    assert_eq!(
        infos[0].subject,
        Some(sprat::formats::Subject::Sequence(idle.id))
    );

    let unedited = IspriteFormat
        .write(&loaded.document, &WriteContext::default())
        .expect("writes");
    assert_eq!(unedited.bytes, bytes, "an unedited save fixes nothing");

    // Editing another part of the document leaves the flag too.
    let mut doc = loaded.document.clone();
    frame(&mut doc, 1).duration = FrameDuration::Holds(7);
    let written = IspriteFormat
        .write(&doc, &WriteContext::default())
        .expect("writes");
    assert_eq!(loop_flags(&written.bytes), vec![0, 0]);

    // Editing the sequence itself writes the flags its loop point gives.
    let mut doc = loaded.document.clone();
    let id = idle.id;
    let sequence = doc.sequence_mut(id).expect("Idle");
    sequence.directions[0].frames.reverse();
    let written = IspriteFormat
        .write(&doc, &WriteContext::default())
        .expect("writes");
    assert_eq!(loop_flags(&written.bytes), vec![0, 1]);
}
