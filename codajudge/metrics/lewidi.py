"""The LeWiDi 2025 metrics on plain Python lists or numpy arrays, as the scoring program computes
them (the same registered functions, the official rounding to 5 decimals where the 2025 code
rounds), and LeWiDi 2021/2023's soft-label cross-entropy (its hard-label micro-F1 is
``nli.micro_f1``). Lower is better for all seven.

Soft labels (Task A): one probability distribution per item, in the track's label order; a
multilabel item (VariErrNLI) is one ``[P(not chosen), P(chosen)]`` pair per label.
Perspectivist labels (Task B): one list per item of each annotator's label, in the item's annotator
order; items may have different numbers of annotators, at least one. A multilabel item is
label-major, one 0/1 vector over the item's annotators per label (the 2025 files' layout).
Labels are whole numbers, or strings of them as the 2025 files write them ("-4"), read as Python's
``float`` reads a string (spaces stripped, ``" 1e0"`` and ``"1.0"`` read as 1), not booleans
(``probs > 0.5`` gives booleans: ``(probs > 0.5).astype(int)`` gives 0/1 labels); scores and
probabilities are numbers (not strings or booleans).

>>> from codajudge.metrics import lewidi
>>> lewidi.manhattan([[0.5, 0.5]], [[1.0, 0.0]])
1.0
"""

from .plain import array_score, per_annotator_score, scale_size


def manhattan(gold_soft, pred_soft) -> float:
    """Average Manhattan distance (AMD, MP): per item the sum of absolute differences of the two
    distributions, rounded to 5 decimals, then the rounded mean. Lower is better; range [0, 2].

    >>> manhattan([[0.5, 0.5], [1.0, 0.0]], [[1.0, 0.0], [0.75, 0.25]])
    0.75
    """
    return array_score("amd", gold_soft, pred_soft)


def wasserstein(gold_soft, pred_soft) -> float:
    """Average Wasserstein distance (AWD, CSC and Paraphrase): per item the 1-Wasserstein
    distance between the two distributions over ordinal bins one step apart, then the mean rounded
    to 5 decimals. Lower is better; range [0, K - 1] for K bins.

    >>> wasserstein([[1.0, 0.0, 0.0]], [[0.0, 0.0, 1.0]])
    2.0
    >>> wasserstein([[0.0, 1.0, 0.0], [0.5, 0.5, 0.0]], [[0.0, 0.5, 0.5], [0.5, 0.5, 0.0]])
    0.25
    """
    return array_score("awd", gold_soft, pred_soft)


def multilabel_manhattan(gold_soft, pred_soft) -> float:
    """Multilabel average Manhattan distance (MAMD, VariErrNLI): per label the Manhattan distance
    of the ``[P(not chosen), P(chosen)]`` pairs, averaged over labels, then items, rounded to 5
    decimals at each step as the 2025 code does. Lower is better; range [0, 2].

    >>> gold = [[[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]]]
    >>> multilabel_manhattan(gold, [[[1.0, 0.0], [0.0, 1.0], [1.0, 0.0]]])
    0.33333
    """
    return array_score("mamd", gold_soft, pred_soft, "one [not chosen, chosen] per label", ndim=3)


def error_rate(gold_labels_per_annotator, pred_labels_per_annotator) -> float:
    """Error rate (ER, MP): per item the share of its annotators whose label is predicted wrongly
    (rounded to 5 decimals), averaged over items. Lower is better; range [0, 1]. The labels are
    whole numbers (a probability is refused, not counted as a wrong label).

    >>> error_rate([[1, 0], [0, 0, 1]], [[1, 1], [0, 0, 1]])
    0.25
    """
    return per_annotator_score("error_rate", gold_labels_per_annotator, pred_labels_per_annotator)


def normalized_absolute_distance(gold_labels_per_annotator, pred_labels_per_annotator, n_values):
    """Average normalised absolute distance (ANAD, CSC and Paraphrase): per item the mean over its
    annotators of ``|gold - predicted|`` divided by ``n_values``, the number of possible label
    values (6 for CSC's 1..6, 11 for Paraphrase's -5..5), averaged over items. Lower is better;
    range [0, (n_values - 1) / n_values]. ``n_values`` is a positive whole number; the labels are
    whole numbers on its scale (any ``n_values`` consecutive values: no two more than
    ``n_values - 1`` apart).

    >>> normalized_absolute_distance([[1, 6], [3, 3, 4, 4]], [[2, 6], [3, 3, 4, 4]], n_values=6)
    0.041666666666666664
    """
    return per_annotator_score(
        "anad", gold_labels_per_annotator, pred_labels_per_annotator, scale_size(n_values)
    )


def multilabel_error_rate(gold_labels_per_annotator, pred_labels_per_annotator) -> float:
    """Multilabel error rate (MER, VariErrNLI): per label the share of the item's annotators whose
    choice (chosen or not) is mispredicted, rounded to 5 decimals, averaged over labels, then items.
    Each item is label-major: one 0/1 vector over its annotators per label. Lower is better;
    range [0, 1].

    >>> gold = [[[1, 0, 0], [0, 1, 1], [0, 0, 0]]]  # 3 labels x 3 annotators
    >>> multilabel_error_rate(gold, [[[1, 0, 0], [0, 1, 0], [0, 0, 1]]])
    0.22222
    """
    return per_annotator_score(
        "mer", gold_labels_per_annotator, pred_labels_per_annotator, multilabel=True
    )


def cross_entropy(gold_soft, pred_soft) -> float:
    """Cross-entropy (LeWiDi 2021/2023, SemEval-2023 Task 11): per item
    ``-sum_k gold_k ln(clip(pred_k, 1e-12, 1 - 1e-12) + 1e-9)`` in nats, the mean over items, as
    the organisers' snippets.py computes it (not rounded). Lower is better; range about
    [0, 20.72]; a perfect prediction scores the gold's entropy, not 0.

    >>> round(cross_entropy([[0.5, 0.5], [1.0, 0.0]], [[0.5, 0.5], [0.75, 0.25]]), 4)
    0.4904
    """
    return array_score("cross_entropy", gold_soft, pred_soft)
