//! Every AIR text of the corpus (`.air` files and the actions inside `.def` files): what it
//! reads to, what `check` says about it, and a byte-identical save.

mod common;

use sprat::formats::mugen::{AIR_ID, DEF_ID, check_file};
use sprat::formats::{ReadContext, Severity, WriteContext, registry};
use sprat::model::{
    AnimationSet, BlendMode, BoxClass, BoxScope, DefaultBoxRule, ElementKind, Frame, FrameDuration,
    GraphicSource, ImageKind, PaletteSource, effective_boxes,
};
use std::path::{Path, PathBuf};

fn mugen() -> PathBuf {
    common::corpus().join("mugen")
}

fn open(relative: &str) -> (AnimationSet, Vec<sprat::formats::Diagnostic>, &'static str) {
    let path = mugen().join(relative);
    let (loaded, format) = registry()
        .open(&path, &ReadContext::default())
        .unwrap_or_else(|f| panic!("{relative}: {:?}", f.diagnostics));
    (loaded.document, loaded.diagnostics, format.id())
}

fn frames<'a>(set: &'a AnimationSet, action: &str) -> Vec<&'a Frame> {
    let sequence = set
        .sequence_by_name(action)
        .unwrap_or_else(|| panic!("no action {action}"));
    set.direction_frames(sequence, 0)
}

fn graphic(frame: &Frame) -> &sprat::model::Graphic {
    frame.elements[0]
        .as_graphic()
        .expect("the first element is the sprite")
}

#[test]
fn every_corpus_air_text_saves_byte_for_byte() {
    let files = common::files_with_extensions(&mugen(), &["air", "def"]);
    assert_eq!(files.len(), 15, "{files:?}");
    for path in files {
        let (loaded, format) = registry()
            .open(&path, &ReadContext::default())
            .unwrap_or_else(|f| panic!("{}: {:?}", path.display(), f.diagnostics));
        let written = format
            .write(&loaded.document, &WriteContext::for_path(&path))
            .unwrap();
        let original = std::fs::read(&path).unwrap();
        assert!(
            written.bytes == original,
            "{} changed on save",
            path.display()
        );
        assert!(
            written.losses.is_empty(),
            "{}: {:?}",
            path.display(),
            written.losses
        );
        for companion in &written.companions {
            let on_disk = path.parent().unwrap().join(&companion.relative_path);
            assert!(
                companion.bytes == std::fs::read(&on_disk).unwrap(),
                "{} changed on save",
                on_disk.display()
            );
        }
    }
}

#[test]
fn files_are_told_apart_by_content_then_extension() {
    for (file, id) in [
        ("kfm/kfm.air", AIR_ID),
        ("fightfx/fightfx.air", AIR_ID),
        ("kfm/kfm.def", DEF_ID),
        ("lifebar/fight.def", DEF_ID),
        ("kfm/intro.def", DEF_ID),
        ("stages/stageZ.def", DEF_ID),
    ] {
        assert_eq!(open(file).2, id, "{file}");
    }
}

/// `file:line:column: severity: message` for every diagnostic `check` lists.
fn check(relative: &str) -> Vec<String> {
    let path = mugen().join(relative);
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    check_file(&path)
        .iter()
        .map(|d| d.display_with(&name))
        .collect()
}

const KFM_MISLABELLED: [&str; 5] = [
    "kfm.air:963:2: warning: a Clsn2 box under a Clsn1 declaration counts as Clsn1",
    "kfm.air:1567:2: warning: a Clsn2 box under a Clsn1 declaration counts as Clsn1",
    "kfm.air:1568:2: warning: a Clsn2 box under a Clsn1 declaration counts as Clsn1",
    "kfm.air:1574:2: warning: a Clsn2 box under a Clsn1 declaration counts as Clsn1",
    "kfm.air:1575:2: warning: a Clsn2 box under a Clsn1 declaration counts as Clsn1",
];

#[test]
fn check_reports_exactly_the_known_problems_of_the_corpus() {
    let clean = [
        "fightfx/fightfx.air",
        "gofx/gofx.air",
        "gofx/gofx.def",
        "stages/interactivestage.def",
        "stages/kfm.def",
        "stages/stage0.def",
        "stages/stageZ.def",
        "stages_ikemen2018/stage0.def",
    ];
    for file in clean {
        assert_eq!(check(file), Vec::<String>::new(), "{file}");
    }
    assert_eq!(check("kfm/kfm.air"), KFM_MISLABELLED);
    // Through the .def, the same warnings name the .air.
    assert_eq!(check("kfm/kfm.def"), KFM_MISLABELLED);
    let kfm720: Vec<String> = KFM_MISLABELLED
        .iter()
        .map(|d| d.replace("kfm.air", "kfm720.air"))
        .collect();
    assert_eq!(check("kfm720/kfm720.air"), kfm720);
    assert_eq!(check("kfm720/kfm720.def"), kfm720);
    assert_eq!(
        check("lifebar/fight.def"),
        [
            "fight.def:3339:15: warning: action 510 is already defined on line 3317; both are kept, engines use the first"
        ]
    );
    // The storyboard's SFF v1 has the lying length fields SOURCES.md describes.
    assert_eq!(
        check("kfm/intro.def"),
        [
            "intro.sff:@14715: warning: 9 same-palette sprites (the first is 1,0) have length fields that still count the 768 palette bytes they leave out; their data is taken up to the next header",
            "intro.sff:@86994: warning: sprite 42,1: the length field says 4173 bytes, which runs past the end of the file; using the 3405 there",
        ]
    );
    // The older KFM .def has no .air beside it in the corpus (SOURCES.md: use kfm/kfm.air).
    let old = check("kfm_ikemen2018/kfm.def");
    assert_eq!(old.len(), 1, "{old:?}");
    assert!(
        old[0].starts_with("kfm.def:22:1: error: cannot read the animation file kfm.air"),
        "{old:?}"
    );
}

