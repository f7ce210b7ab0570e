"""Pearson and Spearman against scipy on every STS 2017 gold file, and accuracy / macro-F1 against a
hand loop (and scikit-learn when installed) on OCNLI dev and on seeded random labels."""

import json
import random
import re
import warnings
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import pearsonr, spearmanr

from codajudge.metrics import get

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
STS = DATA / "sts2017"
OCNLI_DEV = DATA / "ocnli" / "dev.json"
GOLD_FILES = sorted(STS.glob("STS.gs.track*.txt")) if STS.is_dir() else []
needs_sts = pytest.mark.skipif(len(GOLD_FILES) != 7, reason="../shared/data/sts2017 is not present")
needs_ocnli = pytest.mark.skipif(
    not OCNLI_DEV.is_file(), reason="../shared/data/ocnli is not present"
)


def read_track(gold_file):
    """Gold scores and the first len(gold) input pairs (track 6 has 500 inputs, 250 gold)."""
    gold = [
        float(line) for line in gold_file.read_text(encoding="utf-8").splitlines() if line.strip()
    ]
    inputs = gold_file.with_name(gold_file.name.replace("STS.gs.", "STS.input."))
    pairs = [line.split("\t") for line in inputs.read_text(encoding="utf-8").splitlines()][
        : len(gold)
    ]
    return np.array(gold), pairs


def word_overlap(pairs):
    """Jaccard overlap of lowercased word sets: a bag-of-words similarity written for this test."""
    scores = []
    for a, b in pairs:
        left, right = set(re.findall(r"\w+", a.lower())), set(re.findall(r"\w+", b.lower()))
        scores.append(len(left & right) / len(left | right) if left | right else 0.0)
    return np.array(scores)


def prediction_systems(gold, pairs, seed):
    rng = np.random.default_rng(seed)
    return {
        "gold_plus_noise": gold + rng.normal(0.0, 1.0, gold.size),
        "gold_reversed": gold[::-1].copy(),
        "word_overlap": word_overlap(pairs),
        "uniform_random": rng.uniform(0.0, 5.0, gold.size),
        "rounded_gold_ties": np.round(gold),  # many ties for Spearman's average ranks
        "monotone_transform": np.exp(gold),  # Spearman 1, Pearson below 1
        "shifted_scaled_noise": 100.0 + 0.01 * (gold + rng.normal(0.0, 0.5, gold.size)),
    }


def scipy_value(name, gold, pred):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = pearsonr(pred, gold) if name == "pearson" else spearmanr(pred, gold)
    return float(result[0])


@needs_sts
@pytest.mark.parametrize("gold_file", GOLD_FILES, ids=lambda p: p.name.split(".")[2])
@pytest.mark.parametrize("name", ["pearson", "spearman"])
def test_correlations_agree_with_scipy_on_sts2017(gold_file, name):
    gold, pairs = read_track(gold_file)
    assert gold.size == 250 and len(pairs) == 250
    checked = 0
    for system, pred in prediction_systems(gold, pairs, seed=len(gold_file.name)).items():
        result = get(name).score(gold, pred)
        if np.ptp(pred) == 0:  # e.g. word overlap between Arabic and English: all zero
            assert result.value == 0.0 and result.warning, system
            continue
        assert result.warning is None, system
        assert result.value == pytest.approx(scipy_value(name, gold, pred), abs=1e-12), system
        checked += 1
    assert checked >= 6


@needs_sts
@pytest.mark.parametrize("gold_file", GOLD_FILES, ids=lambda p: p.name.split(".")[2])
def test_negated_gold_gives_minus_one_and_scale_does_not_matter(gold_file):
    gold, pairs = read_track(gold_file)
    for name in ("pearson", "spearman"):
        assert get(name).score(gold, -gold).value == pytest.approx(-1.0, abs=1e-12)
        assert get(name).score(gold, gold).value == pytest.approx(1.0, abs=1e-12)
    noisy = gold + np.random.default_rng(3).normal(0.0, 1.0, gold.size)
    assert get("pearson").score(gold, noisy / 5.0).value == pytest.approx(
        get("pearson").score(gold, noisy).value, abs=1e-12
    )


