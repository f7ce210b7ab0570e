"""Reading one track's submission file and aligning it with the track's items by id.

Accepted line formats:
- ``ID<TAB>VALUE``: a number (similarity), a label (classification), or a JSON value (soft labels;
  per-annotator labels; VariErrNLI's nested lists). An optional first line ``id<TAB>...`` is a header.
- SemEval positional (similarity tracks): one score per line in input order, an optional second
  column (confidence) ignored.

One reader: the file's columns are checked in bulk (``bulk``), each check giving a mask of the rows
it refuses, and a message is built only for a flagged row, by the per-value rule of ``values``
applied to that row. A clean file is read a whole column at a time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from itertools import chain, compress, repeat
from operator import itemgetter
from pathlib import Path
from typing import List, NamedTuple, Optional, Sequence, Tuple

import numpy as np

from ..errors import ProblemCollector, SubmissionError
from ..metrics import PerAnnotator
from ..tracks import Track
from .annotators import RowFit, layout_warnings
from .bulk import choice_rows, collector_paused, exact_codes, json_values, label_codes, number_column, plain_numbers
from .textfile import read_texts, safe_display, shorten
from .values import (ValueProblem, annotator_entries, annotator_values, describe_value, label_major_rows,
                     label_column, label_table, parse_label, parse_number, parse_soft, soft_label_rows, value_warnings)

MAX_IDS_LISTED = 5
HEADER_NAMES = ("id", "item", "item_id")
_NOT_LABEL_LISTS = ("true", "false", "null", "{", "NaN", "Infinity")


@dataclass(frozen=True)
class ItemKeys:
    """What a file is read against: the track's item ids in order, each item's annotators (a
    perspectivist row holds one entry per annotator) and, per item, the release's own annotators
    list when it repeats names (else None; empty when no item has one)."""

    ids: List[str]
    annotators: Sequence[Sequence[str]] = ()
    listed: Sequence[Optional[Sequence[str]]] = ()

    def per_annotator(self, values: np.ndarray, n_labels: int) -> PerAnnotator:
        """``values`` (one row per item and annotator, in item order) on these items."""
        counts = np.fromiter(map(len, self.annotators), dtype=np.int64, count=len(self.ids))
        return PerAnnotator(values=values, item=np.repeat(np.arange(len(self.ids), dtype=np.int64), counts),
                            n_items=len(self.ids), n_labels=n_labels, offsets=np.concatenate(([0], np.cumsum(counts))))


@dataclass
class Prediction:
    """A submission's values for one track, aligned with ``ItemKeys.ids``."""

    values: object
    warnings: List[str] = field(default_factory=list)
    format: str = "id"


class Rows(NamedTuple):
    """The value column of a file's rows: each row's item index, line number and value text."""

    item: Sequence[int]
    line: Sequence[int]
    text: List[str]
    numbers: Optional[Tuple[np.ndarray, np.ndarray]] = None  # ``number_column(text)`` when already known


def read_prediction(path: Path, display: str, track: Track, keys: ItemKeys) -> Prediction:
    """Parse ``path`` for ``track`` and align it with ``keys.ids``; every problem is located and explained."""
    with collector_paused():
        display = safe_display(display)
        numbers, texts = read_texts(path, display, len(keys.ids))
        columns = Columns(texts, keys.ids)
        layout = _layout(columns, keys.ids) if track.positional else "id"
        if layout == "ambiguous":
            raise _ambiguous(display, keys.ids)
        problems = ProblemCollector(display)
        warnings: List[str] = []
        if layout == "positional":
            rows = _positional_rows(numbers, columns, keys, problems)
        else:
            rows = _id_rows(numbers, columns, track, keys, problems, warnings)
        values, notes = _values(track, keys, rows, problems)
        problems.raise_if_any()
        warnings += value_warnings(notes)
        return Prediction(_wrap(values, track, keys), warnings + layout_warnings(notes), layout)


