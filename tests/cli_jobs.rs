//! The work of one file is shared out over `--jobs` threads, and what comes out does not depend
//! on how many: `check`, `info`, `render --strip/--gif`, `boxes` and `convert` print and write
//! the same bytes with one thread as with two, on KFM and on a folder of the corpus.

mod common;

use common::sprat;
use std::path::{Path, PathBuf};

fn text(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn kfm() -> PathBuf {
    common::corpus().join("mugen/kfm/kfm.def")
}

/// Runs `args` with `--jobs 1` and `--jobs 2`, and asserts both printed the same.
fn same_with_any_jobs(args: &[&str]) -> (i32, String, String) {
    let runs: Vec<(i32, String, String)> = ["1", "2"]
        .iter()
        .map(|jobs| sprat(&[args, &["--jobs", jobs]].concat()))
        .collect();
    for run in &runs[1..] {
        assert_eq!(run, &runs[0], "{args:?}: --jobs changed the output");
    }
    runs.into_iter().next().unwrap()
}

/// Runs a command writing `out_name` in a fresh folder for each `--jobs`, and asserts the
/// files written (the output and anything beside it) are byte for byte the same.
fn writes_the_same_with_any_jobs(args: impl Fn(&Path) -> Vec<String>) {
    let mut written: Option<Vec<(String, Vec<u8>)>> = None;
    for jobs in ["1", "2"] {
        let dir = tempfile::tempdir().unwrap();
        let mut argv = args(dir.path());
        argv.extend(["--jobs".to_string(), jobs.to_string()]);
        let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
        let (code, out, err) = sprat(&argv);
        assert_eq!(code, 0, "{argv:?}: {out}{err}");
        let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                (name, std::fs::read(e.path()).unwrap())
            })
            .collect();
        files.sort();
        assert!(!files.is_empty(), "{argv:?} wrote nothing");
        match &written {
            None => written = Some(files),
            Some(first) => assert!(first == &files, "{argv:?}: --jobs changed what was written"),
        }
    }
}

#[test]
fn checking_kfm_and_corpus_folders_prints_the_same_whatever_the_jobs() {
    let kfm = kfm();
    let (_, out, _) = same_with_any_jobs(&["check", text(&kfm)]);
    assert!(out.contains("kfm.def"), "{out}");
    same_with_any_jobs(&["check", "--json", "--all", text(&kfm)]);
    let folder = common::corpus().join("solarus");
    let (_, out, _) = same_with_any_jobs(&["check", text(&folder)]);
    assert!(out.lines().count() > 3, "{out}");
    same_with_any_jobs(&["info", "--json", text(&folder)]);
}

#[test]
fn rendering_kfm_writes_the_same_strip_and_gif_whatever_the_jobs() {
    let kfm = kfm();
    for what in ["--strip", "--gif"] {
        writes_the_same_with_any_jobs(|dir| {
            let out = dir.join("out.png");
            vec![
                "render".into(),
                text(&kfm).into(),
                "--sequence".into(),
                "0".into(),
                what.into(),
                "--overlay".into(),
                "-o".into(),
                text(&out).into(),
            ]
        });
    }
}

#[test]
fn boxing_and_converting_kfm_write_the_same_whatever_the_jobs() {
    let kfm = kfm();
    writes_the_same_with_any_jobs(|dir| {
        vec![
            "boxes".into(),
            text(&kfm).into(),
            "--trace".into(),
            "hurt".into(),
            "--replace".into(),
            "-o".into(),
            text(&dir.join("traced.air")).into(),
        ]
    });
    writes_the_same_with_any_jobs(|dir| {
        vec![
            "convert".into(),
            text(&kfm).into(),
            text(&dir.join("kfm.json")).into(),
            "--to".into(),
            "aseprite-json".into(),
            "--allow-loss".into(),
        ]
    });
}
