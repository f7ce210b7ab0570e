"""The baselines in memory: the tokenizer, the cosine, and hand-checked predictions on tiny
training sets. Expected values are worked out by hand in the comments, not by the code under test."""

import math
from pathlib import Path

import numpy as np
import pytest

from codajudge.baselines import (
    BASELINES,
    CosineBow,
    MostFrequent,
    Random,
    baseline_class,
)
from codajudge.baselines.cosine_bow import cosine_bow
from codajudge.baselines.tokenize import tokenize

STS2017 = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "sts2017"
MP = {
    "id": "mp",
    "kind": "perspectivist",
    "scale": "categorical",
    "dataset": "mp",
    "labels": ["0", "1"],
}
VEN = ["contradiction", "entailment", "neutral"]


def track(kind, labels=None, scale=None, seed=0):
    raw = {"id": "t", "kind": kind, "dataset": "d", "seed": seed}
    if labels:
        raw["labels"] = labels
    if scale:
        raw["scale"] = scale
    return raw


def annotated(item_id, pairs, texts=("a b", "c d")):
    return {
        "id": item_id,
        "texts": list(texts),
        "annotators": [a for a, _ in pairs],
        "annotations": [label for _, label in pairs],
    }


# ---------------------------------------------------------------- tokenizer


@pytest.mark.parametrize(
    "text, tokens",
    [
        (
            "Don't stop, John's dog isn't here...",
            ["do", "n't", "stop", ",", "john", "'s", "dog", "is", "n't", "here", "..."],
        ),
        (
            "The U.S. paid $1,000.50 at 12:30 -- a well-known fact!",
            [
                "the",
                "u.s.",
                "paid",
                "$",
                "1,000.50",
                "at",
                "12:30",
                "--",
                "a",
                "well-known",
                "fact",
                "!",
            ],
        ),
        (
            "¿Dónde está el niño? ¡Hola!",
            ["¿", "dónde", "está", "el", "niño", "?", "¡", "hola", "!"],
        ),
        ("تمشي النساء جنبا إلى جنب، هل؟", ["تمشي", "النساء", "جنبا", "إلى", "جنب", "،", "هل", "؟"]),
        ("كَتَبَ الوَلَدُ", ["كَتَبَ", "الوَلَدُ"]),  # diacritics (combining marks) stay inside the word
        ("İstanbul'da ÇOK güzel.", ["istanbul'da", "çok", "güzel", "."]),
        ("我爱北京。", ["我", "爱", "北", "京", "。"]),
        ("GPU与CPU", ["gpu", "与", "cpu"]),
        ("«Hola»  (test)", ["«", "hola", "»", "(", "test", ")"]),
        ("", []),
    ],
)
def test_tokenizer(text, tokens):
    assert tokenize(text) == tokens


def test_tokenizer_normalises_width_and_case():
    assert tokenize("ＡＢＣ，Déjà") == ["abc", ",", "déjà"]


# ---------------------------------------------------------------- cosine


@pytest.mark.parametrize(
    "a, b, expected",
    [
        ("A cat sat.", "The cat sat!", 2 / math.sqrt(4 * 4)),  # {a,cat,sat,.} vs {the,cat,sat,!}
        ("the the the cat", "the cat", 1.0),  # binary: repeats do not count
        ("one two three", "four five", 0.0),
        ("", "anything", 0.0),
        ("我爱你", "我爱他们", 2 / math.sqrt(3 * 4)),  # {我,爱,你} vs {我,爱,他,们}
    ],
)
def test_cosine_on_hand_computed_pairs(a, b, expected):
    assert cosine_bow(a, b) == pytest.approx(expected)


def test_cosine_similarity_is_scaled_to_five():
    model = CosineBow(track("similarity")).fit([])
    items = [
        {"id": "1", "texts": ["A cat sat.", "The cat sat!"]},
        {"id": "2", "texts": ["only one"]},
    ]
    assert model.predict(items) == [pytest.approx(2.5), 0.0]


def _sts2017_pearson(name: str) -> float:
    if not STS2017.is_dir():
        pytest.skip(
            f"{STS2017} not found: the real releases live in ../shared/data beside the repository"
        )
    lines = (STS2017 / f"STS.input.{name}.txt").read_text(encoding="utf-8").splitlines()
    gold = np.array([float(x) for x in (STS2017 / f"STS.gs.{name}.txt").read_text().split()])
    items = [{"id": str(i), "texts": line.split("\t")} for i, line in enumerate(lines)]
    predicted = np.array(CosineBow(track("similarity")).fit([]).predict(items))
    return 100 * np.corrcoef(predicted[: len(gold)], gold)[0, 1]


