//! A counting allocator for the fuzz tests: it records the largest single allocation each
//! thread makes, so "never allocates more than the file could fill" is checked, not assumed.
//! A test binary installs it with
//! `#[global_allocator] static ALLOCATOR: Tracking = Tracking;`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, noting each allocation's size.
pub struct Tracking;

thread_local! {
    static LARGEST: Cell<usize> = const { Cell::new(0) };
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
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size);
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// The largest single allocation `work` makes on this thread (with [`Tracking`] installed).
pub fn largest_allocation(work: impl FnOnce()) -> usize {
    LARGEST.with(|l| l.set(0));
    work();
    LARGEST.with(|l| l.get())
}
