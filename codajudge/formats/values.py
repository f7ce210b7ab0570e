"""The rules of one submitted value (numbers, JSON and Python-literal values, labels), which raise
``ValueProblem`` (expected, found), and the warnings of the notes these rules leave (their kinds
and texts are in ``notes``); soft labels are in ``soft``, per-annotator rows in ``perspectivist``."""

from __future__ import annotations

import ast
import warnings
import json
import math
import re
from itertools import repeat
from typing import Dict, List, Sequence

import numpy as np

from .. import kinds
from ..kinds.base import split_multilabel  # noqa: F401 (read from here by gold and formats)
from ..tracks import Track
from .bulk import COMMA_DECIMAL, NUMBER, entry_count, exact_codes, list_entries, number_column
from .notes import PYTHON_LITERAL, VALUE_NOTES, ReadNote, note_warnings
from .textfile import shorten

#: Longest value read as a ``python_literal``: Python's parser holds about 500 bytes per character of
#: a literal of numbers, so this bounds one line's parse to about 32 MB; JSON is read up to the 1 MiB
#: line bound, by a scanner that holds only the values.
MAX_LITERAL_CHARS = 64 * 1024
#: Entries a value may hold beyond the most a valid value of its track holds (``most_entries``), so
#: that a value a few entries too long is named by its own rule (its length).
ENTRY_SLACK = 16


class ValueProblem(Exception):
    def __init__(self, message: str, expected: str = None, found: str = None, hint: str = None):
        super().__init__(message)
        self.message, self.expected, self.found, self.hint = message, expected, found, hint


def show(text: str, limit: int = 60) -> str:
    return repr(shorten(str(text), limit))


def show_json(value) -> str:
    """A submitted JSON value, shortened for a message (it is the participant's, never gold)."""
    try:
        return show(json.dumps(value, ensure_ascii=False))
    except (ValueError, RecursionError):
        return "a value too deeply nested to show"


def parse_number(text: str) -> float:
    """One number by ``bulk.number_column``: finite, decimal, in ASCII digits."""
    value, ok = number_column([text])
    if ok[0]:
        return float(value[0])
    if np.isnan(value[0]):  # not written as ``NUMBER``
        hint = (
            "use a dot as the decimal separator" if COMMA_DECIMAL.fullmatch(text.strip()) else None
        )
        raise ValueProblem(
            "not a number", expected="a decimal number such as 3.2", found=show(text), hint=hint
        )
    raise ValueProblem("number out of range", expected="a finite number", found=show(text))


def _reject_constant(name: str):
    raise ValueProblem("not a finite number", expected="finite numbers", found=name)


def _json_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueProblem("number out of range", expected="finite numbers", found=show(text))
    return value


def _unique_keys(pairs):
    out = {}
    for key, value in pairs:
        if key in out:
            raise ValueProblem(
                "a JSON object has the same key twice", expected="each key once", found=show(key)
            )
        out[key] = value
    return out


def parse_json(text: str, example: str = "[0.2, 0.8]"):
    """A JSON value; NaN, Infinity, numbers that overflow to infinity and duplicate keys are refused.
    Integers of over 300 digits are read as floats (Python refuses to convert very long ones to int).
    ``example``: a valid value, for the message of a text that is not JSON."""
    try:
        return json.loads(
            text,
            parse_constant=_reject_constant,
            parse_float=_json_float,
            object_pairs_hook=_unique_keys,
            parse_int=lambda digits: int(digits) if len(digits) <= 300 else _json_float(digits),
        )
    except ValueProblem:
        raise
    except (ValueError, RecursionError) as e:  # JSONDecodeError is a ValueError
        raise ValueProblem(
            f"not valid JSON ({getattr(e, 'msg', 'too deeply nested or too long')})",
            expected=f"a JSON list such as {example}",
            found=show(text),
        )


def most_entries(track: Track, row_length: int = 0) -> int:
    """The most entries (``bulk.entry_count``) a submitted value of ``track`` is parsed with: what a
    valid value holds (``Kind.most_value_entries``, rows of at most ``row_length`` annotators) and
    ``ENTRY_SLACK``. A value over it is refused before it is parsed, so that no row costs more
    memory than a fixed multiple of what its track can hold."""
    return kinds.of(track).most_value_entries(track, row_length) + ENTRY_SLACK


