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

const LIMIT: usize = 64;

fn cache() -> SmallBlocks<Counting, OneThread> {
    SmallBlocks::new(Counting::default(), OneThread::new(), LIMIT)
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
    assert_eq!(class_of(layout(8, 16)), None);
}

#[test]
fn a_freed_small_block_is_reused_without_asking_the_inner_allocator() {
    let cache = cache();
    unsafe {
        let first = cache.alloc(layout(24, 8));
        cache.dealloc(first, layout(24, 8));
        assert_eq!(cache.cached(), 1);
        let second = cache.alloc(layout(30, 4));
        assert_eq!(second, first, "same class, same block");
        assert_eq!(cache.inner.allocations.get(), 1);
        assert_eq!(second as usize % BLOCK_ALIGN, 0);
        cache.dealloc(second, layout(30, 4));
    }
}

#[test]
fn the_last_freed_block_of_a_class_comes_back_first() {
    let cache = cache();
    unsafe {
        let blocks: Vec<_> = (0..5).map(|_| cache.alloc(layout(40, 8))).collect();
        for &block in &blocks {
            cache.dealloc(block, layout(40, 8));
        }
        for &block in blocks.iter().rev() {
            assert_eq!(cache.alloc(layout(33, 8)), block);
        }
        for block in blocks {
            cache.dealloc(block, layout(40, 8));
        }
    }
}

#[test]
fn large_and_overaligned_blocks_pass_through() {
    let cache = cache();
    unsafe {
        for layout in [layout(4096, 8), layout(32, 16)] {
            let block = cache.alloc(layout);
            assert_eq!(block as usize % layout.align(), 0);
            cache.dealloc(block, layout);
        }
    }
    assert_eq!(cache.cached(), 0);
    assert_eq!(cache.inner.frees.get(), 2);
}

#[test]
fn a_full_class_frees_to_the_inner_allocator() {
    let cache = cache();
    let small = layout(40, 8);
    unsafe {
        let blocks: Vec<_> = (0..LIMIT + 3).map(|_| cache.alloc(small)).collect();
        for block in blocks {
            cache.dealloc(block, small);
        }
    }
    assert_eq!(cache.cached(), LIMIT);
    assert_eq!(cache.inner.frees.get(), 3);
}

#[test]
fn reallocation_keeps_the_contents_across_classes_and_sizes() {
    let cache = cache();
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
    let cache = cache();
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

thread_local! {
    static TEST_LISTS: UnsafeCell<FreeLists> = const { UnsafeCell::new(FreeLists::new()) };
}

#[test]
fn each_thread_reuses_only_the_blocks_it_freed() {
    // SAFETY: `TEST_LISTS` serves this cache alone.
    static SHARED: SmallBlocks<System, PerThread> =
        SmallBlocks::new(System, unsafe { PerThread::new(&TEST_LISTS) }, LIMIT);
    let small = layout(48, 8);
    let here = unsafe { SHARED.alloc(small) };
    unsafe { SHARED.dealloc(here, small) };
    assert_eq!(SHARED.cached(), 1);
    let there = std::thread::spawn(move || {
        let cached_at_start = SHARED.cached();
        let block = unsafe { SHARED.alloc(small) };
        unsafe { SHARED.dealloc(block, small) };
        (cached_at_start, block as usize, SHARED.cached())
    })
    .join()
    .unwrap();
    assert_eq!(
        (there.0, there.2),
        (0, 1),
        "the other thread's lists start empty"
    );
    assert_ne!(there.1, here as usize, "this thread's block stayed here");
    assert_eq!(unsafe { SHARED.alloc(small) }, here);
    unsafe { SHARED.dealloc(here, small) };
}
