"""Official rankings: per-track ranks with statistical ties and an overall rank (by primary score).

Per track, systems are ordered by the track's main metric. Ties are groups, contiguous in that order
so that a rank never inverts two scores: the best remaining score leads a group (every system with
that score), and the systems after it join it, in order, up to (not including) the first one
significantly different (p <= alpha) from any of its leaders; that one, with every system of its
score, starts the next group. Scores equal to rounding (``paired.equal_scores``: the Pearson r of
an affine copy of a system may differ in its last bit) are one score: never split, never tested
against each other, listed by name, so that neither a system's name nor a float's last bit can
change a rank, a group or a row. Every member of a group gets its rank (competition ranking:
1, 1, 3). Where the p-values fall with the score, the first group is "the best system and every
system not significantly different from it" that SemEval-2017 marked. A system that did not submit
a track ranks after all that did. A system whose score on a track is undefined (reported as 0.0: a
constant prediction's Pearson r) is never tested nor resampled: the others are clustered and tested
among themselves exactly as without it (their best is the reference of "p vs best"), and it is
placed by that 0.0 (after the others of that score) in a cluster of its own, splitting a cluster
it falls within; the track's note names it.

The overall order (``rank_overall``) is by default the primary score, the leaderboard's order: the
mean of the primary tracks' main metric, each system's own number, so that no third system's
submission can change which of two others ranks higher. The mean rank over the primary tracks
(LeWiDi 2025) is an option with a caveat: a system's rank on a track depends on every other
system, so adding one run whose scores fall between A's and B's on some tracks can move B above A
although A's primary score is higher (tests/test_ranking.py shows such a run).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Callable, Sequence

import numpy as np

from ..errors import counted
from ..metrics import get as get_metric
from ..texts import kit_text
from .bootstrap import Interval, percentile_interval, undefined_score
from .paired import EXACT_MAX_ITEMS, PERMUTATION, TEST_TITLES, TrackTests, choose_test
from .paired import equal_scores, shared_resamples


@dataclass
class RankedSystem:
    """One system on one track: its main score, rank, and test against the track's best system."""

    system: str
    value: float
    rank: int
    tied_with_best: bool
    p_value: float | None = None  # against the best system (None for the best itself)
    interval: Interval | None = None
    undefined: bool = False  # its score is undefined (reported as 0.0): no interval, no test
    test: str | None = None  # the test of its p vs best (None: the track's)


@dataclass
class TrackRanking:
    track: object  # tracks.Track
    metric: str
    test: str
    note: str | None
    rows: list[RankedSystem]
    missing: list[str] = field(default_factory=list)


@dataclass
class OverallRow:
    system: str
    rank: int
    mean_rank: float
    primary: float
    #: primary track id -> the rank its mean rank counts for a track it did not submit
    stand_in_ranks: dict[str, int] = field(default_factory=dict)


def score_blocks(scores: dict[str, float], higher_is_better: bool) -> list[list[str]]:
    """System names in blocks of one score, best first: a block holds the systems whose score
    equals its best one's to rounding (``paired.equal_scores``), in name order."""
    sign = -1.0 if higher_is_better else 1.0
    blocks: list[list[str]] = []
    for name in sorted(scores, key=lambda name: sign * scores[name]):
        if blocks and equal_scores(scores[blocks[-1][0]], scores[name]):
            blocks[-1].append(name)
        else:
            blocks.append([name])
    return [sorted(block) for block in blocks]


def order_best_first(scores: dict[str, float], higher_is_better: bool) -> list[str]:
    """System names from best to worst score; equal scores (to rounding) in name order."""
    return [name for block in score_blocks(scores, higher_is_better) for name in block]


