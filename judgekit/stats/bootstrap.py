"""Seeded percentile bootstrap over per-item metric statistics.

A resample draws N items with replacement. Instead of gathering rows, each resample is a vector of
counts (how often each item was drawn), so a resample's column sums are ``counts @ stats`` and its
score is ``metric.from_stats(sums, N)``: one code path for every metric, vectorised over resamples.
Counts come in chunks sized by a fixed memory budget, so 1,000 resamples of 100,000 items need tens
of megabytes, not gigabytes.

Reproducibility: resample b of a track of N items is drawn by ``numpy.random.default_rng(seed)``
with ``integers(0, N)`` in chunks whose size depends only on N; the same kit version, seed, number
of resamples and data give the same interval, bit for bit. Intervals are percentile intervals
(``numpy.percentile``, linear interpolation) of the resampled scores. A resample on which a metric is
undefined (a constant resample for a correlation) counts as 0.0, the value scoring reports in that case.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from ..metrics import Metric, get as get_metric

#: Default number of resamples of the scoring program and the ranking tool.
DEFAULT_RESAMPLES = 1000
DEFAULT_CONFIDENCE = 0.95
#: Memory budget of one chunk of resample counts, in bytes (several arrays of this size coexist).
CHUNK_BYTES = 4 * 1024 ** 2


@dataclass(frozen=True)
class Interval:
    """A score, its percentile bootstrap interval and the settings that reproduce it.

    ``undefined`` counts the resamples on which the metric was undefined (scored as 0.0).
    """

    value: float
    low: float
    high: float
    confidence: float
    resamples: int
    seed: int
    undefined: int = 0

    def render(self, digits: int = 4) -> str:
        return f"{self.value:.{digits}f} [{self.low:.{digits}f}, {self.high:.{digits}f}]"


def chunk_rows(n_items: int, resamples: int) -> int:
    """How many resamples of ``n_items`` items fit in one chunk (a function of the sizes only)."""
    return int(max(1, min(resamples, CHUNK_BYTES // (8 * max(n_items, 1)))))


def resample_counts(n_items: int, resamples: int, seed: int) -> Iterator[np.ndarray]:
    """Yield ``(rows, n_items)`` float arrays of draw counts; over all chunks, ``resamples`` rows.

    Each row sums to ``n_items``. Rows are drawn with index sampling and counted with one
    ``bincount`` per chunk (offsetting each row's indices), not a Python loop over resamples.
    """
    if n_items <= 0 or resamples <= 0:
        return
    rng = np.random.default_rng(seed)
    rows = chunk_rows(n_items, resamples)
    done = 0
    while done < resamples:
        b = min(rows, resamples - done)
        index = rng.integers(0, n_items, size=(b, n_items))
        index += (np.arange(b, dtype=index.dtype) * n_items)[:, None]
        counts = np.bincount(index.ravel(), minlength=b * n_items).reshape(b, n_items)
        del index
        yield counts.astype(float)
        done += b


def _scores_from_sums(metric: Metric, sums: np.ndarray, n_items: int) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(metric.from_stats(sums, n_items), dtype=float).reshape(-1)


def bootstrap_scores(scored: Sequence[Tuple[Metric, np.ndarray]], resamples: int,
                     seed: int) -> List[np.ndarray]:
    """Resampled scores of several (metric, per-item statistics) pairs on the same resamples.

    All statistics arrays ``(N, S)`` must have their rows on the same N items: two systems on one
    metric make a paired bootstrap, one system on several metrics shares the resamples.
    Returns one ``(resamples,)`` array per pair; undefined values stay NaN here.
    """
    prepared = [(metric, np.asarray(s, dtype=float).reshape(len(s), -1)) for metric, s in scored]
    n_items = prepared[0][1].shape[0]
    if any(s.shape[0] != n_items for _, s in prepared):
        raise ValueError("a shared bootstrap needs per-item statistics over the same items")
    out: List[List[np.ndarray]] = [[] for _ in prepared]
    for counts in resample_counts(n_items, resamples, seed):
        for k, (metric, s) in enumerate(prepared):
            out[k].append(_scores_from_sums(metric, counts @ s, n_items))
    return [np.concatenate(parts) if parts else np.zeros(0) for parts in out]


def undefined_as_zero(values: np.ndarray) -> np.ndarray:
    """The scoring policy for undefined resampled scores: NaN counts as 0.0."""
    return np.where(np.isfinite(values), values, 0.0)


def percentile_interval(raw: np.ndarray, value: float, confidence: float, resamples: int,
                        seed: int) -> Interval:
    """The percentile interval of resampled scores ``raw`` (NaN = undefined, counted as 0.0)."""
    undefined = int(np.count_nonzero(~np.isfinite(raw)))
    tail = (1.0 - confidence) / 2.0 * 100.0
    low, high = np.percentile(undefined_as_zero(raw), [tail, 100.0 - tail])
    return Interval(float(value), float(low), float(high), float(confidence), int(resamples), int(seed),
                    undefined)


def interval(metric: Metric, stats: np.ndarray, value: float, resamples: int = DEFAULT_RESAMPLES,
             seed: int = 12345, confidence: float = DEFAULT_CONFIDENCE) -> Optional[Interval]:
    """The percentile bootstrap interval of one score; None when there is nothing to resample."""
    stats = np.asarray(stats)
    if stats.ndim == 0 or stats.shape[0] < 2 or resamples < 1:
        return None
    (raw,) = bootstrap_scores([(metric, stats)], resamples, seed)
    return percentile_interval(raw, value, confidence, resamples, seed)


def track_intervals(track_result, resamples: int = DEFAULT_RESAMPLES, seed: int = 12345,
                    confidence: float = DEFAULT_CONFIDENCE) -> Dict[str, Interval]:
    """Intervals of every metric of a ``scoring.TrackResult``, all metrics on the same resamples.

    Empty when the track has fewer than two scored items or ``resamples`` is 0.
    """
    names = [name for name, stats in track_result.stats.items()
             if stats is not None and np.ndim(stats) > 0 and len(stats) >= 2]
    if not names or resamples < 1:
        return {}
    raws = bootstrap_scores([(get_metric(n), track_result.stats[n]) for n in names], resamples, seed)
    return {name: percentile_interval(raw, track_result.scores[name], confidence, resamples, seed)
            for name, raw in zip(names, raws)}
