"""Paired tests of two systems on the same items: paired bootstrap (any metric), Williams' t-test
for Pearson r, Wilcoxon signed-rank on per-item losses (LeWiDi 2025's test for statistical ties)
and the exact paired permutation test (any metric, few items). All are two-sided, and none reports
a p-value below the exact floor 2 x 0.5^n of the n items where the two systems differ
(``p_floor``, ``differing_items``; Williams' test: of all items as well, below).

``choose_test`` picks the test of a metric for ``--test auto`` from its registration
(``Metric.significance``): Williams for Pearson r, Wilcoxon for the lower-is-better LeWiDi metrics,
the paired bootstrap otherwise; on a track of at most ``EXACT_MAX_ITEMS`` items, the exact test
whatever was asked, as for any pair of systems that differ on at most that many items
(``TrackTests.pair``). No metric is named here.

The small-sample rule. Under "the two systems are exchangeable" each item's two outputs may be
swapped; swapping an item where both systems have the same row changes nothing, so the n items
where they differ (``differing_items``) give 2^n distinct arrangements, equally likely, however
many items the track has. The observed one and its full swap are always as extreme as the
observation, so an exact two-sided p-value is at least 2 / 2^n (``p_floor``; the exact sign
test's 2 x 0.5^n when one system wins every differing item). Every test on per-item values (the
bootstrap, Wilcoxon's test, the exact test) reports at least that: without it, the paired
bootstrap would say 1 / (resamples + 1) = 0.001 of two systems that differ on a single item, where
no test can say anything (p = 1). The bootstrap still resamples all the track's items: the items
where the systems agree count in each resample's scores, but not in the floor. Williams' test is
on the correlations of all n items, its degrees of freedom n - 3; its p is floored by the
differing items too. A correlation's per-item statistics are relative to each system's own
series, so its differing items are those of different predictions (``TrackTests.swapped``), and a
pair of a few such items keeps its test, floored by them: swapping some items' rows but not the
others' would mix two centrings (the full swap would not mirror the observation). Up to
``EXACT_MAX_ITEMS`` differing items a ranking uses no approximate test (Williams' t, the normal
approximation of Wilcoxon's test, the bootstrap with its 1 / (resamples + 1) resolution) but the
exact paired permutation test on the track's main metric (``permutation_p_value``): every one of
the 2^n swaps is enumerated and p = #{|delta'| >= |delta|} / 2^n, with delta the oriented
difference of the two systems' scores and delta' its value after the swap. What is swapped is each
item's row of per-item statistics, and an arrangement is scored from its summed rows; a metric
scored from drawn items (``Metric.from_draws``: a correlation) swaps the rows of
``Metric.swap_stats`` instead and scores each arrangement from its own values. For Pearson r these
are each system's predictions standardised over the track (mean 0, standard deviation 1, which r
ignores), so that an arrangement mixes two systems on one scale, whatever scale each predicts on,
and its r is that of the mixed values themselves.

Williams' t-test compares two dependent Pearson correlations that share the gold (metrics.md §7).
Systems 2 and 3 are each correlated with the same gold (variable 1): r12 and r13, with r23 the
correlation between the two systems' predictions. Under H0 (r12 = r13)

    t = (r12 - r13) * sqrt((n-1)(1+r23)) / sqrt(2 ((n-1)/(n-3)) |R| + ((r12+r13)^2 / 4) (1-r23)^3)

with |R| = 1 - r12^2 - r13^2 - r23^2 + 2 r12 r13 r23, follows Student's t with n - 3 degrees of
freedom (Williams 1959; used by SemEval-2017 STS and WMT). The kit's tests are two-sided.

Degenerate cases, where the formula divides 0 by 0 (or by rounding noise), are decided explicitly
(``_williams_statistic``), in this order:

- n <= 3: no test (p = 1).
- r12 = r13: the correlations are equal (t = 0, p = 1), whatever else holds.
- a constant system (its r undefined, scored 0): the other system's r is tested against 0 with
  Pearson's t = r sqrt((n-2)/(1-r^2)), n - 2 degrees of freedom (a constant's r does not vary).
- |r23| = 1 (to ``AFFINE_TOLERANCE``): one system is an affine map of the other. With r23 = +1
  their correlations with the gold are equal (a tie, p = 1); with r23 = -1 they are opposite
  (r13 = -r12), so they differ exactly when r12 differs from 0: r12 is tested against 0 as above,
  with t signed as r12 - r13.

Its two-sided p-value is never below ``p_floor(n)``, 2 x 0.5^n: no paired test on n items can say
more (a t distribution would, for a perfect system against its negation on 30 items: p = 0).
"""

