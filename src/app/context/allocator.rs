//! Handing memory the editor has freed back to the system.

/// Gives every whole page of freed memory back to the system, so resident memory falls when
/// a closed document's pictures are let go.
///
/// Needed with glibc's allocator: it keeps freed memory for reuse rather than returning it.
/// A 1280x720 picture (3.7 MB) is mapped on its own at first, but once one is freed glibc
/// raises its mapping threshold to that size, so later pictures come from its heaps; the
/// worker that composes pictures has a heap (arena) of its own; and a freed block in the
/// middle of a heap is never returned by itself. Without this, closing a character played
/// for a while left about 80 MB resident (the `picture_memory` test). `malloc_trim` walks
/// every arena and returns the free pages. Other allocators and systems return large blocks
/// when they are freed: nothing to do there.
pub fn return_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim takes no pointer and only releases pages the allocator holds free;
    // it is safe to call from any thread at any time.
    unsafe {
        libc::malloc_trim(0);
    }
}
