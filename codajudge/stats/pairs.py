"""Paired tests between the systems of one track, with the work they share done once.

``TrackTests`` tests a leader against many others (``scoring.TrackResult`` on the track's main
metric), as a ranking does thousands of times, with the numbers of each pair tested on its own
(tests/test_stats.py and tests/test_ranking.py check it): Williams' test prepares each series (gold and predictions) once and correlates the
leader with every other in one pass; Wilcoxon's test takes each system's per-item losses once
(``paired.signed_rank_tests``: scipy's, all pairs in one call); the paired bootstrap reads every system's scores on the track's shared resamples
(``shared_resamples``: drawn once, summed for all systems by one matrix product per chunk, so equal
to the pair's own draws to that product's rounding). Which test applies comes from the metric's
registration (``paired.choose_test``; the exact permutation test on a track of few items, each pair
on its own); no metric is named here.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..metrics import WILCOXON, WILLIAMS, get as get_metric
from .bootstrap import systems_bootstrap_scores
from .paired import (
    bootstrap_p_value,
    oriented_difference,
    paired_bootstrap,
    per_item_losses,
    permutation_test,
    signed_rank_tests,
)
from .exact import PERMUTATION
from .williams import (
    TestResult,
    UnitSeries,
    pearson_with_each,
    unit_series,
    williams_tests,
)


def shared_resamples(
    metric_name: str, submitted: Dict[str, object], resamples: int, seed: int
) -> Dict[str, np.ndarray]:
    """Every system's resampled main score on one set of resamples of the track (seeded, so the
    very resamples each pairwise test and interval would draw on its own): drawn and counted once,
    and summed for all systems by one matrix product per chunk. Empty when there is nothing to
    resample."""
    names = sorted(submitted)
    stats = [np.asarray(submitted[name].stats[metric_name]) for name in names]
    if not names or resamples < 1 or stats[0].ndim == 0 or stats[0].shape[0] < 2:
        return {}
    raws = systems_bootstrap_scores(get_metric(metric_name), stats, resamples, seed)
    return dict(zip(names, raws))


class TrackTests:
    """The paired tests of one track's systems (name -> ``scoring.TrackResult``) with ``test`` on
    ``metric_name``: each answer is that of the pair tested on its own. What a test needs of each
    system (its Pearson series, its per-item losses) is prepared once."""

    def __init__(
        self,
        test: str,
        metric_name: str,
        submitted: Dict[str, object],
        resamples: int,
        seed: int,
        raws: Optional[Dict[str, np.ndarray]] = None,
    ):
        self.test, self.metric_name, self.metric = test, metric_name, get_metric(metric_name)
        self.submitted, self.resamples, self.seed = submitted, resamples, seed
        if raws is None and test not in (WILLIAMS, WILCOXON):
            raws = shared_resamples(metric_name, submitted, resamples, seed)
        self.raws = raws or {}
        self.series = (
            {name: _pearson(tr) for name, tr in submitted.items()} if test == WILLIAMS else {}
        )
        self.losses = {}
        if test == WILCOXON:
            self.losses = {
                name: per_item_losses(self.metric, tr.stats[metric_name])
                for name, tr in submitted.items()
            }

    def p_values(self, leader: str, others: Sequence[str]) -> List[float]:
        return [result.p_value for result in self.against(leader, others)]

    def against(self, leader: str, others: Sequence[str]) -> List[TestResult]:
        """The test of ``leader`` against each of ``others`` (statistic oriented as leader - other)."""
        if self.test == WILLIAMS:
            (unit, r12), pairs = self.series[leader], [self.series[name] for name in others]
            r23 = pearson_with_each(unit, [u for u, _ in pairs]) if pairs else []
            return williams_tests(
                r12,
                [r for _, r in pairs],
                list(r23),
                unit.unit.size,
                unit.constant,
                [u.constant for u, _ in pairs],
            )
        if self.test == WILCOXON:
            return signed_rank_tests(self.losses[leader], [self.losses[name] for name in others])
        if not self.raws:  # the exact test, or the bootstrap of a track with nothing to resample
            return [self._alone(leader, name) for name in others]
        return [self._shared_bootstrap(leader, name) for name in others]

    def _alone(self, leader: str, other: str) -> TestResult:
        """The exact permutation test or the paired bootstrap of one pair, on its own."""
        a = self.submitted[leader].stats[self.metric_name]
        b = self.submitted[other].stats[self.metric_name]
        if self.test == PERMUTATION:
            return permutation_test(self.metric, a, b)
        return paired_bootstrap(self.metric, a, b, self.resamples, self.seed)

    def _shared_bootstrap(self, leader: str, other: str) -> TestResult:
        """The paired bootstrap of ``leader`` against ``other`` on the track's shared resamples:
        ``paired.paired_bootstrap``'s without drawing again."""
        a = self.submitted[leader].stats[self.metric_name]
        b = self.submitted[other].stats[self.metric_name]
        delta = oriented_difference(self.metric, a, b)
        raws = self.raws[leader], self.raws[other]
        return bootstrap_p_value(self.metric, delta, *raws, len(a))


def _pearson(track_result) -> Tuple[UnitSeries, float]:
    """A system's prepared scored predictions and their Pearson r with the gold (0.0 if undefined)."""
    gold = track_result.gold
    unit = unit_series(track_result.prediction.values[gold.scored])
    return unit, float(pearson_with_each(unit_series(gold.gold[gold.scored]), [unit])[0])
