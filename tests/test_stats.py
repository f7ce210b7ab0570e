"""Bootstrap intervals, Williams' test, paired tests and the page's aggregates (codajudge.stats).

Expected values are worked out here independently: Williams' t by hand from the formula in
metrics.md §7, intervals by a plain Python loop over the documented resampling procedure.
"""

import math
import warnings
from types import SimpleNamespace

import numpy as np
import pytest
from scipy import stats as sps

from codajudge.metrics import get as get_metric
from codajudge.stats.bootstrap import signature_text, track_intervals
from codajudge.stats.bootstrap import bootstrap_scores, percentile_interval, resample_draws
from codajudge.stats.bootstrap import CHUNK_BYTES, chunk_rows, systems_bootstrap_scores
from codajudge.stats.paired import (
    bootstrap_p_value,
    oriented_difference,
    choose_test,
    differing_items,
    per_item_losses,
    permutation_test,
    signed_rank_test,
)
from codajudge.stats.paired import EXACT_MAX_ITEMS, p_floor, permutation_p_value, swap_masks
from codajudge.stats.summaries import confusion_counts, group_scores, mean_distributions
from codajudge.stats.paired import williams_t, williams_test


def interval(metric, stats, value, resamples, seed):
    """One score's percentile interval on its own resamples (``track_intervals`` shares them)."""
    (raw,) = bootstrap_scores([(metric, stats)], resamples, seed)
    return percentile_interval(raw, value)


def paired_bootstrap(metric, stats_a, stats_b, resamples, seed):
    """The paired bootstrap test of two systems on their own resamples (a ranking shares them)."""
    raw_a, raw_b = bootstrap_scores([(metric, stats_a), (metric, stats_b)], resamples, seed)
    delta = oriented_difference(metric, stats_a, stats_b)
    differing = differing_items(stats_a, stats_b).size
    return bootstrap_p_value(metric, delta, raw_a, raw_b, differing)


def resample_counts(n_items, resamples, seed):
    """The draws of ``resample_draws``, counted per item: the weights of one resample's sums."""
    for index in resample_draws(n_items, resamples, seed):
        yield np.stack([np.bincount(row, minlength=n_items) for row in index]).astype(float)


def pearson_or_zero(x, y) -> float:
    """Pearson r as scoring reports it: 0.0 when undefined (a constant series)."""
    return float(get_metric("pearson").score(np.asarray(x, float), np.asarray(y, float)).value)


def is_constant(values) -> bool:
    values = np.asarray(values, dtype=float)
    return values.size == 0 or bool(np.all(values == values.flat[0]))


def compare_pearson(gold, pred_a, pred_b):
    """Williams' test of one pair from its data, each r computed on its own as scoring does: the
    reference the ranking's test of two track results (``paired.pearson_test``) must give bit for bit."""
    gold = np.asarray(gold, dtype=float)
    r12, r13 = pearson_or_zero(gold, pred_a), pearson_or_zero(gold, pred_b)
    r23 = pearson_or_zero(pred_a, pred_b)
    constant_a, constant_b = is_constant(pred_a), is_constant(pred_b)
    return williams_test(r12, r13, r23, int(gold.size), constant_a, constant_b)


wilcoxon_test = signed_rank_test


# --- resampling -------------------------------------------------------------------------------


def test_resample_counts_are_draws_with_replacement():
    chunks = list(resample_counts(37, 250, seed=3))
    counts = np.vstack(chunks)
    assert counts.shape == (250, 37)
    assert np.all(counts.sum(axis=1) == 37)
    assert np.all(counts >= 0) and np.all(counts == np.round(counts))
    # each item is drawn once per resample on average
    assert abs(counts.mean() - 1.0) < 1e-12
    assert 0.8 < counts.var() < 1.2  # multinomial(37, 1/37) variance ~ 1 - 1/37


def test_resample_counts_match_documented_procedure():
    """Index sampling with default_rng(seed).integers(0, N) in chunks: anyone can redo it."""
    n, b, seed = 50, 120, 11
    rng = np.random.default_rng(seed)
    index = rng.integers(0, n, size=(b, n))  # one chunk, as chunk_rows(50, 120) == 120
    assert chunk_rows(n, b) == b
    expected = np.stack([np.bincount(row, minlength=n) for row in index])
    assert np.array_equal(np.vstack(list(resample_counts(n, b, seed))), expected)


def test_chunks_stay_within_the_memory_budget():
    rows = chunk_rows(100_000, 1000)
    assert 1 <= rows and rows * 100_000 * 8 <= CHUNK_BYTES
    assert chunk_rows(10_000_000, 1000) == 1


def test_pearson_interval_matches_a_plain_loop_over_the_same_resamples():
    rng = np.random.default_rng(0)
    gold = rng.uniform(0, 5, 250)
    pred = gold + rng.normal(0, 1.2, 250)
    metric = get_metric("pearson")
    value = metric.score(gold, pred)
    found = interval(metric, value.stats, value.value, resamples=400, seed=99)
    draws = np.random.default_rng(99).integers(0, 250, size=(400, 250))
    loop = [sps.pearsonr(gold[i], pred[i])[0] for i in draws]
    low, high = np.percentile(loop, [2.5, 97.5])
    assert found.low == pytest.approx(low, abs=1e-9)
    assert found.high == pytest.approx(high, abs=1e-9)
    assert found.low < value.value < found.high


