"""Whole-column fast paths for reading big files: check and convert every line at C speed.

Each helper either returns the converted column or None. None means only "not sure": the caller
then runs its precise per-line reader, which finds the problem and reports it with its file, line,
item id, expected and found text. A fast path never accepts what the precise reader refuses, and
returns the very values it would return.
"""

from __future__ import annotations

import gc
import json
from contextlib import contextmanager
from itertools import chain
from typing import Iterable, Iterator, Optional, Sequence

import numpy as np

#: JSON's own whitespace, the only one ``json.loads`` allows around a value.
JSON_SPACE = " \t\n\r"
#: The C scanner behind ``json.loads``: ``SCAN_JSON(text, start) -> (value, end)``, StopIteration
#: when no value starts at ``start``.
SCAN_JSON = json.JSONDecoder().scan_once
#: Every character a decimal number can be written with (as ``values.parse_number`` accepts them),
#: padding included. Within this set Python's ``float`` and that parser accept the same strings.
NUMBER_CHARS = str.maketrans("", "", "0123456789.eE+- \t")


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while parsing.

    Parsing a million lines creates millions of containers, and the collector's repeated passes
    over them cost more than the parsing itself; what is parsed here holds no reference cycles.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def json_values(texts: Sequence[str]) -> Optional[list]:
    """Each text read as ``json.loads(text)`` would read it alone, or None if any is not one JSON value.

    The values are parsed line by line with the C scanner (so a value can never run across two
    lines), without the per-call overhead of ``json.loads``. NaN and Infinity are read as floats,
    as ``json.loads`` reads them: callers that refuse them check finiteness.
    """
    out = []
    append = out.append
    scan = SCAN_JSON
    try:
        with collector_paused():
            for text in texts:
                text = text.strip(JSON_SPACE)
                value, end = scan(text, 0)
                if end != len(text):
                    return None
                append(value)
    except (StopIteration, ValueError, RecursionError):
        return None
    return out


def number_column(texts: Sequence[str]) -> Optional[np.ndarray]:
    """Finite decimal numbers written as ``values.parse_number`` accepts them, or None.

    Only ASCII digits, sign, dot, exponent and space or tab padding are let through; the
    conversion itself (``float`` of each text) refuses any malformed arrangement of them.
    """
    joined = "\n".join(texts)
    if not joined.isascii() or joined.translate(NUMBER_CHARS).strip("\n"):
        return None
    try:
        values = np.array(texts, dtype=float)
    except (ValueError, OverflowError):
        return None
    if values.shape != (len(texts),) or not np.isfinite(values).all():
        return None
    return values


def exact_codes(values: Iterable, table: dict, count: int) -> Optional[np.ndarray]:
    """``table[v]`` for each of the ``count`` values as an int64 array (in C: no list is built), or
    None when a value is missing from ``table`` or cannot be a key."""
    try:
        return np.fromiter(map(table.__getitem__, values), dtype=np.int64, count=count)
    except (KeyError, TypeError):
        return None


def choice_row(columns: Iterable[int], n_labels: int) -> np.ndarray:
    """One 0/1 row over ``n_labels`` labels with a 1 in each of ``columns`` (one annotator's choices)."""
    row = np.zeros(n_labels)
    row[list(columns)] = 1.0
    return row


def choice_rows(values: list, index: dict, n_labels: int) -> Optional[np.ndarray]:
    """0/1 rows ``(len(values), n_labels)``: row r marks the labels listed in ``values[r]``.

    Each value must be a list of exact keys of ``index`` (label -> column), else None. The lists
    are flattened and looked up in C (``chain``, ``map``), not one by one.
    """
    try:  # list.__len__ refuses anything but a list: one pass checks and measures
        lengths = np.fromiter(map(list.__len__, values), dtype=np.int64, count=len(values))
    except TypeError:
        return None
    columns = exact_codes(chain.from_iterable(values), index, int(lengths.sum()))
    if columns is None:
        return None
    chosen = np.zeros((len(values), n_labels))
    chosen[np.repeat(np.arange(len(values)), lengths), columns] = 1.0
    return chosen


def label_codes(values: np.ndarray, n_labels: int) -> np.ndarray:
    """Label indices in the smallest integer type that holds them: perspectivist tracks have a row per
    annotator and item, and a byte per row instead of eight makes every pass over them faster."""
    return np.asarray(values).astype(np.int8 if n_labels <= 127 else np.int16 if n_labels <= 32767 else np.int32)
