//! WordNet 3.0 as METEOR's synonym stage reads it: for a word, the lemma names of every synset
//! `nltk.corpus.wordnet.synsets(word)` returns (all parts of speech, with NLTK's `_morphy`: the
//! exception lists, else one round of its detachment rules), less the names METEOR can never
//! match. The table is generated from Princeton's WNdb-3.0 by `tests/parity/gen_wordnet_table.py`
//! (its docstring has the byte format) and handed over by the host: this module holds no IO. The
//! CLI embeds it; the npm package fetches it when METEOR first runs.
//!
//! A table is checked whole when it is read ([`WordNet::parse`]), so lookups never meet a bad
//! offset; one table per process is [`install`]ed and METEOR reads it through [`installed`].

use std::borrow::Cow;
use std::fmt;
use std::sync::OnceLock;

use crate::text::python;

const MAGIC: &[u8; 4] = b"WNM1";
const VERSION: u32 = 1;
const HEADER_LEN: usize = 24;

/// NLTK's `MORPHOLOGICAL_SUBSTITUTIONS` for nouns, verbs, adjectives and adverbs (`POS_LIST` order).
const SUBSTITUTIONS: [&[(&str, &str)]; 4] = [
    &[
        ("s", ""),
        ("ses", "s"),
        ("ves", "f"),
        ("xes", "x"),
        ("zes", "z"),
        ("ches", "ch"),
        ("shes", "sh"),
        ("men", "man"),
        ("ies", "y"),
    ],
    &[
        ("s", ""),
        ("ies", "y"),
        ("es", "e"),
        ("es", ""),
        ("ed", "e"),
        ("ed", ""),
        ("ing", "e"),
        ("ing", ""),
    ],
    &[("er", ""), ("est", ""), ("er", "e"), ("est", "e")],
    &[],
];

/// Why bytes are not a METEOR WordNet table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableError(String);

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a METEOR WordNet table: {}", self.0)
    }
}

impl std::error::Error for TableError {}

fn bad(what: &str) -> TableError {
    TableError(what.to_owned())
}

/// A checked METEOR WordNet table.
pub struct WordNet {
    data: Cow<'static, [u8]>,
    strings: usize,
    sets: usize,
    entry_offsets: usize,
    entries: usize,
    set_offsets: usize,
    set_blob: usize,
    /// Open-addressing hash index of the strings: slot → string id + 1 (0 = empty); a look-up
    /// touches one or two slots instead of the 17 steps of a binary search through the table.
    slots: Vec<u32>,
}

/// FNV-1a, 64 bits: the index's hash of a string.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// One string's entry: its name-set ids per part of speech and its exception keys' bases.
struct Entry<'a> {
    flags: u8,
    body: &'a [u8],
}

fn read_u32(data: &[u8], at: usize) -> Option<u32> {
    let bytes = data.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes(bytes.try_into().ok()?))
}

/// A LEB128 number at the start of `bytes` and the bytes after it.
fn read_leb128(bytes: &[u8]) -> Option<(u32, &[u8])> {
    let mut value: u32 = 0;
    for (index, &byte) in bytes.iter().enumerate().take(5) {
        let shift = 7 * u32::try_from(index).ok()?;
        let part = u32::from(byte & 0x7F);
        if shift == 28 && part > 0x0F {
            return None;
        }
        value |= part << shift;
        if byte & 0x80 == 0 {
            return Some((value, bytes.get(index + 1..)?));
        }
    }
    None
}

impl WordNet {
    /// Reads and checks a table (the ungzipped bytes of `wordnet-meteor.bin.gz`).
    ///
    /// # Errors
    /// [`TableError`] when the bytes are not a complete, consistent table of this version.
    pub fn parse(data: impl Into<Cow<'static, [u8]>>) -> Result<WordNet, TableError> {
        let data = data.into();
        if data.get(..4) != Some(MAGIC.as_slice()) {
            return Err(bad("wrong magic bytes"));
        }
        let field = |index: usize| {
            read_u32(&data, 4 + 4 * index)
                .and_then(|value| usize::try_from(value).ok())
                .ok_or_else(|| bad("truncated header"))
        };
        if field(0)? != VERSION as usize {
            return Err(bad("unknown version"));
        }
        let (strings, sets, entries_len, sets_len) = (field(1)?, field(2)?, field(3)?, field(4)?);
        let entry_offsets = HEADER_LEN;
        let entries = entry_offsets + 4 * (strings + 1);
        let set_offsets = entries + entries_len;
        let set_blob = set_offsets + 4 * (sets + 1);
        if set_blob + sets_len != data.len() {
            return Err(bad("section lengths do not add up to its size"));
        }
        let mut table = WordNet {
            data,
            strings,
            sets,
            entry_offsets,
            entries,
            set_offsets,
            set_blob,
            slots: Vec::new(),
        };
        table.check()?;
        table.slots = table.index()?;
        Ok(table)
    }