def tie_groups(
    order: Sequence[str],
    p_value: Callable[[str, str], float],
    alpha: float,
    same_score: Callable[[str, str], bool] = lambda one, other: False,
) -> tuple[dict[str, int], dict[str, float]]:
    """Competition ranks with statistical ties (see the module docstring).

    ``order`` is best first; ``p_value(leader, other)`` tests a leader against one other system;
    ``same_score(one, other)`` ties two systems whatever the test. Returns name -> rank, and the
    p-value of each system not of the best score against the best score's systems (the smallest).
    """
    ranks: dict[str, int] = {}
    against_best: dict[str, float] = {}
    remaining = list(order)
    while remaining:
        leaders = [
            name for name in remaining if name == remaining[0] or same_score(remaining[0], name)
        ]
        others = [name for name in remaining if name not in leaders]
        tested = {other: min(p_value(leader, other) for leader in leaders) for other in others}
        if not ranks:
            against_best = tested
        cut = next((i for i, other in enumerate(others) if tested[other] <= alpha), len(others))
        while 0 < cut < len(others) and same_score(others[cut - 1], others[cut]):
            cut -= 1  # the whole block of one score starts the next group
        group = leaders + others[:cut]
        # a competition rank: one more than the systems ranked before the group
        ranks.update(dict.fromkeys(group, len(ranks) + 1))
        remaining = others[cut:]
    return ranks, against_best


def place_undefined(order: Sequence[str], ranks: dict[str, int], undefined: set) -> dict[str, int]:
    """Competition ranks of ``order`` (best first): the systems of ``ranks`` (name -> rank among
    them) keep their groups, and each ``undefined`` one is a group of its own at its place in the
    order, splitting a group it falls within, so that no rank inverts two scores."""
    placed, previous = {}, None
    for position, name in enumerate(order, start=1):
        group = name if name in undefined else ranks[name]
        placed[name] = position if group != previous else placed[order[position - 2]]
        previous = group
    return placed


def rank_track(track, results: dict[str, object], settings) -> TrackRanking:
    """Rank the systems (name -> ``scoring.Result``) that submitted ``track`` with the test, level,
    resamples and seed of ``settings`` (``tables.Settings``)."""
    metric_name = track.main_metric
    submitted = {name: r.tracks[track.id] for name, r in results.items() if track.id in r.tracks}
    # the items the systems are compared on (None when no system submitted the track)
    n_items = next((len(tr.stats[metric_name]) for tr in submitted.values()), None)
    chosen, note = choose_test(metric_name, settings.test, n_items)
    scores = {name: tr.scores[metric_name] for name, tr in submitted.items()}
    metric = get_metric(metric_name)
    # a score undefined on the track (reported as 0.0) is ordered by that 0.0 but never tested
    undefined = {
        name for name, tr in submitted.items() if undefined_score(metric, tr.stats[metric_name])
    }
    blocks = score_blocks(scores, metric.higher_is_better)
    # within a block of one score, an undefined one after the others (name order otherwise)
    order = [name for block in blocks for name in sorted(block, key=undefined.__contains__)]
    block_of = {name: number for number, block in enumerate(blocks) for name in block}
    raws = shared_resamples(metric_name, submitted, settings.resamples, settings.seed)
    tests = TrackTests(chosen, metric_name, submitted, raws)
    defined = [name for name in order if name not in undefined]
    ranks, against_best = tie_groups(
        defined,
        lambda leader, other: tests.pair(leader, other).p_value,
        settings.alpha,
        lambda one, other: block_of[one] == block_of[other],
    )
    ranks = place_undefined(order, ranks, undefined)
    best = [name for name in defined if block_of[name] == block_of[defined[0]]] if defined else []
    rows = []
    for name in sorted(order, key=ranks.get):  # a stable sort: the order's within a rank
        tested = name not in undefined
        ci = percentile_interval(raws[name], scores[name]) if raws and tested else None
        rank, p = ranks[name], against_best.get(name)
        row = RankedSystem(name, scores[name], rank, rank == 1, p, ci, not tested)
        row.test = _test_of(tests, best, name)
        rows.append(row)
    note = _exact_pairs_note(tests, chosen, note)
    note = _undefined_note(metric, [row for row in rows if row.undefined], best, note)
    missing = sorted(name for name in results if name not in submitted)
    return TrackRanking(track, metric_name, chosen, note, rows, missing)


def _test_of(tests: TrackTests, best: list[str], name: str) -> str | None:
    """The test that gave ``name`` its p vs best: that of its pair with the ``best`` system of the
    smallest p (the exact one for a pair of systems that differ on few items); None without one."""
    against = [tests.done[leader, name] for leader in best if (leader, name) in tests.done]
    return min(against, key=lambda result: result.p_value).test if against else None


