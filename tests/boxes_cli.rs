//! `sprat boxes`, the box lint in `sprat check`, and the effective boxes of `info --json`.

mod common;

use common::sprat;
use std::path::Path;

fn text(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn kfm() -> std::path::PathBuf {
    common::corpus().join("mugen/kfm/kfm.def")
}

/// A copy of KFM's files in a temporary folder (so its output can sit beside its SFF).
fn kfm_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for name in ["kfm.def", "kfm.air", "kfm.sff", "kfm.act"] {
        let from = common::corpus().join("mugen/kfm").join(name);
        if from.exists() {
            std::fs::copy(&from, dir.path().join(name)).unwrap();
        }
    }
    dir
}

/// A new folder in `dir` for the output: written beside the input, its `.air` would replace
/// the input's own, which the command refuses.
fn out_folder(dir: &tempfile::TempDir) -> std::path::PathBuf {
    let out = dir.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    out
}

#[test]
fn trace_gives_a_whole_action_hurt_boxes_in_one_command() {
    let dir = kfm_copy();
    let out = out_folder(&dir).join("traced.def");
    let (code, stdout, stderr) = sprat(&[
        "boxes",
        text(&dir.path().join("kfm.def")),
        "--trace",
        "hurt",
        "--sequence",
        "0",
        "--replace",
        "-o",
        text(&out),
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains("11 frames got hurt (Clsn2) boxes"),
        "{stdout}"
    );
    let (code, json, _) = sprat(&["info", "--json", text(&out)]);
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    let actions = json["files"][0]["document"]["sequences"]
        .as_array()
        .unwrap();
    let standing = actions.iter().find(|s| s["name"] == "0").unwrap();
    for frame in standing["directions"][0]["frames"].as_array().unwrap() {
        let hurt = frame["boxes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|b| b["class"] == "hurt")
            .count();
        assert!((1..=3).contains(&hurt), "{frame}");
    }
}

#[test]
fn without_replace_frames_that_have_boxes_are_left_alone() {
    let dir = kfm_copy();
    let out = out_folder(&dir).join("fitted.def");
    let (code, stdout, stderr) = sprat(&[
        "boxes",
        text(&dir.path().join("kfm.def")),
        "--fit",
        "hurt",
        "-s",
        "0",
        "-o",
        text(&out),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("0 frames got"), "{stdout}");
    assert!(stdout.contains("11 frames already had some"), "{stdout}");
}

#[test]
fn bad_input_is_refused_by_name_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let out = out_folder(&dir).join("out.def");
    let (code, _, err) = sprat(&[
        "boxes",
        text(&kfm()),
        "--fit",
        "hurt",
        "-s",
        "nosuch",
        "-o",
        text(&out),
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("no sequence named \"nosuch\""), "{err}");
    assert!(!out.exists());

    let adl = common::files_with_extensions(&common::corpus().join("adl"), &["properties"]);
    let adl_out = dir.path().join("out.properties");
    // (The corpus leaves out its body-part images: errors, allowed here to reach the format.)
    let (code, _, err) = sprat(&[
        "boxes",
        text(&adl[0]),
        "--trace",
        "hurt",
        "--allow-errors",
        "-o",
        text(&adl_out),
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("cannot hold collision boxes"), "{err}");
    assert!(!adl_out.exists());

    // The SFF is missing: the pictures cannot be read.
    let lone = dir.path().join("kfm.def");
    std::fs::copy(kfm(), &lone).unwrap();
    std::fs::copy(
        common::corpus().join("mugen/kfm/kfm.air"),
        dir.path().join("kfm.air"),
    )
    .unwrap();
    let lone_out = dir.path().join("lone.def");
    let (code, _, err) = sprat(&[
        "boxes",
        text(&lone),
        "--trace",
        "hurt",
        "-o",
        text(&lone_out),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("nothing written"), "{err}");
    assert!(!lone_out.exists());

    // Never over the input without --force.
    let before = std::fs::read(&lone).unwrap();
    let (code, _, err) = sprat(&["boxes", text(&lone), "--fit", "hurt", "-o", text(&lone)]);
    assert_eq!(code, 2);
    assert!(err.contains("--force"), "{err}");
    assert_eq!(std::fs::read(&lone).unwrap(), before);
}

#[test]
fn info_json_lists_inherited_default_boxes_on_every_frame() {
    let (code, json, _) = sprat(&["info", "--json", text(&kfm())]);
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["sprat"], 2);
    let actions = json["files"][0]["document"]["sequences"]
        .as_array()
        .unwrap();
    let standing = actions.iter().find(|s| s["name"] == "0").unwrap();
    let frames = standing["directions"][0]["frames"].as_array().unwrap();
    let first = frames[0]["boxes"].as_array().unwrap();
    assert!(!first.is_empty());
    assert!(first.iter().all(|b| b["inherited"] == false));
    for frame in &frames[1..] {
        let boxes = frame["boxes"].as_array().unwrap();
        assert_eq!(boxes.len(), first.len(), "{frame}");
        assert!(boxes.iter().all(|b| b["inherited"] == true), "{frame}");
    }
}

#[test]
fn check_warns_about_a_hit_box_without_a_hurt_box() {
    let dir = tempfile::tempdir().unwrap();
    let air = dir.path().join("planted.air");
    std::fs::write(
        &air,
        "[Begin Action 7]\nClsn1: 1\n Clsn1[0] = 0, -60, 30, -40\n0,0, 0,0, 5\n",
    )
    .unwrap();
    let (code, out, _) = sprat(&["check", text(&air)]);
    assert_eq!(code, 0, "warnings only");
    assert!(
        out.contains("warning: sequence \"7\", direction 0, frame 0: hit boxes but no hurt box"),
        "{out}"
    );
}
