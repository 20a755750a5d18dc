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
    // The entry's own document holds its bytes too: an entry no other document holds is
    // dropped (counting that one reference, no entry would ever go, and reads of other bytes
    // would push out the entries of documents still open).
    reads.retain(|entry| entry.bytes.strong_count() > 1);
    if reads.len() >= KEPT {
        reads.remove(0);
    }
    reads.push(Entry {
        bytes: Arc::downgrade(&original.bytes),
        context: key(context),
        loaded: loaded.clone(),
    });
}

#[cfg(test)]
mod tests {
    use super::super::AsepriteFormat;
    use super::super::test_files::{file, image_cel, layer};
    use crate::formats::{Format, ReadContext};
    use crate::model::ImageKind;
    use std::sync::Arc;

    /// A file whose one pixel is `shade`.
    fn sprite(shade: u8) -> Vec<u8> {
        let pixels = [shade, 0, 0, 255];
        file(
            32,
            1,
            &[vec![
                layer(1, 0, 0, 0, 255, &[]),
                image_cel(0, true, (1, 1), &pixels),
            ]],
        )
    }

    fn pixels(loaded: &crate::formats::Loaded) -> Arc<image::RgbaImage> {
        match &loaded.document.images[0].kind {
            ImageKind::Memory(memory) => memory.0.clone(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn reads_of_other_files_do_not_push_out_a_document_still_open() {
        let context = ReadContext::default();
        let open = AsepriteFormat.read(&sprite(1), &context).unwrap();
        for shade in 2..20 {
            // Each read and dropped at once, as a file opened to look at and closed.
            AsepriteFormat.read(&sprite(shade), &context).unwrap();
        }
        let bytes = &open.document.original.as_ref().unwrap().bytes;
        let again = AsepriteFormat.read(bytes, &context).unwrap();
        assert!(
            Arc::ptr_eq(&pixels(&open), &pixels(&again)),
            "decoded again"
        );
    }
}
