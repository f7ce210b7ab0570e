"""Gold for one track, built from the kit's items: the arrays the metrics compare against.

Soft labels are rebuilt from the individual annotations, unless an item gives its own
``distribution`` (a release's soft label, chosen by the edition: LeWiDi 2023's ``soft_gold:
release``); perspectivist gold is each annotator's own label, in the item's annotator order.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .formats.annotators import annotator_names, per_annotator
from .errors import ConfigError, ProblemCollector, first_few
from .formats.items import GROUP_FIELDS, annotation_count, item_columns
from .formats.soft import soft_label
from .formats.textfile import shorten
from .formats.values import ValueProblem, is_finite_number, label_meant
from .formats.write import per_annotator_value
from . import kinds
from .kinds.base import ANNOTATOR_ROW, DISTRIBUTION, LABEL, SCORE, split_multilabel
from .tracks import Track


@dataclass
class GoldTrack:
    """Gold for one track. ``ids`` are all items a submission must cover, in file order;
    ``scored`` marks those with gold (classification items without a majority are not scored)."""

    track: Track
    ids: list[str]
    scored: np.ndarray
    gold: object
    #: per item, its annotators' names in order (perspectivist tracks), else empty
    annotators: list[list[str]] = field(default_factory=list)
    groups: dict[str, list[str]] = field(default_factory=dict)  # 'lang'/'genre' -> value per item
    #: per item, the release's own annotators list when it repeats names (``annotators_listed``), else None
    listed: list[list[str] | None] = field(default_factory=list)
    #: per item, its texts where the reference data holds them (a public-gold phase), else None
    texts: list[list[str] | None] = field(default_factory=list)

    @property
    def n_scored(self) -> int:
        return int(self.scored.sum())


def gold_fields(track: Track) -> dict[str, object]:
    """The item fields the gold of ``track`` is built from, each with its value when an item has none."""
    return {**kinds.of(track).gold_fields, "lang": "", "genre": "", "annotators_listed": None}


def build_gold(track: Track, items: list[dict], display: str) -> GoldTrack:
    """Gold arrays for ``track`` from its dataset's items (dicts); organiser data errors raise ConfigError."""
    return gold_from_columns(track, item_columns(items, gold_fields(track)), display)


def gold_from_columns(track: Track, columns: dict[str, list], display: str) -> GoldTrack:
    """Gold arrays for ``track`` from its items' columns (``id`` and the ``gold_fields`` some item has,
    as ``items.read_item_columns`` reads them); every item's problems, in item order, are raised
    together as one ConfigError."""
    ids, problems = columns["id"], ProblemCollector(display)
    defaults = gold_fields(track)
    column = {name: columns.get(name, [default] * len(ids)) for name, default in defaults.items()}
    column[READ_ANNOTATIONS] = columns.setdefault(READ_ANNOTATIONS, {})
    build = GOLD_OF[kinds.of(track).value_type]
    gold, scored, annotators = build(track, column, ids, problems)
    problems.raise_if_any(ConfigError)
    groups = {name: _texts(columns[name]) for name in GROUP_FIELDS if name in columns}
    listed = _listed(columns.get("annotators_listed", []))
    return GoldTrack(track, ids, scored, gold, annotators, groups, listed, columns.get("texts", []))


def _score_gold(track: Track, column: dict, ids: list[str], problems: ProblemCollector):
    """(gold scores, every item scored, no annotators): an item whose ``score`` is not a finite
    number (an int or float, ``10**400`` is not) is a problem."""
    values = column["score"]
    gold = np.array([float(v) if is_finite_number(v) else math.nan for v in values], dtype=float)
    for row in np.flatnonzero(~np.isfinite(gold)).tolist():
        found = shorten(repr(values[row]))
        problems.add("gold 'score' must be a finite number", item=ids[row], found=found)
    return gold, np.ones(len(ids), dtype=bool), []


