//! Decoding ahead: the pictures the next frames of a playing sequence draw from, decoded into
//! the [`ImageStore`] before they are due, so drawing a frame finds its pixels ready instead of
//! decoding 3.7 MB of a 1280x720 sprite in the middle of painting.
//!
//! Natively a worker thread does it. The web has no threads: there the same work is done in
//! steps, one picture each time the editor says what it wants (once per painted frame while a
//! sequence plays), so the page stays responsive.
//!
//! Either way this only fills caches; which frame shows, and when, stays the playback
//! engine's decision.

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

    /// The soonest due picture, taken from the queue.
    fn take_next(&self) -> Option<Wanted> {
        let mut queue = self.lock();
        (!queue.wanted.is_empty()).then(|| queue.wanted.remove(0))
    }
}

/// The pictures [`DecodeAhead::want`] decodes when working in steps: one, so a frame of the
/// page is never held up by more than one decode.
const PICTURES_PER_WANT: usize = 1;

/// Decodes wanted pictures into a store, the soonest due first: on a worker thread, or in
/// steps where there are no threads. Dropping it ends the thread (after the picture it is
/// decoding, if any).
pub struct DecodeAhead {
    shared: Arc<Shared>,
    /// Set when there is no thread: the store and the callback the steps use.
    steps: Option<Steps>,
}

/// What decoding in steps needs, held by the owner since no worker holds it.
struct Steps {
    store: Arc<ImageStore>,
    /// Behind a lock only so that [`DecodeAhead`] can be shared between threads whichever way
    /// it works, as the worker kind can.
    decoded: Mutex<Box<dyn Fn() + Send>>,
}

impl DecodeAhead {
    /// Starts decoding ahead over `store`; `decoded` is called after each picture is decoded
    /// (the editor asks for a repaint, in case a frame waits for it). On a worker thread;
    /// on the web, where there are none, in steps ([`DecodeAhead::in_steps`]). `None` when
    /// the system cannot start a thread: then nothing is decoded ahead and frames decode when
    /// drawn.
    pub fn start(
        store: Arc<ImageStore>,
        decoded: impl Fn() + Send + 'static,
    ) -> Option<DecodeAhead> {
        if cfg!(target_arch = "wasm32") {
            return Some(DecodeAhead::in_steps(store, decoded));
        }
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue::default()),
            changed: Condvar::new(),
        });
        let theirs = Arc::clone(&shared);
        std::thread::Builder::new()
            .name("sprat-decode-ahead".into())
            .spawn(move || work(&theirs, &store, &decoded))
            .ok()?;
        Some(DecodeAhead {
            shared,
            steps: None,
        })
    }

    /// Decoding ahead without a thread: the work [`DecodeAhead::start`]'s worker would do, in
    /// the same order, done by [`DecodeAhead::step`] and by each [`DecodeAhead::want`]
    /// (one picture), in the caller's thread.
    pub fn in_steps(store: Arc<ImageStore>, decoded: impl Fn() + Send + 'static) -> DecodeAhead {
        DecodeAhead {
            shared: Arc::new(Shared {
                queue: Mutex::new(Queue::default()),
                changed: Condvar::new(),
            }),
            steps: Some(Steps {
                store,
                decoded: Mutex::new(Box::new(decoded)),
            }),
        }
    }

    /// Replaces what is wanted with `wanted`, soonest due first (what the store has already
    /// is skipped). Working in steps, it then decodes the soonest due picture that is not
    /// ready: the editor says what it wants once per painted frame while a sequence plays,
    /// so the pictures come one a frame.
    pub fn want(&self, wanted: Vec<Wanted>) {
        {
            let mut queue = self.shared.lock();
            if queue.wanted != wanted {
                queue.wanted = wanted;
                self.shared.changed.notify_one();
            }
        }
        self.step(PICTURES_PER_WANT);
    }

    /// Working in steps, decodes at most `pictures` of the wanted pictures that are not ready,
    /// soonest due first (the ready ones met on the way are dropped from the queue without
    /// counting), and says how many it decoded. With a worker thread it does nothing and says
    /// 0: the worker does the work.
    pub fn step(&self, pictures: usize) -> usize {
        let Some(steps) = &self.steps else {
            return 0;
        };
        let mut done = 0;
        while done < pictures {
            let Some(next) = self.shared.take_next() else {
                break;
            };
            let decoded = steps
                .decoded
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            if decode(&steps.store, &next, decoded.as_ref()) {
                done += 1;
            }
        }
        done
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
        decode(store, &next, decoded);
    }
}

