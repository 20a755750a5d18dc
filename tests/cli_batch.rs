//! `check` and `info` over several files and folders, `--json`, input that is not a sprite
//! file, images that are missing, long diagnostic lists and closed pipes: in-process, and with
//! the real binary where the process itself is what is tested.

mod common;

use common::sprat;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn demo_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo")
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// A folder with the demo (project and sheet) in it and in a subfolder, and `extra` files.
fn folder_with_demos(extra: &[(&str, &[u8])]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    for folder in [dir.path(), sub.as_path()] {
        for name in ["demo.sprat", "demo.png"] {
            std::fs::copy(demo_dir().join(name), folder.join(name)).unwrap();
        }
    }
    for (name, bytes) in extra {
        std::fs::write(dir.path().join(name), bytes).unwrap();
    }
    dir
}

/// Runs the real binary, killing it after `limit`; `None` when it had to be killed.
fn binary(args: &[&str], limit: Duration) -> Option<(i32, String, String)> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sprat"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            let output = child.wait_with_output().unwrap();
            return Some((
                output.status.code().unwrap_or(-1),
                String::from_utf8_lossy(&output.stdout).into_owned(),
                String::from_utf8_lossy(&output.stderr).into_owned(),
            ));
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn check_takes_files_and_folders_and_prints_one_summary() {
    let dir = folder_with_demos(&[("broken.sprat", b"(version: 1, set: (")]);
    let extra = dir.path().join("sub/demo.sprat");
    let (code, out, err) = sprat(&["check", text(dir.path()), text(&extra)]);
    assert_eq!(code, 1, "{out}{err}");
    // Files in name order, folders recursively, then the files named after them.
    let checked: Vec<&str> = out
        .lines()
        .filter(|l| l.contains(" errors,") || l.contains(" error,"))
        .collect();
    assert_eq!(checked.len(), 3, "{out}");
    assert!(checked[0].contains("demo.sprat"), "{out}");
    assert!(checked[1].contains("sub/demo.sprat"), "{out}");
    assert!(checked[2].contains("sub/demo.sprat"), "{out}");
    assert!(err.contains("broken.sprat"), "{err}");
    assert_eq!(
        out.lines().last().unwrap(),
        "4 files: 3 clean, 1 with errors"
    );
    // The PNG sheets in the folders are not documents: they are not checked on their own.
    assert!(!out.contains("demo.png:"), "{out}");
}

#[test]
fn a_clean_folder_exits_zero_and_a_folder_without_documents_is_an_error() {
    let dir = folder_with_demos(&[]);
    let (code, out, _) = sprat(&["check", text(dir.path())]);
    assert_eq!(code, 0, "{out}");
    assert!(out.ends_with("2 files: 2 clean\n"), "{out}");
    let empty = tempfile::tempdir().unwrap();
    std::fs::write(empty.path().join("notes.txt"), "hello").unwrap();
    let (code, _, err) = sprat(&["check", text(empty.path())]);
    assert_eq!(code, 1);
    assert!(err.contains("no file of a format Sprat reads"), "{err}");
}

#[test]
fn parallel_output_is_in_input_order() {
    let dir = folder_with_demos(&[("broken.sprat", b"(version: 1, set: (")]);
    let args = |jobs: &'static str| {
        vec![
            "check".to_string(),
            "--jobs".to_string(),
            jobs.to_string(),
            text(dir.path()).to_string(),
            text(&dir.path().join("sub")).to_string(),
            text(dir.path()).to_string(),
        ]
    };
    let one = args("1");
    let four = args("4");
    let serial = sprat(&one.iter().map(String::as_str).collect::<Vec<_>>());
    for _ in 0..5 {
        let parallel = sprat(&four.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(parallel, serial);
    }
    assert!(
        serial.1.ends_with("7 files: 5 clean, 2 with errors\n"),
        "{}",
        serial.1
    );
}

