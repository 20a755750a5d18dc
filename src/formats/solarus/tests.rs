//! Unit tests of the Solarus formats on small inline files.

use super::*;
use crate::formats::{Location, Severity};
use crate::model::{EndBehavior, FrameDuration, GraphicSource, ImageKind, Origin, Point};

fn read_lua(text: &str) -> Loaded {
    SolarusLuaFormat
        .read(text.as_bytes(), &ReadContext::default())
        .unwrap_or_else(|f| panic!("{:?}", f.diagnostics))
}

fn read_legacy(text: &str) -> Loaded {
    SolarusLegacyFormat
        .read(text.as_bytes(), &ReadContext::default())
        .unwrap_or_else(|f| panic!("{:?}", f.diagnostics))
}

fn at(d: &Diagnostic) -> (u32, u32) {
    match d.location {
        Location::Text { line, column } => (line, column),
        other => panic!("not a text location: {other:?}"),
    }
}

const WALKING: &str = r#"-- the hero
animation{
  --[[ any key order,
       trailing commas ]]
  frame_to_loop_on = 2, frame_delay = 100,
  src_image = 'hero/tunic1.png', name = "walk\"ing",
  directions = {
    { x = 0, y = 0, frame_width = 24, frame_height = 32, origin_x = 12, origin_y = 29,
      num_frames = 5, num_columns = 3, },
    { y = 64, x = 0, frame_width = 24, frame_height = 32, num_frames = 3 };
  },
}
"#;

#[test]
fn lua_maps_animations_directions_and_grid_frames() {
    let loaded = read_lua(WALKING);
    assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
    let doc = &loaded.document;
    let sequence = doc.first_sequence().unwrap();
    assert_eq!(sequence.name, "walk\"ing");
    assert_eq!(doc.default_sequence, Some(sequence.id));
    assert_eq!(sequence.loop_point, Some(2));
    assert_eq!(sequence.on_end, EndBehavior::HoldLastFrame);
    assert_eq!(sequence.directions.len(), 2);
    let frames = doc.direction_frames(sequence, 0);
    assert_eq!(frames.len(), 5);
    // Row by row, three per row: frame 4 is the second of the second row.
    let graphic = frames[4].elements[0].as_graphic().unwrap();
    let GraphicSource::Slice(slice) = graphic.source else {
        panic!("not a slice")
    };
    let rect = doc.slice(slice).unwrap().rect;
    assert_eq!((rect.x, rect.y, rect.width, rect.height), (24, 32, 24, 32));
    assert_eq!(graphic.origin, Origin::At(Point::from_ints(12, 29)));
    assert_eq!(graphic.position, Point::ZERO);
    assert_eq!(frames[4].duration, FrameDuration::Millis(100));
    // Defaults: origin 0,0.
    let second = doc.direction_frames(sequence, 1);
    assert_eq!(second.len(), 3);
    let graphic = second[0].elements[0].as_graphic().unwrap();
    assert_eq!(graphic.origin, Origin::At(Point::ZERO));
    assert_eq!(doc.images[0].path, "hero/tunic1.png");
}

#[test]
fn empty_lua_file_is_a_set_without_animations_and_a_warning() {
    let loaded = read_lua("");
    assert!(loaded.document.sequences().is_empty());
    // Valid, but a 0-byte sprite is most often a damaged one: check does not call it clean.
    let [warning] = &loaded.diagnostics[..] else {
        panic!("{:?}", loaded.diagnostics);
    };
    assert_eq!(warning.severity, crate::formats::Severity::Warning);
    assert!(warning.message.contains("no animation"), "{warning:?}");
    let loaded = read_lua("-- nothing yet\n");
    assert!(loaded.document.sequences().is_empty());
    assert_eq!(loaded.diagnostics.len(), 1);
}

#[test]
fn no_loop_with_a_delay_disappears_and_zero_delay_is_forever() {
    let text = "a img.png 1 0 -1\n0 0 8 8 0 0 1 1\nb img.png 1 50 -1\n0 0 8 8 0 0 2 2\n";
    let loaded = read_legacy(text);
    let doc = &loaded.document;
    let a = doc.sequence_by_name("a").unwrap();
    assert_eq!(a.on_end, EndBehavior::HoldLastFrame);
    assert_eq!(
        doc.direction_frames(a, 0)[0].duration,
        FrameDuration::Forever
    );
    let b = doc.sequence_by_name("b").unwrap();
    assert_eq!(b.loop_point, None);
    assert_eq!(b.on_end, EndBehavior::Disappear);
}