def _exact_pairs_note(tests: TrackTests, chosen: str, note: str | None) -> str | None:
    """The track's note, with a sentence naming the pairs of systems tested with the exact test
    instead of the track's ``chosen`` one, because they differ on few items, and how many."""
    pairs = [pair for pair, result in tests.done.items() if result.test != chosen]
    if not pairs:
        return note
    listed = ", ".join(f"{a} and {b}: {counted(tests.differing(a, b), 'item')}" for a, b in pairs)
    fields = dict(count=counted(len(pairs), "pair"), most=EXACT_MAX_ITEMS, pairs=listed)
    titles = dict(exact=TEST_TITLES[PERMUTATION], asked=TEST_TITLES[chosen])
    said = kit_text("ranking/exact_pairs", **fields, **titles)
    return f"{note}. {said}" if note else said


def _undefined_note(metric, rows: list[RankedSystem], best: list[str], note: str | None):
    """The track's note, with a sentence naming the systems whose score is undefined there and the
    ``best`` of the others, the reference of their "p vs best"."""
    if not rows:
        return note
    said = kit_text(
        "ranking/undefined",
        metric=metric.title,
        count=counted(len(rows), "system"),
        why=metric.undefined_note,
        systems=", ".join(f"{row.system} (rank {row.rank})" for row in rows),
        others=kit_text("ranking/undefined_others", best=", ".join(best)) if best else "",
    )
    return f"{note}. {said}" if note else said


#: The overall orders ``rank_overall`` knows: the primary score (the default, which no third system
#: can flip) and the mean rank over the primary tracks (which one can, see the module docstring).
BY_PRIMARY = "primary"
BY_MEAN_RANK = "mean-rank"
OVERALL_RULES = (BY_PRIMARY, BY_MEAN_RANK)


def rank_overall(
    primary_track_ids: Sequence[str],
    rankings: dict[str, TrackRanking],
    primary_scores: dict[str, float],
    primary_higher_is_better: bool = True,
    rule: str = BY_PRIMARY,
    stand_ins: dict[str, float] | None = None,
) -> list[OverallRow]:
    """Overall ranks by ``rule``; every row also holds the system's mean rank over the primary
    tracks, where a track it did not submit ranks as in a group's table (``rank_group``: at its
    ``stand_ins`` score's rank, else after every system that submitted it).

    ``BY_PRIMARY``: best primary score first (direction ``primary_higher_is_better``); equal primary
    scores (to rounding) share a rank and are listed by name. ``BY_MEAN_RANK``: lowest mean rank
    first; equal means share a rank and are listed by primary score, then name. Ranks are
    competition ranks (1, 1, 3).
    """
    sign = -1.0 if primary_higher_is_better else 1.0
    means = rank_group(primary_track_ids, rankings, list(primary_scores), stand_ins or {})
    rows = [OverallRow(row.system, 0, row.value, primary_scores[row.system]) for row in means]
    for row, mean in zip(rows, means):
        row.stand_in_ranks = {t: mean.track_ranks[t] for t in mean.stand_ins}
    if rule == BY_PRIMARY:
        _competition_ranks(rows, lambda r: sign * r.primary)
    else:
        primary_place = _block_numbers({row.system: sign * row.primary for row in rows})
        _competition_ranks(rows, lambda r: r.mean_rank, lambda r: primary_place[r.system])
    return rows


def rank_as_printed(rows: list[OverallRow], printed: Callable[[float], str]) -> None:
    """Rank ``rows`` (``BY_PRIMARY``'s order) again so that primary scores equal as ``printed`` (or
    to rounding) are one score, as a track's: they share a rank and are listed by name."""

    def same(a: OverallRow, b: OverallRow) -> bool:
        return printed(a.primary) == printed(b.primary) or equal_scores(a.primary, b.primary)

    place = {}
    for before, row in zip([None, *rows], rows):
        place[row.system] = place[before.system] if before and same(before, row) else len(place)
    _competition_ranks(rows, lambda row: float(place[row.system]))


