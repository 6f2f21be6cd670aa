//! The global allocator's blocks, from mimalloc alone and through the small-block cache in front
//! of it: aligned as asked, their bytes kept through `realloc`, zeroed when asked (`allocator.rs`
//! is also compiled into the core's benchmarks, so its tests live here).

use std::alloc::{GlobalAlloc, Layout};

use crate::allocator::MiMalloc;

/// mimalloc alone, and the global allocator (the cache in front of it).
fn allocators() -> [(&'static str, &'static dyn GlobalAlloc); 2] {
    [("mimalloc", &MiMalloc), ("cached", &crate::ALLOCATOR)]
}

fn sizes() -> impl Iterator<Item = usize> {
    (1..=300).chain([511, 512, 513, 1000, 4096, 5000, 70_000, 1 << 20, 5 << 20])
}

fn layout(size: usize, align: usize) -> Layout {
    let Ok(layout) = Layout::from_size_align(size, align) else {
        panic!("layout {size}/{align}");
    };
    layout
}

#[test]
fn blocks_have_their_alignment_and_keep_their_bytes_through_realloc() {
    for (name, allocator) in allocators() {
        for align in [1, 2, 4, 8, 16, 32, 64, 4096] {
            for size in sizes() {
                let at = format!("{name} {size}/{align}");
                let layout = layout(size, align);
                // SAFETY: non-zero sizes; every block is written within its size and freed once
                // with its current layout.
                unsafe {
                    let block = allocator.alloc(layout);
                    assert!(!block.is_null(), "{at}");
                    assert_eq!(block.addr() % align, 0, "{at}");
                    block.write_bytes(0xA5, size);
                    let grown_size = size * 3 + 7;
                    let grown = allocator.realloc(block, layout, grown_size);
                    assert!(!grown.is_null(), "{at} grown");
                    assert_eq!(grown.addr() % align, 0, "{at} grown");
                    let kept = std::slice::from_raw_parts(grown, size);
                    assert!(kept.iter().all(|&byte| byte == 0xA5), "{at} grown");
                    grown.add(size).write_bytes(0x5A, grown_size - size);
                    let grown_layout = Layout::from_size_align_unchecked(grown_size, align);
                    let shrunk = allocator.realloc(grown, grown_layout, size.div_ceil(2));
                    assert_eq!(shrunk.addr() % align, 0, "{at} shrunk");
                    let kept = std::slice::from_raw_parts(shrunk, size.div_ceil(2));
                    assert!(kept.iter().all(|&byte| byte == 0xA5), "{at} shrunk");
                    allocator.dealloc(
                        shrunk,
                        Layout::from_size_align_unchecked(size.div_ceil(2), align),
                    );
                }
            }
        }
    }
}

#[test]
fn zeroed_blocks_are_zero_even_where_freed_blocks_were_written() {
    for (name, allocator) in allocators() {
        for align in [1, 8, 16, 64] {
            for size in sizes() {
                let layout = layout(size, align);
                // SAFETY: as above.
                unsafe {
                    let dirty = allocator.alloc(layout);
                    dirty.write_bytes(0xFF, size);
                    allocator.dealloc(dirty, layout);
                    let block = allocator.alloc_zeroed(layout);
                    assert_eq!(block.addr() % align, 0, "{name} {size}/{align}");
                    let bytes = std::slice::from_raw_parts(block, size);
                    assert!(bytes.iter().all(|&byte| byte == 0), "{name} {size}/{align}");
                    allocator.dealloc(block, layout);
                }
            }
        }
    }
}

#[test]
fn a_freed_small_block_comes_back_from_the_cache() {
    let small = layout(40, 8);
    // SAFETY: the block is freed once with its layout, then taken again and freed once more.
    unsafe {
        let first = crate::ALLOCATOR.alloc(small);
        first.write_bytes(0x11, 40);
        crate::ALLOCATOR.dealloc(first, small);
        let again = crate::ALLOCATOR.alloc(layout(33, 4));
        assert_eq!(again, first, "the last freed block of the class");
        crate::ALLOCATOR.dealloc(again, layout(33, 4));
    }
}
