//! Files given without a disk (dropped on the web page): kept in memory under the paths they
//! were given with, and consulted by every read, folder listing and look-up of
//! [`super`] before the disk, so the readers find a `.def`'s `.air` and `.sff`, a Solarus
//! sprite's sheet or an atlas's PNG among them exactly as they would in a folder.
//!
//! What is held is bounded like everything Sprat reads: each file by [`MAX_FILE_BYTES`], all
//! of them together by [`MAX_PROVIDED_BYTES`], and their number by [`MAX_PROVIDED_FILES`].
//! Natively nothing is provided and every look-up goes to the disk.

use super::{MAX_FILE_BYTES, too_large};
use crate::formats::paths::normalise;
use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, RwLock, RwLockReadGuard, RwLockWriteGuard};

/// The most bytes all provided files may take together: a browser tab gets a few GiB of
/// memory at most, and a file read is copied once more while a document is made from it, so a
/// quarter of that stays for the documents, pictures and the page itself. A whole
/// high-resolution M.U.G.E.N character is under 200 MiB.
pub const MAX_PROVIDED_BYTES: u64 = 1 << 30;

/// The most files that may be provided: far above a character folder or a Solarus quest
/// (a few thousand files), small enough that listing them stays instant.
pub const MAX_PROVIDED_FILES: usize = 20_000;

/// What [`provide_files`] took and refused.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProvidedFiles {
    /// The files now provided, in the order given.
    pub accepted: Vec<PathBuf>,
    /// The files not taken, each with a plain sentence saying why (without the path).
    pub refused: Vec<(PathBuf, String)>,
}

/// Files given without a disk (dropped on the web page), consulted before the disk. A path
/// given again replaces the earlier file. A file is refused, with a sentence in
/// [`ProvidedFiles::refused`], when it is larger than [`MAX_FILE_BYTES`], when it would take
/// the files provided past [`MAX_PROVIDED_BYTES`] or [`MAX_PROVIDED_FILES`], or when its path
/// has no file name or is also the folder of another provided file.
pub fn provide_files(files: Vec<(PathBuf, Vec<u8>)>) -> ProvidedFiles {
    write_store().provide(files, &Limits::STANDARD)
}

/// Why a file of `declared_bytes` at `path` would be refused by [`provide_files`] now, before
/// it is read (a page knows a dropped file's size before reading it); `None` when it would be
/// taken.
pub fn refusal_before_reading(path: &Path, declared_bytes: u64) -> Option<String> {
    read_store().refusal(&key(path), declared_bytes, &Limits::STANDARD)
}

/// Forgets every provided file.
pub fn clear_provided_files() {
    *write_store() = Store::default();
}

/// The bounds of a store; tests use smaller ones.
#[derive(Clone, Copy, Debug)]
pub(super) struct Limits {
    /// The largest one file may be.
    pub file_bytes: u64,
    /// The most bytes all files may take together.
    pub total_bytes: u64,
    /// The most files.
    pub files: usize,
}

impl Limits {
    const STANDARD: Limits = Limits {
        file_bytes: MAX_FILE_BYTES,
        total_bytes: MAX_PROVIDED_BYTES,
        files: MAX_PROVIDED_FILES,
    };
}

/// A provided file.
#[derive(Clone, Debug)]
pub(super) struct ProvidedFile {
    /// Its bytes.
    pub bytes: Arc<Vec<u8>>,
    /// The call of [`Store::provide`] that gave it (counted from 1), so a file given again
    /// is told apart from the one it replaced even when the length is the same.
    pub round: u64,
}

/// The provided files, by path made absolute and normalised ([`key`]).
#[derive(Debug, Default)]
pub(super) struct Store {
    files: BTreeMap<PathBuf, ProvidedFile>,
    total_bytes: u64,
    rounds: u64,
}

/// The one store of the process.
static STORE: RwLock<Store> = RwLock::new(Store {
    files: BTreeMap::new(),
    total_bytes: 0,
    rounds: 0,
});

