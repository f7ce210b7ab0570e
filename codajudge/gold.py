"""Gold for one track, built from the kit's items: the arrays the metrics compare against.

Soft labels are rebuilt from the individual annotations, unless an item gives its own
``distribution`` (a release's soft label, chosen by the edition: LeWiDi 2023's ``soft_gold:
release``); perspectivist gold is each annotator's own label, in the item's annotator order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import chain, compress
from typing import Dict, List, Optional, Tuple

import numpy as np

from .formats.annotators import annotator_names, per_annotator
from .formats.items import GROUP_FIELDS, Located, annotation_counts, item_columns, types_are
from .formats.soft import soft_label
from .formats.textfile import shorten
from .formats.values import NUMBER_TYPES, ValueProblem
from .formats.write import per_annotator_value
from . import kinds
from .kinds.base import ANNOTATOR_ROW, DISTRIBUTION, LABEL, SCORE, split_multilabel
from .labels import LabelSet
from .tracks import Track

NoneType = type(None)  # types.NoneType is Python 3.10+; the kit runs on 3.9


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
    #: per item, its texts where the reference data holds them (a public-gold phase), else None
    texts: List[Optional[List[str]]] = field(default_factory=list)

    @property
    def n_scored(self) -> int:
        return int(self.scored.sum())


def gold_fields(track: Track) -> Dict[str, object]:
    """The item fields the gold of ``track`` is built from, each with its value when an item has none."""
    return {**kinds.of(track).gold_fields, "lang": "", "genre": "", "annotators_listed": None}


def build_gold(track: Track, items: List[dict], display: str) -> GoldTrack:
    """Gold arrays for ``track`` from its dataset's items (dicts); organiser data errors raise ConfigError."""
    return gold_from_columns(track, item_columns(items, gold_fields(track)), display)


def gold_from_columns(track: Track, columns: Dict[str, list], display: str) -> GoldTrack:
    """Gold arrays for ``track`` from its items' columns (``id`` and the ``gold_fields`` some item has,
    as ``items.read_item_columns`` reads them). Each rule is a mask over a column; only the items it
    flags get a message, in item order, all raised together as one ConfigError."""
    ids, problems = columns["id"], Located()
    column = {
        name: columns.get(name, [default] * len(ids))
        for name, default in gold_fields(track).items()
    }
    build = GOLD_OF[kinds.of(track).value_type]
    gold, scored, annotators = build(track, column, ids, problems)
    problems.raise_if_any(display, located=False)
    return GoldTrack(
        track=track,
        ids=ids,
        scored=scored,
        gold=gold,
        annotators=annotators,
        groups={name: _texts(columns[name]) for name in GROUP_FIELDS if name in columns},
        listed=_listed(columns.get("annotators_listed", [])),
        texts=columns.get("texts", []),
    )


def _score_gold(track: Track, column: dict, ids: List[str], problems: Located):
    """(gold scores, every item scored, no annotators): an item whose ``score`` is not a finite
    number (an int or float, ``10**400`` is not) is a problem."""
    values = column["score"]
    ok = np.fromiter(
        map(NUMBER_TYPES.__contains__, map(type, values)), dtype=bool, count=len(values)
    )
    numbers = values if ok.all() else [v if k else 0.0 for v, k in zip(values, ok)]
    try:
        gold = np.array(numbers, dtype=float).reshape(len(values))
    except OverflowError:  # an integer beyond the float range
        gold = np.array([v if abs(v) < 2.0**1023 else np.inf for v in numbers], dtype=float)
    ok &= np.isfinite(gold)
    for row in np.flatnonzero(~ok).tolist():
        problems.add(
            "gold 'score' must be a finite number",
            row,
            item=ids[row],
            found=shorten(repr(values[row])),
        )
    gold[~ok] = 0.0
    return gold, np.ones(len(ids), dtype=bool), []


