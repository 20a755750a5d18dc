//! The JSON Sprat writes follows the documented Aseprite layout (every key, in Aseprite's
//! order, with its type), identical frames are stored once, several sheets are written when
//! one is too small (each a complete atlas, the first naming the others), and an export into
//! a folder that cannot be written fails cleanly and leaves no file behind.

use serde_json::Value;
use sprat::assets::ImageStore;
use sprat::export::save_written;
use sprat::formats::atlas::{AtlasOptions, JsonForm};
use sprat::formats::atlas_json::write_atlas;
use sprat::formats::{ReadContext, registry};
use sprat::model::AnimationSet;
use std::path::Path;

fn demo() -> AnimationSet {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/demo.sprat");
    registry()
        .open(&path, &ReadContext::for_path(&path))
        .unwrap()
        .0
        .document
}

fn keys(value: &Value) -> Vec<&str> {
    value
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect()
}

fn is_rect(value: &Value, with_xy: bool) -> bool {
    let want: &[&str] = if with_xy {
        &["x", "y", "w", "h"]
    } else {
        &["w", "h"]
    };
    let object = value.as_object().unwrap();
    object.len() == want.len() && want.iter().all(|k| object[*k].is_i64())
}

/// Checks one frame object against Aseprite's documented layout.
fn check_frame(frame: &Value, array: bool) {
    let expected: &[&str] = if array {
        &[
            "filename",
            "frame",
            "rotated",
            "trimmed",
            "spriteSourceSize",
            "sourceSize",
            "duration",
        ]
    } else {
        &[
            "frame",
            "rotated",
            "trimmed",
            "spriteSourceSize",
            "sourceSize",
            "duration",
        ]
    };
    let mut got = keys(frame);
    got.sort();
    let mut want = expected.to_vec();
    want.sort();
    assert_eq!(got, want);
    assert!(is_rect(&frame["frame"], true));
    assert!(frame["rotated"].is_boolean() && frame["trimmed"].is_boolean());
    assert!(is_rect(&frame["spriteSourceSize"], true));
    assert!(is_rect(&frame["sourceSize"], false));
    assert!(frame["duration"].is_u64());
}

fn written_text(form: JsonForm) -> (String, usize) {
    let store = ImageStore::new();
    let options = AtlasOptions {
        form,
        ..AtlasOptions::default()
    };
    let written = write_atlas(&demo(), &store, Path::new("demo.json"), &options, None).unwrap();
    (
        String::from_utf8(written.bytes).unwrap(),
        written.companions.len(),
    )
}

#[test]
fn hash_and_array_json_have_every_documented_key_and_type() {
    for form in [JsonForm::Hash, JsonForm::Array] {
        let (text, companions) = written_text(form);
        assert_eq!(companions, 1, "one sheet for the demo");
        // Aseprite's key order, kept in the text.
        let order = [
            "\"frames\"",
            "\"meta\"",
            "\"app\"",
            "\"version\"",
            "\"image\"",
            "\"format\"",
            "\"size\"",
            "\"scale\"",
            "\"frameTags\"",
            "\"layers\"",
            "\"slices\"",
        ];
        let places: Vec<usize> = order.iter().map(|k| text.find(k).expect(k)).collect();
        assert!(
            places.windows(2).all(|w| w[0] < w[1]),
            "key order {places:?}"
        );
        let json: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(keys(&json), ["frames", "meta"]);
        match form {
            JsonForm::Hash => {
                let frames = json["frames"].as_object().unwrap();
                assert!(!frames.is_empty());
                frames.values().for_each(|f| check_frame(f, false));
            }
            JsonForm::Array => {
                let frames = json["frames"].as_array().unwrap();
                assert!(!frames.is_empty());
                frames.iter().for_each(|f| check_frame(f, true));
            }
        }
        let meta = &json["meta"];
        assert!(meta["app"].is_string() && meta["version"].is_string());
        assert_eq!(meta["image"], "demo.png");
        assert_eq!(meta["format"], "RGBA8888");
        assert!(is_rect(&meta["size"], false));
        assert_eq!(meta["scale"], "1");
        for tag in meta["frameTags"].as_array().unwrap() {
            assert!(tag["name"].is_string() && tag["from"].is_u64() && tag["to"].is_u64());
            assert!(tag["from"].as_u64() <= tag["to"].as_u64());
            assert_eq!(tag["direction"], "forward");
            if let Some(repeat) = tag.get("repeat") {
                assert!(repeat.as_str().unwrap().parse::<u32>().is_ok());
            }
        }
        for layer in meta["layers"].as_array().unwrap() {
            assert_eq!(keys(layer), ["blendMode", "name", "opacity"]);
        }
        let slices = meta["slices"].as_array().unwrap();
        assert_eq!(slices[0]["name"], "origin");
        for slice in slices {
            assert!(slice["name"].is_string() && slice["color"].is_string());
            for key in slice["keys"].as_array().unwrap() {
                assert!(key["frame"].is_u64());
                assert!(is_rect(&key["bounds"], true));
                if let Some(pivot) = key.get("pivot") {
                    assert!(pivot["x"].is_i64() && pivot["y"].is_i64());
                }
            }
        }
    }
}