@pytest.mark.parametrize(
    "name, published", [("track1.ar-ar", 60.45), ("track3.es-es", 71.17), ("track5.en-en", 72.78)]
)
def test_cosine_reproduces_the_published_sts2017_baseline(name, published):
    """SemEval-2017 Task 1 paper, Table 10 (monolingual tracks), within 0.2 points."""
    assert abs(_sts2017_pearson(name) - published) <= 0.2


# ---------------------------------------------------------------- most frequent


def test_most_frequent_similarity_and_classification():
    train = [{"id": str(i), "texts": [], "score": s} for i, s in enumerate([1.0, 2.0, 4.5])]
    assert MostFrequent(track("similarity")).fit(train).predict([{"id": "x"}] * 2) == [2.5, 2.5]
    labels = ["e", "n", "c"]
    # n twice, c once, null (no majority) skipped; then a tie e/c goes to e, first in label order
    train = [
        {"id": str(i), "texts": [], "label": lab}
        for i, lab in enumerate(["c", "n", None, "n", None, None])
    ]
    assert MostFrequent(track("classification", labels)).fit(train).predict([{"id": "x"}]) == ["n"]
    tie = [{"id": "1", "texts": [], "label": "c"}, {"id": "2", "texts": [], "label": "e"}]
    assert MostFrequent(track("classification", labels)).fit(tie).predict([{"id": "x"}]) == ["e"]


def test_most_frequent_soft_label_is_the_binwise_mean():
    train = [
        annotated("1", [("A", "0"), ("B", "0"), ("C", "1"), ("D", "1")]),  # [0.5, 0.5]
        annotated("2", [("A", "1"), ("B", "1"), ("C", "1")]),
    ]  # [0, 1]
    model = MostFrequent(track("soft_label", ["0", "1"], "categorical")).fit(train)
    assert model.predict([{"id": "x"}]) == [[pytest.approx(0.25), pytest.approx(0.75)]]
    train = [
        annotated("1", [("A", ["entailment"]), ("B", ["entailment", "neutral"])]),
        annotated("2", [("A", ["contradiction"])]),
    ]
    # P(chosen): item 1 = [0, 1, 0.5], item 2 = [1, 0, 0]; mean = [0.5, 0.5, 0.25]
    model = MostFrequent(track("soft_label", VEN, "multilabel")).fit(train)
    assert np.allclose(model.predict([{"id": "x"}])[0], [[0.5, 0.5], [0.5, 0.5], [0.75, 0.25]])


def test_training_items_without_annotations_are_skipped():
    """OCNLI-style training items without votes must not pull soft labels towards all-zero rows."""
    train = [
        annotated("1", [("A", "0"), ("B", "1"), ("C", "1"), ("D", "1")]),  # [0.25, 0.75]
        {"id": "2", "texts": ["a b", "c d"]},
    ]
    soft = track("soft_label", ["0", "1"], "categorical")
    assert MostFrequent(soft).fit(train).predict([{"id": "x"}]) == [[0.25, 0.75]]
    assert CosineBow(soft).fit(train).predict([{"id": "x", "texts": ["a b", "c d"]}]) == [
        [0.25, 0.75]
    ]
    persp = MostFrequent(dict(MP, seed=0)).fit(train)
    assert persp.predict([{"id": "x", "annotators": ["A", "Z"]}]) == [["0", "1"]]


def test_most_frequent_perspectivist_tie_rule_and_unseen_annotators():
    train = [
        annotated("1", [("A", "1"), ("B", "0")]),
        annotated("2", [("A", "0"), ("B", "0")]),
        annotated("3", [("A", "0")]),
        annotated("4", [("A", "1")]),
    ]
    # A: 1, 0, 0, 1 -> a 2-2 tie, and A's history starts with "1" (the label order would say "0")
    # B: 0, 0 -> "0"; overall: 0 x4, 1 x2 -> "0" for annotators never seen in training
    model = MostFrequent(dict(MP, seed=0)).fit(train)
    assert model.predict([{"id": "x", "annotators": ["B", "A", "Z"]}, {"id": "y"}]) == [
        ["0", "1", "0"],
        [],
    ]


def test_most_frequent_perspectivist_overall_tie_goes_to_the_first_label_met():
    train = [annotated("1", [("A", "1"), ("B", "0")])]  # overall 1 x1, 0 x1: "1" was met first
    assert MostFrequent(dict(MP, seed=0)).fit(train).predict(
        [{"id": "x", "annotators": ["Z"]}]
    ) == [["1"]]