def _label_gold(track: Track, column: dict, ids: List[str], problems: Located):
    """(majority labels as indices, the items with one scored, no annotators): null (no
    majority) is -1 and not scored; a label outside the label set is a problem."""
    values = column["label"]
    codes = np.array(track.label_set.codes(values), dtype=np.int64).reshape(len(values))
    outside = (codes < 0) & ~types_are(values, NoneType)
    for row in np.flatnonzero(outside).tolist():
        problems.add(
            "gold label outside the track's label set",
            row,
            item=ids[row],
            expected=", ".join(track.labels),
            found=repr(values[row]),
        )
    return codes, codes >= 0, []


def _distribution_gold(track: Track, column: dict, ids: List[str], problems: Located):
    """(soft labels, the items with annotations or a given ``distribution``, their annotators)."""
    rows, counts, scored, names = _annotation_rows(track, column, ids, problems)
    gold = _soft_from_rows(rows, np.repeat(np.arange(len(ids)), counts), counts, len(track.labels))
    _given_distributions(track, column["distribution"], gold, scored, ids, problems)
    return gold, scored, names


def _annotator_row_gold(track: Track, column: dict, ids: List[str], problems: Located):
    """(each annotator's label, the items with annotations, their annotators)."""
    rows, counts, scored, names = _annotation_rows(track, column, ids, problems)
    return per_annotator(rows, counts, len(track.labels)), scored, names


#: What gold each value type compares with, built from the items' columns: (gold, scored, annotators).
GOLD_OF = {
    SCORE: _score_gold,
    LABEL: _label_gold,
    DISTRIBUTION: _distribution_gold,
    ANNOTATOR_ROW: _annotator_row_gold,
}


def listed_annotators(items: List[dict]) -> List[Optional[List[str]]]:
    """Per item its ``annotators_listed`` (public: the release's annotators list, which may repeat
    an annotator once per label given), or None; an empty list when no item has one."""
    return _listed(item_columns(items, {"annotators_listed": None}).get("annotators_listed", []))


def _listed(values: list) -> List[Optional[List[str]]]:
    """Per item its ``annotators_listed`` as names (``annotator_names``), or None where it is none."""
    return [annotator_names(v) if isinstance(v, list) else None for v in values]


def _texts(values: list) -> List[str]:
    """Each item's group value (lang, genre) as text; null is no group (""), as a missing value is."""
    return ["" if v is None else str(v) for v in values]


def _annotation_rows(track: Track, column: dict, ids: List[str], problems: Located):
    """(one row per annotation, each item's number of annotations, the scored mask, each item's
    annotator names) from one annotation per annotator; an item without annotations (an OCNLI train
    item without votes) is not scored."""
    names, labels = column["annotators"], column["annotations"]
    counts = annotation_counts(names, labels, ids, np.arange(len(ids)), problems)
    scored = counts > 0
    annotations = list(chain.from_iterable(compress(labels, scored)))
    row_item = np.repeat(np.arange(len(ids), dtype=np.int64), counts)
    rows = _annotation_values(track, annotations, row_item, ids, problems)
    return rows, counts, scored, [annotator_names(row) for row in names]


def _given_distributions(
    track: Track, values: list, gold: np.ndarray, scored: np.ndarray, ids: List[str], problems
) -> None:
    """Items with a ``distribution`` (an object label -> probability, or a list in the track's label
    order) take it as their soft-label gold, in place of their annotations' shares; one that breaks
    a soft label's rules is a problem."""
    for row, value in enumerate(values):
        if value is None:
            continue
        try:
            gold[row] = soft_label(_in_label_order(value, track.labels), track)[0]
        except ValueProblem as problem:
            problems.add(
                f"gold 'distribution': {problem.message}",
                row,
                item=ids[row],
                expected=problem.expected,
                found=shorten(repr(value)),
            )
        else:
            scored[row] = True


def _in_label_order(value, labels: List[str]):
    """An object label -> probability as a list in the order of ``labels`` (its keys must be the
    labels); any other value as it is, for the soft labels' rules to judge."""
    if isinstance(value, dict):
        return [value[label] for label in labels] if set(value) == set(labels) else None
    return value


