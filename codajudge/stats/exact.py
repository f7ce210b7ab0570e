"""The small-sample rule of the kit's paired tests: the floor no p-value goes below, and the exact
paired permutation test that replaces the approximate tests on a track of few items.

Under "the two systems are exchangeable" each of the n items' two outputs may be swapped: 2^n
arrangements, equally likely. The observed one and its full swap are always as extreme as the
observation, so an exact two-sided p-value is at least 2 / 2^n (``p_floor``; the exact sign test's
2 x 0.5^n when one system wins every item). Every test of the kit reports at least that: without
it, the paired bootstrap would say 1 / (resamples + 1) = 0.001 on a single item, where no test can
say anything (p = 1).

Up to ``EXACT_MAX_ITEMS`` items a ranking uses no approximate test (Williams' t, the normal
approximation of Wilcoxon's test, the bootstrap with its 1 / (resamples + 1) resolution) but the
exact paired permutation test on the track's main metric (``permutation_p_value``): every one of
the 2^n swaps is enumerated and p = #{|delta'| >= |delta|} / 2^n, with delta the oriented
difference of the two systems' scores and delta' its value after the swap.
"""

from __future__ import annotations

import numpy as np

from .bootstrap import scores_from_sums, undefined_as_zero

#: The test ``permutation_p_value`` computes, as a ranking names it.
PERMUTATION = "permutation"
#: Tracks of at most this many items use the exact permutation test (4,096 arrangements), whatever
#: test was asked: below it the floor 2 / 2^n exceeds the default bootstrap's resolution 1 / 1001.
EXACT_MAX_ITEMS = 12
#: Two swapped differences closer than this (relative, at least 1) are equal: rounding of the
#: swapped sums, which the full swap of the observation would otherwise miss.
SWAP_TOLERANCE = 1e-9


def p_floor(n_items: int) -> float:
    """The smallest two-sided p-value a paired test on ``n_items`` items can honestly report:
    2 x 0.5^n (1.0 for one item or none)."""
    return min(1.0, 2.0 * 0.5 ** max(int(n_items), 0))


def swap_masks(n_items: int) -> np.ndarray:
    """(2^n, n) floats: row j swaps item k when bit k of j is set; row 0 is the observation."""
    rows = np.arange(2**n_items, dtype=np.int64)[:, None]
    return ((rows >> np.arange(n_items, dtype=np.int64)) & 1).astype(float)


def permutation_p_value(metric, stats_a, stats_b) -> float:
    """The exact two-sided p-value of A against B (per-item statistics (n, S) on the same n items,
    n at most ``EXACT_MAX_ITEMS``) on ``metric``: the share of the 2^n swaps of the two systems'
    rows whose oriented difference is at least the observed one in size. An undefined score counts
    as 0.0, as scoring does."""
    a = np.asarray(stats_a, dtype=float).reshape(len(stats_a), -1)
    b = np.asarray(stats_b, dtype=float).reshape(len(stats_b), -1)
    n = a.shape[0]
    if n > EXACT_MAX_ITEMS:
        raise ValueError(f"the exact test enumerates 2^n swaps: n = {n} > {EXACT_MAX_ITEMS}")
    moved = swap_masks(n) @ (b - a)  # what each arrangement moves from A's sums to B's
    score_a = scores_from_sums(metric, a.sum(axis=0) + moved, n)
    score_b = scores_from_sums(metric, b.sum(axis=0) - moved, n)
    deltas = np.abs(undefined_as_zero(score_a) - undefined_as_zero(score_b))
    observed = deltas[0]
    extreme = np.count_nonzero(deltas >= observed - SWAP_TOLERANCE * max(1.0, observed))
    return max(float(extreme) / deltas.size, p_floor(n))
