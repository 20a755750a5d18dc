//! Stand-in for `formats::input`'s store of provided files until it lands: keeps the files
//! and reports them taken. The readers do not see them yet.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::PathBuf;

thread_local! {
    static FILES: RefCell<BTreeMap<PathBuf, Vec<u8>>> = RefCell::default();
}

/// What provide_files took and refused.
pub struct ProvidedFiles {
    /// Taken.
    pub accepted: Vec<PathBuf>,
    /// Refused, with why.
    pub refused: Vec<(PathBuf, String)>,
}

/// Keeps `files`.
pub fn provide_files(files: Vec<(PathBuf, Vec<u8>)>) -> ProvidedFiles {
    let accepted = files.iter().map(|(p, _)| p.clone()).collect();
    FILES.with_borrow_mut(|store| store.extend(files));
    ProvidedFiles {
        accepted,
        refused: Vec::new(),
    }
}
