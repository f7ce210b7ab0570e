"""Graded similarity: Pearson r and Spearman rho (higher is better, range [-1, 1]).

Sufficient statistics are centred on the full-sample means before summing, so that the score from
the sums agrees with scipy to about 1e-15 even on long tracks (uncentred raw moments would cancel).
Pearson is unchanged by the shift, and a subset's own mean is corrected for in ``from_stats``.

A bootstrap resample is not scored from summed moments but from its drawn items' own values
(``from_draws``: centred on the resample's mean, then summed), as the whole track is: moments
centred once on the whole track cancel to rounding in a resample without an outlier (1e10 among
values near 1), which would read as a constant series. The statistics therefore also hold each
series only scaled (divided by its largest magnitude, not centred), so that every value keeps its
relative precision.
"""

from functools import partial

import numpy as np

from .base import HIGHER, MOMENTS, WILLIAMS, cell_counts, registered

_CONSTANT_NOTE = (
    "correlation is undefined because the predictions (or the gold) are constant; reported as 0.0"
)


def _centred_unit(values) -> np.ndarray:
    """Values divided by their largest magnitude (``_unit``), then centred on their mean and divided
    by their largest deviation.

    Pearson r is unchanged by shifting and scaling either series; doing both first keeps squares and
    products finite for predictions such as 1e200 and normal for 1e-170 (which would otherwise
    overflow or underflow and read as a constant series).
    """
    v = _unit(values)
    if not v.size:
        return v
    deviation = v - v.mean()
    spread = np.max(np.abs(deviation))
    return deviation / spread if spread > 0 else deviation


def _unit(values) -> np.ndarray:
    """Values divided by their largest magnitude (not centred: each keeps its relative precision)."""
    v = np.asarray(values, dtype=float)
    largest = np.max(np.abs(v)) if v.size else 0.0
    return v / largest if largest > 0 else v


#: The columns of a correlation's statistics that hold the predictions and the gold only scaled.
_PREDICTIONS = 5
_GOLD = 6


def pearson_stats(gold, pred) -> np.ndarray:
    """Per-item statistics of Pearson r: centred x, y, x², y², xy (the sufficient statistics of the
    whole track's score; x the predictions, y the gold), then x and y only scaled (``_unit``)."""
    dx, dy = _centred_unit(pred), _centred_unit(gold)
    return np.column_stack([dx, dy, dx * dx, dy * dy, dx * dy, _unit(pred), _unit(gold)])


