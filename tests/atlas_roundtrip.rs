//! Exporting to `aseprite-json` and reading it back loses nothing the JSON holds: for the demo,
//! KFM, the Solarus hero and Pip, every frame of every sequence direction renders to the same
//! pixels, durations are the exact times rounded to milliseconds (spread over each direction so
//! totals stay exact), and the boxes in force, the points and the loop flags come back.

mod common;

use sprat::assets::ImageStore;
use sprat::export::save_written;
use sprat::formats::{ReadContext, WriteContext, registry};
use sprat::model::{
    AnimationSet, BoxClass, DefaultBoxRule, ElementKind, FrameDuration, Sequence, Shape,
};
use sprat::render::{CanvasBounds, Overlay, RenderOptions, Scene, content_bounds, render};
use std::path::{Path, PathBuf};

fn open(path: &Path) -> AnimationSet {
    let (loaded, _) = registry()
        .open(path, &ReadContext::for_path(path))
        .unwrap_or_else(|e| panic!("{}: {:?}", path.display(), e.diagnostics));
    loaded.document
}

/// Writes `document` as `name.json` in `dir` and reads it back.
fn round_trip(document: &AnimationSet, dir: &Path, name: &str) -> (AnimationSet, PathBuf) {
    let store = ImageStore::new();
    let path = dir.join(format!("{name}.json"));
    let format = registry().by_id("aseprite-json").expect("registered");
    let context = WriteContext {
        path: Some(path.clone()),
        pixels: Some(&store),
    };
    let written = format.write(document, &context).expect("writes");
    save_written(&path, &written).expect("saves");
    let back = open(&path);
    (back, path)
}

/// The sequences that have frames in every direction (an atlas tag needs at least one).
fn exported(document: &AnimationSet) -> Vec<&Sequence> {
    document
        .sequences()
        .into_iter()
        .filter(|s| s.directions.iter().all(|d| !d.frames.is_empty()))
        .collect()
}

/// Whole milliseconds of each frame: the exact end times rounded, as differences.
fn expected_millis(document: &AnimationSet, sequence: &Sequence, direction: usize) -> Vec<u32> {
    let rate = sequence.frame_rate.or(document.frame_rate).unwrap_or(0);
    let (mut num, mut den) = (0u128, 1u128);
    let mut previous = 0u128;
    let mut out = Vec::new();
    for frame in document.direction_frames(sequence, direction) {
        let Some(t) = frame.duration.exact(rate) else {
            out.push(1000);
            continue;
        };
        num = num * t.denominator as u128 + t.numerator as u128 * den;
        den *= t.denominator as u128;
        let g = gcd(num, den).max(1);
        (num, den) = (num / g, den / g);
        let end = (num * 1000 + den / 2) / den;
        out.push((end - previous) as u32);
        previous = end;
    }
    out
}

type BoxRow = (String, i64, i64, i64, i64);

fn boxes_in_force(document: &AnimationSet, sequence: &Sequence, d: usize, i: usize) -> Vec<BoxRow> {
    let scene = Scene::at(document, sequence.id, d, i, DefaultBoxRule::default()).unwrap();
    let mut rows: Vec<BoxRow> = scene
        .boxes
        .iter()
        .map(|b| {
            let class = match &b.class {
                BoxClass::Hit => "hit".to_string(),
                BoxClass::Hurt => "hurt".to_string(),
                BoxClass::Custom(c) => c.clone(),
            };
            let Shape::Rect {
                x,
                y,
                width,
                height,
                ..
            } = &b.shape
            else {
                panic!("the corpus boxes are rectangles");
            };
            let round = |v: f64| v.round() as i64;
            let (l, t) = (round(x.to_f64()), round(y.to_f64()));
            let (r, bo) = (
                round((*x + *width).to_f64()),
                round((*y + *height).to_f64()),
            );
            (class, l, t, r - l, bo - t)
        })
        .collect();
    rows.sort();
    rows
}

fn points(
    document: &AnimationSet,
    sequence: &Sequence,
    d: usize,
    i: usize,
) -> Vec<(String, i64, i64)> {
    let scene = Scene::at(document, sequence.id, d, i, DefaultBoxRule::default()).unwrap();
    let mut rows: Vec<(String, i64, i64)> = scene
        .frame
        .elements
        .iter()
        .filter_map(|e| match &e.kind {
            ElementKind::Point(p) => Some((
                if e.name.is_empty() {
                    "point".to_string()
                } else {
                    e.name.to_string()
                },
                p.position.x.to_f64().round() as i64,
                p.position.y.to_f64().round() as i64,
            )),
            _ => None,
        })
        .collect();
    rows.sort();
    rows
}