def parse_value(text: str, track: Track, notes: List[ReadNote], row_length: int = 0):
    """A submitted value: JSON or, where it is not, a Python literal of lists (``python_literal``: pandas'
    to_csv of a list column writes ``str(list)``), noted; else the JSON problem, with a hint on its cause.
    A value of more entries than ``most_entries(track, row_length)`` is refused unparsed."""
    example = describe_value(track).partition("<TAB>")[2]
    _refuse_many_entries(text, most_entries(track, row_length), example)
    try:
        return parse_json(text, example)
    except ValueProblem as problem:
        value = python_literal(text) if problem.message.startswith("not valid JSON") else None
        if value is None:
            problem.hint = problem.hint or _not_json_hint(text.strip())
            raise
    notes.append(ReadNote(PYTHON_LITERAL))
    return value


def _refuse_many_entries(text: str, most: int, example: str) -> None:
    count = entry_count(text)
    if count > most:
        raise ValueProblem(
            "the value holds more entries than a value of this track can",
            expected=f"at most {most:,} list entries and object members",
            found=f"{count:,} (commas and opening brackets outside strings)",
            hint=f"write the item's own value, such as {example}",
        )


def python_literal(text: str):
    """``text`` as one Python list or tuple in brackets (``3,5`` is no tuple: a decimal comma) of lists,
    tuples, strings and numbers, tuples read as lists and each number, its sign included, written as JSON
    writes one; else None. The syntax tree is read node by node: nothing is evaluated. The work is linear
    in the text (one parse, one pass over the nodes, each number's text sliced by its offsets, one JSON
    read) and bounded: a text over ``MAX_LITERAL_CHARS`` is not read."""
    if len(text) > MAX_LITERAL_CHARS or text.lstrip()[:1] not in ("[", "("):
        return None
    source = (
        text.strip() + ","
    )  # one expression then a comma: a tuple of one element, unless the text is a tuple itself
    try:
        tree = _parsed(source)
        one = (
            isinstance(tree, ast.Tuple)
            and len(tree.elts) == 1
            and isinstance(tree.elts[0], (ast.List, ast.Tuple))
        )
        return parse_json(_json_text(tree.elts[0], _Source(source))) if one else None
    except (SyntaxError, ValueError, RecursionError, MemoryError, ValueProblem):
        return None


