"""Hidden gold in a public file in another encoding: values one transformation away from the gold,
where the transformation keeps the track's metric perfect.

- **numbers** (similarity scores, soft-label probabilities): any affine map, negation included
  (Pearson |r| = 1), and any strictly monotone map, increasing or decreasing (Spearman |rho| = 1);
- **labels** (classification labels, annotators' labels): any bijective relabelling (label names to
  indices and back, a permutation of the names, letters).

The file's values are aligned with the hidden items two ways:

- **by id**: where a hidden item's id appears (its first occurrence), the 1st, 2nd and 3rd value after
  it and before it, and the first three and last three values of its line, are twelve columns;
  a numeric column is a leak when, on at least half of the track's items and at least
  ``MIN_CORRELATED`` of them, its Pearson |r| or Spearman |rho| with the gold is at least
  ``PERFECT``; a label column (any token) is a leak when its best one-to-one map of gold labels to
  tokens agrees on as large a share of the items as ``content_leaks`` asks of the gold itself
  (``leak_threshold``). Either way the items matched must carry ``id_floor_bits`` of the gold:
  ``ID_BITS`` plus log2 of the hypotheses tested (the columns, and the maps: both directions, or
  the L! relabellings), so a column independent of the gold is a false alarm with probability at
  most 2**-ID_BITS per file holding the ids and track: few hypotheses, so fewer bits than by order;
- **by order** (a file without ids): the order pattern of consecutive values (up, down, equal), which
  every strictly monotone map keeps and a decreasing one reverses, and the repetition pattern of
  labels (which earlier value each one repeats), which every relabelling keeps, are hashed in runs
  long enough to carry ``ORDER_BITS`` bits of the gold (every window of the file is tested, so many
  more bits than by id), in the file's numbers and label-like tokens (also every 2nd to 8th value,
  as a column beside others) and in the first and last value of each line; a track is leaked when
  half of its items lie in runs found in the file.

docs/participant-checks.md derives the false-alarm rate of each floor.

Constant gold carries no order and no correlation and is never reported; gold with too little
information (few items, one dominant label) is left to the exact checks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Dict, Iterator, List, Optional, Tuple

import numpy as np

from .content_leaks import (
    LEAK_SHARE_MIN,
    MAX_STRIDE,
    ORDER_BITS,
    Probe,
    TextValues,
    entropy_bits,
    leak_threshold,
    run_hashes,
    runs_found,
)

PERFECT = 0.999  # |r| or |rho| at least this: perfect up to the rounding of the written values
MIN_CORRELATED = 20  # a correlation of PERFECT on fewer items could be chance
#: By id, the false-alarm probability allowed per public file holding the track's ids and per track,
#: as bits: 2**-20 (about 1e-6), over every column and map tested (``id_floor_bits``).
ID_BITS = 20
OFFSETS = (1, 2, 3)
AFTER = {1: "the value just after", 2: "the 2nd value after", 3: "the 3rd value after"}
BEFORE = {1: "the value just before", 2: "the 2nd value before", 3: "the 3rd value before"}
FIRST = {1: "the first value", 2: "the second value", 3: "the third value"}
LAST = {1: "the last value", 2: "the second-to-last value", 3: "the third-to-last value"}
ID_COLUMNS = 4 * len(OFFSETS)  # after and before the id, first and last of its line (id_columns)


@dataclass(frozen=True)
class Stream:
    """Values of a text that may carry a track's gold: their token positions and lines, as numbers
    (``values``, floats) or as token codes (ints, equal tokens equal codes)."""

    positions: np.ndarray
    lines: np.ndarray
    values: np.ndarray


def number_stream(text: TextValues) -> Stream:
    return Stream(text.number_positions, text.number_lines, text.raw_numbers)


def token_stream(text: TextValues) -> Stream:
    return Stream(np.arange(len(text.tokens)), text.lines, text.token_codes)


# --- by id -------------------------------------------------------------------------------------


def _within(index: np.ndarray, low, high) -> np.ndarray:
    return np.where((index >= low) & (index < high), index, -1)


def id_columns(stream: Stream, positions: np.ndarray, lines: np.ndarray) -> Dict[str, np.ndarray]:
    """For ids at token ``positions`` on ``lines``: column name -> the index in ``stream`` of each
    id's value in that column (-1 where it has none)."""
    n = len(stream.positions)
    after = np.searchsorted(stream.positions, positions, side="right")
    before = np.searchsorted(stream.positions, positions, side="left")
    first = np.searchsorted(stream.lines, lines, side="left")
    end = np.searchsorted(stream.lines, lines, side="right")
    columns = {}
    for k in OFFSETS:
        columns[f"{AFTER[k]} their ids"] = _within(after + k - 1, 0, n)
        columns[f"{BEFORE[k]} their ids"] = _within(before - k, 0, n)
        columns[f"{FIRST[k]} of their ids' lines"] = _within(first + k - 1, first, end)
        columns[f"{LAST[k]} of their ids' lines"] = _within(end - k, first, end)
    return columns