#[test]
fn check_json_is_one_document_with_every_file_and_a_summary() {
    let dir = folder_with_demos(&[("broken.sprat", b"(version: 1, set: (")]);
    let (code, out, _) = sprat(&["check", "--json", text(dir.path())]);
    assert_eq!(code, 1);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["sprat"], 2);
    assert_eq!(json["command"], "check");
    let files = json["files"].as_array().unwrap();
    assert_eq!(files.len(), 3);
    assert!(files[0]["path"].as_str().unwrap().ends_with("broken.sprat"));
    assert_eq!(files[0]["format"], serde_json::Value::Null);
    assert_eq!(files[0]["errors"], 1);
    let diagnostic = &files[0]["diagnostics"][0];
    assert_eq!(diagnostic["severity"], "error");
    assert!(diagnostic["line"].is_u64(), "{diagnostic}");
    assert_eq!(files[1]["format"]["id"], "sprat");
    assert_eq!(files[1]["errors"], 0);
    assert!(files[1].get("document").is_none());
    assert_eq!(
        json["summary"],
        serde_json::json!({"files": 3, "clean": 2, "with_warnings": 0, "with_errors": 1})
    );
}

#[test]
fn info_json_has_sequences_frames_durations_boxes_and_points() {
    let demo = demo_dir().join("demo.sprat");
    let (code, out, _) = sprat(&["info", "--json", text(&demo)]);
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let document = &json["files"][0]["document"];
    assert_eq!(document["default_sequence"], "idle");
    let sequences = document["sequences"].as_array().unwrap();
    let names: Vec<&str> = sequences
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["idle", "walk", "attack"]);
    assert_eq!(sequences[0]["default"], true);
    assert_eq!(sequences[1]["loop_point"], 2);
    assert_eq!(sequences[2]["follow_up"], "idle");
    let attack = &sequences[2]["directions"][0];
    assert_eq!(attack["frames"].as_array().unwrap().len(), 5);
    assert_eq!(attack["total"]["ms"], 420.0);
    let frame = &attack["frames"][0];
    assert!(frame["duration"]["unit"].is_string());
    assert!(frame["duration"]["ms"].is_f64());
    assert_eq!(frame["graphics"].as_array().unwrap().len(), 1);
    let hurt = frame["boxes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["class"] == "hurt")
        .unwrap();
    assert_eq!(hurt["shape"], "rect");
    assert!(hurt["width"].as_f64().unwrap() > 0.0);
    let points: Vec<&serde_json::Value> = attack["frames"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|f| f["points"].as_array().unwrap())
        .collect();
    assert!(points.iter().any(|p| p["name"] == "weapon"), "{attack}");
    assert!(sequences[0]["title"].is_null());
}

#[test]
fn info_gives_mugen_action_titles_in_text_and_json() {
    let kfm =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/mugen/kfm/kfm.def");
    let (code, out, _) = sprat(&["info", "--json", text(&kfm)]);
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let sequences = json["files"][0]["document"]["sequences"]
        .as_array()
        .unwrap();
    let standing = sequences.iter().find(|s| s["name"] == "0").unwrap();
    assert_eq!(standing["title"], "Standing Animation");
    let (code, out, _) = sprat(&["info", text(&kfm)]);
    assert_eq!(code, 0);
    assert!(
        out.contains("\n0 \"Standing Animation\" (default): "),
        "{out}"
    );
}

