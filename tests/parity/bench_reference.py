#!/usr/bin/env python3
"""Times azure-ai-evaluation 1.18.10's F1ScoreEvaluator, _TaskNavigationEfficiencyEvaluator,
BleuScoreEvaluator, GleuScoreEvaluator and MeteorScoreEvaluator (the last three on the F1 text
pairs; METEOR with WordNet 3.0 laid out by gen_wordnet_table.py).

Usage:  python bench_reference.py INPUTS.json [--fresh]
Needs:  pip install azure-ai-evaluation==1.18.10   (CPython 3.11; NLTK's data is laid out offline
        by nltk_data.py, as for the parity cases)

INPUTS.json (see tests/parity/README.md; a Rust xtask can write it):

    {"f1": [{"response": str, "ground_truth": str}, ...],
     "task_navigation": [{"response": [messages] | str, "ground_truth": [names] | [names, {tool: {param: value}}]
                          | {"tool_names": [...], "parameters": {...}}}, ...],
     "matching_mode": "exact_match"}            (optional, default exact_match)

Each evaluator is called once per item after a warm-up pass over the first items, in a loop of
whole passes lasting at least --min-seconds (default 2). With --fresh, each item is read from its
JSON text (json.loads, not timed) just before its call, and only the calls are timed, as a run
evaluates the item it has just read. Prints one JSON object:

    {"f1_score_ns_per_item": float, "task_navigation_efficiency_ns_per_item": float,
     "bleu_score_ns_per_item": float, "gleu_score_ns_per_item": float,
     "meteor_score_ns_per_item": float}

A list that is empty or absent gives null.
"""

import argparse
import json
import logging
import pathlib
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import meteor_cases  # noqa: E402
import nltk_data  # noqa: E402

from azure.ai.evaluation import (  # noqa: E402
    BleuScoreEvaluator,
    F1ScoreEvaluator,
    GleuScoreEvaluator,
    MeteorScoreEvaluator,
)
from azure.ai.evaluation._evaluators._task_navigation_efficiency import _TaskNavigationEfficiencyEvaluator  # noqa: E402


def as_reference_ground_truth(value):
    """agenteval's JSON spelling of the reference's tuple form -> the Python tuple."""
    if isinstance(value, list) and len(value) == 2 and isinstance(value[0], list):
        return (value[0], value[1])
    if isinstance(value, dict) and set(value) == {"tool_names", "parameters"}:
        return (value["tool_names"], value["parameters"])
    return value


def time_per_fresh_item(evaluator, items, min_seconds, warmup, prepare):
    """Each call on an item just read from its JSON text; only the calls are timed."""
    if not items:
        return None
    texts = [json.dumps(item) for item in items]
    for text in texts[:warmup]:
        evaluator(**prepare(json.loads(text)))
    calls = 0
    timed = 0
    deadline = time.perf_counter_ns() + int(min_seconds * 1e9)
    while True:
        for text in texts:
            item = prepare(json.loads(text))
            start = time.perf_counter_ns()
            evaluator(**item)
            timed += time.perf_counter_ns() - start
        calls += len(texts)
        if time.perf_counter_ns() >= deadline:
            return timed / calls


def time_per_item(evaluator, items, min_seconds, warmup):
    if not items:
        return None
    for item in items[:warmup]:
        evaluator(**item)
    calls = 0
    start = time.perf_counter_ns()
    deadline = start + int(min_seconds * 1e9)
    while True:
        for item in items:
            evaluator(**item)
        calls += len(items)
        now = time.perf_counter_ns()
        if now >= deadline:
            return (now - start) / calls


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("inputs")
    parser.add_argument("--min-seconds", type=float, default=2.0)
    parser.add_argument("--warmup", type=int, default=50)
    parser.add_argument("--fresh", action="store_true", help="read each item just before its call")
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)
    meteor_cases.prepare(nltk_data.use(tempfile.mkdtemp(prefix="agenteval-nltk-data-")))
    with open(args.inputs, encoding="utf-8") as handle:
        data = json.load(handle)
    f1_items = [{"response": i["response"], "ground_truth": i["ground_truth"]} for i in data.get("f1", [])]
    tne_items = [{"response": i["response"], "ground_truth": as_reference_ground_truth(i["ground_truth"])}
                 for i in data.get("task_navigation", [])]
    tne = _TaskNavigationEfficiencyEvaluator(matching_mode=data.get("matching_mode", "exact_match"))
    if args.fresh:
        tne_tuple = lambda item: {**item, "ground_truth": as_reference_ground_truth(item["ground_truth"])}
        result = {
            "f1_score_ns_per_item": time_per_fresh_item(
                F1ScoreEvaluator(), f1_items, args.min_seconds, args.warmup, lambda item: item),
            "task_navigation_efficiency_ns_per_item": time_per_fresh_item(
                tne,
                [{"response": i["response"], "ground_truth": i["ground_truth"]} for i in data.get("task_navigation", [])],
                args.min_seconds, args.warmup, tne_tuple),
            "bleu_score_ns_per_item": time_per_fresh_item(
                BleuScoreEvaluator(), f1_items, args.min_seconds, args.warmup, lambda item: item),
            "gleu_score_ns_per_item": time_per_fresh_item(
                GleuScoreEvaluator(), f1_items, args.min_seconds, args.warmup, lambda item: item),
            "meteor_score_ns_per_item": time_per_fresh_item(
                MeteorScoreEvaluator(), f1_items, args.min_seconds, args.warmup, lambda item: item),
        }
    else:
        result = {
            "f1_score_ns_per_item": time_per_item(F1ScoreEvaluator(), f1_items, args.min_seconds, args.warmup),
            "task_navigation_efficiency_ns_per_item": time_per_item(tne, tne_items, args.min_seconds, args.warmup),
            "bleu_score_ns_per_item": time_per_item(BleuScoreEvaluator(), f1_items, args.min_seconds, args.warmup),
            "gleu_score_ns_per_item": time_per_item(GleuScoreEvaluator(), f1_items, args.min_seconds, args.warmup),
            "meteor_score_ns_per_item": time_per_item(MeteorScoreEvaluator(), f1_items, args.min_seconds, args.warmup),
        }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