def _ranks(values: np.ndarray) -> np.ndarray:
    """Average ranks (ties share the mean of their ranks), as Spearman's rho uses."""
    _, inverse, counts = np.unique(values, return_inverse=True, return_counts=True)
    upper = np.cumsum(counts)
    return (upper - (counts - 1) / 2.0)[inverse]


def _abs_correlation(x: np.ndarray, y: np.ndarray) -> float:
    """|Pearson r|, 0 when either side is constant (no correlation to speak of)."""
    x, y = x - x.mean(), y - y.mean()
    denominator = math.sqrt(float((x * x).sum()) * float((y * y).sum()))
    return abs(float((x * y).sum())) / denominator if denominator > 0 else 0.0


def perfectly_correlated(gold: np.ndarray, values: np.ndarray) -> bool:
    """Pearson |r| or Spearman |rho| of ``values`` with ``gold`` at least ``PERFECT``."""
    if _abs_correlation(gold, values) >= PERFECT:
        return True
    return _abs_correlation(_ranks(gold), _ranks(values)) >= PERFECT


def best_relabelling(gold: np.ndarray, tokens: np.ndarray) -> int:
    """Items on which the best one-to-one map of gold labels to tokens agrees (greedy on the most
    frequent pairs, so never more than the best map)."""
    pairs, counts = np.unique(np.stack([gold, tokens], axis=1), axis=0, return_counts=True)
    used_gold, used_token, agree = set(), set(), 0
    for k in np.argsort(-counts, kind="stable"):
        label, token = int(pairs[k, 0]), int(pairs[k, 1])
        if label not in used_gold and token not in used_token:
            used_gold.add(label)
            used_token.add(token)
            agree += int(counts[k])
    return agree


def relabelling_bits(probe: Probe) -> float:
    """Bits a relabelling can add to chance agreement: log2 of the number of one-to-one maps."""
    return math.log2(math.factorial(max(1, len(probe.labels))))


def order_bits(gold: np.ndarray) -> float:
    """Bits of the order of the values ``gold``: log2 of their distinct orderings (n! over t! for
    each group of t equal values). A column independent of the gold ranks the items as the gold
    does with probability 2**-bits."""
    _, counts = np.unique(gold, return_counts=True)
    ways = math.lgamma(len(gold) + 1) - sum(math.lgamma(c + 1) for c in counts)
    return ways / math.log(2)


def id_floor_bits(probe: Probe) -> float:
    """Bits of the gold the items a by-id column matches must carry: ``ID_BITS`` plus log2 of the
    hypotheses tested in one file (each of the columns, under each map: increasing or decreasing
    for numbers, each one-to-one relabelling for labels). A column independent of the gold matches
    one hypothesis on items carrying B bits with probability about 2**-B, so any of them with
    probability at most 2**-ID_BITS."""
    maps = 1.0 if probe.numeric else relabelling_bits(probe)
    return ID_BITS + math.log2(ID_COLUMNS) + maps


def _numeric_share(probe: Probe, gold: np.ndarray, rows: np.ndarray, values: np.ndarray) -> float:
    if len(rows) < max(MIN_CORRELATED, LEAK_SHARE_MIN * len(probe.ids)):
        return 0.0
    if order_bits(gold[rows]) < id_floor_bits(probe):
        return 0.0
    return len(rows) / len(probe.ids) if perfectly_correlated(gold[rows], values) else 0.0


def _label_share(probe: Probe, gold: np.ndarray, rows: np.ndarray, values: np.ndarray) -> float:
    if len(np.unique(gold[rows])) < 2:
        return 0.0
    agree = best_relabelling(gold[rows], values)
    if agree * entropy_bits(gold[rows]) < id_floor_bits(probe):
        return 0.0
    share = agree / len(probe.ids)
    return share if share >= leak_threshold(probe.chance) else 0.0


def share_by_id(probe: Probe, text: TextValues) -> Tuple[float, str]:
    """(share of the probe's items, column) of the best column next to the items' ids whose values
    are the gold transformed; (0, '') when none is. Items whose gold is one value only."""
    if any(len(pattern) != 1 for pattern in probe.patterns):
        return 0.0, ""
    found = [
        (row, text.id_positions[item_id][0])
        for row, item_id in enumerate(probe.ids)
        if item_id in text.id_positions
    ]
    if not found:
        return 0.0, ""
    rows = np.asarray([row for row, _ in found])
    positions = np.asarray([pos for _, pos in found])
    stream = number_stream(text) if probe.numeric else token_stream(text)
    gold = probe.codes([pattern[0] for pattern in probe.patterns])
    share_of = _numeric_share if probe.numeric else _label_share
    best = (0.0, "")
    for name, index in id_columns(stream, positions, text.lines[positions]).items():
        keep = index >= 0
        share = share_of(probe, gold, rows[keep], stream.values[index[keep]])
        best = max(best, (share, name))
    return best


# --- by order ----------------------------------------------------------------------------------


def order_codes(values: np.ndarray) -> np.ndarray:
    """0, 1, 2 for each step down, equal, up between consecutive values."""
    return (np.sign(np.diff(values.astype(float))) + 1).astype(np.int64)


