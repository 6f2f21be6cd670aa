#!/usr/bin/env python3
"""Generates the parity case files in tests/fixtures/parity/ from azure-ai-evaluation 1.18.10.

Setup (CPython 3.11, as the reference notes were written against; no NLTK data is needed):

    python3.11 -m venv .venv && .venv/bin/pip install azure-ai-evaluation==1.18.10
    .venv/bin/python tests/parity/generate_cases.py

Deterministic: hand-picked edge cases plus seeded random ones. Each file is
`{"evaluator", "reference", "result_key", "cases": [case, ...]}`; a case is

    {"name", "init": {...}, "inputs": {...}, <one of>:
        "output": {flat reference dict; NaN written as the string "NaN"}
        "error": "reference EvaluationException/ValueError message without the (UserError) prefix"
        "crash": "ExceptionType: message"     (raw Python error; agenteval must reject the case)
        "deviation": "why agenteval deliberately rejects what the reference accepts"}

`crates/core/tests/parity.rs` replays every case through the Rust catalog, offline.
"""

import argparse
import asyncio
import json
import math
import pathlib
import random
import string
import sys
import tempfile
import unicodedata

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import nltk_data  # noqa: E402  (lays out NLTK's data before the reference is imported)
import meteor_cases  # noqa: E402

from azure.ai.evaluation import (BleuScoreEvaluator, DocumentRetrievalEvaluator, F1ScoreEvaluator, GleuScoreEvaluator,
                                 RougeScoreEvaluator)
from azure.ai.evaluation._evaluators._task_navigation_efficiency import _TaskNavigationEfficiencyEvaluator
from azure.ai.evaluation._exceptions import EvaluationException

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "fixtures" / "parity"
REFERENCE = "azure-ai-evaluation 1.18.10"
REFERENCE_VALUE_ERRORS = ("Invalid rouge type:", "rougen requires positive n:")

# Shifts every random section's seed (`--seed-offset`): 0 writes the committed files, any other
# value a fresh sample from the same generators, for exploratory runs (`--out` elsewhere).
SEED_OFFSET = 0


def seeded(seed):
    """The random generator of one section."""
    return random.Random(seed + 1000 * SEED_OFFSET)


