"""The classification metrics (OCNLI, NLI tracks) on plain Python lists or numpy arrays of labels
(names such as "entailment", or numbers), as the scoring program computes them. Higher is better;
range [0, 1] (the leaderboard shows them x 100). Leave out the items without a gold label.

>>> from codajudge.metrics import nli
>>> nli.accuracy(["entailment", "neutral"], ["entailment", "contradiction"])
0.5
"""

import numpy as np

from .plain import official_score, same_length


def _codes(gold_labels, pred_labels):
    """Both label lists as indices of one shared label order (the order labels are first met)."""
    same_length(gold_labels, pred_labels)
    index = {}
    gold = [index.setdefault(str(label), len(index)) for label in gold_labels]
    pred = [index.setdefault(str(label), len(index)) for label in pred_labels]
    return np.array(gold, dtype=np.int64), np.array(pred, dtype=np.int64)


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


def balanced_accuracy(gold_labels, pred_labels) -> float:
    """The unweighted mean over the gold's labels of each label's recall. Higher is better;
    range [0, 1].

    >>> round(balanced_accuracy(["e", "n", "c"], ["e", "n", "n"]), 4)
    0.6667
    """
    return official_score("balanced_accuracy", *_codes(gold_labels, pred_labels))
