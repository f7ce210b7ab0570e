"""Refusing public files that contain hidden gold.

Every public file (and every file inside a public zip, one level deep) is checked against the gold of
every hidden split:

- public input item files may hold only public fields (training files aside, whose gold is public by
  design and whose items may not be evaluation items), and no field whose content follows from a
  hidden item's per-annotator labels (``label_counts``: a name repeated once per label given, or
  each annotator's number of labels);
- an item file of the kit's format holding hidden items (the same texts whatever the ids, or the same
  id for items without texts) with their gold, for half of a track's items or more, is refused, even
  with items left out;
- any text file is read as a submission of each hidden track (``scoring.read_track_file``, the kit's
  own encodings); reproducing most of a track's gold (``SUBMISSION_SHARE``) refuses it, and a file
  that reads as one is a system's predictions, which agree with the gold by skill: the readings
  below need as large a share of its items;
- and once by its content (``TextValues``: its tokens, numbers and lines), in which each hidden
  track's gold is looked for as it is and transformed as the track's metric allows (any affine or
  strictly monotone map of numbers, any one-to-one relabelling of labels), two ways:

  - **by id**: the values beside each hidden id (the nearest before and after it, the first and last
    of its line), and for ids that are whole numbers the first and last of line id+1 and of line id
    (a release's line numbers), compared with that item's gold;
  - **by order**: runs of the gold in the file's values, and in its columns read as a table (the
    j-th value of every line), long enough to carry ``ORDER_BITS`` bits of the gold.

The floors differ by kind of evidence: by id few hypotheses are tested, so a leak is found from far
fewer items (``ID_BITS``) than by order, which tests every window of every file. Numbers are compared
at two decimals. docs/participant-checks.md states the thresholds and derives their false-alarm
rates; an edition declares a file published on purpose in ``known_leaks``. Binary files (a NUL byte
in their first 8 KiB) and the engine's own code are not read.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import re
import tempfile
import unicodedata
import zipfile
from bisect import bisect_left, bisect_right
from collections import Counter
from contextlib import suppress
from pathlib import Path, PurePosixPath
from typing import NamedTuple
from collections.abc import Iterator, Sequence

import numpy as np

from .. import kinds
from ..errors import ConfigError, KitError, Problem
from ..formats.annotators import annotator_names
from ..formats.archive import ARCHIVE_SUFFIXES, MAX_ENTRIES, READ_ERRORS
from ..formats.textfile import safe_display
from ..formats.items import PUBLIC_FIELDS, read_items
from ..gold import GoldTrack, build_gold
from ..metrics.correlation import average_ranks
from ..scoring import read_track_file

PIECE = re.compile(r"\n|[^\s,;:|\"'{}\[\]()=<>]+")  # a token, or a line's end
NUMBER = re.compile(r"^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$")
LEAK_SHARE_MIN = 0.5  # share of a track's items found, at least
SUBMISSION_SHARE = 0.9  # a file read as a submission: share of items exactly right
MIN_ITEMS = 5  # tracks with fewer scored items are not judged
DECIMALS = 2
#: By order, bits of the gold a run carries: every window of every file is tested.
ORDER_BITS = 40
#: By id, the false-alarm probability allowed per file holding a track's ids and per track, as bits
#: (2**-20, about 1e-6), over every column and map tested (``id_floor_bits``).
ID_BITS = 20
PERFECT = 0.999  # |r| or |rho| at least this: perfect up to the rounding of the written values
MIN_CORRELATED = 20  # a correlation of PERFECT on fewer items could be chance
MAX_SCANNED_BYTES = 64 * 1024 * 1024
HINT = (
    "remove the file, or mark the phase's gold public on purpose, or (a file published on "
    "purpose) declare its path with the reason in the edition's 'known_leaks'"
)


def text_key(item: dict, ordered: bool = True) -> tuple[str, ...]:
    """An item's texts as compared across splits and public files: each NFKC-normalised, with runs of
    white space read as one space and the ends stripped (a copy re-encoded or re-wrapped is the same
    item); case and punctuation count. Not ``ordered`` (a kind whose gold does not depend on the
    texts' order, ``texts_ordered``), sorted: a pair and its swap are the same item."""
    texts = [
        " ".join(unicodedata.normalize("NFKC", str(text)).split())
        for text in item.get("texts") or ()
    ]
    return tuple(texts if ordered else sorted(texts))


def texts_ordered(tracks, dataset: str) -> bool:
    """Whether ``dataset``'s items are compared with their texts in order: unless each of its
    ``tracks`` is of a kind whose gold does not depend on that order (``Kind.texts_ordered``)."""
    scored = [kinds.of(track) for track in tracks if track.dataset == dataset]
    return not scored or any(kind.texts_ordered for kind in scored)


def label_counts(item: dict) -> tuple[str, ...] | None:
    """The item's annotators named once per label its gold gives them (a multi-label annotation
    counts each of its labels), sorted; None when that is no more than its ``annotators`` list says
    (one label an entry) or it has no annotations."""
    names, annotations = annotator_names(item.get("annotators")), item.get("annotations")
    if not isinstance(annotations, list) or len(annotations) != len(names):
        return None
    given = [labels if isinstance(labels, list) else [labels] for labels in annotations]
    counted = sorted(name for name, labels in zip(names, given) for _ in labels)
    return tuple(counted) if counted != sorted(names) else None


def tells_label_counts(value, counted: tuple[str, ...], names: list[str]) -> bool:
    """A public field's ``value`` gives the hidden ``counted`` (``label_counts``) of an item whose
    annotators are ``names``: it names each annotator as often, or lists their numbers of labels."""
    if not isinstance(value, list) or not value:
        return False
    per_name = Counter(counted)
    return sorted(map(str, value)) == list(counted) or value == [per_name[n] for n in names]


def leak_threshold(chance: float, guesses: int = 2) -> float:
    """Share of a track's items found beside their ids for a refusal: at least ``LEAK_SHARE_MIN``,
    and halfway between chance agreement and all items (chance = ``guesses`` independent guesses,
    before and after an id, each right with probability ``chance``: the gold's own value
    frequencies; one guess when ``chance`` is measured for the whole reading)."""
    either = 1.0 - (1.0 - chance) ** guesses
    return max(LEAK_SHARE_MIN, either + (1.0 - either) / 2)


def quantise(values) -> np.ndarray:
    """Numbers as integers at ``DECIMALS`` decimals (0.3333 and 0.33 agree)."""
    return np.rint(np.asarray(values, dtype=float) * 10**DECIMALS).astype(np.int64)


def entropy_bits(stream: np.ndarray) -> float:
    """Bits per value of a stream (0 for one value repeated, or none): the smaller of the marginal
    entropy and the entropy given the previous value (so long runs of one value, as in sorted data,
    count as little information)."""

    def entropy(keys) -> float:
        _, counts = np.unique(keys, return_counts=True, axis=0)
        p = counts / counts.sum()
        return float(-(p * np.log2(p)).sum())

    pairs = np.stack([stream[:-1], stream[1:]], axis=1)
    return min(entropy(stream), entropy(pairs) - entropy(stream[:-1]))


# --- the gold of a hidden track ------------------------------------------------------------------


class Probe(NamedTuple):
    """What a track's hidden gold looks like in text: one pattern of values per scored item, as
    integers (quantised numbers, or the codes of labels)."""

    patterns: dict[str, tuple[int, ...]]  # each scored item's id -> its pattern, in gold order
    numeric: bool
    codebook: dict[str, int]  # each label's code (1, 2, ...; 0 is no label), in sorted order
    gold: np.ndarray  # every item's values in order
    owner: np.ndarray  # the item of each value of ``gold``
    chance: float  # probability that two items drawn at random have the same gold
    runs: dict  # encoded or not -> its gold_runs, computed once (``share_by_order``)


def probe_for(gold: GoldTrack, items: Sequence[dict]) -> Probe | None:
    """The probe of a hidden track, or None when it has too few scored items to judge."""
    kind = kinds.of(gold.track)
    keep = np.flatnonzero(gold.scored).tolist()
    if len(keep) < MIN_ITEMS:
        return None
    values = [kind.gold_in_text(gold, items, i) for i in keep]
    codebook = {label: code for code, label in enumerate(sorted(set(gold.track.labels)), start=1)}
    if kind.gold_is_numeric:
        patterns = [tuple(quantise(pattern).tolist()) for pattern in values]
    else:
        patterns = [tuple(codebook[value] for value in pattern) for pattern in values]
    counts = np.asarray(list(Counter(patterns).values()))
    return Probe(
        dict(zip([gold.ids[i] for i in keep], patterns)),
        kind.gold_is_numeric,
        codebook,
        np.asarray([value for pattern in patterns for value in pattern], dtype=np.int64),
        np.repeat(np.arange(len(patterns)), [len(pattern) for pattern in patterns]),
        float(((counts / len(patterns)) ** 2).sum()),
        {},
    )


# --- a public text ---------------------------------------------------------------------------------


class Stream(NamedTuple):
    """Values of a text that may carry a track's gold: their token positions and lines, and the
    values (floats, or integer codes: equal tokens equal codes)."""

    positions: np.ndarray
    lines: np.ndarray
    values: np.ndarray

    def in_order(self) -> list[np.ndarray]:
        """The values in the text's order, and read as a table, column after column: the first
        value of every line, then the second, ..."""
        index = np.arange(len(self.lines))
        starts = np.diff(self.lines, prepend=-1) != 0
        column = index - np.maximum.accumulate(np.where(starts, index, 0))
        return [self.values, self.values[np.lexsort((self.lines, column))]]


class TextValues:
    """A text's tokens with their lines, its numbers, and where each hidden id occurs. Each distinct
    token (``index``: token -> its code, in the order of first occurrence) is read once."""

    def __init__(self, text: str, hidden_ids=frozenset()):
        pieces = PIECE.findall(text)
        self.index = {piece: code for code, piece in enumerate(dict.fromkeys(pieces))}
        codes = np.fromiter(map(self.index.__getitem__, pieces), dtype=np.int64, count=len(pieces))
        newline = codes == self.index.get("\n", -1)
        self.codes = codes[~newline]
        self.lines = np.cumsum(newline)[~newline]
        self.token_stream = Stream(np.arange(len(self.codes)), self.lines, self.codes)
        values = np.asarray([float(t) if NUMBER.match(t) else math.nan for t in self.index])
        self.numbers = self._select(values, np.isfinite(values) & (np.abs(values) < 1e12))
        self.number_codes = self.numbers._replace(values=self.codes[self.numbers.positions])
        self.quantised = self.numbers._replace(values=quantise(self.numbers.values))
        id_of = {self.index[i]: i for i in hidden_ids if i in self.index}
        self.id_positions: dict[str, list[int]] = {}
        for position in np.flatnonzero(np.isin(self.codes, list(id_of))).tolist():
            self.id_positions.setdefault(id_of[int(self.codes[position])], []).append(position)

    def _select(self, values: np.ndarray, keep: np.ndarray) -> Stream:
        """The tokens whose entry of ``keep`` (one per distinct token) is true, with their entry of
        ``values``."""
        positions = np.flatnonzero(keep[self.codes])
        return Stream(positions, self.lines[positions], values[self.codes[positions]])

    def labels(self, probe: Probe) -> Stream:
        """The tokens that are the probe's labels, as its codes."""
        codes = np.zeros(len(self.index), dtype=np.int64)
        for label in probe.codebook.keys() & self.index.keys():
            codes[self.index[label]] = probe.codebook[label]
        return self._select(codes, codes > 0)

    def exact(self, probe: Probe) -> Stream:
        """The values that can be the probe's gold as it is, as its codes."""
        return self.quantised if probe.numeric else self.labels(probe)


# --- by id -----------------------------------------------------------------------------------------


def _in_order(pattern: Sequence, window: Sequence) -> bool:
    """``pattern`` appears in ``window`` in order (other values may come between)."""
    rest = iter(window)
    return all(value in rest for value in pattern)  # each ``in`` consumes up to its match


def exact_by_id(probe: Probe, text: TextValues) -> float:
    """Share of the probe's items whose gold is beside an occurrence of their id: the nearest value
    after or before it, or for several values, all of them in order among the next (or previous) two
    per value (for a vector the values may be interleaved with keys, as ``{"0": 0.4, "1": 0.6}``)."""
    stream = text.exact(probe)
    positions, values = stream.positions.tolist(), stream.values.tolist()
    found = 0
    for item_id in text.id_positions.keys() & probe.patterns.keys():
        pattern = probe.patterns[item_id]
        width = 1 if len(pattern) == 1 else 2 * len(pattern)
        for pos in text.id_positions[item_id]:
            after, before = bisect_right(positions, pos), bisect_left(positions, pos)
            windows = (values[after : after + width], values[max(0, before - width) : before])
            if any(_in_order(pattern, window) for window in windows):
                found += 1
                break
    return found / len(probe.patterns)


def chance_by_id(probe: Probe, text: TextValues) -> float:
    """Share of the probe's items that ``exact_by_id`` finds in ``text`` for gold that is not there:
    each id given another item's pattern (a seeded permutation). Beside ids that the file holds for
    other items (releases number each split from 1), a short pattern of few labels lies among the
    next values by chance."""
    patterns = list(probe.patterns.values())
    order = np.random.default_rng(0).permutation(len(patterns))
    swapped = dict(zip(probe.patterns, (patterns[i] for i in order)))
    return exact_by_id(probe._replace(patterns=swapped), text)


def enough_by_id(probe: Probe, text: TextValues, share: float, least: float) -> bool:
    """Whether ``share``, the items whose gold ``exact_by_id`` finds beside their ids, is a leak:
    ``least`` at least, and past ``leak_threshold`` of chance measured both ways: by the gold's
    value frequencies, and as the reading finds other items' gold (``chance_by_id``)."""
    floor = max(least, leak_threshold(probe.chance))
    # chance_by_id reads the text again: only for a share past the cheaper floor
    return share >= floor and share >= leak_threshold(chance_by_id(probe, text), guesses=1)


def line_columns(stream: Stream, lines: np.ndarray, which: str) -> dict[str, np.ndarray]:
    """For ``lines`` (counted from 0; ``which`` names them): column name -> the index in ``stream``
    of each line's first and last value (-1 where it has none)."""
    first = np.searchsorted(stream.lines, lines, side="left")
    end = np.searchsorted(stream.lines, lines, side="right")
    return {
        f"the first value of {which}": np.where(first < end, first, -1),
        f"the last value of {which}": np.where(first < end, end - 1, -1),
    }


#: (what an id is less its line's index counted from 0, how that line is named): the ways a
#: release numbers its items by their lines, with or without a header line.
LINE_NUMBERINGS = (
    (0, "line id+1 (ids from 0)"),
    (1, "line id (ids from 1)"),
    (-1, "line id+2 (ids from 0, under a header line)"),
)


ID_COLUMNS = 4 + 2 * len(LINE_NUMBERINGS)  # by_id_columns: 4 by the ids, 2 a numbered line


def perfectly_correlated(gold: np.ndarray, values: np.ndarray) -> bool:
    """Pearson |r| or Spearman |rho| (Pearson's r of the average ranks) of ``values`` with ``gold``
    at least ``PERFECT``; never when either side is constant (r undefined)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        r = np.corrcoef([gold, values, average_ranks(gold), average_ranks(values)])
    return bool(abs(r[0, 1]) >= PERFECT or abs(r[2, 3]) >= PERFECT)


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
    return math.log2(math.factorial(max(1, len(probe.codebook))))


def order_bits(gold: np.ndarray) -> float:
    """Bits of the order of the values ``gold``: log2 of their distinct orderings (n! over t! for
    each group of t equal values). A column independent of the gold ranks the items as the gold
    does with probability 2**-bits."""
    _, counts = np.unique(gold, return_counts=True)
    ways = math.lgamma(len(gold) + 1) - sum(math.lgamma(c + 1) for c in counts)
    return ways / math.log(2)


def id_floor_bits(probe: Probe) -> float:
    """Bits of the gold the items a by-id column matches must carry: ``ID_BITS`` plus log2 of the
    hypotheses tested in one file (each column, under each map: increasing or decreasing for
    numbers, each one-to-one relabelling for labels). A column independent of the gold matches one
    hypothesis on items carrying B bits with probability about 2**-B, so any of them with
    probability at most 2**-ID_BITS."""
    maps = 1.0 if probe.numeric else relabelling_bits(probe)
    return ID_BITS + math.log2(ID_COLUMNS) + maps


def column_share(probe: Probe, gold: np.ndarray, values: np.ndarray) -> float:
    """Share of the probe's items that a by-id column (``values``, beside the items of ``gold``)
    reproduces transformed; 0 when that share is too small or the items matched carry fewer bits of
    the gold than ``id_floor_bits``: numbers perfectly correlated with the gold on
    ``MIN_CORRELATED`` items or more (bits of their order; a share of ``LEAK_SHARE_MIN`` at least),
    labels under their best one-to-one map (bits of the items agreeing; ``leak_threshold``)."""
    if probe.numeric:
        perfect = len(gold) >= MIN_CORRELATED and perfectly_correlated(gold, values)
        agree, bits, threshold = len(gold) * perfect, order_bits(gold), LEAK_SHARE_MIN
    else:  # labels of one value (or none) carry no bits: below any floor
        agree = best_relabelling(gold, values)
        bits, threshold = agree * entropy_bits(gold), leak_threshold(probe.chance)
    share = agree / len(probe.patterns)
    return share if share >= threshold and bits >= id_floor_bits(probe) else 0.0


def by_id_columns(probe: Probe, text: TextValues, stream: Stream) -> Iterator[tuple]:
    """(items, how their gold is read, the index in ``stream`` of each item's value or -1) of each
    by-id column (``ID_COLUMNS``): beside the first occurrence of the items' ids (the value just
    after and just before it, the first and last of its line), and for ids that are whole numbers
    (a release's line numbers), on line id+2, id+1 and id."""
    ids = [item_id for item_id in probe.patterns if item_id in text.id_positions]
    positions = np.asarray([text.id_positions[item_id][0] for item_id in ids], dtype=np.int64)
    after = np.searchsorted(stream.positions, positions, side="right")
    beside_ids = {
        "the value just after their ids": np.where(after < len(stream.positions), after, -1),
        "the value just before their ids": np.searchsorted(stream.positions, positions) - 1,
        **line_columns(stream, text.lines[positions], "their ids' lines"),
    }
    for name, index in beside_ids.items():
        yield ids, f"transformed, in {name}", index  # as it is: read by exact_by_id
    numbered = [item_id for item_id in probe.patterns if item_id.isascii() and item_id.isdigit()]
    for start, which in LINE_NUMBERINGS:
        lines = np.asarray([int(item_id) - start for item_id in numbered], dtype=np.int64)
        for name, index in line_columns(stream, lines, which).items():
            yield numbered, f"as it is or transformed, in {name}", index


def encoded_by_id(probe: Probe, text: TextValues) -> tuple[float, str]:
    """(share of the probe's items, how) of the best by-id column (``by_id_columns``) whose
    values are the gold, as it is or transformed; (0, '') when none is. Items whose gold is one
    value only."""
    if any(len(pattern) != 1 for pattern in probe.patterns.values()):
        return 0.0, ""
    stream = text.numbers if probe.numeric else text.token_stream
    best = (0.0, "")
    for ids, how, index in by_id_columns(probe, text, stream):
        gold = np.asarray([probe.patterns[item_id][0] for item_id in ids], dtype=np.int64)
        keep = index >= 0
        best = max(best, (column_share(probe, gold[keep], stream.values[index[keep]]), how))
    return best


# --- by order --------------------------------------------------------------------------------------


def run_hashes(codes: np.ndarray, k: int, relabelled: bool) -> np.ndarray:
    """A 64-bit hash of every run of ``k`` consecutive codes; ``relabelled``: of its repetition
    pattern (which earlier value of the run each value repeats), the same for every relabelling of
    the values."""
    m = len(codes) - k + 1
    if m <= 0:
        return np.zeros(0, dtype=np.uint64)
    if relabelled:  # each value's distance back to the previous equal value (0: none)
        order = np.lexsort((np.arange(len(codes)), codes))
        same = codes[order[1:]] == codes[order[:-1]]
        codes = np.zeros(len(codes), dtype=np.int64)
        codes[order[1:][same]] = (order[1:] - order[:-1])[same]
    h = np.zeros(m, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for j in range(k):
            column = codes[j : j + m]
            if relabelled:  # a repeat of a value before the run is no repeat inside it
                column = np.where(column <= j, column, 0)
            h = h * np.uint64(1_000_003) + column.astype(np.uint64) + np.uint64(0x9E3779B97F4A7C15)
    return h


def step_codes(values: np.ndarray) -> np.ndarray:
    """0, 1, 2 for each step down, equal, up between consecutive values: what every strictly
    monotone map keeps (a decreasing one turns 0 into 2)."""
    return (np.sign(np.diff(values.astype(float))) + 1).astype(np.int64)


def order_streams(probe: Probe, text: TextValues, encoded: bool) -> list[np.ndarray]:
    """The file's streams that may carry the probe's gold in order, as the codes their runs are
    compared in (``gold_runs``), each in the text's order and column after column: its values that
    can be the gold as it is; ``encoded``, its numbers' steps (``step_codes``, for numeric gold), or
    the probe's labels, the numbers' tokens (codes) and any token last on its line (letters, other
    names)."""
    if not encoded:
        return text.exact(probe).in_order()
    if probe.numeric:
        return [step_codes(values) for values in text.numbers.in_order()]
    streams = text.labels(probe).in_order() + text.number_codes.in_order()
    last_on_its_line = np.diff(text.lines, append=np.inf) != 0
    return streams + [text.codes[last_on_its_line]]


def gold_runs(probe: Probe, encoded: bool) -> tuple[int, np.ndarray] | None:
    """(k, the hashes of the gold's runs of ``k`` codes, every orientation's concatenated), or None
    when the gold has too few values for runs that cannot match by chance (the by-id reading alone
    decides). ``encoded``: numbers by their steps (``step_codes``), in both directions; labels by
    their repetition pattern, whose runs must carry the relabellings' bits beyond ``ORDER_BITS``."""
    steps, relabelled = encoded and probe.numeric, encoded and not probe.numeric
    codes = step_codes(probe.gold) if steps else probe.gold
    bits = entropy_bits(codes)
    if bits <= 0:
        return None
    extra_bits = relabelling_bits(probe) if relabelled else 0.0
    k = max(3, math.ceil((ORDER_BITS + extra_bits) / bits))
    if len(codes) < 4 * k:
        return None
    orientations = [codes, 2 - codes] if steps else [codes]
    return k, np.concatenate([run_hashes(c, k, relabelled) for c in orientations])


def _among(gold_hashes: np.ndarray, hashes: np.ndarray) -> np.ndarray:
    """``np.isin(gold_hashes, hashes)``, the (many) ``hashes`` first narrowed by a table of the
    (few) gold hashes' low 20 bits rather than all of them sorted."""
    low = np.uint64((1 << 20) - 1)
    table = np.zeros(1 << 20, dtype=bool)
    table[gold_hashes & low] = True
    return np.isin(gold_hashes, hashes[table[hashes & low]])


def share_by_order(probe: Probe, text: TextValues, encoded: bool) -> float:
    """Share of the probe's items whose values all lie within runs of the gold found in the file,
    as it is or ``encoded`` (``gold_runs``)."""
    if encoded not in probe.runs:  # computed once per probe and reading
        probe.runs[encoded] = gold_runs(probe, encoded)
    if probe.runs[encoded] is None:
        return 0.0
    k, gold_hashes = probe.runs[encoded]
    found = np.zeros(len(gold_hashes), dtype=bool)
    for codes in order_streams(probe, text, encoded):
        found |= _among(gold_hashes, run_hashes(codes, k, relabelled=encoded and not probe.numeric))
    n = len(probe.gold)
    span = k + int(encoded and probe.numeric)  # numbers read by steps: k steps span k + 1 values
    # runs found, by their first value (each orientation's runs in turn), and the values they span
    starts = np.bincount(np.flatnonzero(found) % (n - span + 1), minlength=n)
    covered = np.convolve(starts, np.ones(span, dtype=np.int64))[:n] > 0
    missing = np.bincount(probe.owner[~covered], minlength=len(probe.patterns))
    return float(np.mean(missing == 0))


def gold_in_text(probe: Probe, text: TextValues, least: float, by_id: float | None) -> str:
    """'the gold of N% of its items, how' when ``text`` holds the probe's gold, as it is or
    transformed, beside the items' ids or in their order, for a share of the items of ``least`` at
    least; '' when it does not. ``by_id``: the share of items exactly right beside their ids when
    it is known (a file read as a submission: each value on its item's line), in place of the
    text's reading of the values nearest each id (which takes a line's neighbour as well)."""
    # each reading in turn while none finds enough
    share = exact_by_id(probe, text) if by_id is None else by_id
    how = "next to their ids"
    if not enough_by_id(probe, text, share, least):
        share, how = share_by_order(probe, text, encoded=False), "in their order"
    if share < least:
        share, how = encoded_by_id(probe, text)
    if share < least:
        share, how = share_by_order(probe, text, encoded=True), "transformed, in their order"
    return f"the gold of {share:.0%} of its items, {how}" if share >= least else ""


# --- the public files ------------------------------------------------------------------------------


class HiddenSplit(NamedTuple):
    """A track's gold on a split no public file may reveal, with the items it was built from."""

    gold: GoldTrack
    items: list[dict]


def exact_share(gold: GoldTrack, values) -> float:
    """Share of scored items whose prediction equals the gold exactly (within float noise)."""
    hits = kinds.of(gold.track).exact_hits(gold, values)
    return float(np.mean(hits)) if len(hits) else 0.0


def _is_text(path: Path) -> bool:
    with open(path, "rb") as f:
        return b"\0" not in f.read(8192)


def _candidates(root: Path) -> list[Path]:
    """The files to scan under ``root``, or ``root`` itself when it is a file (a CodaLab v1.5
    bundle publishes its pages and kits as single files and zips)."""
    return sorted(
        p
        for p in ([root] if root.is_file() else root.rglob("*"))
        if p.is_file()
        and not p.is_symlink()
        and p.stat().st_size <= MAX_SCANNED_BYTES
        and "codajudge" not in p.parts
        and (p.suffix.lower() == ".zip" or _is_text(p))
    )


def _public_records(path: Path, display: str) -> tuple[list[dict], list[Problem]]:
    """A public input item file's records, one JSON object of public fields a line (an empty one
    for a blank line), and the problem of the first line that is not one (no records then)."""
    lines = path.read_bytes().decode("utf-8", errors="replace").split("\n")  # U+2028 is text
    records: list[dict] = []
    for number, line in enumerate(lines, start=1):
        record, found = None, repr(line[:60])
        with suppress(ValueError):  # not JSON: the line itself is shown
            record = json.loads(line) if line.strip() else {}
        if isinstance(record, dict):
            found = ", ".join(sorted(set(record) - set(PUBLIC_FIELDS)))
        if found:
            expected = f"one JSON object a line, of the fields {', '.join(PUBLIC_FIELDS)}"
            message = "public input item is not a JSON object of public fields"
            return [], [Problem(display, message, line=number, expected=expected, found=found)]
        records.append(record)
    return records, []


def _leak(display: str, message: str, found: str, hint: str = HINT) -> Problem:
    return Problem(
        display, message, expected="no hidden gold in public files", found=found, hint=hint
    )


def submission_share(path: Path, display: str, gold: GoldTrack) -> float | None:
    """Share of the track's scored items exactly right when the file reads as a submission of the
    track (every item predicted, in the kit's own encodings: a per-annotator matrix of multilabel
    rows among them); None when it does not."""
    if len(gold.ids) < MIN_ITEMS:
        return None
    try:
        prediction = read_track_file(path, display, gold)
    except (KitError, ValueError, OSError):
        return None
    return exact_share(gold, prediction.values)


def _same_items(split: HiddenSplit, keys: list[tuple], public: dict[tuple, dict]) -> list[tuple]:
    """(hidden item, public item) pairs that are the same item: the same texts (``keys``: the
    hidden items' ``text_key``), whatever the ids (a copy under a new id is the same item), or the
    same id when the public item has no texts (``public``: each public item by its texts, those
    without texts by ``(None, id)``)."""
    pairs = [(item, public.get(key) if any(key) else None) for item, key in zip(split.items, keys)]
    pairs = [(item, other or public.get((None, item["id"]))) for item, other in pairs]
    return [(item, other) for item, other in pairs if other is not None]


def _zip_texts(path: Path, display: str) -> Iterator[tuple[Path, str]]:
    """(a file holding it while it is scanned, its display) of every regular text entry of a public
    zip, whatever its name: a participant's unzip tool opens the dotfiles and ``__MACOSX`` entries
    a submission's extraction leaves out, and the readable entries of a zip that extraction refuses
    as a whole. At most ``MAX_ENTRIES`` entries, each within ``MAX_SCANNED_BYTES``, each written
    alone into a temporary folder under its own name's safe form (its suffix says how it is read);
    the engine's files and archives inside are not read."""
    try:
        archive = zipfile.ZipFile(path)
    except READ_ERRORS:
        return
    with archive, tempfile.TemporaryDirectory(prefix="codajudge-leak-") as tmp:
        for info in archive.infolist()[:MAX_ENTRIES]:
            name = PurePosixPath(info.filename)
            if info.is_dir() or info.file_size > MAX_SCANNED_BYTES or "codajudge" in name.parts:
                continue
            if name.suffix.lower() in ARCHIVE_SUFFIXES:
                continue
            target = Path(tmp, re.sub(r"[^\w.-]", "_", name.name)[:100].strip(".") or "entry")
            try:  # zipfile yields at most the declared size, then checks the CRC
                target.write_bytes(archive.read(info))
            except READ_ERRORS:
                continue
            if _is_text(target):
                yield target, f"{display}:{safe_display(info.filename)}"
            target.unlink()


class Scan:
    """One check of public files: the hidden gold (``hidden``: track (split) -> its gold), what is
    looked for of it (each track's probe and items' texts, computed once), and the problems of each
    content already read (the same training file ships in every phase and the
    starting kit: it is read once)."""

    def __init__(self, hidden: dict[str, HiddenSplit]):
        self.hidden = hidden
        self.probes = {track: probe_for(split.gold, split.items) for track, split in hidden.items()}
        self.hidden_ids = frozenset().union(*(split.gold.ids for split in hidden.values()))
        self.keys = {
            track: [
                text_key(item, kinds.of(split.gold.track).texts_ordered) for item in split.items
            ]
            for track, split in hidden.items()
        }
        # an item's texts (its id when it has none) -> its label_counts, where they are hidden
        self.counts: dict[tuple, tuple[str, ...]] = {}
        for split in hidden.values():
            for item in split.items:
                if counted := label_counts(item):
                    key = text_key(item) if item.get("texts") else (None, str(item["id"]))
                    self.counts.setdefault(key, counted)
        self.seen: dict[tuple, list[Problem]] = {}

    def file(self, path: Path, display: str, in_input_data: bool) -> list[Problem]:
        """The file's problems (``contents``), each content read once."""
        key = (hashlib.sha256(path.read_bytes()).hexdigest(), path.name, in_input_data)
        if key not in self.seen:
            self.seen[key] = self.contents(path, display, in_input_data)
        return [dataclasses.replace(p, file=display) for p in self.seen[key]]

    def counted_labels(self, records: list[dict], display: str) -> list[Problem]:
        """A public input item file (``records``: its lines', ``_public_records``) whose items have
        a field giving the hidden per-annotator number of labels (``tells_label_counts``) is
        refused, whatever the number of such items: each gives its item's gold away, and its
        absence on the others says each annotator gave one label."""
        told: list[tuple[int, str, str]] = []  # (line, item id, field)
        for number, record in enumerate(records, start=1):
            key = text_key(record) if record.get("texts") else None
            counted = self.counts.get(key) or self.counts.get((None, str(record.get("id"))))
            names = annotator_names(record.get("annotators"))
            for name, value in sorted(record.items()) if counted else ():
                if name not in ("id", "texts") and tells_label_counts(value, counted, names):
                    told.append((number, str(record.get("id")), name))
        if not told:
            return []
        number, item, name = told[0]
        fields = ", ".join(sorted({repr(f) for *_, f in told}))
        items = sum(1 for record in records if record)
        found = (
            f"{fields} on {len(told)} of the file's {items} items, as often as their gold's labels"
        )
        message = "public input items name each annotator once per label the hidden gold gives them"
        hint = (
            "leave the field out of phases whose gold is hidden (the builder does so for "
            "formats.items GOLD_SHAPED_FIELDS), or name each annotator once"
        )
        problem = _leak(display, message, found, hint)
        return [dataclasses.replace(problem, line=number, item=item)]

    def contents(self, path: Path, display: str, in_input_data: bool) -> list[Problem]:
        """A file's problems: a public input item file's fields; else an item file's items
        (``item_file``), and against each hidden track the file read as a submission
        (``submission_share``) when it can be one, and by its text, read once (``_found``)."""
        if path.suffix == ".jsonl" and in_input_data and not path.name.endswith(".train.jsonl"):
            records, problems = _public_records(path, display)
            return problems or self.counted_labels(records, display)
        items = None
        if path.suffix == ".jsonl":  # and its content too: gold in other fields, or transformed
            with suppress(ConfigError):  # else not an item file of the kit's format
                items = read_items(path, display, texts=False)  # reference data holds no texts
        problems = [] if items is None else self.item_file(items, display)
        # a submission's JSON line holds an id and one value: the reader refuses items with more;
        # the first line is left out, as the reader may take it for a header (formats.layout)
        as_submission = items is None or all(len(item) <= 2 for item in items[1:])
        text = TextValues(path.read_bytes().decode("utf-8", errors="replace"), self.hidden_ids)
        for track_id, split in self.hidden.items():
            share = submission_share(path, display, split.gold) if as_submission else None
            found = self._found(track_id, text, share)
            if found:
                message = f"public file reproduces the hidden gold of track '{track_id}'"
                problems.append(_leak(display, message, found))
        return problems

    def _found(self, track_id: str, text: TextValues, share: float | None) -> str:
        """What the file reveals of the track's gold ('' when nothing): read as a submission
        (``share``: its items exactly right, None when it is not one), a system's predictions are
        meant to agree with the gold, so only ``SUBMISSION_SHARE`` of the items, exactly right or in
        any other reading of its text, is the gold; any other file, by its text (``gold_in_text``)."""
        if share is not None and share >= SUBMISSION_SHARE:
            return f"{share:.0%} of items exact"
        if self.probes[track_id] is None:
            return ""
        least = LEAK_SHARE_MIN if share is None else SUBMISSION_SHARE
        return gold_in_text(self.probes[track_id], text, least, by_id=share)

    def item_file(self, items: list[dict], display: str) -> list[Problem]:
        """A public item file with gold fields (a starting kit's reference data, a training file, a
        public file) must not carry the hidden gold of most items of a track (e.g. dev and test
        share items, or test items copied under new ids), even with some items left out
        (``_same_items``)."""
        # each public item by its texts in order and sorted (the first of each), those without
        # (reference data) by id
        public: dict[bool, dict[tuple, dict]] = {True: {}, False: {}}
        for item in items:
            for ordered, by_texts in public.items():
                key = text_key(item, ordered) if "texts" in item else (None, item["id"])
                by_texts.setdefault(key, item)
        problems = []
        for track_id, split in self.hidden.items():
            ordered = kinds.of(split.gold.track).texts_ordered
            shared = _same_items(split, self.keys[track_id], public[ordered])
            if len(shared) < MIN_ITEMS:
                continue
            try:
                theirs = build_gold(split.gold.track, [p for _, p in shared], display)
                ours = build_gold(split.gold.track, [h for h, _ in shared], display)
                share = exact_share(ours, theirs.gold) * len(shared) / len(split.items)
            except (KitError, ValueError, IndexError, KeyError):
                continue  # not this track's items (other fields or annotators): nothing of its gold
            if share >= LEAK_SHARE_MIN:
                message = f"public item file carries the hidden gold of track '{track_id}'"
                hint = (
                    "dev and test may not share items when the dev gold is public; "
                    "set 'public_gold: false' on the practice phase"
                )
                problems.append(_leak(display, message, f"{share:.0%} of items exact", hint))
        return problems


#: A built bundle's record of its edition's ``known_leaks`` (public path -> why), at the bundle's
#: root (no participant sees it), so that ``codajudge check BUNDLE`` excuses what the build did.
KNOWN_LEAKS_FILE = "known_leaks.json"


def write_known_leaks(root: Path, known: dict[str, str]) -> None:
    """``root/known_leaks.json`` when the edition declares leaks; nothing otherwise."""
    if known:
        text = json.dumps(known, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
        (root / KNOWN_LEAKS_FILE).write_text(text, encoding="utf-8")


def read_known_leaks(root: Path) -> dict[str, str]:
    """The leaks a bundle's build declared (``write_known_leaks``); empty without the file or when
    it is not a JSON object of strings."""
    path = root / KNOWN_LEAKS_FILE
    doc = None
    if path.is_file() and not path.is_symlink():
        with suppress(ValueError):  # UnicodeDecodeError among them
            doc = json.loads(path.read_text(encoding="utf-8"))
    pairs = doc.items() if isinstance(doc, dict) else ()
    return {k: v for k, v in pairs if isinstance(v, str)}  # a JSON object's keys are strings


def concerns_file(problem: Problem, name: str) -> bool:
    """``problem`` is about the public file ``name`` (or a file inside it, when it is a zip)."""
    return problem.file == name or problem.file.startswith(f"{name}:")


def check_public_tree(
    public_roots: list[Path],
    hidden: dict[str, HiddenSplit],
    base: Path,
    known: dict[str, str] | None = None,
    known_must_exist: bool = True,
) -> list[Problem]:
    """Raise ConfigError if any public file leaks hidden gold (``hidden``: track (split) -> its
    gold). ``known``: the edition's declared exceptions (a public file's path relative to ``base``
    -> why it holds hidden gold on purpose); their files' leaks are returned, for the build
    summary, and an exception naming no public file is refused (unless ``known_must_exist`` is
    false: a built bundle's check, whose record the build already held to it)."""
    scan = Scan(hidden)
    found: list[Problem] = []
    scanned = set()
    for root in public_roots:
        for path in _candidates(root):
            relative = path.relative_to(base)
            scanned.add(relative.as_posix())
            if path.suffix.lower() == ".zip":
                for entry, display in _zip_texts(path, relative.as_posix()):
                    found += scan.file(entry, display, in_input_data=False)
            else:
                found += scan.file(path, relative.as_posix(), "input_data" in relative.parts)
    known = known or {}
    excused = [p for p in found if any(concerns_file(p, name) for name in known)]
    excused_set = set(excused)  # a set: a list test per problem would be quadratic
    problems = [p for p in found if p not in excused_set]
    unknown = sorted(set(known) - scanned) if known_must_exist else []
    problems += [
        Problem(
            f"known_leaks {name!r}",
            "names no public file of the bundle",
            expected="a public file's path in the bundle, as the leak check names it "
            "(e.g. starting_kit/extra/labels.tsv for public_files: [extra/labels.tsv])",
            found=name,
            hint="correct the path, or remove the entry",
        )
        for name in unknown
    ]
    if problems:
        raise ConfigError(problems)
    return excused
