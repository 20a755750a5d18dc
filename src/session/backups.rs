//! Previous versions of saved files, kept in Sprat's own data folder rather than beside the
//! files: a game's folders (a quest's `sprites/`, a character's folder) ship as they are, so
//! nothing Sprat keeps may land there.
//!
//! Each saved file has a folder of its own in the store, named after the file and a hash of
//! its full path, holding `file.txt` (that path) and its last few versions, oldest pruned
//! first. File > Restore backup lists them ([`BackupStore::list`]) and puts one back
//! ([`BackupStore::restore`]), which keeps the version it replaces as a backup in turn.

use super::atomic::{
    FileToSave, OldVersionSink, SaveError, plain_io_error, save_files_with_backups,
};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// Versions kept per file unless told otherwise.
pub const VERSIONS_KEPT: usize = 5;

/// The file in a file's backup folder that names the file.
const NAMES: &str = "file.txt";

/// Where previous versions of saved files are kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackupStore {
    folder: PathBuf,
    versions: usize,
}

/// One kept version of a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Backup {
    /// The file it is a previous version of.
    pub file: PathBuf,
    /// The copy in the store.
    pub path: PathBuf,
    /// When it was replaced by a save.
    pub replaced: SystemTime,
    /// Its size in bytes.
    pub size: u64,
}

static COUNTER: AtomicU64 = AtomicU64::new(0);

impl BackupStore {
    /// A store in `folder` (made on first use) keeping [`VERSIONS_KEPT`] versions per file.
    /// The editor uses the `backups` folder of its data folder.
    pub fn new(folder: impl Into<PathBuf>) -> BackupStore {
        BackupStore {
            folder: folder.into(),
            versions: VERSIONS_KEPT,
        }
    }

    /// The same store keeping `versions` versions per file (at least one).
    pub fn keeping(self, versions: usize) -> BackupStore {
        BackupStore {
            versions: versions.max(1),
            ..self
        }
    }

    /// The store's folder.
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// The folder holding the versions of `file`.
    fn folder_of(&self, file: &Path) -> PathBuf {
        let file = crate::formats::absolute(file.to_path_buf());
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let hash = fnv1a(file.as_os_str().as_encoded_bytes());
        self.folder.join(format!("{name}-{hash:016x}"))
    }

    /// Keeps `previous` (a file holding the version of `file` a save just replaced, which is
    /// moved or copied into the store) as the newest backup of `file`, and prunes the oldest
    /// beyond the number kept. Returns the backup's path.
    pub fn keep(&self, file: &Path, previous: &Path) -> io::Result<PathBuf> {
        let folder = self.folder_of(file);
        fs::create_dir_all(&folder)?;
        let names = folder.join(NAMES);
        if !names.exists() {
            let absolute = crate::formats::absolute(file.to_path_buf());
            fs::write(&names, absolute.as_os_str().as_encoded_bytes())?;
        }
        let millis = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let name = file.file_name().unwrap_or_default().to_string_lossy();
        // Zero-padded, so names sort in the order the versions were kept.
        let target = folder.join(format!("{millis:020}-{n:06}-{name}"));
        if fs::rename(previous, &target).is_err() {
            // Another disk: copied, then the original goes.
            fs::copy(previous, &target)?;
            let _ = fs::remove_file(previous);
        }
        for old in self.list(file).into_iter().skip(self.versions) {
            if let Err(error) = fs::remove_file(&old.path) {
                log::warn!(
                    "could not remove the old backup {}: {error}",
                    old.path.display()
                );
            }
        }
        Ok(target)
    }

    /// The kept versions of `file`, newest first.
    pub fn list(&self, file: &Path) -> Vec<Backup> {
        let folder = self.folder_of(file);
        let Ok(entries) = fs::read_dir(&folder) else {
            return Vec::new();
        };
        let mut backups: Vec<(String, Backup)> = entries
            .flatten()
            .filter_map(|entry| {
                let name = entry.file_name().to_string_lossy().into_owned();
                let millis: u64 = name.split('-').next()?.parse().ok()?;
                let size = entry.metadata().ok()?.len();
                let backup = Backup {
                    file: crate::formats::absolute(file.to_path_buf()),
                    path: entry.path(),
                    replaced: UNIX_EPOCH + std::time::Duration::from_millis(millis),
                    size,
                };
                Some((name, backup))
            })
            .collect();
        backups.sort_by(|a, b| b.0.cmp(&a.0));
        backups.into_iter().map(|(_, b)| b).collect()
    }