def _parsed(source: str) -> ast.AST:
    """The expression's syntax tree. Python warns on some literals (an invalid escape such as
    ``'\\d'``, ``1 is 1``) by printing to stderr; those warnings are about the participant's text,
    not the kit, and must not reach the scoring log with the kit's internal paths."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(source, mode="eval").body


class _Source:
    """A parsed text's nodes' own text, by their offsets: ``ast.get_source_segment`` splits the whole
    text again on every call, which makes reading a line of n numbers cost n times the line."""

    def __init__(self, source: str):
        self.data = source.encode("utf-8")  # node offsets count UTF-8 bytes within their line
        self.starts = [0] + [m.end() for m in _PYTHON_LINE_END.finditer(self.data)]

    def segment(self, node: ast.AST) -> str:
        start = self.starts[node.lineno - 1] + node.col_offset
        return self.data[start : self.starts[node.end_lineno - 1] + node.end_col_offset].decode()


#: Where the Python parser ends a line (``ast.get_source_segment`` splits alike).
_PYTHON_LINE_END = re.compile(rb"\r\n|\n|\r")


def _json_text(node: ast.AST, source: _Source) -> str:
    """The literal written as JSON: lists and tuples as lists, strings by ``json.dumps``, and each number
    as the text it has in the literal, for ``parse_json`` to read with its own rules (a number JSON
    writes otherwise, ``0x10``, ``1_000``, ``True``, makes the whole text no JSON)."""
    if isinstance(node, (ast.List, ast.Tuple)):
        return "[" + ",".join([_json_text(element, source) for element in node.elts]) + "]"
    if isinstance(node, ast.Constant) and type(node.value) is str:
        return json.dumps(node.value)
    if (
        isinstance(node, ast.Constant)
        or isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.USub)
    ):
        return source.segment(node)
    raise ValueError("not a literal of lists, strings and numbers")


def _not_json_hint(text: str):
    """The likely writer of a value that is neither JSON nor a ``python_literal``, and what to write instead."""
    if re.search(r"\b(?:np|numpy)\.\w+\(|\barray\(", text) or (
        text.startswith("[") and "," not in text and re.search(r"[\d.]\s+[-+.\d]", text)
    ):
        return "this is numpy's printing: write json.dumps(x.tolist())"
    if text.startswith('"') and '""' in text:
        return "the value is CSV-quoted: write it without quotes (csv.QUOTE_NONE)"
    if len(text) > MAX_LITERAL_CHARS and text[:1] in ("[", "("):
        return (
            f"a value that is not JSON is read as a Python literal (str() of a list) only up to "
            f"{MAX_LITERAL_CHARS // 1024} KiB: write JSON, json.dumps(x)"
        )
    return None


#: The types of a JSON number (true and false are bools, a type of their own).
NUMBER_TYPES = frozenset((int, float))


def is_number(x) -> bool:
    """A JSON number (``parse_json`` refuses those that are not finite)."""
    return type(x) in NUMBER_TYPES


def _loose_label(text: str) -> str:
    return re.sub(r"[\s_-]+", "", str(text)).casefold()


def outside_label_set(value, track: Track, shown: str, hint: str = None) -> ValueProblem:
    """The problem of a label outside the set, naming the label it probably meant (``Neutral``), or, where
    no label is a number, the label a whole number would be as a class index; else ``hint``."""
    loose = _loose_label(value)  # once: the value is the participant's, of any length
    names = list(track.labels) + list(track.label_set.aliases)
    near = [name for name in names if _loose_label(name) == loose]
    index = str(value).strip()
    if near:
        hint = f"labels are matched exactly: write {near[0]!r} (case and spaces count)"
    elif (
        NUMBER.fullmatch(index)
        and float(index) in range(len(track.labels))
        and not track.label_set.numbers
    ):
        hint = (
            f"labels are names, not class indices: write the name itself (if {index} is an index from 0 in the "
            f"order {', '.join(track.labels)}, that is {track.labels[int(float(index))]!r}; your model's own label "
            "order may differ)"
        )
    return ValueProblem(
        "label outside the track's label set",
        expected="one of " + ", ".join(track.labels),
        found=shown,
        hint=hint,
    )


def index_hint(track: Track, values: list):
    """On an ordinal track whose labels are not 0..K-1, when every entry of the rows that are lists is a
    whole number in 0..K-1: the hint that these look like label indices, and how to write the labels."""
    k = len(track.labels)
    numbers = track.label_set.numbers
    indices = dict(zip(map(float, range(k)), range(k)))
    if track.scale != "ordinal" or numbers == {i: value for value, i in indices.items()}:
        return None
    entries = list_entries(values).entries
    if not entries or (exact_codes(entries, indices) < 0).any():
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


def label_column(texts: Sequence[str], index: Dict[str, int]) -> np.ndarray:
    """Each text's label index (the text stripped is a label), -1 for none."""
    return np.fromiter(
        map(index.get, map(str.strip, texts), repeat(-1)), dtype=np.int64, count=len(texts)
    )


def parse_label(text: str, track: Track) -> int:
    """One label by the track's label policy (``LabelSet``); ``label_column`` is its fast path."""
    code = track.label_set.code(text)
    if code < 0:
        raise outside_label_set(text.strip(), track, show(text))
    return code


def label_of(value, track: Track, hint: str = None) -> int:
    """The index of a perspectivist label (a text or a JSON number) by the track's label policy
    (``LabelSet``); ``hint``: for a label outside the set, when no label is near it."""
    code = track.label_set.code(value)
    if code >= 0:
        return code
    raise outside_label_set(value, track, show_json(value), hint)


def value_warnings(notes: Sequence[ReadNote]) -> List[str]:
    """One warning per kind of note the value rules (``parse_value``, ``soft``) left in ``notes``."""
    return note_warnings(notes, VALUE_NOTES)


def describe_value(track: Track) -> str:
    """A short example of a valid line for this track, used in hints and the participant pages."""
    return kinds.of(track).example_value(track)
