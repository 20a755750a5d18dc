//! Saving files so that a failure never damages what is on disk.
//!
//! Each file is written in full to a temporary file in its own folder, flushed to disk, and
//! only then renamed over the old one (a rename within a folder is atomic). A file whose bytes
//! would not change is not written at all (its modification time stays). The old version is
//! kept aside until every file is in place, then goes to the sink for old versions when one is
//! given (the backup store, in Sprat's own data folder; never beside the files) or is dropped. If
//! anything fails before the renames, the temporary files are removed and the old files are
//! untouched; if a rename fails part way, the files already renamed are put back. Then the
//! folders are flushed, so a power cut cannot bring the old names back. Temporary files a
//! killed save left behind are removed by the next save of the same file (and when the editor
//! opens it).

use super::target::{Refused, WriteRule, check_target, keep_owner};
use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A save that did not happen, in plain words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveError {
    /// What went wrong and what state things are in.
    pub message: String,
    /// Set when the write rule ([`super::target`]) refused a file before anything was
    /// written: which file and why, so the caller can ask the user and try again.
    pub refused: Option<Refused>,
    /// The files another program changed since the document read them (or this session last
    /// saved them), when that stopped the save before anything was written; empty otherwise.
    /// The caller asks the user (reload, or save anyway) and tries again.
    pub changed_outside: Vec<PathBuf>,
}

impl SaveError {
    /// An error with a message.
    pub fn new(message: impl Into<String>) -> SaveError {
        SaveError {
            message: message.into(),
            refused: None,
            changed_outside: Vec::new(),
        }
    }

    /// The error for a file the write rule refused; nothing was written.
    pub fn refused(refused: Refused) -> SaveError {
        SaveError {
            message: format!("Not saved: {refused}. Nothing was written."),
            refused: Some(refused),
            changed_outside: Vec::new(),
        }
    }

    /// The error for files another program changed since they were read: nothing was written.
    pub fn changed_outside(paths: Vec<PathBuf>) -> SaveError {
        let names: Vec<String> = paths
            .iter()
            .map(|p| format!("\"{}\"", p.display()))
            .collect();
        let (names, were, them) = match names.as_slice() {
            [rest @ .., last] if !rest.is_empty() => {
                (format!("{} and {last}", rest.join(", ")), "were", "them")
            }
            _ => (names.concat(), "was", "it"),
        };
        SaveError {
            message: format!(
                "{names} {were} changed by another program since Sprat read {them}; saving would replace that change. Nothing was written."
            ),
            refused: None,
            changed_outside: paths,
        }
    }
}

impl std::fmt::Display for SaveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SaveError {}

