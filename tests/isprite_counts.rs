//! Count fields that claim more items than their chunk holds are errors, and the reader never
//! allocates for the claimed count: a counting allocator watches the largest allocation.

use sprat::formats::isprite::IspriteFormat;
use sprat::formats::{Format, Location, ReadContext};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Records the largest single allocation made by the current thread while armed.
struct Watch;

thread_local! {
    static ARMED: Cell<bool> = const { Cell::new(false) };
    static LARGEST: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Watch {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ARMED.try_with(|armed| {
            if armed.get() {
                let _ = LARGEST.try_with(|l| l.set(l.get().max(layout.size())));
            }
        });
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ARMED.try_with(|armed| {
            if armed.get() {
                let _ = LARGEST.try_with(|l| l.set(l.get().max(new_size)));
            }
        });
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static WATCH: Watch = Watch;

fn vector() -> Vec<u8> {
    std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/spec/isprite-minimal.isprite"),
    )
    .unwrap()
}

/// Reads `bytes`; returns the error offset and the largest allocation made meanwhile.
fn read_watched(bytes: &[u8]) -> (Option<u64>, usize) {
    LARGEST.with(|l| l.set(0));
    ARMED.with(|a| a.set(true));
    let result = IspriteFormat.read(bytes, &ReadContext::default());
    ARMED.with(|a| a.set(false));
    let largest = LARGEST.with(|l| l.get());
    let offset = result.err().map(|f| match f.diagnostics[0].location {
        Location::Byte(at) => at,
        other => panic!("a binary error must name a byte offset, not {other:?}"),
    });
    (offset, largest)
}

/// The vector with a little-endian count of `width` bytes at `at` set to all ones.
fn claiming(at: usize, width: usize) -> Vec<u8> {
    let mut bytes = vector();
    bytes[at..at + width].fill(0xFF);
    bytes
}

#[test]
fn inflated_counts_fail_at_their_offset_without_allocating_for_them() {
    let (_, baseline) = read_watched(&vector());
    // The vector's own copy of its bytes is the largest honest allocation; allow generous slack.
    let bound = baseline.max(240) * 4;
    for (name, at, width) in [
        ("slice count", 0x31, 4),
        ("name count", 0x48, 2),
        ("sequence frame count", 0x68, 4),
        ("frame count", 0x89, 4),
        ("frame 0 element count", 0x94, 2),
    ] {
        let (offset, largest) = read_watched(&claiming(at, width));
        let offset = offset.unwrap_or_else(|| panic!("{name}: read without error"));
        assert!(
            offset as usize <= at && at - offset as usize <= 5,
            "{name}: error at {offset}, count at {at}"
        );
        assert!(largest <= bound, "{name}: allocated {largest} bytes (bound {bound})");
    }
}

#[test]
fn a_chunk_size_past_the_end_fails_at_the_size_field() {
    let mut bytes = vector();
    bytes[0x5C..0x60].copy_from_slice(&u32::MAX.to_le_bytes());
    let (offset, largest) = read_watched(&bytes);
    assert_eq!(offset, Some(0x5C));
    assert!(largest < 4096);
}
