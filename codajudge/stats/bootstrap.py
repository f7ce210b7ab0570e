"""Seeded percentile bootstrap over per-item metric statistics.

A resample draws N items with replacement; its score is ``metric.from_stats(sums, N)`` with ``sums``
the column sums of the drawn items' statistics: one code path for every metric, vectorised over
resamples. The sums are gathered and summed column by column (one or two columns), or taken as
``counts @ stats`` with ``counts`` how often each item was drawn (more columns; one-hot rows such as
macro-F1's confusion cells sum to exact counts either way). A metric with ``from_draws`` (a
correlation) is scored by it, from the drawn items and their sums: each resample's r is that of its
own values. Draws come in chunks sized by a fixed memory budget, so 1,000 resamples of 100,000
items need tens of megabytes, not gigabytes.

Reproducibility: resample b of a track of N items is drawn by ``numpy.random.default_rng(seed)``
with ``integers(0, N)`` in chunks whose size depends only on N; the same kit version, seed, number
of resamples and data give the same interval, bit for bit. Intervals are percentile intervals
(``numpy.percentile``, linear interpolation) of the resampled scores. A resample on which a metric is
undefined (a constant resample for a correlation) counts as 0.0, the value scoring reports in that case.
"""

from __future__ import annotations

from typing import NamedTuple
from collections.abc import Iterator, Sequence

import numpy as np

from .. import __version__
from ..metrics import Metric, get as get_metric
from ..metrics.base import cell_counts

#: Default number of resamples of the scoring program and the ranking tool.
DEFAULT_RESAMPLES = 1000
#: Default seed of every resampling (an edition's ``seed`` overrides it).
DEFAULT_SEED = 12345
DEFAULT_CONFIDENCE = 0.95
#: Memory budget of one chunk of resample counts, in bytes (several arrays of this size coexist).
CHUNK_BYTES = 4 * 1024**2
#: Statistics with at most this many columns are summed by gathering the drawn items' values (a
#: matrix-vector product with the counts would be slower, and BLAS threads can make it much slower).
GATHER_COLUMNS = 2


class Interval(NamedTuple):
    """A score and its percentile bootstrap interval (``DEFAULT_CONFIDENCE``)."""

    value: float
    low: float
    high: float


def signature_text(
    resamples: int, seed: int, test: str | None = None, alpha: float | None = None
) -> str:
    """The reproducibility signature printed beside every interval and ranking (as sacrebleu
    does): the settings behind a set of intervals or significance tests, with which anyone
    recomputes the same intervals, e.g.
    ``codajudge 0.1.0|bootstrap 1000|seed 12345|ci 95%`` (plus the test and its level alpha, a
    ranking's, given together)."""
    text = f"codajudge {__version__}|bootstrap {resamples}|seed {seed}|ci {DEFAULT_CONFIDENCE:.0%}"
    return text if test is None else f"{text}|test {test}|alpha {alpha:g}"