/// A short explanation of an I/O error for someone who is not a programmer.
pub fn plain_io_error(error: &io::Error) -> String {
    // Windows refuses to replace or write a file another program holds open
    // (ERROR_SHARING_VIOLATION, ERROR_LOCK_VIOLATION), or says "access denied" for it.
    #[cfg(windows)]
    if matches!(error.raw_os_error(), Some(32 | 33)) {
        return "another program has the file open (close it there, then save again)".to_string();
    }
    match error.kind() {
        #[cfg(windows)]
        io::ErrorKind::PermissionDenied => "permission denied (the folder or file is read-only, \
            belongs to another user, or another program has it open)"
            .to_string(),
        #[cfg(not(windows))]
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

/// Where a save hands the versions it replaces (the backup store): the save decides when a
/// version is replaced, the sink how it is kept. The store uses the save to restore a version,
/// so the save names no store.
pub trait OldVersionSink {
    /// Keeps `previous`, a file holding the version of `file` a save just replaced (the save
    /// removes `previous` afterwards if it is still there).
    fn keep_old_version(&self, file: &Path, previous: &Path) -> io::Result<()>;
    /// Where the versions go, for the log when one cannot be kept.
    fn place(&self) -> &Path;
}

/// One file to save.
pub struct FileToSave<'a> {
    /// Where it goes.
    pub path: PathBuf,
    /// Its full content.
    pub bytes: &'a [u8],
}

/// Saves several files together under the rule of a save ([`WriteRule::save`]: existing files
/// are replaced, files without write bits and anything but regular files are refused): all are
/// written to temporary files first, and only if all of those succeed are they renamed into
/// place. A file whose bytes on disk are already these is
/// left alone. If a rename fails part way, the files already renamed are put back as they
/// were, so the folder never holds a mix of old and new files. Stale temporary files a killed
/// save left beside these files are removed first. No backup is kept (see
/// [`save_files_with_backups`]).
/// Hands back the paths it wrote, in the order given: the others already held their bytes.
pub fn save_files(files: &[FileToSave]) -> Result<Vec<PathBuf>, SaveError> {
    save_files_with_backups(files, None)
}

/// [`save_files`], keeping each replaced version in `backups` when given.
pub fn save_files_with_backups(
    files: &[FileToSave],
    backups: Option<&dyn OldVersionSink>,
) -> Result<Vec<PathBuf>, SaveError> {
    save_files_with_rule(files, backups, &WriteRule::save())
}

/// [`save_files_with_backups`] under another write rule (the command line's `--force`, a
/// read-only file the user chose to replace, the files a document reads spared). A file that
/// already holds its bytes is not written, so the rule does not look at it; any other file the
/// rule refuses stops the save before anything is written, the reason in
/// [`SaveError::refused`].
pub fn save_files_with_rule(
    files: &[FileToSave],
    backups: Option<&dyn OldVersionSink>,
    rule: &WriteRule,
) -> Result<Vec<PathBuf>, SaveError> {
    save_files_renaming(files, backups, rule, |from, to| fs::rename(from, to))
}

/// [`save_files_with_backups`] with the rename that puts each new file in place given, so a
/// test can make one fail part way.
fn save_files_renaming(
    files: &[FileToSave],
    backups: Option<&dyn OldVersionSink>,
    rule: &WriteRule,
    rename: impl Fn(&Path, &Path) -> io::Result<()>,
) -> Result<Vec<PathBuf>, SaveError> {
    for file in files {
        if !holds(&file.path, file.bytes) {
            check_target(&file.path, rule).map_err(SaveError::refused)?;
        }
    }
    for file in files {
        remove_stale_temporaries(&file.path);
    }
    let mut folders = CreatedFolders::default();
    let mut staged: Vec<Staged> = Vec::new();
    for file in files {
        match stage(file, &mut folders) {
            Ok(Some(s)) => staged.push(s),
            Ok(None) => {}
            Err(error) => {
                staged.iter().for_each(Staged::discard);
                folders.remove();
                return Err(SaveError::new(format!(
                    "Could not save \"{}\": {}. The file on disk is unchanged and your edits are still open.",
                    file.path.display(),
                    plain_io_error(&error)
                )));
            }
        }
    }
    for (i, s) in staged.iter().enumerate() {
        if let Err(error) = rename(&s.temp, &s.target) {
            let restored = staged[..i].iter().rev().all(Staged::put_back);
            staged[i..].iter().for_each(Staged::discard);
            if restored {
                folders.remove();
            }
            let others = match (i, restored) {
                (0, _) => String::new(),
                (_, true) => " The files saved before it were put back as they were.".to_string(),
                (_, false) => " Some files saved before it could not be put back; their previous versions are beside them as hidden .tmp files.".to_string(),
            };
            return Err(SaveError::new(format!(
                "Could not replace \"{}\": {}.{others} Your edits are still open.",
                s.target.display(),
                plain_io_error(&error)
            )));
        }
    }
    // Every new version is in place; the old ones go to the backups, or away. Failing here
    // loses only a backup, never the save.
    for s in &staged {
        let Some(previous) = &s.backup_temp else {
            continue;
        };
        if let Some(sink) = backups
            && let Err(error) = sink.keep_old_version(&s.target, previous)
        {
            log::warn!(
                "could not keep the previous version of {} in {}: {error}",
                s.target.display(),
                sink.place().display()
            );
        }
        remove_logged(previous);
    }
    sync_folders(staged.iter().map(|s| s.target.as_path()));
    Ok(staged.into_iter().map(|s| s.target).collect())
}

/// Flushes the folders' entries to disk, so that a power cut after a save cannot bring the old
/// names back. Only possible (and needed) where folders can be opened as files.
fn sync_folders<'p>(paths: impl Iterator<Item = &'p Path>) {
    let mut done: Vec<&Path> = Vec::new();
    // A bare file name's parent is the empty path: the current folder.
    let folder_of = |path: &'p Path| {
        path.parent().map(|dir| {
            if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            }
        })
    };
    for dir in paths.filter_map(folder_of) {
        if done.contains(&dir) {
            continue;
        }
        done.push(dir);
        #[cfg(unix)]
        if let Err(error) = fs::File::open(dir).and_then(|d| d.sync_all()) {
            log::warn!("could not flush the folder {}: {error}", dir.display());
        }
    }
}