#[test]
fn identical_frames_are_stored_once() {
    // The same frame shown twice in one sequence: one region on the sheet.
    let mut doc = demo();
    let sequence = doc.sequences()[0].id;
    let first = doc.sequence(sequence).unwrap().directions[0].frames[0];
    doc.sequence_mut(sequence).unwrap().directions[0]
        .frames
        .push(first);
    let store = ImageStore::new();
    let written = write_atlas(
        &doc,
        &store,
        Path::new("demo.json"),
        &AtlasOptions::default(),
        None,
    )
    .unwrap();
    let json: Value = serde_json::from_slice(&written.bytes).unwrap();
    let frames = json["frames"].as_object().unwrap();
    let regions: std::collections::HashSet<String> =
        frames.values().map(|f| f["frame"].to_string()).collect();
    assert!(regions.len() < frames.len());
}

#[test]
fn a_small_maximum_gives_several_complete_sheets_that_read_back() {
    let doc = demo();
    let store = ImageStore::new();
    // The smallest maximum (in steps of 8) that holds each animation on one sheet but not
    // all of them.
    let (written, max) = (64..=256)
        .step_by(8)
        .find_map(|max_sheet| {
            let options = AtlasOptions {
                max_sheet,
                padding: 2,
                extrude: 1,
                ..AtlasOptions::default()
            };
            let written = write_atlas(&doc, &store, Path::new("demo.json"), &options, None).ok()?;
            (written.companions.len() > 1).then_some((written, max_sheet))
        })
        .expect("some maximum splits the demo");
    let json: Value = serde_json::from_slice(&written.bytes).unwrap();
    let related = json["meta"]["related_multi_packs"]
        .as_array()
        .expect("several sheets");
    assert!(!related.is_empty());
    for companion in &written.companions {
        if companion.relative_path.ends_with(".png") {
            let sheet = image::load_from_memory(&companion.bytes).unwrap();
            assert!(sheet.width() <= max && sheet.height() <= max);
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("demo.json");
    save_written(&path, &written).unwrap();
    let (back, _) = registry()
        .open(&path, &ReadContext::for_path(&path))
        .unwrap();
    let names = |d: &AnimationSet| -> Vec<String> {
        d.sequences().iter().map(|s| s.name.clone()).collect()
    };
    assert_eq!(names(&back.document), names(&doc));
}

#[test]
fn an_unwritable_folder_is_a_clear_error_and_leaves_nothing() {
    let store = ImageStore::new();
    let written = write_atlas(
        &demo(),
        &store,
        Path::new("demo.json"),
        &AtlasOptions::default(),
        None,
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    // A folder that is a file cannot hold anything, whoever runs the test.
    let blocker = dir.path().join("not-a-folder");
    std::fs::write(&blocker, b"x").unwrap();
    let error = save_written(&blocker.join("demo.json"), &written).unwrap_err();
    assert!(error.contains("demo.json"), "{error}");
    // The second file fails after the first was staged: nothing stays.
    std::fs::create_dir(dir.path().join("out")).unwrap();
    std::fs::create_dir(dir.path().join("out/demo.png")).unwrap();
    let error = save_written(&dir.path().join("out/demo.json"), &written).unwrap_err();
    assert!(error.contains("demo.png"), "{error}");
    let left: Vec<_> = std::fs::read_dir(dir.path().join("out"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, vec![std::ffi::OsString::from("demo.png")], "{left:?}");
}

#[test]
fn progress_counts_frames_and_cancel_stops() {
    use sprat::formats::atlas::ExportProgress;
    use std::sync::atomic::Ordering;
    let store = ImageStore::new();
    let progress = ExportProgress::default();
    write_atlas(
        &demo(),
        &store,
        Path::new("demo.json"),
        &AtlasOptions::default(),
        Some(&progress),
    )
    .unwrap();
    let total = progress.total.load(Ordering::Relaxed);
    assert!(total > 0);
    assert_eq!(progress.done.load(Ordering::Relaxed), total);
    progress.cancel.store(true, Ordering::Relaxed);
    let error = write_atlas(
        &demo(),
        &store,
        Path::new("demo.json"),
        &AtlasOptions::default(),
        Some(&progress),
    )
    .unwrap_err();
    assert!(error.message.contains("cancelled"));
}

#[test]
fn a_write_never_overwrites_the_sheet_the_document_draws_from() {
    let store = ImageStore::new();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fish.json");
    let written = write_atlas(&demo(), &store, &path, &AtlasOptions::default(), None).unwrap();
    save_written(&path, &written).unwrap();
    let (loaded, _) = registry()
        .open(&path, &ReadContext::for_path(&path))
        .unwrap();
    let mut doc = loaded.document;
    // An edit, so the JSON is written anew rather than given back byte for byte.
    doc.sequences_mut()[0].name = "renamed".into();
    let store = ImageStore::new();
    for (format, name) in [
        ("aseprite-json", "fish.json"),
        ("godot-spriteframes", "fish.tres"),
    ] {
        let context = sprat::formats::WriteContext {
            path: Some(dir.path().join(name)),
            pixels: Some(&store),
        };
        let written = registry()
            .by_id(format)
            .unwrap()
            .write(&doc, &context)
            .unwrap();
        let sheets: Vec<&str> = written
            .companions
            .iter()
            .map(|c| c.relative_path.as_str())
            .filter(|p| p.ends_with(".png"))
            .collect();
        assert_eq!(sheets, ["fish-sheet.png"], "{format}");
    }
}
