"""Learning with disagreements (LeWiDi 2025): soft-label and perspectivist metrics.

Lower is better for all six. Rounding replicates the official code exactly where it rounds
(``round5``), so that scores agree with the published definitions at 5 decimals.

Soft labels are arrays ``(N, K)`` of probabilities over the track's labels (categorical or ordinal)
or ``(N, L, 2)`` for multilabel tracks ([P(label not chosen), P(label chosen)] per label).
Perspectivist predictions are ``PerAnnotator`` rows: one per (item, annotator) pair.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np

from .base import LOWER, WILCOXON, mean_from_sums, registered, round5


@dataclass(frozen=True)
class PerAnnotator:
    """One row per (item, annotator): label indices ``(M,)`` or 0/1 choices ``(M, L)``.

    ``item`` gives each row's item index (0..n_items-1); ``n_labels`` is the size of the scale.
    ``offsets`` (optional, ``n_items + 1`` values), when the rows are grouped by item in item order
    as the kit's readers build them: item i's rows are ``values[offsets[i]:offsets[i + 1]]``.
    """

    values: np.ndarray
    item: np.ndarray
    n_items: int
    n_labels: int
    offsets: np.ndarray | None = None


def per_item_sums(rows: np.ndarray, per: PerAnnotator) -> tuple[np.ndarray, np.ndarray]:
    """(sums, row counts) per item of per-row values ``(M,)`` or ``(M, L)``. Every row holds whole
    numbers (label codes, their distances, 0/1 mistakes), so the float sums are exact in any order."""
    counts = np.bincount(per.item, minlength=per.n_items)
    columns = (rows[:, None] if rows.ndim == 1 else rows).astype(float)
    sums = [np.bincount(per.item, weights=column, minlength=per.n_items) for column in columns.T]
    return np.column_stack(sums).reshape((per.n_items,) + rows.shape[1:]), counts


def _rounded_mean_from_sums(sums, n):
    return round5(mean_from_sums(sums, n))


def amd_stats(gold, pred):
    """Per item: d_i = round5(sum_k |p_ik - t_ik|)."""
    distance = np.sum(np.abs(np.asarray(pred, float) - np.asarray(gold, float)), axis=-1)
    return round5(distance)[:, None]


def awd_stats(gold, pred):
    """Per item: 1-Wasserstein distance on unit-spaced bins, sum_j |cumsum(t)_j - cumsum(p)_j|.

    Walked bin by bin: the running difference of the two cumulative sums, added up in bin order."""
    # one bin of every item at a time: a cumsum along each row is a short loop per item (5x slower)
    diff = np.asarray(gold, float) - np.asarray(pred, float)
    running = np.zeros(diff.shape[0])
    total = np.zeros(diff.shape[0])
    for j in range(diff.shape[1]):
        running += diff[:, j]
        total += np.abs(running)
    return total[:, None]


def mamd_stats(gold, pred):
    """Per item: s_i = round5(mean_j round5(|p_ij0 - t_ij0| + |p_ij1 - t_ij1|))."""
    per_label = round5(np.sum(np.abs(np.asarray(pred, float) - np.asarray(gold, float)), axis=-1))
    return round5(np.sum(per_label, axis=-1) / per_label.shape[1])[:, None]


def error_rate_stats(gold: PerAnnotator, pred: PerAnnotator):
    """Per item: e_i = round5(share of the item's annotators whose label is predicted wrongly)."""
    wrong, counts = per_item_sums(gold.values != pred.values, gold)
    return round5(wrong / np.maximum(counts, 1))[:, None]


def anad_stats(gold: PerAnnotator, pred: PerAnnotator):
    """Per item: mean_k |t_ik - p_ik| / S, with S the number of possible label values."""
    totals, counts = per_item_sums(np.abs(np.subtract(gold.values, pred.values)), gold)
    return (totals / gold.n_labels / np.maximum(counts, 1))[:, None]


def mer_stats(gold: PerAnnotator, pred: PerAnnotator):
    """Per item: mean over labels j of round5(share of annotators whose choice of j is mispredicted)."""
    wrong, counts = per_item_sums(gold.values != pred.values, gold)  # (n_items, L)
    per_label = round5(wrong / np.maximum(counts, 1)[:, None])
    return (np.sum(per_label, axis=-1) / per_label.shape[1])[:, None]


#: What every LeWiDi 2025 metric is: lower is better, from 0, a mean of per-item values (paired
#: test: Wilcoxon's); the soft-label ones round the mean as the official code does.
_PERSPECTIVIST = partial(registered, direction=LOWER, lower=0.0, significance=WILCOXON)
_SOFT_LABEL = partial(_PERSPECTIVIST, from_stats=_rounded_mean_from_sums)


def _awd_upper(k: int) -> float:
    """AWD's upper end on K ordinal bins one step apart: all the mass moved K - 1 steps."""
    return max(k - 1, 1)


def _anad_upper(k: int) -> float:
    """ANAD's upper end on K label values: every label predicted K - 1 values away, over K."""
    return (k - 1) / k if k else 1.0


#: The fields each row of ``_METRICS`` gives, in order, before the scale of its tracks.
_ROW_FIELDS = ("name", "title", "short_title", "upper", "item_stats")
#: The LeWiDi 2025 metrics of each kind, registered with its family's shared fields, one row each:
#: name, title, short title ("" for the title), the range's upper end, per-item statistics and the
#: scale of the kind's tracks it applies to.
_METRICS = {
    ("soft_label", _SOFT_LABEL): (
        ("amd", "Avg Manhattan dist", "Avg Manhattan", 2.0, amd_stats, "categorical"),
        ("awd", "Avg Wasserstein dist", "Avg Wasserstein", _awd_upper, awd_stats, "ordinal"),
        ("mamd", "Multilabel avg Manhattan", "ML avg Manhattan", 2.0, mamd_stats, "multilabel"),
    ),
    ("perspectivist", _PERSPECTIVIST): (
        ("error_rate", "Error rate", "", 1.0, error_rate_stats, "categorical"),
        ("anad", "Avg norm abs dist", "Norm abs dist", _anad_upper, anad_stats, "ordinal"),
        ("mer", "Multilabel error rate", "ML error rate", 1.0, mer_stats, "multilabel"),
    ),
}
#: The metrics above that round to 5 decimals where the official 2025 code does (ANAD it does not):
#: registered with ``official_rounding``.
ROUNDED = ("amd", "awd", "mamd", "error_rate", "mer")
for (_kind, _family), _rows in _METRICS.items():
    for *_fields, _scale in _rows:
        _family(
            **dict(zip(_ROW_FIELDS, _fields)),
            applies_to=((_kind, _scale),),
            official_rounding=_fields[0] in ROUNDED,
        )