/// The folders a save made for its files, so a save that fails leaves none behind (a
/// conversion that fails on a full disk must not leave an empty `images/` folder).
#[derive(Default)]
struct CreatedFolders(Vec<PathBuf>);

impl CreatedFolders {
    /// Makes `dir` and the folders above it that are missing, remembering which were made.
    fn create(&mut self, dir: &Path) -> io::Result<()> {
        let missing: Vec<&Path> = dir.ancestors().take_while(|d| !d.exists()).collect();
        // A file where a folder should be: say so, not "File exists".
        if let Some(file) = dir
            .ancestors()
            .find(|d| d.exists())
            .filter(|d| !d.as_os_str().is_empty() && !d.is_dir())
        {
            return Err(io::Error::other(format!(
                "\"{}\" is a file, not a folder",
                file.display()
            )));
        }
        fs::create_dir_all(dir)?;
        self.0
            .extend(missing.into_iter().rev().map(Path::to_path_buf));
        Ok(())
    }

    /// Removes the folders made, deepest first (each only if empty).
    fn remove(&self) {
        for dir in self.0.iter().rev() {
            if let Err(error) = fs::remove_dir(dir) {
                log::warn!("could not remove the folder {}: {error}", dir.display());
            }
        }
    }
}

/// A file written to its temporary name, with the old version linked aside.
struct Staged {
    target: PathBuf,
    temp: PathBuf,
    backup_temp: Option<PathBuf>,
}

impl Staged {
    fn discard(&self) {
        remove_logged(&self.temp);
        if let Some(backup) = &self.backup_temp {
            remove_logged(backup);
        }
    }

    /// Undoes this file's rename: the previous version goes back in place (a file that did not
    /// exist is removed). Whether that worked.
    fn put_back(&self) -> bool {
        let result = match &self.backup_temp {
            Some(previous) => fs::rename(previous, &self.target),
            None => fs::remove_file(&self.target),
        };
        match result {
            Ok(()) => true,
            Err(error) => {
                log::warn!(
                    "could not put the previous version of {} back: {error}",
                    self.target.display()
                );
                false
            }
        }
    }
}

/// Removes a file, logging a failure other than its already being gone.
fn remove_logged(path: &Path) {
    if let Err(error) = fs::remove_file(path)
        && error.kind() != io::ErrorKind::NotFound
    {
        log::warn!("could not remove {}: {error}", path.display());
    }
}

/// How old a temporary file of another process must be before it counts as stale where it
/// cannot be told whether that process still runs.
const STALE_AFTER: std::time::Duration = std::time::Duration::from_secs(60 * 60);

/// Removes the temporary files a killed save of `path` left beside it (`.NAME.saving-…`,
/// `.NAME.previous-…`, `.NAME.writing-…`): those of processes that no longer run (where the
/// system can tell; else those older than an hour). Files of this process are in use.
pub fn remove_stale_temporaries(path: &Path) {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return;
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let prefix = format!(".{}.", name.to_string_lossy());
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(pid) = file_name
            .to_str()
            .and_then(|n| n.strip_prefix(prefix.as_str()))
            .and_then(temporary_owner)
        else {
            continue;
        };
        if pid == std::process::id() || !is_stale(pid, &entry) {
            continue;
        }
        remove_logged(&entry.path());
    }
}

/// The process id in a temporary name's tail (`saving-PID-N.tmp`), if it is one of ours.
fn temporary_owner(tail: &str) -> Option<u32> {
    let rest = ["saving-", "previous-", "writing-"]
        .iter()
        .find_map(|tag| tail.strip_prefix(tag))?;
    let (pid, counter) = rest.strip_suffix(".tmp")?.split_once('-')?;
    counter.parse::<u64>().ok()?;
    pid.parse().ok()
}

fn is_stale(pid: u32, entry: &fs::DirEntry) -> bool {
    let processes = Path::new("/proc/self");
    if processes.exists() {
        return !Path::new("/proc").join(pid.to_string()).exists();
    }
    entry
        .metadata()
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .is_some_and(|age| age > STALE_AFTER)
}

