//! The module's allocator: Talc, given WebAssembly memory in steps that grow with the heap.
//!
//! Talc's own WebAssembly source grows the memory by just what the failing allocation needs,
//! 64 KiB at a time for small values. A run that builds a large heap then grows the memory tens
//! of thousands of times, and each growth makes V8 account more external memory and schedule
//! another full garbage collection of the page's JavaScript heap: the first `score()` of the
//! 90 MB benchmark document took 46 s in Node, the second (memory already grown) 6 s. This
//! source grows by a quarter of the memory so far, between [`MIN_STEP_PAGES`] and
//! [`MAX_STEP_PAGES`], or by what the allocation needs when that is more; when the engine refuses
//! the larger step, it grows by the need alone.

use std::sync::atomic::{AtomicUsize, Ordering};

#[cfg(target_arch = "wasm32")]
pub use growing::{allocator, Allocator, GrowingMemory};

/// WebAssembly's page size.
#[cfg(any(target_arch = "wasm32", test))]
const PAGE_BYTES: usize = 64 * 1024;

/// Smallest growth: 1 MiB.
pub const MIN_STEP_PAGES: usize = 16;

/// Largest growth unless one allocation needs more: 64 MiB, so that the memory never runs far
/// ahead of what the heap uses.
pub const MAX_STEP_PAGES: usize = 1024;

/// Room for Talc's bookkeeping on top of an allocation's size and alignment: its metadata in the
/// first heap (a few hundred bytes) and the tags around a chunk.
#[cfg(any(target_arch = "wasm32", test))]
const OVERHEAD_BYTES: usize = 4096;

/// How many times the memory has grown.
static GROWTHS: AtomicUsize = AtomicUsize::new(0);

/// How many times the allocator has grown the module's memory since it started.
pub fn growths() -> usize {
    GROWTHS.load(Ordering::Relaxed)
}

/// Pages to grow by when `needed` pages are missing and the memory holds `current` pages.
#[cfg(any(target_arch = "wasm32", test))]
fn step_pages(current: usize, needed: usize) -> usize {
    (current / 4)
        .clamp(MIN_STEP_PAGES, MAX_STEP_PAGES)
        .max(needed)
}

/// Pages that surely fit an allocation of `layout` with Talc's overhead.
#[cfg(any(target_arch = "wasm32", test))]
fn pages_for(layout: std::alloc::Layout) -> usize {
    layout
        .size()
        .saturating_add(layout.align())
        .saturating_add(OVERHEAD_BYTES)
        .div_ceil(PAGE_BYTES)
}

#[cfg(target_arch = "wasm32")]
mod growing {
    use std::alloc::Layout;
    use std::arch::wasm32;
    use std::ptr::NonNull;
    use std::sync::atomic::Ordering;

    use talc::base::binning::Binning;
    use talc::base::Talc;
    use talc::cell::TalcSyncCell;
    use talc::source::Source;
    use talc::wasm::WasmBinning;

    use super::{pages_for, step_pages, GROWTHS, PAGE_BYTES};

    /// The allocator type of the module's `#[global_allocator]`.
    pub type Allocator = TalcSyncCell<GrowingMemory, WasmBinning>;

    /// The module's allocator, ready before the first allocation.
    pub const fn allocator() -> Allocator {
        TalcSyncCell::new_wasm(GrowingMemory { end: None })
    }

    /// Talc's memory source: the end of the heap it manages, extended in place at each growth.
    #[derive(Debug)]
    pub struct GrowingMemory {
        end: Option<NonNull<u8>>,
    }

    // SAFETY: `acquire` neither allocates nor uses the allocator that owns this source; it only
    // hands Talc memory that `memory.grow` has just added, which nothing else knows of.
    unsafe impl Source for GrowingMemory {
        fn acquire<B: Binning>(talc: &mut Talc<Self, B>, layout: Layout) -> Result<(), ()> {
            let needed = pages_for(layout);
            let step = step_pages(wasm32::memory_size::<0>(), needed);
            let (first_page, pages) = match wasm32::memory_grow::<0>(step) {
                usize::MAX => match wasm32::memory_grow::<0>(needed) {
                    usize::MAX => return Err(()),
                    first_page => (first_page, needed),
                },
                first_page => (first_page, step),
            };
            GROWTHS.fetch_add(1, Ordering::Relaxed);
            let base_address = first_page.checked_mul(PAGE_BYTES).ok_or(())?;
            let bytes = pages
                .saturating_mul(PAGE_BYTES)
                .min(usize::MAX - base_address);
            let base: *mut u8 = std::ptr::with_exposed_provenance_mut(base_address);
            let end = base.wrapping_add(bytes);
            if let Some(heap_end) = talc.source.end.take() {
                if heap_end.as_ptr() == base {
                    // SAFETY: `heap_end` ends the heap this Talc manages, and `base..end` directly
                    // after it was just grown, so only this allocator will write to it.
                    talc.source.end = Some(unsafe { talc.extend(heap_end, end) });
                    return Ok(());
                }
            }
            // SAFETY: `base..end` was just grown, so only this allocator will write to it.
            talc.source.end = unsafe { talc.claim(base, bytes) };
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::alloc::Layout;

    #[test]
    fn steps_grow_with_the_memory_within_bounds_unless_more_is_needed() {
        assert_eq!(step_pages(17, 1), MIN_STEP_PAGES);
        assert_eq!(step_pages(400, 1), 100);
        assert_eq!(step_pages(60_000, 1), MAX_STEP_PAGES);
        assert_eq!(step_pages(400, 3_000), 3_000);
    }

    #[test]
    fn an_allocation_fits_the_pages_asked_for_it() {
        let pages = |size, align| pages_for(Layout::from_size_align(size, align).unwrap());
        assert_eq!(pages(8, 8), 1);
        assert_eq!(pages(PAGE_BYTES, 8), 2);
        assert_eq!(pages(10 * PAGE_BYTES, 4096), 11);
    }
}