def _block_numbers(values: dict[str, float]) -> dict[str, int]:
    """Name -> the place of its value among ``values``, lowest first, values equal to rounding
    sharing one (``score_blocks``)."""
    blocks = score_blocks(values, higher_is_better=False)
    return {name: number for number, block in enumerate(blocks) for name in block}


def _competition_ranks(rows: list, key: Callable, then: Callable = lambda row: 0) -> None:
    """Sort ``rows`` in place by ``key`` (lowest first; keys equal to rounding as one, as a track's
    scores: ``score_blocks``), then ``then``, then system name, and rank them: a row whose ``key``
    equals the previous row's shares its rank."""
    block_of = _block_numbers({row.system: key(row) for row in rows})
    rows.sort(key=lambda row: (block_of[row.system], then(row), row.system))
    for position, row in enumerate(rows):
        same = position > 0 and block_of[rows[position - 1].system] == block_of[row.system]
        row.rank = rows[position - 1].rank if same else position + 1


#: The orders of a group of tracks (``ranking: {groups: {NAME: {order: ...}}}``): the mean of the
#: tracks' tie-aware ranks (LeWiDi 2025's per-task rankings) or the mean of their main scores.
GROUP_MEAN_RANK = "mean_rank"
GROUP_MEAN_SCORE = "mean_score"
GROUP_ORDERS = (GROUP_MEAN_RANK, GROUP_MEAN_SCORE)


@dataclass
class GroupRow:
    """One system in a group's table: its place, the group's number (mean rank or mean score),
    its rank on each track and the tracks where a stand-in counted (the run did not submit them)."""

    system: str
    rank: int
    value: float
    track_ranks: dict[str, int]
    stand_ins: list[str] = field(default_factory=list)


def stand_in_rank(ranking: TrackRanking, value: float | None) -> int:
    """The rank of a run that did not submit the track: with a stand-in score ``value`` (a
    baseline's), the rank of the cluster that score falls in: the best rank of the systems scoring
    no better (a run with that very score shares it; no test: the stand-in has no per-item values);
    below every system, or without a stand-in, after every system that submitted it."""
    sign = 1.0 if get_metric(ranking.metric).higher_is_better else -1.0
    not_better = [
        r.rank for r in ranking.rows if value is not None and sign * (value - r.value) >= 0
    ]
    return min(not_better, default=len(ranking.rows) + 1)


def rank_group(
    track_ids: Sequence[str],
    rankings: dict[str, TrackRanking],
    systems: Sequence[str],
    stand_ins: dict[str, float],
    order: str = GROUP_MEAN_RANK,
) -> list[GroupRow]:
    """A group's table: ``systems`` ordered by their mean tie-aware rank over ``track_ids`` (a
    track's cluster shares its leader's rank; ``GROUP_MEAN_SCORE``: by the mean main score, whose
    direction the tracks share), equal means sharing a place (competition ranks 1, 1, 3), then by
    name. ``stand_ins``: track id -> the score counted for a run that did not submit it (a
    baseline's); a track without one counts as after every system that submitted it."""
    rows = [_group_row(s, track_ids, rankings, stand_ins, order) for s in systems]
    metric = get_metric(rankings[track_ids[0]].metric)
    sign = -1.0 if order == GROUP_MEAN_SCORE and metric.higher_is_better else 1.0
    _competition_ranks(rows, lambda r: sign * r.value)
    return rows


def _group_row(system, track_ids, rankings, stand_ins, order) -> GroupRow:
    ranks, values, filled = {}, [], []
    for tid in track_ids:
        ranking = rankings[tid]
        row = next((r for r in ranking.rows if r.system == system), None)
        if row is None:
            filled.append(tid)
            ranks[tid] = stand_in_rank(ranking, stand_ins.get(tid))
            worst = get_metric(ranking.metric).worst(len(ranking.track.labels))
            values.append(stand_ins.get(tid, worst))
        else:
            ranks[tid] = row.rank
            values.append(row.value)
    mean = np.mean(list(ranks.values())) if order == GROUP_MEAN_RANK else np.mean(values)
    return GroupRow(system, 0, round(float(mean), 9), ranks, filled)