/// Whether `path` already holds exactly `bytes` (its size is compared first).
fn holds(path: &Path, bytes: &[u8]) -> bool {
    fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() == bytes.len() as u64)
        && fs::read(path).is_ok_and(|on_disk| on_disk == bytes)
}

/// Writes `file` to its temporary name, with its old version linked aside; `None` when the
/// file already holds these bytes (nothing to write).
fn stage(file: &FileToSave, folders: &mut CreatedFolders) -> io::Result<Option<Staged>> {
    // Saving over a symbolic link saves into the file it points to and keeps the link.
    let is_link = fs::symlink_metadata(&file.path).is_ok_and(|m| m.file_type().is_symlink());
    let target = if is_link {
        fs::canonicalize(&file.path).map_err(|error| dangling_link(&file.path, error))?
    } else {
        file.path.clone()
    };
    let file = &FileToSave {
        path: target,
        bytes: file.bytes,
    };
    if holds(&file.path, file.bytes) {
        return Ok(None);
    }
    if let Some(dir) = file.path.parent()
        && !dir.as_os_str().is_empty()
    {
        folders.create(dir)?;
    }
    let temp = temp_beside(&file.path, "saving");
    let result = write_synced(&temp, file.bytes).and_then(|()| {
        let old = fs::metadata(&file.path).ok();
        if let Some(old) = &old {
            // Keep the old file's owner and permissions on the new one (the owner first:
            // changing it may clear mode bits).
            keep_owner(&temp, old);
            fs::set_permissions(&temp, old.permissions())?;
        }
        let backup_temp = match old {
            Some(_) => Some(keep_old_version(&file.path)?),
            None => None,
        };
        Ok(backup_temp)
    });
    match result {
        Ok(backup_temp) => Ok(Some(Staged {
            target: file.path.clone(),
            temp,
            backup_temp,
        })),
        Err(error) => {
            remove_logged(&temp);
            Err(error)
        }
    }
}

/// The error for a symbolic link whose target cannot be reached: it names the link and where
/// it points, not "the folder does not exist".
fn dangling_link(link: &Path, error: io::Error) -> io::Error {
    let points_to = fs::read_link(link)
        .map(|p| format!("\"{}\"", p.display()))
        .unwrap_or_else(|_| "a file".to_string());
    let why = if error.kind() == io::ErrorKind::NotFound {
        "which does not exist".to_string()
    } else {
        format!("which cannot be reached ({error})")
    };
    io::Error::other(format!("it is a symbolic link to {points_to}, {why}"))
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
            remove_logged(&aside);
            return Err(error);
        }
    }
    Ok(aside)
}

/// Writes one file atomically without keeping a backup (recovery files, palettes), under the
/// rule of a save: a file without write bits, a folder, a device or a pipe is refused.
pub fn replace_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    check_target(path, &WriteRule::save()).map_err(io::Error::other)?;
    let temp = temp_beside(path, "writing");
    let result = write_synced(&temp, bytes).and_then(|()| fs::rename(&temp, path));
    if result.is_err() {
        remove_logged(&temp);
    }
    result
}