def _correlation_from_sums(sums, n):
    sx, sy, sxx, syy, sxy = np.moveaxis(np.asarray(sums, dtype=float)[..., :5], -1, 0)
    n = np.asarray(n, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        cxx = sxx - sx * sx / n
        cyy = syy - sy * sy / n
        cxy = sxy - sx * sy / n
        # a variance within rounding of zero is a constant series: undefined, not a huge r
        scale_x = np.maximum(sxx, 1e-300)
        scale_y = np.maximum(syy, 1e-300)
        defined = (cxx > 1e-12 * scale_x) & (cyy > 1e-12 * scale_y) & (n >= 2)
        r = np.where(defined, cxy / np.sqrt(np.where(defined, cxx * cyy, 1.0)), np.nan)
    return np.clip(r, -1.0, 1.0)


#: A row's largest deviation below this is rescaled before squaring (its squares would underflow).
_TINY_SPREAD = 1e-100


def _deviations(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row's values centred on the row's own mean (a row of tiny deviations rescaled so that
    their squares stay normal), and whether the row is constant (its deviations all equal)."""
    deviation = values - values.mean(axis=-1, keepdims=True)
    high, low = deviation.max(axis=-1), deviation.min(axis=-1)
    spread = np.maximum(high, -low)
    tiny = (spread < _TINY_SPREAD) & (spread > 0)
    if tiny.any():
        deviation[tiny] /= spread[tiny, None]
    return deviation, high == low


def _rows_correlation(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Pearson r of each row of ``x`` with the same row of ``y`` (two-pass: centred on the row's
    own means, then summed); NaN where either row is constant."""
    dx, constant_x = _deviations(x)
    dy, constant_y = _deviations(y)
    sxx = np.einsum("ij,ij->i", dx, dx)
    syy = np.einsum("ij,ij->i", dy, dy)
    sxy = np.einsum("ij,ij->i", dx, dy)
    defined = ~(constant_x | constant_y)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(defined, sxy / np.sqrt(sxx * syy), np.nan)
    return np.clip(r, -1.0, 1.0)


#: A resample whose centred moments keep less than this share of their sums (an outlier not drawn:
#: the rest cancel to rounding) is scored from its drawn values instead of its sums.
_CANCELLATION = 1e-3


def _cancelled(sums, n) -> np.ndarray:
    """Which rows of summed moments lost their precision to cancellation (or are constant)."""
    sx, sy, sxx, syy = np.moveaxis(np.asarray(sums, dtype=float)[..., :4], -1, 0)
    return (sxx - sx * sx / n <= _CANCELLATION * sxx) | (syy - sy * sy / n <= _CANCELLATION * syy)


def _correlation_of_draws(stats, index, sums=None) -> np.ndarray:
    """Each resample's own r (``index`` (B, n) into the rows of ``stats``): from its summed moments
    where they keep their precision, else (and without ``sums``) two-pass from the drawn items'
    scaled values."""
    rows = index.shape[0]
    redo = np.ones(rows, dtype=bool) if sums is None else _cancelled(sums, index.shape[1])
    r = np.full(rows, np.nan) if sums is None else _correlation_from_sums(sums, index.shape[1])
    if redo.any():
        x = np.take(np.ascontiguousarray(stats[:, _PREDICTIONS]), index[redo])
        y = np.take(np.ascontiguousarray(stats[:, _GOLD]), index[redo])
        r[redo] = _rows_correlation(x, y)
    return r


def _standardised(stats) -> np.ndarray:
    """A correlation's statistics with the predictions and the gold standardised over the track
    (mean 0, standard deviation 1; a constant series all 0), which r ignores: what the exact
    permutation test swaps, so that an arrangement mixes two systems' values on one scale."""
    out = np.array(stats, dtype=float)
    for column in (_PREDICTIONS, _GOLD):
        deviation = out[:, column] - out[:, column].mean()
        spread = deviation.std()
        constant = out[:, column].max() == out[:, column].min()
        out[:, column] = 0.0 if constant else deviation / spread
    return out


def average_ranks(values) -> np.ndarray:
    """Ranks 1..n of ``values`` in increasing order, tied values sharing the mean of their ranks:
    scipy's ``rankdata``, whose module (scipy.stats) would cost every scoring run about half a
    CPU-second to import."""
    v = np.asarray(values, dtype=float)
    order = np.argsort(v, kind="stable")
    in_order = v[order]
    starts = np.flatnonzero(np.r_[True, in_order[1:] != in_order[:-1]])
    ends = np.r_[starts[1:], v.size]
    ranks = np.empty(v.size)
    ranks[order] = np.repeat((starts + ends + 1) / 2.0, ends - starts)
    return ranks


def spearman_stats(gold, pred):
    """Per-item statistics of Spearman rho: Pearson's on average ranks of the full track, whose
    score is exactly scipy's ``spearmanr``, with the ranks themselves as the drawn values: a
    resample re-ranks its own items (``from_draws``), and the exact test swaps the two systems'
    ranks, half-integers that compare equal exactly where they are equal."""
    gold_ranks = average_ranks(gold)
    pred_ranks = average_ranks(pred)
    stats = pearson_stats(gold_ranks, pred_ranks)
    stats[:, _PREDICTIONS] = pred_ranks
    stats[:, _GOLD] = gold_ranks
    return stats


def _rows_average_ranks(values: np.ndarray, index: np.ndarray) -> np.ndarray:
    """``average_ranks`` of each row of ``values[index]``, without sorting a row: the rank of a
    value is the number of the row's values below it plus the mean position among its equals."""
    distinct, codes = np.unique(values, return_inverse=True)
    drawn = codes.reshape(-1)[index]
    counts = cell_counts(drawn, distinct.size)  # per row, how often each distinct value is drawn
    rank_of_value = np.cumsum(counts, axis=1) - 0.5 * (counts - 1)
    return np.take_along_axis(rank_of_value, drawn, axis=1)


def _spearman_of_draws(stats, index, sums=None) -> np.ndarray:
    """Each resample's own rho: r of its drawn items' values ranked within the resample (its
    ``sums``, of the track's ranks, do not give it)."""
    x = _rows_average_ranks(np.asarray(stats)[:, _PREDICTIONS], index)
    y = _rows_average_ranks(np.asarray(stats)[:, _GOLD], index)
    return _rows_correlation(x, y)


#: What both correlations are: higher is better, in [-1, 1], from summed moments, shown x 100,
#: the same for predictions on any scale.
_CORRELATION = partial(
    registered,
    direction=HIGHER,
    lower=-1.0,
    upper=1.0,
    from_stats=_correlation_from_sums,
    from_draws=_correlation_of_draws,
    swap_stats=_standardised,
    stats_form=MOMENTS,
    percent=True,
    applies_to=(("similarity", None),),
    undefined_note=_CONSTANT_NOTE,
    scale_free=True,
)

_CORRELATION(
    name="pearson",
    title="Pearson r",
    short_title="Pearson",
    item_stats=pearson_stats,
    significance=WILLIAMS,
)
_CORRELATION(
    name="spearman",
    title="Spearman rho",
    short_title="Spearman",
    item_stats=spearman_stats,
    from_draws=_spearman_of_draws,
    swap_stats=None,  # ranks share one scale: standardised, equal ranks could differ in a last bit
)
