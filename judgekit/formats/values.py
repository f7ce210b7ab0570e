"""The rules of submitted values (numbers, labels, soft labels, perspectivist rows), over a column
(a mask of the rows each refuses) and on one value, which raises ``ValueProblem`` (expected, found)."""

from __future__ import annotations

import ast
import json
import math
import re
from itertools import chain, compress, repeat
from operator import itemgetter
from typing import Callable, Dict, List, Sequence, Tuple

import numpy as np

from ..tracks import Track
from .bulk import COMMA_DECIMAL, NUMBER, exact_codes, list_entries, list_sizes, number_column
from .textfile import shorten

#: Soft-label rows may sum to 1 within this tolerance; they are then renormalised (with a warning
#: beyond 1e-6). Released LeWiDi test soft labels are rounded to 2 decimals and sum to 0.99-1.02.
SUM_TOLERANCE = 0.02


class ValueProblem(Exception):
    def __init__(self, message: str, expected: str = None, found: str = None, hint: str = None):
        super().__init__(message)
        self.message, self.expected, self.found, self.hint = message, expected, found, hint


def split_multilabel(annotation) -> List[str]:
    """A multilabel annotation as a list of labels: a list, or a comma-separated string."""
    if isinstance(annotation, list):
        return [str(a).strip() for a in annotation]
    return [part.strip() for part in str(annotation).split(",") if part.strip()]


def _show(text: str, limit: int = 60) -> str:
    return repr(shorten(str(text), limit))


def _show_json(value) -> str:
    """A submitted JSON value, shortened for a message (it is the participant's, never gold)."""
    try:
        return _show(json.dumps(value, ensure_ascii=False))
    except (ValueError, RecursionError):
        return "a value too deeply nested to show"


def parse_number(text: str) -> float:
    """One number by ``bulk.number_column``: finite, decimal, in ASCII digits."""
    value, ok = number_column([text])
    if ok[0]:
        return float(value[0])
    if np.isnan(value[0]):  # not written as ``NUMBER``
        hint = "use a dot as the decimal separator" if COMMA_DECIMAL.fullmatch(text.strip()) else None
        raise ValueProblem("not a number", expected="a decimal number such as 3.2", found=_show(text), hint=hint)
    raise ValueProblem("number out of range", expected="a finite number", found=_show(text))


def _reject_constant(name: str):
    raise ValueProblem("not a finite number", expected="finite numbers", found=name)


def _json_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueProblem("number out of range", expected="finite numbers", found=_show(text))
    return value


def _unique_keys(pairs):
    out = {}
    for key, value in pairs:
        if key in out:
            raise ValueProblem("a JSON object has the same key twice", expected="each key once", found=_show(key))
        out[key] = value
    return out


def parse_json(text: str, example: str = "[0.2, 0.8]"):
    """A JSON value; NaN, Infinity, numbers that overflow to infinity and duplicate keys are refused.
    Integers of over 300 digits are read as floats (Python refuses to convert very long ones to int).
    ``example``: a valid value, for the message of a text that is not JSON."""
    try:
        return json.loads(text, parse_constant=_reject_constant, parse_float=_json_float, object_pairs_hook=_unique_keys,
                          parse_int=lambda digits: int(digits) if len(digits) <= 300 else _json_float(digits))
    except ValueProblem:
        raise
    except (ValueError, RecursionError) as e:  # JSONDecodeError is a ValueError
        raise ValueProblem(f"not valid JSON ({getattr(e, 'msg', 'too deeply nested or too long')})",
                           expected=f"a JSON list such as {example}", found=_show(text))


def parse_value(text: str, track: Track, notes: list):
    """A submitted value: JSON or, where it is not, a Python literal of lists (``python_literal``: pandas'
    to_csv of a list column writes ``str(list)``), noted; else the JSON problem, with a hint on its cause."""
    try:
        return parse_json(text, describe_value(track).partition("<TAB>")[2])
    except ValueProblem as problem:
        value = python_literal(text) if problem.message.startswith("not valid JSON") else None
        if value is None:
            problem.hint = problem.hint or _not_json_hint(text.strip())
            raise
    notes.append("python literal")
    return value


