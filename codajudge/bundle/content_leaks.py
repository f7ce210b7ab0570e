"""Hidden gold in a public file of any text layout, found by its content.

A file leaks a hidden split when its numbers or labels reproduce the split's gold for a large share of
the items, whatever the layout (CSV, TSV, a JSON object keyed by id, JSON lines, Markdown, a column of
scores without ids). The text is cut into tokens (runs of characters between blanks and the
punctuation of CSV, JSON and Markdown tables) and read two ways:

- **by id**: wherever a hidden item's id appears, the values just after it and just before it (the
  nearest numbers, or the nearest of the track's labels) are compared with that item's gold: its
  score, its label, its soft-label vector, or its annotators' labels in order (for a vector, the values
  may be interleaved with keys, as ``{"0": 0.4, "1": 0.6}``);
- **by order**: the file's numbers (or labels), and every sub-sequence of them taken with a stride of
  up to ``MAX_STRIDE`` (a column of a table with numeric ids), are cut into runs of ``k`` values, and
  a hidden item counts when the gold around it appears as such a run. ``k`` is chosen so that a run
  carries ``ORDER_BITS`` bits of the gold's information (by its per-value entropy), so runs do not
  match by chance; items missing from the file only break the runs around them.

Numbers are compared at two decimals (so 0.3333 and 0.33 agree); labels exactly. A track is leaked
when the share of its scored items found is at least ``leak_threshold(chance)``: half of its items,
and more when the by-id comparison would often agree by chance (few labels, one dominant label).
"""

from __future__ import annotations

import math
import re
import unicodedata
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from functools import cached_property
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from .. import kinds
from ..gold import GoldTrack

TOKEN = re.compile(r"[^\s,;:|\"'{}\[\]()=<>]+")
NUMBER = re.compile(r"^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$")
LEAK_SHARE_MIN = 0.5
MIN_ITEMS = 5
ORDER_BITS = 40  # per run: every window of every file is scanned (docs/participant-checks.md)
MAX_STRIDE = 8
DECIMALS = 2


def text_key(item: dict) -> Tuple[str, ...]:
    """An item's texts as compared across splits and public files: each NFKC-normalised, with runs of
    white space read as one space and the ends stripped (a copy re-encoded or re-wrapped is the same
    item); case and punctuation count."""
    return tuple(
        " ".join(unicodedata.normalize("NFKC", str(text)).split())
        for text in item.get("texts") or ()
    )


def leak_threshold(chance: float) -> float:
    """Share of a track's items a file must reproduce to be refused: at least ``LEAK_SHARE_MIN``, and
    halfway between chance agreement and all items (chance = two independent guesses, before and
    after an id, each right with the gold's own value frequencies)."""
    either = 1.0 - (1.0 - chance) ** 2
    return max(LEAK_SHARE_MIN, either + (1.0 - either) / 2)


def quantise(value: float) -> int:
    return int(round(value * 10**DECIMALS))


@dataclass
class Probe:
    """What a track's hidden gold looks like in text: one pattern of values per scored item."""

    name: str
    ids: List[str]
    patterns: List[Tuple]  # ints (quantised numbers) or label strings
    numeric: bool
    labels: frozenset
    cache: dict = field(default_factory=dict, repr=False)  # derived forms of the gold, by use

    @cached_property
    def index(self) -> Dict[str, int]:
        return {item_id: k for k, item_id in enumerate(self.ids)}

    @cached_property
    def codebook(self) -> Dict[str, int]:
        return {label: code for code, label in enumerate(sorted(self.labels), start=1)}

    def codes(self, values: Sequence) -> np.ndarray:
        """Values as integers: quantised numbers as they are, labels by the probe's codebook."""
        if self.numeric:
            return np.asarray(values, dtype=np.int64)
        return np.asarray([self.codebook[v] for v in values], dtype=np.int64)

    @cached_property
    def order(self) -> Optional[Tuple[int, np.ndarray, np.ndarray]]:
        """(run length k, the gold's run hashes, the item of each gold value), or None when the gold has
        too few values for runs that cannot match by chance."""
        gold = self.codes([v for pattern in self.patterns for v in pattern])
        bits = entropy_bits(gold)
        if bits <= 0:
            return None
        k = max(3, math.ceil(ORDER_BITS / bits))
        if len(gold) < 4 * k:
            return None  # too few values for runs this long: the by-id reading alone decides
        owner = np.repeat(np.arange(len(self.patterns)), [len(p) for p in self.patterns])
        return k, run_hashes(gold, k), owner

    @cached_property
    def chance(self) -> float:
        counts: Dict[Tuple, int] = {}
        for pattern in self.patterns:
            counts[pattern] = counts.get(pattern, 0) + 1
        n = len(self.patterns)
        return sum((c / n) ** 2 for c in counts.values()) if n else 1.0