#[test]
fn tileset_images_take_the_users_choice() {
    let context = ReadContext {
        path: None,
        options: crate::formats::ReadOptions {
            tileset: Some("/q/tilesets/1.entities.png".into()),
            ..Default::default()
        },
    };
    let text = "animation{ name = \"closed\", src_image = \"tileset\", directions = { { x = 0, y = 0, frame_width = 16, frame_height = 16 } } }";
    let loaded = SolarusLuaFormat.read(text.as_bytes(), &context).unwrap();
    let image = &loaded.document.images[0];
    assert_eq!(image.path, "tileset");
    assert_eq!(
        image.kind,
        crate::model::ImageKind::SolarusTileset {
            chosen: Some("/q/tilesets/1.entities.png".into())
        }
    );
}

#[test]
fn legacy_diagnostics_have_line_and_column() {
    let text =
        "walk img.png 3 1O0 0\n0 0 8 8 0 0 1 1\n\nwalk img.png 2 100 0\n0\t0\t8\t8\t0\t0\t1\t1\n";
    let failure_or_loaded = SolarusLegacyFormat.read(text.as_bytes(), &ReadContext::default());
    let diagnostics = match failure_or_loaded {
        Ok(l) => l.diagnostics,
        Err(f) => f.diagnostics,
    };
    let messages: Vec<_> = diagnostics
        .iter()
        .map(|d| (at(d), d.message.clone()))
        .collect();
    assert!(
        messages
            .iter()
            .any(|((l, c), m)| (*l, *c) == (1, 16) && m.contains("bad number for frame_delay")),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|((l, c), m)| (*l, *c) == (1, 14) && m.contains("too few direction lines")),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|((l, _), m)| *l == 4 && m.contains("too few direction lines")),
        "{messages:?}"
    );
}

#[test]
fn duplicate_names_and_loop_out_of_range_are_errors() {
    let text = "a img.png 1 100 3\n0 0 8 8 0 0 2 2\na img.png 1 100 0\n0 0 8 8 0 0 2 2\n";
    let loaded = read_legacy(text);
    let errors: Vec<_> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| (at(d), d.message.as_str()))
        .collect();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert_eq!(errors[0].0, (1, 17));
    assert!(errors[0].1.contains("loop frame 3 is out of range"));
    assert_eq!(errors[1].0, (3, 1));
    assert!(errors[1].1.contains("duplicate animation name 'a'"));
    assert_eq!(loaded.document.sequences().len(), 1);
}

#[test]
fn nine_field_direction_lines_are_named_as_the_2008_variant() {
    let loaded = read_legacy("a img.png 1 100 0\n0 0 8 8 0 0 2 2 1\n");
    let warning = &loaded.diagnostics[0];
    assert_eq!(warning.severity, Severity::Warning);
    assert_eq!(at(warning), (2, 17));
    assert!(warning.message.contains("2008"));
}

#[test]
fn lua_syntax_errors_point_at_the_token() {
    let failure = SolarusLuaFormat
        .read(b"animation{\n  name = hero,\n}", &ReadContext::default())
        .unwrap_err();
    assert_eq!(at(&failure.diagnostics[0]), (2, 10));
    let failure = SolarusLuaFormat
        .read(
            b"animation{ name = \"a\" }\nos.exit()",
            &ReadContext::default(),
        )
        .unwrap_err();
    assert_eq!(at(&failure.diagnostics[0]), (2, 1));
}

#[test]
fn lua_missing_required_fields_are_reported() {
    let text = "animation{ name = \"a\", directions = { { x = 0, frame_width = 8, frame_height = 8 } } }\nanimation{ name = \"c\", src_image = \"i.png\", directions = { { x = 0, y = 0, frame_width = 8, frame_height = 8, num_frames = 2, num_columns = 3 } } }\nanimation{ name = \"b\", src_image = \"i.png\", directions = { { x = 0, y = 0, frame_width = 8, frame_height = 8 } } }";
    let loaded = read_lua(text);
    let messages: Vec<_> = loaded
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert!(
        messages.iter().any(|m| m.contains("no image")),
        "{messages:?}"
    );
    assert!(
        messages.iter().any(|m| m.contains("has no y")),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("num_columns must be between 1 and num_frames")),
        "{messages:?}"
    );
    assert_eq!(loaded.document.sequences().len(), 1);
}

