//! Documents from other formats saved as AIR: frames name SFF sprites, and everything AIR
//! cannot hold is reported, one loss per thing, where it is.

use sprat::formats::mugen::{AirFormat, DefFormat};
use sprat::formats::{Format, ReadContext, WriteContext};
use sprat::model::*;

fn element(set: &mut AnimationSet, name: &str, kind: ElementKind) -> Element {
    Element {
        id: ElementId(set.alloc_id()),
        name: name.into(),
        kind,
    }
}

/// A set as another format would read it: a slice sheet and an SFF archive, points, circles,
/// rotated and custom boxes, text on frames, millisecond timing, groups and two directions.
fn foreign_set() -> AnimationSet {
    let mut set = AnimationSet::new();
    let sheet = ImageId(set.alloc_id());
    set.images.push(SourceImage {
        id: sheet,
        path: "sheet.png".into(),
        resolved: None,
        kind: ImageKind::File,
        nearest_neighbour: true,
    });
    let sff = ImageId(set.alloc_id());
    set.images.push(SourceImage {
        id: sff,
        path: "hero.sff".into(),
        resolved: None,
        kind: ImageKind::Sff {
            palettes: vec![
                PaletteSource::ActFile {
                    path: "hero1.act".into(),
                    resolved: None,
                },
                PaletteSource::Embedded(0),
            ],
            active_palette: None,
        },
        nearest_neighbour: true,
    });
    let slice = SliceId(set.alloc_id());
    set.slices.push(Slice {
        id: slice,
        image: sheet,
        rect: PixelRect {
            x: 0,
            y: 0,
            width: 8,
            height: 8,
        },
        rotated: false,
    });
    // Frame 0: an SFF sprite with a transform, a hit box, a circle, a point, text.
    let mut first = Frame::new(FrameDuration::Millis(100));
    let mut sprite = Graphic::new(
        GraphicSource::SffSprite {
            archive: sff,
            group: 200,
            image: 3,
        },
        Point::from_ints(-4, 2),
        Origin::SourceAxis,
    );
    sprite.flip_h = true;
    sprite.blend = BlendMode::Add {
        source: 128,
        destination: 256,
    };
    sprite.rotation = 30.0;
    first
        .elements
        .push(element(&mut set, "", ElementKind::Graphic(sprite)));
    first.elements.push(element(
        &mut set,
        "",
        ElementKind::Box(CollisionBox::rect_from_corners(
            BoxClass::Hit,
            Point::from_ints(10, -60),
            Point::from_ints(40, -40),
        )),
    ));
    first.elements.push(element(
        &mut set,
        "shield",
        ElementKind::Box(CollisionBox {
            class: BoxClass::Hurt,
            shape: Shape::Circle {
                center: Point::ZERO,
                radius: Fx::from_int(5),
            },
            box_id: 0,
            corners: None,
        }),
    ));
    first.elements.push(element(
        &mut set,
        "hand",
        ElementKind::Point(AttachmentPoint::at(Point::from_ints(3, 3))),
    ));
    first.triggers = "sound hit".into();
    first.notes = "key frame".into();
    first.label = "windup".into();
    // Frame 1: a sheet image (not in an SFF), a rotated box, a custom box, 70 ms.
    let mut second = Frame::new(FrameDuration::Millis(70));
    second.elements.push(element(
        &mut set,
        "body",
        ElementKind::Graphic(Graphic::new(
            GraphicSource::Slice(slice),
            Point::ZERO,
            Origin::At(Point::from_ints(4, 8)),
        )),
    ));
    second.elements.push(element(
        &mut set,
        "",
        ElementKind::Box(CollisionBox {
            class: BoxClass::Hurt,
            shape: Shape::Rect {
                x: Fx::from_int(-5),
                y: Fx::from_int(-5),
                width: Fx::from_int(10),
                height: Fx::from_int(10),
                rotation: 45.0,
            },
            box_id: 0,
            corners: None,
        }),
    ));
    second.elements.push(element(
        &mut set,
        "",
        ElementKind::Box(CollisionBox::rect_from_corners(
            BoxClass::Custom("grab".into()),
            Point::ZERO,
            Point::from_ints(1, 1),
        )),
    ));
    let first_id = FrameId(set.alloc_id());
    let second_id = FrameId(set.alloc_id());
    set.frames.insert(first_id, first);
    set.frames.insert(second_id, second);
    let mut attack = Sequence::new(
        SequenceId(set.alloc_id()),
        "attack",
        DirectionId(set.alloc_id()),
    );
    attack.directions[0].frames = vec![first_id, second_id];
    attack.directions.push(Direction {
        id: DirectionId(set.alloc_id()),
        name: None,
        frames: vec![second_id],
    });
    attack.loop_point = None;
    attack.follow_up = Some("idle".into());
    let mut idle = Sequence::new(
        SequenceId(set.alloc_id()),
        "42",
        DirectionId(set.alloc_id()),
    );
    idle.directions[0].frames = vec![first_id];
    idle.loop_point = Some(0);
    set.root.items.push(TreeItem::Sequence(idle));
    let group = GroupId(set.alloc_id());
    set.root.items.push(TreeItem::Group(Group {
        id: group,
        name: "combat".into(),
        items: vec![TreeItem::Sequence(attack)],
    }));
    set
}

