"""Expected values of the comparison's statistics (`crates/core/src/compare/stats.rs`), from scipy.

Writes tests/fixtures/parity/compare_stats.json, which the core's unit tests replay offline.
Each test follows microsoft/ai-agent-evals `analysis/analysis.py` (McNemar mid-p; Wilcoxon with
Pratt's zeros, here with the normal approximation and no continuity correction; the paired
t-test; Wilson intervals with continuity correction; the t interval of a mean). The detectable
delta is agenteval's: (t(0.975, n-1) + t(0.8, n-1)) * sd(d) / sqrt(n).

    pip install scipy && python3 tests/parity/gen_compare_stats.py

Deterministic (seeded). Written with scipy 1.17.1.
"""

import json
import math
import pathlib
import random

import numpy as np
import scipy
from scipy.stats import binom, binomtest, t, ttest_rel, wilcoxon

OUT = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "parity" / "compare_stats.json"


def mcnemar(b, c):
    n = b + c
    if n == 0:
        return 1.0
    return float(2 * binom.cdf(min(b, c), n, 0.5) - binom.pmf(b, n, 0.5))


def wilcoxon_p(d):
    d = np.round(np.asarray(d, dtype=float))
    if (d == 0).all():
        return 1.0
    return float(wilcoxon(d, zero_method="pratt", method="approx", correction=False).pvalue)


def paired_t(baseline, candidate):
    d = np.asarray(candidate, dtype=float) - np.asarray(baseline, dtype=float)
    if (d == 0).all():
        return 1.0
    if len(d) > 1 and (d == d[0]).all():
        return 0.0
    return float(ttest_rel(baseline, candidate).pvalue)


def wilson(k, n):
    ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilsoncc")
    return [float(ci.low), float(ci.high)]


def mean_interval(values):
    values = np.asarray(values, dtype=float)
    n = len(values)
    mean = values.mean()
    half = t.ppf(0.975, df=n - 1) * values.std(ddof=1) / math.sqrt(n)
    return [float(mean - half), float(mean + half)]


def detectable(d):
    d = np.asarray(d, dtype=float)
    n = len(d)
    sd = d.std(ddof=1)
    return float((t.ppf(0.975, n - 1) + t.ppf(0.8, n - 1)) * sd / math.sqrt(n))


def main():
    rng = random.Random(40)
    cases = {"mcnemar": [], "wilcoxon": [], "paired_t": [], "wilson": [], "mean_interval": [],
             "detectable_delta": [], "t_quantile": []}

    pairs = [(0, 0), (0, 1), (1, 0), (1, 1), (3, 0), (0, 7), (5, 5), (2, 9), (12, 30), (40, 41),
             (0, 25), (100, 130), (250, 180), (999, 1100)]
    pairs += [(rng.randrange(0, 60), rng.randrange(0, 60)) for _ in range(30)]
    for b, c in pairs:
        cases["mcnemar"].append({"b": b, "c": c, "p": mcnemar(b, c)})

    samples = [
        [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
        [0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2],
        [1, -1, 2, -2, 3, 0, 0, 1, 1, 4],
        [-1, -2, -1, -3, -1, 0, -2, -1, -1, -4, -1, 1],
        [0.4, 1.6, -0.6, 2.5, 1.0, 0.0, 3.0, -1.0, 1.2, 0.8],
    ]
    for _ in range(30):
        n = rng.randrange(5, 120)
        shift = rng.choice([0.0, 0.3, 0.8])
        samples.append([max(-4, min(4, round(rng.gauss(shift, 1.2)))) for _ in range(n)])
    for d in samples:
        cases["wilcoxon"].append({"d": d, "p": wilcoxon_p(d)})

    ttests = [
        ([0.5, 0.6, 0.7], [0.5, 0.6, 0.7]),
        ([0.1, 0.2, 0.3, 0.4], [0.3, 0.4, 0.5, 0.6]),
        ([0.1, 0.2, 0.3, 0.4, 0.5], [0.2, 0.1, 0.5, 0.6, 0.4]),
    ]
    for _ in range(30):
        n = rng.randrange(2, 200)
        shift = rng.choice([0.0, 0.02, 0.1])
        baseline = [round(rng.random(), 6) for _ in range(n)]
        candidate = [round(min(1.0, max(0.0, b + rng.gauss(shift, 0.15))), 6) for b in baseline]
        ttests.append((baseline, candidate))
    for baseline, candidate in ttests:
        cases["paired_t"].append({"baseline": baseline, "candidate": candidate,
                                  "p": paired_t(baseline, candidate)})

    wilsons = [(0, 1), (1, 1), (0, 10), (10, 10), (1, 10), (5, 10), (9, 10), (37, 50), (1, 1000),
               (999, 1000), (50000, 100000)]
    wilsons += [(k, n) for n in (rng.randrange(1, 500) for _ in range(25))
                for k in [rng.randrange(0, n + 1)]]
    for k, n in wilsons:
        cases["wilson"].append({"k": k, "n": n, "ci": wilson(k, n)})

    for _ in range(20):
        n = rng.randrange(2, 300)
        values = [round(rng.uniform(0, 1), 6) for _ in range(n)]
        cases["mean_interval"].append({"values": values, "ci": mean_interval(values)})

    for _ in range(20):
        n = rng.randrange(2, 300)
        d = [round(rng.gauss(0.05, 0.3), 6) for _ in range(n)]
        cases["detectable_delta"].append({"d": d, "delta": detectable(d)})
    cases["detectable_delta"].append({"d": [0, 1, 0, -1, 0, 0, 1, 0, 0, 0],
                                      "delta": detectable([0, 1, 0, -1, 0, 0, 1, 0, 0, 0])})

    for q in (0.8, 0.975):
        for df in (1, 2, 3, 4, 5, 7, 9, 10, 19, 29, 49, 99, 999, 99999):
            cases["t_quantile"].append({"q": q, "df": df, "x": float(t.ppf(q, df))})

    cases["scipy"] = scipy.__version__
    OUT.write_text(json.dumps(cases, indent=None, separators=(",", ":")) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