def exact_pearson(x, y) -> float:
    """Pearson r of two float series in exact rational arithmetic (0.0 for a constant series)."""
    from fractions import Fraction

    xs, ys = [Fraction(v) for v in x], [Fraction(v) for v in y]
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    cxx = sum((a - mean_x) ** 2 for a in xs)
    cyy = sum((b - mean_y) ** 2 for b in ys)
    cxy = sum((a - mean_x) * (b - mean_y) for a, b in zip(xs, ys))
    if cxx == 0 or cyy == 0:
        return 0.0
    return math.copysign(math.sqrt(float(cxy * cxy / (cxx * cyy))), 1 if cxy >= 0 else -1)


@pytest.mark.parametrize("outlier", [1e10, 1e200, 1e308])
def test_an_outlier_prediction_leaves_every_resample_its_own_r(outlier):
    """Each resample's r is that of its own drawn values, in exact arithmetic, also where an
    outlier far from the other predictions is not drawn (moments centred on the whole track would
    cancel there and read as a constant series); the ranking's shared resamples agree."""
    rng = np.random.default_rng(3)
    gold = rng.uniform(0, 5, 24).round(1)
    pred = gold + rng.normal(0, 2, 24)
    pred[0] = outlier
    metric = get_metric("pearson")
    stats = metric.score(gold, pred).stats
    (found,) = bootstrap_scores([(metric, stats)], 200, seed=12345)
    draws = np.random.default_rng(12345).integers(0, 24, size=(200, 24))
    exact = [exact_pearson(pred[i], gold[i]) for i in draws]
    assert found == pytest.approx(exact, abs=1e-12)
    other = metric.score(gold, gold + rng.normal(size=24)).stats
    shared = systems_bootstrap_scores(metric, [stats, other], 200, 12345)[0]
    assert shared == pytest.approx(found, abs=1e-12)


def test_spearman_interval_reranks_each_resample():
    """Each resample's rho is scipy's ``spearmanr`` of its own drawn items (ties included), not
    Pearson r of the whole track's ranks."""
    rng = np.random.default_rng(1)
    gold = rng.integers(0, 6, 60).astype(float)
    pred = gold + rng.normal(0, 2, 60)
    pred[:5] = pred[5]
    metric = get_metric("spearman")
    value = metric.score(gold, pred)
    (found,) = bootstrap_scores([(metric, value.stats)], 300, seed=5)
    draws = np.random.default_rng(5).integers(0, 60, size=(300, 60))
    loop = [sps.spearmanr(gold[i], pred[i])[0] for i in draws]
    assert found == pytest.approx(loop, abs=1e-12)


def test_mean_metric_interval_agrees_with_normal_theory():
    rng = np.random.default_rng(5)
    losses = rng.exponential(0.4, 3000)
    metric = get_metric("error_rate")  # a plain mean of per-item values
    found = interval(metric, losses[:, None], float(losses.mean()), resamples=2000, seed=1)
    se = losses.std(ddof=1) / math.sqrt(losses.size)
    assert found.low == pytest.approx(losses.mean() - 1.96 * se, abs=0.2 * se)
    assert found.high == pytest.approx(losses.mean() + 1.96 * se, abs=0.2 * se)


def test_same_seed_same_interval_other_seed_other_interval():
    rng = np.random.default_rng(1)
    gold, pred = rng.integers(0, 3, 500), rng.integers(0, 3, 500)
    metric = get_metric("macro_f1")
    stats = metric.score(gold, pred).stats
    a = interval(metric, stats, 0.3, 300, seed=7)
    b = interval(metric, stats, 0.3, 300, seed=7)
    c = interval(metric, stats, 0.3, 300, seed=8)
    assert a == b and repr(a) == repr(b)
    assert (a.low, a.high) != (c.low, c.high)


def test_undefined_resamples_count_as_zero():
    metric = get_metric("pearson")
    gold = np.arange(20, dtype=float)
    value = metric.score(gold, np.full(20, 2.5))  # constant predictions: undefined everywhere
    found = interval(metric, value.stats, value.value, 100, seed=1)
    assert found.low == 0.0 and found.high == 0.0


def test_track_intervals_share_resamples_and_skip_tiny_tracks():
    rng = np.random.default_rng(2)
    gold = rng.normal(size=80)
    pred = gold + rng.normal(size=80)
    stats = {m: get_metric(m).score(gold, pred).stats for m in ("pearson", "spearman")}
    scores = {m: float(get_metric(m).score(gold, pred).value) for m in stats}
    tr = SimpleNamespace(stats=stats, scores=scores)
    both = track_intervals(tr, 200, seed=4)
    alone = interval(get_metric("spearman"), stats["spearman"], scores["spearman"], 200, seed=4)
    assert set(both) == {"pearson", "spearman"} and both["spearman"] == alone
    tiny = SimpleNamespace(stats={"pearson": stats["pearson"][:1]}, scores={"pearson": 0.0})
    assert track_intervals(tiny, 200, 4) == {}
    assert track_intervals(tr, 0, 4) == {}


