//! The native global allocator: mimalloc, asked for word-aligned blocks by its plain entry points.
//!
//! The `mimalloc` crate passes every request through `mi_malloc_aligned`, whose alignment
//! handling cost about 20 instructions of the 70 an allocation and its free take: 3 % of the
//! instructions of scoring the benchmark document, which allocates about 120 blocks per item.
//! Every mimalloc size class is a whole number of 8-byte words and pages start aligned, so a block
//! from `mi_malloc` is always 8-aligned: requests aligned to 8 or less use the plain entry points,
//! others the aligned ones. The criterion benchmarks include this file, so they measure the CLI's
//! allocator.

use std::alloc::{GlobalAlloc, Layout};

use libmimalloc_sys::{
    mi_free, mi_malloc, mi_malloc_aligned, mi_realloc, mi_realloc_aligned, mi_zalloc,
    mi_zalloc_aligned,
};

/// The alignment every block from `mi_malloc` has.
const WORD_ALIGNMENT: usize = 8;

/// mimalloc as the global allocator.
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
