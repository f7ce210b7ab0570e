"""The hint that a perspectivist file's rows hold label indices rather than labels: whole numbers
(also written as strings, "10") on an ordinal track whose labels are not 0..K-1, and multilabel rows
of one list of label indices per annotator (``[[2], [2]]``), which would otherwise be read as 0/1
vectors."""

from __future__ import annotations

import json
from typing import Iterable, Optional

from ..tracks import Track
from ..labels import DECIMAL
from .values import entry_count, is_number, json_or_none


def labels_as_indices_hint(track: Track, texts: Iterable[str], most: int) -> Optional[str]:
    """The hint that a perspectivist file's rows (their value ``texts``; a row of over ``most``
    entries is not read) hold label indices, or None."""
    rows = [
        _numbers_of(json_or_none(text) if entry_count(text) <= most else None) for text in texts
    ]
    if track.scale == "multilabel":
        return _multilabel_hint(track, rows)
    return _index_hint(track, rows)


def _numbers_of(row):
    """What the hints read of a row: a list's entries with each text that names a number
    (``DECIMAL``) as that number, and any other text as "" (no label index either way), so that
    the file's texts are not held again; on multilabel tracks each entry's list of texts as they
    are, every other text as ""."""
    if type(row) is not list:
        return None
    return [_number(entry) if type(entry) is not list else list(map(_text, entry)) for entry in row]


def _number(entry):
    if type(entry) is str:
        return float(entry) if DECIMAL.fullmatch(entry.strip()) else ""
    return entry


def _text(entry):
    return "" if type(entry) is str and not DECIMAL.fullmatch(entry.strip()) else entry


def _index_hint(track: Track, values: list):
    """On an ordinal track whose labels are not 0..K-1, when every entry of the rows that are lists is a
    whole number in 0..K-1: the hint that these look like label indices, and how to write the labels."""
    k = len(track.labels)
    numbers = track.label_set.numbers
    indices = dict(zip(map(float, range(k)), range(k)))
    if track.scale != "ordinal" or numbers == {i: value for value, i in indices.items()}:
        return None
    entries = [entry for value in values if type(value) is list for entry in value]
    if not entries or not all(is_number(entry) and entry in indices for entry in entries):
        return None
    shifts = {value - i for i, value in numbers.items()}
    shift = shifts.pop() if len(shifts) == 1 and len(numbers) == k else None
    return (
        f"every entry of the file is a whole number in 0..{k - 1}: these look like label indices; write the "
        f"label values {track.labels[0]}..{track.labels[-1]} instead (value = labels[index]"
        + (
            f", here index {'+' if shift >= 0 else '-'} {abs(shift):g})"
            if shift is not None
            else ")"
        )
    )


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
        f"indices; write each annotator's labels by name, e.g. "
        f"{json.dumps(example, ensure_ascii=False)} (index i is "
        f"labels[i] in the order {', '.join(track.labels)})"
    )


def _label_set(entry) -> bool:
    """Whether ``entry`` is a non-empty list of distinct values (indices of labels chosen)."""
    return isinstance(entry, list) and bool(entry) and len(set(map(str, entry))) == len(entry)