@needs_sts
def test_the_sts2017_word_overlap_is_really_constant_on_arabic_english():
    gold, pairs = read_track(STS / "STS.gs.track2.ar-en.txt")
    assert np.ptp(word_overlap(pairs)) == 0  # so the constant case above is exercised on real data


@pytest.mark.parametrize("name", ["pearson", "spearman"])
@pytest.mark.parametrize("constant", [0.0, 2.6, 1e6])
def test_constant_predictions_or_gold_give_zero_and_a_warning(name, constant):
    gold = np.array([0.0, 1.2, 3.4, 5.0, 2.2])
    for g, p in ((gold, np.full(5, constant)), (np.full(5, constant), gold)):
        result = get(name).score(g, p)
        assert result.value == 0.0
        assert result.warning and "constant" in result.warning


# --- classification -----------------------------------------------------------------------------


def hand_accuracy(gold, pred):
    return sum(1 for g, p in zip(gold, pred) if g == p) / len(gold)


def hand_macro_f1(gold, pred):
    """Mean over the labels seen in gold or predictions of F1 = 2PR / (P + R), 0 when undefined."""
    scores = []
    for label in sorted(set(gold) | set(pred)):
        tp = sum(1 for g, p in zip(gold, pred) if g == label and p == label)
        fp = sum(1 for g, p in zip(gold, pred) if g != label and p == label)
        fn = sum(1 for g, p in zip(gold, pred) if g == label and p != label)
        precision = tp / (tp + fp) if tp + fp else 0.0
        recall = tp / (tp + fn) if tp + fn else 0.0
        scores.append(2 * precision * recall / (precision + recall) if precision + recall else 0.0)
    return sum(scores) / len(scores)


def hand_balanced_accuracy(gold, pred):
    """Mean over the labels seen in gold of each label's recall (its items predicted as it)."""
    recalls = []
    for label in sorted(set(gold)):
        of_label = [p for g, p in zip(gold, pred) if g == label]
        recalls.append(sum(1 for p in of_label if p == label) / len(of_label))
    return sum(recalls) / len(recalls)


