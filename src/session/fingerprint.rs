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
//!
//! Hashing a large file takes long (a 63 MB archive: a fifth of a second), so the bytes of one
//! over [`HASHED_APART_BYTES`] are hashed on a thread of their own
//! ([`Fingerprints::record_in_background`]): the editor shows the document meanwhile. They
//! are the very bytes the reader read, kept until hashed, so a change made on disk while the
//! hash is being taken is still told; whatever asks for the fingerprint before the thread has
//! ended waits for it (or hashes the bytes itself when the thread has not started).

use crate::model::AnimationSet;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::SystemTime;

/// Files at least this large, read into memory, are hashed on a thread of their own when
/// recorded through [`Fingerprints::of_document_read`] (smaller ones take under a millisecond).
pub const HASHED_APART_BYTES: usize = 1 << 20;

/// Bytes as a reader read them, shared with the thread that hashes them.
pub type ReadBytes = Arc<Vec<u8>>;

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

/// A fingerprint being taken from the bytes as read, on a thread of its own.
#[derive(Clone)]
struct Taking(Arc<Mutex<Slot>>);

enum Slot {
    /// The bytes as read, not hashed yet, and the file's modification time when recorded.
    Waiting(ReadBytes, Option<SystemTime>),
    /// Hashed (the bytes let go).
    Taken(Fingerprint),
}

impl Taking {
    /// A fingerprint to take from `bytes`.
    fn of(bytes: ReadBytes, modified: Option<SystemTime>) -> Taking {
        Taking(Arc::new(Mutex::new(Slot::Waiting(bytes, modified))))
    }

    fn lock(&self) -> MutexGuard<'_, Slot> {
        // A thread that panicked while hashing left the bytes waiting: hashed again here.
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The fingerprint: hashed now if it was not yet. The lock is held while hashing, so a
    /// caller asking meanwhile waits for the one hash rather than taking its own.
    fn fingerprint(&self) -> Fingerprint {
        let mut slot = self.lock();
        let taken = match &*slot {
            Slot::Taken(fingerprint) => return *fingerprint,
            Slot::Waiting(bytes, modified) => Fingerprint::of_bytes(bytes, *modified),
        };
        *slot = Slot::Taken(taken);
        taken
    }

    /// Whether the hash has been taken.
    fn is_taken(&self) -> bool {
        matches!(*self.lock(), Slot::Taken(_))
    }
}

impl std::fmt::Debug for Taking {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &*self.lock() {
            Slot::Taken(fingerprint) => fingerprint.fmt(f),
            Slot::Waiting(bytes, _) => write!(f, "hashing {} bytes", bytes.len()),
        }
    }
}

/// What is recorded of one file: its fingerprint, or the bytes it is being taken from.
#[derive(Clone, Debug)]
enum Record {
    Taken(Fingerprint),
    Taking(Taking),
}

impl Record {
    /// The fingerprint, waiting for it while it is being taken.
    fn fingerprint(&self) -> Fingerprint {
        match self {
            Record::Taken(fingerprint) => *fingerprint,
            Record::Taking(taking) => taking.fingerprint(),
        }
    }
}

/// The fingerprint of each file of a document, as read or as last saved by this session (kept
/// with a recovery too, so a recovered document's save still compares the disk with them).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(from = "Recorded", into = "Recorded")]
pub struct Fingerprints {
    files: HashMap<PathBuf, Record>,
}

/// [`Fingerprints`] as written in a recovery: every fingerprint taken.
#[derive(Serialize, Deserialize)]
struct Recorded {
    files: HashMap<PathBuf, Fingerprint>,
}

impl From<Recorded> for Fingerprints {
    fn from(recorded: Recorded) -> Fingerprints {
        let files = recorded.files.into_iter();
        Fingerprints {
            files: files.map(|(path, f)| (path, Record::Taken(f))).collect(),
        }
    }
}

