"""Hints for labels written as their indices where ``values.index_hint`` gives none: whole numbers
written as strings ("10") on an ordinal track, and multilabel rows of one list of label indices per
annotator (``[[2], [2]]``), which would otherwise be read as 0/1 vectors."""

from __future__ import annotations

import json
from typing import Optional

from ..tracks import Track
from .values import NUMBER, index_hint


def labels_as_indices_hint(track: Track, column: list) -> Optional[str]:
    """The hint that a perspectivist file's rows (``column``, JSON values) hold label indices, or None."""
    if track.scale == "multilabel":
        return _multilabel_hint(track, column)
    return index_hint(track, _strings_as_numbers(column))


def _strings_as_numbers(column: list) -> list:
    """The rows with each entry that is a text naming a number as that number."""
    return [[_number(entry) for entry in row] if isinstance(row, list) else row for row in column]


def _number(entry):
    if isinstance(entry, str) and NUMBER.fullmatch(entry.strip()):
        return float(entry)
    return entry


def _multilabel_hint(track: Track, column: list) -> Optional[str]:
    """When every entry of the rows is a list of distinct whole numbers in 0..K-1 (a set of labels),
    some above 1 (so no 0/1 vector): the hint that each annotator's labels look written as indices."""
    entries = [entry for row in column if type(row) is list for entry in row]
    k = len(track.labels)
    if not entries or not all(_label_set(entry) for entry in entries):
        return None
    numbers = [x for entry in entries for x in entry]
    if not all(type(x) in (int, float) and x in range(k) for x in numbers) or max(numbers) < 2:
        return None
    example = [[track.labels[int(i)] for i in entry] for entry in entries[:2]]
    return (
        f"every annotator's entry is a list of whole numbers in 0..{k - 1}: these look like label "
        f"indices; write each annotator's labels by name, e.g. {_json(example)} (index i is "
        f"labels[i] in the order {', '.join(track.labels)})"
    )


def _label_set(entry) -> bool:
    """Whether ``entry`` is a non-empty list of distinct values (indices of labels chosen)."""
    return isinstance(entry, list) and bool(entry) and len(set(map(str, entry))) == len(entry)


def _json(value) -> str:
    return json.dumps(value, ensure_ascii=False)
