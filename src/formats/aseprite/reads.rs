//! The documents read from the bytes documents still hold, kept so that reading those very
//! bytes again (every save does, to see what the user changed) costs a clone, not a decode.
//!
//! Reading is a pure function of the bytes, the file's path and the options, so a document read
//! before is the answer. An entry lives only as long as some document holds its bytes (a weak
//! reference), and only the latest [`KEPT`] are kept.

use super::super::{Loaded, ReadContext};
use std::sync::{Arc, Mutex, Weak};

/// Most reads remembered.
const KEPT: usize = 8;

struct Entry {
    bytes: Weak<Vec<u8>>,
    context: (Option<std::path::PathBuf>, bool),
    loaded: Loaded,
}

static READS: Mutex<Vec<Entry>> = Mutex::new(Vec::new());

fn key(context: &ReadContext) -> (Option<std::path::PathBuf>, bool) {
    (context.path.clone(), context.options.aseprite_layers)
}

/// The read of `bytes` if they are the very bytes (same memory) a remembered document holds.
pub fn remembered(bytes: &[u8], context: &ReadContext) -> Option<Loaded> {
    let reads = READS.lock().ok()?;
    let key = key(context);
    reads.iter().find_map(|entry| {
        let held = entry.bytes.upgrade()?;
        let same = held.as_ptr() == bytes.as_ptr() && held.len() == bytes.len();
        (same && entry.context == key).then(|| entry.loaded.clone())
    })
}

/// Remembers `loaded`, read from the bytes its document holds.
pub fn remember(loaded: &Loaded, context: &ReadContext) {
    let Some(original) = &loaded.document.original else {
        return;
    };
    let Ok(mut reads) = READS.lock() else {
        return;
    };
    reads.retain(|entry| entry.bytes.strong_count() > 0);
    if reads.len() >= KEPT {
        reads.remove(0);
    }
    reads.push(Entry {
        bytes: Arc::downgrade(&original.bytes),
        context: key(context),
        loaded: loaded.clone(),
    });
}
