"""Learning with disagreements (LeWiDi 2025): soft-label and perspectivist metrics.

Lower is better for all six. Rounding replicates the official code exactly where it rounds
(``round5``), so that scores agree with the published definitions at 5 decimals.

Soft labels are arrays ``(N, K)`` of probabilities over the track's labels (categorical or ordinal)
or ``(N, L, 2)`` for multilabel tracks ([P(label not chosen), P(label chosen)] per label).
Perspectivist predictions are ``PerAnnotator`` rows: one per (item, annotator) pair.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .base import LOWER, Metric, register, round5


@dataclass(frozen=True)
class PerAnnotator:
    """One row per (item, annotator): label indices ``(M,)`` or 0/1 choices ``(M, L)``.

    ``item`` gives each row's item index (0..n_items-1); ``n_labels`` is the size of the scale.
    """

    values: np.ndarray
    item: np.ndarray
    n_items: int
    n_labels: int


def _mean_from_sums(sums, n):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(sums, dtype=float)[..., 0] / np.asarray(n, dtype=float)


def _rounded_mean_from_sums(sums, n):
    return round5(_mean_from_sums(sums, n))


def _per_item_mean(row_values: np.ndarray, item: np.ndarray, n_items: int) -> np.ndarray:
    totals = np.bincount(item, weights=row_values, minlength=n_items)
    counts = np.bincount(item, minlength=n_items)
    return totals / np.maximum(counts, 1)


def amd_stats(gold, pred):
    """Per item: d_i = round5(sum_k |p_ik - t_ik|)."""
    return round5(np.abs(np.asarray(pred, float) - np.asarray(gold, float)).sum(axis=1))[:, None]


def awd_stats(gold, pred):
    """Per item: 1-Wasserstein distance on unit-spaced bins, sum_j |cumsum(t)_j - cumsum(p)_j|."""
    diff = np.cumsum(np.asarray(gold, float), axis=1) - np.cumsum(np.asarray(pred, float), axis=1)
    return np.abs(diff).sum(axis=1)[:, None]


def mamd_stats(gold, pred):
    """Per item: s_i = round5(mean_j round5(|p_ij0 - t_ij0| + |p_ij1 - t_ij1|))."""
    per_label = round5(np.abs(np.asarray(pred, float) - np.asarray(gold, float)).sum(axis=2))
    return round5(per_label.mean(axis=1))[:, None]


def error_rate_stats(gold: PerAnnotator, pred: PerAnnotator):
    """Per item: e_i = round5(share of the item's annotators whose label is predicted wrongly)."""
    wrong = (gold.values != pred.values).astype(float)
    return round5(_per_item_mean(wrong, gold.item, gold.n_items))[:, None]


def anad_stats(gold: PerAnnotator, pred: PerAnnotator):
    """Per item: mean_k |t_ik - p_ik| / S, with S the number of possible label values."""
    dist = np.abs(gold.values.astype(float) - pred.values.astype(float)) / gold.n_labels
    return _per_item_mean(dist, gold.item, gold.n_items)[:, None]


def mer_stats(gold: PerAnnotator, pred: PerAnnotator):
    """Per item: mean over labels j of round5(share of annotators whose choice of j is mispredicted)."""
    wrong = (gold.values != pred.values).astype(float)  # (M, L)
    per_label = np.column_stack([_per_item_mean(wrong[:, j], gold.item, gold.n_items)
                                 for j in range(wrong.shape[1])])
    return round5(per_label).mean(axis=1)[:, None]


AMD = register(Metric(
    name="amd", title="Avg Manhattan dist", direction=LOWER, lower=0.0, upper=2.0,
    item_stats=amd_stats, from_stats=_rounded_mean_from_sums,
    description="Average Manhattan distance between predicted and gold soft labels (categorical). "
                "Example: gold [0.5, 0.5], pred [1, 0] -> 1.0.",
))

AWD = register(Metric(
    name="awd", title="Avg Wasserstein dist", direction=LOWER, lower=0.0,
    upper=lambda k: max(k - 1, 1),
    item_stats=awd_stats, from_stats=_rounded_mean_from_sums,
    description="Average 1-Wasserstein distance between predicted and gold soft labels over ordinal "
                "bins one step apart; range [0, K-1]. Example: gold [1, 0, 0], pred [0, 0, 1] -> 2.0.",
))

MAMD = register(Metric(
    name="mamd", title="Multilabel avg Manhattan", direction=LOWER, lower=0.0, upper=2.0,
    item_stats=mamd_stats, from_stats=_rounded_mean_from_sums,
    description="Multilabel average Manhattan distance: per label, the Manhattan distance of the "
                "[not chosen, chosen] distributions, averaged over labels, then items.",
))

ERROR_RATE = register(Metric(
    name="error_rate", title="Error rate", direction=LOWER, lower=0.0, upper=1.0,
    item_stats=error_rate_stats, from_stats=_mean_from_sums,
    description="Perspectivist error rate: the share of each item's annotators whose own label is "
                "predicted wrongly, averaged over items. Example: gold [1, 0], pred [1, 1] -> 0.5.",
))

ANAD = register(Metric(
    name="anad", title="Avg norm abs dist", direction=LOWER, lower=0.0,
    upper=lambda k: (k - 1) / k if k else 1.0,
    item_stats=anad_stats, from_stats=_mean_from_sums,
    description="Average normalised absolute distance between each annotator's label and its "
                "prediction, divided by the number of possible label values S (not the range). "
                "Example: CSC (S=6) gold [1, 6], pred [2, 6] -> (1/6 + 0)/2 = 0.0833.",
))

MER = register(Metric(
    name="mer", title="Multilabel error rate", direction=LOWER, lower=0.0, upper=1.0,
    item_stats=mer_stats, from_stats=_mean_from_sums,
    description="Multilabel error rate: per label, the share of the item's annotators whose choice "
                "(chosen or not) is mispredicted, averaged over labels, then items.",
))