def python_literal(text: str):
    """``text`` as one Python list or tuple in brackets (``3,5`` is no tuple: a decimal comma) of lists,
    tuples, strings and numbers, tuples read as lists and each number, its sign included, written as JSON
    writes one; else None. The syntax tree is read node by node: nothing is evaluated."""
    source = text.strip() + ","  # one expression then a comma: a tuple of one element, unless the text is a tuple itself
    try:
        tree = ast.parse(source, mode="eval").body
        one = isinstance(tree, ast.Tuple) and len(tree.elts) == 1 and isinstance(tree.elts[0], (ast.List, ast.Tuple))
        return _literal(tree.elts[0], source) if one else None
    except (SyntaxError, ValueError, RecursionError, MemoryError, ValueProblem):
        return None


def _literal(node: ast.AST, source: str):
    if isinstance(node, (ast.List, ast.Tuple)):
        return [_literal(element, source) for element in node.elts]
    if isinstance(node, ast.Constant) and type(node.value) is str:
        return node.value
    if isinstance(node, ast.Constant) or isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        number = parse_json(ast.get_source_segment(source, node))
        if _is_number(number):
            return number
    raise ValueError("not a literal of lists, strings and numbers")


def _not_json_hint(text: str):
    """The likely writer of a value that is neither JSON nor a ``python_literal``, and what to write instead."""
    if re.search(r"\b(?:np|numpy)\.\w+\(|\barray\(", text) or (
            text.startswith("[") and "," not in text and re.search(r"[\d.]\s+[-+.\d]", text)):
        return "this is numpy's printing: write json.dumps(x.tolist())"
    if text.startswith('"') and '""' in text:
        return "the value is CSV-quoted: write it without quotes (csv.QUOTE_NONE)"
    return None


#: The types of a JSON number (true and false are bools, a type of their own).
_NUMBER_TYPES = frozenset((int, float))


def _is_number(x) -> bool:
    """A JSON number (``parse_json`` refuses those that are not finite)."""
    return type(x) in _NUMBER_TYPES


def _loose_label(text: str) -> str:
    return re.sub(r"[\s_-]+", "", str(text)).casefold()


def outside_label_set(value, track: Track, shown: str, hint: str = None) -> ValueProblem:
    """The problem of a label outside the set, naming the label it probably meant (``Neutral``), or, where
    no label is a number, the label a whole number would be as a class index; else ``hint``."""
    near = [label for label in track.labels if _loose_label(label) == _loose_label(value)]
    index = str(value).strip()
    if near:
        hint = f"labels are matched exactly: write {near[0]!r} (case and spaces count)"
    elif NUMBER.fullmatch(index) and float(index) in range(len(track.labels)) and len(label_table(track)) == len(track.labels):
        hint = (f"labels are names, not class indices: write the name itself (if {index} is an index from 0 in the "
                f"order {', '.join(track.labels)}, that is {track.labels[int(float(index))]!r}; your model's own label "
                "order may differ)")
    return ValueProblem("label outside the track's label set", expected="one of " + ", ".join(track.labels),
                        found=shown, hint=hint)


def index_hint(track: Track, values: list):
    """On an ordinal track whose labels are not 0..K-1, when every entry of the rows that are lists is a
    whole number in 0..K-1: the hint that these look like label indices, and how to write the labels."""
    k = len(track.labels)
    numbers = {i: value for value, i in label_table(track).items() if type(value) is float}
    indices = dict(zip(map(float, range(k)), range(k)))
    if track.scale != "ordinal" or numbers == {i: value for value, i in indices.items()}:
        return None
    entries = list_entries(values)[0]
    if not entries or (exact_codes(entries, indices) < 0).any():
        return None
    shifts = {value - i for i, value in numbers.items()}
    shift = shifts.pop() if len(shifts) == 1 and len(numbers) == k else None
    return (f"every entry of the file is a whole number in 0..{k - 1}: these look like label indices; write the "
            f"label values {track.labels[0]}..{track.labels[-1]} instead (value = labels[index]"
            + (f", here index {'+' if shift >= 0 else '-'} {abs(shift):g})" if shift is not None else ")"))