#[test]
fn another_format_saved_as_air_names_sprites_and_reports_every_loss() {
    let set = foreign_set();
    let written = AirFormat.write(&set, &WriteContext::default()).unwrap();
    let text = String::from_utf8(written.bytes.clone()).unwrap();
    assert_eq!(
        text,
        // The frames declared hurt shapes AIR cannot hold: they keep an explicit empty Clsn2 so
        // no default box applies to them.
        "[Begin Action 42]\nClsn1: 1\n Clsn1[0] = 10, -60, 40, -40\nClsn2: 0\n200,3, -4,2, 6, H, AS128D256, 1, 1, -30\n\n\
         [Begin Action 43]\nClsn1: 1\n Clsn1[0] = 10, -60, 40, -40\nClsn2: 0\n200,3, -4,2, 6, H, AS128D256, 1, 1, -30\n\
         Clsn2: 0\n-1,-1, 0,0, -1\n"
    );
    let losses: Vec<String> = written.losses.iter().map(|l| l.to_string()).collect();
    assert_eq!(
        losses,
        [
            "document: the group \"combat\" (AIR has a flat list of actions)",
            "sequence \"attack\": the name (AIR names actions by number; written as action 43)",
            "sequence \"42\", direction 0, frame 0, element \"shield\": a circular box",
            "sequence \"42\", direction 0, frame 0, element \"hand\": an attachment point",
            "sequence \"42\", direction 0, frame 0, frame: the label \"windup\"",
            "sequence \"42\", direction 0, frame 0, frame: the triggers \"sound hit\"",
            "sequence \"42\", direction 0, frame 0, frame: the notes",
            "sequence \"attack\", direction 1: direction 1 (AIR actions have one)",
            "sequence \"attack\": the follow-up sequence \"idle\"",
            "sequence \"attack\", direction 0, frame 0, element \"shield\": a circular box",
            "sequence \"attack\", direction 0, frame 0, element \"hand\": an attachment point",
            "sequence \"attack\", direction 0, frame 0, frame: the label \"windup\"",
            "sequence \"attack\", direction 0, frame 0, frame: the triggers \"sound hit\"",
            "sequence \"attack\", direction 0, frame 0, frame: the notes",
            "sequence \"attack\", direction 0, frame 1: the duration 70 ms is not a whole number of 1/60 s ticks; it is rounded to 4",
            "sequence \"attack\", direction 0, frame 1, element \"body\": an image that is not a sprite of an SFF archive",
            "sequence \"attack\", direction 0, frame 1, element 1: a rotated box",
            "sequence \"attack\", direction 0, frame 1, element 2: a \"grab\" box (AIR has only Clsn1 and Clsn2)",
            "sequence \"attack\": playing once: AIR actions always loop, so it holds its last frame forever (its 4 ticks written as -1) and reads back as looping to frame 0, a loop it never reaches",
        ]
    );
    // What was written reads back to the same sprites, timing and boxes.
    let back = AirFormat
        .read(&written.bytes, &ReadContext::default())
        .unwrap()
        .document;
    let attack = back.sequence_by_name("43").unwrap();
    let frames = back.direction_frames(attack, 0);
    assert_eq!(frames[0].duration, FrameDuration::Ticks(6));
    assert_eq!(
        frames[1].duration,
        FrameDuration::Forever,
        "no loop: the last frame holds"
    );
    let g = frames[0].elements[0].as_graphic().unwrap();
    assert_eq!(g.rotation, 30.0);
    assert!(g.flip_h);
}

