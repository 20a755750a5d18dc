//! The box tools on the corpus: trace stays inside each frame's pictures on every character and
//! Solarus sprite, reaches the coverage and area figures on KFM's standing frames, and a file
//! traced and saved keeps every sequence it did not touch byte for byte.

mod common;

use sprat::assets::ImageStore;
use sprat::boxes::lint::{BoxClasses, LintContext, lint_boxes};
use sprat::boxes::trace::coverage_and_area;
use sprat::boxes::{BoxMethod, TraceOptions, frame_mask, plan_boxes, trace};
use sprat::edit::box_tools::{BoxRun, ExistingBoxes, PlaceBoxes};
use sprat::edit::{History, Selection};
use sprat::formats::{Loaded, ReadContext, Severity, WriteContext, registry};
use sprat::model::{BoxClass, DefaultBoxRule};
use std::path::{Path, PathBuf};

fn open(path: &Path) -> (Loaded, &'static dyn sprat::formats::Format) {
    let context = ReadContext {
        path: Some(path.to_path_buf()),
        ..ReadContext::default()
    };
    registry()
        .open(path, &context)
        .unwrap_or_else(|f| panic!("{}: {:?}", path.display(), f.diagnostics))
}

/// The corpus characters with animations (kfm_ikemen2018 has its sprites but no AIR).
fn characters() -> Vec<PathBuf> {
    ["kfm/kfm.def", "kfm720/kfm720.def"]
        .iter()
        .map(|p| common::corpus().join("mugen").join(p))
        .collect()
}

fn solarus_sprites() -> Vec<PathBuf> {
    common::files_with_extensions(&common::corpus().join("solarus"), &["dat", "zsd"])
        .into_iter()
        .filter(|p| {
            p.components().any(|c| c.as_os_str() == "sprites")
                || p.extension().is_some_and(|e| e == "zsd")
        })
        .collect()
}

const THREE: TraceOptions = TraceOptions {
    max_boxes: 3,
    thin: 0,
    margin: 0,
};

#[test]
fn kfm_standing_frames_are_covered_closely_by_three_boxes() {
    let path = common::corpus().join("mugen/kfm/kfm.def");
    let (loaded, _) = open(&path);
    let doc = &loaded.document;
    let pixels = ImageStore::new();
    let standing = doc.sequence_by_name("0").unwrap();
    let frames = doc.direction_frames(standing, 0);
    assert_eq!(frames.len(), 11);
    for (index, frame) in frames.iter().enumerate() {
        let mask = frame_mask(doc, frame, &pixels).expect("KFM's standing frames draw");
        let boxes = trace(&mask, &THREE);
        let (coverage, area) = coverage_and_area(&mask, &boxes);
        assert!(boxes.len() <= 3);
        assert!(coverage >= 0.95, "frame {index}: coverage {coverage}");
        assert!(area <= 1.6, "frame {index}: area {area} x opaque");
    }
}

/// The worst coverage and area ratio of three traced boxes over the frames of action 0 of each
/// corpus character (the README quotes them; run with --nocapture to see them).
#[test]
fn standing_figures_of_every_corpus_character() {
    for path in characters() {
        let (loaded, _) = open(&path);
        let doc = &loaded.document;
        let pixels = ImageStore::new();
        let standing = doc.sequence_by_name("0").unwrap();
        let (mut worst_coverage, mut worst_area) = (1.0f64, 0.0f64);
        for frame in doc.direction_frames(standing, 0) {
            let Some(mask) = frame_mask(doc, frame, &pixels) else {
                continue;
            };
            let (coverage, area) = coverage_and_area(&mask, &trace(&mask, &THREE));
            worst_coverage = worst_coverage.min(coverage);
            worst_area = worst_area.max(area);
        }
        eprintln!(
            "{}: action 0, worst frame: coverage {:.1}%, area {:.2}x the opaque area",
            path.display(),
            worst_coverage * 100.0,
            worst_area
        );
        assert!(worst_coverage >= 0.95, "{}", path.display());
    }
}

#[test]
fn trace_stays_inside_the_pictures_on_every_character_and_sprite() {
    let characters = characters();
    let mut files = characters.clone();
    files.extend(solarus_sprites());
    assert!(files.len() > 3, "{files:?}");
    let mut traced_in_all = 0;
    for path in files {
        let (loaded, _) = open(&path);
        let doc = &loaded.document;
        let pixels = ImageStore::new();
        let mut traced = 0;
        for frame in doc.frames.values() {
            let Some(mask) = frame_mask(doc, frame, &pixels) else {
                continue;
            };
            let (x0, y0) = (mask.left(), mask.top());
            let (x1, y1) = (x0 + mask.width() as i32, y0 + mask.height() as i32);
            for b in trace(&mask, &THREE) {
                assert!(
                    b.x0 >= x0 && b.y0 >= y0 && b.x1 <= x1 && b.y1 <= y1 && b.area() > 0,
                    "{}: {b:?} outside {x0},{y0}..{x1},{y1}",
                    path.display()
                );
            }
            traced += 1;
        }
        // A Solarus sprite drawn from a tileset nobody chose has no pixels to trace.
        assert!(
            traced > 0 || !characters.contains(&path),
            "{}: nothing traced",
            path.display()
        );
        traced_in_all += traced;
    }
    assert!(traced_in_all > 1000, "{traced_in_all} frames traced");
}