def label_column(texts: Sequence[str], index: Dict[str, int]) -> np.ndarray:
    """Each text's label index (the text stripped is a label), -1 for none."""
    return np.fromiter(map(index.get, map(str.strip, texts), repeat(-1)), dtype=np.int64, count=len(texts))


def parse_label(text: str, track: Track, index: Dict[str, int]) -> int:
    """One label by ``label_column``."""
    code = int(label_column([text], index)[0])
    if code < 0:
        raise outside_label_set(text.strip(), track, _show(text))
    return code


def label_table(track: Track) -> Dict[object, int]:
    """Label -> index, and value -> index for the labels that are finite numbers (an ordinal
    prediction may give 3 for "3")."""
    numbers = {float(label): i for i, label in enumerate(track.labels)
               if NUMBER.fullmatch(label.strip()) and math.isfinite(float(label))}
    return {**numbers, **track.label_index()}


def _label_of(value, track: Track, table: Dict[object, int], hint: str = None) -> int:
    """The index of a perspectivist label: a ``label_table`` key, text with spaces around one, or text
    naming a number that is one."""
    key = value.strip() if isinstance(value, str) else float(value) if _is_number(value) else None
    if isinstance(key, str) and key not in table and NUMBER.fullmatch(key):
        key = float(key)
    if key in table:
        return table[key]
    raise outside_label_set(value, track, _show_json(value), hint)


#: The rules of a list of probabilities in the order ``probability_rows`` checks them: the message,
#: expected and found (of the value and its row of floats) of a value breaking each.
_RULES = (
    ("wrong {what} length", "a list of {length} probabilities",
     lambda value, row: f"{len(value)} values" if type(value) is list else _show_json(value)),
    ("{what} holds a value that is not a finite number", "finite numbers",
     lambda value, row: _show_json(next(v for v in value if not _is_number(v)))),
    ("{what} has a negative probability", "probabilities >= 0", lambda value, row: f"{row.min():g}"),
    ("{what} does not sum to 1", f"a sum within {SUM_TOLERANCE} of 1", lambda value, row: f"sum {row.sum():.6g}"),
    ("a P(chosen) value is above 1", "values in [0, 1]", lambda value, row: f"{row.max():g}"),
)


def probability_rows(values: list, length: int, chosen: bool = False) -> Tuple[np.ndarray, np.ndarray]:
    """(rows, broken): the values that are lists of ``length`` JSON numbers as float rows ``(n, length)``
    (NaN for the others), and per value the first of ``_RULES`` it breaks (-1: none). P(chosen) values
    (``chosen``) must be at most 1 (rounding aside) rather than sum to 1."""
    fits = list_sizes(values) == length
    numbers = fits.copy()
    if not set(map(type, chain.from_iterable(compress(values, fits)))) <= _NUMBER_TYPES:  # which rows hold others
        numbers[fits] = np.fromiter(map(_NUMBER_TYPES.__contains__, map(type, chain.from_iterable(compress(
            values, fits)))), dtype=bool, count=int(fits.sum()) * length).reshape(-1, length).all(axis=1)
    rows = np.full((len(values), length), np.nan)
    rows[numbers] = np.fromiter(chain.from_iterable(compress(values, numbers)), dtype=float,
                                count=int(numbers.sum()) * length).reshape(-1, length)
    with np.errstate(over="ignore"):  # a sum of huge values is infinite: refused, not a warning
        checks = np.array([~fits, ~numbers, ~(np.isfinite(rows) & (rows >= 0)).all(axis=1),
                           (not chosen) & (np.abs(rows.sum(axis=1) - 1) > SUM_TOLERANCE),
                           chosen & (rows > 1 + 1e-9).any(axis=1)])
    return rows, np.where(checks.any(axis=0), checks.argmax(axis=0), -1)


