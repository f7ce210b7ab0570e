"""Properties every registered metric must have (hypothesis, derandomized, five examples each):
perfect prediction scores best, item order does not matter, scores stay within the declared
bounds and are never NaN, and ``from_stats`` on stacked (B, S) sums equals per-row calls.

Inputs are drawn per family (the shape of gold and predictions a metric takes). Probabilities
are multiples of 1/16, so sums are exact and summation order cannot move a rounded score.
"""

import math
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings, strategies as st

from codajudge import kinds
from codajudge.bundle.prose import Templates
from codajudge.metrics import PerAnnotator
from codajudge.metrics.base import (
    BOOTSTRAP,
    HIGHER,
    LOWER,
    MEAN,
    MOMENTS,
    ONE_HOT,
    REGISTRY,
    WILCOXON,
    WILLIAMS,
    item_order_sum,
    round5,
)
from codajudge.stats.bootstrap import bootstrap_scores, resample_draws, systems_bootstrap_scores
from codajudge.stats.paired import choose_test, per_item_losses

#: (kind, scale) -> the family of inputs its tracks' metrics take (``Metric.applies_to``)
FAMILY_OF = {
    ("similarity", None): "scores",
    ("classification", None): "labels",
    ("soft_label", "categorical"): "soft",
    ("soft_label", "ordinal"): "soft",
    ("soft_label", "multilabel"): "multilabel_soft",
    ("perspectivist", "categorical"): "annotator_labels",
    ("perspectivist", "ordinal"): "annotator_labels",
    ("perspectivist", "multilabel"): "annotator_choices",
}
#: metric name -> the family of inputs it takes, from the first kind and scale it applies to
FAMILY = {name: FAMILY_OF[m.applies_to[0]] for name, m in REGISTRY.items() if m.applies_to}