class Columns:
    """A file's lines split at the first tab (``heads``, stripped; ``rests``; ``tabbed``),
    each head's item index (``position``, -1 for none) and, for positional files, the fields."""

    def __init__(self, texts: List[str], ids: List[str]):
        self.texts, self.ids = texts, ids
        # two passes rather than a list of (head, tab, rest) tuples: a million tuples cost ~60 MB
        self.heads = list(map(str.strip, map(itemgetter(0), map(str.partition, texts, repeat("\t")))))
        self.rests = list(map(itemgetter(2), map(str.partition, texts, repeat("\t"))))
        self.tabbed = np.fromiter(map(str.__contains__, texts, repeat("\t")), dtype=bool, count=len(texts))
        self.scores = None  # the first fields as numbers (``number_column``), once the layout has read them

    @cached_property
    def position(self) -> np.ndarray:
        """Looked up in C, and not at all when the ids are in item order (after a header line)."""
        ids, heads = self.ids, self.heads
        skip = 1 if heads[1:] == ids else 0
        if heads[skip:] == ids:
            head = [ids.index(heads[0]) if heads[0] in ids else -1] if skip else []
            return np.concatenate((np.array(head, dtype=np.int64), np.arange(len(ids), dtype=np.int64)))
        index = dict(zip(ids, range(len(ids))))
        return np.fromiter(map(index.get, heads, repeat(-1)), dtype=np.int64, count=len(heads))

    @cached_property
    def fields(self) -> List[List[str]]:
        return list(map(str.split, self.texts))


def _layout(columns: Columns, ids: List[str]) -> str:
    """How a file of a positional track is read, decided once for the whole file: "id", "positional"
    or "ambiguous".

    The first column is read as ids only when every value of it is a known id of the track, each
    once (a header line aside): when ids are numbers ("0".."249"), integer scores and a confidence
    column would otherwise pass for ids. Else the file is positional when every line holds one or
    two fields and most first fields are numbers (so a bad value is reported at its line). A file
    that fits both readings, with every id in its first column, no header line, and first-column
    values that could also be scores on the 0-5 scale, is ambiguous.
    """
    header = int(columns.heads[0].lower() in HEADER_NAMES)
    as_ids = len(columns.heads) > header and bool(columns.tabbed[header:].all()) and columns.heads[header] in ids \
        and bool((columns.position[header:] >= 0).all()) and np.bincount(columns.position[header:]).max() == 1
    body = columns.heads[header:]
    if as_ids and (header or len(body) != len(ids) or not _scores_in_range(columns.heads)):
        return "id"  # cannot be ambiguous: the costlier positional reading is not needed
    fields = columns.fields
    lengths = np.fromiter(map(len, fields), dtype=np.int64, count=len(fields))
    columns.scores = number_column(list(map(itemgetter(0), compress(fields, lengths))))
    as_positional = bool(((lengths >= 1) & (lengths <= 2)).all()) and 2 * int(columns.scores[1].sum()) >= len(fields)
    if as_ids:
        return "ambiguous" if as_positional else "id"
    return "positional" if as_positional else "id"


def _scores_in_range(texts: List[str]) -> bool:
    values = plain_numbers(texts)
    return values is not None and bool(((values >= 0) & (values <= 5)).all())


def _ambiguous(display: str, ids: List[str]) -> SubmissionError:
    return SubmissionError.single(
        display, "the file can be read two ways: its first column holds every item id once, and could "
                 "also be the scores of a positional file",
        expected=f"ID<TAB>SCORE lines (matched by id, e.g. {ids[0]!r}<TAB>3.2) or one score per line "
                 f"in input order (SemEval positional, an optional confidence column)",
        found=f"{len(ids)} lines of two numbers",
        hint="write the ID<TAB>SCORE lines with a header line 'id<TAB>score' to mean ids, or give the "
             "scores with decimals (3.0) to mean positional")


def _positional_rows(numbers: Sequence[int], columns: Columns, keys: ItemKeys, problems: ProblemCollector) -> Rows:
    """The scores of a SemEval positional file (one per line, in item order); a second column
    (confidence) must be a number too."""
    display, texts = problems.file, columns.texts
    if len(texts) != len(keys.ids):
        raise SubmissionError.single(display, "wrong number of lines for the SemEval positional format",
                                     expected=f"{len(keys.ids)} lines (one score per pair, in input order)",
                                     found=f"{len(texts)} non-blank lines",
                                     hint="or write ID<TAB>SCORE lines, which are matched by id")
    if numbers[-1] != len(texts):
        gap = next(n for k, n in enumerate(numbers, start=1) if n != k)
        raise SubmissionError.single(display, "blank line inside a positional file", line=gap - 1,
                                     expected="one score on every line", found="an empty line",
                                     hint="positional files are matched by line number")
    fields = columns.fields
    two = np.flatnonzero(np.fromiter(map(len, fields), dtype=np.int64, count=len(fields)) == 2)
    confidences = list(map(itemgetter(1), map(fields.__getitem__, two)))
    for j in two[~number_column(confidences)[1]]:
        _explain(parse_number, fields[j][1], problems, line=numbers[j],
                 message="the second column (confidence) is not a number",
                 expected="a score and, optionally, a confidence such as 3.2<TAB>80")
    problems.raise_if_any()
    return Rows(range(len(texts)), numbers, list(map(itemgetter(0), fields)), columns.scores)