def chunk_rows(n_items: int, resamples: int) -> int:
    """How many resamples of ``n_items`` items fit in one chunk (a function of the sizes only)."""
    return int(max(1, min(resamples, CHUNK_BYTES // (8 * max(n_items, 1)))))


def resample_draws(n_items: int, resamples: int, seed: int) -> Iterator[np.ndarray]:
    """Yield ``(rows, n_items)`` int arrays of drawn item indices; over all chunks, ``resamples`` rows."""
    if n_items <= 0:
        return
    rng = np.random.default_rng(seed)
    rows = chunk_rows(n_items, resamples)
    for done in range(0, resamples, rows):
        yield rng.integers(0, n_items, size=(min(rows, resamples - done), n_items))


def scores_from_sums(metric: Metric, sums: np.ndarray, n_items: int) -> np.ndarray:
    """``metric``'s scores of summed statistics (one per row of ``sums``, or one), flat, as floats:
    NaN where a score is undefined, which no warning reports."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(metric.from_stats(sums, n_items), dtype=float).reshape(-1)


def drawn_scores(metric: Metric, stats: np.ndarray, index: np.ndarray, sums=None) -> np.ndarray:
    """``metric.from_draws``'s scores of the resamples ``index`` (B, n) of ``stats`` (with their
    summed statistics ``sums`` where known), flat floats."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(metric.from_draws(stats, index, sums), dtype=float).reshape(-1)


def resample_scores(metric: Metric, stats: np.ndarray, index: np.ndarray, sums) -> np.ndarray:
    """The scores of the resamples ``index`` of ``stats`` whose summed statistics are ``sums``:
    ``from_draws``'s where the metric has one, else ``from_stats``'s."""
    if metric.from_draws is None:
        return scores_from_sums(metric, sums, index.shape[1])
    return drawn_scores(metric, stats, index, sums)


def bootstrap_scores(
    scored: Sequence[tuple[Metric, np.ndarray]], resamples: int, seed: int
) -> list[np.ndarray]:
    """Resampled scores of several (metric, per-item statistics) pairs on the same resamples.

    All statistics arrays ``(N, S)`` must have their rows on the same N items: two systems on one
    metric make a paired bootstrap, one system on several metrics shares the resamples.
    Returns one ``(resamples,)`` array per pair; undefined values stay NaN here.
    """
    prepared = [(metric, np.asarray(s, dtype=float).reshape(len(s), -1)) for metric, s in scored]
    n_items = prepared[0][1].shape[0]
    out: list[list[np.ndarray]] = [[] for _ in prepared]
    for index in resample_draws(n_items, resamples, seed):
        counts = None
        for k, (metric, stats) in enumerate(prepared):
            if stats.shape[1] <= GATHER_COLUMNS:
                sums = np.stack([stats[:, j][index].sum(axis=1) for j in range(stats.shape[1])], 1)
            else:
                counts = cell_counts(index, n_items) if counts is None else counts
                sums = counts @ stats
            out[k].append(resample_scores(metric, stats, index, sums))
    return [np.concatenate(parts) if parts else np.zeros(0) for parts in out]


def systems_bootstrap_scores(
    metric: Metric, stats: Sequence[np.ndarray], resamples: int, seed: int
) -> list[np.ndarray]:
    """Several systems' resampled scores of one metric on the same resamples (a ranking's track).

    The systems' (N, S) statistics stand side by side, a column that equals the first system's
    (one that depends on the gold alone, such as a correlation's gold moments) only once, and each
    chunk of resamples is summed for all of them by one matrix product ``counts @ columns`` and
    scored by one ``from_stats`` call per system (or ``from_draws``). The draws are those of
    ``bootstrap_scores`` with the same seed; sums may differ from its gathered ones by rounding (1e-16 relative).
    """
    prepared = [np.asarray(s, dtype=float).reshape(len(s), -1) for s in stats]
    if len(prepared) < 2:
        return bootstrap_scores([(metric, s) for s in prepared], resamples, seed)
    n_items = prepared[0].shape[0]  # every system's statistics are over the track's items
    distinct, where = _distinct_columns(prepared)
    out: list[np.ndarray] = []
    for index in resample_draws(n_items, resamples, seed):
        sums = (cell_counts(index, n_items) @ distinct)[:, where]  # (b, systems, S)
        scores = [resample_scores(metric, s, index, sums[:, k]) for k, s in enumerate(prepared)]
        out.append(np.stack(scores, axis=1))
    scores = np.concatenate(out) if out else np.zeros((0, len(prepared)))
    return [np.ascontiguousarray(scores[:, k]) for k in range(len(prepared))]


def _distinct_columns(prepared: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The systems' statistics columns side by side (N, K), a column equal to the first system's
    kept once, and ``where`` (systems, S): the position of each system's column j among them."""
    first = prepared[0]
    kept = list(first.T)
    where = np.tile(np.arange(first.shape[1], dtype=np.intp), (len(prepared), 1))
    for k, s in enumerate(prepared[1:], start=1):
        for j in range(first.shape[1]):
            if not np.array_equal(s[:, j], first[:, j]):
                where[k, j] = len(kept)
                kept.append(s[:, j])
    return np.stack(kept, axis=1), where


def undefined_score(metric: Metric, stats: np.ndarray) -> bool:
    """Whether ``metric``'s score of a system's full per-item statistics is undefined (NaN, which
    scoring reports as 0.0: a constant prediction's Pearson r)."""
    stats = np.asarray(stats, dtype=float).reshape(len(stats), -1)
    every_item = np.arange(len(stats))[None, :]
    score = resample_scores(metric, stats, every_item, stats.sum(axis=0)[None, :])
    return len(stats) > 0 and not np.isfinite(score[0])


def undefined_as_zero(values: np.ndarray) -> np.ndarray:
    """The scoring policy for undefined resampled scores: NaN counts as 0.0."""
    return np.where(np.isfinite(values), values, 0.0)


def percentile_interval(raw: np.ndarray, value: float) -> Interval:
    """The ``DEFAULT_CONFIDENCE`` percentile interval of resampled scores ``raw`` (NaN =
    undefined, counted as 0.0)."""
    tail = (1.0 - DEFAULT_CONFIDENCE) / 2.0 * 100.0
    low, high = np.percentile(undefined_as_zero(raw), [tail, 100.0 - tail])
    return Interval(float(value), float(low), float(high))


def track_intervals(track_result, resamples: int, seed: int) -> dict[str, Interval]:
    """Intervals of every metric of a ``scoring.TrackResult``, all metrics on the same resamples.

    Empty when the track has fewer than two scored items or ``resamples`` is 0.
    """
    stats = track_result.stats  # every metric's over the same scored items
    if resamples < 1 or min(map(len, stats.values())) < 2:
        return {}
    raws = bootstrap_scores([(get_metric(n), s) for n, s in stats.items()], resamples, seed)
    return {
        name: percentile_interval(raw, track_result.scores[name]) for name, raw in zip(stats, raws)
    }
