//! A cache of freed small blocks in front of a global allocator, shared by the CLI (in front of
//! mimalloc) and the WebAssembly module (in front of Talc).
//!
//! Scoring allocates and frees some 60 small values per item (strings, map entries, vectors).
//! Here, blocks of up to [`MAX_SMALL_BYTES`] are rounded up to a multiple of [`GRANULE_BYTES`]; a
//! freed one goes onto its size class's list and the next allocation of that class takes it back
//! in a few instructions, last freed first, so the block is still in the cache. The allocator
//! behind it may hand out its free blocks in another order: mimalloc walks a page's free list
//! before the blocks freed since, so most of its small blocks had left the first-level cache by
//! the time they came back (cachegrind on the benchmark slice: two in three of its block reads
//! missed). Each list keeps at most the cache's limit of blocks, which larger allocations cannot
//! use; the rest go back to the allocator behind it. Larger or more aligned blocks pass straight
//! through.
//!
//! Where the lists live is the [`ListStore`]'s choice: one set per thread natively
//! ([`PerThread`]), one set for a WebAssembly module without threads ([`OneThread`]). A thread's
//! cached blocks are not given back when it ends.
//!
//! The rest of the core is safe code; this module is the one place that is not, because an
//! allocator cannot be written without it.

use std::alloc::{GlobalAlloc, Layout};
use std::cell::UnsafeCell;
use std::ptr;
use std::thread::LocalKey;

/// Size step of the cached blocks.
pub const GRANULE_BYTES: usize = 16;

/// Alignment of the cached blocks: requests aligned to more pass through. Eight, which every
/// block of mimalloc's plain entry points has, so that the blocks come from its fast path.
pub const BLOCK_ALIGN: usize = 8;

/// Largest block served from the cache.
pub const MAX_SMALL_BYTES: usize = 512;

const CLASSES: usize = MAX_SMALL_BYTES / GRANULE_BYTES;

/// One free list per size class.
pub struct FreeLists([FreeList; CLASSES]);

impl FreeLists {
    /// Empty lists.
    pub const fn new() -> Self {
        FreeLists([EMPTY; CLASSES])
    }
}

impl Default for FreeLists {
    fn default() -> Self {
        FreeLists::new()
    }
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

/// Where a cache keeps its free lists.
///
/// # Safety
/// [`ListStore::lists`] must give lists that no other thread uses while the calling thread runs,
/// the same lists on every call from one thread, and that live as long as the thread does.
pub unsafe trait ListStore {
    /// The calling thread's lists.
    fn lists(&self) -> *mut FreeLists;
}

/// One set of lists per thread, in a `thread_local!` of the caller's (each cache its own, so
/// that two caches never trade blocks of different allocators).
pub struct PerThread(&'static LocalKey<UnsafeCell<FreeLists>>);

impl PerThread {
    /// Lists kept in `key`.
    ///
    /// # Safety
    /// Every cache whose store is on `key` must be in front of the same allocator: such caches
    /// share their lists, so a block one of them cached may be handed out, or freed to its inner
    /// allocator, by another.
    pub const unsafe fn new(key: &'static LocalKey<UnsafeCell<FreeLists>>) -> Self {
        PerThread(key)
    }
}

// SAFETY: each thread has its own value of the thread-local, alive while the thread is, shared
// only by caches in front of one allocator (`PerThread::new`); a value without drop code is never
// torn down, so `with` always succeeds.
unsafe impl ListStore for PerThread {
    fn lists(&self) -> *mut FreeLists {
        self.0.with(UnsafeCell::get)
    }
}

/// One set of lists, for a program with one thread: a WebAssembly module without the atomics
/// feature.
pub struct OneThread(UnsafeCell<FreeLists>);

impl OneThread {
    /// Empty lists.
    pub const fn new() -> Self {
        OneThread(UnsafeCell::new(FreeLists::new()))
    }
}

impl Default for OneThread {
    fn default() -> Self {
        OneThread::new()
    }
}

// SAFETY: without the atomics feature, a WebAssembly module runs on one thread, so the lists are
// never touched by two threads at once.
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
unsafe impl Sync for OneThread {}

// SAFETY: the lists are used only by the thread that owns the store (`OneThread` is not `Sync`
// except where there is one thread), they live as long as the store, and they are the same on
// every call.
unsafe impl ListStore for OneThread {
    fn lists(&self) -> *mut FreeLists {
        self.0.get()
    }
}

/// An allocator that serves small blocks from per-size free lists kept in `S` and everything
/// else from `A`.
pub struct SmallBlocks<A, S> {
    inner: A,
    store: S,
    max_cached: usize,
}

impl<A, S: ListStore> SmallBlocks<A, S> {
    /// A cache in front of `inner`, keeping at most `max_cached` blocks of each size class.
    pub const fn new(inner: A, store: S, max_cached: usize) -> Self {
        SmallBlocks {
            inner,
            store,
            max_cached,
        }
    }

    /// Blocks the calling thread has cached in all classes.
    pub fn cached(&self) -> usize {
        // SAFETY: the store gives this thread's lists, and no list is borrowed across calls.
        unsafe { (*self.store.lists()).0.iter().map(|list| list.len).sum() }
    }

    /// The size class of blocks of `layout` and the calling thread's list of it, when they are
    /// small enough to cache.
    ///
    /// # Safety
    /// The list must not be used after another call of this function.
    #[allow(
        clippy::mut_from_ref,
        reason = "one thread per list, and each list is used by one call at a time"
    )]
    unsafe fn list_of(&self, layout: Layout) -> Option<(usize, &mut FreeList)> {
        let class = class_of(layout)?;
        // SAFETY: the store gives lists only this thread uses, `inner` never calls back into
        // this allocator, and the caller uses the list within one call.
        let list = unsafe { (*self.store.lists()).0.get_mut(class)? };
        Some((class, list))
    }
}

