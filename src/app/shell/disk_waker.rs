//! Wakes the editor when a file an open document uses changes on disk.
//!
//! An idle editor must not repaint, so nothing on the UI thread can poll the disk on a timer.
//! A small thread does it instead: once every [`WATCH_INTERVAL`] it compares the stamps (size
//! and modification time) of the files on disk with the ones the sessions last saw (handed
//! over by the UI), and only when one differs does it raise a flag and ask for a repaint. The
//! UI then lets the sessions compare their files (which decides what changed and what to do
//! about it, and moves their stamps on).

use crate::session::WATCH_INTERVAL;
use crate::session::watch::{Stamp, stamp_of};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The waker: the files to look at, and the flag its thread raises.
pub struct DiskWaker {
    shared: Arc<Shared>,
}

struct Shared {
    /// The files, each with the stamp the sessions last saw.
    paths: Mutex<Vec<(PathBuf, Stamp)>>,
    changed: AtomicBool,
    stopped: AtomicBool,
}

impl DiskWaker {
    /// Starts the thread; `wake` is called (from that thread) when a file changed.
    pub fn start(wake: impl Fn() + Send + 'static) -> DiskWaker {
        let shared = Arc::new(Shared {
            paths: Mutex::new(Vec::new()),
            changed: AtomicBool::new(false),
            stopped: AtomicBool::new(false),
        });
        let looking = Arc::clone(&shared);
        let started = std::thread::Builder::new()
            .name("sprat disk waker".into())
            .spawn(move || watch(&looking, wake));
        if let Err(error) = started {
            log::warn!("could not start the thread that notices changed files: {error}");
        }
        DiskWaker { shared }
    }

    /// The files to look at from now on (every open document's files), each with the stamp
    /// its session last saw: a file whose stamp on disk differs wakes the editor.
    pub fn watch(&self, paths: Vec<(PathBuf, Stamp)>) {
        let mut current = self.shared.paths.lock().unwrap_or_else(|e| e.into_inner());
        if *current != paths {
            *current = paths;
        }
    }

    /// Whether a file changed since the last call.
    pub fn take_changed(&self) -> bool {
        self.shared.changed.swap(false, Ordering::AcqRel)
    }
}

impl Drop for DiskWaker {
    fn drop(&mut self) {
        self.shared.stopped.store(true, Ordering::Release);
    }
}

fn watch(shared: &Shared, wake: impl Fn()) {
    while !shared.stopped.load(Ordering::Acquire) {
        std::thread::sleep(WATCH_INTERVAL);
        let paths = shared
            .paths
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        let changed = paths.iter().any(|(path, seen)| stamp_of(path) != *seen);
        if changed && !shared.stopped.load(Ordering::Acquire) {
            shared.changed.store(true, Ordering::Release);
            wake();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Duration;

    #[test]
    fn a_changed_file_wakes_the_editor_once_and_an_unchanged_one_never() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("hero.png");
        std::fs::write(&file, b"one").unwrap();
        let (tx, rx) = mpsc::channel();
        let waker = DiskWaker::start(move || {
            let _ = tx.send(());
        });
        waker.watch(vec![(file.clone(), stamp_of(&file))]);
        let settle = WATCH_INTERVAL * 2 + Duration::from_millis(200);
        assert!(rx.recv_timeout(settle).is_err(), "nothing changed");
        assert!(!waker.take_changed());
        std::fs::write(&file, b"two, longer").unwrap();
        rx.recv_timeout(settle).expect("woken by the change");
        assert!(waker.take_changed());
        assert!(!waker.take_changed(), "the flag is taken once");
        // Once the session has seen the new stamp, nothing more wakes it.
        waker.watch(vec![(file.clone(), stamp_of(&file))]);
        while rx.try_recv().is_ok() {}
        assert!(rx.recv_timeout(settle).is_err(), "nothing changed since");
    }
}
