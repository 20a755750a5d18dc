//! What each file of a document was when it was read, so that a save can tell whether another
//! program changed it since.
//!
//! A [`Fingerprint`] holds a file's size, modification time and a hash of its bytes (64-bit
//! FNV-1a, the hash the backups already use: fast, and stable from one build to the next). The
//! size and the hash decide whether the bytes changed; the modification time alone does not,
//! since a program that only touches a file has changed nothing a save would lose.
//!
//! [`Fingerprints`] keeps one per file of a document (its own file, every companion such as the
//! `.air` and `.sff` a `.def` names, every sheet, image and palette), recorded from the bytes
//! the document was read from where it keeps them, else from the disk when it was opened, and
//! moved on by each save of this session. Before a save replaces a file,
//! [`Fingerprints::changed_outside`] tells whether the disk still holds what was recorded.

use crate::model::AnimationSet;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// What a file held at one moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fingerprint {
    /// Its size in bytes.
    pub size: u64,
    /// Its modification time, where the system gives one.
    pub modified: Option<SystemTime>,
    /// The 64-bit FNV-1a hash of its bytes.
    pub hash: u64,
}

impl Fingerprint {
    /// The fingerprint of `bytes`, last modified at `modified`.
    pub fn of_bytes(bytes: &[u8], modified: Option<SystemTime>) -> Fingerprint {
        Fingerprint {
            size: bytes.len() as u64,
            modified,
            hash: super::backups::fnv1a(bytes),
        }
    }

    /// The fingerprint of the file at `path` as it is now; `Ok(None)` when there is no file.
    pub fn of_file(path: &Path) -> io::Result<Option<Fingerprint>> {
        let bytes = match fs::read(path) {
            Ok(bytes) => bytes,
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(error),
        };
        Ok(Some(Fingerprint::of_bytes(&bytes, modified(path))))
    }

    /// Whether both hold the same bytes (their modification times aside).
    pub fn same_bytes(&self, other: &Fingerprint) -> bool {
        self.size == other.size && self.hash == other.hash
    }
}

/// The modification time of the file at `path`, if it exists and the system gives one.
fn modified(path: &Path) -> Option<SystemTime> {
    fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// `path` in the form two spellings of one file share (links and `..` resolved; else made
/// absolute).
fn key(path: &Path) -> PathBuf {
    fs::canonicalize(path).unwrap_or_else(|_| crate::formats::absolute(path.to_path_buf()))
}

/// The fingerprint of each file of a document, as read or as last saved by this session (kept
/// with a recovery too, so a recovered document's save still compares the disk with them).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fingerprints {
    files: HashMap<PathBuf, Fingerprint>,
}

impl Fingerprints {
    /// No file recorded.
    pub fn new() -> Fingerprints {
        Fingerprints::default()
    }

    /// The files `document` was read from (read from `path`): its own file, the files read
    /// with it, and every image, archive, palette and tileset it draws from. A file whose
    /// bytes as read the document keeps is recorded from those bytes (so a change made while
    /// it was being read is seen); any other from the disk now. Files that cannot be read are
    /// left out.
    pub fn of_document(path: Option<&Path>, document: &AnimationSet) -> Fingerprints {
        let mut fingerprints = Fingerprints::new();
        let files = path
            .map(Path::to_path_buf)
            .into_iter()
            .chain(super::target::files_read_by(document));
        for file in files {
            if fingerprints.get(&file).is_some() {
                continue;
            }
            match document.as_read(&file) {
                Some(bytes) => fingerprints.record(&file, bytes),
                None => fingerprints.record_from_disk(&file),
            }
        }
        fingerprints
    }

    /// Records that `path` holds `bytes` now (read, or just written by a save); its
    /// modification time is taken from the disk.
    pub fn record(&mut self, path: &Path, bytes: &[u8]) {
        let fingerprint = Fingerprint::of_bytes(bytes, modified(path));
        self.files.insert(key(path), fingerprint);
    }

    /// Records `path` as it is on disk now; a file that cannot be read is forgotten.
    pub fn record_from_disk(&mut self, path: &Path) {
        match Fingerprint::of_file(path) {
            Ok(Some(fingerprint)) => {
                self.files.insert(key(path), fingerprint);
            }
            _ => {
                self.files.remove(&key(path));
            }
        }
    }

    /// What was recorded of `path`, if anything.
    pub fn get(&self, path: &Path) -> Option<&Fingerprint> {
        self.files.get(&key(path))
    }

    /// Whether another program changed `path` since it was recorded: the disk holds other
    /// bytes than were read or last saved. A file never recorded, or no longer there (nor
    /// reachable: its folder gone), has nothing a save would lose: false. A file that is there
    /// but cannot be read counts as changed (a save must not replace what it cannot compare).
    pub fn changed_outside(&self, path: &Path) -> bool {
        let Some(recorded) = self.get(path) else {
            return false;
        };
        match fs::metadata(path) {
            Err(_) => return false,
            Ok(metadata) if metadata.len() != recorded.size => return true,
            Ok(_) => {}
        }
        match Fingerprint::of_file(path) {
            Ok(Some(now)) => !now.same_bytes(recorded),
            Ok(None) => false,
            Err(_) => true,
        }
    }

