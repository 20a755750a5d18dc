//! A counting allocator for the fuzz and memory tests: it records the largest single
//! allocation each thread makes, and the peak of the bytes held by the whole process, so
//! "never allocates more than the file could fill" is checked, not assumed.
//! A test binary installs it with
//! `#[global_allocator] static ALLOCATOR: Tracking = Tracking;`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, noting each allocation's size.
pub struct Tracking;

thread_local! {
    static LARGEST: Cell<usize> = const { Cell::new(0) };
}

/// Bytes the process holds now, and the most it held since [`peak_allocation`] began.
static HELD: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn held_more(size: usize) {
    let now = HELD.fetch_add(size, Ordering::Relaxed) + size;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

fn held_less(size: usize) {
    HELD.fetch_sub(size, Ordering::Relaxed);
}

fn note(size: usize) {
    let _ = LARGEST.try_with(|largest| {
        if size > largest.get() {
            largest.set(size);
        }
    });
}

// SAFETY: every call is forwarded to the system allocator unchanged; `note` only reads and
// writes a thread-local `Cell` and never allocates.
unsafe impl GlobalAlloc for Tracking {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            held_more(layout.size());
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            held_more(layout.size());
        }
        ptr
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size);
        // Counted as held at once: a move to a new block holds both for a moment.
        held_more(new_size);
        let moved = unsafe { System.realloc(ptr, layout, new_size) };
        held_less(if moved.is_null() {
            new_size
        } else {
            layout.size()
        });
        moved
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        held_less(layout.size());
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// The largest single allocation `work` makes on this thread (with [`Tracking`] installed).
pub fn largest_allocation(work: impl FnOnce()) -> usize {
    LARGEST.with(|l| l.set(0));
    work();
    LARGEST.with(|l| l.get())
}

/// The most bytes the whole process held at once while `work` ran, beyond what it held when
/// `work` began (with [`Tracking`] installed). Every thread counts, so a test measuring this
/// keeps other tests of its binary from allocating meanwhile.
pub fn peak_allocation(work: impl FnOnce()) -> usize {
    let before = HELD.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    work();
    PEAK.load(Ordering::Relaxed).saturating_sub(before)
}
