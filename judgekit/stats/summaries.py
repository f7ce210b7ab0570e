"""Aggregates behind the detailed results page, with the rules that keep hidden gold hidden.

In phases that hide the gold (evaluation, post-campaign) the page may show only aggregates, and no
aggregate may pin down fewer than ``MIN_CELL_COUNT`` items: a smaller count is shown as "<5" (zeros
included, or a lone "0" beside a "1" would give an item's gold away); a predicted label, an
annotator or a group with fewer than ``MIN_GROUP_ITEMS`` items is not broken down at all, since a
participant chooses which items share a predicted label. Gold bins of similarity grids have fixed,
round edges; prediction bins are equal-count fifths of the participant's own predictions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

import numpy as np

from ..metrics import Metric

MIN_CELL_COUNT = 5
MIN_GROUP_ITEMS = 20
GRID_BINS = 5


@dataclass(frozen=True)
class Grid:
    """Counts of items per (row bin, column bin), with the bins' labels."""

    counts: np.ndarray
    row_labels: List[str]
    col_labels: List[str]


def _range_label(lo: float, hi: float) -> str:
    return f"{lo:.3g} to {hi:.3g}"


def gold_bin_edges(gold: np.ndarray, bins: int = GRID_BINS) -> np.ndarray:
    """``bins`` equal-width bins from floor(min) to ceil(max) of the gold (round edges only)."""
    lo = math.floor(float(np.min(gold))) if gold.size else 0.0
    hi = math.ceil(float(np.max(gold))) if gold.size else 1.0
    if hi <= lo:
        hi = lo + 1
    return np.linspace(lo, hi, bins + 1)


def similarity_grid(gold, pred, bins: int = GRID_BINS) -> Grid:
    """Items counted by gold bin (rows, highest first) and by fifth of the predictions (columns).

    Prediction bins are equal-count groups of the predictions' ranks (ties split by item order).
    """
    gold = np.asarray(gold, dtype=float)
    pred = np.asarray(pred, dtype=float)
    n = gold.size
    bins = max(1, min(bins, n))
    edges = gold_bin_edges(gold, bins)
    gold_bin = np.clip(np.searchsorted(edges, gold, side="right") - 1, 0, bins - 1)
    order = np.argsort(pred, kind="stable")
    pred_bin = np.empty(n, dtype=np.int64)
    pred_bin[order] = (np.arange(n) * bins) // max(n, 1)
    counts = np.zeros((bins, bins), dtype=np.int64)
    np.add.at(counts, (bins - 1 - gold_bin, pred_bin), 1)
    col_labels = []
    for b in range(bins):
        members = pred[pred_bin == b]
        col_labels.append(_range_label(members.min(), members.max()) if members.size else "-")
    row_labels = [_range_label(edges[b], edges[b + 1]) for b in range(bins)][::-1]
    return Grid(counts, row_labels, col_labels)


def confusion_counts(gold, pred, n_labels: int) -> np.ndarray:
    """(gold label, predicted label) counts, gold in rows."""
    counts = np.zeros((n_labels, n_labels), dtype=np.int64)
    np.add.at(counts, (np.asarray(gold, dtype=np.int64), np.asarray(pred, dtype=np.int64)), 1)
    return counts


def suppress_small(counts: np.ndarray, min_count: int = MIN_CELL_COUNT,
                   min_column: int = 0) -> List[List[Optional[int]]]:
    """Counts with cells below ``min_count`` and whole columns below ``min_column`` items as None."""
    counts = np.asarray(counts)
    column_total = counts.sum(axis=0)
    return [[None if (v < min_count or column_total[j] < min_column) else int(v) for j, v in enumerate(row)]
            for row in counts]


def mean_distributions(gold, pred) -> Tuple[np.ndarray, np.ndarray]:
    """Mean gold and predicted soft label per bin (or, multilabel, mean P(chosen) per label)."""
    gold = np.asarray(gold, dtype=float)
    pred = np.asarray(pred, dtype=float)
    if gold.ndim == 3:
        gold, pred = gold[:, :, 1], pred[:, :, 1]
    return gold.mean(axis=0), pred.mean(axis=0)


def per_annotator_errors(gold, pred, annotator_of_row: Sequence[str], scale: str) -> List[Tuple[str, int, float]]:
    """(annotator, number of their labels, mean error) from ``PerAnnotator`` gold and prediction.

    Error per label: wrong or not (categorical); |gold - predicted| / number of label values
    (ordinal, ANAD's unit); the share of labels whose choice is mispredicted (multilabel).
    """
    g = np.asarray(gold.values, dtype=float)
    p = np.asarray(pred.values, dtype=float)
    if scale == "ordinal":
        error = np.abs(g - p) / max(gold.n_labels, 1)
    elif g.ndim == 2:
        error = (g != p).mean(axis=1)
    else:
        error = (g != p).astype(float)
    names = annotator_of_row if isinstance(annotator_of_row, list) else list(annotator_of_row)
    codes = {name: k for k, name in enumerate(dict.fromkeys(names))}  # one pass, not one per annotator
    row_code = np.fromiter(map(codes.__getitem__, names), dtype=np.int64, count=len(names))
    counts = np.bincount(row_code, minlength=len(codes))
    totals = np.bincount(row_code, weights=error, minlength=len(codes))
    return [(str(name), int(counts[k]), float(totals[k] / counts[k])) for name, k in sorted(codes.items())]


def group_scores(metric: Metric, stats, groups: Sequence[str]) -> List[Tuple[str, int, Optional[float]]]:
    """(group value, items, score) of each group of items; score None when undefined there."""
    stats = np.asarray(stats, dtype=float).reshape(len(stats), -1)
    groups = groups if isinstance(groups, list) else list(groups)
    numbers = {value: k for k, value in enumerate(dict.fromkeys(groups))}  # compare numbers, not strings
    codes = np.fromiter(map(numbers.__getitem__, groups), dtype=np.int64, count=len(groups))
    out = []
    for value in sorted(numbers):
        mask = codes == numbers[value]
        with np.errstate(divide="ignore", invalid="ignore"):
            score = float(np.asarray(metric.from_stats(stats[mask].sum(axis=0), int(mask.sum()))))
        out.append((str(value), int(mask.sum()), score if math.isfinite(score) else None))
    return out
