"""Gold for one track, built from the kit's items: the arrays the metrics compare against.

Soft labels are rebuilt from the individual annotations (never from released, rounded soft labels);
perspectivist gold is each annotator's own label, in the item's annotator order.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import chain, repeat
from operator import itemgetter
from typing import Dict, List, Optional

import numpy as np

from .errors import ConfigError, ProblemCollector
from .formats.bulk import choice_row, choice_rows, collector_paused, exact_codes, label_codes  # noqa: F401 (re-exported)
from .formats.textfile import shorten
from .formats.values import split_multilabel
from .metrics import PerAnnotator
from .metrics.disagreement import item_offsets
from .tracks import Track


@dataclass
class GoldTrack:
    """Gold for one track. ``ids`` are all items a submission must cover, in file order;
    ``scored`` marks those with gold (classification items without a majority are not scored)."""

    track: Track
    ids: List[str]
    scored: np.ndarray
    gold: object
    annotators: List[List[str]] = field(default_factory=list)
    groups: Dict[str, List[str]] = field(default_factory=dict)  # 'lang'/'genre' -> value per item
    #: per item, the release's own annotators list when it repeats names (``annotators_listed``), else None
    listed: List[Optional[List[str]]] = field(default_factory=list)

    @property
    def n_scored(self) -> int:
        return int(self.scored.sum())


def _annotation_index(track: Track, problems: ProblemCollector, item_id: str):
    index = track.label_index()

    def lookup(label) -> Optional[int]:
        key = str(label).strip()
        if key not in index:
            problems.add("annotation outside the track's label set", item=item_id,
                         expected=", ".join(track.labels), found=repr(label))
            return None
        return index[key]
    return lookup


def build_gold(track: Track, items: List[dict], display: str) -> GoldTrack:
    """Gold arrays for ``track`` from its dataset's items; organiser data errors raise ConfigError.

    Clean items go through ``_clean_gold`` (whole columns at once); anything else through the
    item-by-item path, which names every problem.
    """
    with collector_paused():
        return _build_gold(track, items, display)


def _build_gold(track: Track, items: List[dict], display: str) -> GoldTrack:
    ids = list(map(itemgetter("id"), items))
    groups = {g: _group_column(items, g) for g in ("lang", "genre") if any(map(dict.__contains__, items, repeat(g)))}
    clean = _clean_gold(track, items)
    if clean is not None:
        gold, scored, annotators = clean
        return GoldTrack(track=track, ids=ids, scored=scored, gold=gold, annotators=annotators, groups=groups,
                         listed=listed_annotators(items))
    problems = ProblemCollector(display)
    scored = np.ones(len(items), dtype=bool)
    annotators: List[List[str]] = []
    if track.kind == "similarity":
        gold = _similarity_gold(items, problems)
    elif track.kind == "classification":
        gold = _classification_gold(track, items, problems, scored)
    else:
        gold, annotators = _build_annotation_gold(track, items, problems, scored)
    problems.raise_if_any(ConfigError)
    return GoldTrack(track=track, ids=ids, scored=scored, gold=gold, annotators=annotators, groups=groups,
                     listed=listed_annotators(items))


def listed_annotators(items: List[dict]) -> List[Optional[List[str]]]:
    """Per item its ``annotators_listed`` (public: the release's annotators list, which may repeat
    an annotator once per label given), or None; an empty list when no item has one."""
    if not any(map(dict.__contains__, items, repeat("annotators_listed"))):
        return []
    return [[str(a) for a in it["annotators_listed"]] if isinstance(it.get("annotators_listed"), list) else None
            for it in items]


def _similarity_gold(items: List[dict], problems: ProblemCollector) -> np.ndarray:
    """Each item's gold ``score`` read one by one; a score that is not a finite number is a problem."""
    values = []
    for it in items:
        score = it.get("score")
        if not _finite_number(score):
            problems.add("gold 'score' must be a finite number", item=it["id"], found=shorten(repr(score)))
            score = 0.0
        values.append(float(score))
    return np.array(values, dtype=float)


