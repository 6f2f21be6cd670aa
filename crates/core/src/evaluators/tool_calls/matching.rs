//! Whether incomplete evidence could fill the expected slots that complete evidence left open:
//! a bipartite matching (each observed entry can stand for at most one slot).

/// Whether every slot can be given a distinct entry for which `compatible(slot, entry)` holds.
pub(super) fn can_fill<S, E>(
    slots: &[S],
    entries: &[E],
    compatible: impl Fn(&S, &E) -> bool,
) -> bool {
    if slots.len() > entries.len() {
        return false;
    }
    let mut owner: Vec<Option<usize>> = vec![None; entries.len()];
    (0..slots.len()).all(|slot| {
        let mut visited = vec![false; entries.len()];
        augment(slot, slots, entries, &compatible, &mut owner, &mut visited)
    })
}

/// Kuhn's augmenting path from `slot`.
fn augment<S, E>(
    slot: usize,
    slots: &[S],
    entries: &[E],
    compatible: &impl Fn(&S, &E) -> bool,
    owner: &mut [Option<usize>],
    visited: &mut [bool],
) -> bool {
    let Some(slot_value) = slots.get(slot) else {
        return false;
    };
    for (entry, entry_value) in entries.iter().enumerate() {
        if !compatible(slot_value, entry_value) || visited.get(entry).copied().unwrap_or(true) {
            continue;
        }
        if let Some(seen) = visited.get_mut(entry) {
            *seen = true;
        }
        let current = owner.get(entry).copied().flatten();
        let free = match current {
            None => true,
            Some(other) => augment(other, slots, entries, compatible, owner, visited),
        };
        if free {
            if let Some(owned) = owner.get_mut(entry) {
                *owned = Some(slot);
            }
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::can_fill;

    #[test]
    fn needs_distinct_entries() {
        let same = |a: &char, b: &char| a == b || *b == '*';
        assert!(can_fill(&['a', 'b'], &['*', 'b'], same));
        assert!(can_fill(&['a', 'b'], &['b', '*'], same));
        assert!(!can_fill(&['a', 'a'], &['a'], same));
        assert!(!can_fill(&['a', 'c'], &['a', 'b'], same));
        assert!(can_fill::<char, char>(&[], &[], same));
    }
}