def test_thousand_resamples_of_100k_items_match_fishers_interval():
    """Speed is the benchmark's business (benchmarks/run.py: bootstrap case), not a timed test."""
    rng = np.random.default_rng(0)
    gold = rng.normal(size=100_000)
    pred = gold + rng.normal(size=100_000)
    metric = get_metric("pearson")
    value = metric.score(gold, pred)
    found = interval(metric, value.stats, value.value, 1000, seed=1)
    se = (1 - value.value**2) / math.sqrt(100_000)  # Fisher's approximation of r's standard error
    assert found.high - found.low == pytest.approx(2 * 1.96 * se, rel=0.15)


def test_signature_names_version_resamples_seed_and_level():
    from codajudge import __version__

    assert (
        signature_text(1000, 12345) == f"codajudge {__version__}|bootstrap 1000|seed 12345|ci 95%"
    )
    assert signature_text(200, 1, test="williams", alpha=0.05).endswith("|test williams|alpha 0.05")


# --- Williams' test -----------------------------------------------------------------------------


def test_williams_t_worked_by_hand():
    # r12 = .6, r13 = .4, r23 = .5, n = 50:
    # |R| = 1 - .36 - .16 - .25 + 2(.6)(.4)(.5) = .47
    # numerator^2 = (.2)^2 (49)(1.5) = 2.94; denominator^2 = 2 (49/47)(.47) + (1^2/4)(.5)^3 = .98 + .03125
    assert williams_t(0.6, 0.4, 0.5, 50) == pytest.approx(math.sqrt(2.94 / 1.01125), rel=1e-12)
    # r12 = .3, r13 = .5, r23 = .2, n = 30: |R| = 1 - .09 - .25 - .04 + .06 = .68
    # numerator^2 = (.2)^2 (29)(1.2) = 1.392; denominator^2 = 2 (29/27)(.68) + (.8^2/4)(.8)^3
    expected = -math.sqrt(1.392 / (2 * 29 / 27 * 0.68 + 0.16 * 0.512))
    assert williams_t(0.3, 0.5, 0.2, 30) == pytest.approx(expected, rel=1e-12)
    assert williams_t(0.7, 0.7, 0.3, 40) == 0.0


def test_williams_p_values_use_t_with_n_minus_3_degrees_of_freedom():
    t = math.sqrt(2.94 / 1.01125)
    assert williams_test(0.6, 0.4, 0.5, 50).p_value == pytest.approx(2 * sps.t.sf(t, 47), rel=1e-10)
    assert williams_test(0.6, 0.4, 0.5, 3).p_value == 1.0
    # swapping the systems flips t and keeps the two-sided p
    assert williams_test(0.4, 0.6, 0.5, 50).statistic == pytest.approx(-t)
    assert williams_test(0.4, 0.6, 0.5, 50).p_value == pytest.approx(
        williams_test(0.6, 0.4, 0.5, 50).p_value
    )


def test_compare_pearson_reads_the_three_correlations_from_data():
    rng = np.random.default_rng(8)
    gold = rng.normal(size=60)
    a, b = gold + rng.normal(size=60), gold + rng.normal(0, 2, 60)
    r = np.corrcoef([gold, a, b])
    found = compare_pearson(gold, a, b)
    assert found.statistic == pytest.approx(williams_t(r[0, 1], r[0, 2], r[1, 2], 60), rel=1e-9)
    assert compare_pearson(gold, a, a).p_value == 1.0


# Degenerate cases (issue 22 item 9): the expected p-values are scipy's Pearson test of r against 0.


def _system_with_r91(n=200, seed=91):
    """A gold and a system whose Pearson r with it is about 0.91."""
    rng = np.random.default_rng(seed)
    gold = rng.normal(size=n)
    return gold, gold + rng.normal(0, 0.45, n)


def test_williams_exact_negation_of_a_system_differs_as_its_r_differs_from_zero():
    gold, best = _system_with_r91()
    r12, expected_p = sps.pearsonr(gold, best)
    assert r12 > 0.9
    found = compare_pearson(gold, best, -best)  # r23 = -1: r13 = -r12
    assert found.p_value == pytest.approx(2 * sps.t.sf(abs(found.statistic), len(gold) - 2))
    floor = p_floor(len(gold))  # 2 x 0.5^200: the t distribution alone would say 4.6e-79
    assert found.p_value == pytest.approx(max(expected_p, floor), rel=1e-6)
    assert floor == found.p_value < 1e-50
    assert found.statistic > 0 and compare_pearson(gold, -best, best).statistic < 0
    unrelated = np.random.default_rng(5).normal(size=len(gold))  # r12 near 0: no difference
    r_unrelated, p_unrelated = sps.pearsonr(gold, unrelated)
    assert compare_pearson(gold, unrelated, -unrelated).p_value == pytest.approx(p_unrelated)