#[test]
fn sniffing_tells_lua_from_legacy_by_content() {
    let legacy = b"stopped hero/a.png 4 0 -1\n0\t0\t8\t8\t0\t0\t1\t1\n";
    assert_eq!(SolarusLuaFormat.sniff(legacy), Sniff::No);
    assert_eq!(SolarusLegacyFormat.sniff(legacy), Sniff::Yes);
    assert_eq!(SolarusLuaFormat.sniff(WALKING.as_bytes()), Sniff::Yes);
    assert_eq!(SolarusLegacyFormat.sniff(WALKING.as_bytes()), Sniff::No);
    let registry = crate::formats::registry();
    let path = std::path::Path::new("sprites/hero.dat");
    assert_eq!(registry.detect(legacy, Some(path)).unwrap().id(), LEGACY_ID);
    assert_eq!(
        registry
            .detect(WALKING.as_bytes(), Some(path))
            .unwrap()
            .id(),
        LUA_ID
    );
    assert_eq!(registry.detect(b"", Some(path)).unwrap().id(), LUA_ID);
    let zsd = std::path::Path::new("sprites/hero.zsd");
    assert_eq!(registry.detect(b"", Some(zsd)).unwrap().id(), LEGACY_ID);
}

fn set_delay(doc: &mut AnimationSet, name: &str, ms: u32) {
    let sequence = doc.sequence_by_name(name).unwrap().clone();
    for direction in &sequence.directions {
        for frame in &direction.frames {
            doc.frame_mut(*frame).unwrap().duration = FrameDuration::Millis(ms);
        }
    }
}

#[test]
fn lua_edits_change_only_the_touched_animation() {
    let text = "-- header comment\nanimation{\n  name = \"a\", -- keep me\n  src_image = \"i.png\",\n  frame_delay = 100,\n  directions = { { x = 0, y = 0, frame_width = 8, frame_height = 8 } },\n}\n\n  animation { name = \"b\", src_image = \"i.png\", frame_delay = 50,\n directions = { { x = 8, y = 0, frame_width = 8, frame_height = 8, num_frames = 2 } } } -- tail\n";
    let mut doc = read_lua(text).document;
    set_delay(&mut doc, "b", 70);
    let written = SolarusLuaFormat
        .write(&doc, &WriteContext::default())
        .unwrap();
    let out = String::from_utf8(written.bytes).unwrap();
    let b_start = text.find("animation {").unwrap();
    let b_end = text.find(" -- tail").unwrap();
    let expected = format!(
        "{}animation{{\n  name = \"b\",\n  src_image = \"i.png\",\n  frame_delay = 70,\n  directions = {{\n    {{ x = 8, y = 0, frame_width = 8, frame_height = 8, origin_x = 0, origin_y = 0, num_frames = 2 }},\n  }},\n}}{}",
        &text[..b_start],
        &text[b_end..]
    );
    assert_eq!(out, expected);
    assert!(written.losses.is_empty());
}

#[test]
fn new_and_deleted_animations_keep_the_rest_of_the_file() {
    let text =
        "a i.png 1 100 0\n0\t0\t8\t8\t0\t0\t1\t1\n\nb i.png 1 0 -1\n0\t8\t8\t8\t4\t4\t1\t1\n";
    let original = read_legacy(text).document;
    // Delete "a": "b" stays byte-identical, with the file's ending.
    let mut doc = original.clone();
    doc.root.items.remove(0);
    doc.default_sequence = None;
    let out = SolarusLegacyFormat
        .write(&doc, &WriteContext::default())
        .unwrap();
    assert_eq!(
        String::from_utf8(out.bytes).unwrap(),
        "b i.png 1 0 -1\n0\t8\t8\t8\t4\t4\t1\t1\n"
    );
    // Append a copy of "b" named "c": written after "b" with the file's separator.
    let mut doc = original.clone();
    let mut copy = doc.sequence_by_name("b").unwrap().clone();
    copy.id = crate::model::SequenceId(doc.alloc_id());
    copy.name = "c".into();
    doc.root.items.push(crate::model::TreeItem::Sequence(copy));
    let out = SolarusLegacyFormat
        .write(&doc, &WriteContext::default())
        .unwrap();
    assert_eq!(
        String::from_utf8(out.bytes).unwrap(),
        format!("{text}\nc i.png 1 0 -1\n0\t8\t8\t8\t4\t4\t1\t1\n")
            .replace("1\t1\n\nc", "1\t1\n\nc")
    );
}

#[test]
fn legacy_edits_keep_unchanged_lines() {
    let text = "a i.png 2 100 0   extra\n0 0 8 8 0 0 1 1 kept\n0 8 8 8 0 0 1 1\n";
    let mut doc = read_legacy(text).document;
    let sequence = doc.sequence_by_name("a").unwrap().clone();
    let frame = sequence.directions[1].frames[0];
    let element = &mut doc.frame_mut(frame).unwrap().elements[0];
    if let crate::model::ElementKind::Graphic(g) = &mut element.kind {
        g.origin = Origin::At(Point::from_ints(4, 7));
    }
    let out = SolarusLegacyFormat
        .write(&doc, &WriteContext::default())
        .unwrap();
    assert_eq!(
        String::from_utf8(out.bytes).unwrap(),
        "a i.png 2 100 0   extra\n0 0 8 8 0 0 1 1 kept\n0\t8\t8\t8\t4\t7\t1\t1\n"
    );
}

