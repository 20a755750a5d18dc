//! The Godot 4 SpriteFrames writer: the `.tres` parses as Godot's text resource format (header,
//! `ext_resource` and `sub_resource` sections with unique ids that are all defined where they are
//! used, `load_steps` counting them), and its `animations` hold one animation per sequence
//! direction with regions on the written sheet and exact durations.

mod common;

use serde_json::Value;
use sprat::assets::ImageStore;
use sprat::formats::{ReadContext, WriteContext, Written, registry};
use sprat::model::AnimationSet;
use std::collections::HashMap;
use std::path::Path;

fn open(path: &Path) -> AnimationSet {
    registry()
        .open(path, &ReadContext::for_path(path))
        .unwrap()
        .0
        .document
}

fn write(document: &AnimationSet, dir: &Path) -> Written {
    let store = ImageStore::new();
    let context = WriteContext {
        path: Some(dir.join("hero.tres")),
        pixels: Some(&store),
    };
    registry()
        .by_id("godot-spriteframes")
        .expect("registered")
        .write(document, &context)
        .expect("writes")
}

/// An `AtlasTexture`: its sheet's ext id, region and margin.
type SubResource = (String, [i64; 4], Option<[i64; 4]>);

/// A parsed `.tres`.
struct Tres {
    load_steps: usize,
    /// id -> path
    ext: HashMap<String, String>,
    /// id -> (atlas ext id, region, margin)
    sub: HashMap<String, SubResource>,
    animations: Vec<Value>,
}

fn numbers(text: &str) -> [i64; 4] {
    let inner = text
        .trim()
        .strip_prefix("Rect2(")
        .and_then(|t| t.strip_suffix(')'))
        .expect("Rect2(...)");
    let v: Vec<i64> = inner
        .split(',')
        .map(|n| n.trim().parse().unwrap())
        .collect();
    [v[0], v[1], v[2], v[3]]
}

fn quoted(text: &str, key: &str) -> String {
    let start = text.find(&format!("{key}=\"")).expect(key) + key.len() + 2;
    let end = text[start..].find('"').unwrap() + start;
    text[start..end].to_string()
}

fn parse(text: &str) -> Tres {
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    assert!(
        header.starts_with("[gd_resource type=\"SpriteFrames\" load_steps="),
        "{header}"
    );
    assert!(header.contains(" format=3 uid=\"uid://"), "{header}");
    let uid = quoted(header, "uid");
    assert!(
        uid["uid://".len()..]
            .bytes()
            .all(|b| b.is_ascii_lowercase() && b != b'z' || (b'0'..=b'8').contains(&b))
    );
    let load_steps: usize = quoted(
        &header
            .replace("load_steps=", "load_steps=\"")
            .replace(" format", "\" format"),
        "load_steps",
    )
    .parse()
    .unwrap();
    let mut tres = Tres {
        load_steps,
        ext: HashMap::new(),
        sub: HashMap::new(),
        animations: Vec::new(),
    };
    let sections: Vec<&str> = text.split("\n\n").collect();
    for section in &sections[1..] {
        let first = section.lines().next().unwrap_or_default();
        if first.starts_with("[ext_resource") {
            assert_eq!(quoted(first, "type"), "Texture2D");
            let id = quoted(first, "id");
            assert!(
                tres.ext.insert(id, quoted(first, "path")).is_none(),
                "ids are unique"
            );
        } else if first.starts_with("[sub_resource") {
            assert_eq!(quoted(first, "type"), "AtlasTexture");
            let id = quoted(first, "id");
            assert!(id.starts_with("AtlasTexture_"));
            let mut atlas = String::new();
            let mut region = None;
            let mut margin = None;
            for line in section.lines().skip(1) {
                let (key, value) = line.split_once(" = ").unwrap();
                match key {
                    "atlas" => {
                        atlas = value
                            .trim_start_matches("ExtResource(\"")
                            .trim_end_matches("\")")
                            .to_string()
                    }
                    "region" => region = Some(numbers(value)),
                    "margin" => margin = Some(numbers(value)),
                    other => panic!("unexpected property {other}"),
                }
            }
            assert!(
                tres.ext.contains_key(&atlas),
                "atlas {atlas} is defined before use"
            );
            assert!(
                tres.sub
                    .insert(id, (atlas, region.unwrap(), margin))
                    .is_none()
            );
        } else if first == "[resource]" {
            let body = section.lines().skip(1).collect::<Vec<_>>().join("\n");
            let array = body.strip_prefix("animations = ").expect("animations");
            // Godot's syntax to JSON: StringNames and sub-resource references become strings.
            let json = array
                .replace("&\"", "\"")
                .replace("SubResource(\"", "\"")
                .replace("\")", "\"");
            tres.animations = serde_json::from_str::<Vec<Value>>(json.trim()).unwrap();
        } else if !first.is_empty() {
            panic!("unexpected section {first}");
        }
    }
    assert_eq!(tres.load_steps, tres.ext.len() + tres.sub.len() + 1);
    tres
}