def _classification_gold(track: Track, items: List[dict], problems: ProblemCollector,
                         scored: np.ndarray) -> np.ndarray:
    """Each item's majority ``label`` as an index; null (no majority) is -1 and not scored."""
    index = track.label_index()
    values = []
    for i, it in enumerate(items):
        label = it.get("label")
        if label is None:
            scored[i] = False
            values.append(-1)
        elif str(label) not in index:
            problems.add("gold label outside the track's label set", item=it["id"],
                         expected=", ".join(track.labels), found=repr(label))
            values.append(-1)
        else:
            values.append(index[str(label)])
    return np.array(values, dtype=np.int64)


def _finite_number(value) -> bool:
    """True for an int or float (not a bool) that is a finite float: ``10**400`` is not."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def _group_column(items: List[dict], key: str) -> List[str]:
    """Each item's ``key`` (lang, genre) as text, "" when absent."""
    values = list(map(dict.get, items, repeat(key), repeat("")))
    return values if set(map(type, values)) <= {str} else [str(v) for v in values]


def _list_column(items: List[dict], key: str) -> Optional[List[list]]:
    """Each item's ``key`` as ``it.get(key) or []`` gives it, or None when one is not a list then."""
    values = list(map(dict.get, items, repeat(key)))
    if set(map(type, values)) - {list}:
        values = [value or [] for value in values]
        if set(map(type, values)) - {list}:
            return None
    return values


def _clean_gold(track: Track, items: List[dict]):
    """(gold, scored mask, annotators) when every item's gold is well-formed, else None.

    Gives exactly what the item-by-item path gives: soft labels are counts over an item's
    annotations divided by their number, whatever the order of the sums.
    """
    n = len(items)
    if track.kind == "similarity":
        scores = [it.get("score") for it in items]
        if not all([type(s) is float or type(s) is int for s in scores]):
            return None
        try:
            gold = np.array(scores, dtype=float).reshape(n)
        except OverflowError:
            return None
        return (gold, np.ones(n, dtype=bool), []) if np.isfinite(gold).all() else None
    if track.kind == "classification":
        gold = exact_codes([it.get("label") for it in items], {**track.label_index(), None: -1}, n)
        return None if gold is None else (gold, gold >= 0, [])
    return _clean_annotation_gold(track, items)


def _clean_annotation_gold(track: Track, items: List[dict]):
    """``_clean_gold`` of the soft-label and perspectivist kinds, built from the annotations."""
    n = len(items)
    names, given = _list_column(items, "annotators"), _list_column(items, "annotations")
    if names is None or given is None or set(map(type, chain.from_iterable(names))) - {str}:
        return None
    counts = np.fromiter(map(len, names), dtype=np.int64, count=n)
    if not np.array_equal(counts, np.fromiter(map(len, given), dtype=np.int64, count=n)):
        return None
    if track.scale == "multilabel":
        values = _clean_choices(list(chain.from_iterable(given)), track)
    else:
        values = exact_codes(chain.from_iterable(given), track.label_index(), int(counts.sum()))
    if values is None:
        return None
    row_item = np.repeat(np.arange(n, dtype=np.int64), counts)
    scored = counts > 0
    # each item's own list of annotator names (all strings, as the precise path's copies would be)
    if track.kind == "soft_label":
        return _soft_from_rows(values, row_item, counts, len(track.labels)), scored, names
    offsets = np.concatenate(([0], np.cumsum(counts)))
    if track.scale != "multilabel":
        values = label_codes(values, len(track.labels))
    per = PerAnnotator(values=values, item=row_item, n_items=n, n_labels=len(track.labels), offsets=offsets)
    return per, scored, names


def _clean_choices(annotations: list, track: Track) -> Optional[np.ndarray]:
    """(rows, labels) 0/1 choices from multilabel annotations that are lists of labels or
    comma-separated labels without spaces; None for any other form (the precise path reads it)."""
    chosen = choice_rows(annotations, track.label_index(), len(track.labels))  # only strings are keys
    if chosen is None and str in set(map(type, annotations)):
        chosen = choice_rows([a.split(",") if type(a) is str else a for a in annotations], track.label_index(),
                             len(track.labels))
    return chosen