def ocnli_systems():
    """OCNLI dev items with a majority label, as label indices, and a few prediction systems."""
    labels = ["entailment", "neutral", "contradiction"]
    rows = [
        json.loads(line)
        for line in OCNLI_DEV.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    rows = [r for r in rows if r["label"] in labels]
    gold = [labels.index(r["label"]) for r in rows]
    rng = random.Random(11)
    return gold, {
        "random": [rng.randrange(3) for _ in gold],
        "most_frequent": [labels.index("neutral")] * len(gold),
        "first_annotator": [
            labels.index(r["label0"]) if r["label0"] in labels else 0 for r in rows
        ],
        "perturbed": [g if rng.random() < 0.7 else rng.randrange(3) for g in gold],
        "never_neutral": [0 if g == 1 else g for g in gold],
    }


@needs_ocnli
def test_accuracy_and_macro_f1_agree_with_a_hand_loop_on_ocnli_dev():
    gold, systems = ocnli_systems()
    assert len(gold) == 2950  # the README: 50 of 3,000 dev items have no majority
    for system, pred in systems.items():
        assert get("accuracy").score(np.array(gold), np.array(pred)).value == pytest.approx(
            hand_accuracy(gold, pred), abs=1e-12
        ), system
        assert get("macro_f1").score(np.array(gold), np.array(pred)).value == pytest.approx(
            hand_macro_f1(gold, pred), abs=1e-12
        ), system
    # most-frequent: accuracy is neutral's share, macro-F1 averages over the labels seen (all three)
    neutral_share = gold.count(1) / len(gold)
    assert get("accuracy").score(
        np.array(gold), np.array(systems["most_frequent"])
    ).value == pytest.approx(neutral_share, abs=1e-12)
    assert get("macro_f1").score(
        np.array(gold), np.array(systems["most_frequent"])
    ).value == pytest.approx((2 * neutral_share / (1 + neutral_share)) / 3, abs=1e-12)


@pytest.mark.parametrize("seed", range(8))
def test_accuracy_and_macro_f1_agree_with_a_hand_loop_on_random_labels(seed):
    rng = random.Random(seed)
    k = rng.randint(2, 6)
    n = rng.randint(1, 40)
    gold = [rng.randrange(k) for _ in range(n)]
    pred = [rng.randrange(k) for _ in range(n)]
    assert get("accuracy").score(np.array(gold), np.array(pred)).value == pytest.approx(
        hand_accuracy(gold, pred), abs=1e-12
    )
    assert get("macro_f1").score(np.array(gold), np.array(pred)).value == pytest.approx(
        hand_macro_f1(gold, pred), abs=1e-12
    )
    assert get("balanced_accuracy").score(np.array(gold), np.array(pred)).value == pytest.approx(
        hand_balanced_accuracy(gold, pred), abs=1e-12
    )


def test_balanced_accuracy_by_hand():
    # gold [e, n, c], pred [e, n, n]: recall(e) = 1, recall(n) = 1, recall(c) = 0 -> 2/3
    assert get("balanced_accuracy").score(
        np.array([0, 1, 2]), np.array([0, 1, 1])
    ).value == pytest.approx(2 / 3)
    # a label only predicted (2) does not count; recall(0) = 2/4, recall(1) = 1/2 -> 1/2
    assert get("balanced_accuracy").score(
        np.array([0, 0, 0, 0, 1, 1]), np.array([0, 0, 1, 2, 1, 2])
    ).value == pytest.approx(1 / 2)
    # always the majority label: 1 / (number of gold labels), whatever their shares
    assert get("balanced_accuracy").score(
        np.array([0] * 9 + [1]), np.array([0] * 10)
    ).value == pytest.approx(1 / 2)


def test_macro_f1_by_hand():
    # gold [e, n, c], pred [e, n, n]: F1(e) = 1, F1(n): P = 1/2, R = 1 -> 2/3, F1(c) = 0 -> mean 5/9
    assert get("macro_f1").score(np.array([0, 1, 2]), np.array([0, 1, 1])).value == pytest.approx(
        5 / 9
    )
    # a label in neither gold nor predictions (index 1 here) does not count: (1 + 0 + 0) / 3
    assert get("macro_f1").score(np.array([0, 2, 3]), np.array([0, 3, 2])).value == pytest.approx(
        1 / 3
    )


def test_classification_agrees_with_scikit_learn_when_installed():
    metrics = pytest.importorskip("sklearn.metrics")
    rng = random.Random(5)
    cases = [
        ([rng.randrange(4) for _ in range(60)], [rng.randrange(4) for _ in range(60)])
        for _ in range(5)
    ]
    if OCNLI_DEV.is_file():
        gold, systems = ocnli_systems()
        cases += [(gold, pred) for pred in systems.values()]
    for gold, pred in cases:
        assert get("accuracy").score(np.array(gold), np.array(pred)).value == pytest.approx(
            metrics.accuracy_score(gold, pred), abs=1e-12
        )
        assert get("macro_f1").score(np.array(gold), np.array(pred)).value == pytest.approx(
            metrics.f1_score(gold, pred, average="macro", zero_division=0), abs=1e-12
        )
        assert get("balanced_accuracy").score(
            np.array(gold), np.array(pred)
        ).value == pytest.approx(metrics.balanced_accuracy_score(gold, pred), abs=1e-12)


@pytest.mark.parametrize("scale", [1e200, 1e-170, 1e300])
def test_correlation_is_scale_free_at_extreme_magnitudes(scale):
    """Squares of 1e200 overflow and of 1e-170 underflow; neither may read as a constant series."""
    import warnings
    from codajudge.metrics import get as get_metric

    gold = np.array([0.2, 1.4, 2.0, 3.6, 4.8, 5.0])
    pred = gold * scale + scale
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for name in ("pearson", "spearman"):
            value = get_metric(name).score(gold, pred)
            assert value.value == pytest.approx(1.0, abs=1e-12) and value.warning is None


@pytest.mark.parametrize("size", [0, 1, 2, 7, 100, 1000])
def test_average_ranks_are_scipys_rankdata_bit_for_bit(size):
    """Spearman's ranks without importing scipy.stats: the same floats as scipy, ties included."""
    from scipy.stats import rankdata

    from codajudge.metrics.correlation import average_ranks

    rng = np.random.default_rng(size)
    for values in (rng.normal(size=size), rng.integers(0, 4, size).astype(float), np.ones(size)):
        assert np.array_equal(average_ranks(values), rankdata(values))
        assert average_ranks(values).dtype == np.float64