def _problem(rule: int, value, row: np.ndarray, what: str, length: int) -> ValueProblem:
    message, expected, found = _RULES[rule]
    return ValueProblem(message.format(what=what), expected=expected.format(length=length), found=found(value, row),
                        hint="divide each value by the row's sum" if rule == 3 else None)


def _normalised(rows: np.ndarray, bad: np.ndarray, quiet=False) -> Tuple[np.ndarray, List[str]]:
    """The rows divided by their sums (NaN for ``bad`` rows), and a note per row renormalised (a sum
    off by more than 1e-6) that is not ``quiet`` (a row whose change another note announces)."""
    rows = np.where(bad[:, None], np.nan, rows)
    totals = rows.sum(axis=1, keepdims=True)
    return rows / totals, ["renormalised"] * int(((np.abs(totals[:, 0] - 1) > 1e-6) & ~quiet).sum())


def _leading_bins(values: list, k: int) -> Tuple[np.ndarray, np.ndarray]:
    """Per value, the first entry of a list of ``k + 1`` whose first entry is a number (else NaN), and
    the rows whose first entry is a bin to drop: a mass of at most ``SUM_TOLERANCE``."""
    first = np.full(len(values), np.nan)
    longer = np.flatnonzero(list_sizes(values) == k + 1)
    heads = list(map(itemgetter(0), map(values.__getitem__, longer.tolist())))
    numeric = np.fromiter(map(_is_number, heads), dtype=bool, count=len(heads))
    first[longer[numeric]] = np.fromiter(compress(heads, numeric), dtype=float, count=int(numeric.sum()))
    return first, np.flatnonzero((first >= 0) & (first <= SUM_TOLERANCE))


def soft_label_rows(track: Track, values: list) -> Tuple[np.ndarray, np.ndarray, Callable[[int], ValueProblem], list]:
    """A column of soft labels (JSON values): (probabilities ``(n, K)`` in label order, the rows breaking
    a rule, ``problem(j)``: the first rule row j breaks, the notes of the other rows for the warnings).
    Ordinal tracks also take K+1 values whose extra leading bin holds at most ``SUM_TOLERANCE`` (the CSC
    practice-phase layout): the K+1 values follow the rules, then the bin is dropped and the rest renormalised."""
    k = len(track.labels)
    if track.scale == "multilabel":
        return _multilabel_rows(track, values)
    rows, broken = probability_rows(values, k)
    first, cut = _leading_bins(values, k) if track.scale == "ordinal" else (np.full(len(values), np.nan), np.array([], int))
    longer, broken[cut] = probability_rows(list(map(values.__getitem__, cut.tolist())), k + 1)
    rows[cut] = longer[:, 1:]
    wrong_bin = ~np.isnan(first)
    wrong_bin[cut] = False
    bad = wrong_bin | (broken >= 0)
    out, notes = _normalised(rows, bad, quiet=~np.isnan(first) & (first > 0))

    def problem(j: int) -> ValueProblem:
        if not wrong_bin[j]:
            row = probability_rows([values[j]], k + 1)[0][0] if j in cut else rows[j]
            return _problem(broken[j], values[j], row, "soft label", k)
        return ValueProblem("wrong soft label length", expected=f"a list of {k} probabilities",
                            found=f"{k + 1} values, the first {first[j]:g}",
                            hint=f"a row of {k + 1} values looks like the 2025 practice-phase layout, which "
                                 f"had an extra, always-zero first bin \"0\": drop the first value (it "
                                 f"holds probability here, so check that the other {k} are the labels "
                                 f"{track.labels[0]}..{track.labels[-1]})")
    dropped = ~bad & ~np.isnan(first)
    return out, bad, problem, notes + ["extra leading bin"] * int((dropped & (first == 0)).sum()) \
        + first[dropped & (first > 0)].tolist()