/// Decodes `wanted` into `store` and calls `decoded`, unless it is ready; says whether it
/// decoded. The one piece of work of the worker and of the steps alike.
fn decode(store: &ImageStore, wanted: &Wanted, decoded: &dyn Fn()) -> bool {
    if store.is_ready(wanted) {
        return false;
    }
    store.fetch(wanted);
    decoded();
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Duration;

    /// Decoding ahead can be shared between threads, whichever way it works.
    const _: fn() = || {
        fn shared<T: Send + Sync>() {}
        shared::<DecodeAhead>();
    };

    /// `count` small PNG files in `dir`, each of other pixels, as wanted pictures.
    fn pictures(dir: &std::path::Path, count: u8) -> Vec<Wanted> {
        (0..count)
            .map(|i| {
                let path = dir.join(format!("p{i}.png"));
                image::RgbaImage::from_pixel(8, 4, image::Rgba([i, 0, 0, 255]))
                    .save(&path)
                    .unwrap();
                Wanted::File(path)
            })
            .collect()
    }

    #[test]
    fn the_worker_decodes_what_is_wanted_into_the_store() {
        let dir = tempfile::tempdir().unwrap();
        let paths: Vec<PathBuf> = pictures(dir.path(), 3)
            .into_iter()
            .map(|w| match w {
                Wanted::File(path) => path,
                _ => unreachable!(),
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

    /// Which of `wanted` the store has ready.
    fn ready(store: &ImageStore, wanted: &[Wanted]) -> Vec<bool> {
        wanted.iter().map(|w| store.is_ready(w)).collect()
    }

    #[test]
    fn in_steps_the_pictures_are_decoded_in_order_one_a_step() {
        let dir = tempfile::tempdir().unwrap();
        let wanted = pictures(dir.path(), 4);
        let store = Arc::new(ImageStore::new());
        let calls = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let counted = Arc::clone(&calls);
        let ahead = DecodeAhead::in_steps(Arc::clone(&store), move || {
            counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        });
        // Saying what is wanted decodes the soonest due picture, and only it.
        ahead.want(wanted.clone());
        assert_eq!(ready(&store, &wanted), [true, false, false, false]);
        assert_eq!(ahead.waiting(), 3);
        assert_eq!(ahead.step(1), 1);
        assert_eq!(ready(&store, &wanted), [true, true, false, false]);
        // Saying the same again moves on by one more.
        ahead.want(wanted[1..].to_vec());
        assert_eq!(ready(&store, &wanted), [true, true, true, false]);
        assert_eq!(ahead.step(10), 1, "only what is left is decoded");
        assert_eq!(ready(&store, &wanted), [true; 4]);
        assert_eq!(ahead.step(10), 0);
        assert_eq!(ahead.waiting(), 0);
        assert_eq!(calls.load(std::sync::atomic::Ordering::SeqCst), 4);
        assert_eq!(store.cached_bytes(), 4 * 8 * 4 * 4);
    }

    #[test]
    fn in_steps_ready_pictures_are_passed_over_without_counting() {
        let dir = tempfile::tempdir().unwrap();
        let wanted = pictures(dir.path(), 3);
        let store = Arc::new(ImageStore::new());
        store.fetch(&wanted[0]);
        store.fetch(&wanted[1]);
        let ahead = DecodeAhead::in_steps(Arc::clone(&store), || {});
        ahead.want(wanted.clone());
        assert_eq!(ready(&store, &wanted), [true; 3]);
        assert_eq!(ahead.waiting(), 0);
    }

    #[test]
    fn steps_decode_what_the_worker_decodes() {
        let dir = tempfile::tempdir().unwrap();
        let wanted = pictures(dir.path(), 3);
        let by_steps = Arc::new(ImageStore::new());
        let ahead = DecodeAhead::in_steps(Arc::clone(&by_steps), || {});
        ahead.want(wanted.clone());
        while ahead.step(1) == 1 {}
        let by_worker = Arc::new(ImageStore::new());
        let (tx, rx) = mpsc::channel();
        let worker = DecodeAhead::start(Arc::clone(&by_worker), move || {
            let _ = tx.send(());
        })
        .unwrap();
        worker.want(wanted.clone());
        for _ in 0..wanted.len() {
            rx.recv_timeout(Duration::from_secs(10)).unwrap();
        }
        // The worker does its own work: a step asks nothing of it.
        assert_eq!(worker.step(5), 0);
        assert_eq!(ready(&by_steps, &wanted), ready(&by_worker, &wanted));
        assert_eq!(by_steps.cached_bytes(), by_worker.cached_bytes());
        for w in &wanted {
            let Wanted::File(path) = w else {
                unreachable!()
            };
            let pixels = by_steps.image(path).ok();
            assert!(pixels.is_some());
            assert_eq!(pixels, by_worker.image(path).ok());
        }
    }
}