def _label_gold(track: Track, column: dict, ids: list[str], problems: ProblemCollector):
    """(majority labels as indices, the items with one scored, no annotators): null (no
    majority) is -1 and not scored; a label outside the label set is a problem."""
    values = column["label"]
    codes = np.array(track.label_set.codes(values), dtype=np.int64)
    for row in np.flatnonzero(codes < 0).tolist():
        if values[row] is not None:
            _outside_label_set("gold label", [values[row]], track, problems, ids[row])
    return codes, codes >= 0, []


def _distribution_gold(track: Track, column: dict, ids: list[str], problems: ProblemCollector):
    """(soft labels, the items with annotations or a given ``distribution``, no annotators: a soft
    label is the item's, not an annotator's). An item's ``distribution`` (an object label ->
    probability, or a list in the track's label order) is its gold in place of its annotations'
    shares; one that breaks a soft label's rules is a problem."""
    rows, counts, annotated = _annotation_rows(track, column, ids, problems)
    scored = annotated.copy()  # the dataset's other tracks of these labels share ``annotated``
    # per item and label, the share of the item's annotations that chose the label, each
    # annotation counted in the (item, label) cells of the flat item-major grid
    n_items, n_labels = len(ids), len(track.labels)
    first_cell = np.repeat(np.arange(n_items) * n_labels, counts)  # of each annotation's item
    if rows.ndim == 1:  # a label index per annotation: 1 in its label's cell
        cells = np.bincount(first_cell + rows, minlength=n_items * n_labels)
    else:  # a 0/1 row per annotation: each value in its label's cell
        every_cell = (first_cell[:, None] + np.arange(n_labels)).ravel()
        cells = np.bincount(every_cell, rows.ravel(), minlength=n_items * n_labels)
    gold = cells.reshape(n_items, n_labels) / np.maximum(counts, 1)[:, None]
    if rows.ndim == 2:  # multilabel: a [P(not chosen), P(chosen)] pair per label
        gold = np.stack([1.0 - gold, gold], axis=2)
        gold[counts == 0] = 0.0  # none for an item without annotations
    # the shares read by a submitted soft label's rule (divided by their float sum), so that the
    # shares submitted are the gold to the bit
    for row in np.flatnonzero(counts).tolist():
        gold[row] = soft_label(gold[row].tolist(), track)[0]
    for row, value in enumerate(column["distribution"]):
        if value is None:
            continue
        ordered = value  # an object label -> probability, in label order (its keys the labels)
        if isinstance(value, dict):
            ordered = [value[k] for k in track.labels] if set(value) == set(track.labels) else None
        try:
            gold[row] = soft_label(ordered, track)[0]
            scored[row] = True
        except ValueProblem as problem:
            message = f"gold 'distribution': {problem.message}"
            found = shorten(repr(value))
            problems.add(message, item=ids[row], expected=problem.expected, found=found)
    return gold, scored, []


def _annotator_row_gold(track: Track, column: dict, ids: list[str], problems: ProblemCollector):
    """(each annotator's label, the items with annotations, their annotators)."""
    rows, counts, scored = _annotation_rows(track, column, ids, problems)
    names = [annotator_names(names) for names in column["annotators"]]
    return per_annotator(rows, counts, len(track.labels)), scored, names


#: The key of ``gold_from_columns``'s columns under which the annotations read for one label set are
#: kept (label set -> ``_annotation_rows``), so that the tracks of a dataset read them once.
READ_ANNOTATIONS = "annotations read"

#: What gold each value type compares with, built from the items' columns: (gold, scored, annotators).
GOLD_OF = {
    SCORE: _score_gold,
    LABEL: _label_gold,
    DISTRIBUTION: _distribution_gold,
    ANNOTATOR_ROW: _annotator_row_gold,
}


def listed_annotators(items: list[dict]) -> list[list[str] | None]:
    """Per item its ``annotators_listed`` (public: the release's annotators list, which may repeat
    an annotator once per label given), or None; an empty list when no item has one."""
    return _listed(item_columns(items, {"annotators_listed": None}).get("annotators_listed", []))


def _listed(values: list) -> list[list[str] | None]:
    """Per item its ``annotators_listed`` as names (``annotator_names``), or None where it is none."""
    return [annotator_names(v) if isinstance(v, list) else None for v in values]