def test_williams_given_r23_of_minus_one_tests_r12_against_zero():
    t = 0.5 * math.sqrt(28 / 0.75)  # r = .5, n = 30: Pearson's t with 28 degrees of freedom
    assert williams_test(0.5, -0.5, -1.0, 30).statistic == pytest.approx(t)
    assert williams_test(0.5, -0.5, -1.0, 30).p_value == pytest.approx(2 * sps.t.sf(t, 28))
    perfect = williams_test(1.0, -1.0, -1.0, 30)  # a perfect system and its negation: t infinite
    assert perfect.p_value == p_floor(30) == 2 * 0.5**30  # no paired test on 30 items says more


def test_williams_affine_copies_are_ties():
    gold, best = _system_with_r91()
    for copy in (2.0 * best + 1.0, 3.3 * best + 0.1, 7.0 * best - 2.0):
        found = compare_pearson(gold, best, copy)
        assert found.p_value == 1.0 and found.statistic == 0.0
    assert williams_test(0.8, 0.8 + 1e-15, 1.0, 100).p_value == 1.0


def test_williams_constant_systems_and_gold():
    gold, best = _system_with_r91(n=40)
    constant = np.full(len(gold), 2.5)
    _, expected_p = sps.pearsonr(gold, best)
    found = compare_pearson(gold, best, constant)  # a constant's r is 0 on every sample
    assert found.p_value == pytest.approx(expected_p, rel=1e-6) and found.statistic > 0
    assert compare_pearson(gold, constant, best).statistic == pytest.approx(-found.statistic)
    assert compare_pearson(gold, constant, constant + 1.0).p_value == 1.0
    assert compare_pearson(np.full(len(gold), 3.0), best, -best).p_value == 1.0  # every r is 0
    assert compare_pearson(gold[:3], best[:3], -best[:3]).p_value == 1.0  # n <= 3: no test


def _williams_rejection_rate(noise_a, noise_b, sims=2000, n=50, seed=2017):
    rng = np.random.default_rng(seed)
    rejected = 0
    for _ in range(sims):
        gold = rng.normal(size=n)
        a = gold + rng.normal(0, noise_a, n)
        b = gold + rng.normal(0, noise_b, n)
        r = np.corrcoef([gold, a, b])
        rejected += williams_test(r[0, 1], r[0, 2], r[1, 2], n).p_value < 0.05
    return rejected / sims


def test_williams_false_positive_rate_is_near_nominal():
    rate = _williams_rejection_rate(1.0, 1.0)
    assert 0.035 <= rate <= 0.065, rate


def test_williams_detects_a_real_difference():
    assert _williams_rejection_rate(0.5, 1.5, sims=300) > 0.8


# --- paired bootstrap and Wilcoxon ---------------------------------------------------------------


def test_paired_bootstrap_identical_and_clearly_different_systems():
    rng = np.random.default_rng(4)
    gold = rng.integers(0, 3, 400)
    good = np.where(rng.random(400) < 0.8, gold, (gold + 1) % 3)
    bad = np.where(rng.random(400) < 0.4, gold, (gold + 1) % 3)
    metric = get_metric("accuracy")
    s_good, s_bad = metric.score(gold, good).stats, metric.score(gold, bad).stats
    assert paired_bootstrap(metric, s_good, s_good, 500, 1).p_value == 1.0
    found = paired_bootstrap(metric, s_good, s_bad, 500, 1)
    assert found.p_value == pytest.approx(1 / 501)
    assert found.statistic == pytest.approx(good.__eq__(gold).mean() - bad.__eq__(gold).mean())


def test_paired_bootstrap_degenerate_cases():
    gold, best = _system_with_r91()
    metric = get_metric("pearson")
    stats = metric.item_stats(gold, best)
    copy = metric.item_stats(gold, 3.3 * best + 0.1)  # the same r, computed with other rounding
    found = paired_bootstrap(metric, stats, copy, 300, 1)
    assert found.p_value == 1.0 and found.statistic == 0.0
    constant = metric.item_stats(gold, np.full(len(gold), 1.0))  # r undefined, scored 0
    assert paired_bootstrap(metric, stats, constant, 300, 1).p_value == pytest.approx(1 / 301)
    assert paired_bootstrap(metric, constant, constant, 300, 1).p_value == 1.0
    assert paired_bootstrap(metric, stats, constant, 0, 1).p_value == 1.0  # no resamples: no test
    shifted = get_metric("error_rate")  # B's every loss A's plus 0.1: every resample says so
    low = np.random.default_rng(2).random((80, 1)) * 0.5
    assert paired_bootstrap(shifted, low, low + 0.1, 200, 1).p_value == pytest.approx(1 / 201)


