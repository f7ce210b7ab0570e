"""Whole-column operations for reading big files: check and convert every line at C speed.

A helper returns the converted column and the mask of the rows its rule refuses (``number_column``),
or None when the column is not all of the plain form it converts: the reader then applies the
per-value rule of ``values`` to the rows, which explains each problem.
"""

from __future__ import annotations

import gc
import json
import re
from contextlib import contextmanager
from itertools import chain, compress, repeat
from operator import itemgetter
from typing import Iterator, Optional, Sequence, Tuple

import numpy as np

#: JSON's own whitespace, the only one ``json.loads`` allows around a value.
JSON_SPACE = " \t\n\r"
#: The C scanner behind ``json.loads``: ``SCAN_JSON(text, start) -> (value, end)``, StopIteration
#: when no value starts at ``start``.
SCAN_JSON = json.JSONDecoder().scan_once
#: A decimal number as a participant may write one (no nan, inf, hex, underscores or other scripts).
NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)
#: Every character such a number can be written with, padding included.
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

    The C scanner reads each line on its own (so a value can never run across two lines), mapped
    over the column without the per-call overhead of ``json.loads``; a text without a value stops
    the map early (StopIteration), which the count reveals. NaN and Infinity are read as floats, as
    ``json.loads`` reads them: callers that refuse them check finiteness.
    """
    stripped = list(map(str.strip, texts, repeat(JSON_SPACE)))
    try:
        scanned = list(map(SCAN_JSON, stripped, repeat(0)))
    except (ValueError, RecursionError):
        return None
    if len(scanned) != len(stripped) or list(map(itemgetter(1), scanned)) != list(map(len, stripped)):
        return None
    return list(map(itemgetter(0), scanned))


def plain_numbers(texts: Sequence[str]) -> Optional[np.ndarray]:
    """The column as floats when every text is a number written with ASCII digits, sign, dot and
    exponent, padded with spaces or tabs only; else None. Within these characters numpy's parser
    accepts exactly the texts ``NUMBER`` matches (infinite values are the caller's to refuse)."""
    joined = "\n".join(texts)
    if not joined.isascii() or joined.translate(NUMBER_CHARS).strip("\n"):
        return None
    try:
        values = np.array(texts, dtype=float)
    except (ValueError, OverflowError):
        return None
    return values if values.shape == (len(texts),) else None


def number_column(texts: Sequence[str]) -> Tuple[np.ndarray, np.ndarray]:
    """(values, ok): each text as a float, and where it is a finite decimal number in ASCII digits
    (``NUMBER`` after stripping whitespace: the rule ``values.parse_number`` explains)."""
    values = plain_numbers(texts)
    if values is not None:
        return values, np.isfinite(values)
    stripped = list(map(str.strip, texts))
    ok = np.fromiter(map(bool, map(NUMBER.fullmatch, stripped)), dtype=bool, count=len(stripped))
    values = np.full(len(stripped), np.nan)
    values[ok] = np.array(list(compress(stripped, ok)), dtype=float)
    return values, ok & np.isfinite(values)


def exact_codes(values: list, table: dict) -> np.ndarray:
    """``table[v]`` for each value as int64 (in C), -1 where ``v`` is not a key of ``table``: only a
    str, int or float can be one (a boolean is none, though True == 1 and hashes alike)."""
    if not (True in table or False in table):  # then no boolean can find a key
        try:
            return np.fromiter(map(table.get, values, repeat(-1)), dtype=np.int64, count=len(values))
        except TypeError:  # a list or an object is no key
            pass
    keys = np.fromiter(map({str, int, float}.__contains__, map(type, values)), dtype=bool, count=len(values))
    codes = np.full(len(values), -1, dtype=np.int64)
    codes[keys] = np.fromiter(map(table.get, compress(values, keys), repeat(-1)), dtype=np.int64, count=int(keys.sum()))
    return codes


def list_entries(values: list, lengths: Optional[np.ndarray] = None) -> Tuple[list, np.ndarray, np.ndarray]:
    """(the entries of the values that are lists, of ``lengths[i]`` entries when given, chained; the
    value each entry is from; which values are such lists)."""
    try:  # list.__len__ refuses anything but a list: one pass checks and measures
        sizes = np.fromiter(map(list.__len__, values), dtype=np.int64, count=len(values))
        taken = np.ones(len(values), dtype=bool)
    except TypeError:
        taken = np.fromiter(map(isinstance, values, repeat(list)), dtype=bool, count=len(values))
        sizes = np.zeros(len(values), dtype=np.int64)
        sizes[taken] = np.fromiter(map(len, compress(values, taken)), dtype=np.int64, count=int(taken.sum()))
    if lengths is not None:
        taken &= sizes == lengths
    kept = values if taken.all() else compress(values, taken)
    return list(chain.from_iterable(kept)), np.repeat(np.arange(len(values)), sizes * taken), taken


def label_codes(values: np.ndarray, n_labels: int) -> np.ndarray:
    """Label indices in the smallest integer type that holds them: perspectivist tracks have a row per
    annotator and item, and a byte per row instead of eight makes every pass over them faster."""
    return np.asarray(values).astype(np.int8 if n_labels <= 127 else np.int16 if n_labels <= 32767 else np.int32)