#[test]
fn another_format_saved_as_def_writes_a_def_and_its_air() {
    let set = foreign_set();
    let written = DefFormat
        .write(&set, &WriteContext::for_path("/tmp/out/hero.def"))
        .unwrap();
    assert_eq!(
        String::from_utf8(written.bytes).unwrap(),
        "[Files]\nsprite = hero.sff\nanim = hero.air\npal1 = hero1.act\n"
    );
    assert_eq!(written.companions.len(), 1);
    assert_eq!(written.companions[0].relative_path, "hero.air");
    assert!(!written.losses.is_empty());
}

/// The demo (a sheet of our own art) saved as a character: a `.def`, an `.air` and an `.sff`
/// made from the sheet, which read back with no diagnostics and draw every frame as the demo.
#[test]
fn the_demo_saved_as_a_character_writes_an_sff_that_draws_the_same_pixels() {
    use sprat::assets::ImageStore;
    use sprat::formats::registry;
    use sprat::formats::sff::SffArchive;
    use sprat::render::{CanvasBounds, RenderOptions, Scene, SpriteRect, render};

    let demo_path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/demo.sprat");
    let demo = registry()
        .open(&demo_path, &ReadContext::default())
        .unwrap()
        .0
        .document;
    let dir = tempfile::tempdir().unwrap();
    let def_path = dir.path().join("demo.def");
    let store = ImageStore::new();
    let context = WriteContext {
        path: Some(def_path.clone()),
        pixels: Some(&store),
    };
    let written = DefFormat.write(&demo, &context).unwrap();
    let names: Vec<&str> = written
        .companions
        .iter()
        .map(|c| c.relative_path.as_str())
        .collect();
    assert_eq!(names, ["demo.air", "demo.sff"]);
    assert_eq!(
        String::from_utf8(written.bytes.clone()).unwrap(),
        "[Files]\nsprite = demo.sff\nanim = demo.air\n"
    );
    // Nothing about the images is lost: they became sprites.
    assert!(
        !written
            .losses
            .iter()
            .any(|l| l.to_string().contains("image")),
        "{:?}",
        written.losses
    );
    std::fs::write(&def_path, &written.bytes).unwrap();
    for c in &written.companions {
        std::fs::write(dir.path().join(&c.relative_path), &c.bytes).unwrap();
    }
    let archive = SffArchive::open(&dir.path().join("demo.sff")).unwrap();
    assert!(archive.check().is_empty(), "{:?}", archive.check());
    assert!(archive.sprites().len() >= 10);

    let (loaded, _) = registry().open(&def_path, &ReadContext::default()).unwrap();
    assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
    let character = loaded.document;
    let options = RenderOptions {
        bounds: CanvasBounds::Fixed(SpriteRect::covering(-48.0, -48.0, 48.0, 16.0).unwrap()),
        ..RenderOptions::default()
    };
    let (ours, theirs) = (demo.sequences(), character.sequences());
    assert_eq!(ours.len(), theirs.len());
    let mut frames = 0;
    for (a, b) in ours.iter().zip(&theirs) {
        let count = a.directions[0].frames.len();
        assert_eq!(count, b.directions[0].frames.len(), "{}", a.name);
        for index in 0..count {
            let rule = Default::default();
            let scene_a = Scene::at(&demo, a.id, 0, index, rule).unwrap();
            let scene_b = Scene::at(&character, b.id, 0, index, rule).unwrap();
            let before = render(&demo, &scene_a, &store, &options);
            let after = render(&character, &scene_b, &store, &options);
            assert!(
                before.pixels().any(|p| p[3] != 0),
                "{} frame {index} is drawn",
                a.name
            );
            assert_eq!(before, after, "{} frame {index}", a.name);
            frames += 1;
        }
    }
    assert!(frames >= 15, "{frames} frames");
}