def probe_for(name: str, gold: GoldTrack, items: Sequence[dict]) -> Optional[Probe]:
    """The probe of a hidden track, or None when it has too few scored items to judge."""
    kind = kinds.of(gold.track)
    keep = [i for i in range(len(gold.ids)) if gold.scored[i]]
    if len(keep) < MIN_ITEMS:
        return None
    patterns = [kind.gold_in_text(gold, items, i) for i in keep]
    if kind.gold_is_numeric:
        patterns = [tuple(map(quantise, pattern)) for pattern in patterns]
    return Probe(
        name,
        [gold.ids[i] for i in keep],
        patterns,
        kind.gold_is_numeric,
        frozenset(gold.track.labels),
    )


class TextValues:
    """A text's tokens with their lines, the positions and values of its numbers and of its label-like
    tokens, and where each hidden id (``hidden_ids``) occurs."""

    def __init__(self, text: str, hidden_ids=frozenset()):
        self.tokens: List[str] = []
        lines: List[int] = []
        for number, line in enumerate(text.split("\n")):  # not splitlines: U+2028 is text
            found = TOKEN.findall(line)
            self.tokens += found
            lines += [number] * len(found)
        self.lines = np.asarray(lines, dtype=np.int64)
        self.number_pos: List[int] = []
        self.numbers: List[int] = []
        raw: List[float] = []
        for pos, token in enumerate(self.tokens):
            if NUMBER.match(token):
                value = float(token)
                if math.isfinite(value) and abs(value) < 1e12:
                    self.number_pos.append(pos)
                    self.numbers.append(quantise(value))
                    raw.append(value)
        self.raw_numbers = np.asarray(raw, dtype=float)
        self.number_positions = np.asarray(self.number_pos, dtype=np.int64)
        self.number_lines = self.lines[self.number_positions]
        self.id_positions: Dict[str, List[int]] = {}
        for pos, token in enumerate(self.tokens):
            if token in hidden_ids:
                self.id_positions.setdefault(token, []).append(pos)
        self._labels: Dict[frozenset, Tuple[List[int], List[str]]] = {}
        self.cache: Dict[tuple, np.ndarray] = {}

    @cached_property
    def token_codes(self) -> np.ndarray:
        """Each token as an integer, equal tokens equal integers."""
        codes: Dict[str, int] = {}
        return np.asarray([codes.setdefault(t, len(codes)) for t in self.tokens], dtype=np.int64)

    @property
    def number_codes(self) -> np.ndarray:
        """The numbers' tokens as ``token_codes`` (label indices are numbers)."""
        return self.token_codes[self.number_positions]

    def stream(self, probe: Probe) -> Tuple[List[int], list]:
        """(positions, values) of the tokens that can carry the probe's gold."""
        if probe.numeric:
            return self.number_pos, self.numbers
        if probe.labels not in self._labels:
            hits = [(pos, tok) for pos, tok in enumerate(self.tokens) if tok in probe.labels]
            self._labels[probe.labels] = ([p for p, _ in hits], [t for _, t in hits])
        return self._labels[probe.labels]

    def exact_runs(self, probe: Probe, k: int) -> Iterator[np.ndarray]:
        """The hashes of every run of ``k`` of the probe's kind of values, taken with every stride up
        to ``MAX_STRIDE`` and every offset (one array per stride and offset)."""
        key = ("codes", probe.numeric or tuple(sorted(probe.labels)))
        if key not in self.cache:
            self.cache[key] = probe.codes(self.stream(probe)[1])
        found = self.cache[key]
        for stride in range(1, MAX_STRIDE + 1):
            for offset in range(stride):
                yield run_hashes(found[offset::stride], k)


def _in_order(pattern: Tuple, window: Sequence) -> bool:
    """``pattern`` appears in ``window`` in order (other values may come between)."""
    it = iter(window)
    return all(any(value == candidate for candidate in it) for value in pattern)