    /// Offsets `index` and `index + 1` of an offsets array, as a range into its blob.
    fn span(&self, offsets: usize, blob: usize, blob_len: usize, index: usize) -> Option<&[u8]> {
        let start = usize::try_from(read_u32(&self.data, offsets + 4 * index)?).ok()?;
        let end = usize::try_from(read_u32(&self.data, offsets + 4 * index + 4)?).ok()?;
        if start > end || end > blob_len {
            return None;
        }
        self.data.get(blob + start..blob + end)
    }

    fn entry_bytes(&self, id: usize) -> Option<&[u8]> {
        if id >= self.strings {
            return None;
        }
        self.span(
            self.entry_offsets,
            self.entries,
            self.set_offsets - self.entries,
            id,
        )
    }

    fn text(&self, id: usize) -> Option<&[u8]> {
        let bytes = self.entry_bytes(id)?;
        bytes.get(..bytes.iter().position(|&b| b == 0)?)
    }

    fn entry(&self, id: usize) -> Option<Entry<'_>> {
        let bytes = self.entry_bytes(id)?;
        let nul = bytes.iter().position(|&b| b == 0)?;
        let flags = *bytes.get(nul + 1)?;
        Some(Entry {
            flags,
            body: bytes.get(nul + 2..)?,
        })
    }

    fn name_set(&self, id: u32) -> Option<&[u8]> {
        let id = usize::try_from(id).ok()?;
        if id >= self.sets {
            return None;
        }
        let blob_len = self.data.len() - self.set_blob;
        self.span(self.set_offsets, self.set_blob, blob_len, id)
    }

    /// Every offset in bounds and ordered, strings sorted and UTF-8, every entry and name set
    /// read to its exact end with ids in range.
    fn check(&self) -> Result<(), TableError> {
        let mut previous: Option<&[u8]> = None;
        for id in 0..self.strings {
            let text = self
                .text(id)
                .ok_or_else(|| bad("an entry is out of bounds"))?;
            if std::str::from_utf8(text).is_err() {
                return Err(bad("a string is not UTF-8"));
            }
            if previous.is_some_and(|previous| previous >= text) {
                return Err(bad("strings are not sorted"));
            }
            previous = Some(text);
            let entry = self.entry(id).ok_or_else(|| bad("an entry has no flags"))?;
            let mut rest = entry.body;
            for bit in 0..4 {
                if entry.flags & (1 << bit) != 0 {
                    let (set, after) = read_leb128(rest).ok_or_else(|| bad("a bad number"))?;
                    if usize::try_from(set).map_or(true, |set| set >= self.sets) {
                        return Err(bad("a name-set id is out of range"));
                    }
                    rest = after;
                }
            }
            for bit in 4..8 {
                if entry.flags & (1 << bit) != 0 {
                    let (count, mut after) =
                        read_leb128(rest).ok_or_else(|| bad("a bad number"))?;
                    for _ in 0..count {
                        let (base, next) = read_leb128(after).ok_or_else(|| bad("a bad number"))?;
                        if usize::try_from(base).map_or(true, |base| base >= self.strings) {
                            return Err(bad("a base form id is out of range"));
                        }
                        after = next;
                    }
                    rest = after;
                }
            }
            if !rest.is_empty() {
                return Err(bad("an entry has trailing bytes"));
            }
        }
        for id in 0..self.sets {
            let set = u32::try_from(id).map_err(|_| bad("too many name sets"))?;
            let bytes = self
                .name_set(set)
                .ok_or_else(|| bad("a name set is out of bounds"))?;
            let (count, mut rest) = read_leb128(bytes).ok_or_else(|| bad("a bad number"))?;
            let mut name: u64 = 0;
            for _ in 0..count {
                let (delta, next) = read_leb128(rest).ok_or_else(|| bad("a bad number"))?;
                name += u64::from(delta);
                if name >= self.strings as u64 {
                    return Err(bad("a name id is out of range"));
                }
                rest = next;
            }
            if !rest.is_empty() {
                return Err(bad("a name set has trailing bytes"));
            }
        }
        Ok(())
    }

    /// The string count of the table.
    pub fn len(&self) -> usize {
        self.strings
    }

    /// Whether the table holds no strings.
    pub fn is_empty(&self) -> bool {
        self.strings == 0
    }

    /// The hash index of a checked table.
    fn index(&self) -> Result<Vec<u32>, TableError> {
        let size = (self.strings * 2).next_power_of_two().max(2);
        let mask = size - 1;
        let mut slots = vec![0u32; size];
        for id in 0..self.strings {
            let text = self
                .text(id)
                .ok_or_else(|| bad("an entry is out of bounds"))?;
            let value = u32::try_from(id + 1).map_err(|_| bad("too many strings"))?;
            let mut slot = (fnv1a(text) as usize) & mask;
            while let Some(occupied) = slots.get_mut(slot) {
                if *occupied == 0 {
                    *occupied = value;
                    break;
                }
                slot = (slot + 1) & mask;
            }
        }
        Ok(slots)
    }

    fn find(&self, word: &[u8]) -> Option<usize> {
        let mask = self.slots.len().checked_sub(1)?;
        let mut slot = (fnv1a(word) as usize) & mask;
        loop {
            let id = usize::try_from(*self.slots.get(slot)?)
                .ok()?
                .checked_sub(1)?;
            if self.text(id)? == word {
                return Some(id);
            }
            slot = (slot + 1) & mask;
        }
    }

    /// [`WordNet::find`] by binary search over the sorted strings (the index's oracle in tests).
    #[cfg(test)]
    fn find_sorted(&self, word: &[u8]) -> Option<usize> {
        let (mut low, mut high) = (0, self.strings);
        while low < high {
            let middle = low + (high - low) / 2;
            match self.text(middle)?.cmp(word) {
                std::cmp::Ordering::Less => low = middle + 1,
                std::cmp::Ordering::Greater => high = middle,
                std::cmp::Ordering::Equal => return Some(middle),
            }
        }
        None
    }

    /// The name-set id of `id` as an index lemma of part of speech `pos` (0–3).
    fn lemma_set(&self, id: usize, pos: usize) -> Option<u32> {
        let entry = self.entry(id)?;
        if entry.flags & (1 << pos) == 0 {
            return None;
        }
        let mut rest = entry.body;
        for bit in 0..pos {
            if entry.flags & (1 << bit) != 0 {
                rest = read_leb128(rest)?.1;
            }
        }
        read_leb128(rest).map(|(set, _)| set)
    }

    /// The base forms of `id` as a key of part of speech `pos`'s exception list, or `None` when
    /// it is not one.
    fn exception_bases(&self, id: usize, pos: usize) -> Option<Vec<usize>> {
        let entry = self.entry(id)?;
        if entry.flags & (1 << (4 + pos)) == 0 {
            return None;
        }
        let mut rest = entry.body;
        for _ in 0..(entry.flags & 0x0F).count_ones() {
            rest = read_leb128(rest)?.1;
        }
        for bit in 4..4 + pos {
            if entry.flags & (1 << bit) != 0 {
                let (count, mut after) = read_leb128(rest)?;
                for _ in 0..count {
                    after = read_leb128(after)?.1;
                }
                rest = after;
            }
        }
        let (count, mut rest) = read_leb128(rest)?;
        let mut bases = Vec::new();
        for _ in 0..count {
            let (base, after) = read_leb128(rest)?;
            bases.push(usize::try_from(base).ok()?);
            rest = after;
        }
        Some(bases)
    }

    /// The name sets of `wordnet.synsets(word)` for one part of speech: NLTK's `_morphy`.
    fn morphy_sets(&self, word: &str, pos: usize, sets: &mut Vec<u32>) {
        let found = self.find(word.as_bytes());
        if let Some(id) = found {
            sets.extend(self.lemma_set(id, pos));
            if let Some(bases) = self.exception_bases(id, pos) {
                sets.extend(
                    bases
                        .into_iter()
                        .filter_map(|base| self.lemma_set(base, pos)),
                );
                return;
            }
        }
        let rules = SUBSTITUTIONS.get(pos).copied().unwrap_or_default();
        let mut candidate = String::new();
        for (old, new) in rules {
            let Some(stem) = word.strip_suffix(old) else {
                continue;
            };
            candidate.clear();
            candidate.push_str(stem);
            candidate.push_str(new);
            if let Some(id) = self.find(candidate.as_bytes()) {
                sets.extend(self.lemma_set(id, pos));
            }
        }
    }

    /// The lemma names of `wordnet.synsets(word)` that METEOR can match: without `_` and without
    /// an ASCII capital (METEOR compares them with lower-case Porter stems), sorted, unique.
    pub fn synonyms(&self, word: &str) -> Vec<&str> {
        let word = python::lower(word);
        let mut sets = Vec::new();
        for pos in 0..SUBSTITUTIONS.len() {
            self.morphy_sets(&word, pos, &mut sets);
        }
        sets.sort_unstable();
        sets.dedup();
        let mut names: Vec<usize> = Vec::new();
        for set in sets {
            let Some((count, mut rest)) = self.name_set(set).and_then(read_leb128) else {
                continue;
            };
            let mut name = 0usize;
            for _ in 0..count {
                let Some((delta, after)) = read_leb128(rest) else {
                    break;
                };
                name += delta as usize;
                names.push(name);
                rest = after;
            }
        }
        names.sort_unstable();
        names.dedup();
        names
            .into_iter()
            .filter_map(|id| std::str::from_utf8(self.text(id)?).ok())
            .collect()
    }
}

