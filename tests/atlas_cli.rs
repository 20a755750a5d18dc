//! The command line drives the atlas formats and the APNG export with their defaults:
//! `sprat convert FILE OUT.json --to aseprite-json`, `... OUT.tres --to godot-spriteframes`
//! (both write their sheet beside the file) and `sprat render FILE --apng -o OUT.png`.

mod common;

use common::sprat;

use std::path::{Path, PathBuf};

fn demo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/demo.sprat")
}

#[test]
fn convert_writes_an_atlas_and_its_sheet_that_open_again() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("fish.json");
    let demo = demo();
    let args = ["convert", demo.to_str().unwrap(), out.to_str().unwrap()];
    let (code, _, err) = sprat(&[&args[..], &["--to", "aseprite-json", "--allow-loss"]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(dir.path().join("fish.png").is_file());
    // The extension alone picks the format too, and the file reads back.
    let (code, info, err) = sprat(&["info", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(info.contains("3 sequences"), "{info}");
}

#[test]
fn convert_writes_godot_spriteframes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("fish.tres");
    let demo = demo();
    let (code, _, err) = sprat(&[
        "convert",
        demo.to_str().unwrap(),
        out.to_str().unwrap(),
        "--allow-loss",
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.starts_with("[gd_resource type=\"SpriteFrames\""),
        "{text}"
    );
    assert!(dir.path().join("fish.png").is_file());
}

#[test]
fn render_apng_writes_an_animated_png() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("idle.png");
    let demo = demo();
    let (code, _, err) = sprat(&[
        "render",
        demo.to_str().unwrap(),
        "--apng",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&out).unwrap()));
    let reader = decoder.read_info().unwrap();
    assert!(reader.info().animation_control.is_some());
}