def test_most_frequent_multilabel_decides_each_label_separately():
    """The 2025 starter kit's definition (metrics.md §6): per annotator and label, the 0/1 value met
    most often (ties: the value met first); written label-major."""
    train = [
        annotated("1", [("A", ["neutral", "entailment"]), ("B", ["contradiction"])]),
        annotated("2", [("A", ["entailment", "neutral"]), ("B", ["neutral"])]),
    ]
    model = MostFrequent(track("perspectivist", VEN, "multilabel")).fit(train)
    # A: entailment and neutral twice each. B: contradiction 1 then 0 (tie: 1), entailment 0, 0,
    # neutral 0 then 1 (tie: 0)
    assert model.predict([{"id": "x", "annotators": ["A", "B"]}]) == [[[0, 1], [1, 0], [1, 0]]]
    # the most frequent *set* would be {contradiction} (each set once, that one first); per label,
    # contradiction (2 of 3) and entailment (2 of 3) are both chosen
    train = [
        annotated(str(k), [("C", labels)])
        for k, labels in enumerate(
            [["contradiction"], ["entailment"], ["contradiction", "entailment"]]
        )
    ]
    model = MostFrequent(track("perspectivist", VEN, "multilabel")).fit(train)
    assert model.predict([{"id": "x", "annotators": ["C"]}]) == [[[1], [1], [0]]]


def test_most_frequent_refuses_an_empty_training_split():
    with pytest.raises(ValueError, match="training split is empty"):
        MostFrequent(track("similarity")).fit([])


# ---------------------------------------------------------------- cosine mapping for other kinds

SAME, DIFFERENT = ("x y z", "x y z"), ("x y z", "p q r")  # cosine 1 and cosine 0


def test_cosine_bins_predict_the_majority_of_their_training_items():
    labels = ["e", "n", "c"]
    train = [{"id": f"s{i}", "texts": list(SAME), "label": lab} for i, lab in enumerate("eec")] + [
        {"id": f"d{i}", "texts": list(DIFFERENT), "label": lab} for i, lab in enumerate("ccn")
    ]
    model = CosineBow(track("classification", labels)).fit(train)
    test = [{"id": "1", "texts": ["a b", "a b"]}, {"id": "2", "texts": ["a", "b"]}]
    assert model.predict(test) == ["e", "c"]


def test_cosine_bins_for_soft_and_perspectivist_labels():
    train = [
        annotated("s1", [("A", "1"), ("B", "1")], SAME),
        annotated("s2", [("A", "1"), ("B", "0")], SAME),
        annotated("d1", [("A", "0"), ("C", "0")], DIFFERENT),
        annotated("d2", [("A", "0"), ("C", "1")], DIFFERENT),
    ]
    soft = CosineBow(track("soft_label", ["0", "1"], "categorical")).fit(train)
    test = [
        {"id": "1", "texts": ["a b", "a b"], "annotators": ["A", "C", "Z"]},
        {"id": "2", "texts": ["a", "b"], "annotators": ["B", "A"]},
    ]
    # cosine-1 items: [0, 1] and [0.5, 0.5] -> [0.25, 0.75]; cosine-0 items: [1, 0], [0.5, 0.5] -> [0.75, 0.25]
    assert np.allclose(soft.predict(test), [[0.25, 0.75], [0.75, 0.25]])
    persp = CosineBow(dict(MP, seed=0)).fit(train)
    # bin 1: A -> 1 (twice); C unseen there -> C's overall majority (0, then 1: tie, first met 0);
    #        Z unseen anywhere -> overall (0 x4, 1 x4: tie, first met "1")
    # bin 0: B unseen there -> B's overall (1, 0: tie, first met "1"); A -> 0
    assert persp.predict(test) == [["1", "0", "1"], ["1", "0"]]


# ---------------------------------------------------------------- random

ITEMS = [
    {"id": str(i), "texts": ["a", "b"], "annotators": ["A", "B", "C"][: 1 + i % 3]}
    for i in range(40)
]


@pytest.mark.parametrize(
    "kind, labels, scale",
    [
        ("similarity", None, None),
        ("classification", ["e", "n", "c"], None),
        ("soft_label", ["0", "1"], "categorical"),
        ("soft_label", ["1", "2", "3", "4"], "ordinal"),
        ("soft_label", VEN, "multilabel"),
        ("perspectivist", ["0", "1"], "categorical"),
        ("perspectivist", VEN, "multilabel"),
    ],
)
def test_random_is_seeded(kind, labels, scale):
    first = Random(track(kind, labels, scale, seed=3)).fit([]).predict(ITEMS)
    again = Random(track(kind, labels, scale, seed=3)).fit([]).predict(ITEMS)
    other = Random(track(kind, labels, scale, seed=4)).fit([]).predict(ITEMS)
    assert first == again and first != other and len(first) == len(ITEMS)


