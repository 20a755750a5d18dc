//! Arbitrary and mutated AIR / .def bytes never make the readers or the writer panic or hang,
//! an unedited document always saves to the same bytes, and edited documents read back to
//! what was edited.

mod common;

use proptest::prelude::*;
use sprat::formats::mugen::{AirFormat, DefFormat};
use sprat::formats::{Format, ReadContext, WriteContext};
use sprat::model::{
    AnimationSet, BoxClass, BoxDeclaration, BoxScope, CollisionBox, Element, ElementId,
    ElementKind, Frame, FrameDuration, FrameId, Name, Point,
};

fn kfm_air() -> &'static [u8] {
    static BYTES: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    BYTES.get_or_init(|| std::fs::read(common::corpus().join("mugen/kfm/kfm.air")).unwrap())
}

fn resave(format: &dyn Format, bytes: &[u8]) -> Vec<u8> {
    let loaded = format.read(bytes, &ReadContext::default()).unwrap();
    format
        .write(&loaded.document, &WriteContext::default())
        .unwrap()
        .bytes
}

/// A `.def` reads and saves unchanged, or is refused for having no section a `.def` has
/// (random bytes are not a definition file with nothing in it).
fn resave_def(bytes: &[u8]) -> Result<Vec<u8>, String> {
    match DefFormat.read(bytes, &ReadContext::default()) {
        Ok(loaded) => Ok(DefFormat
            .write(&loaded.document, &WriteContext::default())
            .unwrap()
            .bytes),
        Err(failure) => Err(failure.diagnostics[0].message.clone()),
    }
}

fn assert_def_resaves_or_is_refused(bytes: &[u8]) {
    match resave_def(bytes) {
        Ok(written) => assert_eq!(written, bytes),
        Err(message) => {
            assert!(
                message.starts_with("not a M.U.G.E.N definition"),
                "{message}"
            );
            // What AIR reads as actions, the .def reader reads too.
            let air = AirFormat.read(bytes, &ReadContext::default()).unwrap();
            assert!(
                air.document.sequences().is_empty(),
                "refused actions: {message}"
            );
        }
    }
}

#[test]
fn a_def_without_any_known_section_is_refused() {
    let refused = resave_def(b"\x89PNG\r\n\x1a\n\n[whatever]\nx = 1\n").unwrap_err();
    assert!(refused.contains("no [Info], [Files]"), "{refused}");
    assert!(resave_def(b"").is_err());
    let character = b"[Info]\nname = \"X\"\n";
    assert_eq!(resave_def(character).unwrap(), character);
}

/// Text built from AIR's own pieces, so the parser's every branch gets exercised.
fn air_like() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        Just(&b"[Begin Action 0]"[..]),
        Just(&b"[begin action 007]"[..]),
        Just(&b"[Begin Action x]"[..]),
        Just(&b"[Info]"[..]),
        Just(&b"Clsn2Default: 2"[..]),
        Just(&b"clsn1: 1"[..]),
        Just(&b" Clsn2[0] = -13,  0, 16,-79"[..]),
        Just(&b"Clsn1[5]=1,2,3"[..]),
        Just(&b"Loopstart"[..]),
        Just(&b"Interpolate Offset"[..]),
        Just(&b"interpolate angle"[..]),
        Just(&b"0,0, 0,0, 10"[..]),
        Just(&b"-1,-1, 3,4, -1, HV, AS300D20, .5,, 45"[..]),
        Just(&b"5,1,2,3,4,5,6,7,8,9,10,11"[..]),
        Just(&b"1, 2, 3"[..]),
        Just(&b"; \xE9\x82\xA0 comment"[..]),
        Just(&b""[..]),
        Just(&b"\xEF\xBB\xBF"[..]),
    ];
    let line_end = prop_oneof![Just(&b"\n"[..]), Just(&b"\r\n"[..]), Just(&b""[..])];
    prop::collection::vec((piece, line_end), 0..40).prop_map(|parts| {
        parts
            .into_iter()
            .flat_map(|(piece, end)| piece.iter().chain(end).copied().collect::<Vec<u8>>())
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_read_and_save_unchanged(bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
        prop_assert_eq!(resave(&AirFormat, &bytes), bytes.clone());
        assert_def_resaves_or_is_refused(&bytes);
    }

    #[test]
    fn air_like_text_reads_and_saves_unchanged(bytes in air_like()) {
        prop_assert_eq!(resave(&AirFormat, &bytes), bytes.clone());
        assert_def_resaves_or_is_refused(&bytes);
    }

}

// Each case reads all of kfm.air: fewer cases keep the suite quick on the shared machine.
proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn mutated_kfm_reads_and_saves_unchanged(
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..16)
    ) {
        let mut bytes = kfm_air().to_vec();
        common::fuzz::edit_bytes(&mut bytes, &edits);
        prop_assert_eq!(resave(&AirFormat, &bytes), bytes);
    }

    #[test]
    fn edited_documents_read_back_to_the_edit(
        edits in prop::collection::vec((0u8..7, any::<prop::sample::Index>(), 0u32..400), 1..12)
    ) {
        let mut set = AirFormat.read(kfm_air(), &ReadContext::default()).unwrap().document;
        for (kind, at, value) in edits {
            edit(&mut set, kind, at, value);
        }
        let written = AirFormat.write(&set, &WriteContext::default()).unwrap();
        let back = AirFormat.read(&written.bytes, &ReadContext::default()).unwrap().document;
        prop_assert_eq!(content(&back), content(&set));
        // Saving what was read back changes nothing more.
        let again = AirFormat.write(&back, &WriteContext::default()).unwrap();
        prop_assert_eq!(again.bytes, written.bytes);
    }
}