/// The store for reading. A panic while it was written leaves it consistent (every change is
/// made after its checks), so a poisoned lock is used as it is.
pub(super) fn read_store() -> RwLockReadGuard<'static, Store> {
    STORE
        .read()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn write_store() -> RwLockWriteGuard<'static, Store> {
    STORE
        .write()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The spelling of `path` the store is keyed by: absolute (as the registry makes the paths it
/// opens) with `.` and `..` folded, so `kfm/./kfm.sff` and `kfm/x/../kfm.sff` find one file.
pub(super) fn key(path: &Path) -> PathBuf {
    normalise(&crate::formats::absolute(path.to_path_buf()))
}

impl Store {
    /// Takes `files` within `limits`, in order; see [`provide_files`].
    pub(super) fn provide(
        &mut self,
        files: Vec<(PathBuf, Vec<u8>)>,
        limits: &Limits,
    ) -> ProvidedFiles {
        self.rounds += 1;
        let mut outcome = ProvidedFiles::default();
        for (path, bytes) in files {
            let key = key(&path);
            match self.refusal(&key, bytes.len() as u64, limits) {
                Some(reason) => outcome.refused.push((path, reason)),
                None => {
                    self.total_bytes += bytes.len() as u64;
                    let file = ProvidedFile {
                        bytes: Arc::new(bytes),
                        round: self.rounds,
                    };
                    if let Some(replaced) = self.files.insert(key, file) {
                        self.total_bytes -= replaced.bytes.len() as u64;
                    }
                    outcome.accepted.push(path);
                }
            }
        }
        outcome
    }

    /// Why a file of `declared_bytes` at `key` cannot be taken now; the file it would replace
    /// does not count against the limits.
    pub(super) fn refusal(
        &self,
        key: &Path,
        declared_bytes: u64,
        limits: &Limits,
    ) -> Option<String> {
        if key.file_name().is_none() {
            return Some("it has no file name".to_string());
        }
        if declared_bytes > limits.file_bytes {
            return Some(too_large(declared_bytes, limits.file_bytes));
        }
        let replaced = self.files.get(key).map(|f| f.bytes.len() as u64);
        let held_bytes = self.total_bytes - replaced.unwrap_or(0);
        if declared_bytes > limits.total_bytes - held_bytes.min(limits.total_bytes) {
            return Some(format!(
                "the files given may take {} MiB together and {} MiB are taken; this one has {} bytes",
                limits.total_bytes >> 20,
                held_bytes.div_ceil(1 << 20),
                declared_bytes
            ));
        }
        if replaced.is_none() && self.files.len() >= limits.files {
            return Some(format!(
                "at most {} files can be given and that many are held",
                limits.files
            ));
        }
        if self.is_folder(key) {
            return Some("it is the folder of other files given".to_string());
        }
        if key
            .ancestors()
            .skip(1)
            .any(|folder| self.files.contains_key(folder))
        {
            return Some("a folder on its path is a file given".to_string());
        }
        None
    }

    /// Whether nothing is provided (then every look-up goes to the disk).
    pub(super) fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The file provided at `key`.
    pub(super) fn file(&self, key: &Path) -> Option<&ProvidedFile> {
        self.files.get(key)
    }

    /// Whether some provided file lies below `key`.
    pub(super) fn is_folder(&self, key: &Path) -> bool {
        self.below(key).next().is_some()
    }

    /// The names of the files and folders directly in the folder `key`, sorted, each once.
    pub(super) fn names_in(&self, key: &Path) -> Vec<PathBuf> {
        let mut names: Vec<PathBuf> = Vec::new();
        for path in self.below(key) {
            let Ok(rest) = path.strip_prefix(key) else {
                continue;
            };
            if let Some(Component::Normal(name)) = rest.components().next()
                && names.last().is_none_or(|last| last.as_os_str() != name)
            {
                names.push(PathBuf::from(name));
            }
        }
        names
    }

    /// The provided paths strictly below `key`. Paths compare component by component, so
    /// everything below a folder sorts together right after it.
    fn below<'a>(&'a self, key: &'a Path) -> impl Iterator<Item = &'a PathBuf> + 'a {
        self.files
            .range::<Path, _>((std::ops::Bound::Excluded(key), std::ops::Bound::Unbounded))
            .map(|(path, _)| path)
            .take_while(move |path| path.starts_with(key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: Limits = Limits {
        file_bytes: 100,
        total_bytes: 250,
        files: 3,
    };

    fn given(names: &[(&str, usize)]) -> Vec<(PathBuf, Vec<u8>)> {
        names
            .iter()
            .map(|(name, len)| (PathBuf::from(name), vec![1u8; *len]))
            .collect()
    }

    #[test]
    fn a_file_larger_than_the_limit_is_refused_by_its_declared_length() {
        let store = Store::default();
        let reason = store.refusal(Path::new("/d/big.sff"), 101, &SMALL).unwrap();
        assert_eq!(reason, too_large(101, 100));
        assert!(store.refusal(Path::new("/d/ok.sff"), 100, &SMALL).is_none());
        // The standard limits refuse a 2 GB file before a byte of it is read.
        let huge = store.refusal(Path::new("/d/huge.sff"), 2_000_000_000, &Limits::STANDARD);
        assert!(huge.unwrap().contains("1024 MiB"));
    }

    #[test]
    fn files_past_the_byte_budget_or_the_count_are_refused_and_named() {
        let mut store = Store::default();
        let outcome = store.provide(
            given(&[("/d/a", 100), ("/d/b", 100), ("/d/c", 100), ("/d/e", 10)]),
            &SMALL,
        );
        assert_eq!(
            outcome.accepted,
            [PathBuf::from("/d/a"), "/d/b".into(), "/d/e".into()]
        );
        assert_eq!(outcome.refused.len(), 1);
        assert_eq!(outcome.refused[0].0, PathBuf::from("/d/c"));
        assert!(outcome.refused[0].1.contains("together"), "{outcome:?}");
        let more = store.provide(given(&[("/d/f", 1)]), &SMALL);
        assert!(more.refused[0].1.contains("at most 3 files"), "{more:?}");
        // Giving a path again replaces the file: it frees its own bytes and place.
        let again = store.provide(given(&[("/d/a", 90)]), &SMALL);
        assert_eq!(again.accepted, [PathBuf::from("/d/a")]);
        assert_eq!(store.total_bytes, 90 + 100 + 10);
        assert_eq!(store.file(Path::new("/d/a")).unwrap().round, 3);
    }

    #[test]
    fn a_path_cannot_be_both_a_file_and_a_folder() {
        let mut store = Store::default();
        store.provide(given(&[("/d/kfm/kfm.def", 1)]), &Limits::STANDARD);
        let outcome = store.provide(
            given(&[("/d/kfm", 1), ("/d/kfm/kfm.def/x", 1), ("/", 1)]),
            &Limits::STANDARD,
        );
        assert!(outcome.accepted.is_empty());
        assert_eq!(outcome.refused.len(), 3);
    }

    #[test]
    fn folders_list_their_own_names_once_and_nothing_beside_them() {
        let mut store = Store::default();
        store.provide(
            given(&[
                ("/q/data/sprites/hero/tunic.dat", 1),
                ("/q/data/sprites/hero/tunic.png", 1),
                ("/q/data/sprites/enemy.dat", 1),
                ("/q/data/sprites.txt", 1),
                ("/q/data/tilesets/1.entities.png", 1),
            ]),
            &Limits::STANDARD,
        );
        assert_eq!(
            store.names_in(Path::new("/q/data/sprites")),
            [PathBuf::from("enemy.dat"), "hero".into()]
        );
        assert_eq!(
            store.names_in(Path::new("/q/data")),
            [
                PathBuf::from("sprites"),
                "sprites.txt".into(),
                "tilesets".into()
            ]
        );
        assert!(store.is_folder(Path::new("/q")));
        assert!(!store.is_folder(Path::new("/q/data/sprites.txt")));
        assert!(!store.is_folder(Path::new("/q/dat")));
        assert!(store.names_in(Path::new("/elsewhere")).is_empty());
    }
}