/// The size class of blocks of `layout`, when they are small and aligned enough to cache.
fn class_of(layout: Layout) -> Option<usize> {
    let size = layout.size().max(1);
    (size <= MAX_SMALL_BYTES && layout.align() <= BLOCK_ALIGN).then(|| (size - 1) / GRANULE_BYTES)
}

/// The layout every block of `class` has in the inner allocator.
fn class_layout(class: usize) -> Layout {
    // SAFETY: the size is a non-zero multiple of the alignment, a power of two, far below
    // `isize::MAX`.
    unsafe { Layout::from_size_align_unchecked((class + 1) * GRANULE_BYTES, BLOCK_ALIGN) }
}

// In WebAssembly the methods are kept out of line: inlined into every allocation site, the fast
// paths made the module 25 KB larger (4 KB gzipped) for no measurable speed.
//
// SAFETY: small blocks are allocated from `inner` with their class's layout and only handed out
// again, or freed to `inner`, with that same layout; every other block is `inner`'s own. A cached
// block is at least 16 bytes and 8-aligned, room for its link. A thread's lists hold only blocks
// that calls on that thread put there, through this cache or another in front of the same
// allocator (the stores' contracts).
unsafe impl<A: GlobalAlloc, S: ListStore> GlobalAlloc for SmallBlocks<A, S> {
    #[cfg_attr(target_arch = "wasm32", inline(never))]
    #[cfg_attr(not(target_arch = "wasm32"), inline)]
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

    #[cfg_attr(target_arch = "wasm32", inline(never))]
    #[cfg_attr(not(target_arch = "wasm32"), inline)]
    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        let Some((class, list)) = (unsafe { self.list_of(layout) }) else {
            return unsafe { self.inner.dealloc(block, layout) };
        };
        if list.len >= self.max_cached {
            return unsafe { self.inner.dealloc(block, class_layout(class)) };
        }
        let cached: *mut FreeBlock = block.cast();
        // SAFETY: the caller gives the block up, and it is aligned and large enough for the link.
        unsafe { cached.write(FreeBlock { next: list.head }) };
        list.head = cached;
        list.len += 1;
    }

    #[cfg_attr(target_arch = "wasm32", inline(never))]
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

    #[cfg_attr(target_arch = "wasm32", inline(never))]
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
mod tests;
