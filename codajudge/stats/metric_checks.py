"""The statistics layer's checks of an edition's own metric, which the builder runs on each
track's gold after the registry's basic properties (``metrics.edition_module.property_problems``):
a bootstrap resample must score what the metric computed afresh on its items gives, and a
``scale_free`` metric's exact permutation test must not depend on a system's scale. Each
refusal names the registration's fix (``from_draws``, ``swap_stats``). The registry's tests check
the kit's own metrics for the same (tests/test_metrics_registry.py).
"""

import numpy as np

from ..errors import problem_text
from ..metrics import Metric
from .bootstrap import resample_scores, undefined_as_zero
from .paired import permutation_p_value


def statistics_problems(metric: Metric, gold) -> list[str]:
    """What the bootstrap and the exact test would get wrong on an array ``gold`` (a track's
    scored gold), against each item predicted as its neighbour's gold: a resample's score
    (``resample_problems``) and, for a ``scale_free`` metric, a system's scale
    (``scale_problems``)."""
    if not isinstance(gold, np.ndarray):
        return []
    pred = np.roll(gold, 1, axis=0)
    stats = np.asarray(metric.item_stats(gold, pred), dtype=float)
    problems = resample_problems(metric, gold, pred, stats)
    if metric.scale_free and gold.ndim == 1:
        problems += scale_problems(metric, gold)
    return problems


#: The seeded resamples ``resample_problems`` draws (each of the track's size, items repeated).
CHECKED_RESAMPLES = 5


def resample_problems(metric: Metric, gold, pred, stats) -> list[str]:
    """A bootstrap resample scored as the bootstrap scores it (from its summed ``stats``, or by
    ``from_draws`` where registered) must score what the metric computed afresh on the resample's
    items does: a score that is not a mean of per-item values nor a function of summed statistics
    (Kendall's tau from per-item pair counts) needs ``from_draws``."""
    draws = np.random.default_rng(0).integers(0, len(gold), size=(CHECKED_RESAMPLES, len(gold)))
    sums = np.stack([stats[row].sum(axis=0) for row in draws])
    resampled = undefined_as_zero(resample_scores(metric, stats, draws, sums))
    fresh = np.array([metric.score(gold[row], pred[row]).value for row in draws])
    if np.allclose(resampled, fresh, rtol=1e-9, atol=1e-9):
        return []
    worst = int(np.argmax(np.abs(resampled - fresh)))
    how = "by its from_draws" if metric.from_draws else "from its summed item_stats"
    fix = (
        "register from_draws(stats, index, sums) returning each resample's score computed from its "
        "drawn rows of item_stats (index (B, n)), as the kit's correlations do; the bootstrap "
        "intervals and tests score resamples with it"
    )
    return [
        problem_text(
            "",
            f"a bootstrap resample (items drawn with repeats) scored {how} differs from the "
            "metric computed on the resample's items",
            "the same score",
            f"{resampled[worst]:g} against {fresh[worst]:g}",
            fix,
        )
    ]


def scale_problems(metric: Metric, gold) -> list[str]:
    """A ``scale_free`` metric's exact permutation test (tracks of at most 12 items) must not
    change when one system's predictions are scaled and shifted: the p-value of two systems on the
    track's first items, against the second system x 1000 shifted by 10,000 of the gold's
    standard deviations."""
    items = np.asarray(gold[:10], dtype=float)  # 1,024 arrangements
    spread = float(np.std(items)) or 1.0
    system_a = np.roll(items, 1)
    system_b = items + np.random.default_rng(0).normal(0.0, spread, items.size)
    p_values = [
        permutation_p_value(metric, metric.item_stats(items, system_a), metric.item_stats(items, b))
        for b in (system_b, 1000.0 * system_b + 1e4 * spread)
    ]
    if abs(p_values[0] - p_values[1]) <= 1e-12:
        return []
    fix = (
        "register swap_stats(stats) returning the statistics with each system's predictions "
        "standardised over the track (mean 0, standard deviation 1), as the kit's correlations do: "
        "the exact test swaps its rows between two systems, so they must share one scale"
    )
    return [
        problem_text(
            "",
            "scale_free, but its exact permutation test changes when one system's predictions are "
            "multiplied by 1000 and shifted by 10,000 standard deviations",
            f"the same p-value ({p_values[0]:.4f})",
            f"{p_values[1]:.4f}",
            fix,
        )
    ]
