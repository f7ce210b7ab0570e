"""The classification metrics (OCNLI, NLI tracks) on plain Python lists or numpy arrays of labels
(names such as "entailment", or numbers), as the scoring program computes them. Higher is better;
range [0, 1] (the leaderboard shows them x 100). Leave out the items without a gold label (OCNLI's
``"-"``, no majority; or None): the scoring program does not score them, and a gold label ``"-"``
or None raises ``ValueError`` naming their count and the first.

Labels are all names (strings) or all finite numbers, as the first gold label is; numbers compare by
value (``0``, ``0.0`` and ``numpy.int64(0)`` are one label), names as given: the scoring program's
reading of a file (``"1.0"`` read as ``"1"``, a track's short names such as ``"e"``, spaces
stripped) is not applied; ``codajudge.leaderboard.score_predictions`` scores files as it reads them.
Anything else (None, NaN, a boolean, bytes, a list, a number among names) raises ``ValueError``
naming the item and the type found.

>>> from codajudge.metrics import nli
>>> nli.accuracy(["entailment", "neutral"], ["entailment", "contradiction"])
0.5
"""

import math
from numbers import Real

import numpy as np

from ..errors import counted
from .plain import _not_a_number, _sample, official_score, same_length


def _codes(gold_labels, pred_labels):
    """Both label lists as indices of one shared label order (the order labels are first met)."""
    gold_labels, pred_labels = same_length(gold_labels, pred_labels)
    _without_gold_label(gold_labels)
    names = isinstance(next(iter(gold_labels)), str)
    index = {}
    return [
        np.array(
            [index.setdefault(_key(x, what, i, names), len(index)) for i, x in enumerate(labels)],
            dtype=np.int64,
        )
        for what, labels in (("gold", gold_labels), ("predictions", pred_labels))
    ]


def _without_gold_label(gold_labels) -> None:
    """Refuse gold items without a gold label (OCNLI's ``'-'``: no majority; or None), which the
    scoring program leaves out: scored, they would count as a label of their own."""
    missing = [i for i, label in enumerate(gold_labels) if label is None or _is_dash(label)]
    if missing:
        raise ValueError(
            f"gold: {counted(len(missing), 'item')} of {len(gold_labels)} without a gold label "
            f"(no majority: '-', or None), the first item {missing[0]}; items without a gold "
            "label (no majority: '-') are not scored by the scoring program: leave them out "
            "(of the gold and the predictions alike)"
        )


def _is_dash(label) -> bool:
    """Whether ``label`` is the text "-", a gold without a majority label (any other value not)."""
    return isinstance(label, str) and label == "-"


def _key(label, what: str, index: int, names: bool):
    """A label as compared: a name as it is, a number by its value; else a ValueError."""
    if isinstance(label, (bool, np.bool_)):  # as sts and lewidi refuse one: with its conversion
        raise ValueError(_not_a_number(label, f"{what}, item {index}"))
    if names and isinstance(label, str):
        return label
    number = isinstance(label, Real) and not isinstance(label, bool)
    if not names and number and -math.inf < label < math.inf:  # not NaN
        return label  # equal numbers are one key: 0, 0.0, numpy.int64(0)
    if what == "gold" and index == 0:  # the first gold label, the one the others are like
        expected = "a finite number" if number else "a label: a name (a string) or a number"
    else:
        sort = "a name (a string)" if names else "a finite number"
        expected = f"{sort} like the first gold label (labels are all names or all numbers)"
    if np.ndim(label) and np.size(label) == 1:  # a column (N, 1): a label in a list of one
        expected += ", one per item (a column of labels: flatten it first, np.ravel)"
    found = f"{_sample(label)} ({type(label).__name__})"
    raise ValueError(f"{what}, item {index}: expected {expected}; found {found}")


def accuracy(gold_labels, pred_labels) -> float:
    """The share of items whose predicted label is the gold label. Higher is better; range [0, 1].

    >>> accuracy(["e", "n", "c"], ["e", "n", "n"])
    0.6666666666666666
    """
    return official_score("accuracy", *_codes(gold_labels, pred_labels))


def macro_f1(gold_labels, pred_labels) -> float:
    """The unweighted mean of each label's F1, over the labels present in the gold or the
    predictions (scikit-learn's default). Higher is better; range [0, 1].

    >>> round(macro_f1(["e", "n", "c"], ["e", "n", "n"]), 4)
    0.5556
    """
    return official_score("macro_f1", *_codes(gold_labels, pred_labels))


def micro_f1(gold_labels, pred_labels) -> float:
    """Micro-F1 (LeWiDi 2021/2023's hard-label metric): F1 over all items' decisions pooled, which
    with one label per item equals accuracy. Higher is better; range [0, 1].

    >>> micro_f1(["e", "n", "c"], ["e", "n", "n"])
    0.6666666666666666
    """
    return official_score("micro_f1", *_codes(gold_labels, pred_labels))


def balanced_accuracy(gold_labels, pred_labels) -> float:
    """The unweighted mean over the gold's labels of each label's recall. Higher is better;
    range [0, 1].

    >>> round(balanced_accuracy(["e", "n", "c"], ["e", "n", "n"]), 4)
    0.6667
    """
    return official_score("balanced_accuracy", *_codes(gold_labels, pred_labels))
