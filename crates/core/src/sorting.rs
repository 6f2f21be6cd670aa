//! One shared stable sort for paths where code size matters more than speed.
//!
//! The standard library's sorts are instantiated once per element type and comparison, and each
//! instance is several kilobytes of WebAssembly. Here a slice is ordered by sorting positions with
//! a type-erased comparison, so the sort itself exists once and each caller adds only a small
//! permutation step. Ties keep their order, as with `slice::sort_by`.

use std::cmp::Ordering;

/// Sorts `items` stably by `compare`.
pub(crate) fn sort_stable_by<T>(items: &mut [T], compare: impl Fn(&T, &T) -> Ordering) {
    if items.is_sorted_by(|a, b| compare(a, b) != Ordering::Greater) {
        return;
    }
    let mut order: Vec<usize> = (0..items.len()).collect();
    {
        let items: &[T] = items;
        sort_positions(&mut order, &|a, b| match (items.get(a), items.get(b)) {
            (Some(a), Some(b)) => compare(a, b),
            _ => Ordering::Equal,
        });
    }
    permute(items, &mut order);
}

/// Sorts `items` stably by the key `key` gives each.
pub(crate) fn sort_stable_by_key<T, K: Ord>(items: &mut [T], key: impl Fn(&T) -> K) {
    sort_stable_by(items, |a, b| key(a).cmp(&key(b)));
}

/// Sorts positions stably by `compare`: by insertion when short, else a bottom-up merge sort; the
/// one sort instance every caller shares (about 0.7 KB of WebAssembly, where the standard
/// library's unstable sort of positions was 9 KB).
#[inline(never)]
fn sort_positions(order: &mut Vec<usize>, compare: &dyn Fn(usize, usize) -> Ordering) {
    if order.len() <= INSERTION_SORTED {
        insertion_sort(order, compare);
        return;
    }
    let len = order.len();
    let mut merged = vec![0; len];
    let mut width = 1;
    while width < len {
        for (runs, out) in order.chunks(2 * width).zip(merged.chunks_mut(2 * width)) {
            let (left, right) = runs.split_at(width.min(runs.len()));
            merge(left, right, out, compare);
        }
        std::mem::swap(order, &mut merged);
        width *= 2;
    }
}

/// Slices this short are sorted by insertion, in place.
const INSERTION_SORTED: usize = 16;

/// Sorts `order` stably by `compare`, moving each position back past the greater ones before it.
fn insertion_sort(order: &mut [usize], compare: &dyn Fn(usize, usize) -> Ordering) {
    for end in 1..order.len() {
        let mut at = end;
        while at > 0 {
            match (order.get(at - 1), order.get(at)) {
                (Some(&before), Some(&current))
                    if compare(before, current) == Ordering::Greater =>
                {
                    order.swap(at - 1, at);
                    at -= 1;
                }
                _ => break,
            }
        }
    }
}

/// Merges two sorted runs into `out`, the left run first among equals.
fn merge(
    left: &[usize],
    right: &[usize],
    out: &mut [usize],
    compare: &dyn Fn(usize, usize) -> Ordering,
) {
    let (mut left, mut right) = (
        left.iter().copied().peekable(),
        right.iter().copied().peekable(),
    );
    for slot in out {
        let next = match (left.peek(), right.peek()) {
            (Some(&a), Some(&b)) if compare(b, a) == Ordering::Less => right.next(),
            (Some(_), _) => left.next(),
            (None, _) => right.next(),
        };
        *slot = next.unwrap_or_default();
    }
}

/// Rearranges `items` so that position `i` holds what was at `order[i]`, following each cycle of
/// the permutation once; `order` is left as the identity.
fn permute<T>(items: &mut [T], order: &mut [usize]) {
    for start in 0..order.len() {
        let mut current = start;
        while let Some(slot) = order.get_mut(current) {
            let source = std::mem::replace(slot, current);
            if source == start {
                break;
            }
            items.swap(current, source);
            current = source;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::XorShift;

    #[test]
    fn sorts_like_the_standard_stable_sort() {
        let mut rng = XorShift::new(0x2545_f491_4f6c_dd1d);
        for len in (0..40).chain([63, 64, 65, 257, 1000]) {
            let items: Vec<(u8, usize)> = (0..len)
                .map(|position| (rng.below(5) as u8, position))
                .collect();
            let mut expected = items.clone();
            expected.sort_by_key(|item| item.0);
            let mut actual = items;
            sort_stable_by_key(&mut actual, |item| item.0);
            assert_eq!(actual, expected, "length {len}");
        }
    }

    #[test]
    fn follows_every_cycle_of_the_permutation() {
        let mut items = vec!["c", "a", "d", "b", "e"];
        sort_stable_by(&mut items, |a, b| b.cmp(a));
        assert_eq!(items, ["e", "d", "c", "b", "a"]);
        let mut owned: Vec<String> = ["b", "a", "b", "a"].map(String::from).to_vec();
        sort_stable_by(&mut owned, Ord::cmp);
        assert_eq!(owned, ["a", "a", "b", "b"]);
    }
}