def test_paired_bootstrap_orients_lower_is_better_metrics():
    metric = get_metric("error_rate")
    low, high = np.full((100, 1), 0.1), np.full((100, 1), 0.3)
    low[::7] = 0.5
    assert paired_bootstrap(metric, low, high, 200, 1).statistic > 0  # A (lower error) is better


def test_paired_bootstrap_false_positive_rate_is_moderate():
    rng = np.random.default_rng(6)
    metric = get_metric("accuracy")
    rejected = 0
    sims = 300
    for k in range(sims):
        a = (rng.random(150) < 0.7).astype(float)[:, None]
        b = (rng.random(150) < 0.7).astype(float)[:, None]
        rejected += paired_bootstrap(metric, a, b, 300, k).p_value < 0.05
    assert 0.01 <= rejected / sims <= 0.10


def test_wilcoxon_exact_p_value_worked_by_hand():
    # 8 positive differences, no ties: the exact two-sided p is 2 / 2^8
    found = wilcoxon_test(np.arange(1, 9, dtype=float) + 10, np.full(8, 10.0))
    assert found.p_value == pytest.approx(2 / 256)


def test_wilcoxon_all_zero_differences_mean_no_difference():
    losses = np.array([0.1, 0.2, 0.3])
    assert wilcoxon_test(losses, losses.copy()).p_value == 1.0
    assert wilcoxon_test(np.zeros(0), np.zeros(0)).p_value == 1.0


def test_wilcoxon_degenerate_cases():
    assert wilcoxon_test(np.full(60, 0.3), np.full(60, 0.3)).p_value == 1.0  # constant, equal
    one = np.zeros(60)
    one[7] = 0.5  # one nonzero difference, with zeros: scipy's numbers, whichever method it picks
    # (up to 50 items scipy 1.17 gives the exact p = 1, scipy 1.11 its z: p = 0.317, floored to 1)
    few = wilcoxon_test(one[:10], np.zeros(10))
    assert (few.statistic, few.p_value) == _scipy_wilcoxon(one[:10], np.zeros(10))
    found = wilcoxon_test(one, np.zeros(60))
    # one item differs: no test can say anything (p_floor(1) = 1, not scipy 1.11's z: p = 0.317)
    assert (found.statistic, found.p_value) == (_scipy_wilcoxon(one, np.zeros(60))[0], 1.0)
    for n in (20, 200):  # a constant shift: every difference the same; scipy's numbers
        shift = wilcoxon_test(np.full(n, 0.4), np.full(n, 0.1))
        assert (shift.statistic, shift.p_value) == _scipy_wilcoxon(np.full(n, 0.4), np.full(n, 0.1))
        assert shift.p_value < 1e-4


def _scipy_wilcoxon(a, b):
    """scipy's statistic and p-value, the p no lower than the exact floor of the k nonzero
    differences (scipy 1.11 gives its normal approximation wherever a difference is zero)."""
    diff = a - b
    if not np.any(diff != 0):
        return 0.0, 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = sps.wilcoxon(diff, zero_method="wilcox", alternative="two-sided")
    return float(result.statistic), max(float(result.pvalue), p_floor(np.count_nonzero(diff)))


