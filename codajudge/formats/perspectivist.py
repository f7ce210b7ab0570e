"""The rules of perspectivist rows (one label, or one list of labels, per annotator of the item), over a
column (``annotator_rows``) and on one row (``annotator_entries`` then ``annotator_values``)."""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..tracks import Track
from .bulk import exact_codes, list_entries
from .notes import ReadNote
from .textfile import shorten
from .values import (
    ValueProblem,
    is_number,
    label_of,
    outside_label_set,
    parse_value,
    show,
    show_json,
    split_multilabel,
)


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
        out[placed] = codes = exact_codes(entries, track.label_set.exact_or_number)
        ok[annotator[codes < 0]] = False
        return out, ok
    out = np.zeros((len(placed), len(track.labels)))
    out[placed], listed = choice_rows(entries, track.label_set.exact, len(track.labels))
    ok[annotator[~listed]] = False
    if not ok.all():  # a row annotator-major reads is never written label-major
        written = written_label_major(rows, counts, len(track.labels))
        ok[written] = label_major_rows(rows, counts, out)[written]
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


def written_label_major(rows: list, counts: np.ndarray, k: int) -> np.ndarray:
    """Which rows are written label-major, ``counts[i]`` annotators for row i and ``k`` labels: a list
    of lists of numbers with a number among them, or the ``k`` empty vectors of an item without
    annotators (empty lists for an item's annotators are annotator-major: none chose a label). The
    one detector of the layout, for a column and for one row; whether such a row follows the
    label-major rule is ``label_major_rows``'s."""
    vectors, row, written = list_entries(rows)
    entries, vector, listed = list_entries(vectors)
    numbers = np.fromiter(map(is_number, entries), dtype=bool, count=len(entries))
    written[row[~listed]] = False
    written[row[vector[~numbers]]] = False
    some_number = np.zeros(len(rows), dtype=bool)
    some_number[row[vector]] = True
    empty_for_none = (np.bincount(row, minlength=len(rows)) == k) & (counts == 0)
    return written & (some_number | empty_for_none)


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
    annotator = (
        np.arange(len(bits))
        - np.searchsorted(vector, vector)
        + (np.cumsum(counts) - counts)[row[vector]]
    )
    out[annotator[kept], (vector % k)[kept]] = chosen[kept]
    return ok


def annotator_entries(
    text: str,
    track: Track,
    annotators: Sequence[str],
    notes: Optional[List[ReadNote]] = None,
    row_length: Optional[int] = None,
) -> list:
    """A row's entries as written (label-major rows as 0/1 rows): ``annotator_rows``'s rules, and also
    an object annotator -> entry. ``annotators.RowFit`` fits them to the item's annotators, rows of
    at most ``row_length`` entries (None: the item's annotators)."""
    longest = len(annotators) if row_length is None else row_length
    value = parse_value(text, track, [] if notes is None else notes, longest)
    if track.scale == "multilabel" and _is_label_major(value, annotators, track):
        return list(_label_major(value, track))
    if isinstance(value, dict):
        known = set(annotators)  # once: per key, a set of the item's annotators costs them all
        missing = [a for a in annotators if a not in value]
        extra = [a for a in value if a not in known]
        if missing or extra:
            raise ValueProblem(
                "annotators do not match the item's annotators",
                expected=", ".join(annotators),
                found=f"missing {missing[:5]}, unknown {[shorten(a, 40) for a in extra[:5]]}",
            )
        value = [value[a] for a in annotators]
    if not isinstance(value, list):
        raise ValueProblem(
            "a perspectivist prediction must be a JSON list",
            expected=f"a list with one entry per annotator ({len(annotators)})",
            found=show_json(value),
        )
    return value


def annotator_values(entries: list, track: Track, hint: str = None) -> np.ndarray:
    """Label indices ``(m,)``, or on multilabel tracks 0/1 choices ``(m, K)``, of a row's entries (``hint``:
    for a label outside the set, ``index_hint``'s)."""
    if track.scale == "multilabel":
        rows = [e if isinstance(e, np.ndarray) else _multilabel_choice(e, track) for e in entries]
        return np.array(rows, dtype=float).reshape(-1, len(track.labels))
    return np.array([label_of(v, track, hint) for v in entries], dtype=np.int64)


def _is_label_major(value, annotators: Sequence[str], track: Track) -> bool:
    """``written_label_major`` on one row as written (an object annotator -> entry never is)."""
    return bool(written_label_major([value], np.array([len(annotators)]), len(track.labels))[0])


def _label_major(value: list, track: Track) -> np.ndarray:
    """One row by ``label_major_rows``; when it breaks the rule, which part and how."""
    k = len(track.labels)
    out = np.zeros((len(value[0]), k))
    if label_major_rows([value], np.array([len(value[0])]), out)[0]:
        return out
    lengths = sorted({len(v) for v in value})
    layout = f"{k} vectors of 0/1 ({', '.join(track.labels)}), each with one entry per annotator of the item"
    if len(value) != k:
        raise ValueProblem(
            "0/1 vectors are read label-major: one vector per label",
            expected=layout,
            found=f"{len(value)} vectors of {'/'.join(map(str, lengths))} entries",
            hint="this looks like one vector per annotator: write one vector per label instead "
            "(transpose it)"
            if lengths == [k]
            else None,
        )
    if len(lengths) > 1:
        raise ValueProblem(
            "the label vectors have different lengths",
            expected=layout + ", all equally long",
            found=f"vectors of {', '.join(str(len(v)) for v in value)} entries",
        )
    raise ValueProblem(
        "a label vector holds a value other than 0 or 1",
        expected=layout,
        found=show_json(next(x for v in value for x in v if x not in (0, 1))),
        hint="1 = the annotator chose the label, 0 = not",
    )


def _multilabel_choice(value, track: Track) -> np.ndarray:
    parts = split_multilabel(value) if isinstance(value, str) else value
    if not (isinstance(parts, list) and all(isinstance(v, str) for v in parts)):
        raise ValueProblem(
            "an annotator's labels must be a list of labels or a comma-separated string",
            expected=f'e.g. ["entailment", "neutral"], or the whole row label-major: '
            f"{len(track.labels)} vectors of 0/1 entries, one per label",
            found=show_json(value),
        )
    codes = track.label_set.codes(parts)
    if min(codes, default=0) < 0:
        part = parts[codes.index(-1)].strip()
        raise outside_label_set(part, track, show(part))
    row = np.zeros(len(track.labels))
    row[codes] = 1.0
    return row