def _soft_from_rows(values: np.ndarray, row_item: np.ndarray, counts: np.ndarray, n_labels: int) -> np.ndarray:
    """Per item, the share of its annotations on each label ((N, K)), or per label the share of its
    annotators who chose it, as [P(not chosen), P(chosen)] pairs ((N, K, 2)) for 0/1 rows."""
    n = counts.shape[0]
    divisor = np.maximum(counts, 1)[:, None]
    if values.ndim == 2:
        totals = np.column_stack([np.bincount(row_item, weights=values[:, j], minlength=n)
                                  for j in range(n_labels)]) if n_labels else np.zeros((n, 0))
        share = totals.reshape(n, n_labels) / divisor
        soft = np.zeros((n, n_labels, 2))
        soft[:, :, 1] = share
        soft[:, :, 0] = 1.0 - share
        soft[counts == 0] = 0.0
        return soft
    totals = np.bincount(row_item * n_labels + values, minlength=n * n_labels).reshape(n, n_labels)
    return totals / divisor


def _annotation_rows(track: Track, item_id: str, labels: list, problems: ProblemCollector) -> list:
    """One row per annotation of an item: a label index, or a 0/1 row over the labels (multilabel);
    a label outside the label set is a located problem (and counts as index 0 / not chosen)."""
    lookup = _annotation_index(track, problems, item_id)
    if track.scale != "multilabel":
        return [j if j is not None else 0 for j in map(lookup, labels)]
    return [choice_row([j for j in map(lookup, split_multilabel(label)) if j is not None], len(track.labels))
            for label in labels]


def _build_annotation_gold(track: Track, items, problems: ProblemCollector, scored: np.ndarray):
    """Soft labels or per-annotator gold read item by item, every problem located."""
    n_labels = len(track.labels)
    annotators: List[List[str]] = []
    rows, row_item = [], []
    for i, it in enumerate(items):
        names = it.get("annotators") or []
        labels = it.get("annotations") or []
        if len(names) != len(labels):
            problems.add("item needs one 'annotations' entry per annotator", item=it["id"],
                         expected="equal lists", found=f"{len(names)} annotators, {len(labels)} labels")
        if not names or len(names) != len(labels):
            scored[i] = False  # no annotation (e.g. an OCNLI train item without votes): not scored
            annotators.append([])
            continue
        annotators.append([str(a) for a in names])
        rows += _annotation_rows(track, it["id"], labels, problems)
        row_item += [i] * len(labels)
    multilabel = track.scale == "multilabel"
    values = np.array(rows, dtype=float).reshape(-1, n_labels) if multilabel else np.array(rows, dtype=np.int64)
    item = np.array(row_item, dtype=np.int64)
    if track.kind == "soft_label":
        counts = np.bincount(item, minlength=len(items)).astype(np.int64)
        return _soft_from_rows(values, item, counts, n_labels), annotators
    if not multilabel:
        values = label_codes(values, n_labels)
    per_annotator = PerAnnotator(values=values, item=item, n_items=len(items), n_labels=n_labels,
                                 offsets=item_offsets(item, len(items)))
    return per_annotator, annotators


def gold_as_values(gold: GoldTrack) -> list:
    """The gold of a track as prediction values (a perfect submission), for self-checks and tests.

    Classification items without a majority get the first label (they are not scored).
    """
    track = gold.track
    if track.kind == "similarity":
        return [float(v) for v in gold.gold]
    if track.kind == "classification":
        return [track.labels[i] if i >= 0 else track.labels[0] for i in gold.gold]
    if track.kind == "soft_label":
        return [row.tolist() for row in gold.gold]
    per: PerAnnotator = gold.gold
    if track.scale == "multilabel":  # label-major, the LeWiDi 2025 layout: per label a 0/1 per annotator
        out: List[list] = [[[] for _ in track.labels] for _ in range(per.n_items)]
        for row, item in zip(per.values, per.item):
            for j, chosen in enumerate(row):
                out[item][j].append(int(chosen))
        return out
    out = [[] for _ in range(per.n_items)]
    for row, item in zip(per.values, per.item):
        out[item].append(track.labels[int(row)])
    return out