@pytest.mark.parametrize("n", [8, 50, 51, 52, 300, 4000])
@pytest.mark.parametrize("values", ["continuous", "tenths", "few_levels", "zero_one"])
def test_wilcoxon_is_scipys_test_bit_for_bit(n, values):
    """The statistic and p-value of scipy.stats.wilcoxon on each pair's differences (ties, zero
    differences and identical systems included), with whatever method scipy picks for them."""
    rng = np.random.default_rng(n)
    losses = {
        "continuous": lambda: rng.random((7, n)),
        "tenths": lambda: np.round(rng.random((7, n)), 1),
        "few_levels": lambda: rng.integers(0, 3, (7, n)) / 10,
        "zero_one": lambda: rng.integers(0, 2, (7, n)) * 1.0,
    }[values]()
    losses[3] = losses[0]  # an identical system: p = 1
    losses[4, : n // 2] = losses[0, : n // 2]  # half the items equal: many zero differences
    found = [signed_rank_test(losses[0], other) for other in losses[1:]]
    for other, result in zip(losses[1:], found):
        assert (result.statistic, result.p_value) == _scipy_wilcoxon(losses[0], other)
        assert result.test == "wilcoxon"
    assert (found[2].statistic, found[2].p_value) == (0.0, 1.0)


def test_wilcoxon_with_a_nan_loss_is_scipys_answer():
    rng = np.random.default_rng(3)
    a, b = rng.random(80), rng.random(80)
    a[5] = np.nan
    assert wilcoxon_test(a, b).p_value == 1.0  # scipy's NaN p-value: no evidence of a difference
    nan_pair, equal_pair, tested = (signed_rank_test(b, other) for other in (a, b.copy(), b[::-1]))
    assert np.isnan(nan_pair.statistic) and nan_pair.p_value == 1.0
    assert (equal_pair.statistic, equal_pair.p_value) == (0.0, 1.0)
    assert (tested.statistic, tested.p_value) == _scipy_wilcoxon(b, b[::-1])


def test_per_item_losses_and_test_choice():
    stats = np.array([[1.0], [0.0]])
    assert per_item_losses(get_metric("accuracy"), stats).tolist() == [-1.0, 0.0]
    assert per_item_losses(get_metric("amd"), stats).tolist() == [1.0, 0.0]
    assert per_item_losses(get_metric("pearson"), np.zeros((2, 5))) is None
    assert choose_test("pearson") == ("williams", None)
    assert choose_test("anad") == ("wilcoxon", None)
    assert choose_test("accuracy") == ("bootstrap", None)
    assert choose_test("macro_f1", "wilcoxon")[0] == "bootstrap"
    assert choose_test("amd", "williams")[0] == "bootstrap"
    assert choose_test("spearman", "bootstrap") == ("bootstrap", None)


# --- aggregates for the detailed results page ----------------------------------------------------


def test_confusion_mean_distributions_and_group_scores():
    gold = np.array([0, 0, 1, 2, 2, 2])
    pred = np.array([0, 1, 1, 2, 0, 2])
    assert confusion_counts(gold, pred, 3).tolist() == [[1, 1, 0], [0, 1, 0], [1, 0, 2]]
    soft_gold = np.array([[1.0, 0.0], [0.5, 0.5]])
    soft_pred = np.array([[0.25, 0.75], [0.75, 0.25]])
    g, p = mean_distributions(soft_gold, soft_pred)
    assert g.tolist() == [0.75, 0.25] and p.tolist() == [0.5, 0.5]
    metric = get_metric("accuracy")
    stats = metric.score(gold, pred).stats
    groups = ["en", "en", "es", "es", "es", "en"]
    found = group_scores(metric, stats, groups)
    assert found == [("en", 3, pytest.approx(2 / 3)), ("es", 3, pytest.approx(2 / 3))]
    undefined = group_scores(
        get_metric("pearson"),
        get_metric("pearson")
        .score(np.array([1.0, 2.0, 3.0, 4.0]), np.array([1.0, 1.0, 2.0, 3.0]))
        .stats,
        ["a", "a", "b", "b"],
    )
    assert undefined[0] == ("a", 2, None) and undefined[1][2] == pytest.approx(1.0)


# --- the exact small-sample floor and the exact permutation test (issue 34 item 10) ---------------


def test_no_paired_test_reports_a_p_below_the_exact_floor():
    """One system better on every item: the exact sign test's 2 x 0.5^n is the smallest p any
    paired test on n items may report (on one item the bootstrap said 1 / 1001)."""
    accuracy = get_metric("accuracy")
    for n in range(1, 15):
        right, wrong = np.ones((n, 1)), np.zeros((n, 1))
        floor = 2 * 0.5**n
        assert p_floor(n) == min(1.0, floor)
        assert paired_bootstrap(accuracy, right, wrong, 1000, 1).p_value == max(1 / 1001, floor)
        assert wilcoxon_test(wrong[:, 0], right[:, 0]).p_value >= floor
        gold = np.arange(n, dtype=float)
        assert compare_pearson(gold, gold, -gold).p_value >= floor  # r 1 against -1
    assert williams_test(0.99, 0.1, 0.1, 5).p_value >= p_floor(5)


def test_exact_permutation_test_is_the_sign_test_on_wins_and_losses():
    accuracy = get_metric("accuracy")
    for n in range(1, EXACT_MAX_ITEMS + 1):
        right, wrong = np.ones((n, 1)), np.zeros((n, 1))
        found = permutation_test(accuracy, right, wrong)
        assert (found.p_value, found.test, found.statistic) == (2 * 0.5**n, "permutation", 1.0)
        tied = wrong.copy()
        tied[0] = 1.0  # one item both systems get right: swapping it changes nothing
        assert permutation_test(accuracy, right, tied).p_value == min(1.0, 2 * 0.5 ** (n - 1))
    assert permutation_test(accuracy, np.ones((4, 1)), np.ones((4, 1))).p_value == 1.0
    assert swap_masks(2).tolist() == [[0, 0], [1, 0], [0, 1], [1, 1]]
    with pytest.raises(ValueError):
        permutation_p_value(accuracy, np.ones((13, 1)), np.zeros((13, 1)))


def _differing_pair(n_items, n_differing):
    """Two systems' per-item error rates on ``n_items`` items: A right everywhere, B wrong on one
    of five annotators of its first ``n_differing`` items (a trial's perspectivist track)."""
    b = np.zeros((n_items, 1))
    b[:n_differing] = 0.2
    track = SimpleNamespace(stats={"error_rate": np.zeros((n_items, 1))}, scores={})
    other = SimpleNamespace(stats={"error_rate": b}, scores={})
    return {"alice": track, "bob": other}


@pytest.mark.parametrize("test", ["wilcoxon", "bootstrap", "williams"])
def test_the_floor_and_the_exact_switch_count_only_the_items_where_two_systems_differ(test):
    """Two systems differing on 5 of 24 items: only those 5 can be swapped, so no exact two-sided
    test goes below 2 x 0.5^5 = 0.0625 (the normal approximation said 0.0422, the bootstrap
    0.0140, each a significant difference); the pair gets the exact test, as a track of 5 items."""
    from codajudge.stats.paired import TrackTests, shared_resamples

    systems = _differing_pair(24, 5)
    stats = [s.stats["error_rate"] for s in systems.values()]
    assert differing_items(*stats).tolist() == [0, 1, 2, 3, 4]
    raws = shared_resamples("error_rate", systems, 1000, 1)
    found = TrackTests(test, "error_rate", systems, raws).pair("alice", "bob")
    assert (found.test, found.p_value) == ("permutation", 0.0625)
    assert found.p_value == sps.binomtest(0, 5).pvalue == p_floor(5)
    # 13 differing items: the track's test, its floor that of the 13
    systems = _differing_pair(24, 13)
    found = TrackTests("wilcoxon", "error_rate", systems, {}).pair("alice", "bob")
    assert found.test == "wilcoxon" and found.p_value >= p_floor(13)
    losses = [s.stats["error_rate"][:, 0] for s in _differing_pair(24, 5).values()]
    assert signed_rank_test(*losses).p_value == 0.0625  # scipy's normal approximation: 0.0422
    raw_a = np.full(1000, 0.5)  # every resample reproduces A's lower error: p 1/1001 but for 5
    found = bootstrap_p_value(get_metric("error_rate"), 0.5, raw_a, raw_a + 0.5, 5)
    assert found.p_value == 0.0625


@pytest.mark.parametrize("metric_name", ["macro_f1", "amd"])
def test_exact_permutation_test_counts_every_swap_of_the_predictions(metric_name):
    """The p-value from swapped sums equals swapping the two systems' predictions item by item and
    scoring each arrangement from scratch, over all 2^n arrangements."""
    import itertools

    rng = np.random.default_rng(34)
    metric, n = get_metric(metric_name), 9
    if metric_name == "macro_f1":
        gold, a, b = (rng.integers(0, 3, n) for _ in range(3))
    else:
        gold, a, b = (rng.dirichlet(np.ones(3), n) for _ in range(3))
    observed = abs(metric.score(gold, a).value - metric.score(gold, b).value)
    extreme = 0
    for swap in itertools.product([False, True], repeat=n):
        mask = np.array(swap).reshape((n,) + (1,) * (a.ndim - 1))
        a2, b2 = np.where(mask, b, a), np.where(mask, a, b)
        delta = abs(metric.score(gold, a2).value - metric.score(gold, b2).value)
        extreme += delta >= observed - 1e-9 * max(1.0, observed)
    stats_a, stats_b = metric.score(gold, a).stats, metric.score(gold, b).stats
    assert permutation_p_value(metric, stats_a, stats_b) == extreme / 2**n
    assert permutation_test(metric, stats_a, stats_b).p_value == extreme / 2**n


def z_scored(values) -> np.ndarray:
    return (values - values.mean()) / values.std()


@pytest.mark.parametrize("outlier", [None, 1e3, 1e6])
def test_exact_permutation_test_of_pearson_swaps_standardised_predictions(outlier):
    """Each arrangement mixes the two systems' predictions standardised over the track (mean 0,
    standard deviation 1) and its r is scipy's on the mixed values, whatever scale each system
    predicts on or an outlier among its predictions; so a system and 2p + 1 tie with any other."""
    import itertools

    rng = np.random.default_rng(8)
    metric, n = get_metric("pearson"), 8
    gold = np.array([4.8, 2.2, 0.8, 2.2, 3.6, 5.0, 1.2, 0.4])
    a = gold + rng.normal(0, 1.0, n)
    b = 40 * (gold + rng.normal(0, 2.0, n)) - 7
    if outlier is not None:
        b[3] = outlier
    score_a, score_b = (sps.pearsonr(gold, v)[0] for v in (a, b))
    observed = abs(score_a - score_b)
    extreme = 0
    for swap in itertools.product([False, True], repeat=n):
        mask = np.array(swap)
        a2 = np.where(mask, z_scored(b), z_scored(a))
        b2 = np.where(mask, z_scored(a), z_scored(b))
        delta = abs(sps.pearsonr(gold, a2)[0] - sps.pearsonr(gold, b2)[0])
        extreme += delta >= observed - 1e-9 * max(1.0, observed)
    stats_a, stats_b = metric.score(gold, a).stats, metric.score(gold, b).stats
    found = permutation_p_value(metric, stats_a, stats_b)
    assert found == max(extreme / 2**n, p_floor(n))
    rescaled = metric.score(gold, 2 * b + 1).stats
    assert permutation_p_value(metric, stats_a, rescaled) == pytest.approx(found, abs=1e-12)


@pytest.mark.parametrize("tied", [False, True])
def test_exact_permutation_test_of_spearman_swaps_the_systems_ranks(tied):
    """Each arrangement mixes the two systems' average ranks and its rho is scipy's on the mixed
    ranks: equal ranks of the two systems stay equal (standardised, they could differ in the last
    bit and be ranked apart), with tied predictions too."""
    import itertools

    gold = np.array([0.2, 1.1, 3.6, 2.2, 4.6, 3.1, 1.3, 1.2, 1.5, 1.1])
    a = np.array([-0.342, 3.011, 4.466, 3.135, 4.657, 3.224, 2.269, -0.198, 0.69, 1.185])
    b = np.array([-2.736, 4.385, 2.35, 1.338, 5.247, 6.117, 1.214, -0.337, -0.368, 1.565])
    if tied:
        a, b = np.round(a), np.round(b)
    metric, n = get_metric("spearman"), len(gold)
    ranks_a, ranks_b = sps.rankdata(a), sps.rankdata(b)
    observed = abs(sps.spearmanr(gold, a)[0] - sps.spearmanr(gold, b)[0])
    extreme = 0
    for swap in itertools.product([False, True], repeat=n):
        mask = np.array(swap)
        mixed_a = np.where(mask, ranks_b, ranks_a)
        mixed_b = np.where(mask, ranks_a, ranks_b)
        delta = abs(sps.spearmanr(gold, mixed_a)[0] - sps.spearmanr(gold, mixed_b)[0])
        extreme += delta >= observed - 1e-9 * max(1.0, observed)
    stats_a, stats_b = metric.score(gold, a).stats, metric.score(gold, b).stats
    assert permutation_p_value(metric, stats_a, stats_b) == max(extreme / 2**n, p_floor(n))


def test_a_few_items_choose_the_exact_test_whatever_was_asked():
    for requested in ("auto", "williams", "bootstrap", "wilcoxon"):
        test, note = choose_test("pearson", requested, EXACT_MAX_ITEMS)
        assert test == "permutation" and f"{EXACT_MAX_ITEMS} items: the exact paired" in note
    assert "replaces the Williams' t-test" in choose_test("pearson", "auto", 5)[1]
    assert choose_test("pearson", "auto", EXACT_MAX_ITEMS + 1) == ("williams", None)
    assert choose_test("amd", "auto", None) == ("wilcoxon", None)


def test_a_correlation_group_score_is_that_of_the_groups_own_values():
    """A group without the track's outlier keeps its own r (moments centred on the whole track
    cancel there), and a group's rho ranks its items within the group, as scipy does on them."""
    rng = np.random.default_rng(3)
    gold = rng.uniform(0, 5, 40)
    pred = gold + rng.normal(0, 1, 40)
    pred[0] = 1e10  # the outlier, in group "a"
    groups = ["a"] * 10 + ["b"] * 30
    b = slice(10, None)
    for name, expected in (
        ("pearson", sps.pearsonr(gold[b], pred[b])[0]),
        ("spearman", sps.spearmanr(gold[b], pred[b])[0]),
    ):
        metric = get_metric(name)
        found = dict(
            (group, score)
            for group, _, score in group_scores(metric, metric.score(gold, pred).stats, groups)
        )
        assert found["b"] == pytest.approx(expected, abs=1e-12), name


def _pearson_systems(changed: dict[str, int], n_items: int = 250):
    """Track results of a Pearson track: 'a' the gold with noise, and for each name of ``changed``
    'a' with that many of its worst predictions set to the gold."""
    rng = np.random.default_rng(17)
    gold = rng.uniform(0, 5, n_items)
    base = gold + rng.normal(0, 1.0, n_items)
    worst = np.argsort(-np.abs(base - gold))
    metric = get_metric("pearson")
    systems = {}
    for name, count in {"a": 0, **changed}.items():
        values = base.copy()
        values[worst[:count]] = gold[worst[:count]]
        systems[name] = SimpleNamespace(
            stats={"pearson": metric.score(gold, values).stats},
            gold=SimpleNamespace(scored=np.ones(n_items, dtype=bool), gold=gold),
            prediction=SimpleNamespace(values=values),
        )
    return systems


def test_pearson_systems_that_differ_on_few_predictions_keep_williams_floored_by_them():
    """A trial's sts2017 systems differing on 4 or 5 of 250 predictions were split by Williams'
    test (p 0.008 and 0.001): a correlation's per-item statistics are relative to each system's
    own series, so every item counted as differing. The items are now those of different
    predictions, and Williams' p is floored by them: 2 x 0.5^5 for 5 (a tie), 2 x 0.5^20 for 20.
    No exact test swaps part of a correlation's rows (each centred on its own system's series: a
    trial's 3 swapped items gave p 3/8, the full swap not mirroring the observation)."""
    from codajudge.stats.paired import TrackTests

    systems = _pearson_systems({"b": 5, "c": 20})
    tests = TrackTests("williams", "pearson", systems, {})
    assert tests.differing("b", "a") == 5 and tests.differing("c", "a") == 20
    few = tests.pair("b", "a")
    assert few.test == "williams" and few.p_value == p_floor(5) == 0.0625
    many = tests.pair("c", "a")
    assert many.test == "williams" and many.p_value >= p_floor(20)
