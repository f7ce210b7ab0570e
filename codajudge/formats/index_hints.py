"""The hint that a perspectivist file's rows hold label indices rather than labels: whole numbers
(also written as strings, "10") on an ordinal track whose labels are not 0..K-1, and multilabel rows
of one list of label indices per annotator (``[[2], [2]]``), which would otherwise be read as 0/1
vectors."""

from __future__ import annotations

import json
from collections.abc import Iterable

from ..tracks import Track
from ..labels import DECIMAL
from .values import entry_count, is_number, json_or_none


def labels_as_indices_hint(track: Track, texts: Iterable[str], most: int) -> str | None:
    """The hint that a perspectivist file's rows (their value ``texts``; a row of over ``most``
    entries is not read) hold label indices, or None."""
    entries: list = []  # of every row that is a list
    for text in texts:
        row = json_or_none(text) if entry_count(text) <= most else None
        if type(row) is list:
            entries += map(_as_number, row)
    if not entries:
        return None
    hint = _multilabel_hint if track.scale == "multilabel" else _index_hint
    return hint(track, entries)


def _as_number(entry):
    """What the hints read of a row's entry: a text that names a number (``DECIMAL``) as that
    number, any other text as "" (no label index either way), and in a list (a multilabel
    annotator's labels) every text as "", so that the file's texts are not held again."""
    if type(entry) is list:
        return ["" if type(label) is str else label for label in entry]
    if type(entry) is str:
        return float(entry) if DECIMAL.fullmatch(entry.strip()) else ""
    return entry


def _index_hint(track: Track, entries: list) -> str | None:
    """On an ordinal track whose labels are not 0..K-1, when every entry of the rows is a whole
    number in 0..K-1: the hint that these look like label indices, and how to write the labels."""
    k = len(track.labels)
    numbers = track.label_set.numbers  # label index -> its value
    unlike_indices = track.scale == "ordinal" and numbers != dict(enumerate(range(k)))
    if not (unlike_indices and all(is_number(entry) and entry in range(k) for entry in entries)):
        return None
    shifts = {value - i for i, value in numbers.items()}
    shift = shifts.pop() if len(shifts) == 1 and len(numbers) == k else None
    here = f", here index {'+' if shift >= 0 else '-'} {abs(shift):g}" if shift is not None else ""
    return (
        f"every entry of the file is a whole number in 0..{k - 1}: these look like label indices; "
        f"write the label values {track.labels[0]}..{track.labels[-1]} instead (value = "
        f"labels[index]{here})"
    )


def _multilabel_hint(track: Track, entries: list) -> str | None:
    """When every entry of the rows is a list of distinct whole numbers in 0..K-1 (a set of labels),
    some above 1 (so no 0/1 vector): the hint that each annotator's labels look written as indices."""
    k = len(track.labels)
    # each entry a non-empty list of distinct values: the labels an annotator chose
    if not all(isinstance(e, list) and e and len(set(map(str, e))) == len(e) for e in entries):
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