def share_by_id(probe: Probe, text: TextValues, id_positions: Dict[str, List[int]]) -> float:
    """Share of the probe's items whose gold is next to an occurrence of their id
    (``id_positions``: token -> its positions in the text, for the tokens that are hidden ids)."""
    positions, values = text.stream(probe)
    found = 0
    for item_id in id_positions.keys() & probe.index.keys():
        pattern = probe.patterns[probe.index[item_id]]
        width = 1 if len(pattern) == 1 else 2 * len(pattern)
        for pos in id_positions[item_id]:
            after, before = bisect_right(positions, pos), bisect_left(positions, pos)
            if width == 1:  # the nearest value after or before
                if (after < len(values) and values[after] == pattern[0]) or (
                    before > 0 and values[before - 1] == pattern[0]
                ):
                    found += 1
                    break
            elif _in_order(pattern, values[after : after + width]) or _in_order(
                pattern, values[max(0, before - width) : before]
            ):
                found += 1
                break
    return found / len(probe.ids)


def entropy_bits(stream: np.ndarray) -> float:
    """Bits per value: the smaller of the marginal entropy and the entropy given the previous value
    (so long runs of one value, as in sorted data, count as little information)."""

    def entropy(keys) -> float:
        _, counts = np.unique(keys, return_counts=True, axis=0)
        p = counts / counts.sum()
        return float(-(p * np.log2(p)).sum())

    if len(stream) < 2:
        return 0.0
    pairs = np.stack([stream[:-1], stream[1:]], axis=1)
    return min(entropy(stream), entropy(pairs) - entropy(stream[:-1]))


def run_hashes(values: np.ndarray, k: int) -> np.ndarray:
    """A 64-bit hash of every run of ``k`` consecutive values."""
    m = len(values) - k + 1
    if m <= 0:
        return np.zeros(0, dtype=np.uint64)
    data = values.astype(np.uint64)
    h = np.zeros(m, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for j in range(k):
            h = h * np.uint64(1_000_003) + data[j : j + m] + np.uint64(0x9E3779B97F4A7C15)
    return h


FILTER_BITS = (
    20  # the gold's runs as a 2**20-bit table: a file's runs mostly miss it at one look-up
)


def runs_found(gold_runs: np.ndarray, file_runs: Iterable[np.ndarray]) -> np.ndarray:
    """Which of ``gold_runs`` occur among the arrays of ``file_runs`` (a mask over ``gold_runs``).
    Each file hash is looked up in a bit table of the gold's few hashes, and the rare hits in their
    sorted list: O(n + hits log g) per file array, no set of the file's runs."""
    table = np.unique(gold_runs)
    seen = np.zeros(len(table), dtype=bool)
    mask = np.uint64((1 << FILTER_BITS) - 1)
    bits = np.zeros(1 << FILTER_BITS, dtype=bool)
    bits[table & mask] = True
    for hashes in file_runs:
        candidates = hashes[bits[hashes & mask]]
        if len(candidates):
            at = np.minimum(np.searchsorted(table, candidates), len(table) - 1)
            seen[at[table[at] == candidates]] = True
    return seen[np.searchsorted(table, gold_runs)] if len(table) else seen


def share_by_order(probe: Probe, text: TextValues) -> float:
    """Share of the probe's items whose gold values all lie within runs of gold found in the file."""
    if probe.order is None:
        return 0.0
    k, gold_runs, owner = probe.order
    if len(text.stream(probe)[1]) < k:
        return 0.0
    starts = np.flatnonzero(runs_found(gold_runs, text.exact_runs(probe, k)))
    covered = np.zeros(len(owner) + 1, dtype=np.int64)
    np.add.at(covered, starts, 1)
    np.add.at(covered, starts + k, -1)
    element_covered = np.cumsum(covered[:-1]) > 0
    missing = np.bincount(owner[~element_covered], minlength=len(probe.patterns))
    return float(np.mean(missing == 0))


def content_leaks(text: TextValues, probes: List[Probe]) -> List[Tuple[str, float, str]]:
    """(probe name, share, how) for every probe whose gold the text reproduces as it is (``text``
    read with the probes' ids as its hidden ids)."""
    leaks = []
    for probe in probes:
        threshold = leak_threshold(probe.chance)
        by_id = share_by_id(probe, text, text.id_positions)
        if by_id >= threshold:
            leaks.append((probe.name, by_id, "next to their ids"))
            continue
        by_order = share_by_order(probe, text)
        if by_order >= LEAK_SHARE_MIN:
            leaks.append((probe.name, by_order, "in their order"))
    return leaks


def hidden_ids(probes: List[Probe]) -> frozenset:
    """Every id of the probes' items: the tokens ``TextValues`` locates."""
    return frozenset().union(*(probe.ids for probe in probes))
