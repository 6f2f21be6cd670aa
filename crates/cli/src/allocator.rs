//! The native global allocator: mimalloc, asked for word-aligned blocks by its plain entry points,
//! behind the core's cache of freed small blocks ([`agenteval_core::small_blocks`]), one per
//! thread.
//!
//! The `mimalloc` crate passes every request through `mi_malloc_aligned`, whose alignment
//! handling cost about 20 instructions of the 70 an allocation and its free take: 3 % of the
//! instructions of scoring the benchmark document, which allocates about 120 blocks per item.
//! Every mimalloc size class is a whole number of 8-byte words and pages start aligned, so a block
//! from `mi_malloc` is always 8-aligned: requests aligned to 8 or less use the plain entry points,
//! others the aligned ones. The criterion benchmarks include this file, so they measure the CLI's
//! allocator.
//!
//! mimalloc hands out a page's free blocks before the ones freed since, so a small block came
//! back long after it was freed: on the benchmark's 5 000-item slice (cachegrind, 32 KB first-
//! level and 512 KB second-level data caches), two in three of mimalloc's reads of a free block
//! missed the first level and one in four the second, a quarter of all second-level misses. The
//! cache hands the last freed block out first.

use std::alloc::{GlobalAlloc, Layout};
use std::cell::UnsafeCell;

use agenteval_core::small_blocks::{FreeLists, PerThread, SmallBlocks};

use libmimalloc_sys::{
    mi_free, mi_malloc, mi_malloc_aligned, mi_realloc, mi_realloc_aligned, mi_zalloc,
    mi_zalloc_aligned,
};

/// The alignment every block from `mi_malloc` has.
const WORD_ALIGNMENT: usize = 8;

/// The CLI's global allocator: mimalloc behind a per-thread cache of small blocks.
pub type Allocator = SmallBlocks<MiMalloc, PerThread>;

/// Most blocks one size class of a thread's cache keeps: at most about half a megabyte in all
/// classes, enough for an item's values.
const MAX_CACHED_BLOCKS: usize = 64;

thread_local! {
    static CACHED_BLOCKS: UnsafeCell<FreeLists> = const { UnsafeCell::new(FreeLists::new()) };
}

/// The CLI's global allocator, ready before the first allocation.
pub const fn allocator() -> Allocator {
    // SAFETY: every store on `CACHED_BLOCKS` is made here, for a cache in front of mimalloc.
    let store = unsafe { PerThread::new(&CACHED_BLOCKS) };
    SmallBlocks::new(MiMalloc, store, MAX_CACHED_BLOCKS)
}

/// mimalloc through its plain entry points where it can.
pub struct MiMalloc;

// SAFETY: every block comes from mimalloc with at least the layout's size and alignment (the
// plain entry points only for alignments every mimalloc block has), and goes back to `mi_free`,
// which takes blocks from any of them.
unsafe impl GlobalAlloc for MiMalloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.align() <= WORD_ALIGNMENT {
            // SAFETY: a plain allocation; mimalloc returns null when out of memory.
            unsafe { mi_malloc(layout.size()).cast() }
        } else {
            // SAFETY: the alignment is a power of two, as `Layout` guarantees.
            unsafe { mi_malloc_aligned(layout.size(), layout.align()).cast() }
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.align() <= WORD_ALIGNMENT {
            // SAFETY: as `alloc`.
            unsafe { mi_zalloc(layout.size()).cast() }
        } else {
            // SAFETY: as `alloc`.
            unsafe { mi_zalloc_aligned(layout.size(), layout.align()).cast() }
        }
    }

    unsafe fn dealloc(&self, block: *mut u8, _layout: Layout) {
        // SAFETY: the caller hands back a block this allocator gave, which came from mimalloc.
        unsafe { mi_free(block.cast()) }
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if layout.align() <= WORD_ALIGNMENT {
            // SAFETY: `block` came from mimalloc; the new block keeps word alignment.
            unsafe { mi_realloc(block.cast(), new_size).cast() }
        } else {
            // SAFETY: `block` came from mimalloc with this alignment, which the new block keeps.
            unsafe { mi_realloc_aligned(block.cast(), new_size, layout.align()).cast() }
        }
    }
}
