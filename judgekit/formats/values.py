"""Parsing one submitted value per kind. Each parser returns the value or raises ``ValueProblem``
with the expected and found text, which the submission reader turns into a located message."""

from __future__ import annotations

import json
import math
import re
from typing import Dict, List, Sequence, Tuple

import numpy as np

from ..tracks import Track
from .bulk import NUMBER, exact_codes, list_entries
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
    """A finite decimal number in ASCII digits (no nan, inf, hex, underscores or other scripts)."""
    stripped = text.strip()
    if not NUMBER.fullmatch(stripped):
        hint = "use a dot as the decimal separator" if re.match(r"^[+-]?\d+,\d+$", stripped) else None
        raise ValueProblem("not a number", expected="a decimal number such as 3.2", found=_show(text), hint=hint)
    value = float(stripped)
    if not math.isfinite(value):
        raise ValueProblem("number out of range", expected="a finite number", found=_show(text))
    return value


#: JSON integers longer than this are read as floats (Python refuses to convert very long digit
#: strings to int, and a float of them is infinite, hence refused).
_MAX_INT_DIGITS = 300


def _reject_constant(name: str):
    raise ValueProblem("not a finite number", expected="finite numbers", found=name)


def _json_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueProblem("number out of range", expected="finite numbers", found=_show(text))
    return value


def _json_int(text: str):
    return int(text) if len(text) <= _MAX_INT_DIGITS else _json_float(text)


def _unique_keys(pairs):
    out = {}
    for key, value in pairs:
        if key in out:
            raise ValueProblem("a JSON object has the same key twice", expected="each key once", found=_show(key))
        out[key] = value
    return out


def parse_json(text: str):
    """A JSON value; NaN, Infinity, numbers that overflow to infinity and duplicate keys are refused."""
    try:
        return json.loads(text, parse_constant=_reject_constant, parse_float=_json_float,
                          parse_int=_json_int, object_pairs_hook=_unique_keys)
    except ValueProblem:
        raise
    except (ValueError, RecursionError) as e:  # JSONDecodeError is a ValueError
        raise ValueProblem(f"not valid JSON ({getattr(e, 'msg', 'too deeply nested or too long')})",
                           expected="a JSON list such as [0.2, 0.8]", found=_show(text))


def _is_number(x) -> bool:
    """A JSON number (``parse_json`` refuses those that are not finite), not a boolean."""
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _loose_label(text: str) -> str:
    return re.sub(r"[\s_-]+", "", str(text)).casefold()


def outside_label_set(value, track: Track, shown: str) -> ValueProblem:
    """The problem of a label outside the set, naming the label it probably meant (``Neutral``)."""
    near = [label for label in track.labels if _loose_label(label) == _loose_label(value)]
    hint = f"labels are matched exactly: write {near[0]!r} (case and spaces count)" if near else None
    return ValueProblem("label outside the track's label set", expected="one of " + ", ".join(track.labels),
                        found=shown, hint=hint)


def parse_label(text: str, track: Track, index: Dict[str, int]) -> int:
    label = text.strip()
    if label not in index:
        raise outside_label_set(label, track, _show(text))
    return index[label]


def label_table(track: Track) -> Dict[object, int]:
    """Label -> index, and value -> index for the labels that are finite numbers (an ordinal
    prediction may give 3 for "3")."""
    numbers = {float(label): i for i, label in enumerate(track.labels)
               if NUMBER.fullmatch(label.strip()) and math.isfinite(float(label))}
    return {**numbers, **track.label_index()}


def _label_of(value, track: Track, table: Dict[object, int]) -> int:
    """The index of a perspectivist label: a ``label_table`` key, text with spaces around one, or text
    naming a number that is one."""
    key = value.strip() if isinstance(value, str) else float(value) if _is_number(value) else None
    if isinstance(key, str) and key not in table and NUMBER.fullmatch(key):
        key = float(key)
    if key in table:
        return table[key]
    raise outside_label_set(value, track, _show_json(value))


def _probabilities(values, length: int, what: str) -> np.ndarray:
    if not isinstance(values, list) or len(values) != length:
        found = f"{len(values)} values" if isinstance(values, list) else _show_json(values)
        raise ValueProblem(f"wrong {what} length", expected=f"a list of {length} probabilities", found=found)
    if not all(_is_number(v) for v in values):
        bad = next(v for v in values if not _is_number(v))
        raise ValueProblem(f"{what} holds a value that is not a finite number",
                           expected="finite numbers", found=_show_json(bad))
    arr = np.array(values, dtype=float)
    if not_probabilities(arr):  # the numbers are finite here: a value is negative
        raise ValueProblem(f"{what} has a negative probability", expected="probabilities >= 0",
                           found=f"{arr.min():g}")
    return arr


def not_probabilities(values: np.ndarray, chosen: bool = False) -> np.ndarray:
    """Per row (the last axis): whether a value is not finite, is negative or, for P(chosen) values
    (``chosen``), is above 1 (rounding aside)."""
    ok = np.isfinite(values) & (values >= 0)
    return ~(ok & (values <= 1 + 1e-9) if chosen else ok).all(axis=-1)