#[test]
fn input_no_format_recognises_is_an_error_not_an_empty_document() {
    let dir = tempfile::tempdir().unwrap();
    let noise: Vec<u8> = (0..200_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8)
        .chain(*b"\n[Whatever]\nkey = 1\n")
        .collect();
    let png = std::fs::read(demo_dir().join("demo.png")).unwrap();
    let cases: [(&str, &[u8], &str); 5] = [
        ("noise.bin", &noise, "not a file Sprat can read"),
        (
            "demo.png",
            &png,
            "not a file Sprat can read: it is a PNG image",
        ),
        (
            "empty.bin",
            b"",
            "not a file Sprat can read: the file is empty",
        ),
        // The extension names a format: its reader's refusal is what the user sees.
        ("empty.sff", b"", "not an SFF file"),
        ("noise.def", &noise, "not a M.U.G.E.N definition file"),
    ];
    for (name, bytes, expected) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        for command in ["check", "info"] {
            let (code, out, err) = sprat(&[command, text(&path)]);
            assert_eq!(code, 1, "{command} {name}: {out}{err}");
            assert!(err.contains(expected), "{command} {name}: {err}");
            assert!(!out.contains("0 errors"), "{command} {name}: {out}");
        }
    }
}

#[cfg(unix)]
#[test]
fn devices_and_folders_are_refused_without_reading_them() {
    // /dev/zero grew to 10.8 GB before it was killed.
    let (code, _, err) =
        binary(&["check", "/dev/zero"], Duration::from_secs(20)).expect("check /dev/zero must end");
    assert_eq!(code, 1);
    assert!(err.contains("not a regular file"), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("kfm.def");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("x.txt"), "x").unwrap();
    let (code, _, err) = binary(
        &["info", text(&dir.path().join("kfm.def"))],
        Duration::from_secs(20),
    )
    .expect("ends");
    assert_eq!(code, 1);
    assert!(err.contains("no file of a format"), "{err}");
}

#[test]
fn a_missing_image_is_an_error_for_check_and_render_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("demo.sprat");
    std::fs::copy(demo_dir().join("demo.sprat"), &project).unwrap();
    let (code, out, _) = sprat(&["check", text(&project)]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("demo.png"), "{out}");
    assert!(out.contains("cannot be used"), "{out}");
    // A sheet that is not an image is as missing as no sheet.
    std::fs::write(dir.path().join("demo.png"), b"\x89PNG\r\n\x1a\nbroken").unwrap();
    let (code, out, _) = sprat(&["check", text(&project)]);
    assert_eq!(code, 1, "{out}");
    std::fs::remove_file(dir.path().join("demo.png")).unwrap();
    let picture = dir.path().join("frame.png");
    let (code, out, err) = sprat(&[
        "render",
        text(&project),
        "--frame",
        "0",
        "-o",
        text(&picture),
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("demo.png"), "{err}");
    assert!(!picture.exists(), "a picture with holes was written");
}

#[test]
fn at_most_200_diagnostics_are_printed_per_file_unless_all_are_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let air = dir.path().join("many.air");
    let mut text_of_air = String::from("[Begin Action 0]\n");
    for _ in 0..500 {
        text_of_air += "0,0, 0,0, x\n";
    }
    std::fs::write(&air, &text_of_air).unwrap();
    let (_, out, _) = sprat(&["check", text(&air)]);
    let listed = out
        .lines()
        .filter(|l| l.contains("many.air:") && l.contains(": "))
        .count();
    let (_, all, _) = sprat(&["check", "--all", text(&air)]);
    let total = all.lines().filter(|l| l.starts_with(text(&air))).count() - 1;
    assert!(
        total > 200,
        "the file must have more than 200 diagnostics: {total}\n{all}"
    );
    assert!(
        out.contains(&format!("… and {} more", total - 200)),
        "{out}"
    );
    // 200 diagnostics, the "and N more" line and the file's summary line.
    assert_eq!(listed, 202, "{out}");
}