def _multilabel_rows(track: Track, values: list):
    """``soft_label_rows`` of a multilabel track: K pairs [P(not chosen), P(chosen)] per row ``(n, K, 2)``,
    given as such or as K numbers P(chosen)."""
    k = len(track.labels)
    chosen, chosen_broken = probability_rows(values, k, chosen=True)
    shaped = chosen_broken == 1  # K entries, not all numbers: K pairs
    pairs, pair_broken = probability_rows(list(chain.from_iterable(compress(values, shaped))), 2)
    bad = chosen_broken >= 0
    bad[shaped] = (pair_broken >= 0).reshape(-1, k).any(axis=1)
    out = np.stack([1.0 - chosen, chosen], axis=-1)
    normalised, notes = _normalised(pairs, np.repeat(bad[shaped], k))
    out[shaped] = normalised.reshape(-1, k, 2)

    def problem(j: int) -> ValueProblem:
        if chosen_broken[j] == 0:
            return ValueProblem("wrong soft label length", found=_show_json(values[j]),
                                expected=f"a list of {k} [P(not chosen), P(chosen)] pairs ({', '.join(track.labels)})")
        if not shaped[j]:
            return _problem(chosen_broken[j], values[j], chosen[j], "soft label", k)
        pair = int(shaped[:j].sum()) * k
        pair += int((pair_broken[pair:pair + k] >= 0).argmax())
        return _problem(pair_broken[pair], values[j][pair % k], pairs[pair], f"pair for '{track.labels[pair % k]}'", 2)
    return out, bad, problem, notes


def parse_soft(text: str, track: Track, notes: List[str]) -> np.ndarray:
    """One soft label by ``soft_label_rows``, or an object label -> probability keyed as releases key theirs:
    a number label also by value ("0.0", MP dev), a multilabel pair as {"0": .., "1": ..} (VariErrNLI)."""
    value = parse_value(text, track, notes)
    if isinstance(value, dict):
        table = label_table(track)
        codes = {key: table.get(float(key) if key not in table and NUMBER.fullmatch(key) else key) for key in value}
        unknown = sorted((key for key, code in codes.items() if code is None), key=str)
        if unknown:
            raise ValueProblem("soft label names an unknown label", expected="keys " + ", ".join(track.labels),
                               found=_show(", ".join(map(str, unknown))))
        if len(set(codes.values())) < len(codes):
            raise ValueProblem("soft label names a label twice", expected="each label once", found=_show(", ".join(value)))
        given = {code: value[key] for key, code in codes.items()}
        value = [given.get(code, 0.0) for code in range(len(track.labels))]
        if track.scale == "multilabel":
            value = [[v["0"], v["1"]] if isinstance(v, dict) and v.keys() == {"0", "1"} else v for v in value]
    values, bad, problem, row_notes = soft_label_rows(track, [value])
    if bad[0]:
        raise problem(0)
    notes += row_notes
    return values[0]


#: The warning of each note ``soft_label_rows`` leaves, in the order they are given.
_WARNINGS = {"renormalised": f"soft label(s) summed to within {SUM_TOLERANCE} of 1 and were renormalised",
             "extra leading bin": "soft label(s) had an extra, empty leading bin (the 7-bin practice-phase format) "
                                  "that was dropped",
             "python literal": "value(s) were not JSON but Python literals (str() of a list: single quotes, "
                               "tuples) and were read as such; json.dumps(x) writes JSON"}