#[test]
fn kfm_reads_its_actions_frames_and_boxes() {
    let (set, diagnostics, _) = open("kfm/kfm.def");
    assert!(diagnostics.iter().all(|d| d.severity == Severity::Warning));
    assert_eq!(set.sequences().len(), 117);
    let total: usize = set.sequences().iter().map(|s| s.max_frames()).sum();
    assert_eq!(total, 655);
    let stand = frames(&set, "0");
    assert_eq!(stand.len(), 11);
    assert_eq!(stand[0].duration, FrameDuration::Ticks(10));
    assert_eq!(stand[5].duration, FrameDuration::Ticks(45));
    match graphic(stand[0]).source {
        GraphicSource::SffSprite {
            group,
            image,
            archive,
        } => {
            assert_eq!((group, image), (0, 0));
            let sff = set.image(archive).unwrap();
            assert_eq!(sff.path, "kfm.sff");
            assert!(sff.resolved.as_ref().is_some_and(|p| p.is_file()));
            assert_eq!(
                sff.kind,
                ImageKind::Sff {
                    palettes: vec![PaletteSource::Embedded(0)],
                    active_palette: None
                }
            );
        }
        ref other => panic!("{other:?}"),
    }
    // Clsn2Default on frame 0 only; every later frame inherits it.
    assert_eq!(
        stand[0].declared_scope(&BoxClass::Hurt),
        Some(BoxScope::FromHereOn)
    );
    assert_eq!(stand[0].boxes().count(), 2);
    assert_eq!(stand[3].boxes().count(), 0);
    let inherited = effective_boxes(&stand, 3, DefaultBoxRule::ReturnToDefault);
    assert_eq!(inherited.len(), 2);
    // ` Clsn2[0] = -13,  0, 16,-79` is normalised: top -79, height 79.
    match &inherited[0].collision.shape {
        sprat::model::Shape::Rect {
            x,
            y,
            width,
            height,
            ..
        } => {
            assert_eq!(
                (x.floor(), y.floor(), width.floor(), height.floor()),
                (-13, -79, 29, 79)
            );
        }
        other => panic!("{other:?}"),
    }
    // Action 1300: Clsn1 declared with Clsn2-labelled lines counts as Clsn1.
    let block = frames(&set, "1300");
    let hit: Vec<_> = block[0]
        .boxes()
        .filter(|(_, b)| b.class == BoxClass::Hit)
        .collect();
    assert_eq!(hit.len(), 2);
    // Flips, -1 durations and loop points.
    let turning = frames(&set, "5");
    assert!(graphic(turning[0]).flip_h && !graphic(turning[1]).flip_h);
    let flips: usize = set
        .frames
        .values()
        .filter(|f| graphic(f).flip_h && graphic(f).flip_v)
        .count();
    assert_eq!(flips, 3, "HV and VH frames");
    assert!(
        set.frames
            .values()
            .any(|f| f.duration == FrameDuration::Forever)
    );
    let looping: Vec<_> = set
        .sequences()
        .into_iter()
        .filter(|s| s.loop_point != Some(0))
        .map(|s| s.name.clone())
        .collect();
    assert!(!looping.is_empty());
    assert!(set.sequences().iter().all(|s| s.loop_point.is_some()));
    let blank = set
        .frames
        .values()
        .filter(|f| graphic(f).source.is_blank())
        .count();
    assert!(blank > 0, "KFM has -1 sprites");
}

#[test]
fn action_numbers_are_normalised_to_decimal_and_duplicates_are_kept() {
    let (set, diagnostics, _) = open("lifebar/fight.def");
    let names: Vec<&str> = set.sequences().iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names.iter().filter(|n| **n == "510").count(), 2);
    let duplicate = diagnostics
        .iter()
        .find(|d| d.message.contains("already defined"))
        .unwrap();
    let second = set
        .sequences()
        .into_iter()
        .filter(|s| s.name == "510")
        .nth(1)
        .unwrap();
    assert_eq!(
        duplicate.subject,
        Some(sprat::formats::Subject::Sequence(second.id))
    );
}