def _id_rows(numbers: Sequence[int], columns: Columns, track: Track, keys: ItemKeys, problems: ProblemCollector,
             warnings: List[str]) -> Rows:
    """The value column of an ``ID<TAB>VALUE`` file, in item order; each line without a tab, with a
    duplicate or unknown id is flagged and explained, and the items without a line are listed."""
    texts, rests, heads, tabbed, position = columns.texts, columns.rests, columns.heads, columns.tabbed, columns.position
    if heads[0].lower() in HEADER_NAMES and heads[0].lower() not in keys.ids:
        texts, rests, heads, tabbed, position, numbers = (texts[1:], rests[1:], heads[1:], tabbed[1:], position[1:],
                                                          numbers[1:])
        warnings.append("the first line was read as a header and skipped")
    known = np.flatnonzero(tabbed & (position >= 0))
    given, first = position[known], known  # the items given and the row of each one's first line, in item order
    if (given[1:] <= given[:-1]).any():
        given, first = np.unique(given, return_index=True)
        first = known[first]
    if len(given) != len(texts) or len(given) != len(keys.ids):
        _id_problems(numbers, texts, heads, tabbed, position, first, track, keys, problems)
    lines = first.tolist()
    return Rows(given, list(map(numbers.__getitem__, lines)), list(map(rests.__getitem__, lines)))


def _id_problems(numbers, texts, heads, tabbed, position, first, track: Track, keys: ItemKeys,
                 problems: ProblemCollector) -> None:
    """The messages of the rows ``_id_rows`` flagged, in line order, and of the items without a line."""
    example = describe_value(track)
    firsts = np.zeros(len(texts), dtype=bool)
    firsts[first] = True
    first_line = dict(zip(position[first].tolist(), map(numbers.__getitem__, first.tolist())))
    unknown = []
    for j in np.flatnonzero(~firsts).tolist():
        if not tabbed[j]:
            problems.add("line has no tab", line=numbers[j], expected=f"ID<TAB>VALUE such as {example}",
                         found=repr(texts[j][:60]))
        elif position[j] >= 0:
            problems.add("duplicate id", line=numbers[j], item=heads[j],
                         hint=f"it was already given on line {first_line[int(position[j])]}; keep one line per item")
        else:
            unknown.append(heads[j])
            problems.add("unknown id: not an item of this track", line=numbers[j], item=shorten(heads[j]),
                         hint=f"ids look like {keys.ids[0]!r}" if keys.ids else None)
    missing = np.ones(len(keys.ids), dtype=bool)
    missing[position[first]] = False
    if missing.any():
        names = [keys.ids[i] for i in np.flatnonzero(missing)[:MAX_IDS_LISTED + 1]]
        shown = ", ".join(repr(i) for i in names[:MAX_IDS_LISTED])
        more = int(missing.sum()) - MAX_IDS_LISTED
        problems.add(f"{int(missing.sum())} of the track's {len(keys.ids)} items have no prediction "
                     f"(the file has {len(first)} of them): {shown}" + (f" and {more} more" if more > 0 else ""),
                     hint="predict every item listed in the track's input file")
    if unknown and len(unknown) == len(texts):
        raise SubmissionError.single(problems.file, "none of the ids in this file belong to the track",
                                     expected=f"lines such as {example.replace('ID', repr(keys.ids[0]) if keys.ids else 'ID')}",
                                     found=f"ids such as {shorten(unknown[0])!r}")