impl From<Fingerprints> for Recorded {
    fn from(fingerprints: Fingerprints) -> Recorded {
        Recorded {
            files: fingerprints.taken(),
        }
    }
}

impl PartialEq for Fingerprints {
    fn eq(&self, other: &Fingerprints) -> bool {
        self.taken() == other.taken()
    }
}

impl Eq for Fingerprints {}

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
        Fingerprints::of_document_read(path, document, &[])
    }

    /// [`Fingerprints::of_document`] where the files in `read` (each path with its bytes) were
    /// read by the caller beside the document (the archives a character draws from): they are
    /// recorded from those bytes. A file at least [`HASHED_APART_BYTES`] large whose bytes are
    /// held is hashed on a thread of its own ([`Fingerprints::record_in_background`]).
    pub fn of_document_read(
        path: Option<&Path>,
        document: &AnimationSet,
        read: &[(PathBuf, ReadBytes)],
    ) -> Fingerprints {
        let mut fingerprints = Fingerprints::new();
        let files = path
            .map(Path::to_path_buf)
            .into_iter()
            .chain(super::target::files_read_by(document));
        for file in files {
            if fingerprints.files.contains_key(&key(&file)) {
                continue;
            }
            let held: Option<ReadBytes> = match document.as_read(&file) {
                Some(bytes) => Some(Arc::clone(bytes)),
                None => read
                    .iter()
                    .find(|(p, _)| *p == file)
                    .map(|(_, b)| Arc::clone(b)),
            };
            match held {
                Some(bytes) if bytes.len() >= HASHED_APART_BYTES => {
                    fingerprints.record_in_background(&file, bytes)
                }
                Some(bytes) => fingerprints.record(&file, &bytes),
                None => fingerprints.record_from_disk(&file),
            }
        }
        fingerprints
    }

    /// Records that `path` holds `bytes` now (read, or just written by a save); its
    /// modification time is taken from the disk.
    pub fn record(&mut self, path: &Path, bytes: &[u8]) {
        let fingerprint = Fingerprint::of_bytes(bytes, modified(path));
        self.files.insert(key(path), Record::Taken(fingerprint));
    }

    /// Records that `path` held `bytes` when read, hashing them on a thread of its own (where
    /// threads can be started; else when first asked for). Until then the bytes are kept, and
    /// whatever asks for the fingerprint waits for the hash.
    pub fn record_in_background(&mut self, path: &Path, bytes: ReadBytes) {
        let taking = self.record_unhashed(path, bytes);
        // Without a thread (the web page has none to spare), the first question hashes them.
        let _ = std::thread::Builder::new()
            .name("fingerprint".into())
            .spawn(move || {
                taking.fingerprint();
            });
    }

    /// Records that `path` held `bytes` when read, not hashing them until asked.
    fn record_unhashed(&mut self, path: &Path, bytes: ReadBytes) -> Taking {
        let taking = Taking::of(bytes, modified(path));
        let record = Record::Taking(taking.clone());
        self.files.insert(key(path), record);
        taking
    }

    /// Records `path` as it is on disk now; a file that cannot be read is forgotten.
    pub fn record_from_disk(&mut self, path: &Path) {
        match Fingerprint::of_file(path) {
            Ok(Some(fingerprint)) => {
                self.files.insert(key(path), Record::Taken(fingerprint));
            }
            _ => {
                self.files.remove(&key(path));
            }
        }
    }

    /// What was recorded of `path`, if anything (waiting while its hash is being taken).
    pub fn get(&self, path: &Path) -> Option<Fingerprint> {
        self.files.get(&key(path)).map(Record::fingerprint)
    }

    /// Whether every fingerprint has been taken (none is still being hashed).
    pub fn all_taken(&self) -> bool {
        self.files.values().all(|record| match record {
            Record::Taken(_) => true,
            Record::Taking(taking) => taking.is_taken(),
        })
    }

    /// Every file's fingerprint, waiting for those being taken.
    fn taken(&self) -> HashMap<PathBuf, Fingerprint> {
        let files = self.files.iter();
        files
            .map(|(path, r)| (path.clone(), r.fingerprint()))
            .collect()
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
            Ok(Some(now)) => !now.same_bytes(&recorded),
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
            Ok(now) => now != bytes && !Fingerprint::of_bytes(&now, None).same_bytes(&recorded),
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

    /// Bytes of a file as a reader read them, shared as a fingerprint keeps them.
    fn read_bytes(bytes: &[u8]) -> ReadBytes {
        Arc::new(bytes.to_vec())
    }

    #[test]
    fn a_change_made_while_the_fingerprint_is_being_taken_is_told() {
        let dir = tempfile::tempdir().unwrap();
        let sff = dir.path().join("kfm.sff");
        let as_read = vec![7u8; 4096];
        fs::write(&sff, &as_read).unwrap();
        let mut fingerprints = Fingerprints::new();
        fingerprints.record_unhashed(&sff, read_bytes(&as_read));

        // Another program changes one byte, keeping the size, before the hash is taken: the
        // fingerprint is of the bytes read, not of the disk when it is hashed.
        let mut changed = as_read.clone();
        changed[1000] = 8;
        fs::write(&sff, &changed).unwrap();
        assert!(!fingerprints.all_taken());
        assert!(fingerprints.changed_outside(&sff));
        assert!(fingerprints.all_taken());
        let targets = [(sff.as_path(), b"saved".as_slice())];
        assert_eq!(
            fingerprints.changed_before_writing(targets),
            std::slice::from_ref(&sff)
        );

        // Unchanged since read: nothing to tell.
        let mut unchanged = Fingerprints::new();
        unchanged.record_unhashed(&sff, read_bytes(&changed));
        assert!(!unchanged.changed_outside(&sff));
    }

    #[test]
    fn a_large_file_read_with_the_document_is_hashed_on_a_thread_of_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let (def, sff) = (dir.path().join("big.def"), dir.path().join("big.sff"));
        fs::write(&def, "[Files]\nsprite = big.sff\n").unwrap();
        let bytes: Vec<u8> = (0..HASHED_APART_BYTES + 3)
            .map(|i| (i % 251) as u8)
            .collect();
        fs::write(&sff, &bytes).unwrap();
        let context = crate::formats::ReadContext::for_path(&def);
        let (loaded, _) = crate::formats::registry().open(&def, &context).unwrap();
        let document = loaded.document;
        let read = [(sff.clone(), read_bytes(&bytes))];
        let fingerprints = Fingerprints::of_document_read(Some(&def), &document, &read);

        // A change made meanwhile; the thread hashes the bytes read, unasked.
        fs::write(&sff, b"rewritten by another program").unwrap();
        let waited = std::time::Instant::now();
        while !fingerprints.all_taken() {
            assert!(waited.elapsed().as_secs() < 60, "the hash is never taken");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        assert_eq!(
            fingerprints.get(&sff).map(|f| (f.size, f.hash)),
            Some((bytes.len() as u64, super::super::backups::fnv1a(&bytes)))
        );
        assert!(fingerprints.changed_outside(&sff));
        assert!(!fingerprints.changed_outside(&def));
    }

    #[test]
    fn a_recovery_writes_fingerprints_still_being_taken_as_taken() {
        let dir = tempfile::tempdir().unwrap();
        let sff = dir.path().join("kfm.sff");
        fs::write(&sff, b"archive").unwrap();
        let mut fingerprints = Fingerprints::new();
        fingerprints.record_unhashed(&sff, read_bytes(b"archive"));
        let text = ron::to_string(&fingerprints).unwrap();
        let read_back: Fingerprints = ron::from_str(&text).unwrap();
        let mut taken = Fingerprints::new();
        taken.record(&sff, b"archive");
        assert_eq!(read_back, taken);
        assert!(read_back.all_taken());
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
