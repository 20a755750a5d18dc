//! Saving several files together (a main file and its companions): all or nothing; the
//! versions they replace go to the backup store, never beside the files.

use sprat::session::BackupStore;
use sprat::session::atomic::{FileToSave, save_files, save_files_with_backups};
use std::fs;
use std::path::PathBuf;

/// A temporary folder, removed when the returned guard is dropped (even when a test fails).
fn scratch() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().to_path_buf();
    (dir, path)
}

fn names(dir: &std::path::Path) -> Vec<String> {
    let mut out: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    out.sort();
    out
}

/// The content of the newest backup of `file` in `store`.
fn newest_backup(store: &BackupStore, file: &std::path::Path) -> Vec<u8> {
    let backups = store.list(file);
    fs::read(&backups.first().expect("a backup").path).unwrap()
}

#[test]
fn companions_are_saved_with_backups_like_the_main_file() {
    let (_guard, dir) = scratch();
    let (_store_guard, data) = scratch();
    let store = BackupStore::new(data.join("backups"));
    let main = dir.join("hero.isprite");
    let sheet = dir.join("sheets").join("hero-0.png");
    for version in ["v1", "v2"] {
        let sheet_bytes = format!("sheet {version}");
        save_files_with_backups(
            &[
                FileToSave {
                    path: main.clone(),
                    bytes: version.as_bytes(),
                },
                FileToSave {
                    path: sheet.clone(),
                    bytes: sheet_bytes.as_bytes(),
                },
            ],
            Some(&store),
        )
        .unwrap();
    }
    assert_eq!(fs::read(&main).unwrap(), b"v2");
    assert_eq!(fs::read(&sheet).unwrap(), b"sheet v2");
    assert_eq!(newest_backup(&store, &main), b"v1");
    assert_eq!(newest_backup(&store, &sheet), b"sheet v1");
    assert_eq!(
        names(&dir),
        vec!["hero.isprite", "sheets"],
        "no backup beside the files"
    );
    assert_eq!(names(&dir.join("sheets")), vec!["hero-0.png"]);
}

#[test]
fn when_one_file_cannot_be_written_none_is_replaced() {
    let (_guard, dir) = scratch();
    let main = dir.join("hero.isprite");
    fs::write(&main, b"old").unwrap();
    // A companion whose folder would have to be where a plain file is: it cannot be written.
    fs::write(dir.join("blocked"), b"a file, not a folder").unwrap();
    let error = save_files(&[
        FileToSave {
            path: main.clone(),
            bytes: b"new",
        },
        FileToSave {
            path: dir.join("blocked").join("sheet.png"),
            bytes: b"pixels",
        },
    ])
    .unwrap_err();
    assert!(error.message.contains("sheet.png"), "{}", error.message);
    assert!(error.message.contains("unchanged"), "{}", error.message);
    assert_eq!(fs::read(&main).unwrap(), b"old");
    assert_eq!(
        names(&dir),
        vec!["blocked", "hero.isprite"],
        "no temporary file or backup is left"
    );
}

#[cfg(unix)]
#[test]
fn saving_over_a_symbolic_link_writes_the_file_it_points_to() {
    let (_guard, dir) = scratch();
    let real = dir.join("real.sprat");
    let link = dir.join("link.sprat");
    fs::write(&real, b"old").unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    save_files(&[FileToSave {
        path: link.clone(),
        bytes: b"new",
    }])
    .unwrap();
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(fs::read(&real).unwrap(), b"new");
    assert_eq!(
        names(&dir),
        vec!["link.sprat", "real.sprat"],
        "no backup left"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn a_save_removes_what_a_killed_save_of_the_same_file_left() {
    let (_guard, dir) = scratch();
    let file = dir.join("hero.sprat");
    fs::write(&file, b"old").unwrap();
    // No process has this id (Linux ids stop at 2^22); process 1 always runs.
    let dead = [
        ".hero.sprat.saving-999999999-0.tmp",
        ".hero.sprat.previous-999999999-1.tmp",
        ".hero.sprat.writing-999999999-2.tmp",
    ];
    let kept = [
        ".hero.sprat.saving-1-0.tmp",
        ".other.sprat.saving-999999999-0.tmp",
        ".hero.sprat.notes.tmp",
    ];
    for name in dead.iter().chain(&kept) {
        fs::write(dir.join(name), b"x").unwrap();
    }
    save_files(&[FileToSave {
        path: file.clone(),
        bytes: b"new",
    }])
    .unwrap();
    let mut expected: Vec<String> = kept.iter().map(|s| s.to_string()).collect();
    expected.push("hero.sprat".to_string());
    expected.sort();
    assert_eq!(names(&dir), expected);
}

#[cfg(unix)]
#[test]
fn saving_over_a_dangling_link_names_the_link_and_where_it_points() {
    let (_guard, dir) = scratch();
    let link = dir.join("hero.sprat");
    std::os::unix::fs::symlink(dir.join("gone/hero.sprat"), &link).unwrap();
    let error = save_files(&[FileToSave {
        path: link.clone(),
        bytes: b"new",
    }])
    .unwrap_err();
    assert!(
        error.message.contains("symbolic link to")
            && error.message.contains("gone/hero.sprat")
            && error.message.contains("does not exist"),
        "{}",
        error.message
    );
    assert!(!error.message.contains("the folder does not exist"));
}