def _annotation_values(
    track: Track, annotations: list, row_item: np.ndarray, ids: List[str], problems: Located
):
    """One row per annotation: a label index, or a 0/1 row over the labels (multilabel: a list of
    labels or comma-separated labels); a label outside the label set is a problem (index 0, not chosen)."""
    multilabel = track.scale == "multilabel"
    if multilabel:
        annotations = list(map(split_multilabel, annotations))
        sizes = np.array(list(map(len, annotations)), dtype=np.int64)
    given = list(chain.from_iterable(annotations)) if multilabel else annotations
    codes, keys = _label_codes(given, track.label_set)
    owner = np.repeat(np.arange(len(annotations)), sizes) if multilabel else np.arange(len(given))
    for k in np.flatnonzero(codes < 0).tolist():
        problems.add(
            "annotation outside the track's label set",
            int(row_item[owner[k]]),
            order=1,
            item=ids[row_item[owner[k]]],
            expected=", ".join(track.labels),
            found=repr(keys[k] if multilabel else given[k]),
        )
    if not multilabel:
        return np.maximum(codes, 0)
    chosen = np.zeros((len(annotations), len(track.labels)))
    chosen[owner[codes >= 0], codes[codes >= 0]] = 1.0
    return chosen


def _label_codes(given: list, labels: LabelSet) -> Tuple[np.ndarray, Dict[int, str]]:
    """Each annotation's label index by the label policy (-1: none), and the text stripped of each
    one that names no label."""
    codes = np.array(labels.codes(given), dtype=np.int64)
    return codes, {k: str(given[k]).strip() for k in np.flatnonzero(codes < 0).tolist()}


def _soft_from_rows(
    values: np.ndarray, row_item: np.ndarray, counts: np.ndarray, n_labels: int
) -> np.ndarray:
    """Per item, the share of its annotations on each label ((N, K)), or per label the share of its
    annotators who chose it, as [P(not chosen), P(chosen)] pairs ((N, K, 2)) for 0/1 rows."""
    n, divisor = len(counts), np.maximum(counts, 1)[:, None]
    if values.ndim == 1:
        return (
            np.bincount(row_item * n_labels + values, minlength=n * n_labels).reshape(n, n_labels)
            / divisor
        )
    totals = [np.bincount(row_item, weights=values[:, j], minlength=n) for j in range(n_labels)]
    share = np.column_stack(totals) / divisor
    soft = np.stack([1.0 - share, share], axis=2)
    soft[counts == 0] = 0.0
    return soft


def _distribution(row: np.ndarray, scored: bool) -> list:
    """A soft-label gold row as a prediction; the uniform one over its last axis when unscored."""
    return (row if scored else np.full(row.shape, 1.0 / row.shape[-1])).tolist()


def gold_as_values(gold: GoldTrack) -> list:
    """The gold of a track as prediction values (a perfect submission), for self-checks and tests;
    items without gold, which are not scored, get a valid value all the same: classification items
    without a majority the first label, soft-label items without annotations the uniform
    distribution (a row of zeros would be refused as not summing to 1)."""
    return AS_VALUES[kinds.of(gold.track).value_type](gold)


def _scores_as_values(gold: GoldTrack) -> list:
    return [float(v) for v in gold.gold]


def _labels_as_values(gold: GoldTrack) -> list:
    return [gold.track.labels[max(i, 0)] for i in gold.gold.tolist()]


def _distributions_as_values(gold: GoldTrack) -> list:
    return [_distribution(row, scored) for row, scored in zip(gold.gold, gold.scored)]


def _annotator_rows_as_values(gold: GoldTrack) -> list:
    bounds = gold.gold.offsets.tolist()
    values = gold.gold.values
    return [per_annotator_value(gold.track, values[a:b]) for a, b in zip(bounds, bounds[1:])]


#: Each value type's gold as prediction values (``gold_as_values``).
AS_VALUES = {
    SCORE: _scores_as_values,
    LABEL: _labels_as_values,
    DISTRIBUTION: _distributions_as_values,
    ANNOTATOR_ROW: _annotator_rows_as_values,
}