from __future__ import annotations

import math
import warnings
from typing import NamedTuple

import numpy as np

from ..texts import kit_text
from ..metrics import BOOTSTRAP, WILCOXON, WILLIAMS, Metric, get as get_metric
from .bootstrap import drawn_scores, scores_from_sums, systems_bootstrap_scores, undefined_as_zero

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


def differing_items(values_a, values_b) -> np.ndarray:
    """The indices of the items whose values (per-item statistics, or predictions) differ between
    the two systems: swapping any other item changes nothing, so these are the n of ``p_floor``
    and of the few-items switch to the exact test (``TrackTests.swapped``)."""
    a, b = (np.asarray(v).reshape(len(v), -1) for v in (values_a, values_b))
    return np.flatnonzero(np.any(a != b, axis=1))


def permutation_p_value(metric, stats_a, stats_b, swapped=None) -> float:
    """The exact two-sided p-value of A against B (per-item statistics (n, S) on the same n items)
    on ``metric``: the share of the 2^k swaps of the k items ``swapped`` (at most
    ``EXACT_MAX_ITEMS``; without it, the items whose statistics differ) whose oriented difference
    is at least the observed one in size. A metric scored from drawn items swaps every item: its
    statistics are relative to each system's own series, so a part cannot be swapped alone. An
    undefined score counts as 0.0, as scoring does."""
    a, b = (np.asarray(s, dtype=float).reshape(len(s), -1) for s in (stats_a, stats_b))
    if metric.from_draws is not None:
        swapped = np.arange(len(a))
    elif swapped is None:
        swapped = differing_items(a, b)
    k = swapped.size
    if k > EXACT_MAX_ITEMS:
        raise ValueError(f"the exact test enumerates 2^k swaps: k = {k} > {EXACT_MAX_ITEMS}")
    if metric.from_draws is None:
        moved = swap_masks(k) @ (b - a)[swapped]  # what each arrangement moves from A's sums to B's
        score_a = scores_from_sums(metric, a.sum(axis=0) + moved, len(a))
        score_b = scores_from_sums(metric, b.sum(axis=0) - moved, len(a))
    else:
        score_a, score_b = drawn_arrangement_scores(metric, a, b)
    deltas = np.abs(undefined_as_zero(score_a) - undefined_as_zero(score_b))
    observed = deltas[0]
    extreme = np.count_nonzero(deltas >= observed - SWAP_TOLERANCE * max(1.0, observed))
    return max(float(extreme) / deltas.size, p_floor(k))