def value_warnings(notes: List[str]) -> List[str]:
    """One warning per kind of note; a number is the mass of a leading bin that was dropped."""
    masses = [note for note in notes if type(note) is float]
    return [f"{notes.count(note)} {warning}" for note, warning in _WARNINGS.items() if note in notes] + (
        [f"{len(masses)} soft label(s) had an extra leading bin (the 7-bin practice-phase format) holding a "
         f"little probability, at most {max(masses):.2g}; it was dropped and the rows renormalised"] if masses else [])


def annotator_rows(rows: list, counts: np.ndarray, track: Track) -> Tuple[np.ndarray, np.ndarray]:
    """The perspectivist rules over JSON rows, ``counts[i]`` annotators for row i: (a value per annotator
    of every row, in row order, right for the rows that follow the rules; which rows these are). A row
    holds one exact label per annotator (label indices); on multilabel tracks (0/1 choices ``(m, K)``)
    per annotator a list of exact labels (none chosen: ``[]``), or K vectors of 0/1, one per label, each
    with one entry per annotator (label-major, the LeWiDi 2025 layout)."""
    entries, annotator, ok = list_entries(rows, counts)
    placed = np.repeat(ok, counts)
    if track.scale != "multilabel":
        out = np.zeros(len(placed), dtype=np.int64)
        out[placed] = codes = exact_codes(entries, label_table(track))
        ok[annotator[codes < 0]] = False
        return out, ok
    out = np.zeros((len(placed), len(track.labels)))
    out[placed], listed = choice_rows(entries, track.label_index(), len(track.labels))
    ok[annotator[~listed]] = False
    if not ok.all():  # label-major never reads a row annotator-major reads
        ok |= label_major_rows(rows, counts, out)
    return out, ok


def choice_rows(values: list, index: Dict[str, int], k: int) -> Tuple[np.ndarray, np.ndarray]:
    """(0/1 rows ``(len(values), k)`` marking the labels each value lists; which values are lists of
    exact keys of ``index``)."""
    names, owner, ok = list_entries(values)
    columns = exact_codes(names, index)
    known = columns >= 0
    ok[owner[~known]] = False
    chosen = np.zeros((len(values), k))
    chosen[owner[known], columns[known]] = 1.0
    return chosen, ok


def label_major_rows(rows: list, counts: np.ndarray, out: np.ndarray) -> np.ndarray:
    """Which rows follow the label-major rule (``annotator_rows``): K vectors of ``counts[i]`` 0/1
    numbers; their choices are written into ``out`` (one row per annotator of every row)."""
    k = out.shape[1]
    vectors, row, ok = list_entries(rows, np.full(len(rows), k))
    bits, vector, full = list_entries(vectors, counts[row])
    chosen = exact_codes(bits, {0: 0, 1: 1})
    full[vector[chosen < 0]] = False
    ok[row[~full]] = False
    kept = ok[row[vector]]
    annotator = np.arange(len(bits)) - np.searchsorted(vector, vector) + (np.cumsum(counts) - counts)[row[vector]]
    out[annotator[kept], (vector % k)[kept]] = chosen[kept]
    return ok


def annotator_entries(text: str, track: Track, annotators: Sequence[str], notes: list = None) -> list:
    """A row's entries as written (label-major rows as 0/1 rows): ``annotator_rows``'s rules, and also
    an object annotator -> entry. ``annotators.RowFit`` fits them to the item's annotators."""
    value = parse_value(text, track, [] if notes is None else notes)
    if isinstance(value, dict):
        missing = [a for a in annotators if a not in value]
        extra = [a for a in value if a not in set(annotators)]
        if missing or extra:
            raise ValueProblem("annotators do not match the item's annotators", expected=", ".join(annotators),
                               found=f"missing {missing[:5]}, unknown {[shorten(a, 40) for a in extra[:5]]}")
        value = [value[a] for a in annotators]
    if not isinstance(value, list):
        raise ValueProblem("a perspectivist prediction must be a JSON list",
                           expected=f"a list with one entry per annotator ({len(annotators)})",
                           found=_show_json(value))
    # label-major: lists of numbers, with a number among them or as the K empty vectors of an item without
    # annotators (K empty lists for K annotators are annotator-major: no label chosen)
    if track.scale == "multilabel" and value and all(isinstance(v, list) and all(map(_is_number, v)) for v in value) \
            and (any(value) or (len(value) == len(track.labels) and not annotators)):
        return list(_label_major(value, track))
    return value


