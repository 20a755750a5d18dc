//! Decoding ahead: the pictures the next frames of a playing sequence draw from, decoded on a
//! worker thread into the [`ImageStore`] before they are due, so drawing a frame finds its
//! pixels ready instead of decoding 3.7 MB of a 1280x720 sprite on the UI thread.
//!
//! The worker only fills caches; which frame shows, and when, stays the playback engine's
//! decision.

use super::ImageStore;
use crate::formats::sff::store::SpriteRequest;
use crate::model::{AnimationSet, Frame, GraphicSource, ImageKind, PixelRect};
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// A picture to have decoded, held apart from the document.
#[derive(Clone, Debug, PartialEq)]
pub enum Wanted {
    /// A whole image file.
    File(PathBuf),
    /// A slice cut from an image file.
    Slice {
        /// The file.
        path: PathBuf,
        /// The slice.
        rect: PixelRect,
        /// Stored turned a quarter (atlases).
        rotated: bool,
    },
    /// A sprite of an SFF archive.
    Sprite(SpriteRequest),
}

impl Wanted {
    /// What drawing `source` of `document` decodes; `None` when nothing is (pixels held in
    /// memory, an image with no file).
    pub fn of(document: &AnimationSet, source: &GraphicSource) -> Option<Wanted> {
        let image = document.source_image(source)?;
        if let ImageKind::Memory(_) = image.kind {
            return None;
        }
        match source {
            GraphicSource::Slice(id) => {
                let slice = document.slice(*id)?;
                let path = ImageStore::file_of(document.image(slice.image)?)?;
                Some(Wanted::Slice {
                    path: path.to_path_buf(),
                    rect: slice.rect,
                    rotated: slice.rotated,
                })
            }
            GraphicSource::Image(_) => Some(Wanted::File(ImageStore::file_of(image)?.into())),
            GraphicSource::SffSprite { .. } => {
                SpriteRequest::of(document, source).map(Wanted::Sprite)
            }
        }
    }

    /// Every picture `frame` draws from, once each, in drawing order.
    pub fn of_frame(document: &AnimationSet, frame: &Frame) -> Vec<Wanted> {
        let mut wanted = Vec::new();
        for graphic in frame.elements.iter().filter_map(|e| e.as_graphic()) {
            if let Some(one) = Wanted::of(document, &graphic.source)
                && !wanted.contains(&one)
            {
                wanted.push(one);
            }
        }
        wanted
    }
}

impl ImageStore {
    /// Whether `wanted` is decoded already (or known not to decode), so drawing it would not
    /// wait.
    pub fn is_ready(&self, wanted: &Wanted) -> bool {
        match wanted {
            Wanted::File(path) => self.has_image(path),
            Wanted::Slice {
                path,
                rect,
                rotated,
            } => self.has_slice(path, *rect, *rotated),
            Wanted::Sprite(request) => self.sff().has_requested(request),
        }
    }

    /// Decodes `wanted` into the caches now (in the calling thread).
    pub fn fetch(&self, wanted: &Wanted) {
        match wanted {
            Wanted::File(path) => {
                // A failure is kept in the cache and reported where the picture is drawn.
                let _ = self.image(path);
            }
            Wanted::Slice {
                path,
                rect,
                rotated,
            } => {
                self.slice(path, *rect, *rotated);
            }
            Wanted::Sprite(request) => {
                self.sff().requested(request);
            }
        }
    }
}

/// What the worker is asked to do.
#[derive(Default)]
struct Queue {
    /// Pictures in the order they are due; the worker takes from the front.
    wanted: Vec<Wanted>,
    /// The owner is gone: the worker ends.
    closed: bool,
}

struct Shared {
    queue: Mutex<Queue>,
    changed: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// A worker thread that decodes wanted pictures into a store, the soonest due first. Dropping
/// it ends the thread (after the picture it is decoding, if any).
pub struct DecodeAhead {
    shared: Arc<Shared>,
}

impl DecodeAhead {
    /// Starts the worker over `store`; `decoded` is called after each picture it decodes (the
    /// editor asks for a repaint, in case a frame waits for it). `None` when the system cannot
    /// start a thread: then nothing is decoded ahead and frames decode when drawn.
    pub fn start(
        store: Arc<ImageStore>,
        decoded: impl Fn() + Send + 'static,
    ) -> Option<DecodeAhead> {
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue::default()),
            changed: Condvar::new(),
        });
        let theirs = Arc::clone(&shared);
        std::thread::Builder::new()
            .name("sprat-decode-ahead".into())
            .spawn(move || work(&theirs, &store, &decoded))
            .ok()?;
        Some(DecodeAhead { shared })
    }

    /// Replaces what is wanted with `wanted`, soonest due first (what the store has already
    /// is skipped by the worker).
    pub fn want(&self, wanted: Vec<Wanted>) {
        let mut queue = self.shared.lock();
        if queue.wanted != wanted {
            queue.wanted = wanted;
            self.shared.changed.notify_one();
        }
    }

    /// How many pictures wait to be decoded.
    pub fn waiting(&self) -> usize {
        self.shared.lock().wanted.len()
    }
}

impl Drop for DecodeAhead {
    fn drop(&mut self) {
        self.shared.lock().closed = true;
        self.shared.changed.notify_one();
    }
}

/// The worker's loop: takes the soonest due picture, decodes it unless it is ready, repeats;
/// sleeps while nothing is wanted.
fn work(shared: &Shared, store: &ImageStore, decoded: &dyn Fn()) {
    loop {
        let next = {
            let mut queue = shared.lock();
            while queue.wanted.is_empty() && !queue.closed {
                queue = shared
                    .changed
                    .wait(queue)
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
            }
            if queue.closed {
                return;
            }
            queue.wanted.remove(0)
        };
        if !store.is_ready(&next) {
            store.fetch(&next);
            decoded();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Duration;

    #[test]
    fn the_worker_decodes_what_is_wanted_into_the_store() {
        let dir = tempfile::tempdir().unwrap();
        let paths: Vec<PathBuf> = (0..3u8)
            .map(|i| {
                let path = dir.path().join(format!("p{i}.png"));
                image::RgbaImage::from_pixel(8, 4, image::Rgba([i, 0, 0, 255]))
                    .save(&path)
                    .unwrap();
                path
            })
            .collect();
        let store = Arc::new(ImageStore::new());
        let (tx, rx) = mpsc::channel();
        let ahead = DecodeAhead::start(Arc::clone(&store), move || {
            let _ = tx.send(());
        })
        .unwrap();
        let wanted: Vec<Wanted> = paths.iter().cloned().map(Wanted::File).collect();
        assert!(wanted.iter().all(|w| !store.is_ready(w)));
        ahead.want(wanted.clone());
        for _ in 0..3 {
            rx.recv_timeout(Duration::from_secs(10)).unwrap();
        }
        assert!(wanted.iter().all(|w| store.is_ready(w)));
        assert_eq!(store.cached_bytes(), 3 * 8 * 4 * 4);
        assert_eq!(ahead.waiting(), 0);
        // Wanting what is ready decodes nothing again.
        ahead.want(vec![wanted[0].clone()]);
        assert!(rx.recv_timeout(Duration::from_millis(200)).is_err());
    }
}