def sums_to_one(values: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(the sums of the rows over the last axis (kept as an axis, to divide by), rows whose sum is
    not within SUM_TOLERANCE of 1, rows to renormalise: sum off by more than 1e-6)."""
    totals = values.sum(axis=-1, keepdims=True)
    off = np.abs(totals[..., 0] - 1.0)
    return totals, off > SUM_TOLERANCE, off > 1e-6


def normalise(arr: np.ndarray, what: str, warnings: List[str]) -> np.ndarray:
    total, wrong, renormalised = sums_to_one(arr)
    if wrong:
        raise ValueProblem(f"{what} does not sum to 1", expected=f"a sum within {SUM_TOLERANCE} of 1",
                           found=f"sum {float(total[0]):.6g}", hint="divide each value by the row's sum")
    if renormalised:
        warnings.append("renormalised")
    return arr / total


def parse_soft(text: str, track: Track, warnings: List[str]) -> np.ndarray:
    """A soft label: a JSON list of K probabilities in label order (or an object label -> probability).

    Multilabel tracks take a list of L pairs [P(not chosen), P(chosen)] or L numbers P(chosen).
    Ordinal tracks also accept K+1 values whose extra leading bin is 0 (the CSC practice-phase format).
    """
    value = parse_json(text)
    k = len(track.labels)
    if isinstance(value, dict):
        unknown = sorted(set(value) - set(track.labels), key=str)
        if unknown:
            raise ValueProblem("soft label names an unknown label", expected="keys " + ", ".join(track.labels),
                               found=_show(", ".join(map(str, unknown))))
        value = [value.get(label, 0.0) for label in track.labels]
    if track.scale == "multilabel":
        if isinstance(value, list) and len(value) == k and all(_is_number(v) for v in value):
            chosen = _probabilities(value, k, "soft label")
            if not_probabilities(chosen, chosen=True):  # the values are probabilities here: one is above 1
                raise ValueProblem("a P(chosen) value is above 1", expected="values in [0, 1]",
                                   found=f"{chosen.max():g}")
            return chosen_pairs(chosen)
        if not isinstance(value, list) or len(value) != k:
            raise ValueProblem("wrong soft label length",
                               expected=f"a list of {k} [P(not chosen), P(chosen)] pairs ({', '.join(track.labels)})",
                               found=_show_json(value))
        return np.array([normalise(_probabilities(pair, 2, f"pair for '{label}'"), f"pair for '{label}'",
                                   warnings) for pair, label in zip(value, track.labels)])
    if track.scale == "ordinal" and isinstance(value, list) and len(value) == k + 1 and _is_number(value[0]):
        if value[0] != 0:
            raise ValueProblem("wrong soft label length", expected=f"a list of {k} probabilities",
                               found=f"{k + 1} values, the first {value[0]:g}",
                               hint=f"a row of {k + 1} values looks like the 2025 practice-phase layout, which "
                                    f"had an extra, always-zero first bin \"0\": drop the first value (it "
                                    f"holds probability here, so check that the other {k} are the labels "
                                    f"{track.labels[0]}..{track.labels[-1]})")
        warnings.append("extra leading bin")
        value = value[1:]
    return normalise(_probabilities(value, k, "soft label"), "soft label", warnings)


def chosen_pairs(chosen: np.ndarray) -> np.ndarray:
    """P(chosen) values ``(..., K)`` as [P(not chosen), P(chosen)] pairs ``(..., K, 2)``."""
    return np.stack([1.0 - chosen, chosen], axis=-1)


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


def annotator_entries(text: str, track: Track, annotators: Sequence[str]) -> list:
    """A row's entries as written (label-major rows as 0/1 rows): ``annotator_rows``'s rules, and also
    an object annotator -> entry. ``annotators.RowFit`` fits them to the item's annotators."""
    value = parse_json(text)
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


def annotator_values(entries: list, track: Track) -> np.ndarray:
    """Label indices ``(m,)``, or on multilabel tracks 0/1 choices ``(m, K)``, of a row's entries."""
    if track.scale == "multilabel":
        rows = [e if isinstance(e, np.ndarray) else _multilabel_choice(e, track) for e in entries]
        return np.array(rows, dtype=float).reshape(-1, len(track.labels))
    table = label_table(track)
    return np.array([_label_of(v, track, table) for v in entries], dtype=np.int64)


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
    if track.kind == "similarity":
        return "ID<TAB>3.2"
    if track.kind == "classification":
        return f"ID<TAB>{track.labels[0]}"
    if track.kind == "soft_label":
        k = len(track.labels)
        if track.scale == "multilabel":
            return "ID<TAB>" + json.dumps([[0.5, 0.5]] * k)
        return "ID<TAB>" + json.dumps([round(1.0 / k, 4)] * (k - 1) + [round(1 - (k - 1) * round(1.0 / k, 4), 4)])
    if track.scale == "multilabel":  # label-major: per label a 0/1 per annotator (here 2 annotators)
        return "ID<TAB>" + json.dumps([[1, 0]] + [[0, 0]] * (len(track.labels) - 2) + [[0, 1]])
    return "ID<TAB>" + json.dumps([track.labels[0], track.labels[-1]])
