//! Every frame of an Aseprite JSON sheet is in some sequence: frames no tag covers are grouped
//! by the name Aseprite gave them (`{title} {frame}`, `{title} ({layer}) {frame}`), one
//! sequence per source file or layer.

use image::RgbaImage;
use sprat::formats::{ReadContext, registry};
use sprat::model::AnimationSet;

/// A sheet of 4x4 frames in a row, named `names`, with `tags` (JSON objects).
fn sheet(names: &[&str], tags: &str) -> String {
    let frames: Vec<String> = names
        .iter()
        .enumerate()
        .map(|(n, name)| {
            format!(
                r#"{{ "filename": "{name}", "frame": {{ "x": {}, "y": 0, "w": 4, "h": 4 }}, "rotated": false, "trimmed": false, "spriteSourceSize": {{ "x": 0, "y": 0, "w": 4, "h": 4 }}, "sourceSize": {{ "w": 4, "h": 4 }}, "duration": 100 }}"#,
                n * 4
            )
        })
        .collect();
    format!(
        r#"{{ "frames": [{}], "meta": {{ "app": "https://www.aseprite.org/", "image": "pack.png", "size": {{ "w": {}, "h": 4 }}, "frameTags": [{tags}] }} }}"#,
        frames.join(","),
        names.len() * 4
    )
}

fn open(json: &str, frames: usize) -> AnimationSet {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pack.json");
    std::fs::write(&path, json).unwrap();
    RgbaImage::new(frames as u32 * 4, 4)
        .save(dir.path().join("pack.png"))
        .unwrap();
    let (loaded, _) = registry()
        .open(&path, &ReadContext::for_path(&path))
        .unwrap_or_else(|e| panic!("{:?}", e.diagnostics));
    loaded.document
}

/// Each sequence's name and its frames' positions in the sheet.
fn sequences(document: &AnimationSet) -> Vec<(String, Vec<usize>)> {
    document
        .sequences()
        .iter()
        .map(|s| {
            let frames = s.directions[0]
                .frames
                .iter()
                .map(|id| document.frames.get_index_of(id).unwrap())
                .collect();
            (s.name.clone(), frames)
        })
        .collect()
}

#[test]
fn untagged_frames_of_a_packed_sheet_group_by_source_file() {
    let names = [
        "hero 0.aseprite",
        "hero 1.aseprite",
        "coin 0.aseprite",
        "coin 1.aseprite",
        "coin 2.aseprite",
        "door.aseprite",
    ];
    let tags = r#"{ "name": "walk", "from": 0, "to": 1, "direction": "forward" }"#;
    let document = open(&sheet(&names, tags), names.len());
    let found = sequences(&document);
    let expected = [
        ("walk".to_string(), vec![0, 1]),
        ("coin".to_string(), vec![2, 3, 4]),
        ("pack".to_string(), vec![5]),
    ];
    assert_eq!(found, expected);
}

#[test]
fn split_layers_give_one_sequence_per_layer() {
    let names = [
        "hero (Body) 0.aseprite",
        "hero (Body) 1.aseprite",
        "hero (Shadow) 0.aseprite",
        "hero (Shadow) 1.aseprite",
    ];
    let document = open(&sheet(&names, ""), names.len());
    let found = sequences(&document);
    let expected = [
        ("hero (Body)".to_string(), vec![0, 1]),
        ("hero (Shadow)".to_string(), vec![2, 3]),
    ];
    assert_eq!(found, expected);
    // Every frame of the sheet is played by some sequence.
    let played: usize = found.iter().map(|(_, f)| f.len()).sum();
    assert_eq!(played, document.frames.len());
}

#[test]
fn a_sheet_of_one_source_without_tags_stays_one_sequence() {
    let names = ["hero 0.aseprite", "hero 1.aseprite"];
    let document = open(&sheet(&names, ""), names.len());
    assert_eq!(sequences(&document), [("pack".to_string(), vec![0, 1])]);
}
