"""Aggregates behind the detailed results page of a phase whose gold is public (practice).

A phase that hides its gold gets none of them (see ``report.HIDDEN_GOLD_NOTE`` and the policy in
docs/participant-checks.md): each depends on single items' gold, so comparing two submissions on
it would tell that gold.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..metrics import Metric
from .bootstrap import resample_scores


def confusion_counts(gold, pred, n_labels: int) -> np.ndarray:
    """(gold label, predicted label) counts, gold in rows."""
    counts = np.zeros((n_labels, n_labels), dtype=np.int64)
    np.add.at(counts, (np.asarray(gold, dtype=np.int64), np.asarray(pred, dtype=np.int64)), 1)
    return counts


def mean_distributions(gold, pred) -> tuple[np.ndarray, np.ndarray]:
    """Mean gold and predicted soft label per bin (or, multilabel, mean P(chosen) per label)."""
    gold, pred = (np.asarray(values, dtype=float) for values in (gold, pred))
    if gold.ndim == 3:
        gold, pred = gold[:, :, 1], pred[:, :, 1]
    return gold.mean(axis=0), pred.mean(axis=0)


def per_row_errors(gold, pred, scale: str) -> np.ndarray:
    """The error of each (item, annotator) row of ``PerAnnotator`` gold and prediction: wrong or not
    (categorical); |gold - predicted| / number of label values (ordinal, ANAD's unit); the share of
    labels whose choice is mispredicted (multilabel)."""
    g, p = (np.asarray(rows.values, dtype=float) for rows in (gold, pred))
    if scale == "ordinal":
        return np.abs(g - p) / max(gold.n_labels, 1)
    if g.ndim == 2:
        return (g != p).mean(axis=1)
    return (g != p).astype(float)


def per_annotator_errors(
    gold, pred, annotator_of_row: Sequence[str], scale: str
) -> list[tuple[str, int, float]]:
    """(annotator, number of their labels, mean error) from ``PerAnnotator`` gold and prediction,
    the error of a label as ``per_row_errors`` gives it."""
    error = per_row_errors(gold, pred, scale)
    # one pass over the rows, not one per annotator: each row's annotator numbered in name order
    names, row_code = np.unique(np.asarray(list(annotator_of_row), dtype=str), return_inverse=True)
    counts = np.bincount(row_code, minlength=len(names))
    totals = np.bincount(row_code, weights=error, minlength=len(names))
    return [
        (str(name), int(counts[k]), float(totals[k] / counts[k])) for k, name in enumerate(names)
    ]


def group_scores(
    metric: Metric, stats, groups: Sequence[str]
) -> list[tuple[str, int, float | None]]:
    """(group value, items, score) of each group of items, scored as a draw of its own items (a
    correlation's r of the group's own values, its rho of their ranks within the group); score None
    when undefined there."""
    stats = np.asarray(stats, dtype=float).reshape(len(stats), -1)
    values = np.asarray(list(groups), dtype=object)
    out = []
    for value in sorted(set(values.tolist())):
        mask = values == value
        members = np.flatnonzero(mask)[None, :]  # the group as one draw of its own items
        sums = stats[mask].sum(axis=0)[None, :]
        score = float(resample_scores(metric, stats, members, sums)[0])
        out.append((str(value), int(mask.sum()), score if np.isfinite(score) else None))
    return out