def _explain(rule, text: str, problems: ProblemCollector, message: str = None, expected: str = None, **where):
    """``rule(text)``, or None with the problem the rule names (``ValueProblem``) added at ``where``."""
    try:
        return rule(text)
    except ValueProblem as p:
        problems.add(message or p.message, expected=expected or p.expected, found=p.found,
                     hint=None if message else p.hint, **where)


def _each(rows: Rows, flagged, rule, keys: ItemKeys, problems: ProblemCollector) -> dict:
    """``{j: rule(j)}`` for the ``flagged`` rows ``j`` the rule accepts; the others' problems added."""
    return {j: value for j in flagged
            if (value := _explain(rule, j, problems, line=rows.line[j], item=keys.ids[rows.item[j]])) is not None}


def _values(track: Track, keys: ItemKeys, rows: Rows, problems: ProblemCollector):
    """(values in row order, notes for the warnings) of ``rows``: read a column at a time, and each row
    a rule flags read alone, by the same rule, which accepts it or adds its problem."""
    if track.kind == "perspectivist":
        return _per_annotator(track, keys, rows, problems)
    notes: List[str] = []
    if track.kind == "soft_label":
        values, flagged, _, notes = soft_label_rows(track, json_values(rows.text))
        rule = lambda j: parse_soft(rows.text[j], track, notes)  # noqa: E731
    elif track.kind == "similarity":
        values, ok = rows.numbers or number_column(rows.text)
        flagged, rule = ~ok, lambda j: parse_number(rows.text[j])  # noqa: E731
    else:
        index = track.label_index()
        values = label_column(rows.text, index)
        flagged, rule = values < 0, lambda j: parse_label(rows.text[j], track, index)  # noqa: E731
    for j, value in _each(rows, np.flatnonzero(flagged), rule, keys, problems).items():
        values[j] = value
    return values, notes


def _per_annotator(track: Track, keys: ItemKeys, rows: Rows, problems: ProblemCollector):
    """Label indices (categorical, ordinal) or 0/1 choices (multilabel), one row per annotator:
    read as one column when every row holds one entry per annotator, else row by row (``RowFit``)."""
    every = len(rows.item) == len(keys.ids)  # then the rows are the items in order
    counts = list(map(len, keys.annotators if every else map(keys.annotators.__getitem__, rows.item)))
    bulk = _per_annotator_bulk(track, rows.text, counts)
    if bulk is not None:
        return bulk, []
    entries = _each(rows, range(len(rows.text)), lambda j: annotator_entries(
        rows.text[j], track, keys.annotators[rows.item[j]]), keys, problems)
    fit = RowFit.for_file(keys.annotators, keys.listed, {rows.item[j]: len(row) for j, row in entries.items()})
    notes: List[str] = []
    out = _each(rows, sorted(entries), lambda j: annotator_values(fit.fit(rows.item[j], entries[j], notes), track),
                keys, problems)
    if problems or len(entries) != len(rows.text):
        return None, notes
    return (np.concatenate(list(out.values())) if out else np.zeros(0)), notes


def _per_annotator_bulk(track: Track, texts: List[str], counts: List[int]) -> Optional[np.ndarray]:
    """The rows of a file whose every row is a JSON list with one exact label (multilabel: one list
    of label names) per annotator; None when any row is anything else."""
    multilabel = track.scale == "multilabel"
    if not multilabel and _mentions(texts, _NOT_LABEL_LISTS):
        return None
    parsed = json_values(texts)
    try:  # list.__len__ refuses anything but a list: one pass checks and measures
        if parsed is None:
            return None
        if list(map(list.__len__, parsed)) != counts:
            return label_major_rows(parsed, counts, len(track.labels)) if multilabel and \
                not _mentions(texts, ("true", "false")) else None
    except TypeError:
        return None
    if multilabel:
        return choice_rows(list(chain.from_iterable(parsed)), track.label_index(), len(track.labels))
    return exact_codes(chain.from_iterable(parsed), label_table(track), sum(counts))


def _mentions(texts: List[str], needles: Sequence[str]) -> bool:
    joined = "\n".join(texts)
    return any(needle in joined for needle in needles)


def _wrap(values, track: Track, keys: ItemKeys):
    """Perspectivist rows as ``PerAnnotator`` on the track's items; other kinds' arrays as they are."""
    if track.kind != "perspectivist":
        return values
    if track.scale != "multilabel":
        values = label_codes(values, len(track.labels))
    return keys.per_annotator(values, len(track.labels))