/// The lines of `before` and `after` between their common first and last lines.
fn changed_lines(before: &[u8], after: &[u8]) -> (Vec<String>, Vec<String>) {
    let lines = |b: &[u8]| -> Vec<String> {
        b.split(|&c| c == b'\n')
            .map(|l| String::from_utf8_lossy(l).into_owned())
            .collect()
    };
    let (a, b) = (lines(before), lines(after));
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    (
        a[prefix..a.len() - suffix].to_vec(),
        b[prefix..b.len() - suffix].to_vec(),
    )
}

#[test]
fn a_traced_and_saved_character_keeps_every_other_action_byte_for_byte() {
    for path in characters() {
        let (loaded, format) = open(&path);
        let mut doc = loaded.document;
        let pixels = ImageStore::new();
        let standing = doc.sequence_by_name("0").unwrap().clone();
        let indices: Vec<usize> = (0..standing.directions[0].frames.len()).collect();
        let frames = plan_boxes(
            &doc,
            &standing,
            0,
            &indices,
            BoxMethod::Trace(THREE),
            &pixels,
        );
        let place = PlaceBoxes {
            run: BoxRun {
                sequence: standing.id,
                direction: 0,
                rule: DefaultBoxRule::default(),
                default_boxes: format.capabilities().default_boxes,
            },
            class: BoxClass::Hurt,
            frames: frames.clone(),
            existing: ExistingBoxes::Replace,
            label: "Trace".into(),
        };
        History::new()
            .apply(&mut doc, &Selection::none(), &place, None)
            .unwrap();
        // Every frame shows exactly its traced boxes.
        let after = doc.sequence_by_name("0").unwrap();
        let shown = doc.direction_frames(after, 0);
        for (index, shapes) in &frames {
            let hurt: Vec<_> =
                sprat::model::effective_boxes(&shown, *index, DefaultBoxRule::default())
                    .into_iter()
                    .filter(|b| b.collision.class == BoxClass::Hurt)
                    .map(|b| b.collision.shape.clone())
                    .collect();
            assert_eq!(&hurt, shapes, "{}: frame {index}", path.display());
        }
        let written = format.write(&doc, &WriteContext::for_path(&path)).unwrap();
        let air = written
            .companions
            .iter()
            .find(|c| c.relative_path.to_lowercase().ends_with(".air"))
            .expect("the character's AIR is saved");
        let original = std::fs::read(path.parent().unwrap().join(&air.relative_path)).unwrap();
        let (before, after) = changed_lines(&original, &air.bytes);
        assert!(!after.is_empty(), "{}: nothing changed", path.display());
        for line in before.iter().chain(&after) {
            assert!(
                !line.to_lowercase().contains("[begin action"),
                "{}: the change reaches another action: {line}",
                path.display()
            );
        }
        // Runs of frames with the same boxes share one default, as the file's own style does.
        let text = String::from_utf8_lossy(&air.bytes).to_lowercase();
        assert!(text.contains("clsn2default") || text.contains("clsn2:"));
    }
}

#[test]
fn the_lint_gives_only_warnings_on_the_corpus_and_finds_a_planted_hit_without_hurt() {
    let mut files = characters();
    files.extend(solarus_sprites());
    for path in &files {
        let (loaded, format) = open(path);
        let pixels = ImageStore::new();
        let context = LintContext {
            pixels: Some(&pixels),
            rule: DefaultBoxRule::default(),
            default_boxes: format.capabilities().default_boxes,
            classes: BoxClasses::Known,
        };
        for d in lint_boxes(&loaded.document, &context) {
            assert_eq!(
                d.severity,
                Severity::Warning,
                "{}: {}",
                path.display(),
                d.message
            );
            assert!(d.subject.is_some());
        }
    }
    // A hit box planted on a frame with no hurt box.
    let text = "[Begin Action 7]\nClsn1: 1\n Clsn1[0] = 0, -60, 30, -40\n0,0, 0,0, 5\nClsn2: 1\n Clsn2[0] = -10, 0, 10, -70\n0,1, 0,0, 5\n";
    let dir = tempfile::tempdir().unwrap();
    let air = dir.path().join("planted.air");
    std::fs::write(&air, text).unwrap();
    let (loaded, format) = open(&air);
    let context = LintContext {
        pixels: None,
        rule: DefaultBoxRule::default(),
        default_boxes: format.capabilities().default_boxes,
        classes: BoxClasses::Known,
    };
    let warnings = lint_boxes(&loaded.document, &context);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0]
            .message
            .starts_with("sequence \"7\", direction 0, frame 0: hit boxes but no hurt box"),
        "{}",
        warnings[0].message
    );
}