/// The names of the files in `dir`, sorted: what a save left there.
#[cfg(test)]
pub(super) fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
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
    fn a_rename_failing_part_way_puts_the_files_already_renamed_back() {
        let dir = tempfile::tempdir().unwrap();
        let (def, air, sff) = (
            dir.path().join("kfm.def"),
            dir.path().join("kfm.air"),
            dir.path().join("kfm.sff"),
        );
        fs::write(&def, "old def").unwrap();
        fs::write(&air, "old air").unwrap();
        let files = [
            FileToSave {
                path: def.clone(),
                bytes: b"new def",
            },
            FileToSave {
                path: sff.clone(),
                bytes: b"new sff",
            },
            FileToSave {
                path: air.clone(),
                bytes: b"new air",
            },
        ];
        let error = save_files_renaming(&files, None, &WriteRule::save(), |from, to| {
            if to.ends_with("kfm.air") {
                Err(io::Error::from(io::ErrorKind::PermissionDenied))
            } else {
                fs::rename(from, to)
            }
        })
        .unwrap_err();
        assert!(error.message.contains("put back"), "{}", error.message);
        assert_eq!(fs::read_to_string(&def).unwrap(), "old def");
        assert_eq!(fs::read_to_string(&air).unwrap(), "old air");
        assert!(!sff.exists(), "a file the save created is removed again");
        assert_eq!(
            names_in(dir.path()),
            ["kfm.air", "kfm.def"],
            "no temporary file or backup is left"
        );
    }

    #[test]
    fn a_save_that_fails_leaves_no_folder_it_made() {
        let dir = tempfile::tempdir().unwrap();
        let sheet = dir.path().join("images/sheets/atlas.png");
        let files = [
            FileToSave {
                path: sheet.clone(),
                bytes: b"png",
            },
            FileToSave {
                path: dir.path().join("atlas.json"),
                bytes: b"json",
            },
        ];
        save_files_renaming(&files, None, &WriteRule::save(), |from, to| {
            if to.ends_with("atlas.json") {
                Err(io::Error::from(io::ErrorKind::StorageFull))
            } else {
                fs::rename(from, to)
            }
        })
        .unwrap_err();
        assert!(
            !dir.path().join("images").exists(),
            "no empty images/ folder"
        );
    }

    #[test]
    fn a_file_without_write_bits_is_refused_with_its_reason_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let air = crate::session::test_files::read_only_file_in(dir.path(), "kfm.air", "old air");
        let files = [FileToSave {
            path: air.clone(),
            bytes: b"new air",
        }];
        let error = save_files(&files).unwrap_err();
        let refused = error.refused.expect("a typed reason");
        assert_eq!(
            refused.reason,
            super::super::target::RefusalReason::ReadOnly
        );
        assert!(error.message.contains("read-only"), "{}", error.message);
        assert_eq!(fs::read_to_string(&air).unwrap(), "old air");
        // The user's word: replaced, and still without write bits.
        let rule = WriteRule {
            replace_read_only: true,
            ..WriteRule::save()
        };
        save_files_with_rule(&files, None, &rule).unwrap();
        assert_eq!(fs::read_to_string(&air).unwrap(), "new air");
        assert!(fs::metadata(&air).unwrap().permissions().readonly());
    }

    #[cfg(unix)]
    #[test]
    fn a_replaced_file_keeps_its_mode_owner_and_group() {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let dir = tempfile::tempdir().unwrap();
        let air = dir.path().join("kfm.air");
        fs::write(&air, "old air").unwrap();
        fs::set_permissions(&air, fs::Permissions::from_mode(0o640)).unwrap();
        // Only the administrator may give a file away; others keep their own files.
        let (uid, gid) = {
            let meta = fs::metadata(&air).unwrap();
            (meta.uid(), meta.gid())
        };
        let given_away = std::os::unix::fs::chown(&air, Some(4321), Some(4322)).is_ok();
        save_files(&[FileToSave {
            path: air.clone(),
            bytes: b"new air",
        }])
        .unwrap();
        let meta = fs::metadata(&air).unwrap();
        assert_eq!(fs::read_to_string(&air).unwrap(), "new air");
        assert_eq!(meta.mode() & 0o7777, 0o640);
        if given_away {
            assert_eq!((meta.uid(), meta.gid()), (4321, 4322));
        } else {
            assert_eq!((meta.uid(), meta.gid()), (uid, gid));
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_named_pipe_is_refused_and_stays_a_pipe() {
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let pipe = crate::session::test_files::named_pipe_in(dir.path(), "kfm.air");
        let error = save_files(&[FileToSave {
            path: pipe.clone(),
            bytes: b"air",
        }])
        .unwrap_err();
        assert!(error.refused.is_some(), "{}", error.message);
        assert!(fs::symlink_metadata(&pipe).unwrap().file_type().is_fifo());
        assert!(replace_file(&pipe, b"air").is_err());
        assert!(fs::symlink_metadata(&pipe).unwrap().file_type().is_fifo());
    }

    #[test]
    fn temporary_names_give_their_process() {
        assert_eq!(temporary_owner("saving-1234-7.tmp"), Some(1234));
        assert_eq!(temporary_owner("previous-99-0.tmp"), Some(99));
        assert_eq!(temporary_owner("writing-5-12.tmp"), Some(5));
        assert_eq!(temporary_owner("saving-x-1.tmp"), None);
        assert_eq!(temporary_owner("bak"), None);
        assert_eq!(temporary_owner("saving-12-1.tmp.png"), None);
    }
}
