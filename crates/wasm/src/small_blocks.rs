//! A cache of freed small blocks in front of the module's allocator.
//!
//! Scoring allocates and frees some 120 small values per item (strings, map entries, vectors),
//! and a Node profile of `scoreDocument` put 12 % of the run in Talc's `allocate` and
//! `deallocate`. Here, blocks of up to [`MAX_SMALL_BYTES`] are rounded up to a multiple of
//! [`GRANULE_BYTES`]; a freed one goes onto its size class's list and the next allocation of that
//! class takes it back in a few instructions. Each list keeps at most [`MAX_CACHED_BLOCKS`]
//! blocks, so the cache holds at most a few megabytes that larger allocations cannot use; the
//! rest go back to the allocator behind it. Larger blocks pass straight through.
//!
//! The cache assumes one thread, as the module without the atomics feature has.

use std::alloc::{GlobalAlloc, Layout};
use std::cell::UnsafeCell;
use std::ptr;

/// Size and alignment step of the cached blocks.
pub const GRANULE_BYTES: usize = 16;

/// Largest block served from the cache.
pub const MAX_SMALL_BYTES: usize = 512;

/// Most blocks one size class keeps.
pub const MAX_CACHED_BLOCKS: usize = 1024;

const CLASSES: usize = MAX_SMALL_BYTES / GRANULE_BYTES;

/// An allocator that serves small blocks from per-size free lists and everything else from
/// `inner`.
pub struct SmallBlocks<A> {
    inner: A,
    lists: UnsafeCell<[FreeList; CLASSES]>,
}

#[derive(Clone, Copy)]
struct FreeList {
    head: *mut FreeBlock,
    len: usize,
}

/// A cached block: its first bytes link it to the next one of its class.
struct FreeBlock {
    next: *mut FreeBlock,
}

const EMPTY: FreeList = FreeList {
    head: ptr::null_mut(),
    len: 0,
};

// SAFETY: without the atomics feature, a WebAssembly module runs on one thread, so the lists are
// never touched by two threads at once.
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
unsafe impl<A: Sync> Sync for SmallBlocks<A> {}

impl<A> SmallBlocks<A> {
    /// An empty cache in front of `inner`.
    pub const fn new(inner: A) -> Self {
        SmallBlocks {
            inner,
            lists: UnsafeCell::new([EMPTY; CLASSES]),
        }
    }

    /// Blocks cached in all classes.
    pub fn cached(&self) -> usize {
        // SAFETY: one thread (see `Sync`), and no list is borrowed across calls.
        unsafe { (*self.lists.get()).iter().map(|list| list.len).sum() }
    }

    /// The size class of blocks of `layout` and its free list, when they are small enough to
    /// cache.
    ///
    /// # Safety
    /// The list must not be used after another call of this function.
    #[allow(
        clippy::mut_from_ref,
        reason = "one thread, and each list is used by one call at a time"
    )]
    unsafe fn list_of(&self, layout: Layout) -> Option<(usize, &mut FreeList)> {
        let class = class_of(layout)?;
        // SAFETY: one thread (see `Sync`), `inner` never calls back into this allocator, and the
        // caller uses the list within one call.
        let list = unsafe { (*self.lists.get()).get_mut(class)? };
        Some((class, list))
    }
}

/// The size class of blocks of `layout`, when they are small enough to cache.
fn class_of(layout: Layout) -> Option<usize> {
    let size = layout.size().max(1);
    (size <= MAX_SMALL_BYTES && layout.align() <= GRANULE_BYTES).then(|| (size - 1) / GRANULE_BYTES)
}

/// The layout every block of `class` has in the inner allocator.
fn class_layout(class: usize) -> Layout {
    // SAFETY: the size is a non-zero multiple of the alignment, a power of two, far below
    // `isize::MAX`.
    unsafe { Layout::from_size_align_unchecked((class + 1) * GRANULE_BYTES, GRANULE_BYTES) }
}