/// Checks every frame of every exported sequence; returns the number of frames compared.
fn compare(original: &AnimationSet, back: &AnimationSet) -> usize {
    let store = ImageStore::new();
    let sequences = exported(original);
    let read = back.sequences();
    assert_eq!(
        read.len(),
        sequences.len(),
        "one sequence per exported sequence"
    );
    let mut compared = 0;
    for (a, b) in sequences.iter().zip(&read) {
        assert_eq!(a.name, b.name);
        assert_eq!(a.directions.len(), b.directions.len(), "{}", a.name);
        assert_eq!(a.loop_point.is_some(), b.loop_point.is_some(), "{}", a.name);
        for d in 0..a.directions.len() {
            assert_eq!(a.direction_label(d), b.direction_label(d), "{}", a.name);
            let count = a.directions[d].frames.len();
            assert_eq!(count, b.directions[d].frames.len(), "{} {d}", a.name);
            let millis = expected_millis(original, a, d);
            assert_eq!(millis.len(), count);
            for (i, ms) in millis.iter().enumerate() {
                let sa = Scene::at(original, a.id, d, i, DefaultBoxRule::default()).unwrap();
                let sb = Scene::at(back, b.id, d, i, DefaultBoxRule::default()).unwrap();
                let ra = content_bounds(original, &sa, &store, Overlay::NONE);
                let rb = content_bounds(back, &sb, &store, Overlay::NONE);
                if let Some(rect) = sprat::render::SpriteRect::union_opt(ra, rb) {
                    let options = RenderOptions {
                        bounds: CanvasBounds::Fixed(rect),
                        ..RenderOptions::default()
                    };
                    let pa = render(original, &sa, &store, &options);
                    let pb = render(back, &sb, &store, &options);
                    assert!(
                        pa == pb,
                        "{} direction {d} frame {i}: pixels differ",
                        a.name
                    );
                }
                assert_eq!(
                    sb.frame.duration,
                    FrameDuration::Millis(*ms),
                    "{} direction {d} frame {i}",
                    a.name
                );
                assert_eq!(
                    boxes_in_force(original, a, d, i),
                    boxes_in_force(back, b, d, i),
                    "{} direction {d} frame {i}: boxes",
                    a.name
                );
                assert_eq!(
                    points(original, a, d, i),
                    points(back, b, d, i),
                    "{} direction {d} frame {i}: points",
                    a.name
                );
                compared += 1;
            }
        }
    }
    compared
}

fn check(path: &Path, name: &str) -> usize {
    let original = open(path);
    let dir = tempfile::tempdir().unwrap();
    let (back, _) = round_trip(&original, dir.path(), name);
    compare(&original, &back)
}

#[test]
fn the_demo_round_trips() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/demo.sprat");
    assert!(check(&path, "demo") > 0);
}

#[test]
fn kfm_round_trips() {
    let path = common::corpus().join("mugen/kfm/kfm.def");
    assert!(check(&path, "kfm") > 600);
}

#[test]
fn the_solarus_hero_round_trips() {
    let path = common::corpus().join("solarus/lua-1.x/zsdx/sprites/hero/tunic1.dat");
    assert!(check(&path, "tunic1") > 0);
}

#[test]
fn pip_round_trips() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/adl/mods/sprat/sprites/pip.properties");
    assert!(check(&path, "pip") > 0);
}

#[test]
fn the_loss_report_names_what_the_json_does_not_hold() {
    let path = common::corpus().join("mugen/kfm/kfm.def");
    let original = open(&path);
    let store = ImageStore::new();
    let dir = tempfile::tempdir().unwrap();
    let format = registry().by_id("aseprite-json").unwrap();
    let context = WriteContext {
        path: Some(dir.path().join("kfm.json")),
        pixels: Some(&store),
    };
    let written = format.write(&original, &context).unwrap();
    let text: Vec<String> = written.losses.iter().map(|l| l.what.clone()).collect();
    // 60 Hz ticks are not whole milliseconds, and AIR default boxes are copied per frame.
    assert!(
        text.iter().any(|t| t.contains("ticks (written as")),
        "{text:?}"
    );
    assert!(text.iter().any(|t| t.contains("default boxes")), "{text:?}");
    // Frames shown forever are named too.
    assert!(text.iter().any(|t| t.contains("shown forever")), "{text:?}");
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 { a } else { gcd(b, a % b) }
}