def clean(value):
    """JSON-safe copy of a reference output: NaN/inf floats become strings."""
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, dict):
        return {str(k): clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [clean(v) for v in value]
    return value


def run_reference(factory, init, inputs, to_python=lambda inputs: inputs):
    """Builds and calls the reference; returns the outcome part of a case."""
    try:
        evaluator = factory(**init)
        output = evaluator(**to_python(dict(inputs)))
    except EvaluationException as error:
        return {"error": error.message}
    except ValueError as error:
        if str(error).startswith(REFERENCE_VALUE_ERRORS):
            return {"error": str(error)}
        return {"crash": f"{type(error).__name__}: {error}"}
    except Exception as error:  # noqa: BLE001 - every raw Python error is recorded as a crash
        return {"crash": f"{type(error).__name__}: {error}"}
    return {"output": clean(output)}


def case(name, init, inputs, outcome):
    entry = {"name": name, "init": init, "inputs": inputs}
    entry.update(outcome)
    json.dumps(entry, allow_nan=False)
    return entry


def write(file_name, evaluator, result_key, cases):
    OUT.mkdir(parents=True, exist_ok=True)
    document = {"evaluator": evaluator, "reference": REFERENCE, "result_key": result_key, "cases": cases}
    text = json.dumps(document, ensure_ascii=False, indent=None, separators=(",", ":"), allow_nan=False)
    path = OUT / file_name
    path.write_text(text + "\n", encoding="utf-8")
    print(f"{path}: {len(cases)} cases, {len(text.encode()) // 1024} KiB")


# --------------------------------------------------------------------------------------------
# Text generators shared by F1 and ROUGE

WORDS = ["the", "The", "THE", "a", "A", "an", "An", "and", "cat", "Cat", "dog", "sat", "on", "mat",
         "Paris", "paris", "capital", "France", "is", "of", "théa", "café", "Café", "naïve", "İstanbul",
         "istanbul", "\u212aelvin", "kelvin", "ΟΔΟΣ", "οδος", "Σ", "straße", "STRASSE", "ﬁle", "file",
         "don't", "dont", "state-of-the-art", "U.S.", "e-mail", "a-the-an", "the_cat", "1,000", "3.14",
         "“quoted”", "’s", "…", "–", "中文", "日本語", "٣", "x\u0301a", "\u0915\u093ea", "ǅ", "Ǆ", "ᾈ",
         "\U0001d400", "\U0001f600", "42", "an-", "-the", "(a)", "[the]", "a.", "the,", "an!"]
SPACES = [" ", " ", " ", "  ", "\t", "\n", "\u00a0", "\u3000", "\u2009", "\x1c", "\x1f", "\u200b", "\u2028",
          "\x85", "\r\n"]
PUNCT = list(string.punctuation) + ["“", "”", "’", "—", "¿", "¡", "«", "»"]


def random_text(rng, max_words=14):
    parts = []
    for _ in range(rng.randint(0, max_words)):
        word = rng.choice(WORDS)
        roll = rng.random()
        if roll < 0.15:
            word += rng.choice(PUNCT)
        elif roll < 0.25:
            word = rng.choice(PUNCT) + word
        elif roll < 0.32:
            word = word.upper()
        parts.append(word)
        parts.append(rng.choice(SPACES))
    return "".join(parts)


def related_pair(rng):
    response = random_text(rng)
    roll = rng.random()
    if roll < 0.45:
        words = response.split()
        rng.shuffle(words)
        keep = words[: rng.randint(0, len(words))]
        ground_truth = " ".join(keep + random_text(rng, 5).split())
    elif roll < 0.55:
        ground_truth = response
    else:
        ground_truth = random_text(rng)
    return response, ground_truth


def codepoint_soup(rng, count):
    chars = []
    while len(chars) < count:
        c = rng.randrange(0x110000) if rng.random() < 0.5 else rng.randrange(0x3000)
        if 0xD800 <= c <= 0xDFFF:
            continue
        chars.append(chr(c))
        if rng.random() < 0.2:
            chars.append(rng.choice([" a ", " the ", " an ", "a", " ", "Σ "]))
    return "".join(chars)


def tricky_pool():
    """Characters where Python's str.lower(), str.split(), `\\w` and article removal are subtle:
    every whitespace character, characters whose lower case is longer or not alphanumeric,
    case-ignorable characters around sigmas, non-ASCII letters, marks and digits, ASCII
    punctuation, and articles."""
    global _TRICKY
    if _TRICKY is None:
        everything = [chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
        spaces = [c for c in everything if c.isspace()]
        odd_lower = [c for c in everything if len(c.lower()) > 1 or (c.lower() != c and not c.lower().isalnum())]
        ignorable = ["'", "\u00ad", "\u0301", "\u200d", ".", ":", "\u2019", "\u0345", "^", "`"]
        non_ascii_words = [c for c in everything[0x80:0x3000] if unicodedata.category(c)[0] in "LMN"][:400]
        punctuation = [c for c in string.punctuation]
        articles = ["a", "an", "the", " a ", " the ", " an "]
        _TRICKY = (spaces * 3 + odd_lower + ignorable * 5 + ["Σ", "σ", "ς"] * 10 + non_ascii_words
                   + punctuation * 4 + list("aeiouthn") * 20 + articles * 20)
    return _TRICKY


_TRICKY = None


def tricky_text(rng, max_chars):
    pool = tricky_pool()
    return "".join(rng.choice(pool) for _ in range(rng.randint(0, max_chars)))


# --------------------------------------------------------------------------------------------
# F1

def f1_cases():
    fixed = [
        ("both empty", "", ""),
        ("empty response", "", "the answer"),
        ("only articles", "the a an", "a the"),
        ("identical", "The cat sat on the mat.", "the cat sat on the mat"),
        ("punctuation deleted", "don't stop", "dont stop"),
        ("hyphen joins", "state-of-the-art", "state of the art"),
        ("articles after punctuation", "a-the-an", "athean"),
        ("underscore is a word char", "the_cat", "thecat"),
        ("accented article neighbour", "théa a", "théa"),
        ("and is not an article", "and an and", "and"),
        ("kelvin sign", "\u212aelvin", "kelvin"),
        ("dotted capital I", "İstanbul", "istanbul"),
        ("final sigma", "ΟΔΟΣ", "οδος"),
        ("sigma alone", "Σ", "σ"),
        ("ligature unchanged", "ﬁle", "file"),
        ("nbsp splits", "cat\u00a0dog", "cat dog"),
        ("ideographic space", "cat\u3000dog", "cat dog"),
        ("file separator splits", "cat\x1cdog", "cat dog"),
        ("zero width space does not split", "cat\u200bdog", "cat dog"),
        ("nfc vs nfd", "caf\u00e9", "cafe\u0301"),
        ("unicode punctuation kept", "“quoted” – yes…", "quoted yes"),
        ("duplicates multiset", "x x x y", "x y y"),
        ("combining mark boundary", "x\u0301a b", "x\u0301 b"),
        ("devanagari vowel sign boundary", "\u0915\u093ea", "\u0915\u093e"),
        ("greek title case", "ǅ ᾈ", "ǆ ᾀι"),
        ("new unicode case pair unchanged", "\ua7cb", "\ua7cb"),
        ("long", "word " * 300, "word " * 200 + "other " * 100),
    ]
    cases = []
    for name, response, ground_truth in fixed:
        inputs = {"response": response, "ground_truth": ground_truth}
        cases.append(case(name, {}, inputs, run_reference(F1ScoreEvaluator, {}, inputs)))
    for threshold in [0.0, 1, 0.8, 2, -1, 0.4]:
        inputs = {"response": "a b c d", "ground_truth": "a b x y"}
        cases.append(case(f"threshold {threshold}", {"threshold": threshold}, inputs,
                          run_reference(F1ScoreEvaluator, {"threshold": threshold}, inputs)))
    for name, inputs in [("missing ground truth", {"response": "x"}),
                         ("missing response", {"ground_truth": "x"}),
                         ("null response", {"response": None, "ground_truth": "x"}),
                         ("number response", {"response": 5, "ground_truth": "x"}),
                         ("list ground truth", {"response": "x", "ground_truth": ["x"]})]:
        cases.append(case(name, {}, inputs, run_reference(F1ScoreEvaluator, {}, inputs)))
    cases.append(case("string threshold", {"threshold": "0.5"}, {"response": "x", "ground_truth": "x"},
                      run_reference(F1ScoreEvaluator, {"threshold": "0.5"}, {"response": "x", "ground_truth": "x"})))
    for flag in [True, False]:
        inputs = {"response": "a b", "ground_truth": "a b"}
        reference = run_reference(F1ScoreEvaluator, {"threshold": flag}, inputs)
        cases.append(case(f"boolean threshold {flag}", {"threshold": flag}, inputs, {
            "deviation": f"booleans are not thresholds (reference: {sorted(reference)[0]}, comparing with {int(flag)})"}))
    rng = seeded(1)
    for index in range(400):
        response, ground_truth = related_pair(rng)
        inputs = {"response": response, "ground_truth": ground_truth}
        cases.append(case(f"random {index}", {}, inputs, run_reference(F1ScoreEvaluator, {}, inputs)))
    for index in range(24):
        soup = codepoint_soup(rng, 600)
        other = soup.lower() if index % 2 else codepoint_soup(rng, 300) + soup[:300]
        inputs = {"response": soup, "ground_truth": other}
        cases.append(case(f"codepoint soup {index}", {}, inputs, run_reference(F1ScoreEvaluator, {}, inputs)))
    rng = seeded(5)
    for index in range(300):
        response = tricky_text(rng, 60)
        roll = rng.random()
        ground_truth = tricky_text(rng, 60) if roll < 0.5 else (response.lower() if roll < 0.75 else response.upper())
        inputs = {"response": response, "ground_truth": ground_truth}
        cases.append(case(f"tricky {index}", {}, inputs, run_reference(F1ScoreEvaluator, {}, inputs)))
    rng = seeded(9)
    for index in range(200):
        init = {"threshold": rng.choice(THRESHOLD_VALUES)} if rng.random() < 0.4 else {}
        inputs = shaped_text_inputs(rng)
        reference = run_reference(F1ScoreEvaluator, init, inputs)
        if "crash" not in reference and not all(is_number(value) for value in init.values()):
            reference = {"deviation": "options are checked before inputs, and booleans are not numbers "
                                      f"(reference: {sorted(reference)[0]})"}
        cases.append(case(f"shapes {index}", init, inputs, reference))
    return cases


THRESHOLD_VALUES = [0.5, 1, 0, -1, 2.5, None, "0.5", True, False, [1], 1e300]


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def shaped_text_inputs(rng):
    """`response` and `ground_truth`, each usually text, sometimes absent, `null` or any JSON."""
    inputs = {}
    for key in ("response", "ground_truth"):
        if rng.random() < 0.9:
            roll = rng.random()
            inputs[key] = tricky_text(rng, 20) if roll < 0.6 else (None if roll < 0.7 else any_json(rng))
    return inputs


# --------------------------------------------------------------------------------------------
# ROUGE

def rouge_cases():
    types = ["rouge1", "rouge2", "rouge3", "rouge4", "rouge5", "rougeL", "rouge6", "rouge9", "rougeLsum"]
    fixed = [
        ("both empty", "", ""),
        ("identical", "The quick brown fox.", "the quick brown fox"),
        ("non ascii vanishes", "café İstanbul \u212a", "caf i stanbul k"),
        ("response shorter", "the cat", "the cat sat on the mat"),
        ("no overlap", "alpha beta", "gamma delta"),
        ("repeated ngrams", "a a a a b", "a a b b"),
        ("digits and underscores", "v1_2 x9", "v1 2 x9"),
        ("multi line", "first line here\nsecond line\n\nthird", "second line\nfirst line\nthird here"),
        ("only punctuation", "!!! ...", "??"),
        ("single token", "word", "word"),
    ]
    cases = []
    for rouge_type in types:
        for name, response, ground_truth in fixed:
            init = {"rouge_type": rouge_type}
            inputs = {"response": response, "ground_truth": ground_truth}
            cases.append(case(f"{rouge_type} {name}", init, inputs,
                              run_reference(RougeScoreEvaluator, init, inputs)))
    for init in [{"rouge_type": "rouge1", "precision_threshold": 0.9, "recall_threshold": 0.1, "f1_score_threshold": 0.3},
                 {"rouge_type": "rougeL", "f1_score_threshold": 1.0},
                 {"rouge_type": "rouge2", "precision_threshold": 0.0, "recall_threshold": 1.0},
                 {"rouge_type": "rouge1", "precision_threshold": 1},
                 {"rouge_type": "rouge1", "recall_threshold": "0.5"},
                 {"rouge_type": "rouge1", "f1_score_threshold": True},
                 {"rouge_type": "rouge1", "f1_score_threshold": None},
                 {"rouge_type": "rougeX", "f1_score_threshold": 2},
                 {"rouge_type": "rougeX"},
                 {"rouge_type": "rouge0"},
                 {"rouge_type": "rouge10"},
                 {"rouge_type": "Rouge1"},
                 {"rouge_type": "rouge3\n"},
                 {"rouge_type": "rouge1 "}]:
        inputs = {"response": "the cat sat on a mat", "ground_truth": "a cat sat on the mat"}
        cases.append(case(f"init {init}", init, inputs, run_reference(RougeScoreEvaluator, init, inputs)))
    for name, inputs in [("missing response", {"ground_truth": "x"}),
                         ("number ground truth", {"response": "x", "ground_truth": 3})]:
        init = {"rouge_type": "rouge1"}
        cases.append(case(name, init, inputs, run_reference(RougeScoreEvaluator, init, inputs)))
    rng = seeded(2)
    for index in range(360):
        rouge_type = types[index % len(types)]
        response, ground_truth = related_pair(rng)
        if rouge_type == "rougeLsum" and rng.random() < 0.7:
            response = response.replace(" ", "\n", rng.randint(0, 3))
            ground_truth = ground_truth.replace(" ", "\n", rng.randint(0, 3))
        init = {"rouge_type": rouge_type}
        inputs = {"response": response, "ground_truth": ground_truth}
        cases.append(case(f"random {index} {rouge_type}", init, inputs,
                          run_reference(RougeScoreEvaluator, init, inputs)))
    rng = seeded(6)
    for index in range(180):
        rouge_type = types[index % len(types)]
        init = {"rouge_type": rouge_type}
        inputs = {"response": tricky_text(rng, 50), "ground_truth": tricky_text(rng, 50)}
        cases.append(case(f"tricky {index} {rouge_type}", init, inputs,
                          run_reference(RougeScoreEvaluator, init, inputs)))
    rng = seeded(10)
    valid_types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    for index in range(200):
        init = {}
        if rng.random() < 0.95:
            init["rouge_type"] = rng.choice(valid_types + ["rougeX", "rouge0", None, 1])
        for key in ("precision_threshold", "recall_threshold", "f1_score_threshold"):
            if rng.random() < 0.2:
                init[key] = rng.choice(THRESHOLD_VALUES)
        inputs = shaped_text_inputs(rng)
        reference = run_reference(RougeScoreEvaluator, init, inputs)
        if init.get("rouge_type") not in valid_types and reference.get("error", "").endswith("must be provided."):
            reference = {"deviation": "options are checked before inputs (the reference checks rouge_type "
                                      "after them)"}
        cases.append(case(f"shapes {index}", init, inputs, reference))
    return cases


# --------------------------------------------------------------------------------------------
# Task navigation efficiency

def tne_to_python(inputs):
    """Applies agenteval's JSON spelling of the reference's tuple form."""
    for key in ("ground_truth", "expected_actions"):
        value = inputs.get(key)
        if isinstance(value, list) and len(value) == 2 and isinstance(value[0], list):
            inputs[key] = (value[0], value[1])
        elif isinstance(value, dict) and set(value) == {"tool_names", "parameters"}:
            inputs[key] = (value["tool_names"], value["parameters"])
    return inputs


def call(name, arguments=None, **extra):
    item = {"type": "tool_call", "name": name}
    if arguments is not None:
        item["arguments"] = arguments
    item.update(extra)
    return {"role": "assistant", "content": [item]}


def tne_case(name, init, inputs):
    outcome = run_reference(_TaskNavigationEfficiencyEvaluator, init, inputs, tne_to_python)
    return case(name, init, inputs, outcome)


PARAM_VALUES = [1, 1.0, "1", "1.0", True, "True", "true", None, "None", 0.1 + 0.2, 1e16, 1e-7, -0.0, 0,
                "x", "é", ["é"], '["\\u00e9"]', {"b": 1, "a": 2}, '{"a": 2, "b": 1}', [1, True, None],
                {"n": {"z": [1.5, "a"]}}, 12345678901234567890, 2.5e-310, "", [], {}]


def tne_cases():
    cases = []
    modes = ["exact_match", "in_order_match", "any_order_match"]
    base = [call("search"), call("book"), call("pay")]
    shapes = [
        ("exact", base, ["search", "book", "pay"]),
        ("extra step", base + [call("log")], ["search", "book", "pay"]),
        ("reordered", [base[1], base[0], base[2]], ["search", "book", "pay"]),
        ("missing step", base[:2], ["search", "book", "pay"]),
        ("duplicates agent", base + [call("book")], ["search", "book", "book", "pay"]),
        ("duplicates expected", base, ["book", "book"]),
        ("no tool calls", [{"role": "assistant", "content": [{"type": "text", "text": "hi"}]}], ["search"]),
        ("empty response list", [], ["search"]),
        ("names stripped", [call("  search\n"), call("book\u3000")], [" search", "book "]),
        ("case sensitive names", [call("Search")], ["search"]),
        ("non string names", [call(5), call(None), call(True), call(1.5)], ["5", "None", "True", "1.5"]),
        ("other roles ignored", [{"role": "user", "content": "x"}, {"role": "tool", "content": [{"type": "tool_result", "tool_result": 1}], "tool_call_id": "c1"}, call("search", tool_call_id="c1")], ["search"]),
        ("function_call not normalised", [{"role": "assistant", "content": [{"type": "function_call", "name": "search"}]}], ["search"]),
        ("several calls in one message", [{"role": "assistant", "content": [{"type": "tool_call", "name": "a"}, {"type": "text", "text": "t"}, {"type": "tool_call", "name": "b"}]}], ["a", "b"]),
    ]
    for mode in modes:
        for name, response, expected in shapes:
            cases.append(tne_case(f"{mode} {name}", {"matching_mode": mode}, {"response": response, "ground_truth": expected}))
    # A named deviation: agenteval counts `function_call` items as tool calls (as the Foundry
    # evaluator page shows them); it scores them as the reference scores the same calls typed
    # `tool_call`.
    for entry in cases:
        if entry["name"].endswith("function_call not normalised"):
            as_tool_calls = json.loads(json.dumps(entry["inputs"]).replace('"function_call"', '"tool_call"'))
            entry["deviation"] = "function_call items count as tool calls, as the Foundry evaluator page shows them"
            entry["agenteval_output"] = tne_case(entry["name"], entry["init"], as_tool_calls)["output"]
    # parameter matching
    for index, value in enumerate(PARAM_VALUES):
        for other in PARAM_VALUES:
            if other is not value and (PARAM_VALUES.index(other) + index) % 3:
                continue
            expected = [["tool"], {"tool": {"p": other}}]
            response = [call("tool", {"p": value})]
            cases.append(tne_case(f"param {value!r} vs {other!r}", {}, {"response": response, "ground_truth": expected}))
    # Floats whose shortest digits tie: Python's str() and json.dumps() take the even digit.
    for value, text in [(1690060720831323.25, "1690060720831323.2"), (1690060720831323.75, "1690060720831323.8"),
                        (789047698662240.25, "789047698662240.2"), (12345678901234565.0, "1.2345678901234564e+16")]:
        for shown, arguments in [(text, {"p": value}), (f"[{text}]", {"p": [value]})]:
            expected = [["tool"], {"tool": {"p": shown}}]
            cases.append(tne_case(f"param tie {value!r} as {shown!r}", {}, {"response": [call("tool", arguments)], "ground_truth": expected}))
    param_shapes = [
        ("object form", [call("s", {"q": "x"})], {"tool_names": ["s"], "parameters": {"s": {"q": "x"}}}),
        ("string arguments", [call("s", '{"q": "x", "n": 1}')], [["s"], {"s": {"n": "1", "q": "x"}}]),
        ("non dict string arguments", [call("s", "[1, 2]")], [["s"], {}]),
        ("number string arguments", [call("s", "3")], [["s"], {"s": {}}]),
        ("invalid json arguments", [call("s", "{q: x}")], [["s"], {}]),
        ("empty string arguments", [call("s", "")], ["s"]),
        ("nan arguments", [call("s", '{"x": NaN, "y": Infinity}')], [["s"], {"s": {"x": "nan", "y": "inf"}}]),
        ("list arguments ignored", [call("s", [1, 2])], [["s"], {}]),
        ("extra agent param", [call("s", {"q": "x", "z": 1})], [["s"], {"s": {"q": "x"}}]),
        ("missing agent param", [call("s", {})], [["s"], {"s": {"q": "x"}}]),
        ("params apply to every occurrence", [call("s", {"q": "x"}), call("s", {"q": "y"})], [["s", "s"], {"s": {"q": "x"}}]),
        ("param keys not stripped", [call("s", {"q": "x"})], [[" s"], {" s": {"q": "x"}}]),
        ("stripped lookup", [call("s", {"q": "x"})], [[" s"], {"s": {"q": "x"}}]),
        ("duplicate keys in string args", [call("s", '{"q": "x", "q": "y"}')], [["s"], {"s": {"q": "y"}}]),
        ("big int in string args", [call("s", '{"q": 123456789012345678901234567890}')], [["s"], {"s": {"q": "123456789012345678901234567890"}}]),
        ("unicode escapes", [call("s", {"q": ["é", "😀"]})], [["s"], {"s": {"q": '["\\u00e9", "\\ud83d\\ude00"]'}}]),
        ("nested sort keys", [call("s", {"q": {"b": {"d": 1, "c": [True, None]}, "a": 0.5}})], [["s"], {"s": {"q": {"a": 0.5, "b": {"c": [True, None], "d": 1}}}}]),
    ]
    for mode in modes:
        for name, response, expected in param_shapes:
            cases.append(tne_case(f"{mode} {name}", {"matching_mode": mode}, {"response": response, "ground_truth": expected}))
    # string inputs and aliases
    response = [call("a"), call("b")]
    string_inputs = [
        ("json string response", {"response": json.dumps(response), "ground_truth": ["a", "b"]}),
        ("json string ground truth", {"response": response, "ground_truth": '["a", "b"]'}),
        ("json string tuple is a list", {"response": response, "ground_truth": '[["a"], {}]'}),
        ("double encoded response", {"response": json.dumps(json.dumps(response)), "ground_truth": ["a"]}),
        ("double encoded ground truth", {"response": response, "ground_truth": json.dumps(json.dumps(["a"]))}),
        ("invalid json response", {"response": "[{", "ground_truth": ["a"]}),
        ("null string response", {"response": "null", "ground_truth": ["a"]}),
        ("zero string ground truth", {"response": response, "ground_truth": "0"}),
        ("empty string ground truth", {"response": response, "ground_truth": ""}),
        ("plain string ground truth", {"response": response, "ground_truth": "a"}),
        ("aliases", {"actions": response, "expected_actions": ["a", "b"]}),
        ("canonical wins", {"response": response, "actions": [], "ground_truth": ["a", "b"], "expected_actions": ["x"]}),
        ("alias fills null canonical", {"response": None, "actions": response, "ground_truth": ["a", "b"]}),
        ("string aliases", {"actions": json.dumps(response), "expected_actions": '["b"]'}),
    ]
    for mode in modes:
        for name, inputs in string_inputs:
            cases.append(tne_case(f"{mode} {name}", {"matching_mode": mode}, inputs))
    # validation
    good = [call("a")]
    invalid = [
        ("missing response", {"ground_truth": ["a"]}),
        ("missing ground truth", {"response": good}),
        ("response dict", {"response": {"role": "assistant"}, "ground_truth": ["a"]}),
        ("response number", {"response": 3, "ground_truth": ["a"]}),
        ("action not dict", {"response": [good[0], "x"], "ground_truth": ["a"]}),
        ("action list", {"response": [[1]], "ground_truth": ["a"]}),
        ("missing role", {"response": [{"content": []}], "ground_truth": ["a"]}),
        ("null role", {"response": [{"role": None}], "ground_truth": ["a"]}),
        ("float role", {"response": [{"role": 1.5}], "ground_truth": ["a"]}),
        ("assistant without content", {"response": [{"role": "assistant"}], "ground_truth": ["a"]}),
        ("assistant null content", {"response": [{"role": "assistant", "content": None}], "ground_truth": ["a"]}),
        ("assistant string content", {"response": [{"role": "assistant", "content": "hi"}], "ground_truth": ["a"]}),
        ("content item not dict", {"response": [{"role": "assistant", "content": ["x"]}], "ground_truth": ["a"]}),
        ("tool call without name", {"response": [{"role": "assistant", "content": [{"type": "tool_call"}]}], "ground_truth": ["a"]}),
        ("user content unchecked", {"response": [{"role": "user", "content": 5}], "ground_truth": ["a"]}),
        ("empty list ground truth", {"response": good, "ground_truth": []}),
        ("empty dict ground truth", {"response": good, "ground_truth": {}}),
        ("false ground truth", {"response": good, "ground_truth": False}),
        ("zero ground truth", {"response": good, "ground_truth": 0}),
        ("number ground truth", {"response": good, "ground_truth": 3}),
        ("true ground truth", {"response": good, "ground_truth": True}),
        ("dict ground truth", {"response": good, "ground_truth": {"a": 1}}),
        ("non string expected", {"response": good, "ground_truth": ["a", None]}),
        ("pair of strings is a list", {"response": good, "ground_truth": ["a", {"a": {}}]}),
        ("tuple empty names", {"response": good, "ground_truth": [[], {}]}),
        ("tuple non string name", {"response": good, "ground_truth": [["a", 2], {}]}),
        ("tuple params not dict", {"response": good, "ground_truth": [["a"], []]}),
        ("tuple params list", {"response": good, "ground_truth": [["a"], ["x"]]}),
        ("tuple tool params not dict", {"response": good, "ground_truth": [["a"], {"a": "x"}]}),
        ("object form extra key", {"response": good, "ground_truth": {"tool_names": ["a"], "parameters": {}, "x": 1}}),
        ("object form names not list", {"response": good, "ground_truth": {"tool_names": "a", "parameters": {}}}),
        ("response error wins", {"response": 1, "ground_truth": []}),
    ]
    for name, inputs in invalid:
        cases.append(tne_case(name, {}, inputs))
    for init in [{"matching_mode": "fuzzy"}, {"matching_mode": "EXACT_MATCH"}, {"matching_mode": None},
                 {"matching_mode": 1}, {"matching_mode": ["exact_match"]}, {"matching_mode": "any_order_match"}]:
        cases.append(tne_case(f"init {init}", init, {"response": good, "ground_truth": ["a"]}))
    # crashes in the reference
    crashes = [
        ("unhashable tool call id", [call("a", tool_call_id=["x"])], ["a"]),
        ("unhashable tool message id", [call("a"), {"role": "tool", "tool_call_id": {"k": 1}, "content": [{"type": "tool_result", "tool_result": 1}]}], ["a"]),
        ("tool result missing", [call("a", tool_call_id=1), {"role": "tool", "tool_call_id": True, "content": [{"type": "tool_result"}]}], ["a"]),
        ("tool result missing string id", [call("a", tool_call_id="c"), {"role": "tool", "tool_call_id": "c", "content": [{"type": "tool_result"}]}], ["a"]),
    ]
    for name, response, expected in crashes:
        cases.append(tne_case(name, {}, {"response": response, "ground_truth": expected}))
    no_crash = [
        ("falsy unhashable tool message id ignored", [call("a"), {"role": "tool", "tool_call_id": [], "content": [{"type": "tool_result"}]}], ["a"]),
        ("tool result missing but other id", [call("a", tool_call_id="d"), {"role": "tool", "tool_call_id": "c", "content": [{"type": "tool_result"}]}], ["a"]),
        ("tool result present", [call("a", tool_call_id="c"), {"role": "tool", "tool_call_id": "c", "content": [{"type": "tool_result", "tool_result": None}]}], ["a"]),
        ("nested depth 60", [call("a", {"p": json.loads("[" * 60 + "]" * 60)})], [["a"], {"a": {"p": json.loads("[" * 60 + "]" * 60)}}]),
    ]
    for name, response, expected in no_crash:
        cases.append(tne_case(name, {}, {"response": response, "ground_truth": expected}))
    cases.append(case("container tool name", {}, {"response": [call(["a"])], "ground_truth": ["['a']"]}, {
        "deviation": "tool names that are lists or objects are rejected (the reference compares their Python repr)"}))
    # random
    rng = seeded(3)
    names = ["search", "book", "pay", "log", " pay", "Search"]
    for index in range(420):
        agent = []
        for _ in range(rng.randint(0, 6)):
            name = rng.choice(names)
            args = {k: rng.choice(PARAM_VALUES) for k in rng.sample(["q", "n", "x"], rng.randint(0, 2))}
            if rng.random() < 0.2:
                args = json.dumps(args)
            agent.append(call(name, args))
            if rng.random() < 0.2:
                agent.append({"role": "tool", "tool_call_id": "c", "content": [{"type": "tool_result", "tool_result": "ok"}]})
        expected_names = [rng.choice(names).strip() if rng.random() < 0.5 else rng.choice(names) for _ in range(rng.randint(1, 5))]
        if rng.random() < 0.5:
            params = {}
            for name in sorted(set(expected_names)):
                if rng.random() < 0.7:
                    params[name.strip()] = {k: rng.choice(PARAM_VALUES) for k in rng.sample(["q", "n", "x"], rng.randint(0, 2))}
            expected = [expected_names, params]
        else:
            expected = expected_names
        if rng.random() < 0.5:
            # Reuse agent parameters so matches are likely.
            if isinstance(expected, list) and len(expected) == 2 and isinstance(expected[0], list):
                for message in agent:
                    for item in message.get("content", []):
                        if isinstance(item, dict) and isinstance(item.get("arguments"), dict) and rng.random() < 0.5:
                            expected[1][str(item["name"]).strip()] = item["arguments"]
            else:
                expected = [str(m["content"][0]["name"]).strip() for m in agent if m["role"] == "assistant"] or expected
        mode = modes[index % 3]
        inputs = {"response": agent, "ground_truth": expected}
        if rng.random() < 0.1:
            inputs = {"response": json.dumps(agent), "ground_truth": expected}
        cases.append(tne_case(f"random {index} {mode}", {"matching_mode": mode}, inputs))
    rng = seeded(7)
    for index in range(400):
        response = [shaped_message(rng) for _ in range(rng.randint(0, 5))]
        roll = rng.random()
        if roll < 0.1:
            response = json.dumps(response)
        elif roll < 0.15:
            response = any_json(rng)
        mode = modes[index % 3]
        cases.append(tne_case(f"shapes {index} {mode}", {"matching_mode": mode},
                              {"response": response, "ground_truth": shaped_expected(rng)}))
    rng = seeded(11)
    for index in range(300):
        entry = json_text_case(rng, f"json text {index}")
        if entry is not None:
            cases.append(entry)
    return cases


# JSON texts for the reference's json.loads of string inputs and tool-call arguments: Python's
# extensions (NaN, Infinity, big integers, lone surrogates, duplicate keys) and near-misses.
JSON_NUMBERS = ["1", "-0", "0", "1.0", "1e5", "1E+2", "-1.5e-7", "123456789012345678901234567890", "1e400",
                "-1e400", "NaN", "Infinity", "-Infinity", "0.1", "1.7976931348623157e308", "5e-324", "2.5e-310",
                "1e16", "1.5E300", "01", "+1", ".5", "1.", "0x10", "-", "1e", "9007199254740993",
                "-9223372036854775809", "18446744073709551616"]
JSON_STRINGS = ['"a"', '"\\u00e9"', '"\\ud83d\\ude00"', '"\\ud800"', '"\\udc00x"', '"é"', '"\\n"', '"\\/"',
                '"\\u0000"', '"tab\\there"', "'single'", '"\\x41"', '"\\u00E9"', '"\x01"', '"\\uD83D"', '"日本"',
                '"a\\"b"']
JSON_LITERALS = ["true", "false", "null", "True", "None", "nul"]
JSON_BLANKS = ["", " ", "\n", "\t", "\r\n", "  "]
RENDERED_VALUES = ["inf", "-inf", "nan", "-0.0", "1e+400", "100000.0", "1.0", "1", "True", "None", "[1, 2]",
                   '{"a": 1}', '["\\u00e9"]', "é", "1e+16", "5e-324", "2.5e-310", "1.5e+300",
                   "123456789012345678901234567890", "1.2345678901234568e+29", "0.1", '"a"', "[NaN]",
                   "[Infinity]", '{"a": NaN}', "1e+05", '["\\ud83d\\ude00"]', '["\\ud800"]', "[]", "{}", "a", "0"]


def json_fragment(rng, depth=0):
    roll = rng.random()
    if depth > 2 or roll < 0.6:
        return rng.choice(rng.choice([JSON_NUMBERS, JSON_STRINGS, JSON_LITERALS]))
    blank = lambda: rng.choice(JSON_BLANKS)  # noqa: E731
    if roll < 0.8:
        items = [json_fragment(rng, depth + 1) for _ in range(rng.randint(0, 3))]
        trailing = "," if rng.random() < 0.05 else ""
        return "[" + blank() + ("," + blank()).join(items) + blank() + trailing + "]"
    keys = [rng.choice(['"a"', '"b"', '"a"', '"é"', '"\\u0061"', "a", '"z"']) for _ in range(rng.randint(0, 3))]
    members = ("," + blank()).join(f"{key}{blank()}:{blank()}{json_fragment(rng, depth + 1)}" for key in keys)
    return "{" + blank() + members + blank() + "}"


def holds_lone_surrogate(value):
    if isinstance(value, str):
        return any(0xD800 <= ord(c) <= 0xDFFF for c in value)
    if isinstance(value, list):
        return any(holds_lone_surrogate(item) for item in value)
    if isinstance(value, dict):
        return any(holds_lone_surrogate(key) or holds_lone_surrogate(item) for key, item in value.items())
    return False


def beyond_64_bits(value):
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return not -2**63 <= value < 2**64
    if isinstance(value, list):
        return any(beyond_64_bits(item) for item in value)
    if isinstance(value, dict):
        return any(beyond_64_bits(item) for item in value.values())
    return False


def loads_or_none(text):
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def json_text_case(rng, name):
    """A tool call whose arguments (or the whole response) are a JSON text for json.loads, with
    expected parameters that often render the same as the decoded value. `None` for what a case
    file cannot hold (lone surrogates in the ground truth) or what agenteval deliberately reads
    otherwise (integers beyond 64 bits in the ground truth)."""
    arguments = '{"q":' + json_fragment(rng) + "}" if rng.random() < 0.8 else json_fragment(rng)
    agent = [{"role": "assistant", "content": [{"type": "tool_call", "name": "f", "arguments": arguments}]}]
    decoded = loads_or_none(arguments)
    if isinstance(decoded, dict) and "q" in decoded and rng.random() < 0.4:
        expected = decoded["q"]
    else:
        expected = rng.choice(RENDERED_VALUES)
    ground_truth = [["f"], {"f": {"q": expected}}]
    response = agent if rng.random() < 0.7 else json.dumps(agent)
    decoded_texts = [arguments] + ([response] if isinstance(response, str) else [])
    if rng.random() < 0.15:
        response = ('[{"role":"assistant","content":[{"type":"tool_call","name":"f","arguments":'
                    + json_fragment(rng) + "}]}]")
        decoded_texts = [response]
    try:
        json.dumps(ground_truth, allow_nan=False, ensure_ascii=False).encode("utf-8")
    except (ValueError, UnicodeEncodeError):
        return None
    if beyond_64_bits(ground_truth):
        return None
    entry = tne_case(name, {}, {"response": response, "ground_truth": ground_truth})
    if "crash" not in entry and any(holds_lone_surrogate(loads_or_none(text)) for text in decoded_texts):
        entry.pop("output", None)
        entry.pop("error", None)
        entry["deviation"] = "a lone surrogate, which Python strings hold and Rust strings cannot"
    return entry


# Random JSON for the shapes section. Integers stay within 64 bits: beyond them agenteval reads a
# float where Python keeps an int (a documented deviation, pinned by unit tests).
SCALARS = [None, True, False, 0, 1, -1, 1.5, 1e300, -0.0, 2**63, -2**63, 2**64 - 1, "x", "é", "\U0001f600",
           "", "1", "a b", "\u0000"]
KEYS = ["a", "b", "é", "A", "z", "\U0001f600", "1", ""]


def any_json(rng, depth=0):
    roll = rng.random()
    if depth > 3 or roll < 0.5:
        return rng.choice(SCALARS)
    if roll < 0.75:
        return [any_json(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {rng.choice(KEYS): any_json(rng, depth + 1) for _ in range(rng.randint(0, 3))}


def shaped_message(rng):
    """A message of any shape: usually assistant tool calls or tool results, sometimes not a dict,
    with names, ids, arguments and content of every JSON type."""
    if rng.random() < 0.05:
        return any_json(rng)
    message = {}
    role = rng.choice(["assistant", "assistant", "tool", "user", None, 3])
    if role is not None:
        message["role"] = role
    if rng.random() < 0.9:
        items = []
        for _ in range(rng.randint(0, 3)):
            if rng.random() < 0.1:
                items.append(any_json(rng))
                continue
            item = {"type": rng.choice(["tool_call", "tool_call", "tool_result", "text", None])}
            if rng.random() < 0.9:
                item["name"] = rng.choice(["search", " search ", "pay", 1, 2.0, True, None, "", "\tpay\n"])
            if rng.random() < 0.6:
                item["arguments"] = rng.choice([any_json(rng), {"q": any_json(rng)},
                                                json.dumps({"q": any_json(rng)}), "{bad", "[1]"])
            if rng.random() < 0.5:
                item["tool_call_id"] = rng.choice(["c1", "c2", 1, 1.0, True, None, ""])
            if item["type"] == "tool_result" and rng.random() < 0.7:
                item["tool_result"] = any_json(rng)
            items.append(item)
        message["content"] = items if rng.random() < 0.95 else any_json(rng)
    if rng.random() < 0.4:
        message["tool_call_id"] = rng.choice(["c1", "c2", 1, 1.0, True, None, "", [1]])
    return message


def shaped_expected(rng):
    names = [rng.choice(["search", "pay", " pay", "x"]) for _ in range(rng.randint(0, 4))]
    roll = rng.random()
    if roll < 0.1:
        return any_json(rng)
    if roll < 0.5:
        return names
    params = {name.strip(): ({"q": any_json(rng)} if rng.random() < 0.8 else any_json(rng))
              for name in names if rng.random() < 0.7}
    return [names, params] if rng.random() < 0.7 else {"tool_names": names, "parameters": params}


# --------------------------------------------------------------------------------------------
# Document retrieval

class NumericFidelity(DocumentRetrievalEvaluator):
    """The reference with agenteval's documented fix: fidelity weights in numeric label order."""

    def _compute_fidelity(self, result_docs_groundtruth_labels, ideal_docs_groundtruth_labels):
        def weighted(labels):
            s = self.ground_truth_label_min + 1
            label_counts = {i: 0 for i in range(s, self.ground_truth_label_max + 1)}
            for label in labels:
                if label >= s:
                    label_counts[label] += 1
            counts = [count for _, count in sorted(label_counts.items())]
            weights = [(math.pow(2, i + 1) - 1) for i in range(s, self.ground_truth_label_max + 1)]
            return sum(c * w for c, w in zip(counts, weights))

        results = weighted(result_docs_groundtruth_labels)
        index = weighted(ideal_docs_groundtruth_labels)
        if index == 0:
            return math.nan
        return results / float(index)


def labels_sort_as_text(init):
    """Whether text and numeric order of the fidelity labels agree (or the config is rejected)."""
    low = init.get("ground_truth_label_min", 0)
    high = init.get("ground_truth_label_max", 4)
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (low, high)):
        return True
    return low + 1 >= 0 and high <= 9


def has_bool_label(inputs):
    qrels = inputs.get("retrieval_ground_truth")
    return isinstance(qrels, list) and any(
        isinstance(q, dict) and isinstance(q.get("query_relevance_label"), bool) for q in qrels)


def without_bool_labels(inputs):
    """The inputs with each boolean label replaced by a float, which the reference rejects at the
    check where agenteval rejects booleans."""
    qrels = [dict(q, query_relevance_label=1.5)
             if isinstance(q, dict) and isinstance(q.get("query_relevance_label"), bool) else q
             for q in inputs["retrieval_ground_truth"]]
    return dict(inputs, retrieval_ground_truth=qrels)


def has_bool_option(init):
    return any(isinstance(value, bool) for value in init.values())


def has_non_numeric_threshold(init):
    return any(key.endswith("_threshold") and (isinstance(value, bool) or not isinstance(value, (int, float)))
               for key, value in init.items())


def dr_case(name, init, inputs):
    if has_bool_option(init) or has_non_numeric_threshold(init):
        reference = run_reference(DocumentRetrievalEvaluator, init, inputs)
        if "crash" in reference:
            return case(name, init, inputs, reference)
        return case(name, init, inputs, {
            "deviation": "options are checked when the evaluator is built, before any input, and "
                         f"booleans are not numbers (reference: {sorted(reference)[0]})"})
    if has_bool_label(inputs):
        reference = run_reference(DocumentRetrievalEvaluator, init, inputs)
        outcome = {"deviation": f"booleans are not relevance labels (reference: {sorted(reference)[0]})"}
        without = run_reference(DocumentRetrievalEvaluator, init, without_bool_labels(inputs))
        if "error" in without:
            outcome["error"] = without["error"]
        return case(name, init, inputs, outcome)
    if labels_sort_as_text(init):
        return case(name, init, inputs, run_reference(DocumentRetrievalEvaluator, init, inputs))
    outcome = run_reference(NumericFidelity, init, inputs)
    if "error" in outcome:
        # Messages that name the evaluator class name the reference's, not the patched subclass.
        outcome["error"] = outcome["error"].replace(NumericFidelity.__name__, DocumentRetrievalEvaluator.__name__)
    entry = case(name, init, inputs, outcome)
    entry["patched"] = "fidelity weights in numeric label order"
    return entry


def qrel(doc_id, label):
    return {"document_id": doc_id, "query_relevance_label": label}


def doc(doc_id, score):
    return {"document_id": doc_id, "relevance_score": score}


def dr_cases():
    cases = []
    q = [qrel("a", 4), qrel("b", 3), qrel("c", 1), qrel("d", 0)]
    fixed = [
        ("perfect", {}, q, [doc("a", 9), doc("b", 8), doc("c", 7), doc("d", 1)]),
        ("reversed", {}, q, [doc("d", 9), doc("c", 8), doc("b", 7), doc("a", 1)]),
        ("no retrieved", {}, q, []),
        ("retrieved not a list", {}, q, {"a": 1}),
        ("retrieved string", {}, q, "abc"),
        ("all unlabelled", {}, q, [doc("x", 1), doc("y", 2)]),
        ("only zero labels", {}, q, [doc("d", 1)]),
        ("holes with duplicates", {}, q, [doc("x", 3), doc("x", 2), doc("a", 1)]),
        ("duplicate retrieved last score wins", {}, q, [doc("a", 1), doc("b", 5), doc("a", 9)]),
        ("duplicate qrel last label wins", {}, [qrel("a", 1), qrel("a", 4)], [doc("a", 1)]),
        ("ties keep first order", {}, q, [doc("c", 1), doc("a", 1), doc("b", 1)]),
        ("int and float scores", {}, q, [doc("c", 2), doc("a", 1.5), doc("b", 2.0)]),
        ("bool score", {}, q, [doc("c", True), doc("a", False)]),
        ("numeric ids merge", {}, [qrel(1, 4), qrel("1", 2)], [doc(1.0, 1), doc(True, 0.5), doc("1", 0.2)]),
        ("fewer than three", {}, q, [doc("c", 1)]),
        ("unlabelled counts as zero in range", {"ground_truth_label_min": 1, "ground_truth_label_max": 5}, [qrel("a", 3), qrel("b", 1)], [doc("x", 5), doc("a", 4)]),
        ("labels above nine", {"ground_truth_label_max": 12}, [qrel("a", 10), qrel("b", 2), qrel("c", 12)], [doc("a", 3), doc("b", 2), doc("c", 1)]),
        ("negative range", {"ground_truth_label_min": -3, "ground_truth_label_max": 2}, [qrel("a", -3), qrel("b", -1), qrel("c", 2)], [doc("b", 3), doc("c", 2), doc("a", 1)]),
        ("negative range with hole", {"ground_truth_label_min": -3, "ground_truth_label_max": 2}, [qrel("a", -3), qrel("b", 1)], [doc("x", 3), doc("a", 2), doc("b", 1)]),
        ("fidelity nan", {}, [qrel("a", 0), qrel("b", 0)], [doc("a", 1)]),
        ("thresholds custom", {"ndcg_threshold": 0.2, "xdcg_threshold": 10, "fidelity_threshold": 0.1, "top1_relevance_threshold": 2, "top3_max_relevance_threshold": 3.5, "total_retrieved_documents_threshold": 2, "total_ground_truth_documents_threshold": 4.0}, q, [doc("b", 3), doc("a", 2)]),
        ("wide range", {"ground_truth_label_min": 0, "ground_truth_label_max": 100}, [qrel("a", 100), qrel("b", 50)], [doc("b", 2), doc("a", 1)]),
        ("max 1022", {"ground_truth_label_max": 1022}, [qrel("a", 1022)], [doc("a", 1)]),
        ("max 1023 crashes", {"ground_truth_label_max": 1023}, [qrel("a", 3)], [doc("a", 1)]),
        ("max 1023 no relevant result", {"ground_truth_label_max": 1023}, [qrel("a", 3)], [doc("x", 1)]),
        ("all negative with hole crashes", {"ground_truth_label_min": -5, "ground_truth_label_max": -1}, [qrel("a", -1), qrel("b", -3)], [doc("a", 2), doc("x", 1)]),
        ("all negative no hole", {"ground_truth_label_min": -5, "ground_truth_label_max": -1}, [qrel("a", -1), qrel("b", -3)], [doc("a", 2), doc("b", 1)]),
        ("idcg zero crashes", {"ground_truth_label_min": -2}, [qrel("a", 0), qrel("b", 0), qrel("c", 0), qrel("d", -1)], [doc("d", 1)]),
        ("unhashable id with results", {}, [qrel(["a"], 1)], [doc("a", 1)]),
        ("unhashable id without results", {}, [qrel(["a"], 1)], []),
        ("unhashable retrieved id", {}, [qrel("a", 1)], [doc({"a": 1}, 1)]),
        ("large ints", {"ground_truth_label_max": 7}, [qrel(10**15, 7)], [doc(10**15, 10**18), doc(10**15 + 1, 10**18 + 1)]),
    ]
    for name, init, qrels, docs in fixed:
        cases.append(dr_case(name, init, {"retrieval_ground_truth": qrels, "retrieved_documents": docs}))
    invalid = [
        ("missing retrieved", {"retrieval_ground_truth": q}),
        ("missing ground truth", {"retrieved_documents": []}),
        ("empty ground truth", {"retrieval_ground_truth": [], "retrieved_documents": []}),
        ("falsy dict ground truth", {"retrieval_ground_truth": {}, "retrieved_documents": []}),
        ("zero ground truth", {"retrieval_ground_truth": 0, "retrieved_documents": []}),
        ("string ground truth", {"retrieval_ground_truth": "abc", "retrieved_documents": []}),
        ("dict ground truth", {"retrieval_ground_truth": {"a": 1}, "retrieved_documents": []}),
        ("number ground truth", {"retrieval_ground_truth": 3, "retrieved_documents": []}),
        ("qrel not dict", {"retrieval_ground_truth": ["a"], "retrieved_documents": []}),
        ("qrel missing label", {"retrieval_ground_truth": [{"document_id": "a"}], "retrieved_documents": []}),
        ("qrel null id", {"retrieval_ground_truth": [qrel(None, 1)], "retrieved_documents": []}),
        ("float label", {"retrieval_ground_truth": [qrel("a", 2.0)], "retrieved_documents": []}),
        ("string label", {"retrieval_ground_truth": [qrel("a", "2")], "retrieved_documents": []}),
        ("bool label", {"retrieval_ground_truth": [qrel("a", True)], "retrieved_documents": [doc("a", 1)]}),
        ("bool label no docs", {"retrieval_ground_truth": [qrel("a", False)], "retrieved_documents": []}),
        ("label below min", {"retrieval_ground_truth": [qrel("a", -1)], "retrieved_documents": []}),
        ("label above max", {"retrieval_ground_truth": [qrel("a", 5)], "retrieved_documents": []}),
        ("doc not dict", {"retrieval_ground_truth": q, "retrieved_documents": [1]}),
        ("doc missing score", {"retrieval_ground_truth": q, "retrieved_documents": [{"document_id": "a"}]}),
        ("doc string score", {"retrieval_ground_truth": q, "retrieved_documents": [doc("a", "1")]}),
        ("doc null score", {"retrieval_ground_truth": q, "retrieved_documents": [doc("a", None)]}),
        ("label error before doc error", {"retrieval_ground_truth": [qrel("a", 9)], "retrieved_documents": [1]}),
    ]
    for name, inputs in invalid:
        cases.append(dr_case(name, {}, inputs))
    for init in [{"ground_truth_label_min": 4}, {"ground_truth_label_min": 5, "ground_truth_label_max": 1},
                 {"ground_truth_label_min": 1.0}, {"ground_truth_label_max": "4"}, {"ground_truth_label_max": None},
                 {"ndcg_threshold": None}, {"ndcg_threshold": "0.5"}, {"fidelity_threshold": None}]:
        cases.append(dr_case(f"init {init}", init, {"retrieval_ground_truth": q, "retrieved_documents": [doc("a", 1)]}))
    rng = seeded(4)
    for index in range(260):
        low = rng.choice([0, 0, 0, 1, -2, 2])
        high = low + rng.choice([1, 2, 3, 4, 4, 4, 6, 9, 12])
        init = {}
        if low != 0 or high != 4:
            init = {"ground_truth_label_min": low, "ground_truth_label_max": high}
        if rng.random() < 0.3:
            init["ndcg_threshold"] = rng.choice([0.0, 0.3, 0.9, 1, 0.5])
            init["xdcg_threshold"] = rng.choice([0, 10.0, 30, 50.0])
            init["top1_relevance_threshold"] = rng.choice([1, 2.0, 3])
        ids = [f"d{i}" for i in range(rng.randint(1, 9))] + [1, 2.0]
        qrels = [qrel(rng.choice(ids), rng.randint(low, high)) for _ in range(rng.randint(1, 8))]
        docs = [doc(rng.choice(ids), rng.choice([rng.randint(0, 5), round(rng.random() * 10, 3), rng.random()]))
                for _ in range(rng.randint(0, 9))]
        cases.append(dr_case(f"random {index}", init, {"retrieval_ground_truth": qrels, "retrieved_documents": docs}))
    rng = seeded(8)
    for index in range(300):
        init = shaped_dr_options(rng)
        qrels = [shaped_dr_entry(rng, "query_relevance_label") for _ in range(rng.randint(0, 6))]
        docs = [shaped_dr_entry(rng, "relevance_score") for _ in range(rng.randint(0, 8))]
        if rng.random() < 0.05:
            qrels = any_json(rng)
        if rng.random() < 0.05:
            docs = any_json(rng)
        cases.append(dr_case(f"shapes {index}", init, {"retrieval_ground_truth": qrels, "retrieved_documents": docs}))
    return cases


DR_IDS = ["a", "b", "c", 1, 2.0, True, None, "", "é", 10**15]
DR_VALUES = {
    "query_relevance_label": [0, 1, 2, 3, 4, 5, -1, 2.5, 4.0, True, None, "3", [1], 10**6],
    "relevance_score": [0, 1, 2, 0.5, -1, 1e300, -0.0, 2**63, True, None, "1", [1]],
}


def shaped_dr_entry(rng, value_key):
    """A ground-truth or retrieved entry of any shape: usually an id and a value of any type."""
    if rng.random() < 0.05:
        return any_json(rng)
    entry = {}
    if rng.random() < 0.95:
        entry["document_id"] = rng.choice(DR_IDS) if rng.random() < 0.95 else any_json(rng)
    if rng.random() < 0.95:
        entry[value_key] = rng.choice(DR_VALUES[value_key]) if rng.random() < 0.6 else rng.randint(0, 4)
    if rng.random() < 0.05:
        entry["extra"] = 1
    return entry


def shaped_dr_options(rng):
    init = {}
    if rng.random() < 0.3:
        init["ground_truth_label_min"] = rng.choice([0, 1, -2, 0.5, None, "0", True])
        init["ground_truth_label_max"] = rng.choice([4, 3, 7, 4.0, None, "4", 1])
    if rng.random() < 0.2:
        key = rng.choice(DR_THRESHOLDS)
        init[key] = rng.choice([0, 0.5, 1, 50.0, None, "0.5", True, -1])
    return init


DR_THRESHOLDS = [f"{metric}_threshold" for metric in
                 ["ndcg", "xdcg", "fidelity", "top1_relevance", "top3_max_relevance",
                  "total_retrieved_documents", "total_ground_truth_documents"]]


# --------------------------------------------------------------------------------------------
# NLTK tokenisation (BLEU, GLEU), run against the data laid out by nltk_data.py

NLTK_WORDS = ["the", "The", "cat", "sat", "on", "mat", "Paris", "is", "capital", "of", "France", "he", "He",
              "However", "But", "In", "It", "said", "went", "new", "New", "York", "buy", "me", "two", "them",
              "Mr.", "Mrs.", "Dr.", "Ms.", "Prof.", "St.", "Inc.", "Corp.", "Co.", "Ltd.", "Jr.", "Jan.", "Feb.",
              "U.S.", "U.K.", "U.S.A.", "e.g.", "i.e.", "etc.", "vs.", "a.m.", "p.m.", "No.", "Gen.", "Sept.",
              "J.", "A.", "B.", "x.", "_.", "3.", "5.", "1,000.", "3.88", "$3.88", "-3", "2.5%", "1,000", "10-20",
              "don't", "can't", "won't", "I'm", "you're", "we've", "they'll", "he'd", "it's", "John's", "DON'T",
              "cannot", "Cannot", "gonna", "gotta", "gimme", "lemme", "wanna", "d'ye", "more'n", "'tis", "'Twas",
              "'em", "rock'n'roll", "o'clock", "students'", "''", "``", "`", "'", '"', '"hello"', "'quoted'",
              "(", ")", "[", "]", "{", "}", "<", ">", "(see", "this)", "[1]", "{x}", "--", "---", "-", "a-b",
              "...", "..", ". . .", "....", "!", "?", "?!", "!!!", ";", ":", ",", "&", "@", "#", "%", "*", "/",
              "\\", "|", "~", "^", "+", "=", "a.b.c", "www.example.com", "x@y.z", "#tag", "C++", "3:30", "1:2",
              "a,b", "a:b", "end.", "end.)", "end.\"", "end.'", "Yes.", "no.", "ok.", "A.M.", "St.Louis", "abc",
              "Washington", "Sen.", "Calif.", "ariz.", "reps.", "Aug.", "wed.", "Corp.-owned", "non-U.S."]
NLTK_SPACES = [" ", " ", " ", " ", "  ", "\n", "\n\n", "\t", "\r\n", "\x0b", "\x0c", "\x1c", "\x1f", " \n "]
NLTK_UNICODE = ["café", "naïve", "İstanbul", "中文", "日本語です。", "한국어", "😀", "👍🏽", "“quoted”", "’s", "…", "–", "—",
                "«x»", "€5", "£3.50", "¥", "©", "°C", "½", "²", "١٢٣", "٣.٥", "Ⅻ", "①", "&amp;", "&lt;b&gt;", "&quot;",
                "&#124;", "&#91;x&#93;", "&apos;", "<skipped>", "\u2028", "\u00a0", "\u3000", "\u200b", "\u0301",
                "x\u0301", "ﬁ", "Σ", "straße", "\U0001d400", "\U0010ffff", "\ufeff", "\x85", "‰", "‽", "⁂", "℃"]


def nltk_text(rng, max_words=18, unicode_rate=0.0):
    parts = []
    for _ in range(rng.randint(0, max_words)):
        roll = rng.random()
        if roll < unicode_rate:
            parts.append(rng.choice(NLTK_UNICODE))
        elif roll < unicode_rate + 0.06:
            parts.append("".join(rng.choice(string.punctuation) for _ in range(rng.randint(1, 4))))
        else:
            word = rng.choice(NLTK_WORDS)
            if rng.random() < 0.1:
                word = word.capitalize() if rng.random() < 0.7 else word.upper()
            parts.append(word)
        if rng.random() < 0.12:
            parts.append(rng.choice([".", ",", "!", "?", ")", '"', "'", ".)", '."', "...", ":"]))
        parts.append(rng.choice(NLTK_SPACES) if rng.random() < 0.9 else "")
    return "".join(parts)


def ascii_soup(rng, max_chars):
    pool = string.printable + "....''\"\"  \x1c\x1d\x0b"
    return "".join(rng.choice(pool) for _ in range(rng.randint(0, max_chars)))


NLTK_FIXED = [
    "", " ", "\n", "\t \r\n\x0b\x0c", "\x1c", ".", "..", "...", "?", "!", "'", '"', "``", "''", "--",
    "Good muffins cost $3.88\nin New York.  Please buy me\ntwo of them.\nThanks.",
    "Mr. Smith went to the U.S. He said don't.", "I met Dr. Who at 5 p.m. Then we left.",
    "They said \"Hello.\" Then left.", "(Sent1.) Sent2.", "He said 'no'. She said 'yes'.", "Wait... What?",
    "Hello!!! Is it me? Yes!", "The U.S.A. is big. The U.K. is small.", "J. R. R. Tolkien wrote it.",
    "It costs 5. Then 6. The end.", "cannot gonna gotta gimme lemme wanna d'ye more'n 'tis 'twas",
    "CANNOT Gonna WANNA go", "wanna\x1cgo", "I can't, won't, shouldn't.", "a--b---c----d", "x . . . y . . z",
    "end.)", "end.\")", "end. )\t", "end.\n", "end,\n", "end:", "U.S.", "e.g. this", "etc. The end.",
    "No. 5 is here. No. It is not.", "St. Louis is in Mo. It is big.", "A. B. C. D.", "3.14. 2.71. Done.",
    "`quote' and ``double'' quote", "\"start quote", "'s 's 'S 'm 'd 'll 're 've n't N'T",
    "students' books' covers", "(hello) [world] {foo} <bar>", "a;b@c#d$e%f&g*h", "5:30, 1,000 and 2,5",
    "tab\tseparated\tvalues.", "line one.\nline two.\n\nparagraph two.", "?!?!", "!.", ".?", "..?", "x.y.z.",
    "ok.)\" Next.", "He said: \"Stop.\" 'Why?' she asked.", "Yes.--No.", "Inc. Corp. Co. Ltd.", "i.e. e.g. a.m.",
    "café au lait", "中文 测试。", "naïve résumé", "“Hello,” she said.", "€5.00 and $3", "3.5 km², 1½ cups",
    "a&amp;b &lt;tag&gt; &quot;q&quot; &#124; &#91;x&#93; &apos;", "<skipped>x<skipped>", "a\u2028b", "😀😀 ok",
    "Price: ١٢٣.٥ USD.", "Ⅻ. ①, ②!", "x\u00a0y\u3000z", "\u200bzero width", "Straße.", "ﬁne ﬂow",
]


_PUNKT_WORDS = None


def punkt_words():
    """Words Punkt's English model knows: orthographic-context types, abbreviations, sentence
    starters and collocation parts, so that its decisions on them are exercised."""
    global _PUNKT_WORDS
    if _PUNKT_WORDS is None:
        model = nltk_data.punkt_english()
        ortho = sorted(w for w in model["ortho_context"] if w.isascii() and not any(c.isspace() for c in w))
        abbreviations = sorted(w + "." for w in model["abbrev_types"] if " " not in w)
        starters = sorted(model["sent_starters"])
        collocations = sorted(model["collocations"])
        _PUNKT_WORDS = (ortho, abbreviations, starters, collocations)
    return _PUNKT_WORDS


def punkt_text(rng, max_words=16):
    ortho, abbreviations, starters, collocations = punkt_words()
    parts = []
    for _ in range(rng.randint(1, max_words)):
        roll = rng.random()
        if roll < 0.2:
            parts.append(rng.choice(abbreviations))
        elif roll < 0.3:
            parts.append(rng.choice([rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcxyz_") + ".",
                                     str(rng.randint(0, 2000)) + ".", "-" + str(rng.randint(1, 99)) + ",5."]))
        elif roll < 0.4:
            first, second = rng.choice(collocations)
            first = str(rng.randint(1, 99)) if first == "##number##" else first
            parts.append(f"{first}. {second.capitalize() if rng.random() < 0.5 else second}")
        elif roll < 0.5:
            parts.append(rng.choice(starters).capitalize())
        else:
            word = rng.choice(ortho)
            pick = rng.random()
            parts.append(word.capitalize() if pick < 0.4 else (word.upper() if pick < 0.5 else word))
        if rng.random() < 0.15:
            parts.append(rng.choice([".", "...", "?", "!", ".)", '."', ";", ",", ":"]))
    return rng.choice([" ", " ", " ", "  ", "\n"]).join(parts)


def nltk_tokenize_cases():
    from azure.ai.evaluation._common.utils import nltk_tokenize
    from nltk.tokenize import sent_tokenize

    texts = list(NLTK_FIXED)
    rng = seeded(20)
    texts += [nltk_text(rng) for _ in range(2200)]
    texts += [nltk_text(rng, 12, unicode_rate=0.25) for _ in range(500)]
    texts += [ascii_soup(rng, 60) for _ in range(900)]
    texts += [tricky_text(rng, 40) for _ in range(200)]
    texts += [codepoint_soup(rng, 40) for _ in range(100)]
    texts += [nltk_text(rng, 300) for _ in range(10)]
    rng = seeded(23)
    texts += [punkt_text(rng) for _ in range(1500)]
    cases = []
    for text in texts:
        entry = {"text": text, "tokens": nltk_tokenize(text)}
        if text.isascii():
            entry["sentences"] = sent_tokenize(text)
        cases.append(entry)
    return cases


def nltk_pair(rng, unicode_rate):
    """A response and a ground truth that share words, phrases or nothing."""
    ground_truth = nltk_text(rng, 24, unicode_rate)
    roll = rng.random()
    if roll < 0.1:
        return ground_truth, ground_truth
    if roll < 0.55:
        words = ground_truth.split(" ")
        start = rng.randint(0, len(words))
        kept = words[start:start + rng.randint(0, len(words))]
        if rng.random() < 0.3:
            rng.shuffle(kept)
        extra = nltk_text(rng, 6, unicode_rate).split(" ")
        for word in extra:
            kept.insert(rng.randint(0, len(kept)), word)
        return " ".join(kept), ground_truth
    if roll < 0.7:
        return ground_truth.lower(), ground_truth
    return nltk_text(rng, 24, unicode_rate), ground_truth


NGRAM_FIXED = [
    ("both empty", "", ""),
    ("empty response", "", "The cat sat on the mat."),
    ("empty ground truth", "The cat sat on the mat.", ""),
    ("whitespace only", " \n\t", "  "),
    ("identical", "The cat sat on the mat.", "The cat sat on the mat."),
    ("single token", "cat", "cat"),
    ("single token hypothesis", "cat", "the cat sat"),
    ("single token mismatch", "dog", "the cat sat"),
    ("two tokens one match", "the dog", "the cat sat on the mat"),
    ("no unigram match", "alpha beta gamma", "delta epsilon"),
    ("no bigram match", "mat the on sat cat the", "the cat sat on the mat"),
    ("longer hypothesis", "the cat sat on the mat and then the dog came", "the cat sat on the mat"),
    ("repeated words clipped", "the the the the the the the", "the cat is on the mat"),
    ("contractions", "I don't know, can't say.", "I do not know, cannot say."),
    ("money", "It costs $3.88 today.", "It costs $ 3.88 today"),
    ("abbreviations", "Mr. Smith went to the U.S. He left.", "Mr. Smith went to the U.S. and left."),
    ("quotes", "He said \"hello\" to 'them'.", "He said ``hello'' to them."),
    ("ellipsis", "Wait... what?", "Wait . . . what ?"),
    ("final period only", "Done.", "Done"),
    ("punctuation soup", "!!! ??? ... ;;; ---", "!!! ... ---"),
    ("accented", "café au lait", "cafe au lait"),
    ("accent changes tokenisation", "café au lait.", "café au lait."),
    ("cjk", "我们今天去北京。", "我们 今天 去 北京 。"),
    ("emoji", "great 👍 job 😀", "great job 😀"),
    ("mixed script", "The 東京 office opened.", "The Tokyo office opened."),
    ("xml entities", "a &amp; b &lt;c&gt;", "a & b <c>"),
    ("numbers with unicode", "Price: ١٢٣.٥ €", "Price: 123.5 €"),
    ("very long", "the quick brown fox jumps over the lazy dog. " * 120, "the quick brown fox jumped over a lazy dog. " * 100),
    ("very long unicode", "naïve café résumé. " * 150, "naïve cafe resume. " * 150),
]


def ngram_cases(factory):
    cases = []

    def add(name, init, inputs):
        cases.append(case(name, init, inputs, run_reference(factory, init, inputs)))

    for name, response, ground_truth in NGRAM_FIXED:
        add(name, {}, {"response": response, "ground_truth": ground_truth})
    for threshold in [0.0, 1, 0.2, 2, -1, 0.05, 1e300]:
        add(f"threshold {threshold}", {"threshold": threshold},
            {"response": "the cat sat on a mat", "ground_truth": "the cat sat on the mat"})
    for name, inputs in [("missing ground truth", {"response": "x"}),
                         ("missing response", {"ground_truth": "x"}),
                         ("null response", {"response": None, "ground_truth": "x"}),
                         ("number response", {"response": 5, "ground_truth": "x"}),
                         ("list ground truth", {"response": "x", "ground_truth": ["x"]})]:
        add(name, {}, inputs)
    for init in [{"threshold": "0.5"}, {"threshold": None}, {"threshold": [1]}]:
        add(f"init {init}", init, {"response": "x", "ground_truth": "x"})
    for flag in [True, False]:
        inputs = {"response": "a b", "ground_truth": "a b"}
        reference = run_reference(factory, {"threshold": flag}, inputs)
        cases.append(case(f"boolean threshold {flag}", {"threshold": flag}, inputs, {
            "deviation": f"booleans are not thresholds (reference: {sorted(reference)[0]}, comparing with {int(flag)})"}))
    texts = NLTK_FIXED
    for index, text in enumerate(texts):
        add(f"fixed text {index}", {}, {"response": text, "ground_truth": texts[(index * 7 + 3) % len(texts)]})
        add(f"fixed text {index} itself", {}, {"response": text, "ground_truth": text + " extra words here"})
    rng = seeded(21)
    for index in range(1200):
        response, ground_truth = nltk_pair(rng, 0.0 if index % 4 else 0.2)
        init = {"threshold": rng.choice([0.0, 0.1, 0.3, 0.5, 0.7, 1])} if rng.random() < 0.2 else {}
        add(f"random {index}", init, {"response": response, "ground_truth": ground_truth})
    for index in range(200):
        response = ascii_soup(rng, 50) if index % 2 else tricky_text(rng, 40)
        ground_truth = response[: rng.randint(0, len(response))] + ascii_soup(rng, 20)
        add(f"soup {index}", {}, {"response": response, "ground_truth": ground_truth})
    rng = seeded(22)
    for index in range(200):
        init = {"threshold": rng.choice(THRESHOLD_VALUES)} if rng.random() < 0.4 else {}
        inputs = shaped_text_inputs(rng)
        reference = run_reference(factory, init, inputs)
        if "crash" not in reference and not all(is_number(value) for value in init.values()):
            reference = {"deviation": "options are checked before inputs, and booleans are not numbers "
                                      f"(reference: {sorted(reference)[0]})"}
        cases.append(case(f"shapes {index}", init, inputs, reference))
    return cases


def write_tokenize(cases):
    OUT.mkdir(parents=True, exist_ok=True)
    document = {"reference": "nltk 3.10.4 via azure-ai-evaluation 1.18.10 nltk_tokenize", "cases": cases}
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    path = OUT / "nltk_tokenize.json"
    path.write_text(text.replace('},{"text"', '},\n{"text"') + "\n", encoding="utf-8")
    print(f"{path}: {len(cases)} cases, {len(text.encode()) // 1024} KiB")


def write_porter(cases):
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / "porter_stem.json"
    lines = ",\n".join(json.dumps(entry, ensure_ascii=False) for entry in cases)
    path.write_text('{"reference": "nltk 3.10.4 PorterStemmer().stem", "cases": [\n' + lines + "\n]}\n",
                    encoding="utf-8")
    print(f"{path}: {len(cases)} words")


def main():
    global OUT, SEED_OFFSET
    parser = argparse.ArgumentParser(description="Writes the parity case files.")
    parser.add_argument("--seed-offset", type=int, default=0,
                        help="shift every random section's seed (0: the committed files)")
    parser.add_argument("--out", type=pathlib.Path, default=OUT, help="directory to write to")
    parser.add_argument("--only", action="append", help="write only these files (e.g. bleu_score.json)")
    args = parser.parse_args()
    OUT, SEED_OFFSET = args.out.resolve(), args.seed_offset
    data_root = nltk_data.use(tempfile.mkdtemp(prefix="agenteval-nltk-data-"))

    def wanted(name):
        return not args.only or name in args.only
    if sys.version_info[:2] != (3, 11):
        print("warning: the committed fixtures were generated with CPython 3.11", file=sys.stderr)
    if wanted("f1_score.json"):
        write("f1_score.json", "builtin.f1_score", "f1_score", f1_cases())
    if wanted("rouge_score.json"):
        write("rouge_score.json", "builtin.rouge_score", "rouge", rouge_cases())
    if wanted("task_navigation_efficiency.json"):
        write("task_navigation_efficiency.json", "builtin.task_navigation_efficiency", "task_navigation_efficiency",
              tne_cases())
    if wanted("document_retrieval.json"):
        write("document_retrieval.json", "builtin.document_retrieval", "document_retrieval", dr_cases())
    if wanted("bleu_score.json"):
        write("bleu_score.json", "builtin.bleu_score", "bleu", ngram_cases(BleuScoreEvaluator))
    if wanted("gleu_score.json"):
        write("gleu_score.json", "builtin.gleu_score", "gleu", ngram_cases(GleuScoreEvaluator))
    if wanted("nltk_tokenize.json"):
        write_tokenize(nltk_tokenize_cases())
    if wanted("meteor_score.json") or wanted("porter_stem.json"):
        reader = meteor_cases.prepare(data_root)
        if wanted("porter_stem.json"):
            write_porter(meteor_cases.porter_cases(reader, seeded(31)))
        if wanted("meteor_score.json"):
            write("meteor_score.json", "builtin.meteor_score", "meteor",
                  meteor_cases.meteor_cases(sys.modules[__name__], reader))


if __name__ == "__main__":
    asyncio.set_event_loop(asyncio.new_event_loop())
    main()