/// One random edit of the kinds the editor makes.
fn edit(set: &mut AnimationSet, kind: u8, at: prop::sample::Index, value: u32) {
    let sequence_ids: Vec<_> = set.sequences().iter().map(|s| s.id).collect();
    let sequence_id = sequence_ids[at.index(sequence_ids.len())];
    let frames = set.sequence(sequence_id).unwrap().directions[0]
        .frames
        .clone();
    if frames.is_empty() {
        return;
    }
    let index = (value as usize) % frames.len();
    let frame_id = frames[index];
    match kind {
        0 => set.frame_mut(frame_id).unwrap().duration = FrameDuration::Ticks(value % 50),
        1 => {
            set.sequence_mut(sequence_id).unwrap().directions[0]
                .frames
                .remove(index);
            let sequence = set.sequence_mut(sequence_id).unwrap();
            let count = sequence.directions[0].frames.len();
            if sequence.loop_point.is_some_and(|l| l >= count) {
                sequence.loop_point = Some(0);
            }
        }
        2 => {
            let copy = set.frame(frame_id).unwrap().clone();
            let id = FrameId(set.alloc_id());
            let mut copy = copy;
            for element in &mut copy.elements {
                element.id = ElementId(set.alloc_id());
            }
            set.frames.insert(id, copy);
            set.sequence_mut(sequence_id).unwrap().directions[0]
                .frames
                .insert(index, id);
        }
        3 => set.sequence_mut(sequence_id).unwrap().loop_point = Some(index),
        4 => {
            let element = Element {
                id: ElementId(set.alloc_id()),
                name: Name::default(),
                kind: ElementKind::Box(CollisionBox::rect_from_corners(
                    if value.is_multiple_of(2) {
                        BoxClass::Hit
                    } else {
                        BoxClass::Hurt
                    },
                    Point::from_ints(value as i32 % 40 - 20, -(value as i32 % 90)),
                    Point::from_ints(value as i32 % 13, 0),
                )),
            };
            let frame = set.frame_mut(frame_id).unwrap();
            let class = element.as_box().unwrap().class.clone();
            frame.elements.push(element);
            if frame.declared_scope(&class).is_none() || value.is_multiple_of(3) {
                frame.box_declarations.retain(|d| d.class != class);
                let scope = if value.is_multiple_of(3) {
                    BoxScope::FromHereOn
                } else {
                    BoxScope::ThisFrame
                };
                frame.box_declarations.push(BoxDeclaration { class, scope });
            }
        }
        5 => {
            let frame = set.frame_mut(frame_id).unwrap();
            frame.elements.truncate(1);
            if value.is_multiple_of(2) {
                frame.box_declarations.clear();
            }
        }
        _ => {
            let frame = set.frame_mut(frame_id).unwrap();
            if let ElementKind::Graphic(g) = &mut frame.elements[0].kind {
                g.position = Point::from_ints(value as i32 - 200, 7);
                g.flip_v = value % 2 == 1;
                g.scale_x = if value.is_multiple_of(5) { 2.5 } else { 1.0 };
            }
            frame.interpolation.offset = value.is_multiple_of(4);
        }
    }
}

/// Everything AIR says about a set, without ids: per sequence its name, loop point and frames.
fn content(set: &AnimationSet) -> Vec<(String, Option<usize>, Vec<Frame>)> {
    set.sequences()
        .iter()
        .map(|s| {
            let frames = set
                .direction_frames(s, 0)
                .into_iter()
                .map(|f| {
                    let mut f = f.clone();
                    for element in &mut f.elements {
                        element.id = ElementId(0);
                    }
                    // A declaration without boxes and ThisFrame scope is what AIR writes for
                    // boxes with no declaration; order declarations for comparison.
                    let classes = f.declared_classes();
                    f.box_declarations = classes
                        .into_iter()
                        .map(|class| BoxDeclaration {
                            scope: f.declared_scope(&class).unwrap(),
                            class,
                        })
                        .collect();
                    f.box_declarations.sort_by(|a, b| a.class.cmp(&b.class));
                    f.elements.sort_by_key(|e| match &e.kind {
                        ElementKind::Box(b) => (1, b.class.clone()),
                        _ => (0, BoxClass::Hit),
                    });
                    f
                })
                .collect();
            (s.name.clone(), s.loop_point, frames)
        })
        .collect()
}
