"""METEOR's parity cases, for `generate_cases.py`: `meteor_score.json` (the reference's
`MeteorScoreEvaluator` on hand-picked and seeded random texts, every option) and `porter_stem.json`
(NLTK's `PorterStemmer().stem` on thousands of words).

Runs against the NLTK data directory `generate_cases.py` laid out (`nltk_data.py`), with the real
WordNet 3.0 of `gen_wordnet_table.py` laid into it, so the reference's synonym stage reads the same
WordNet as agenteval's table.
"""

import math

import gen_wordnet_table

POOL_FORMS = ["sky", "skies", "dying", "lying", "tying", "news", "innings", "inning", "outings", "outing",
              "cannings", "canning", "howe", "proceed", "exceed", "succeed"]
PORTER_EDGES = ["", "a", "y", "yy", "yyy", "ay", "by", "aye", "ies", "ied", "eed", "ing", "ed", "s", "ss", "sses",
                "ties", "tied", "pies", "cries", "agreed", "feed", "bleed", "hopping", "hoping", "filing", "falling",
                "fizzed", "failed", "a*ding", "x*ded", "logi", "analogi", "archaeology", "alli", "radicalli",
                "formalli", "fulli", "hopefulli", "generalization", "oscillators", "electriciti", "happy", "sky",
                "SKIES", "Dying", "İİİ", "İs", "ßes", "café", "cafés", "naïve", "résumés", "über", "ﬁles",
                "ΣΑΣ", "日本語", "x\u0301es", "caresses", "ponies", "cats", "plastered", "motoring", "conflated",
                "troubled", "sized", "tanned", "controll", "roll", "rolling", "relational", "conditional",
                "valenci", "hesitanci", "digitizer", "conformabli", "differentli", "vileli", "analogousli",
                "vietnamization", "predication", "operator", "feudalism", "decisiveness", "hopefulness",
                "callousness", "formaliti", "sensitiviti", "sensibiliti", "triplicate", "formative", "formalize",
                "electrical", "goodness", "revival", "allowance", "inference", "airliner", "gyroscopic",
                "adjustable", "defensible", "irritant", "replacement", "adjustment", "dependent", "adoption",
                "homologou", "communism", "activate", "angulariti", "homologous", "effective", "bowdlerize",
                "probate", "rate", "cease", "controlling", "generously", "yelling", "oyster", "syzygy"]
MORPHY_WORDS = ["geese", "goose", "ran", "run", "running", "better", "good", "best", "well", "mice", "mouse",
                "children", "child", "went", "go", "gone", "was", "be", "were", "is", "are", "men", "man", "women",
                "woman", "oxen", "ox", "feet", "foot", "teeth", "tooth", "saw", "see", "seen", "flew", "fly",
                "flies", "bought", "buy", "ate", "eat", "eaten", "worse", "bad", "worst", "axes", "axis", "ax",
                "churches", "church", "wolves", "wolf", "abaci", "abacus", "data", "datum", "hot_dog", "hotdog"]
SYNONYM_PAIRS = [("quick", "fast"), ("big", "large"), ("happy", "glad"), ("car", "automobile"), ("buy", "purchase"),
                 ("begin", "start"), ("end", "finish"), ("small", "little"), ("help", "aid"), ("sick", "ill"),
                 ("shut", "close"), ("answer", "reply"), ("smart", "clever"), ("rich", "wealthy"),
                 ("jump", "leap"), ("speak", "talk"), ("house", "home"), ("stone", "rock"), ("street", "road"),
                 ("cop", "policeman"), ("kid", "child"), ("movie", "film"), ("sofa", "couch"), ("dog", "hound"),
                 ("guide", "direct"), ("forever", "always"), ("military", "army"), ("command", "order"),
                 ("heed", "obey"), ("party", "company"), ("ensure", "guarantee"), ("trip", "journey")]
NLTK_DOCTEST = (
    "It is a guide to action which ensures that the military always obeys the commands of the party",
    "It is a guide to action that ensures that the military will forever heed Party commands",
    "It is to insure the troops forever hearing the activity guidebook that party direct",
    "It is the guiding principle which guarantees the military forces always being under the command of the Party",
    "It is the practical guide for the army always to heed the directions of the party",
)
OPTION_VALUES = {
    "alpha": [0.9, 0, 1, 0.5, 0.0, 1.0, 2, -1, 1.5, 0.1, 1e-300, 10**6],
    "beta": [3.0, 0, 1, 3, 2.5, 10, -1, 0.5, 100, -2000, 1e-9],
    "gamma": [0.5, 0, 1, 0.25, 2, 1.5, -1, 1e308, 10],
    "threshold": [0.5, 0, 1, 0.3, 0.75, -1, 2, 0.123456789],
}
BAD_OPTIONS = [{"alpha": "0.9"}, {"alpha": None}, {"alpha": True}, {"alpha": [1]}, {"beta": "3"}, {"beta": None},
               {"beta": False}, {"gamma": "x"}, {"gamma": None}, {"gamma": True}, {"threshold": None},
               {"threshold": "0.5"}, {"threshold": True}, {"threshold": [0.5]}, {"threshold": {}}]