    /// Of the files a save is about to write (each path with its new bytes), those another
    /// program changed since they were recorded, in the order given. A file that already holds
    /// its new bytes is not among them: writing it would lose nothing.
    pub fn changed_before_writing<'a>(
        &self,
        targets: impl IntoIterator<Item = (&'a Path, &'a [u8])>,
    ) -> Vec<PathBuf> {
        targets
            .into_iter()
            .filter(|(path, bytes)| self.replaces_a_change(path, bytes))
            .map(|(path, _)| path.to_path_buf())
            .collect()
    }

    /// Whether writing `bytes` to `path` would replace another program's change (the rules
    /// of [`Fingerprints::changed_outside`]; the file is read once).
    fn replaces_a_change(&self, path: &Path, bytes: &[u8]) -> bool {
        let Some(recorded) = self.get(path) else {
            return false;
        };
        let Ok(metadata) = fs::metadata(path) else {
            return false;
        };
        let size = metadata.len();
        if size != recorded.size && size != bytes.len() as u64 {
            return true;
        }
        match fs::read(path) {
            Ok(now) => now != bytes && !Fingerprint::of_bytes(&now, None).same_bytes(recorded),
            Err(_) => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bytes_decide_not_the_modification_time() {
        let a = Fingerprint::of_bytes(b"air", None);
        let b = Fingerprint::of_bytes(b"air", Some(SystemTime::now()));
        assert!(a.same_bytes(&b));
        assert!(!a.same_bytes(&Fingerprint::of_bytes(b"aiR", None)));
        assert!(!a.same_bytes(&Fingerprint::of_bytes(b"air ", None)));
    }

    #[test]
    fn a_file_changed_since_it_was_recorded_is_told_and_a_touched_one_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let air = dir.path().join("kfm.air");
        fs::write(&air, "[Begin Action 0]\n0,0, 0,0, 5\n").unwrap();
        let mut fingerprints = Fingerprints::new();
        fingerprints.record_from_disk(&air);
        assert!(!fingerprints.changed_outside(&air));

        // The same bytes written again (a new modification time): nothing changed.
        fs::write(&air, "[Begin Action 0]\n0,0, 0,0, 5\n").unwrap();
        assert!(!fingerprints.changed_outside(&air));

        // One digit changed, the size kept: changed.
        fs::write(&air, "[Begin Action 0]\n0,0, 0,0, 7\n").unwrap();
        assert!(fingerprints.changed_outside(&air));

        // A save of this session moves the record on.
        fingerprints.record(&air, b"[Begin Action 0]\n0,0, 0,0, 7\n");
        assert!(!fingerprints.changed_outside(&air));

        // Removed, or its folder replaced by a file: nothing to lose. Never recorded: not ours
        // to judge.
        fs::remove_file(&air).unwrap();
        assert!(!fingerprints.changed_outside(&air));
        let folder = dir.path().join("chars");
        fs::write(&folder, "a file where the folder was").unwrap();
        let mut inside = Fingerprints::new();
        inside.record(&folder.join("kfm.air"), b"air");
        assert!(!inside.changed_outside(&folder.join("kfm.air")));
        assert!(!fingerprints.changed_outside(&dir.path().join("other.air")));
    }

    #[test]
    fn a_target_already_holding_the_new_bytes_is_not_a_change_to_lose() {
        let dir = tempfile::tempdir().unwrap();
        let (def, air) = (dir.path().join("kfm.def"), dir.path().join("kfm.air"));
        fs::write(&def, "def").unwrap();
        fs::write(&air, "air").unwrap();
        let mut fingerprints = Fingerprints::new();
        fingerprints.record_from_disk(&def);
        fingerprints.record_from_disk(&air);
        fs::write(&def, "def changed outside").unwrap();
        fs::write(&air, "new air").unwrap();
        let targets = [
            (def.as_path(), b"def".as_slice()),
            (air.as_path(), b"new air".as_slice()),
        ];
        assert_eq!(fingerprints.changed_before_writing(targets), [def]);
    }

    #[test]
    fn two_spellings_of_one_file_share_its_record() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("chars")).unwrap();
        let air = dir.path().join("chars/kfm.air");
        fs::write(&air, "air").unwrap();
        let mut fingerprints = Fingerprints::new();
        fingerprints.record_from_disk(&dir.path().join("chars/../chars/kfm.air"));
        fs::write(&air, "changed").unwrap();
        assert!(fingerprints.changed_outside(&air));
    }
}