/// Checks the animations against the document: names, frame counts, loop flags, and each
/// frame's time (duration / speed) equal to its exact duration.
fn check(document: &AnimationSet, written: &Written) -> usize {
    let text = String::from_utf8(written.bytes.clone()).unwrap();
    let tres = parse(&text);
    let sheets: HashMap<String, image::RgbaImage> = written
        .companions
        .iter()
        .map(|c| {
            (
                c.relative_path.clone(),
                image::load_from_memory(&c.bytes).unwrap().to_rgba8(),
            )
        })
        .collect();
    let mut runs = Vec::new();
    for s in document.sequences() {
        for d in 0..s.directions.len() {
            if s.directions[d].frames.is_empty() {
                continue;
            }
            let name = if s.directions.len() > 1 {
                format!("{}_{}", s.name, s.direction_label(d))
            } else {
                s.name.clone()
            };
            runs.push((s, d, name));
        }
    }
    assert_eq!(tres.animations.len(), runs.len());
    let mut canvas = None;
    let mut checked = 0;
    for (animation, (sequence, d, name)) in tres.animations.iter().zip(&runs) {
        assert_eq!(animation["name"], name.as_str());
        assert_eq!(animation["loop"], sequence.loop_point.is_some());
        let speed = animation["speed"].as_f64().unwrap();
        let frames = animation["frames"].as_array().unwrap();
        let model = document.direction_frames(sequence, *d);
        assert_eq!(frames.len(), model.len());
        let rate = sequence.frame_rate.or(document.frame_rate).unwrap_or(0);
        for (frame, model) in frames.iter().zip(&model) {
            let (atlas, region, margin) = &tres.sub[frame["texture"].as_str().unwrap()];
            let sheet = &sheets[tres.ext[atlas].as_str()];
            let [x, y, w, h] = *region;
            assert!(
                x >= 0 && y >= 0 && x + w <= sheet.width() as i64 && y + h <= sheet.height() as i64
            );
            let [_, _, mw, mh] = margin.unwrap_or([0; 4]);
            let size = (w + mw, h + mh);
            assert_eq!(
                *canvas.get_or_insert(size),
                size,
                "every frame is the canvas' size"
            );
            let seconds = frame["duration"].as_f64().unwrap() / speed;
            if let Some(exact) = model.duration.exact(rate) {
                let want = exact.numerator as f64 / exact.denominator as f64;
                assert!((seconds - want).abs() < 1e-9, "{name}: {seconds} vs {want}");
            }
            checked += 1;
        }
    }
    checked
}

#[test]
fn the_demo_writes_a_spriteframes_resource_godot_reads() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/demo.sprat");
    let document = open(&path);
    let dir = tempfile::tempdir().unwrap();
    let written = write(&document, dir.path());
    assert!(check(&document, &written) > 0);
    // The origin has no place in SpriteFrames: the loss says which offset to give the node.
    assert!(written.losses.iter().any(|l| l.what.contains("offset")));
}

#[test]
fn kfm_ticks_are_exact_at_60_fps() {
    let document = open(&common::corpus().join("mugen/kfm/kfm.def"));
    let dir = tempfile::tempdir().unwrap();
    let written = write(&document, dir.path());
    assert!(check(&document, &written) > 600);
    // Boxes and frames shown forever are named as losses; no tick duration is.
    assert!(
        written
            .losses
            .iter()
            .any(|l| l.what.contains("collision boxes"))
    );
    assert!(!written.losses.iter().any(|l| l.what.contains("ticks (")));
}

#[test]
fn a_godot_project_gets_res_paths() {
    let document = open(&Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/demo.sprat"));
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("project.godot"), "").unwrap();
    std::fs::create_dir_all(dir.path().join("sprites/hero")).unwrap();
    let written = write(&document, &dir.path().join("sprites/hero"));
    let text = String::from_utf8(written.bytes).unwrap();
    assert!(
        text.contains("path=\"res://sprites/hero/hero.png\""),
        "{text}"
    );
}