def drawn_arrangement_scores(metric, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A's and B's scores in each of the 2^n arrangements of a metric with ``from_draws``: both
    systems' ``swap_stats`` rows stacked, A's arrangement taking item k's row from B where swapped."""
    if metric.swap_stats is not None:
        a, b = metric.swap_stats(a), metric.swap_stats(b)
    n = a.shape[0]
    swapped = swap_masks(n).astype(np.intp)
    stacked = np.vstack([a, b])
    items = np.arange(n)
    score_a = drawn_scores(metric, stacked, items + n * swapped)
    score_b = drawn_scores(metric, stacked, items + n * (1 - swapped))
    return score_a, score_b


class TestResult(NamedTuple):
    """A test statistic (None when the test has none), its p-value and the test's name."""

    statistic: object
    p_value: float
    test: str


def williams_t(r12: float, r13: float, r23: float, n: int) -> float:
    """Williams' t statistic (positive when r12 > r13); needs n > 3.

    Identical systems (r23 = 1, r12 = r13) give 0.0; a zero denominator with a non-zero
    difference (impossible in exact arithmetic) gives an infinite t of the difference's sign.
    """
    # a correlation matrix is positive semi-definite: a negative determinant is rounding noise
    det_r = max(1.0 - r12 * r12 - r13 * r13 - r23 * r23 + 2.0 * r12 * r13 * r23, 0.0)
    numerator = (r12 - r13) * math.sqrt(max((n - 1) * (1.0 + r23), 0.0))
    denominator_sq = 2.0 * ((n - 1) / (n - 3)) * det_r + ((r12 + r13) ** 2 / 4.0) * (1.0 - r23) ** 3
    if denominator_sq <= 0.0:
        return 0.0 if numerator == 0.0 else math.copysign(math.inf, numerator)
    return numerator / math.sqrt(denominator_sq)


#: |r23| within this of 1 means one system is an affine map of the other: the Williams formula
#: would divide rounding noise by rounding noise (r computed in floats is exact to about 1e-15).
AFFINE_TOLERANCE = 1e-12


def pearson_against_zero_t(r: float, n: int) -> float:
    """Pearson's t = r sqrt((n-2)/(1-r^2)) for r against 0 (n - 2 degrees of freedom); |r| = 1
    gives an infinite t of r's sign."""
    if abs(r) >= 1.0:
        return math.copysign(math.inf, r)
    return r * math.sqrt((n - 2) / (1.0 - r * r))


def _williams_statistic(
    r12: float, r13: float, r23: float, n: int, constant_a: bool, constant_b: bool
) -> tuple[float, int]:
    """(t, degrees of freedom) of Williams' test: a degenerate case's (the module docstring), else
    Williams' t with n - 3; t is signed as r12 - r13. Needs n > 3."""
    if r12 == r13:
        return 0.0, n - 3
    if constant_a or constant_b:
        r, sign = (r13, -1.0) if constant_a else (r12, 1.0)
        return sign * pearson_against_zero_t(r, n), n - 2
    if r23 >= 1.0 - AFFINE_TOLERANCE:
        return 0.0, n - 3
    if r23 <= -1.0 + AFFINE_TOLERANCE:
        return pearson_against_zero_t(r12, n), n - 2
    return williams_t(r12, r13, r23, n), n - 3


def williams_test(
    r12: float, r13: float, r23: float, n: int, constant_a: bool = False, constant_b: bool = False
) -> TestResult:
    """Two-sided Williams' test of A (r12 with the gold) against B (r13 with the gold, r23 with A;
    ``constant_a``, ``constant_b``: the system is constant): a degenerate case's (t, degrees of
    freedom), else Williams' t with n - 3, its p never below ``p_floor(n)``."""
    if n <= 3:
        return TestResult(None, 1.0, "williams")
    # imported here: the builder and the programs import this module, and few of them run a test
    from scipy.stats import t as student_t

    t, df = _williams_statistic(r12, r13, r23, n, constant_a, constant_b)
    p = min(max(2.0 * float(student_t.sf(abs(t), df)), p_floor(n)), 1.0)
    return TestResult(t, p, "williams")


TESTS = (WILLIAMS, BOOTSTRAP, WILCOXON, "auto")
#: Each test's proper name, as the ranking tables print it.
TEST_TITLES = {
    WILLIAMS: "Williams' t-test",
    BOOTSTRAP: "paired bootstrap test",
    WILCOXON: "Wilcoxon signed-rank test",
    PERMUTATION: "exact paired permutation test",
}


def oriented_score(metric: Metric, stats: np.ndarray) -> float:
    """The score of full per-item statistics, undefined as 0.0, signed so that higher is better."""
    stats = np.asarray(stats, dtype=float).reshape(len(stats), -1)
    value = float(undefined_as_zero(scores_from_sums(metric, stats.sum(axis=0), len(stats)))[0])
    return value if metric.higher_is_better else -value


#: Two scores closer than this (relative to the larger, at least 1) are equal: their difference is
#: the rounding of two computations of one value (a Pearson r of an affine copy of a system).
EQUAL_SCORES_TOLERANCE = 1e-12


def equal_scores(a: float, b: float) -> bool:
    """Whether two scores are equal to rounding (``EQUAL_SCORES_TOLERANCE``)."""
    return abs(a - b) <= EQUAL_SCORES_TOLERANCE * max(1.0, abs(a), abs(b))


def oriented_difference(metric: Metric, stats_a, stats_b) -> float:
    """A's score minus B's, signed so that positive means A is better; exactly 0.0 when the two
    are equal to rounding (``equal_scores``)."""
    a, b = oriented_score(metric, stats_a), oriented_score(metric, stats_b)
    if equal_scores(a, b):
        return 0.0
    return a - b


def bootstrap_p_value(
    metric: Metric, delta: float, raw_a: np.ndarray, raw_b: np.ndarray, n_differing: int
) -> TestResult:
    """Two-sided paired bootstrap test of A against B (Berg-Kirkpatrick et al. 2012) from both
    systems' scores on the same resamples (``raw_a``, ``raw_b``, NaN = undefined) of a track's
    items, as a ranking computes them once per system for every pair; the systems differ on
    ``n_differing`` of those items (``differing_items``).

    With delta = A - B (oriented so that positive means A is better) and delta_b its resampled
    values, p = (1 + #{|delta_b - delta| >= |delta|}) / (resamples + 1): how often the resampled
    difference strays from the observed one by as much as the observed one strays from zero.
    ``statistic`` is the observed oriented delta.

    Degenerate cases: equal scores (identical systems, or equal to rounding: delta 0) and no
    resamples give p = 1; a delta that every resample reproduces (B's per-item values a constant
    shift of A's on a mean metric) gives the smallest p, 1 / (resamples + 1), or the exact floor
    2 x 0.5^n of the n differing items when that is larger (``p_floor``: 1 on one item). A
    resample on which a score is undefined counts it as 0.0, as scoring does.
    """
    resamples = raw_a.shape[0]
    if delta == 0.0 or resamples < 1:
        return TestResult(delta, 1.0, "bootstrap")
    sign = 1.0 if metric.higher_is_better else -1.0
    deltas = sign * (undefined_as_zero(raw_a) - undefined_as_zero(raw_b))
    extreme = int(np.count_nonzero(np.abs(deltas - delta) >= abs(delta)))
    p = max((1.0 + extreme) / (resamples + 1.0), p_floor(n_differing))
    return TestResult(delta, p, "bootstrap")


def permutation_test(metric: Metric, stats_a, stats_b, swapped=None) -> TestResult:
    """The exact paired permutation test of A against B (``permutation_p_value`` of the items
    ``swapped``, at most ``EXACT_MAX_ITEMS``); ``statistic`` is the observed oriented delta, and
    equal scores (to rounding) give p = 1."""
    delta = oriented_difference(metric, stats_a, stats_b)
    p = 1.0 if delta == 0.0 else permutation_p_value(metric, stats_a, stats_b, swapped)
    return TestResult(delta, p, PERMUTATION)


def per_item_losses(metric: Metric, stats) -> np.ndarray | None:
    """Per-item losses (lower is better) of a metric whose score is a mean of per-item values
    (``Metric.has_item_losses``: accuracy and the six LeWiDi metrics); None for the others."""
    stats = np.asarray(stats, dtype=float)
    if not metric.has_item_losses or stats.ndim != 2 or stats.shape[1] != 1:
        return None
    return stats[:, 0] if not metric.higher_is_better else -stats[:, 0]


def signed_rank_test(losses_a, losses_b) -> TestResult:
    """Wilcoxon's test of A against B (per-item losses on the same n items, lower is better):
    ``TestResult(min(r+, r-), p, "wilcoxon")``.

    The numbers are ``scipy.stats.wilcoxon``'s (two-sided, zero differences dropped, no continuity
    correction, the method scipy picks for the differences). The degenerate cases, which scipy
    refuses or leaves undefined, are stated here: no nonzero difference (no items, identical
    systems, or two constant ones with the same loss: the systems are indistinguishable) gives
    statistic 0 and p = 1; a NaN difference (an undefined loss) gives a NaN statistic and p = 1, as
    does a p-value scipy leaves undefined. Every p is at least the exact floor 2 x 0.5^n of the n
    nonzero differences (``p_floor``), which the normal approximation would undercut: items where
    both losses are equal are dropped by the test and cannot be swapped."""
    diff = np.asarray(losses_a, dtype=float) - np.asarray(losses_b, dtype=float)
    if np.isnan(diff).any():
        return TestResult(float("nan"), 1.0, WILCOXON)
    if not diff.any():
        return TestResult(0.0, 1.0, WILCOXON)
    # imported here: the builder and the programs import this module, and few of them run a test
    from scipy.stats import wilcoxon

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # small-sample notes from scipy are not the user's business
        statistic, p = wilcoxon(diff)
    p = float(p) if np.isfinite(p) else 1.0
    return TestResult(float(statistic), max(p, p_floor(np.count_nonzero(diff))), WILCOXON)


def choose_test(
    metric_name: str, requested: str = "auto", n_items: int | None = None
) -> tuple[str, str | None]:
    """The test to run for a metric on ``n_items`` items (None: any number) and the note to print
    when the requested one does not apply (the paired bootstrap then runs); at most
    ``EXACT_MAX_ITEMS`` items, the exact test."""
    metric = get_metric(metric_name)
    chosen, note = (metric.significance if requested == "auto" else requested), None
    applies = {WILLIAMS: metric.significance == WILLIAMS, WILCOXON: metric.has_item_losses}
    if not applies.get(chosen, True):
        chosen, note = BOOTSTRAP, kit_text(f"ranking/no_{chosen}", metric=metric_name)
    if n_items is None or n_items > EXACT_MAX_ITEMS:
        return chosen, note
    titles = dict(exact=TEST_TITLES[PERMUTATION], asked=TEST_TITLES[chosen])
    note = kit_text("ranking/exact_test", items=n_items, most=EXACT_MAX_ITEMS, **titles)
    return PERMUTATION, note


def shared_resamples(
    metric_name: str, submitted: dict[str, object], resamples: int, seed: int
) -> dict[str, np.ndarray]:
    """Every system's resampled main score on one set of resamples of the track (seeded, so the
    very resamples each pairwise test and interval would draw on its own), summed for all systems
    at once (``bootstrap.systems_bootstrap_scores``). Empty when there is nothing to resample."""
    names = sorted(submitted)
    stats = [np.asarray(submitted[name].stats[metric_name]) for name in names]
    if not names or resamples < 1 or stats[0].ndim == 0 or stats[0].shape[0] < 2:
        return {}
    raws = systems_bootstrap_scores(get_metric(metric_name), stats, resamples, seed)
    return dict(zip(names, raws))


class TrackTests:
    """The paired tests between one track's systems (name -> ``scoring.TrackResult``) with ``test``
    on ``metric_name``. A paired bootstrap reads the track's shared resamples (``raws``, from
    ``shared_resamples``); the exact test never does."""

    def __init__(self, test: str, metric_name: str, submitted: dict[str, object], raws):
        self.test, self.metric_name, self.metric = test, metric_name, get_metric(metric_name)
        self.submitted, self.raws = submitted, raws
        #: (leader, other) -> the result of each pair tested so far
        self.done: dict[tuple[str, str], TestResult] = {}

    def pair(self, leader: str, other: str) -> TestResult:
        """The test of ``leader`` against ``other`` (``run_pair``), kept in ``done``."""
        self.done[leader, other] = self.run_pair(leader, other)
        return self.done[leader, other]

    def swapped(self, one: str, other: str) -> np.ndarray:
        """The items where the two systems differ (``differing_items``): by their per-item
        statistics, or by their predictions for a metric scored from drawn items (a correlation,
        whose statistics are relative to each system's own series)."""
        a, b = self.submitted[one], self.submitted[other]
        if self.metric.from_draws is None:
            return differing_items(a.stats[self.metric_name], b.stats[self.metric_name])
        scored = a.gold.scored
        return differing_items(a.prediction.values[scored], b.prediction.values[scored])

    def differing(self, one: str, other: str) -> int:
        """How many items the two systems differ on (``swapped``)."""
        return self.swapped(one, other).size

    def run_pair(self, leader: str, other: str) -> TestResult:
        """The test of ``leader`` against ``other`` (statistic oriented as leader - other): the
        exact test when they differ on at most ``EXACT_MAX_ITEMS`` items (``differing_items``),
        whatever the track's test, but for a metric scored from drawn items (a correlation), whose
        test keeps its p floored by those items."""
        a, b = self.submitted[leader], self.submitted[other]
        stats_a, stats_b = a.stats[self.metric_name], b.stats[self.metric_name]
        swapped = self.swapped(leader, other)
        differing = swapped.size
        # a correlation's rows are relative to each system's own series: swapping some items
        # but not the others would mix two centrings, so its pairs are swapped whole or not at all
        by_item = self.metric.from_draws is None
        if self.test == PERMUTATION or (by_item and differing <= EXACT_MAX_ITEMS):
            return permutation_test(self.metric, stats_a, stats_b, swapped)
        if self.test == WILLIAMS:  # its p no lower than the differing items allow either
            statistic, p, test = pearson_test(self.metric, a, b)
            return TestResult(statistic, max(p, p_floor(differing)), test)
        if self.test == WILCOXON:
            losses = per_item_losses(self.metric, stats_a), per_item_losses(self.metric, stats_b)
            return signed_rank_test(*losses)
        delta = oriented_difference(self.metric, stats_a, stats_b)
        none = np.zeros(0)  # no resamples: p = 1
        raws = self.raws.get(leader, none), self.raws.get(other, none)
        return bootstrap_p_value(self.metric, delta, *raws, differing)


def pearson_test(pearson: Metric, a, b) -> TestResult:
    """Williams' test of two systems' track results on the scored items, each Pearson r computed
    by the track's metric whose significance test is Williams' (0.0 when undefined)."""
    scored = a.gold.scored
    gold, x, y = a.gold.gold[scored], a.prediction.values[scored], b.prediction.values[scored]
    r12, r13, r23 = (pearson.score(*pair).value for pair in ((gold, x), (gold, y), (x, y)))
    return williams_test(r12, r13, r23, len(gold), _constant(x), _constant(y))


def _constant(values: np.ndarray) -> bool:
    """Every value equal: Pearson r with the series is undefined."""
    return not np.any(values != values[:1])
