"""Wilcoxon's signed-rank test of one system's per-item losses against several other systems' at
once: two-sided, zero differences dropped, the numbers of ``scipy.stats.wilcoxon(a - b)``.

A ranking tests thousands of pairs, and scipy spends most of each call on its wrappers and a stable
argsort. With more than 50 items scipy (1.11 to 1.17) uses the normal approximation without
continuity correction, which is computed here directly: the c nonzero |d| are ranked (tied values
get their average rank), r+ sums the ranks of the positive differences, and with t_g the size of
each group of tied |d|

    z = (r+ - c(c+1)/4) / sqrt((c(c+1)(2c+1) - sum_g (t_g^3 - t_g) / 2) / 24),   p = 2 Phi(-|z|),

with statistic min(r+, r-). The ranks come from one sort of integer keys (the bits of |d|, which
order non-negative floats as the floats do, with the sign below them), and rank sums are counted
in half ranks as integers, so they are exact and p is scipy's to the last bit (tests/test_stats.py
compares them). Pairs with 50 items or fewer (where scipy chooses an exact or permutation
p-value) and differences with a NaN go to scipy itself. Either way p is at least the exact floor
2 x 0.5^n of n items (``exact.p_floor``), which scipy's normal approximation on a few tied
differences would undercut.
"""

from __future__ import annotations

import warnings
from typing import List, Sequence, Tuple

import numpy as np
from scipy.special import ndtr

from .exact import p_floor
from .williams import TestResult

#: Up to this many items scipy may choose an exact or permutation p-value: those pairs go to scipy.
SCIPY_CHOOSES_MAX = 50

NO_DIFFERENCE = TestResult(0.0, 1.0, "wilcoxon")


def signed_rank_tests(losses_a, others: Sequence) -> List[TestResult]:
    """Wilcoxon's test of A against each of ``others`` (per-item losses on the same items, lower is
    better): ``TestResult(min(r+, r-), p, "wilcoxon")`` per other system, in order. Every difference
    zero (the systems are indistinguishable, which scipy refuses) gives p = 1.0, as does a p-value
    scipy leaves undefined; p is at least ``p_floor`` of the number of items."""
    a = np.asarray(losses_a, dtype=float).reshape(-1)
    results = []
    for other in others:
        diff = a - np.asarray(other, dtype=float).reshape(-1)
        if diff.size > SCIPY_CHOOSES_MAX and not np.isnan(diff).any():
            found = _normal_approximation(diff)
        else:
            found = _scipy_one(diff)
        results.append(TestResult(found.statistic, max(found.p_value, p_floor(a.size)), found.test))
    return results


def _scipy_one(diff: np.ndarray) -> TestResult:
    from scipy.stats import wilcoxon

    if diff.size == 0 or not np.any(diff != 0.0):
        return NO_DIFFERENCE
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # small-sample notes from scipy are not the user's business
        result = wilcoxon(diff, zero_method="wilcox", alternative="two-sided")
    p = float(result.pvalue)
    return TestResult(float(result.statistic), p if np.isfinite(p) else 1.0, "wilcoxon")


def _normal_approximation(diff: np.ndarray) -> TestResult:
    """scipy's asymptotic two-sided test of the differences ``diff`` (more than 50, no NaN)."""
    twice_r_plus, count, ties = _rank_sums(diff)
    if count == 0:
        return NO_DIFFERENCE
    r_plus = twice_r_plus / 2.0
    r_minus = (count * (count + 1) - twice_r_plus) / 2.0
    c = float(count)
    mn = c * (c + 1.0) * 0.25
    se = c * (c + 1.0) * (2.0 * c + 1.0)
    se = np.sqrt((se - float(ties) / 2) / 24)
    z = (r_plus - mn) / se
    p = float(2.0 * ndtr(-abs(z)))
    return TestResult(float(min(r_plus, r_minus)), p if np.isfinite(p) else 1.0, "wilcoxon")


def _rank_sums(diff: np.ndarray) -> Tuple[int, int, int]:
    """Twice r+ (an integer), the number c of nonzero differences, and sum_g (t_g^3 - t_g) over
    the groups of tied nonzero |d|."""
    n = diff.size
    keys = np.abs(diff).view(np.uint64) << np.uint64(1)  # |d| >= 0: its bits order as the floats do
    keys |= (diff > 0).view(np.uint8)
    keys.sort()
    values = keys >> np.uint64(1)
    starts = np.concatenate(
        ([0], np.flatnonzero(values[1:] != values[:-1]) + 1)
    )  # of groups of equal |d|
    sizes = np.diff(starts, append=n)
    positives = np.add.reduceat((keys & np.uint64(1)).view(np.int64), starts)
    zeros = int(sizes[0]) if values[0] == 0 else 0  # sorted first, and dropped
    if zeros:
        starts, sizes, positives = starts[1:], sizes[1:], positives[1:]
    twice_rank = (
        2 * starts + sizes + 1 - 2 * zeros
    )  # the group's average 1-based rank among nonzero |d|, doubled
    return int(positives @ twice_rank), n - zeros, int((sizes * sizes * sizes - sizes).sum())