static INSTALLED: OnceLock<WordNet> = OnceLock::new();

/// Where the host keeps the table until METEOR first needs it.
pub type Loader = fn() -> Result<Vec<u8>, String>;

static LOADER: OnceLock<Loader> = OnceLock::new();

/// Installs the table METEOR reads, from the ungzipped bytes of `wordnet-meteor.bin.gz`. The
/// first table installed stays; installing again checks the bytes and keeps the first.
///
/// # Errors
/// [`TableError`] when the bytes are not a table; nothing is installed then.
pub fn install(data: impl Into<Cow<'static, [u8]>>) -> Result<(), TableError> {
    let table = WordNet::parse(data)?;
    let _ = INSTALLED.set(table);
    Ok(())
}

/// Registers `loader`, called (once it succeeds) the first time METEOR needs the table, so a host
/// that embeds it (the CLI) pays for reading it only in runs that use METEOR. The first loader
/// registered stays.
pub fn install_lazily(loader: Loader) {
    let _ = LOADER.set(loader);
}

/// The installed table, loading it through the registered [`Loader`] if none is installed yet;
/// `None` when there is neither, or the loader fails or gives bytes that are not a table.
pub fn installed() -> Option<&'static WordNet> {
    if let Some(table) = INSTALLED.get() {
        return Some(table);
    }
    let bytes = (LOADER.get()?)().ok()?;
    install(bytes).ok()?;
    INSTALLED.get()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table of `strings` (sorted), where `dog` is a noun whose synsets name `dog` and `hound`,
    /// and `geese` a noun exception with base `goose`, itself a noun named `goose`.
    fn tiny() -> Vec<u8> {
        let strings = ["a", "dog", "geese", "goose", "hound", "zebra"];
        let id = |text: &str| strings.iter().position(|s| *s == text).unwrap() as u8;
        let sets: [Vec<u8>; 2] = [
            vec![2, id("dog"), id("hound") - id("dog")],
            vec![1, id("goose")],
        ];
        let mut entries = Vec::new();
        let mut offsets = Vec::new();
        for text in strings {
            offsets.push(entries.len() as u32);
            entries.extend_from_slice(text.as_bytes());
            entries.push(0);
            match text {
                "dog" => entries.extend([0b0001, 0]),
                "goose" => entries.extend([0b0001, 1]),
                "geese" => entries.extend([0b0001_0000, 1, id("goose")]),
                _ => entries.push(0),
            }
        }
        offsets.push(entries.len() as u32);
        let mut set_blob = Vec::new();
        let mut set_offsets = Vec::new();
        for set in &sets {
            set_offsets.push(set_blob.len() as u32);
            set_blob.extend(set);
        }
        set_offsets.push(set_blob.len() as u32);
        let mut out = b"WNM1".to_vec();
        for value in [1, strings.len(), sets.len(), entries.len(), set_blob.len()] {
            out.extend((value as u32).to_le_bytes());
        }
        offsets.iter().for_each(|o| out.extend(o.to_le_bytes()));
        out.extend(&entries);
        set_offsets.iter().for_each(|o| out.extend(o.to_le_bytes()));
        out.extend(&set_blob);
        out
    }

    #[test]
    fn the_hash_index_finds_what_the_sorted_strings_hold() {
        let table = WordNet::parse(tiny()).unwrap();
        for word in [
            "a", "dog", "geese", "goose", "hound", "zebra", "", "do", "dogs", "zz",
        ] {
            assert_eq!(
                table.find(word.as_bytes()),
                table.find_sorted(word.as_bytes()),
                "{word}"
            );
        }
        assert_eq!(table.find(b"zebra"), Some(5));
    }

    #[test]
    fn synonyms_follow_morphy() {
        let table = WordNet::parse(tiny()).unwrap();
        assert_eq!(table.synonyms("dogs"), ["dog", "hound"]);
        assert_eq!(table.synonyms("DOG"), ["dog", "hound"]);
        assert_eq!(table.synonyms("geese"), ["goose"]);
        assert!(table.synonyms("zebra").is_empty());
    }

    #[test]
    fn a_bad_name_set_id_is_refused() {
        let mut bytes = tiny();
        let dog = bytes.windows(4).position(|w| w == b"dog\0").unwrap();
        bytes[dog + 5] = 7;
        assert!(WordNet::parse(bytes).is_err());
    }
}
