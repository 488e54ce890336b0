//! A counting global allocator for the benches that report allocations
//! (issue 11: "cold build cost, retained bytes, allocations" of the triangle
//! index). It forwards every call to the system allocator and keeps, in
//! relaxed atomics, the number of allocations, the bytes requested, the live
//! bytes and the peak of the live bytes since the last reset.
//!
//! A bench installs it with
//! `#[global_allocator] static ALLOC: CountingAllocator = CountingAllocator;`
//! and wraps the code to count in [`count_allocations`]. The counts are
//! process-wide: measure single-threaded code only (the triangle index build
//! and queries are), with nothing else running in the process.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);
static REQUESTED: AtomicUsize = AtomicUsize::new(0);
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

/// The counting allocator (forwards to [`System`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct CountingAllocator;

fn grow(bytes: usize) {
    ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    REQUESTED.fetch_add(bytes, Ordering::Relaxed);
    let live = LIVE.fetch_add(bytes, Ordering::Relaxed) + bytes;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

fn shrink(bytes: usize) {
    LIVE.fetch_sub(bytes, Ordering::Relaxed);
}

// SAFETY: every method forwards to `System` with the caller's arguments,
// which upholds `GlobalAlloc`'s contract; the counters have no effect on the
// memory handed out.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged (see the impl's comment).
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged.
        unsafe { System.dealloc(ptr, layout) };
        shrink(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded unchanged.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            // A reallocation counts as one allocation of the new size that
            // replaces the old block.
            shrink(layout.size());
            grow(new_size);
        }
        p
    }
}

/// What [`count_allocations`] saw while its closure ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AllocationStats {
    /// Allocations and reallocations (count).
    pub allocations: usize,
    /// Bytes requested by them, in all (B).
    pub requested_bytes: usize,
    /// Highest live bytes above the level at the start (B): the temporary
    /// plus retained memory at its peak.
    pub peak_bytes: usize,
    /// Live bytes at the end above the level at the start (B): what the
    /// closure's result keeps (negative changes read as 0).
    pub retained_bytes: usize,
}

/// Runs `f` and counts the allocations it makes; the result of `f` is
/// returned alive, so [`AllocationStats::retained_bytes`] is what it holds.
/// Without [`CountingAllocator`] installed as the global allocator, every
/// count is 0.
pub fn count_allocations<R>(f: impl FnOnce() -> R) -> (R, AllocationStats) {
    let live0 = LIVE.load(Ordering::Relaxed);
    PEAK.store(live0, Ordering::Relaxed);
    let allocations0 = ALLOCATIONS.load(Ordering::Relaxed);
    let requested0 = REQUESTED.load(Ordering::Relaxed);
    let r = f();
    let stats = AllocationStats {
        allocations: ALLOCATIONS.load(Ordering::Relaxed) - allocations0,
        requested_bytes: REQUESTED.load(Ordering::Relaxed) - requested0,
        peak_bytes: PEAK.load(Ordering::Relaxed).saturating_sub(live0),
        retained_bytes: LIVE.load(Ordering::Relaxed).saturating_sub(live0),
    };
    (r, stats)
}

#[cfg(test)]
mod tests {
    use super::{count_allocations, CountingAllocator};

    #[global_allocator]
    static ALLOCATOR: CountingAllocator = CountingAllocator;

    /// The counts are process-wide and the test harness may run the other
    /// unit test of this crate (`checks`, which allocates little and frees
    /// what it allocates) at the same time, so the assertions are bounds that
    /// other threads' allocations cannot break: at least one allocation, at
    /// least the requested bytes, and a kept vector's bytes retained.
    #[test]
    fn counts_what_a_closure_allocates_and_keeps() {
        const BYTES: usize = 1 << 20;
        let (kept, stats) = count_allocations(|| vec![7u8; BYTES]);
        assert_eq!(kept.len(), BYTES);
        assert!(stats.allocations >= 1, "{stats:?}");
        assert!(stats.requested_bytes >= BYTES, "{stats:?}");
        assert!(stats.peak_bytes >= BYTES, "{stats:?}");
        // A mebibyte kept alive: other threads could free a little meanwhile,
        // never a mebibyte in this crate's tests.
        assert!(stats.retained_bytes >= BYTES / 2, "{stats:?}");

        let ((), temporary) = count_allocations(|| {
            let v = vec![1u8; BYTES];
            std::hint::black_box(&v);
        });
        assert!(temporary.peak_bytes >= BYTES, "{temporary:?}");
        assert!(temporary.retained_bytes < BYTES / 2, "{temporary:?}");
        drop(kept);
    }
}