#[test]
fn mugen_1_1_fields_blends_scales_angles_and_interpolation() {
    let (set, _, _) = open("gofx/gofx.air");
    let shockwave = frames(&set, "5410");
    let g = graphic(shockwave[0]);
    assert_eq!(
        g.blend,
        BlendMode::Add {
            source: 256,
            destination: 256
        }
    );
    assert_eq!((g.scale_x, g.scale_y), (0.5, 0.5));
    assert!(shockwave[1].interpolation.blend && shockwave[1].interpolation.scale);
    assert!(!shockwave[1].interpolation.offset);
    let (fight, _, _) = open("lifebar/fight.def");
    // `528,0, 0,30, 40, , AS256D0,, , -4`: empty scales stay 1, the angle turns clockwise.
    let spin = frames(&fight, "551");
    let g = graphic(spin[3]);
    assert_eq!((g.scale_x, g.scale_y), (1.0, 1.0));
    assert_eq!(g.rotation, 4.0);
    assert!(spin[3].interpolation.angle && spin[3].interpolation.offset);
    assert!(!spin[3].interpolation.blend && spin[1].interpolation.blend);
    // Interpolate before the first frame applies to that frame (the wrap from the last one).
    assert!(frames(&fight, "500")[0].interpolation.offset);
    let (fx, _, _) = open("fightfx/fightfx.air");
    let spark = frames(&fx, "3");
    assert_eq!(graphic(spark[0]).blend, BlendMode::Normal);
    assert_eq!(
        graphic(spark[1]).blend,
        BlendMode::Add {
            source: 256,
            destination: 128
        }
    );
    let sprites = fx
        .frames
        .values()
        .filter(|f| matches!(graphic(f).blend, BlendMode::Add { .. }))
        .count();
    assert_eq!(sprites, 106, "SOURCES.md: 106 frames with a blend field");
}

#[test]
fn an_air_alone_finds_the_def_or_sff_beside_it() {
    let (set, _, _) = open("fightfx/fightfx.air");
    assert_eq!(set.images[0].path, "fightfx.sff");
    assert!(set.images[0].resolved.is_some());
    let (set, _, _) = open("gofx/gofx.air");
    assert_eq!(set.images[0].path, "gofx.sff", "named by gofx.def");
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let lonely = dir.join("lonely.air");
    std::fs::copy(mugen().join("gofx/gofx.air"), &lonely).unwrap();
    let (loaded, _) = registry().open(&lonely, &ReadContext::default()).unwrap();
    assert!(loaded.document.images[0].resolved.is_none());
    assert!(
        loaded
            .diagnostics
            .iter()
            .any(|d| d.message.contains("opens without pixels")),
        "{:?}",
        loaded.diagnostics
    );
}

#[test]
fn def_palettes_resolve_relative_to_the_def() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    std::fs::create_dir_all(dir.join("pals")).unwrap();
    std::fs::write(dir.join("pals/b.act"), [0u8; 768]).unwrap();
    std::fs::write(dir.join("x.air"), "[Begin Action 0]\n0,0, 0,0, 1\n").unwrap();
    let def = "[Files]\nSprite = x.sff\nANIM = \"x.air\"\npal2 = pals/a.act\npal1 = pals\\b.act ; comment\n";
    std::fs::write(dir.join("x.def"), def).unwrap();
    let (loaded, _) = registry()
        .open(&dir.join("x.def"), &ReadContext::default())
        .unwrap();
    let ImageKind::Sff { palettes, .. } = &loaded.document.images[0].kind else {
        panic!()
    };
    assert_eq!(palettes.len(), 3);
    assert!(
        matches!(&palettes[0], PaletteSource::ActFile { path, resolved: Some(r) } if path == "pals/b.act" && r.ends_with("pals/b.act"))
    );
    assert!(
        matches!(&palettes[1], PaletteSource::ActFile { path, resolved: None } if path == "pals/a.act")
    );
    assert_eq!(palettes[2], PaletteSource::Embedded(0));
    let messages: Vec<&str> = loaded
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert!(
        messages.iter().any(|m| m.contains("x.sff was not found")),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("pals/a.act (pal2) was not found")),
        "{messages:?}"
    );
    assert_eq!(loaded.document.sequences().len(), 1);
}

#[test]
fn boxes_only_exist_on_the_frames_that_declare_them() {
    let (set, _, _) = open("kfm/kfm.air");
    for frame in set.frames.values() {
        for class in [BoxClass::Hit, BoxClass::Hurt] {
            let held = frame
                .elements
                .iter()
                .any(|e| matches!(&e.kind, ElementKind::Box(b) if b.class == class));
            if held {
                assert!(frame.box_declarations.iter().any(|d| d.class == class));
            }
        }
    }
    let _ = Path::new("");
}
