//! The global allocator's blocks: aligned as asked, their bytes kept through `realloc`, zeroed
//! when asked (`allocator.rs` is also compiled into the core's benchmarks, so its tests live here).

use std::alloc::{GlobalAlloc, Layout};

use crate::allocator::MiMalloc;

fn sizes() -> impl Iterator<Item = usize> {
    (1..=300).chain([511, 512, 1000, 4096, 5000, 70_000, 1 << 20, 5 << 20])
}

#[test]
fn blocks_have_their_alignment_and_keep_their_bytes_through_realloc() {
    for align in [1, 2, 4, 8, 16, 32, 64, 4096] {
        for size in sizes() {
            let Ok(layout) = Layout::from_size_align(size, align) else {
                panic!("layout {size}/{align}");
            };
            // SAFETY: non-zero sizes; every block is written within its size and freed once
            // with its current layout.
            unsafe {
                let block = MiMalloc.alloc(layout);
                assert!(!block.is_null(), "{size}/{align}");
                assert_eq!(block.addr() % align, 0, "{size}/{align}");
                block.write_bytes(0xA5, size);
                let grown_size = size * 3 + 7;
                let grown = MiMalloc.realloc(block, layout, grown_size);
                assert!(!grown.is_null(), "{size}/{align} grown");
                assert_eq!(grown.addr() % align, 0, "{size}/{align} grown");
                let kept = std::slice::from_raw_parts(grown, size);
                assert!(
                    kept.iter().all(|&byte| byte == 0xA5),
                    "{size}/{align} grown"
                );
                grown.add(size).write_bytes(0x5A, grown_size - size);
                let grown_layout = Layout::from_size_align_unchecked(grown_size, align);
                let shrunk = MiMalloc.realloc(grown, grown_layout, size.div_ceil(2));
                assert_eq!(shrunk.addr() % align, 0, "{size}/{align} shrunk");
                let kept = std::slice::from_raw_parts(shrunk, size.div_ceil(2));
                assert!(
                    kept.iter().all(|&byte| byte == 0xA5),
                    "{size}/{align} shrunk"
                );
                MiMalloc.dealloc(
                    shrunk,
                    Layout::from_size_align_unchecked(size.div_ceil(2), align),
                );
            }
        }
    }
}

#[test]
fn zeroed_blocks_are_zero_even_where_freed_blocks_were_written() {
    for align in [1, 8, 16, 64] {
        for size in sizes() {
            let Ok(layout) = Layout::from_size_align(size, align) else {
                panic!("layout {size}/{align}");
            };
            // SAFETY: as above.
            unsafe {
                let dirty = MiMalloc.alloc(layout);
                dirty.write_bytes(0xFF, size);
                MiMalloc.dealloc(dirty, layout);
                let block = MiMalloc.alloc_zeroed(layout);
                assert_eq!(block.addr() % align, 0, "{size}/{align}");
                let bytes = std::slice::from_raw_parts(block, size);
                assert!(bytes.iter().all(|&byte| byte == 0), "{size}/{align}");
                MiMalloc.dealloc(block, layout);
            }
        }
    }
}