def _texts(values: list) -> list[str]:
    """Each item's group value (lang, genre) as text; null is no group (""), as a missing value is."""
    return ["" if v is None else str(v) for v in values]


def _annotation_rows(track: Track, column: dict, ids: list[str], problems: ProblemCollector):
    """(one row per annotation, each item's number of annotations, the scored mask) from one
    annotation per annotator; an item without annotations (an OCNLI train
    item without votes) is not scored. Read once for the tracks of a dataset that share labels and
    scale (``column[READ_ANNOTATIONS]``): a problem is raised with the first track's gold."""
    labels = (track.labels, tuple(track.label_set.aliases.items()), track.scale)
    read = column[READ_ANNOTATIONS]
    if labels in read:
        return read[labels]
    counts, rows = [], []
    for item_id, names, given in zip(ids, column["annotators"], column["annotations"]):
        counts.append(annotation_count(names, given, problems, None, item_id))
        if counts[-1]:
            rows += _annotation_values(track, given, problems, item_id)
    multilabel = track.scale == "multilabel"
    shape = (len(rows), len(track.labels)) if multilabel else len(rows)
    # a label outside the set (a problem, -1) counts as the first; 0/1 rows are kept as they are
    rows = np.maximum(np.array(rows, dtype=float if multilabel else np.int64).reshape(shape), 0)
    counts = np.array(counts, dtype=np.int64)
    shared = rows, counts, counts > 0
    for array in shared:  # every track of these labels reads them: a write would change the others
        array.setflags(write=False)
    read[labels] = shared
    return shared


def _annotation_values(track: Track, given: list, problems: ProblemCollector, item: str) -> list:
    """Each annotation's label index, or on multilabel tracks its 0/1 row over the labels (a list of
    labels or comma-separated labels); the labels outside the label set (index -1, not chosen) are
    one problem at ``item``, however many of its annotations give them."""
    if track.scale != "multilabel":
        rows = track.label_set.codes(given)
        outside = [value for value, code in zip(given, rows) if code < 0]
    else:
        rows, outside = [], []
        for parts in map(split_multilabel, given):
            codes = track.label_set.codes(parts)
            outside += [str(part).strip() for part, code in zip(parts, codes) if code < 0]
            rows.append([float(label in codes) for label in range(len(track.labels))])
    _outside_label_set("annotation", outside, track, problems, item)
    return rows


def _outside_label_set(
    what: str, values: list, track: Track, problems: ProblemCollector, item: str
):
    """The problem of ``what`` (a gold label, an annotation) of ``item`` whose ``values`` (each
    named once) are outside the track's label set, with the label the first probably meant
    (``label_meant``, as a submission's refusal names it); none when there are none."""
    if values:
        hint = "correct the data, or add the label to the track's 'labels' (or name it in "
        hint += "'label_aliases')"
        meant = label_meant(str(values[0]).strip(), track)
        problems.add(
            f"{what} outside the label set of track '{track.id}'",
            item=item,
            expected=", ".join(track.labels),
            found=first_few(list(dict.fromkeys(map(repr, values)))),
            hint=f"{meant}; else {hint}" if meant else hint,
        )


def gold_as_values(gold: GoldTrack) -> list:
    """The gold of a track as prediction values (a perfect submission), for self-checks and tests;
    items without gold, which are not scored, get a valid value all the same: classification items
    without a majority the first label, soft-label items without annotations the uniform
    distribution (a row of zeros would be refused as not summing to 1)."""
    value_type = kinds.of(gold.track).value_type
    if value_type is SCORE:
        return gold.gold.tolist()
    if value_type is LABEL:
        return [gold.track.labels[max(i, 0)] for i in gold.gold.tolist()]
    if value_type is DISTRIBUTION:
        values = gold.gold.copy()
        values[~gold.scored] = 1.0 / values.shape[-1]  # the uniform distribution (pairs)
        return values.tolist()
    bounds = gold.gold.offsets.tolist()
    values = gold.gold.values
    return [per_annotator_value(gold.track, values[a:b]) for a, b in zip(bounds, bounds[1:])]
