"""The semantic textual similarity metrics (SemEval STS) on plain Python lists or numpy arrays, as
the scoring program computes them. Higher is better; range [-1, 1]. A constant series (all
predictions, or all gold scores, equal) makes a correlation undefined: 0.0, as on the leaderboard,
with the scoring program's note as a ``UserWarning``.

>>> from codajudge.metrics import sts
>>> sts.pearson([1.0, 2.0, 3.0], [2.0, 4.0, 6.0])
1.0
"""

from .plain import array_score


def pearson(gold_scores, pred_scores) -> float:
    """Pearson correlation of the predicted with the gold scores (any scale: 0-5 and 0-1 score
    the same). Higher is better; range [-1, 1].

    >>> round(pearson([0.0, 2.5, 5.0, 4.0], [0.1, 0.4, 0.9, 0.9]), 4)
    0.9659
    """
    return array_score("pearson", gold_scores, pred_scores, "one score", ndim=1)


def spearman(gold_scores, pred_scores) -> float:
    """Spearman rank correlation (Pearson's of the average ranks). Higher is better; range [-1, 1].

    >>> spearman([1.0, 2.0, 3.0], [1.0, 10.0, 100.0])
    1.0
    """
    return array_score("spearman", gold_scores, pred_scores, "one score", ndim=1)
