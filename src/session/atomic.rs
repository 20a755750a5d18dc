//! Saving files so that a failure never damages what is on disk.
//!
//! Each file is written in full to a temporary file in its own folder, flushed to disk, and
//! only then renamed over the old one (a rename within a folder is atomic). The old version is
//! kept beside it as `name.ext.bak` until the next successful save. If anything fails before
//! the renames, the temporary files are removed and the old files are untouched.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A save that did not happen, in plain words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveError {
    /// What went wrong and what state things are in.
    pub message: String,
}

impl SaveError {
    /// An error with a message.
    pub fn new(message: impl Into<String>) -> SaveError {
        SaveError {
            message: message.into(),
        }
    }
}

impl std::fmt::Display for SaveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SaveError {}

/// The backup kept of `path`'s previous version: `path` with `.bak` appended.
pub fn backup_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".bak");
    path.with_file_name(name)
}

/// A short explanation of an I/O error for someone who is not a programmer.
pub fn plain_io_error(error: &io::Error) -> String {
    match error.kind() {
        io::ErrorKind::PermissionDenied => {
            "permission denied (the folder or file is read-only, or belongs to another user)"
                .to_string()
        }
        io::ErrorKind::StorageFull => "the disk is full".to_string(),
        io::ErrorKind::ReadOnlyFilesystem => "the disk is read-only".to_string(),
        io::ErrorKind::NotFound => "the folder does not exist".to_string(),
        io::ErrorKind::QuotaExceeded => "the disk quota is used up".to_string(),
        _ => error.to_string(),
    }
}

static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// A temporary name beside `path`, unique to this process and call.
fn temp_beside(path: &Path, tag: &str) -> PathBuf {
    let n = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    path.with_file_name(format!(".{name}.{tag}-{}-{n}.tmp", std::process::id()))
}

/// One file to save.
pub struct FileToSave<'a> {
    /// Where it goes.
    pub path: PathBuf,
    /// Its full content.
    pub bytes: &'a [u8],
}

/// Saves several files together: all are written to temporary files first, and only if all of
/// those succeed are they renamed into place, each keeping its previous version as a backup.
pub fn save_files(files: &[FileToSave]) -> Result<(), SaveError> {
    let mut staged: Vec<Staged> = Vec::new();
    for file in files {
        match stage(file) {
            Ok(s) => staged.push(s),
            Err(error) => {
                staged.iter().for_each(Staged::discard);
                return Err(SaveError::new(format!(
                    "Could not save \"{}\": {}. The file on disk is unchanged and your edits are still open.",
                    file.path.display(),
                    plain_io_error(&error)
                )));
            }
        }
    }
    for (i, s) in staged.iter().enumerate() {
        if let Err(error) = fs::rename(&s.temp, &s.target) {
            staged[i..].iter().for_each(Staged::discard);
            return Err(SaveError::new(format!(
                "Could not replace \"{}\": {}. Your edits are still open.",
                s.target.display(),
                plain_io_error(&error)
            )));
        }
        if let Some(backup) = &s.backup_temp {
            // The new version is in place; the old one becomes the backup. Failing here loses
            // only the backup, never the save.
            let _ = fs::rename(backup, backup_path(&s.target));
        }
    }
    Ok(())
}

/// A file written to its temporary name, with the old version linked aside.
struct Staged {
    target: PathBuf,
    temp: PathBuf,
    backup_temp: Option<PathBuf>,
}

impl Staged {
    fn discard(&self) {
        let _ = fs::remove_file(&self.temp);
        if let Some(backup) = &self.backup_temp {
            let _ = fs::remove_file(backup);
        }
    }
}

fn stage(file: &FileToSave) -> io::Result<Staged> {
    // Saving over a symbolic link saves into the file it points to and keeps the link.
    let is_link = fs::symlink_metadata(&file.path).is_ok_and(|m| m.file_type().is_symlink());
    let target = if is_link {
        fs::canonicalize(&file.path)?
    } else {
        file.path.clone()
    };
    let file = &FileToSave {
        path: target,
        bytes: file.bytes,
    };
    if let Some(dir) = file.path.parent()
        && !dir.as_os_str().is_empty()
    {
        fs::create_dir_all(dir)?;
    }
    let temp = temp_beside(&file.path, "saving");
    let result = write_synced(&temp, file.bytes).and_then(|()| {
        let old = fs::metadata(&file.path).ok();
        if let Some(old) = &old {
            // Keep the old file's permissions on the new one.
            fs::set_permissions(&temp, old.permissions())?;
        }
        let backup_temp = match old {
            Some(_) => Some(keep_old_version(&file.path)?),
            None => None,
        };
        Ok(backup_temp)
    });
    match result {
        Ok(backup_temp) => Ok(Staged {
            target: file.path.clone(),
            temp,
            backup_temp,
        }),
        Err(error) => {
            let _ = fs::remove_file(&temp);
            Err(error)
        }
    }
}

fn write_synced(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut out = OpenOptions::new().write(true).create_new(true).open(path)?;
    out.write_all(bytes)?;
    out.sync_all()
}

/// A second name for the current version of `path` (a hard link, or a copy where links are not
/// supported), so it survives the rename that replaces `path`.
fn keep_old_version(path: &Path) -> io::Result<PathBuf> {
    let aside = temp_beside(path, "previous");
    if fs::hard_link(path, &aside).is_err() {
        let bytes = fs::read(path)?;
        if let Err(error) = write_synced(&aside, &bytes) {
            let _ = fs::remove_file(&aside);
            return Err(error);
        }
    }
    Ok(aside)
}

/// Writes one file atomically without keeping a backup (recovery files).
pub fn replace_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let temp = temp_beside(path, "writing");
    let result = write_synced(&temp, bytes).and_then(|()| fs::rename(&temp, path));
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn io_errors_are_explained_plainly() {
        let full = io::Error::from(io::ErrorKind::StorageFull);
        assert_eq!(plain_io_error(&full), "the disk is full");
        let denied = io::Error::from(io::ErrorKind::PermissionDenied);
        assert!(plain_io_error(&denied).starts_with("permission denied"));
    }

    #[test]
    fn the_backup_sits_beside_the_file() {
        assert_eq!(
            backup_path(Path::new("/q/hero.anim.dat")),
            Path::new("/q/hero.anim.dat.bak")
        );
    }
}