#[test]
fn per_frame_durations_and_extras_are_reported_as_losses() {
    let mut doc = read_legacy("a i.png 1 100 0\n0 0 8 8 0 0 3 3\n").document;
    let sequence = doc.sequence_by_name("a").unwrap().clone();
    let frames = sequence.directions[0].frames.clone();
    doc.frame_mut(frames[1]).unwrap().duration = FrameDuration::Millis(70);
    let id = crate::model::ElementId(doc.alloc_id());
    doc.frame_mut(frames[2])
        .unwrap()
        .elements
        .push(crate::model::Element {
            id,
            name: "hand".into(),
            kind: crate::model::ElementKind::Point(crate::model::AttachmentPoint::at(Point::ZERO)),
        });
    let written = SolarusLuaFormat
        .write(&doc, &WriteContext::default())
        .unwrap();
    let losses: Vec<String> = written.losses.iter().map(ToString::to_string).collect();
    assert_eq!(
        losses,
        vec![
            "sequence \"a\", direction 0, frame 1: per-frame duration 70 ms (the animation keeps one delay: 100 ms)".to_string(),
            "sequence \"a\", direction 0, frame 2, element 'hand': attachment point: Solarus sprites have none".to_string(),
        ]
    );
}

#[test]
fn comments_before_an_animation_go_with_it() {
    let text = "-- file header\nanimation{ name = \"a\", src_image = \"i.png\", directions = { { x = 0, y = 0, frame_width = 8, frame_height = 8 } } }\n\n-- about b\nanimation{ name = \"b\", src_image = \"i.png\", directions = { { x = 8, y = 0, frame_width = 8, frame_height = 8 } } }\n-- end\n";
    let mut doc = read_lua(text).document;
    // Delete "a": b keeps its comment, the header and the end comment stay.
    doc.root.items.remove(0);
    doc.default_sequence = None;
    let out = SolarusLuaFormat
        .write(&doc, &WriteContext::default())
        .unwrap();
    assert_eq!(
        String::from_utf8(out.bytes).unwrap(),
        "-- file header\n-- about b\nanimation{ name = \"b\", src_image = \"i.png\", directions = { { x = 8, y = 0, frame_width = 8, frame_height = 8 } } }\n-- end\n"
    );
}

#[test]
fn unknown_lua_fields_survive_an_edit_of_their_animation() {
    let text = "animation{\n  name = \"a\",\n  src_image = \"i.png\",\n  frame_delay = 100,\n  tag = { \"x\", 1 },\n  directions = {\n    { x = 0, y = 0, frame_width = 8, frame_height = 8, origin_x = 0, origin_y = 0 },\n  },\n}\n";
    let loaded = read_lua(text);
    assert_eq!(loaded.diagnostics.len(), 1);
    assert_eq!(at(&loaded.diagnostics[0]), (5, 3));
    assert!(
        loaded.diagnostics[0]
            .message
            .contains("unknown field 'tag'")
    );
    let mut doc = loaded.document;
    set_delay(&mut doc, "a", 120);
    let out = SolarusLuaFormat
        .write(&doc, &WriteContext::default())
        .unwrap();
    assert_eq!(
        String::from_utf8(out.bytes).unwrap(),
        text.replace("frame_delay = 100", "frame_delay = 120")
    );
}

#[test]
fn the_unchanged_check_ignores_only_what_the_file_does_not_hold() {
    let read = read_lua(WALKING).document;
    let mut found_elsewhere = read.clone();
    found_elsewhere.original = None;
    found_elsewhere.images[0].resolved = Some("/quest/sprites/hero/tunic1.png".into());
    let mut edited = read.clone();
    set_delay(&mut edited, "walk\"ing", 120);
    let mut renamed = read.clone();
    renamed.images[0].path = "hero/tunic2.png".into();
    let mut tileset = read.clone();
    tileset.images[0].kind = ImageKind::SolarusTileset { chosen: None };
    for (other, same) in [
        (&found_elsewhere, true),
        (&edited, false),
        (&renamed, false),
        (&tileset, false),
    ] {
        assert_eq!(fidelity::same_content(&read, other), same);
    }
}
