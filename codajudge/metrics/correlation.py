"""Graded similarity: Pearson r and Spearman rho (higher is better, range [-1, 1]).

Sufficient statistics are centred on the full-sample means before summing, so that the score from
the sums agrees with scipy to about 1e-15 even on long tracks (uncentred raw moments would cancel).
Pearson is unchanged by the shift, and a resample's own mean is corrected for in ``from_stats``.
"""

from functools import partial

import numpy as np

from .base import HIGHER, MOMENTS, WILLIAMS, registered

_CONSTANT_NOTE = (
    "correlation is undefined because the predictions (or the gold) are constant; reported as 0.0"
)


def _centred_unit(values) -> np.ndarray:
    """Values centred on their mean and divided by their largest deviation.

    Pearson r is unchanged by shifting and scaling either series; doing both first keeps squares and
    products finite for predictions such as 1e200 and normal for 1e-170 (which would otherwise
    overflow or underflow and read as a constant series).
    """
    v = np.asarray(values, dtype=float)
    if not v.size:
        return v
    largest = np.max(np.abs(v))
    v = v / largest if largest > 0 else v
    deviation = v - v.mean()
    spread = np.max(np.abs(deviation))
    return deviation / spread if spread > 0 else deviation


def pearson_stats(gold, pred) -> np.ndarray:
    """Per-item sufficient statistics of Pearson r: centred x, y, x², y², xy (x the predictions,
    y the gold)."""
    dx, dy = _centred_unit(pred), _centred_unit(gold)
    return np.column_stack([dx, dy, dx * dx, dy * dy, dx * dy])


def _correlation_from_sums(sums, n):
    sx, sy, sxx, syy, sxy = np.moveaxis(np.asarray(sums, dtype=float), -1, 0)
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
    """Per-item statistics of Spearman rho: Pearson's on average ranks of the full track.

    A bootstrap resample keeps the full-track ranks (a standard approximation that keeps every
    metric on one code path); the score of a whole track is exactly scipy's ``spearmanr``.
    """
    return pearson_stats(average_ranks(gold), average_ranks(pred))


#: What both correlations are: higher is better, in [-1, 1], from summed moments, shown x 100,
#: the same for predictions on any scale.
_CORRELATION = partial(
    registered,
    direction=HIGHER,
    lower=-1.0,
    upper=1.0,
    from_stats=_correlation_from_sums,
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
    name="spearman", title="Spearman rho", short_title="Spearman", item_stats=spearman_stats
)
