//! Files the session tests make that a plain write cannot: read-only files and named pipes.

use std::fs;
use std::path::{Path, PathBuf};

/// A file `name` in `folder` holding `text`, without write permission; its path.
pub fn read_only_file_in(folder: &Path, name: &str, text: &str) -> PathBuf {
    let file = folder.join(name);
    fs::write(&file, text).unwrap();
    let mut permissions = fs::metadata(&file).unwrap().permissions();
    permissions.set_readonly(true);
    fs::set_permissions(&file, permissions).unwrap();
    file
}

/// A named pipe `name` made in `folder`; its path.
#[cfg(unix)]
pub fn named_pipe_in(folder: &Path, name: &str) -> PathBuf {
    let pipe = folder.join(name);
    let made = std::process::Command::new("mkfifo")
        .arg(&pipe)
        .status()
        .unwrap();
    assert!(made.success());
    pipe
}