def porter_cases(reader, rng):
    """`[word, PorterStemmer().stem(word)]` for about 12,000 words."""
    from nltk.stem.porter import PorterStemmer

    stemmer = PorterStemmer()
    lemmas = sorted(lemma for lemma in reader._lemma_pos_offset_map if "_" not in lemma)
    suffixes = ["", "s", "es", "ed", "ing", "ly", "er", "est", "ness", "ment", "ation", "ational", "ize",
                "izer", "ization", "ful", "fulness", "ous", "ousness", "ive", "iveness", "iti", "ity", "al",
                "alli", "ally", "bli", "ble", "ies", "ied", "y", "logy", "logi", "icate", "ical", "ance", "ence"]
    words = POOL_FORMS + PORTER_EDGES + [word.upper() for word in POOL_FORMS[:5]] + MORPHY_WORDS
    words += rng.sample(lemmas, 6000)
    words += [rng.choice(lemmas) + rng.choice(suffixes) for _ in range(3500)]
    letters = "aeiouyy" + "bcdfglmnrstvwxz" + "yy"
    for _ in range(2000):
        word = "".join(rng.choice(letters) for _ in range(rng.randint(1, 9)))
        words.append(word + rng.choice(suffixes))
    odd = ["é", "ß", "ı", "İ", "ǅ", "ﬁ", "Σ", "x\u0301", "中", "*", "-", "'", "1", "Y", "E"]
    for _ in range(500):
        word = list(rng.choice(lemmas) + rng.choice(suffixes))
        word.insert(rng.randrange(len(word) + 1), rng.choice(odd))
        words.append("".join(word))
    return [[word, stemmer.stem(word)] for word in words]


def synonym_of(reader, word, rng):
    names = sorted({name for synset in reader.synsets(word) for name in synset.lemma_names()
                    if "_" not in name and name != word})
    return rng.choice(names) if names else word


def inflect(word, rng):
    return word + rng.choice(["s", "es", "ed", "ing", "er", "est", "ly", "ness"])


def vary(reader, words, rng):
    """A reference made from a hypothesis: synonyms, inflections, case, drops, insertions, swaps."""
    out = []
    for word in words:
        roll = rng.random()
        if roll < 0.25:
            out.append(synonym_of(reader, word.lower(), rng))
        elif roll < 0.37:
            out.append(inflect(word, rng))
        elif roll < 0.42:
            out.append(word.upper() if rng.random() < 0.5 else word.capitalize())
        elif roll < 0.5:
            continue
        else:
            out.append(word)
        if rng.random() < 0.08:
            out.append(rng.choice(words))
    for _ in range(rng.randint(0, 2)):
        if len(out) > 1:
            i, j = rng.randrange(len(out)), rng.randrange(len(out))
            out[i], out[j] = out[j], out[i]
    return out


def dress(words, rng, punctuation_rate=0.0):
    """Words joined into a text, with some punctuation and spacing."""
    parts = []
    for word in words:
        parts.append(word)
        if rng.random() < punctuation_rate:
            parts.append(rng.choice([".", ",", "!", "?", ";", ":", "'s", "n't", ")", "\""]))
        parts.append(rng.choice([" ", " ", " ", "  ", "\n", "\t"]) if punctuation_rate else " ")
    return "".join(parts).strip() if punctuation_rate == 0.0 else "".join(parts)


def random_init(rng):
    init = {}
    for key, values in OPTION_VALUES.items():
        if rng.random() < 0.2:
            init[key] = rng.choice(values)
    return init


def finite_output(outcome):
    score = outcome.get("output", {}).get("meteor")
    return not isinstance(score, str) and (score is None or math.isfinite(score))


def deviation_of(init, outcome):
    """Why agenteval deliberately rejects a case the reference scores, or None."""
    if "output" not in outcome:
        return None
    for key in ("alpha", "beta", "gamma", "threshold"):
        value = init.get(key, 0.5)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return f"option `{key}` must be a number (the reference takes {value!r} as it is)"
    if not finite_output(outcome):
        return "a METEOR score that is not finite is an error"
    return None