// Not inlined: inlined into every allocation site, the fast paths made the module 25 KB larger
// (4 KB gzipped) for no measurable speed.
//
// SAFETY: small blocks are allocated from `inner` with their class's layout and only handed out
// again, or freed to `inner`, with that same layout; every other block is `inner`'s own. A cached
// block is at least 16 bytes and 16-aligned, room for its link.
unsafe impl<A: GlobalAlloc> GlobalAlloc for SmallBlocks<A> {
    #[inline(never)]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let Some((class, list)) = (unsafe { self.list_of(layout) }) else {
            return unsafe { self.inner.alloc(layout) };
        };
        if list.head.is_null() {
            return unsafe { self.inner.alloc(class_layout(class)) };
        }
        let block = list.head;
        // SAFETY: `block` is a cached block of this class, whose first bytes hold its link.
        list.head = unsafe { (*block).next };
        list.len -= 1;
        block.cast()
    }

    #[inline(never)]
    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        let Some((class, list)) = (unsafe { self.list_of(layout) }) else {
            return unsafe { self.inner.dealloc(block, layout) };
        };
        if list.len >= MAX_CACHED_BLOCKS {
            return unsafe { self.inner.dealloc(block, class_layout(class)) };
        }
        let cached: *mut FreeBlock = block.cast();
        // SAFETY: the caller gives the block up, and it is aligned and large enough for the link.
        unsafe { cached.write(FreeBlock { next: list.head }) };
        list.head = cached;
        list.len += 1;
    }

    #[inline(never)]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if class_of(layout).is_none() {
            return unsafe { self.inner.alloc_zeroed(layout) };
        }
        let block = unsafe { self.alloc(layout) };
        if !block.is_null() {
            // SAFETY: the block holds at least `layout.size()` bytes.
            unsafe { block.write_bytes(0, layout.size()) };
        }
        block
    }

    #[inline(never)]
    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller guarantees `new_size` with `layout`'s alignment is a valid layout.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        match (class_of(layout), class_of(new_layout)) {
            (None, None) => unsafe { self.inner.realloc(block, layout, new_size) },
            (Some(old), Some(new)) if old == new => block,
            _ => {
                let moved = unsafe { self.alloc(new_layout) };
                if !moved.is_null() {
                    // SAFETY: both blocks hold at least the smaller size, and they are distinct.
                    unsafe {
                        ptr::copy_nonoverlapping(block, moved, layout.size().min(new_size));
                        self.dealloc(block, layout);
                    }
                }
                moved
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::alloc::System;
    use std::cell::Cell;

    /// The system allocator, counting what reaches it.
    #[derive(Default)]
    struct Counting {
        allocations: Cell<usize>,
        frees: Cell<usize>,
    }

    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            self.allocations.set(self.allocations.get() + 1);
            unsafe { System.alloc(layout) }
        }

        unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
            self.frees.set(self.frees.get() + 1);
            unsafe { System.dealloc(block, layout) }
        }
    }

    fn layout(size: usize, align: usize) -> Layout {
        Layout::from_size_align(size, align).unwrap()
    }

    #[test]
    fn sizes_map_to_classes_of_sixteen_bytes_up_to_the_limit() {
        assert_eq!(class_of(layout(1, 1)), Some(0));
        assert_eq!(class_of(layout(16, 8)), Some(0));
        assert_eq!(class_of(layout(17, 8)), Some(1));
        assert_eq!(class_of(layout(MAX_SMALL_BYTES, 4)), Some(CLASSES - 1));
        assert_eq!(class_of(layout(MAX_SMALL_BYTES + 1, 4)), None);
        assert_eq!(class_of(layout(8, 32)), None);
    }

    #[test]
    fn a_freed_small_block_is_reused_without_asking_the_inner_allocator() {
        let cache = SmallBlocks::new(Counting::default());
        unsafe {
            let first = cache.alloc(layout(24, 8));
            cache.dealloc(first, layout(24, 8));
            assert_eq!(cache.cached(), 1);
            let second = cache.alloc(layout(30, 4));
            assert_eq!(second, first, "same class, same block");
            assert_eq!(cache.inner.allocations.get(), 1);
            assert_eq!(second as usize % GRANULE_BYTES, 0);
            cache.dealloc(second, layout(30, 4));
        }
    }

    #[test]
    fn large_blocks_pass_through() {
        let cache = SmallBlocks::new(Counting::default());
        unsafe {
            let block = cache.alloc(layout(4096, 8));
            cache.dealloc(block, layout(4096, 8));
        }
        assert_eq!(cache.cached(), 0);
        assert_eq!(cache.inner.frees.get(), 1);
    }

    #[test]
    fn a_full_class_frees_to_the_inner_allocator() {
        let cache = SmallBlocks::new(Counting::default());
        let small = layout(40, 8);
        unsafe {
            let blocks: Vec<_> = (0..MAX_CACHED_BLOCKS + 3)
                .map(|_| cache.alloc(small))
                .collect();
            for block in blocks {
                cache.dealloc(block, small);
            }
        }
        assert_eq!(cache.cached(), MAX_CACHED_BLOCKS);
        assert_eq!(cache.inner.frees.get(), 3);
    }

    #[test]
    fn reallocation_keeps_the_contents_across_classes_and_sizes() {
        let cache = SmallBlocks::new(Counting::default());
        unsafe {
            let mut block = cache.alloc(layout(8, 1));
            for index in 0..8 {
                block.add(index).write(index as u8);
            }
            let mut size = 8;
            for new_size in [12, 100, 700, 5000, 300, 10] {
                block = cache.realloc(block, layout(size, 1), new_size);
                size = new_size;
                let kept: Vec<u8> = (0..8).map(|index| block.add(index).read()).collect();
                assert_eq!(
                    kept,
                    (0..8).collect::<Vec<u8>>(),
                    "after growing to {new_size}"
                );
            }
            cache.dealloc(block, layout(size, 1));
        }
    }

    #[test]
    fn zeroed_blocks_are_zero_even_when_reused() {
        let cache = SmallBlocks::new(Counting::default());
        unsafe {
            let dirty = cache.alloc(layout(64, 8));
            dirty.write_bytes(0xAB, 64);
            cache.dealloc(dirty, layout(64, 8));
            let zeroed = cache.alloc_zeroed(layout(64, 8));
            assert_eq!(zeroed, dirty);
            assert!((0..64).all(|index| zeroed.add(index).read() == 0));
            cache.dealloc(zeroed, layout(64, 8));
        }
    }
}