#[test]
fn a_closed_pipe_ends_the_program_quietly() {
    let dir = folder_with_demos(&[]);
    let mut args = vec!["info".to_string()];
    for _ in 0..300 {
        args.push(text(&dir.path().join("demo.sprat")).to_string());
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_sprat"))
        .args(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.contains("demo.sprat"), "{first}");
    // The reader (`head -1`) goes away; the program must notice and stop without a word.
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.is_empty(), "{stderr}");
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn a_missing_image_is_one_error_at_the_line_that_names_it() {
    // The demo as a Solarus sprite with no sheet beside it, and Pip with no body parts.
    let dir = tempfile::tempdir().unwrap();
    let sprite = dir.path().join("sprites/demo.dat");
    std::fs::create_dir_all(sprite.parent().unwrap()).unwrap();
    std::fs::write(
        &sprite,
        "animation{\n  name = \"idle\",\n  src_image = \"demo.png\",\n  frame_delay = 100,\n  directions = {\n    { x = 0, y = 0, frame_width = 32, frame_height = 32, origin_x = 16, origin_y = 30, num_frames = 2 },\n  },\n}\n",
    )
    .unwrap();
    let pip = dir.path().join("pip.properties");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/adl/mods/sprat/sprites/pip.properties"),
        &pip,
    )
    .unwrap();
    // Pip's one warning: no game assets folder above it.
    for (file, images, warnings) in [(&sprite, 1, 0), (&pip, 6, 1)] {
        let (code, out, _) = sprat(&["check", "--json", text(file)]);
        assert_eq!(code, 1, "{out}");
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        let report = &json["files"][0];
        assert_eq!(report["errors"], images, "{out}");
        assert_eq!(report["warnings"], warnings, "{out}");
    }
    let (_, out, _) = sprat(&["check", text(&sprite)]);
    assert!(
        out.contains("demo.dat:2:10: error: image 'demo.png'"),
        "{out}"
    );
}

#[cfg(unix)]
#[test]
fn a_broken_link_in_a_folder_is_checked_and_fails_not_skipped() {
    let dir = folder_with_demos(&[]);
    std::os::unix::fs::symlink(dir.path().join("gone.sprat"), dir.path().join("link.sprat"))
        .unwrap();
    let (code, out, err) = sprat(&["check", text(dir.path())]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(format!("{out}{err}").contains("link.sprat"), "{out}{err}");
    assert_eq!(
        out.lines().last().unwrap(),
        "3 files: 2 clean, 1 with errors"
    );
}

#[test]
fn an_empty_solarus_sprite_is_not_clean() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("empty.dat");
    std::fs::write(&path, b"").unwrap();
    let (code, out, err) = sprat(&["check", text(&path)]);
    // The specification allows a sprite without animations: a warning, not an error.
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("0 errors, 1 warning"), "{out}{err}");
    assert!(out.contains("no animation"), "{out}{err}");
}

/// kfm's folder copied into a temporary one.
fn kfm_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(common::corpus().join("mugen/kfm")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
    }
    dir
}

#[test]
fn a_def_cut_before_its_files_section_is_an_error() {
    let dir = kfm_copy();
    let def = std::fs::read(dir.path().join("kfm.def")).unwrap();
    let cut = dir.path().join("cut.def");
    std::fs::write(&cut, &def[..118]).unwrap();
    let (code, out, err) = sprat(&["check", text(&cut)]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("no [Files] section"), "{out}{err}");
    // The whole file is clean.
    let (code, out, err) = sprat(&["check", text(&dir.path().join("kfm.def"))]);
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn two_defs_naming_each_other_as_their_air_are_an_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.def"), "[Files]\nanim = b.def\n").unwrap();
    std::fs::write(dir.path().join("b.def"), "[Files]\nanim = a.def\n").unwrap();
    let (code, out, err) = sprat(&["check", text(&dir.path().join("a.def"))]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("the animation file b.def is a .def file"),
        "{out}{err}"
    );
    // A [Files] section naming no animation file at all is a warning.
    std::fs::write(dir.path().join("c.def"), "[Files]\nsprite = c.sff\n").unwrap();
    let (_, out, err) = sprat(&["check", text(&dir.path().join("c.def"))]);
    assert!(out.contains("names no animation file"), "{out}{err}");
}