def annotator_values(entries: list, track: Track, hint: str = None) -> np.ndarray:
    """Label indices ``(m,)``, or on multilabel tracks 0/1 choices ``(m, K)``, of a row's entries (``hint``:
    for a label outside the set, ``index_hint``'s)."""
    if track.scale == "multilabel":
        rows = [e if isinstance(e, np.ndarray) else _multilabel_choice(e, track) for e in entries]
        return np.array(rows, dtype=float).reshape(-1, len(track.labels))
    table = label_table(track)
    return np.array([_label_of(v, track, table, hint) for v in entries], dtype=np.int64)


def _label_major(value: list, track: Track) -> np.ndarray:
    """One row by ``label_major_rows``; when it breaks the rule, which part and how."""
    k = len(track.labels)
    out = np.zeros((len(value[0]), k))
    if label_major_rows([value], np.array([len(value[0])]), out)[0]:
        return out
    lengths = sorted({len(v) for v in value})
    layout = f"{k} vectors of 0/1 ({', '.join(track.labels)}), each with one entry per annotator of the item"
    if len(value) != k:
        raise ValueProblem("0/1 vectors are read label-major: one vector per label", expected=layout,
                           found=f"{len(value)} vectors of {'/'.join(map(str, lengths))} entries",
                           hint="this looks like one vector per annotator: write one vector per label instead "
                                "(transpose it)" if lengths == [k] else None)
    if len(lengths) > 1:
        raise ValueProblem("the label vectors have different lengths", expected=layout + ", all equally long",
                           found=f"vectors of {', '.join(str(len(v)) for v in value)} entries")
    raise ValueProblem("a label vector holds a value other than 0 or 1", expected=layout,
                       found=_show_json(next(x for v in value for x in v if x not in (0, 1))),
                       hint="1 = the annotator chose the label, 0 = not")


def _multilabel_choice(value, track: Track) -> np.ndarray:
    parts = split_multilabel(value) if isinstance(value, str) else value
    if not (isinstance(parts, list) and all(isinstance(v, str) for v in parts)):
        raise ValueProblem("an annotator's labels must be a list of labels or a comma-separated string",
                           expected=f'e.g. ["entailment", "neutral"], or the whole row label-major: '
                                    f'{len(track.labels)} vectors of 0/1 entries, one per label',
                           found=_show_json(value))
    parts = [part.strip() for part in parts]
    row, ok = choice_rows([parts], track.label_index(), len(track.labels))
    if not ok[0]:
        part = next(part for part in parts if part not in track.label_index())
        raise outside_label_set(part, track, _show(part))
    return row[0]


def describe_value(track: Track) -> str:
    """A short example of a valid line for this track, used in hints and the participant pages."""
    k, multilabel = len(track.labels), track.scale == "multilabel"
    if track.kind == "similarity":
        return "ID<TAB>3.2"
    if track.kind == "classification":
        return f"ID<TAB>{track.labels[0]}"
    if track.kind == "soft_label":
        even = round(1.0 / k, 4)
        return "ID<TAB>" + json.dumps([[0.5, 0.5]] * k if multilabel else [even] * (k - 1) + [round(1 - (k - 1) * even, 4)])
    label_major = [[1, 0]] + [[0, 0]] * (k - 2) + [[0, 1]]  # per label a 0/1 per annotator (here 2 annotators)
    return "ID<TAB>" + json.dumps(label_major if multilabel else [track.labels[0], track.labels[-1]])
