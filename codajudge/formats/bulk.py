"""Whole-column operations for reading big files: check and convert every line at C speed. A helper
returns the converted column and the mask of the rows its rule refuses (``number_column``); the reader
explains only those rows, by the same rule applied to one row (``values``).
"""

from __future__ import annotations

import gc
import json
import re
from contextlib import contextmanager, suppress
from itertools import chain, compress, repeat
from operator import itemgetter
from typing import Iterator, NamedTuple, Optional, Sequence

import numpy as np

#: JSON's own whitespace, the only one ``json.loads`` allows around a value.
JSON_SPACE = " \t\n\r"
#: The C scanner behind ``json.loads``: ``SCAN_JSON(text, start) -> (value, end)``, StopIteration
#: when no value starts at ``start``. Integers are read as floats: a float of a too-long one is
#: infinite, which callers refuse, where numpy could not convert the integer.
SCAN_JSON = json.JSONDecoder(parse_int=float).scan_once
#: What ``json_values`` gives for a text that is not one JSON value.
NOT_JSON = object()
#: A decimal number as a participant may write one (no nan, inf, hex, underscores or other scripts).
NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)
#: A number written with a decimal comma (``2,68``): not a number, named as such by ``values.parse_number``.
COMMA_DECIMAL = re.compile(r"[+-]?\d+,\d+")
#: Every character such a number can be written with, padding included.
NUMBER_CHARS = str.maketrans("", "", "0123456789.eE+- \t")
#: A JSON string, or a Python one in single quotes (``python_literal``), its escapes removed: what
#: is inside opens no entry. One left unclosed runs to the end of the text (no parser reads past it).
QUOTED = re.compile(r'"[^"]*(?:"|\Z)|\'[^\']*(?:\'|\Z)')
#: The characters that open an entry of a list, tuple or object, outside strings.
ENTRY_OPENERS = ",[{("


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while parsing: its passes over the millions of containers
    parsing a million lines creates cost more than the parsing, and these hold no reference cycles."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def entry_count(text: str) -> int:
    """An upper bound, counted without parsing, on the entries (list or tuple items, object members,
    at any depth) of the value ``text`` writes: each entry but a container's first follows a comma,
    and the first its opening bracket or brace. Parsing builds an object of at most about 70 bytes
    per entry (an empty object), so this bounds what the parsed value costs."""
    if '"' in text or "'" in text:  # escaped backslashes first: in '\\"' the quote ends the string
        text = QUOTED.sub("", text.replace("\\\\", "").replace('\\"', "").replace("\\'", ""))
    return sum(map(text.count, ENTRY_OPENERS))


def json_values(texts: Sequence[str], most_entries: Optional[int] = None) -> list:
    """Each text read as ``json.loads(text)`` would read it alone (but integers as floats; NaN and
    Infinity too), or ``NOT_JSON`` where it is not one JSON value or, before any parsing, where it
    has over ``most_entries`` entries (``entry_count``). The C scanner is mapped over the column,
    and restarted after each text it refuses (StopIteration ends the map, an error keeps what it read)."""
    stripped = list(map(str.strip, texts, repeat(JSON_SPACE)))
    if most_entries is not None:
        counts = np.fromiter(map(entry_count, stripped), dtype=np.int64, count=len(stripped))
        for j in np.flatnonzero(counts > most_entries).tolist():
            stripped[j] = ""  # not JSON: the row's own rule (``values.parse_value``) names why
    scanned, rest = [], iter(stripped)
    while len(scanned) < len(stripped):
        with suppress(ValueError, RecursionError):
            scanned.extend(map(SCAN_JSON, rest, repeat(0)))
        if len(scanned) < len(stripped):
            scanned.append((NOT_JSON, -1))
    values = list(map(itemgetter(0), scanned))
    if sum(map(itemgetter(1), scanned)) != sum(map(len, stripped)):  # no value ends after its text
        for j in compress(
            range(len(values)), map(int.__ne__, map(itemgetter(1), scanned), map(len, stripped))
        ):
            values[j] = NOT_JSON  # a value with more text after it
    return values


