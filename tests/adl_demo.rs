//! The bundled ADL demo character, the game's sheet layout, and the legacy form.

use sprat::formats::adl::{AdlFormat, Dialect, game_sheet_layout, parse};
use sprat::formats::{Format, ReadContext, Severity};
use sprat::model::{ElementKind, FrameDuration, Origin, Point};
use std::path::{Path, PathBuf};

fn demo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/adl/mods/sprat/sprites/pip.properties")
}

#[test]
fn the_demo_reads_with_every_image_found() {
    let path = demo();
    let bytes = std::fs::read(&path).unwrap();
    let loaded = AdlFormat
        .read(&bytes, &ReadContext::for_path(&path))
        .unwrap();
    let problems: Vec<_> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.severity != Severity::Info)
        .collect();
    assert!(problems.is_empty(), "{problems:?}");
    let doc = loaded.document;
    assert_eq!(doc.images.len(), 6);
    for image in &doc.images {
        let resolved = image.resolved.as_ref().expect("found on disk");
        assert!(resolved.ends_with(&image.path));
        let decoded = image::open(resolved).unwrap();
        assert!(decoded.width() > 0);
    }
    let names: Vec<&str> = doc.sequences().iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["ANIM_IDLE", "ANIM_WALK"]);
    let walk = doc.sequence_by_name("ANIM_WALK").unwrap();
    assert_eq!(walk.directions[0].frames.len(), 4);
    let second = doc.frame(walk.directions[0].frames[1]).unwrap();
    assert_eq!(
        second.duration,
        FrameDuration::Seconds { nanos: 150_000_000 }
    );
    // ALL 0,1 lifts the head; LEG_FRONT 0,-1 keeps the legs on the ground.
    let at = |name: &str| {
        second
            .elements
            .iter()
            .find_map(|e| match &e.kind {
                ElementKind::Graphic(g) if e.name == name => Some((g.position, g.origin)),
                _ => None,
            })
            .unwrap()
    };
    assert_eq!(
        at("HEAD"),
        (Point::from_ints(0, -20), Origin::At(Point::from_ints(5, 8)))
    );
    assert_eq!(at("LEG_FRONT").0, Point::from_ints(-1, -8));
    // HELD_ITEM has no body part: a point, not a graphic.
    let held = second
        .elements
        .iter()
        .filter(|e| e.name == "HELD_ITEM")
        .map(|e| e.as_point().map(|p| p.position))
        .collect::<Vec<_>>();
    assert_eq!(held, [Some(Point::from_ints(-1, -12))]);
}

#[test]
fn the_game_sheet_layout_of_the_demo() {
    let path = demo();
    let bytes = std::fs::read(&path).unwrap();
    let doc = AdlFormat
        .read(&bytes, &ReadContext::for_path(&path))
        .unwrap()
        .document;
    let layout = game_sheet_layout(&doc).unwrap();
    // SIZE 24,32 plus the assembler's fixed headroom of 32 x 16.
    assert_eq!((layout.cell_width, layout.cell_height), (56, 48));
    assert_eq!((layout.columns, layout.rows), (4, 2));
    assert_eq!(layout.origin_in_cell, (12, 47));
    assert_eq!(layout.size(), (224, 96));
    let walk = doc.sequence_by_name("ANIM_WALK").unwrap();
    let cells: Vec<(u32, u32)> = layout
        .cells
        .iter()
        .filter(|c| c.sequence == walk.id)
        .map(|c| (c.column, c.row))
        .collect();
    assert_eq!(cells, [(0, 1), (1, 1), (2, 1), (3, 1)]);
    assert_eq!(layout.cells.len(), 6);
}

/// A scratch assets root (removed when dropped) with the folder `chars/bob` in it.
fn scratch() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("chars/bob")).unwrap();
    dir
}

#[test]
fn the_legacy_form_anchors_parts_at_their_centre() {
    let scratch = scratch();
    let root = scratch.path();
    image::RgbaImage::from_pixel(7, 5, image::Rgba([255, 0, 0, 255]))
        .save_with_format(root.join("chars/bob/bob_head.tga"), image::ImageFormat::Tga)
        .unwrap();
    let text = "SPRITESHEET=chars/bob/bob_\nEXTENSION=.tga\nCONFIG=SIZE 20,30;ORIGINX 10\n\
SKELETON_STAND=HEAD 0,20;BODY 0,8\n\
ANIM_IDLE=DELAY 1;ROW 1;SKELETON SKELETON_STAND\nANIM_IDLE_1=HEAD 1,0\n";
    let path = root.join("chars/bob.properties");
    std::fs::write(&path, text).unwrap();
    let file = parse(text.as_bytes());
    assert_eq!(file.dialect, Dialect::Legacy);
    assert!(file.diagnostics.is_empty(), "{:?}", file.diagnostics);
    let loaded = AdlFormat
        .read(text.as_bytes(), &ReadContext::for_path(&path))
        .unwrap();
    let messages: Vec<&str> = loaded
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert!(
        messages.iter().any(|m| m.contains("legacy ADL form")),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("chars/bob/bob_body.tga is missing"))
    );
    let doc = loaded.document;
    let frame = doc
        .frame(doc.sequences()[0].directions[0].frames[0])
        .unwrap();
    let head = frame
        .elements
        .iter()
        .find_map(|e| match &e.kind {
            ElementKind::Graphic(g) if e.name == "HEAD" => Some((g.position, g.origin)),
            _ => None,
        })
        .unwrap();
    // Centre of a 7x5 image is (3, 2); the joint 0,20 moved by 1,0 lands at (1, -20).
    assert_eq!(
        head,
        (Point::from_ints(1, -20), Origin::At(Point::from_ints(3, 2)))
    );
    let layout = game_sheet_layout(&doc).unwrap();
    assert_eq!(
        (layout.cell_width, layout.cell_height),
        (20, 30),
        "no headroom in the legacy assembler"
    );
}

#[test]
fn case_rules_follow_the_games_code() {
    // Keys, header variables, joints, transform targets and the skeleton name are uppercased;
    // BODYPARTS names are not, so a lowercase part never matches its (uppercased) joint.
    let text = "spritesheet=p_\nextension=.tga\nconfig=SIZE 8,8;ORIGINX 4\n\
bodyparts=HEAD 1,1;arm 0,0\nskeleton_s=head 0,4;Arm 1,1\n\
anim_idle=delay 0.5;row 1;skeleton Skeleton_S\nanim_idle_1=Head 0,1;ARM 1,0\n";
    let loaded = AdlFormat
        .read(text.as_bytes(), &ReadContext::default())
        .unwrap();
    let messages: Vec<&str> = loaded
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert!(
        messages
            .iter()
            .any(|m| m.contains("\"arm\" is not uppercase") && m.contains("never draws it")),
        "{messages:?}"
    );
    assert!(
        !loaded
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error),
        "{messages:?}"
    );
    let doc = loaded.document;
    let idle = doc.sequence_by_name("ANIM_IDLE").unwrap();
    let frame = doc.frame(idle.directions[0].frames[0]).unwrap();
    assert_eq!(
        frame.duration,
        FrameDuration::Seconds { nanos: 500_000_000 }
    );
    let graphics: Vec<(&str, Point)> = frame
        .elements
        .iter()
        .filter_map(|e| e.as_graphic().map(|g| (e.name.as_str(), g.position)))
        .collect();
    assert_eq!(graphics, [("HEAD", Point::from_ints(0, -5))]);
    let arm = frame.elements.iter().find(|e| e.name == "ARM").unwrap();
    assert_eq!(arm.as_point().unwrap().position, Point::from_ints(2, -1));
}