def test_random_values_are_in_range_and_soft_labels_are_histograms_of_the_draws():
    scores = Random(track("similarity", seed=1)).predict(ITEMS)
    assert all(0.0 <= s <= 5.0 for s in scores) and len(set(scores)) == len(scores)
    labels = ["1", "2", "3", "4"]
    persp = Random(track("perspectivist", labels, "ordinal", seed=9)).predict(ITEMS)
    soft = Random(track("soft_label", labels, "ordinal", seed=9)).predict(ITEMS)
    for drawn, distribution, item in zip(persp, soft, ITEMS):
        assert len(drawn) == len(item["annotators"])
        expected = [drawn.count(label) / len(drawn) for label in labels]
        assert distribution == pytest.approx(expected)
    ml_persp = Random(track("perspectivist", VEN, "multilabel", seed=2)).predict(ITEMS)
    ml_soft = Random(track("soft_label", VEN, "multilabel", seed=2)).predict(ITEMS)
    for drawn, pairs in zip(ml_persp, ml_soft):
        assert all(choice and set(choice) <= set(VEN) for choice in drawn)  # non-empty label sets
        share = [sum(label in choice for choice in drawn) / len(drawn) for label in VEN]
        assert np.allclose(pairs, [[1 - s, s] for s in share])


def test_random_soft_label_without_annotators_is_a_random_distribution():
    items = [{"id": "1", "texts": []}, {"id": "2", "texts": [], "annotators": []}]
    rows = Random(track("soft_label", ["a", "b", "c"], "categorical", seed=5)).predict(items)
    for row in rows:
        assert len(row) == 3 and min(row) >= 0 and sum(row) == pytest.approx(1.0)
    assert rows[0] != rows[1]
    pairs = Random(track("soft_label", VEN, "multilabel", seed=5)).predict(items)
    assert all(
        len(p) == 3 and all(a + b == pytest.approx(1.0) and 0 <= b <= 1 for a, b in p)
        for p in pairs
    )


def test_baseline_names():
    assert set(BASELINES) == {"random", "most_frequent", "cosine_bow"}
    assert (
        baseline_class("most-frequent") is MostFrequent
        and baseline_class("cosine_bow") is CosineBow
    )


def test_each_training_annotation_as_item_annotator_and_label_key():
    """The baselines' view of the training gold: one (item index, annotator, label key) per
    annotation, in training order; the key is the label's index, or 0/1 choices on multilabel tracks."""
    from codajudge.baselines.base import BaselineModel, item_annotator_labels

    train = [
        annotated("1", [("A", "1"), ("B", "0")]),
        annotated("2", []),
        annotated("3", [("B", "1")]),
    ]
    gold = BaselineModel(dict(MP, seed=0)).training_gold(train)
    assert item_annotator_labels(gold) == [(0, "A", 1), (0, "B", 0), (2, "B", 1)]
    train = [annotated("1", [("A", ["neutral", "entailment"]), ("B", [])])]
    gold = BaselineModel(track("perspectivist", VEN, "multilabel")).training_gold(train)
    assert item_annotator_labels(gold) == [(0, "A", (0, 1, 1)), (0, "B", (0, 0, 0))]


def test_baselines_ingestion_and_gold_name_an_items_annotators_alike():
    """An item's annotator names come from one function (``formats.annotators.annotator_names``):
    the baselines' ``item_annotators``, the ingestion program's public keys and the gold agree on
    names written as numbers, on a null list and on an absent one."""
    from codajudge.baselines.base import item_annotators
    from codajudge.gold import build_gold
    from codajudge.programs.ingest import public_keys
    from codajudge.tracks import track_from_dict

    items = [
        annotated("1", [(7, "0"), ("B", "1")]),
        {"id": "2", "texts": ["a b", "c d"], "annotators": None, "annotations": None},
        {"id": "3", "texts": ["a b", "c d"]},
        annotated("4", [("A", "1")]),
    ]
    names = [["7", "B"], [], [], ["A"]]
    assert list(map(item_annotators, items)) == names
    assert [list(n) for n in public_keys(items).annotators] == names
    gold = build_gold(track_from_dict(MP, where="track"), items, "gold")
    assert [list(n) for n in gold.annotators] == names
