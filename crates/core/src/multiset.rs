//! Multiset arithmetic shared by the token and tool-step metrics.

use std::collections::HashMap;
use std::hash::Hash;

/// Size of the multiset intersection of `left` and `right` (each element counted as often as it
/// occurs in both): the elements of `right` are counted, and each element of `left` takes one
/// of its count. Linear in the total length, whatever the input.
pub(crate) fn intersection_len<T: Hash + Eq>(
    left: impl IntoIterator<Item = T>,
    right: impl ExactSizeIterator<Item = T>,
) -> usize {
    let mut remaining: HashMap<T, usize, foldhash::fast::RandomState> =
        HashMap::with_capacity_and_hasher(right.len(), Default::default());
    for element in right {
        *remaining.entry(element).or_insert(0) += 1;
    }
    left.into_iter()
        .filter(|element| {
            remaining.get_mut(element).is_some_and(|count| {
                let taken = *count > 0;
                *count = count.saturating_sub(1);
                taken
            })
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_each_element_as_often_as_both_hold_it() {
        let count = |left: &[u8], right: &[u8]| intersection_len(left, right.iter());
        assert_eq!(count(b"aab", b"abb"), 2);
        assert_eq!(count(b"aaa", b"aa"), 2);
        assert_eq!(count(b"aa", b"aaa"), 2);
        assert_eq!(count(b"cab", b"xyz"), 0);
        assert_eq!(count(b"", b"abc"), 0);
        assert_eq!(count(b"abc", b""), 0);
        assert_eq!(count(b"zyxa", b"axyz"), 4);
        assert_eq!(count(b"abcabc", b"cba"), 3);
    }
}