def plain_numbers(texts: Sequence[str]) -> Optional[np.ndarray]:
    """The column as floats when every text is a number written with ASCII digits, sign, dot and
    exponent, padded with spaces or tabs only; else None. Within these characters numpy's parser
    accepts exactly the texts ``NUMBER`` matches (infinite values are the caller's to refuse)."""
    joined = "\n".join(texts)
    if joined.isascii() and not joined.translate(NUMBER_CHARS).strip("\n"):
        with suppress(ValueError, OverflowError):
            return np.array(texts, dtype=float)
    return None


class NumberColumn(NamedTuple):
    """A column of texts read as numbers: each text's float (NaN where it is no ``NUMBER``) and
    which texts are finite decimal numbers (the others are refused by ``values.parse_number``)."""

    values: np.ndarray
    ok: np.ndarray


def number_column(texts: Sequence[str]) -> NumberColumn:
    """Each text as a float, and where it is a finite decimal number in ASCII digits (``NUMBER`` after
    stripping whitespace: the rule ``values.parse_number`` explains)."""
    values = plain_numbers(texts)
    if values is None:
        stripped = list(map(str.strip, texts))
        ok = np.fromiter(
            map(bool, map(NUMBER.fullmatch, stripped)), dtype=bool, count=len(stripped)
        )
        values = np.full(len(stripped), np.nan)
        values[ok] = np.array(list(compress(stripped, ok)), dtype=float)
    return NumberColumn(values, np.isfinite(values))


def exact_codes(values: list, table: dict) -> np.ndarray:
    """``table[v]`` for each value as int64 (in C), -1 where ``v`` is not a key of ``table``: only a
    str, int or float can be one (a boolean is none, though True == 1 and hashes alike)."""
    if not (True in table or False in table):  # then no boolean can find a key
        try:
            return np.fromiter(
                map(table.get, values, repeat(-1)), dtype=np.int64, count=len(values)
            )
        except TypeError:  # a list or an object is no key
            pass
    keys = np.fromiter(
        map({str, int, float}.__contains__, map(type, values)), dtype=bool, count=len(values)
    )
    codes = np.full(len(values), -1, dtype=np.int64)
    codes[keys] = np.fromiter(
        map(table.get, compress(values, keys), repeat(-1)), dtype=np.int64, count=int(keys.sum())
    )
    return codes


def list_sizes(values: list) -> np.ndarray:
    """Each value's length where it is a list, else -1 (one pass in C when every value is a list)."""
    try:  # list.__len__ refuses anything but a list: one pass checks and measures
        return np.fromiter(map(list.__len__, values), dtype=np.int64, count=len(values))
    except TypeError:
        lists = np.fromiter(map(isinstance, values, repeat(list)), dtype=bool, count=len(values))
        sizes = np.full(len(values), -1, dtype=np.int64)
        sizes[lists] = np.fromiter(
            map(len, compress(values, lists)), dtype=np.int64, count=int(lists.sum())
        )
        return sizes


class ListEntries(NamedTuple):
    """The entries of a column's values that are lists, chained (``entries``), the index of the value
    each entry is from (``owner``) and which values were taken (``taken``, a mask)."""

    entries: list
    owner: np.ndarray
    taken: np.ndarray


def list_entries(values: list, lengths: Optional[np.ndarray] = None) -> ListEntries:
    """The entries of the values that are lists, of ``lengths[i]`` entries when given."""
    sizes = list_sizes(values)
    taken = sizes >= 0 if lengths is None else sizes == lengths
    kept = values if taken.all() else compress(values, taken)
    owner = np.repeat(np.arange(len(values)), sizes * taken)
    return ListEntries(list(chain.from_iterable(kept)), owner, taken)


class Distinct(NamedTuple):
    """Each distinct key once, in first-seen order (``keys``), and each key's index among them
    (``index``): a rule applied to ``keys`` and indexed back gives its result on all."""

    keys: list
    index: np.ndarray


def distinct(keys: list) -> Distinct:
    """The distinct keys, at the cost of one hash per key."""
    table = dict.fromkeys(keys)
    table.update(zip(table, range(len(table))))
    return Distinct(
        list(table), np.fromiter(map(table.__getitem__, keys), dtype=np.int64, count=len(keys))
    )


def label_codes(values: np.ndarray, n_labels: int) -> np.ndarray:
    """Label indices in the smallest integer type that holds them: perspectivist tracks have a row per
    annotator and item, and a byte per row instead of eight makes every pass over them faster."""
    return np.asarray(values).astype(
        np.int8 if n_labels <= 127 else np.int16 if n_labels <= 32767 else np.int32
    )