def meteor_cases(helpers, reader):
    from azure.ai.evaluation import MeteorScoreEvaluator

    def run(name, init, inputs):
        outcome = helpers.run_reference(MeteorScoreEvaluator, init, inputs)
        why = deviation_of(init, outcome)
        if why is not None:
            outcome = {"deviation": why}
        return helpers.case(name, init, inputs, outcome)

    def pair(response, ground_truth):
        return {"response": response, "ground_truth": ground_truth}

    cases = []
    fixed = [
        ("identical", "the cat sat on the mat", "the cat sat on the mat"),
        ("nltk doctest 1", NLTK_DOCTEST[0], NLTK_DOCTEST[1]),
        ("nltk doctest 2", NLTK_DOCTEST[0], NLTK_DOCTEST[2]),
        ("nltk doctest 3", NLTK_DOCTEST[0], NLTK_DOCTEST[4]),
        ("nltk doctest 4", NLTK_DOCTEST[2], NLTK_DOCTEST[3]),
        ("no match", "non matching hypothesis", "this is a cat"),
        ("empty both", "", ""),
        ("empty response", "", "a cat"),
        ("empty ground truth", "a cat", ""),
        ("whitespace only", " \t\n ", "  "),
        ("whitespace response", "\n", "the cat"),
        ("repeated words", "the the the the", "the"),
        ("repeated reference", "the", "the the the"),
        ("repeated both", "a b a b a b", "b a b a"),
        ("reversed", "a b c d e f", "f e d c b a"),
        ("chunks", "a b x c d y e", "a b c d e"),
        ("stems", "the dogs were running quickly", "the dog was run quick"),
        ("stems 2", "generalization relational conditional", "general relate condition"),
        ("case", "The CAT Sat", "the cat SAT"),
        ("punctuation", "Hello, world! It's a test.", "hello world it is a test"),
        ("contractions", "I can't do that, won't you?", "I cannot do that will not you"),
        ("unicode", "café naïve résumé", "cafe naive resume"),
        ("unicode same", "café naïve résumé", "Café NAÏVE résumé"),
        ("unicode mixed", "the straße is long", "the strasse is long"),
        ("cjk", "中文 测试。", "中文 测试"),
        ("emoji", "good 😀 job", "good job 😀"),
        ("dotted capital I", "İstanbul is big", "istanbul is big"),
        ("numbers", "it costs $3.88 in 2024", "it costs 3.88 dollars in 2024"),
        ("long identical", " ".join(NLTK_DOCTEST * 20), " ".join(NLTK_DOCTEST * 20)),
        ("long shuffled", " ".join(NLTK_DOCTEST * 10), " ".join(reversed(NLTK_DOCTEST * 10))),
    ]
    for a, b in SYNONYM_PAIRS:
        fixed.append((f"synonym {a} {b}", f"the {a} one", f"the {b} one"))
        fixed.append((f"synonym {b} {a}", f"the {b} one", f"the {a} one"))
    for i in range(0, len(MORPHY_WORDS) - 1, 2):
        a, b = MORPHY_WORDS[i], MORPHY_WORDS[i + 1]
        fixed.append((f"morphy {a} {b}", f"they {a} it", f"they {b} it"))
        fixed.append((f"morphy {b} {a}", f"they {b} it", f"they {a} it"))
    for name, response, ground_truth in fixed:
        cases.append(run(name, {}, pair(response, ground_truth)))

    cases.append(run("missing response", {}, {"response": None, "ground_truth": "a"}))
    cases.append(run("missing ground truth", {}, {"response": "a", "ground_truth": None}))
    cases.append(run("missing both", {}, {"response": None, "ground_truth": None}))
    cases.append(run("number response", {}, pair(5, "a")))
    cases.append(run("list ground truth", {}, pair("a", ["a"])))
    for key, values in OPTION_VALUES.items():
        for value in values:
            for response, ground_truth in [(NLTK_DOCTEST[0], NLTK_DOCTEST[1]), ("a b x c", "a b c"),
                                           ("the cat", "a dog")]:
                cases.append(run(f"option {key}={value!r}", {key: value}, pair(response, ground_truth)))
    for init in BAD_OPTIONS:
        for response, ground_truth in [("a b x c", "a b c"), ("", "a b c"), ("x", "y")]:
            cases.append(run(f"bad option {init!r}", init, pair(response, ground_truth)))

    rng = helpers.seeded(30)
    vocabulary = sorted({word for pair_ in SYNONYM_PAIRS for word in pair_} | set(MORPHY_WORDS)
                        | set(" ".join(NLTK_DOCTEST).lower().split()))
    common = [lemma for lemma in sorted(reader._lemma_pos_offset_map)
              if lemma.isalpha() and 3 <= len(lemma) <= 8]
    common = rng.sample(common, 3000)
    for number in range(3200):
        pool = vocabulary if rng.random() < 0.5 else common
        words = [rng.choice(pool) for _ in range(rng.randint(0, 14))]
        if rng.random() < 0.6:
            other = vary(reader, words, rng)
        else:
            other = [rng.choice(pool) for _ in range(rng.randint(0, 14))]
        if rng.random() < 0.5:
            words, other = other, words
        styled = rng.random()
        if styled < 0.6:
            response, ground_truth = " ".join(words), " ".join(other)
        elif styled < 0.9:
            response, ground_truth = dress(words, rng, 0.15), dress(other, rng, 0.15)
        else:
            response = helpers.nltk_text(rng, 14, unicode_rate=0.2)
            ground_truth = helpers.nltk_text(rng, 14, unicode_rate=0.2)
        init = random_init(rng)
        cases.append(run(f"random {number}", init, pair(response, ground_truth)))
    return cases


def prepare(root):
    """Lays WordNet 3.0 into the NLTK data root `root` and returns NLTK's reader of it."""
    wordnet = gen_wordnet_table.prepare(root)
    return gen_wordnet_table.load_reader(wordnet)