    /// Every file the store holds versions of (as `file.txt` names them), in no set order.
    pub fn files(&self) -> Vec<PathBuf> {
        let Ok(entries) = fs::read_dir(&self.folder) else {
            return Vec::new();
        };
        entries
            .flatten()
            .filter_map(|entry| fs::read(entry.path().join(NAMES)).ok())
            .filter_map(|bytes| String::from_utf8(bytes).ok().map(PathBuf::from))
            .collect()
    }

    /// Puts `backup` back in place of its file (atomically; the version it replaces is kept
    /// as a backup in turn, so a restore can be undone the same way).
    pub fn restore(&self, backup: &Backup) -> Result<(), SaveError> {
        let bytes = fs::read(&backup.path).map_err(|error| {
            SaveError::new(format!(
                "Could not read the backup \"{}\": {}. Nothing was restored.",
                backup.path.display(),
                plain_io_error(&error)
            ))
        })?;
        let file = FileToSave {
            path: backup.file.clone(),
            bytes: &bytes,
        };
        save_files_with_backups(&[file], Some(self)).map(|_| ())
    }
}

/// The 64-bit FNV-1a hash: stable from one build to the next, unlike std's hasher, so a file
/// keeps its backup folder across versions of Sprat.
pub(super) fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A save's replaced versions go into the store.
impl OldVersionSink for BackupStore {
    fn keep_old_version(&self, file: &Path, previous: &Path) -> io::Result<()> {
        self.keep(file, previous).map(|_| ())
    }

    fn place(&self) -> &Path {
        self.folder()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_would_not_change_is_not_written() {
        let dir = tempfile::tempdir().unwrap();
        let (same, other) = (dir.path().join("kfm.def"), dir.path().join("kfm.air"));
        fs::write(&same, "def").unwrap();
        fs::write(&other, "air").unwrap();
        let long_ago = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1 << 30);
        for path in [&same, &other] {
            fs::File::options()
                .write(true)
                .open(path)
                .unwrap()
                .set_modified(long_ago)
                .unwrap();
        }
        let store = BackupStore::new(dir.path().join("store"));
        let files = [
            FileToSave {
                path: same.clone(),
                bytes: b"def",
            },
            FileToSave {
                path: other.clone(),
                bytes: b"new air",
            },
        ];
        save_files_with_backups(&files, Some(&store)).unwrap();
        let modified = |p: &Path| fs::metadata(p).unwrap().modified().unwrap();
        assert_eq!(
            modified(&same),
            long_ago,
            "the unchanged file is not touched"
        );
        assert_ne!(modified(&other), long_ago);
        assert_eq!(fs::read(&other).unwrap(), b"new air");
        assert!(
            store.list(&same).is_empty(),
            "no backup of an unchanged file"
        );
        let kept = store.list(&other);
        assert_eq!(kept.len(), 1);
        assert_eq!(fs::read(&kept[0].path).unwrap(), b"air");
        assert_eq!(
            crate::session::atomic::names_in(dir.path()),
            ["kfm.air", "kfm.def", "store"],
            "nothing beside the files"
        );
    }

    /// The text of each version the store keeps of `file`, newest first.
    fn kept_texts(store: &BackupStore, file: &Path) -> Vec<String> {
        store
            .list(file)
            .iter()
            .map(|b| fs::read_to_string(&b.path).unwrap())
            .collect()
    }

    #[test]
    fn versions_are_listed_newest_first_and_the_oldest_pruned() {
        let dir = tempfile::tempdir().unwrap();
        let store = BackupStore::new(dir.path().join("backups")).keeping(2);
        let file = dir.path().join("game/hero.dat");
        for version in ["v1", "v2", "v3"] {
            let previous = dir.path().join("previous");
            fs::write(&previous, version).unwrap();
            store.keep(&file, &previous).unwrap();
            assert!(!previous.exists(), "moved into the store");
        }
        let kept = kept_texts(&store, &file);
        assert_eq!(kept, ["v3", "v2"]);
        assert_eq!(store.files(), [crate::formats::absolute(file.clone())]);
        assert!(store.list(&dir.path().join("game/other.dat")).is_empty());
    }

    #[test]
    fn restoring_keeps_the_replaced_version() {
        let dir = tempfile::tempdir().unwrap();
        let store = BackupStore::new(dir.path().join("backups"));
        let file = dir.path().join("hero.dat");
        fs::write(&file, "now").unwrap();
        let previous = dir.path().join("previous");
        fs::write(&previous, "before").unwrap();
        store.keep(&file, &previous).unwrap();
        let backup = store.list(&file).remove(0);
        store.restore(&backup).unwrap();
        assert_eq!(fs::read_to_string(&file).unwrap(), "before");
        let kept = kept_texts(&store, &file);
        assert_eq!(kept, ["now", "before"]);
    }

    #[test]
    fn the_hash_is_fnv1a() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
