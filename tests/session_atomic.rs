//! Saving several files together (a main file and its companions): all or nothing.

use sprat::session::atomic::{FileToSave, save_files};
use sprat::session::backup_path;
use std::fs;
use std::path::PathBuf;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sprat-atomic-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
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

#[test]
fn companions_are_saved_with_backups_like_the_main_file() {
    let dir = scratch("companions");
    let main = dir.join("hero.isprite");
    let sheet = dir.join("sheets").join("hero-0.png");
    save_files(&[
        FileToSave {
            path: main.clone(),
            bytes: b"v1",
        },
        FileToSave {
            path: sheet.clone(),
            bytes: b"sheet v1",
        },
    ])
    .unwrap();
    save_files(&[
        FileToSave {
            path: main.clone(),
            bytes: b"v2",
        },
        FileToSave {
            path: sheet.clone(),
            bytes: b"sheet v2",
        },
    ])
    .unwrap();
    assert_eq!(fs::read(&main).unwrap(), b"v2");
    assert_eq!(fs::read(&sheet).unwrap(), b"sheet v2");
    assert_eq!(fs::read(backup_path(&main)).unwrap(), b"v1");
    assert_eq!(fs::read(backup_path(&sheet)).unwrap(), b"sheet v1");
    assert_eq!(
        names(&dir),
        vec!["hero.isprite", "hero.isprite.bak", "sheets"]
    );
}

#[test]
fn when_one_file_cannot_be_written_none_is_replaced() {
    let dir = scratch("all-or-nothing");
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
    let dir = scratch("symlink");
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
    assert_eq!(fs::read(backup_path(&real)).unwrap(), b"old");
}
