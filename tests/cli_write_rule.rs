//! The one rule every command that writes follows (`convert`, `render`, `boxes`, `retime`,
//! `cut`, `align`): an existing output needs `--force`; a file the document reads is never
//! written by a write of another kind; only regular files are written; a read-only file is
//! replaced only with `--force` and keeps its mode and owner; input with errors exits 1 with
//! nothing written unless `--allow-errors`. Run in-process on copies of KFM and the demo.

mod common;

use common::sprat;
use std::fs;
use std::path::{Path, PathBuf};

/// Bytes of KFM's archive kept by the damaged copy: the index reads, 190 sprites do not.
const DAMAGED_SFF_BYTES: usize = 54001;

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// KFM's `.def`, `.air` and `.sff` copied, writable, into `dir`; the `.def`'s path.
fn kfm(dir: &Path) -> PathBuf {
    let source = common::corpus().join("mugen/kfm");
    for name in ["kfm.def", "kfm.air", "kfm.sff"] {
        common::copy_writable(&source.join(name), &dir.join(name));
    }
    dir.join("kfm.def")
}

/// KFM whose archive was cut short (as a failed download leaves it); the `.def`'s path.
fn damaged_kfm(dir: &Path) -> PathBuf {
    let def = kfm(dir);
    let sff = fs::read(dir.join("kfm.sff")).unwrap();
    fs::write(dir.join("kfm.sff"), &sff[..DAMAGED_SFF_BYTES]).unwrap();
    def
}

/// The bundled demo project and its sheet copied into `dir`; the project's path.
fn demo(dir: &Path) -> PathBuf {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo");
    for name in ["demo.sprat", "demo.png"] {
        common::copy_writable(&source.join(name), &dir.join(name));
    }
    dir.join("demo.sprat")
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(made.success());
}

#[cfg(unix)]
fn is_fifo(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_fifo())
}

fn set_read_only(path: &Path) {
    let mut permissions = fs::metadata(path).unwrap().permissions();
    permissions.set_readonly(true);
    fs::set_permissions(path, permissions).unwrap();
}

/// Every file name in `dir`, sorted.
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn render_refuses_an_existing_output_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let project = demo(dir.path());
    let out = dir.path().join("frame.png");
    fs::write(&out, "keep me").unwrap();
    let render = |force: bool| {
        let mut args = vec!["render", text(&project), "--frame", "0", "-o", text(&out)];
        if force {
            args.push("--force");
        }
        sprat(&args)
    };
    let (code, stdout, err) = render(false);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("exists; add --force"), "{err}");
    assert!(!stdout.contains("wrote"), "{stdout}");
    assert_eq!(fs::read_to_string(&out).unwrap(), "keep me");
    let (code, _, err) = render(true);
    assert_eq!(code, 0, "{err}");
    assert!(image::open(&out).is_ok(), "a PNG replaced it");
}

#[test]
fn render_never_writes_over_a_file_the_character_reads() {
    let dir = tempfile::tempdir().unwrap();
    let def = kfm(dir.path());
    for name in ["kfm.sff", "kfm.air", "kfm.def"] {
        let target = dir.path().join(name);
        let before = fs::read(&target).unwrap();
        let (code, stdout, err) = sprat(&[
            "render",
            text(&def),
            "--frame",
            "0",
            "--force",
            "-o",
            text(&target),
        ]);
        assert_eq!(code, 2, "{name}: {err}");
        assert!(err.contains("a file the document reads"), "{name}: {err}");
        assert!(!stdout.contains("wrote"), "{name}: {stdout}");
        assert_eq!(fs::read(&target).unwrap(), before, "{name} is untouched");
    }
}

#[test]
fn a_gif_is_never_written_over_the_project_or_its_sheet() {
    let dir = tempfile::tempdir().unwrap();
    let project = demo(dir.path());
    for name in ["demo.sprat", "demo.png"] {
        let target = dir.path().join(name);
        let before = fs::read(&target).unwrap();
        let (code, _, err) = sprat(&[
            "render",
            text(&project),
            "--gif",
            "--force",
            "-o",
            text(&target),
        ]);
        assert_eq!(code, 2, "{name}: {err}");
        assert_eq!(fs::read(&target).unwrap(), before, "{name} is untouched");
    }
}