def repeat_codes(values: np.ndarray, k: int) -> np.ndarray:
    """For each value, how far back the same value last came (0 for none within ``k``): a run's
    codes are the same for every relabelling of its values. The hash of a run adds the run's own
    horizon (``_window_hashes``)."""
    order = np.lexsort((np.arange(len(values)), values))
    gaps = np.zeros(len(values), dtype=np.int64)
    same = values[order[1:]] == values[order[:-1]]
    gaps[order[1:][same]] = (order[1:] - order[:-1])[same]
    return np.where(gaps <= k, gaps, 0)


def _window_hashes(gaps: np.ndarray, k: int) -> np.ndarray:
    """A hash of every run of ``k`` values by their repetition pattern inside the run: the j-th value
    counts its gap when the value it repeats lies inside the run, else as new."""
    m = len(gaps) - k + 1
    if m <= 0:
        return np.zeros(0, dtype=np.uint64)
    h = np.zeros(m, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for j in range(k):
            window = gaps[j : j + m]
            code = np.where(window <= j, window, 0).astype(np.uint64)
            h = h * np.uint64(1_000_003) + code + np.uint64(0x9E3779B97F4A7C15)
    return h


@dataclass(frozen=True)
class OrderProbe:
    """A probe's gold as runs of its order (numbers) or repetition (labels) pattern."""

    k: int
    runs: Tuple[np.ndarray, ...]  # the gold's run hashes; numbers: increasing and decreasing maps
    owner: np.ndarray  # the item of each code
    span: int  # the codes a run covers beyond its k (1 for order codes: k steps, k + 1 values)


def order_probe(probe: Probe) -> Optional[OrderProbe]:
    """The probe's runs, or None when its gold carries too little information for them."""
    if "encoded" not in probe.cache:
        probe.cache["encoded"] = _order_probe(probe)
    return probe.cache["encoded"]


def _order_probe(probe: Probe) -> Optional[OrderProbe]:
    flat = probe.codes([v for pattern in probe.patterns for v in pattern])
    owner = np.repeat(np.arange(len(probe.patterns)), [len(p) for p in probe.patterns])
    if probe.numeric:
        codes = order_codes(flat)
        extra = 0.0
    else:
        codes = flat
        extra = relabelling_bits(probe)
    bits = entropy_bits(codes)
    if bits <= 0:
        return None
    k = max(3, math.ceil((ORDER_BITS + extra) / bits))
    if len(codes) < 4 * k:
        return None
    if probe.numeric:
        runs = (run_hashes(codes, k), run_hashes(2 - codes, k))
        return OrderProbe(k, runs, owner, 1)
    return OrderProbe(k, (_window_hashes(repeat_codes(codes, k), k),), owner, 0)


def _substreams(values: np.ndarray) -> List[np.ndarray]:
    return [
        values[offset::stride] for stride in range(1, MAX_STRIDE + 1) for offset in range(stride)
    ]


def _line_ends(stream: Stream) -> List[np.ndarray]:
    """The first and the last value of each line that has one."""
    if not len(stream.lines):
        return []
    starts = np.flatnonzero(np.r_[True, stream.lines[1:] != stream.lines[:-1]])
    ends = np.r_[starts[1:], len(stream.lines)] - 1
    return [stream.values[starts], stream.values[ends]]


def file_runs(text: TextValues, probe: Probe, k: int) -> Iterator[np.ndarray]:
    """Run hashes of every stream of the file that may carry the probe's gold, one array each."""
    if probe.numeric:
        for values in _substreams(text.raw_numbers) + _line_ends(number_stream(text)):
            yield run_hashes(order_codes(values), k)
        return
    labels = probe.codes(text.stream(probe)[1])
    streams = _substreams(labels) + _substreams(text.number_codes)
    for values in streams + _line_ends(token_stream(text)):
        yield _window_hashes(repeat_codes(values, k), k)


def share_by_order(probe: Probe, text: TextValues) -> float:
    """Share of the probe's items whose codes all lie in runs of the transformed gold in the file."""
    order = order_probe(probe)
    if order is None:
        return 0.0
    n, m = len(order.owner), len(order.runs[0])
    found = runs_found(np.concatenate(order.runs), file_runs(text, probe, order.k))
    starts = np.flatnonzero(found) % m  # a run of either orientation
    covered = np.zeros(n + 1, dtype=np.int64)
    np.add.at(covered, starts, 1)
    np.add.at(covered, np.minimum(starts + order.k + order.span, n), -1)
    element_covered = np.cumsum(covered[:-1]) > 0
    missing = np.bincount(order.owner[~element_covered], minlength=len(probe.patterns))
    return float(np.mean(missing == 0))


def encoded_leaks(text: TextValues, probes: List[Probe]) -> List[Tuple[str, float, str]]:
    """(probe name, share, how) for every probe whose gold the text holds transformed."""
    leaks = []
    for probe in probes:
        by_id, column = share_by_id(probe, text)
        if by_id > 0:
            leaks.append((probe.name, by_id, f"transformed, in {column}"))
            continue
        by_order = share_by_order(probe, text)
        if by_order >= LEAK_SHARE_MIN:
            leaks.append((probe.name, by_order, "transformed, in their order"))
    return leaks
