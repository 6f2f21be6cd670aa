//! Multiset arithmetic shared by the token and tool-step metrics.

use std::cmp::Ordering;

/// Size of the multiset intersection of `left` and `right` (each element counted as often as it
/// occurs in both), found by sorting both in place and merging them.
pub(crate) fn intersection_len<T: Ord>(left: &mut [T], right: &mut [T]) -> usize {
    left.sort_unstable();
    right.sort_unstable();
    sorted_intersection_len(left, right)
}

/// [`intersection_len`] with the shared sort of [`crate::sorting`]: for short lists on paths
/// where the size of another sort instance matters more than speed.
pub(crate) fn intersection_len_small<T: Ord>(left: &mut [T], right: &mut [T]) -> usize {
    crate::sorting::sort_stable_by(left, Ord::cmp);
    crate::sorting::sort_stable_by(right, Ord::cmp);
    sorted_intersection_len(left, right)
}

/// Size of the multiset intersection of two sorted slices, found by merging them.
fn sorted_intersection_len<T: Ord>(left: &[T], right: &[T]) -> usize {
    let (mut i, mut j, mut common) = (0, 0, 0);
    while let (Some(a), Some(b)) = (left.get(i), right.get(j)) {
        match a.cmp(b) {
            Ordering::Less => i += 1,
            Ordering::Greater => j += 1,
            Ordering::Equal => {
                common += 1;
                i += 1;
                j += 1;
            }
        }
    }
    common
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_each_element_as_often_as_both_hold_it() {
        let count =
            |left: &[u8], right: &[u8]| intersection_len(&mut left.to_vec(), &mut right.to_vec());
        assert_eq!(count(b"aab", b"abb"), 2);
        assert_eq!(count(b"aaa", b"aa"), 2);
        assert_eq!(count(b"cab", b"xyz"), 0);
        assert_eq!(count(b"", b"abc"), 0);
        assert_eq!(count(b"zyxa", b"axyz"), 4);
        let small = |left: &[u8], right: &[u8]| {
            intersection_len_small(&mut left.to_vec(), &mut right.to_vec())
        };
        assert_eq!(small(b"aab", b"abb"), 2);
        assert_eq!(small(b"aaa", b"aa"), 2);
        assert_eq!(small(b"zyxa", b"axyz"), 4);
        assert_eq!(small(b"cba", b"xyz"), 0);
    }
}