#[test]
fn a_conversion_never_writes_over_the_archive_it_reads() {
    // The `.air` written as the character's own `.sff`: another kind of file over one the
    // document reads, refused with --force too.
    let dir = tempfile::tempdir().unwrap();
    let def = kfm(dir.path());
    let sff = dir.path().join("kfm.sff");
    let before = fs::read(&sff).unwrap();
    let (code, _, err) = sprat(&[
        "convert",
        text(&def),
        text(&sff),
        "--to",
        "mugen-air",
        "--force",
        "--allow-loss",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("a file the document reads"), "{err}");
    assert_eq!(fs::read(&sff).unwrap(), before);
}

#[cfg(unix)]
#[test]
fn a_named_pipe_is_never_replaced_by_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let def = kfm(dir.path());
    let pipe = dir.path().join("node");
    mkfifo(&pipe);
    let (code, stdout, err) = sprat(&[
        "convert",
        text(&dir.path().join("kfm.air")),
        text(&pipe),
        "--to",
        "mugen-air",
        "--force",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("named pipe"), "{err}");
    assert!(!stdout.contains("wrote"), "{stdout}");
    assert!(is_fifo(&pipe), "the pipe is still a pipe");
    let (code, _, err) = sprat(&[
        "render",
        text(&def),
        "--frame",
        "0",
        "--force",
        "-o",
        text(&pipe),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("only regular files are written"), "{err}");
    assert!(is_fifo(&pipe), "the pipe is still a pipe");
}

#[test]
fn a_folder_in_the_way_is_refused_with_a_sentence() {
    let dir = tempfile::tempdir().unwrap();
    let project = demo(dir.path());
    let folder = dir.path().join("frame.png");
    fs::create_dir(&folder).unwrap();
    let (code, _, err) = sprat(&[
        "render",
        text(&project),
        "--frame",
        "0",
        "--force",
        "-o",
        text(&folder),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is a folder"), "{err}");
    assert!(folder.is_dir());
}

#[test]
fn render_errors_name_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let project = demo(dir.path());
    // A file where the output's folder should be.
    let file = dir.path().join("notes");
    fs::write(&file, "a file").unwrap();
    let out = file.join("frame.png");
    let (code, _, err) = sprat(&["render", text(&project), "--frame", "0", "-o", text(&out)]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains(text(&out)), "the output is named: {err}");
    assert!(err.contains("is a file, not a folder"), "{err}");
}

#[cfg(unix)]
#[test]
fn a_read_only_output_is_replaced_only_with_force_and_keeps_its_mode() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    kfm(dir.path());
    let air = dir.path().join("kfm.air");
    let out = dir.path().join("copy.air");
    fs::write(&out, "an older copy").unwrap();
    set_read_only(&out);
    let convert = |force: bool| {
        let mut args = vec!["convert", text(&air), text(&out)];
        if force {
            args.push("--force");
        }
        sprat(&args)
    };
    let (code, _, err) = convert(false);
    assert_eq!(code, 2, "{err}");
    assert_eq!(fs::read_to_string(&out).unwrap(), "an older copy");
    let (code, _, err) = convert(true);
    assert_eq!(code, 0, "{err}");
    assert_eq!(fs::read(&out).unwrap(), fs::read(&air).unwrap());
    let mode = fs::metadata(&out).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o444, "still read-only: {mode:o}");
}

#[cfg(unix)]
#[test]
fn a_replaced_file_keeps_its_owner_and_group() {
    use std::os::unix::fs::MetadataExt;
    let dir = tempfile::tempdir().unwrap();
    kfm(dir.path());
    let air = dir.path().join("kfm.air");
    let out = dir.path().join("copy.air");
    fs::write(&out, "someone else's copy").unwrap();
    if std::os::unix::fs::chown(&out, Some(4321), Some(4322)).is_err() {
        // Only the administrator may give a file away; there is nothing to keep otherwise.
        return;
    }
    let (code, _, err) = sprat(&["convert", text(&air), text(&out), "--force"]);
    assert_eq!(code, 0, "{err}");
    let meta = fs::metadata(&out).unwrap();
    assert_eq!(fs::read(&out).unwrap(), fs::read(&air).unwrap());
    assert_eq!((meta.uid(), meta.gid()), (4321, 4322));
}

#[test]
fn an_in_place_edit_with_force_writes_over_its_input() {
    let dir = tempfile::tempdir().unwrap();
    let def = kfm(dir.path());
    let air = dir.path().join("kfm.air");
    let before = fs::read(&air).unwrap();
    let (code, _, err) = sprat(&[
        "retime",
        text(&def),
        "-s",
        "0",
        "--scale",
        "2",
        "-o",
        text(&def),
        "--force",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_ne!(fs::read(&air).unwrap(), before, "the .air was rewritten");
}

// Exit codes, one test per command (docs/command-line.md): 0 written, 1 input with errors or
// that cannot be used (nothing written), 2 a target refused (nothing written), 3 a lossy
// conversion without --allow-loss.

#[test]
fn convert_exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    let def = damaged_kfm(dir.path());
    let sff = dir.path().join("kfm.sff");
    let out = dir.path().join("y.aseprite");
    // The archive alone, cut short: its index reads, its sprites do not.
    let (code, stdout, err) = sprat(&["convert", text(&sff), text(&out), "--allow-loss"]);
    assert_eq!(code, 1, "{stdout}{err}");
    assert!(err.contains("has errors; nothing written"), "{err}");
    assert!(err.contains("--allow-errors"), "{err}");
    assert!(!out.exists());
    // The character whose archive it is: the same.
    let (code, _, err) = sprat(&["convert", text(&def), text(&out), "--allow-loss"]);
    assert_eq!(code, 1, "{err}");
    assert!(!out.exists());
    // Allowed: written, and what was broken is listed with what was lost.
    let (code, stdout, err) = sprat(&[
        "convert",
        text(&sff),
        text(&out),
        "--allow-loss",
        "--allow-errors",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains("broken: "), "{stdout}");
    assert!(stdout.contains("sprite 41,5"), "{stdout}");
    assert!(out.exists());
    // An existing output without --force: 2.
    let (code, _, _) = sprat(&[
        "convert",
        text(&sff),
        text(&out),
        "--allow-loss",
        "--allow-errors",
    ]);
    assert_eq!(code, 2);
    // A loss without --allow-loss: 3.
    let good = tempfile::tempdir().unwrap();
    let project = demo(good.path());
    let (code, _, err) = sprat(&[
        "convert",
        text(&project),
        text(&good.path().join("out.def")),
    ]);
    assert_eq!(code, 3, "{err}");
}

#[test]
fn render_exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    let def = damaged_kfm(dir.path());
    let out = dir.path().join("frame.png");
    let render = |extra: &[&str]| {
        let mut args = vec!["render", text(&def), "--frame", "0", "-o", text(&out)];
        args.extend_from_slice(extra);
        sprat(&args)
    };
    let (code, _, err) = render(&[]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("has errors; nothing written"), "{err}");
    assert!(!out.exists());
    let (code, stdout, err) = render(&["--allow-errors"]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains("broken: "), "{stdout}");
    assert!(out.exists());
    let (code, _, _) = render(&["--allow-errors"]);
    assert_eq!(code, 2, "an existing output without --force");
}

/// The exit codes of a command that edits a character and writes it in its own format, on a
/// KFM whose archive is damaged: 1 and nothing written on the errors, 0 with `--allow-errors`
/// (the errors listed as `broken:` lines), 2 for the output that then exists.
fn edit_exit_codes(command: &str, options: &[&str], output: &str) {
    let dir = tempfile::tempdir().unwrap();
    let def = damaged_kfm(dir.path());
    let out_dir = dir.path().join("out");
    fs::create_dir(&out_dir).unwrap();
    let out = out_dir.join(output);
    let run = |extra: &[&str]| {
        let mut args = vec![command, text(&def)];
        args.extend_from_slice(options);
        args.extend_from_slice(&["-o", text(&out)]);
        args.extend_from_slice(extra);
        sprat(&args)
    };
    let (code, _, err) = run(&[]);
    assert_eq!(code, 1, "{command}: {err}");
    assert!(
        err.contains("has errors; nothing written"),
        "{command}: {err}"
    );
    assert!(names_in(&out_dir).is_empty(), "{:?}", names_in(&out_dir));
    let (code, stdout, err) = run(&["--allow-errors"]);
    assert_eq!(code, 0, "{command}: {err}");
    assert!(stdout.contains("broken: "), "{command}: {stdout}");
    assert!(out.exists(), "{command}");
    let (code, _, _) = run(&["--allow-errors"]);
    assert_eq!(code, 2, "{command}: an existing output without --force");
}

#[test]
fn boxes_exit_codes() {
    edit_exit_codes("boxes", &["--fit", "hurt"], "boxed.def");
}

#[test]
fn retime_exit_codes() {
    edit_exit_codes("retime", &["--scale", "2"], "slow.def");
}

#[test]
fn align_exit_codes() {
    edit_exit_codes("align", &["--anchor", "feet"], "aligned.def");
}

#[test]
fn cut_exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    demo(dir.path());
    let sheet = dir.path().join("demo.png");
    let out = dir.path().join("cut.sprat");
    let cut = |sheet: &Path, force: bool| {
        let mut args = vec!["cut", text(sheet), "--grid", "16x16", "-o", text(&out)];
        if force {
            args.push("--force");
        }
        sprat(&args)
    };
    // A sheet cut short does not decode: 1, nothing written.
    let bytes = fs::read(&sheet).unwrap();
    let damaged = dir.path().join("damaged.png");
    fs::write(&damaged, &bytes[..bytes.len() / 2]).unwrap();
    let (code, _, err) = cut(&damaged, false);
    assert_eq!(code, 1, "{err}");
    assert!(!out.exists());
    let (code, _, err) = cut(&sheet, false);
    assert_eq!(code, 0, "{err}");
    let (code, _, _) = cut(&sheet, false);
    assert_eq!(code, 2, "an existing output without --force");
    let (code, _, err) = cut(&sheet, true);
    assert_eq!(code, 0, "{err}");
}