#: Five examples a property: with the derandomized draws, each of 33 breakages made on purpose over
#: 14 metrics (direction flipped, range narrowed, statistics depending on item order, ``from_stats``
#: wrong on stacked rows, a wrong stats form) fails the property that guards against it at five
#: examples as at 25. (An upper end narrowed to a value no drawn example exceeds, AWD's or MAMD's,
#: is found by test_the_worst_value_is_reached_by_the_worst_prediction at any count.)
PROPERTY_SETTINGS = settings(
    max_examples=5,
    derandomize=True,
    deadline=None,
    database=None,
    phases=[Phase.explicit, Phase.generate, Phase.shrink],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
METRIC_NAMES = sorted(REGISTRY)
TOLERANCE = 1e-9


@dataclass
class Case:
    """Per-item gold and predictions of one metric's family; ``arrays`` builds the metric's inputs."""

    name: str
    family: str
    n_labels: int
    gold_items: list
    pred_items: list

    def arrays(self, order=None, perfect=False):
        order = list(range(len(self.gold_items))) if order is None else list(order)
        gold = [self.gold_items[i] for i in order]
        pred = gold if perfect else [self.pred_items[i] for i in order]
        if self.family.startswith("annotator"):
            return self._per_annotator(gold), self._per_annotator(pred)
        dtype = np.int64 if self.family == "labels" else float
        return np.array(gold, dtype=dtype), np.array(pred, dtype=dtype)

    def _per_annotator(self, items):
        values = [v for row in items for v in row]
        item = [i for i, row in enumerate(items) for _ in row]
        return PerAnnotator(
            values=np.array(
                values, dtype=float if self.family == "annotator_choices" else np.int64
            ),
            item=np.array(item, dtype=np.int64),
            n_items=len(items),
            n_labels=self.n_labels,
        )


def _distribution(draw, k):
    counts = draw(st.lists(st.integers(0, 16), min_size=k, max_size=k).filter(lambda c: sum(c) > 0))
    # scale to a total of 16 so every probability is a multiple of 1/16 (exact in binary)
    total = sum(counts)
    shares = [c * 16 // total for c in counts]
    shares[int(np.argmax(counts))] += 16 - sum(shares)
    return [s / 16 for s in shares]


@st.composite
def cases(draw, name):
    family = FAMILY[name]
    n = draw(st.integers(3 if family == "scores" else 1, 15))
    if family == "scores":  # STS-like grid, shifted far from zero for a scale-free metric
        scale_free = REGISTRY[name].scale_free
        shift = draw(st.sampled_from([0.0, 100.0, -3.5])) if scale_free else 0.0
        grid = st.integers(0, 25).map(lambda v: v * 0.2 + shift)
        return Case(
            name,
            family,
            0,
            draw(st.lists(grid, min_size=n, max_size=n)),
            draw(st.lists(grid, min_size=n, max_size=n)),
        )
    k = draw(st.integers(2, 11 if family in ("soft", "annotator_labels") else 5))
    if family == "labels":
        labels = st.lists(st.integers(0, k - 1), min_size=n, max_size=n)
        return Case(name, family, k, draw(labels), draw(labels))
    if family == "soft":
        return Case(
            name,
            family,
            k,
            [_distribution(draw, k) for _ in range(n)],
            [_distribution(draw, k) for _ in range(n)],
        )
    if family == "multilabel_soft":
        pair = st.integers(0, 16).map(lambda c: [1 - c / 16, c / 16])
        rows = st.lists(st.lists(pair, min_size=k, max_size=k), min_size=n, max_size=n)
        return Case(name, family, k, draw(rows), draw(rows))
    sizes = draw(st.lists(st.integers(1, 6), min_size=n, max_size=n))
    if family == "annotator_labels":
        value = st.integers(0, k - 1)
    else:
        value = st.lists(st.integers(0, 1), min_size=k, max_size=k)
    gold = [draw(st.lists(value, min_size=m, max_size=m)) for m in sizes]
    pred = [draw(st.lists(value, min_size=m, max_size=m)) for m in sizes]
    return Case(name, family, k, gold, pred)


def best_value(metric, n_labels):
    low, high = metric.bounds(n_labels)
    return high if metric.direction == HIGHER else low


def on_five_decimal_grid(x):
    return abs(x * 1e5 - round(x * 1e5)) < 1e-6


def test_every_registered_metric_has_an_input_family():
    assert set(REGISTRY) <= set(FAMILY), f"{sorted(set(REGISTRY) - set(FAMILY))} apply to no kind"


@pytest.mark.parametrize("name", METRIC_NAMES)
def test_a_metric_applies_to_kinds_of_one_input_family_and_to_those_it_is_a_default_of(name):
    metric = REGISTRY[name]
    assert len({FAMILY_OF[pair] for pair in metric.applies_to}) == 1
    for kind in kinds.REGISTRY.values():
        for scale in kind.scales:
            if name in kind.default_metrics[scale]:
                assert (kind.name, scale) in metric.applies_to


@pytest.mark.parametrize("name", METRIC_NAMES)
def test_every_metric_is_described(name):
    metric = REGISTRY[name]
    assert metric.name == name
    assert metric.direction in (HIGHER, LOWER)
    assert isinstance(metric.title, str) and metric.title.strip()
    own = f"metrics/{name}"
    kit = Templates()
    text = kit.fill(own) if kit.has(own) else metric.description  # the Evaluation page's text
    assert isinstance(text, str) and len(text.strip()) >= 20
    assert "|" not in text  # it is a cell of the Evaluation page's Markdown table
    for n_labels in (2, 3, 6, 11):
        low, high = metric.bounds(n_labels)
        assert math.isfinite(low) and math.isfinite(high) and low < high


@pytest.mark.parametrize("name", METRIC_NAMES)
@PROPERTY_SETTINGS
@given(data=st.data())
def test_perfect_prediction_gives_the_best_value(name, data):
    case = data.draw(cases(name))
    if case.family == "scores" and len(set(case.gold_items)) == 1:
        return  # correlation with constant gold is undefined (tested below)
    metric = REGISTRY[name]
    gold, perfect = case.arrays(perfect=True)
    result = metric.score(gold, perfect)
    assert result.warning is None
    on_gold = metric.gold_value(gold, case.n_labels)
    assert result.value == pytest.approx(on_gold, abs=max(1e-12, metric.on_gold_tolerance))
    if metric.on_gold is None:
        assert on_gold == best_value(metric, case.n_labels)


@pytest.mark.parametrize("name", METRIC_NAMES)
@PROPERTY_SETTINGS
@given(data=st.data())
def test_item_order_does_not_matter(name, data):
    case = data.draw(cases(name))
    order = data.draw(st.permutations(range(len(case.gold_items))))
    metric = REGISTRY[name]
    before = metric.score(*case.arrays())
    after = metric.score(*case.arrays(order))
    # each item keeps its own statistics row (correlations centre on the mean: equal to rounding)
    np.testing.assert_allclose(after.stats, before.stats[list(order)], rtol=0, atol=TOLERANCE)
    same = abs(after.value - before.value) <= TOLERANCE
    # exactly one unit of the 5th decimal apart can only be a rounding tie broken by summation order
    tie = (
        on_five_decimal_grid(after.value)
        and on_five_decimal_grid(before.value)
        and abs(after.value - before.value) <= 1e-5 + 1e-12
    )
    assert same or tie, (before.value, after.value)
    assert (after.warning is None) == (before.warning is None)


@pytest.mark.parametrize("name", METRIC_NAMES)
@PROPERTY_SETTINGS
@given(data=st.data())
def test_scores_stay_within_bounds_and_are_never_nan(name, data):
    case = data.draw(cases(name))
    metric = REGISTRY[name]
    low, high = metric.bounds(case.n_labels)
    result = metric.score(*case.arrays())
    assert math.isfinite(result.value)
    assert low - 1e-12 <= result.value <= high + 1e-12
    if result.warning is not None:  # only a metric declaring its undefined value may be undefined
        assert result.value == 0.0 and result.warning == metric.undefined_note


def test_a_metric_undefined_on_a_valid_prediction_without_a_declared_value_is_the_bundles_error():
    from codajudge.errors import ConfigError
    from codajudge.metrics.base import Metric

    def root_errors(gold, pred):
        return np.abs(np.sqrt(pred) - np.sqrt(gold))[:, None]

    fields = dict(title="Root error", lower=0.0, upper=5.0, item_stats=root_errors)
    gold, negative = np.array([1.0, 4.0]), np.array([-1.0, 4.0])
    with pytest.raises(ConfigError) as refused:
        Metric(name="root", direction=LOWER, **fields).score(gold, negative, track="sim")
    text = refused.value.render()
    assert __file__ in text and "metric 'root' gives no score on track 'sim'" in text, text
    assert "found nan" in text and "every valid prediction" in text
    # 0.0 is the best score of a loss on [0, 5]: reporting an undefined value as 0.0 is not offered
    assert "undefined_note" not in text
    inside = Metric(name="root", direction=LOWER, **{**fields, "lower": -5.0})
    with pytest.raises(ConfigError) as refused:
        inside.score(gold, negative, track="sim")
    assert "register undefined_note='...' saying so" in refused.value.render()
    declared = Metric(name="root", direction=HIGHER, undefined_note="undefined: 0.0", **fields)
    assert declared.score(gold, negative)[:2] == (0.0, "undefined: 0.0")


@pytest.mark.parametrize("name", METRIC_NAMES)
@PROPERTY_SETTINGS
@given(data=st.data())
def test_from_stats_on_stacked_sums_equals_per_row_calls(name, data):
    case = data.draw(cases(name))
    metric = REGISTRY[name]
    stats = metric.item_stats(*case.arrays())
    n = stats.shape[0]
    resamples = data.draw(
        st.lists(st.lists(st.integers(0, n - 1), min_size=n, max_size=n), min_size=1, max_size=6)
    )
    sums = np.stack([stats[idx].sum(axis=0) for idx in resamples])
    stacked = np.asarray(metric.from_stats(sums, n), dtype=float)
    one_by_one = np.array([float(metric.from_stats(row, n)) for row in sums])
    assert stacked.shape == (len(resamples),)
    np.testing.assert_array_equal(stacked, one_by_one)
    whole = float(metric.from_stats(item_order_sum(stats), n))
    value = metric.score(*case.arrays()).value
    assert value == (whole if math.isfinite(whole) else 0.0)


# --- round5 is Python's round(x, 5) (the official LeWiDi rounding) for every input shape ---------


@PROPERTY_SETTINGS
@given(
    st.lists(
        st.one_of(
            st.integers(-400000, 400000).map(lambda m: m / 2e5),  # many near-ties
            st.floats(-10, 10, allow_nan=False),
        ),
        min_size=1,
        max_size=20,
    )
)
def test_round5_is_python_round_for_scalars_and_arrays(values):
    expected = [round(v, 5) for v in values]
    assert [round5(v) for v in values] == expected  # Python floats
    assert [round5(np.float64(v)) for v in values] == expected  # numpy scalars
    assert [round5(np.array(v)) for v in values] == expected  # 0-d arrays (a metric's final mean)
    assert round5(np.array(values)).tolist() == expected
    assert round5(np.array(values).reshape(-1, 1)).tolist() == [[e] for e in expected]


def test_round5_near_tie_example():
    # 0.003125 is stored as 0.0031250000000000001734...: above the tie, so Python rounds up;
    # np.round (x * 1e5 = 312.5 exactly after rounding, then half-to-even) would give 0.00312
    assert round(0.00625 / 2, 5) == 0.00313
    assert round5(0.00625 / 2) == 0.00313
    assert round5(np.array(0.00625 / 2)) == 0.00313


# --- the bounds are the real extremes (the primary score uses them for missing tracks) --------------


def one_hot_pair(k: int, gold_label: int, predicted_label: int):
    """A one-item gold and prediction ``(1, k)``, each all its mass on one label."""
    eye = np.eye(k)
    return eye[[gold_label]], eye[[predicted_label]]


def one_item(gold_rows, predicted_rows, n_labels: int):
    """One item's gold and predicted ``PerAnnotator`` rows (labels, or 0/1 choices per label)."""
    item = np.zeros(len(gold_rows), dtype=np.int64)
    return (
        PerAnnotator(np.array(gold_rows), item, 1, n_labels),
        PerAnnotator(np.array(predicted_rows), item, 1, n_labels),
    )


def every_label_wrong(k: int):
    """Gold labels 0..k-1, each predicted as the next one."""
    gold = np.arange(k)
    return gold, (gold + 1) % k


def first_label_as_last(k: int):
    """Three annotators of one item who chose label 0, each predicted k-1."""
    return one_item([0, 0, 0], [k - 1] * 3, k)


#: Per input family, golds and predictions on ``k`` labels at the ends of what the family may
#: predict (similarity: the default 0-5 scale's ends, crossed): the worst of them scores a metric's
#: worst end. No metric is named, so a new metric of a family needs no entry here.
EXTREMES = {
    "labels": (every_label_wrong,),
    "scores": (
        lambda k: (np.arange(5.0), -np.arange(5.0)),
        lambda k: (np.array([0.0, 5.0, 0.0, 5.0]), np.array([5.0, 0.0, 5.0, 0.0])),
    ),
    # disjoint supports: the 1e-15 floor leaves jsd and kl at their ends to 1e-12
    "soft": (lambda k: one_hot_pair(k, 0, 1), lambda k: one_hot_pair(k, 0, k - 1)),
    "multilabel_soft": (lambda k: (np.array([[[1.0, 0.0]] * k]), np.array([[[0.0, 1.0]] * k])),),
    "annotator_labels": (first_label_as_last,),
    "annotator_choices": (lambda k: one_item([[0.0] * k, [1.0] * k], [[1.0] * k, [0.0] * k], k),),
}


@pytest.mark.parametrize("k", [2, 3, 6, 11])
def test_the_worst_value_is_reached_by_the_worst_prediction(k):
    for name in METRIC_NAMES:
        metric = REGISTRY[name]
        values = [metric.score(*case(k)).value for case in EXTREMES[FAMILY[name]]]
        worst = min(values) if metric.higher_is_better else max(values)
        assert worst == pytest.approx(metric.worst(k), abs=1e-12), name


# --- the facts a registration carries, which the statistics layer asks instead of naming metrics ----


@pytest.mark.parametrize("name", METRIC_NAMES)
@PROPERTY_SETTINGS
@given(data=st.data())
def test_the_stats_form_describes_what_item_stats_returns(name, data):
    case = data.draw(cases(name))
    metric = REGISTRY[name]
    stats = np.asarray(metric.item_stats(*case.arrays()), dtype=float)
    assert stats.ndim == 2 and stats.shape[0] == len(case.gold_items)
    losses = per_item_losses(metric, stats)
    if (
        metric.stats_form == MEAN
    ):  # the score is the mean of the one column (LeWiDi: rounded to 5 places)
        assert stats.shape[1] == 1 and metric.has_item_losses
        value = metric.score(*case.arrays()).value
        assert abs(value - stats[:, 0].mean()) <= 5e-6 + 1e-12
        oriented = -losses if metric.higher_is_better else losses
        np.testing.assert_array_equal(oriented, stats[:, 0])
    else:
        assert losses is None and not metric.has_item_losses
    if metric.stats_form == ONE_HOT:
        assert ((stats == 0.0) | (stats == 1.0)).all() and (stats.sum(axis=1) == 1.0).all()
    if metric.stats_form == MOMENTS:
        assert stats.shape[1] > 1


@pytest.mark.parametrize("name", METRIC_NAMES)
def test_the_significance_test_is_the_registered_one_and_applies(name):
    metric = REGISTRY[name]
    assert choose_test(name, "auto") == (metric.significance, None)
    if metric.significance == WILCOXON:
        assert metric.has_item_losses and not metric.higher_is_better
    if (
        metric.significance == WILLIAMS
    ):  # Williams' test is for Pearson r: the registered from_stats is r
        gold, pred = np.array([1.0, 2.0, 4.0, 3.0, 5.0]), np.array([2.0, 1.0, 4.0, 5.0, 3.0])
        stats = metric.item_stats(gold, pred)
        assert float(metric.from_stats(stats.sum(axis=0), 5)) == pytest.approx(
            np.corrcoef(gold, pred)[0, 1]
        )
    wilcoxon_chosen, note = choose_test(name, WILCOXON)
    assert (wilcoxon_chosen == WILCOXON) == metric.has_item_losses and (
        note is None
    ) == metric.has_item_losses
    williams_chosen, note = choose_test(name, WILLIAMS)
    assert (williams_chosen == WILLIAMS) == (metric.significance == WILLIAMS)
    assert choose_test(name, BOOTSTRAP) == (BOOTSTRAP, None)


@pytest.mark.parametrize("name", METRIC_NAMES)
@PROPERTY_SETTINGS
@given(data=st.data())
def test_a_bootstrap_resample_scores_what_the_metric_gives_on_its_items(name, data):
    """A resample (items drawn with repeats) scored as the bootstrap scores it, from its summed
    statistics or by ``from_draws``, is the metric computed afresh on the resample's items: what
    the builder checks of an edition's own metric (``stats.metric_checks.resample_problems``)."""
    case = data.draw(cases(name))
    metric = REGISTRY[name]
    stats = np.asarray(metric.item_stats(*case.arrays()), dtype=float)
    seed = data.draw(st.integers(0, 2**31 - 1))
    (raw,) = bootstrap_scores([(metric, stats)], 7, seed)
    draws = np.concatenate(list(resample_draws(stats.shape[0], 7, seed)))
    fresh = np.array([metric.score(*case.arrays(order=row)).value for row in draws])
    # LeWiDi scores are rounded to 5 decimals: sums in another order can move a half unit
    np.testing.assert_allclose(np.nan_to_num(raw), fresh, rtol=0, atol=1e-5 + 1e-12)


@pytest.mark.parametrize("name", METRIC_NAMES)
@PROPERTY_SETTINGS
@given(data=st.data())
def test_systems_summed_side_by_side_equal_each_system_alone(name, data):
    """A ranking's one matrix product per chunk gives each system's resampled scores (to rounding)."""
    metric = REGISTRY[name]
    case = data.draw(cases(name))
    # a second system on the same gold: the predictions in another order (per annotator, within the item)
    flipped = (
        [row[::-1] for row in case.pred_items]
        if case.family.startswith("annotator")
        else case.pred_items[::-1]
    )
    other = Case(name, case.family, case.n_labels, case.gold_items, flipped)
    stats = [np.asarray(metric.item_stats(*c.arrays()), dtype=float) for c in (case, other)]
    together = systems_bootstrap_scores(metric, stats, 9, 5)
    for s, raw in zip(stats, together):
        (alone,) = bootstrap_scores([(metric, s)], 9, 5)
        # Scores are rounded to 5 decimals; the two sums differ in their last bits, which can
        # move a score that sits on a half unit (0.021875) to the neighbouring unit.
        np.testing.assert_allclose(raw, alone, rtol=0, atol=1e-5 + 1e-12)


def test_the_readme_names_each_metric_s_registered_significance_test():
    """The README's sentence on the ranking's tests names metrics whose registration says so."""
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    sentence = " ".join(readme.split("(each metric's registered test: ")[1].split(";")[0].split())
    wilcoxon, bootstrap = sentence.split("Wilcoxon's signed-rank test for the LeWiDi 2025")[
        1
    ].split("the paired bootstrap")
    named = {
        test: re.findall(r"`(\w+)`", text)
        for test, text in ((WILCOXON, wilcoxon), (BOOTSTRAP, bootstrap))
    }
    assert named[WILCOXON] and named[BOOTSTRAP]
    for test, names in named.items():
        assert [REGISTRY[name].significance for name in names] == [test] * len(names), test
