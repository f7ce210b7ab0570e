"""Reading one track's submission file (``ID<TAB>VALUE`` lines or, for similarity, SemEval positional)
and aligning it with the track's items. The columns are checked in bulk (``bulk``), each check a mask
of the rows it refuses; only a flagged row gets a message, by the per-value rule of ``values``."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cached_property
from itertools import compress, repeat
from operator import itemgetter
from pathlib import Path
from typing import Callable, List, NamedTuple, Optional, Sequence, Tuple

import numpy as np

from ..errors import ProblemCollector, SubmissionError
from ..metrics import PerAnnotator
from ..tracks import Track
from .annotators import RowFit, layout_warnings
from .bulk import COMMA_DECIMAL, NOT_JSON, collector_paused, json_values, label_codes, number_column, plain_numbers
from .textfile import read_texts, safe_display, shorten
from .values import (ValueProblem, annotator_entries, annotator_rows, annotator_values, describe_value,
                     index_hint, label_column, parse_json, parse_label, parse_number, parse_soft, soft_label_rows, value_warnings)

MAX_IDS_LISTED = 5
HEADER_NAMES = ("id", "item", "item_id", "index", "idx")  # index: GLUE's index<TAB>prediction; idx: HF datasets
COMMENTS_NOTE = ("{} comment line(s) starting with '#' were skipped (SemEval's scorer, correlation.pl, "
                 "skips them too)")
#: A column name in a header line: a word (letters, digits, '_', '-', '.' or spaces inside), never a value
#: attempt such as a JSON list, a signed number or a text with control characters.
COLUMN_NAME = re.compile(r"[^\W\d][\w .-]*")
JSON_LINES_NOTE = 'the file was read as JSON lines, one object {"id": ID, "any name": VALUE} a line (CLUE\'s layout)'


@dataclass(frozen=True)
class ItemKeys:
    """What a file is read against: the track's item ids in order, each item's annotators and, per item,
    the release's own annotators list when it repeats names (else None; empty when no item has one)."""

    ids: List[str]
    annotators: Sequence[Sequence[str]] = ()
    listed: Sequence[Optional[Sequence[str]]] = ()

    @cached_property
    def counts(self) -> np.ndarray:
        """Each item's number of annotators."""
        return np.fromiter(map(len, self.annotators), dtype=np.int64, count=len(self.annotators))


class Prediction(NamedTuple):
    """A submission's values for one track, aligned with ``ItemKeys.ids``, and how it was read."""

    values: object
    warnings: List[str]
    format: str  # "id" or "positional"


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
        numbers, texts, comments = _without_comments(*read_texts(path, display, len(keys.ids)), track, keys.ids, display)
        numbers, texts = _records_array(numbers, texts)
        _refuse_index_column(numbers, texts, display)
        _refuse_one_line_of_values(numbers, texts, track, keys.ids, display)
        columns = Columns(numbers, texts, keys.ids, comments, lambda text: _is_value(track, keys, text))
        layout = _layout(columns, keys.ids, display) if track.positional and not columns.json_lines else "id"
        problems = ProblemCollector(display)
        rows = (_positional_rows if layout == "positional" else _id_rows)(columns, track, keys, problems)
        values, notes = _values(track, keys, rows, problems)
        problems.raise_if_any()
        warnings = [COMMENTS_NOTE.format(len(comments))] if comments else []
        warnings += ["the first line was read as a header and skipped"] if layout == "id" and columns.header else []
        warnings += [JSON_LINES_NOTE] if columns.json_lines else []
        warnings += value_warnings(notes)
        return Prediction(_wrap(values, track, keys), warnings + layout_warnings(notes), layout)


def _without_comments(numbers: Sequence[int], texts: List[str], track: Track, ids: List[str], display: str):
    """(numbers, texts, the comment lines' numbers) of a file: on a positional (SemEval) track, a line
    whose first non-blank character is '#' is a comment, skipped as the official scorer skips it, unless
    an item id of the track starts with '#'. A file without '#' is not looked at line by line."""
    if not track.positional or not any(map(str.__contains__, texts, repeat("#"))) \
            or any(map(str.startswith, map(str.lstrip, ids), repeat("#"))):
        return numbers, texts, []
    comment = np.fromiter(map(str.startswith, map(str.lstrip, texts), repeat("#")), dtype=bool, count=len(texts))
    if comment.all():
        raise SubmissionError.single(display, "the file holds only comment lines (starting with '#')",
                                     expected="one line per item", found=f"{len(texts)} comment line(s)")
    where = np.asarray(numbers)
    return where[~comment].tolist(), list(compress(texts, ~comment)), where[comment].tolist()


def _records_array(numbers: Sequence[int], texts: List[str]) -> Tuple[Sequence[int], List[str]]:
    """A file of one line holding a JSON array of objects (``json.dump(records)``, pandas'
    ``to_json(orient="records")`` without ``lines=True``) as JSON lines, each object on that line."""
    if len(texts) != 1 or not texts[0].lstrip().startswith("["):
        return numbers, texts
    try:
        records = parse_json(texts[0])
    except ValueProblem:
        return numbers, texts
    if not (isinstance(records, list) and records and all(isinstance(record, dict) for record in records)):
        return numbers, texts
    return [numbers[0]] * len(records), [json.dumps(record, ensure_ascii=False) for record in records]


def _refuse_one_line_of_values(numbers: Sequence[int], texts: List[str], track: Track, ids: List[str], display: str):
    """Refuse, as one problem, a file of one line holding the values of many items (``_values_on_one_line``)."""
    count = _values_on_one_line(texts, track, ids)
    if count:
        raise SubmissionError.single(
            display, f"the file holds one line of {count} values", line=numbers[0], found=repr(shorten(texts[0])),
            expected=f"one line per item ({len(ids):,} items): " + (
                "one score per line in input order, or " if track.positional else "") + f"lines such as {describe_value(track)}",
            hint="write one score per line" if track.kind == "similarity" else "write one line per item")


def _values_on_one_line(texts: List[str], track: Track, ids: List[str]) -> int:
    """How many items' values a one-line file holds (0: it is no such file), unless that line is an item's:
    a JSON list of two or more scores or labels, or three or more numbers apart (``print(list(scores))``,
    ``np.savetxt`` of a row); on tracks whose value is itself a list, a JSON list of one row per item."""
    if len(texts) != 1 or len(ids) < 2 or texts[0].partition("\t")[0].strip() in ids:
        return 0
    value, rows = json_values(texts)[0], track.kind in ("soft_label", "perspectivist")
    if isinstance(value, list):
        shaped = all(isinstance(v, (list, dict)) for v in value) if rows else not any(isinstance(v, (list, dict)) for v in value)
        return len(value) if shaped and len(value) >= (len(ids) if rows else 2) else 0
    parts = re.split(r"[\s,;]+", texts[0].strip(" \t,;"))
    return len(parts) if value is NOT_JSON and not rows and len(parts) > 2 and number_column(parts)[1].all() else 0


def _refuse_index_column(numbers: Sequence[int], texts: List[str], display: str) -> None:
    """Refuse, as one problem, a file whose header line starts with a tab before two or more names: the
    header of an unnamed first column, the index pandas' ``to_csv`` writes by default (``index=True``)."""
    fields = texts[0].split("\t")
    if len(fields) >= 3 and not fields[0].strip() and all(map(str.strip, fields[1:])):
        raise SubmissionError.single(display, "the file has an extra first column, a DataFrame's index: its header "
                                              "line starts with a tab", line=numbers[0],
                                     expected="ID<TAB>VALUE lines, after at most one header line such as id<TAB>label",
                                     found=repr(shorten(texts[0])),
                                     hint="write the file with index=False (df.to_csv(path, sep='\\t', index=False))")


def _is_value(track: Track, keys: ItemKeys, text: str) -> bool:
    """Whether ``text`` is a value of the track by the track's own rule (``_values`` of one row); a
    perspectivist row is one when it is a JSON list or object (its length is its item's: a header has none)."""
    if track.kind == "perspectivist":
        return isinstance(json_values([text])[0], (list, dict))
    problems = ProblemCollector("")
    _values(track, keys, Rows([0], [1], [text]), problems)
    return not problems


class Columns:
    """A file's lines (``numbers``, ``texts``; ``comments``: the numbers of the comment lines skipped) and,
    after its header line if any (``header``: 1, else 0; ``_is_header``), each line's number (``lines``)
    and parts around its first tab (``heads``, stripped; ``rests``; ``tabbed``), with each head's item
    index (``position``, -1 for none)."""

    def __init__(self, numbers: Sequence[int], texts: List[str], ids: List[str], comments: Sequence[int] = (),
                 is_value: Callable[[str], bool] = bool):
        self.numbers, self.texts, self.ids, self.comments = numbers, texts, ids, comments
        self.json_lines = bool(texts[0].lstrip().startswith("{") and not any(map(str.__contains__, texts, repeat("\t"))))
        texts = list(map(_id_tab_value, texts)) if self.json_lines else texts
        self.header = int(_is_header(texts[0], ids, is_value if not self.json_lines else bool))
        body, self.lines = (texts[1:], numbers[1:]) if self.header else (texts, numbers)
        # two passes rather than a list of (head, tab, rest) tuples: a million tuples cost ~60 MB
        self.heads = list(map(str.strip, map(itemgetter(0), map(str.partition, body, repeat("\t")))))
        self.rests = list(map(itemgetter(2), map(str.partition, body, repeat("\t"))))
        self.tabbed = np.fromiter(map(str.__contains__, body, repeat("\t")), dtype=bool, count=len(body))

    @cached_property
    def position(self) -> np.ndarray:
        """Looked up in C, and not at all when the ids are in item order."""
        if self.heads == self.ids:
            return np.arange(len(self.ids), dtype=np.int64)
        index = dict(zip(self.ids, range(len(self.ids))))
        return np.fromiter(map(index.get, self.heads, repeat(-1)), dtype=np.int64, count=len(self.heads))

    @cached_property
    def fields(self) -> Tuple[List[List[str]], np.ndarray, List[str], Tuple[np.ndarray, np.ndarray]]:
        """For a positional reading: each line's whitespace-separated fields (a header line included),
        their count, the first fields (a line is never blank) and these as numbers (``number_column``)."""
        fields = list(map(str.split, self.texts))
        firsts = list(map(itemgetter(0), fields))
        return fields, np.fromiter(map(len, fields), dtype=np.int64, count=len(fields)), firsts, number_column(firsts)


def _is_header(text: str, ids: List[str], is_value: Callable[[str], bool]) -> bool:
    """Whether a file's first line is a header: its first field is no item id and is a header name
    (``HEADER_NAMES``, any case) or, as pandas writes its column names (``dataset_idx<TAB>pred``), both its
    fields are names (``COLUMN_NAME``) and the second is no value of the track (``is_value``)."""
    first, tab, value = text.partition("\t")
    first = first.strip()
    if first.lower() in HEADER_NAMES:
        return first.lower() not in ids
    return bool(tab and COLUMN_NAME.fullmatch(first) and COLUMN_NAME.fullmatch(value.strip())) \
        and not is_value(value) and first not in ids


def _id_tab_value(text: str) -> str:
    """A JSON line of an ``"id"`` and one value under any name (CLUE's ``{"id": 0, "label": "neutral"}``)
    as ``ID<TAB>VALUE``; any other line as written (refused as a line without a tab, by ``_no_tab``)."""
    try:
        line = parse_json(text)
    except ValueProblem:
        return text
    if not (isinstance(line, dict) and len(line) == 2 and type(line.get("id")) in (str, int)):
        return text
    value = next(value for name, value in line.items() if name != "id")
    return f"{line['id']}\t{value if isinstance(value, str) else json.dumps(value)}"


def _layout(columns: Columns, ids: List[str], display: str) -> str:
    """How a file of a positional track is read, "id" or "positional", decided once for the whole file.

    Ids only when every first-column value is a known id, each once (a header line aside): numeric ids
    ("0".."249") would otherwise take integer scores and a confidence column for ids. Else positional
    when every line holds one or two fields and most first fields are numbers (so a bad value is
    reported at its line). A file read both ways (no header, every id, each a 0-5 score) is refused."""
    heads = columns.heads
    as_ids = bool(heads) and heads[0] in ids and bool(columns.tabbed.all() and (columns.position >= 0).all()) \
        and np.bincount(columns.position).max() == 1
    scores = plain_numbers(heads) if as_ids and not columns.header and len(heads) == len(ids) else None
    if as_ids and (scores is None or not ((scores >= 0) & (scores <= 5)).all()):
        return "id"  # cannot be ambiguous: the costlier positional reading is not needed
    positional = _reads_positionally(columns)
    if positional:
        _refuse_row_numbers(columns, ids, display)
    if not (as_ids and positional):
        return "positional" if positional else "id"
    raise SubmissionError.single(
        display, "the file can be read two ways: its first column holds every item id once, and could "
                 "also be the scores of a positional file",
        expected=f"ID<TAB>SCORE lines (matched by id, e.g. {ids[0]!r}<TAB>3.2) or one score per line "
                 f"in input order (SemEval positional, an optional confidence column)",
        found=f"{len(ids)} lines of two numbers",
        hint="write the ID<TAB>SCORE lines with a header line 'id<TAB>score' to mean ids, or give the "
             "scores with decimals (3.0) to mean positional")


def _reads_positionally(columns: Columns) -> bool:
    """Whether every line holds one or two fields and most first fields are numbers, decimal commas
    counted ("2,68", ``COMMA_DECIMAL``): such lines are then refused one by one, with the hint of
    ``parse_number`` (use a dot), rather than all as lines without a tab."""
    _, lengths, firsts, (_, numeric) = columns.fields
    if not (lengths <= 2).all():
        return False
    count = int(numeric.sum())
    if 2 * count < len(lengths):  # looked at only when the numbers alone are too few
        count += int(np.fromiter(map(bool, map(COMMA_DECIMAL.fullmatch, firsts)), dtype=bool, count=len(firsts)).sum())
    return 2 * count >= len(lengths)


def _refuse_row_numbers(columns: Columns, ids: List[str], display: str) -> None:
    """Refuse a positional reading whose first column holds whole numbers, each once, some above 5: ids
    or line numbers, which would be read as scores (and the scores as confidences)."""
    _, _, _, (first_values, numeric) = columns.fields
    if numeric.all() and (first_values % 1 == 0).all() and first_values.max() > 5 \
            and len(np.unique(first_values)) == len(first_values):
        raise SubmissionError.single(display, "the first column holds whole numbers, each once, up to "
                                              f"{first_values.max():.0f}: item ids or line numbers, not scores",
                                     expected=f"ID<TAB>SCORE lines with the track's ids (such as {ids[0]!r}<TAB>3.2) "
                                              "or one score per line in input order",
                                     found=f"lines such as {shorten(columns.texts[0])!r}",
                                     hint="write each item's id (the 'id' field of the input file) and a tab before its score")


def _positional_rows(columns: Columns, track: Track, keys: ItemKeys, problems: ProblemCollector) -> Rows:
    """The scores of a SemEval positional file, one per line in item order (a confidence must be a number)."""
    numbers, (fields, lengths, firsts, scores) = columns.numbers, columns.fields
    if len(fields) != len(keys.ids):
        raise SubmissionError.single(problems.file, "wrong number of lines for the SemEval positional format",
                                     expected=f"{len(keys.ids)} lines (one score per pair, in input order)",
                                     found=f"{len(fields)} non-blank lines" + (" besides comments" if columns.comments else ""),
                                     hint="or write ID<TAB>SCORE lines, which are matched by id")
    lines = sorted([*numbers, *(n for n in columns.comments if n < numbers[-1])]) if columns.comments else numbers
    if lines[-1] != len(lines):  # the line before the first line whose number is not its rank
        raise SubmissionError.single(problems.file, "blank line inside a positional file", found="an empty line",
                                     line=next(n for k, n in enumerate(lines, start=1) if n != k) - 1,
                                     expected="one score on every line", hint="positional files are matched by line number")
    two = np.flatnonzero(lengths == 2)
    for j in two[~number_column(list(map(itemgetter(1), map(fields.__getitem__, two))))[1]]:
        _explain(parse_number, fields[j][1], problems, line=numbers[j],
                 message="the second column (confidence) is not a number",
                 expected="a score and, optionally, a confidence such as 3.2<TAB>80")
    problems.raise_if_any()
    return Rows(range(len(fields)), numbers, firsts, scores)


def _id_rows(columns: Columns, track: Track, keys: ItemKeys, problems: ProblemCollector) -> Rows:
    """The value column of an ``ID<TAB>VALUE`` file in item order (``_id_problems`` explains the rest)."""
    known = np.flatnonzero(columns.tabbed & (columns.position >= 0))
    given, first = columns.position[known], known  # the items given and the row of each one's first line, in item order
    if (given[1:] <= given[:-1]).any():  # sorting costs 0.1 s a million rows: only when needed
        given, first = np.unique(given, return_index=True)
        first = known[first]
    if len(given) != len(columns.heads) or len(given) != len(keys.ids):
        _id_problems(columns, first, track, keys, problems)
    if first is known and len(known) == len(columns.heads):  # every line, in item order: the columns as they are
        return Rows(given, columns.lines, columns.rests)
    lines = first.tolist()
    return Rows(given, list(map(columns.lines.__getitem__, lines)), list(map(columns.rests.__getitem__, lines)))


def _id_problems(columns: Columns, first: np.ndarray, track: Track, keys: ItemKeys, problems: ProblemCollector) -> None:
    """The messages of the rows ``_id_rows`` flagged, in line order, and of the items without a line."""
    heads, lines, position, example = columns.heads, columns.lines, columns.position, describe_value(track)
    if len(heads) and columns.tabbed.all() and (position < 0).all():
        raise SubmissionError.single(problems.file, "none of the ids in this file belong to the track",
                                     expected=f"lines such as {example.replace('ID', repr(keys.ids[0]) if keys.ids else 'ID')}",
                                     found=f"ids such as {shorten(heads[0])!r}")
    first_line = dict(zip(position[first].tolist(), map(lines.__getitem__, first.tolist())))
    for j in np.setdiff1d(np.arange(len(heads)), first).tolist():
        if not columns.tabbed[j]:
            message, details = _no_tab(columns.texts[columns.header + j], columns.json_lines, example)
            problems.add(message, line=lines[j], **details)
        elif position[j] >= 0:
            problems.add("duplicate id", line=lines[j], item=heads[j],
                         hint=f"it was already given on line {first_line[int(position[j])]}; keep one line per item")
        else:
            problems.add("unknown id: not an item of this track", line=lines[j], item=shorten(heads[j]),
                         hint=f"ids look like {keys.ids[0]!r}" if keys.ids else None)
    missing = np.setdiff1d(np.arange(len(keys.ids)), position[first])
    if len(missing):
        shown, more = ", ".join(repr(keys.ids[i]) for i in missing[:MAX_IDS_LISTED]), len(missing) - MAX_IDS_LISTED
        problems.add(f"{len(missing)} of the track's {len(keys.ids)} items have no prediction "
                     f"(the file has {len(first)} of them): {shown}" + (f" and {more} more" if more > 0 else ""),
                     hint="predict every item listed in the track's input file")


def _no_tab(text: str, json_lines: bool, example: str) -> Tuple[str, dict]:
    """(problem, details) of a line without a tab: in a JSON-lines file, a line that is no object of an
    ``"id"`` and one value (``_id_tab_value``), named by the keys it has."""
    if not json_lines:
        return "line has no tab", {"expected": f"ID<TAB>VALUE such as {example}", "found": repr(text[:60])}
    details = {"expected": 'one object {"id": ID, "any name": VALUE} a line, the id a string or an integer',
               "found": repr(shorten(text))}
    try:
        line = parse_json(text)
    except ValueProblem as p:
        details["found"] += f": {p.message}"
        line = None
    if isinstance(line, dict):
        keys = shorten(", ".join(map(str, line)))
        details["found"] = f"keys {keys}" if len(line) != 2 or "id" not in line else f"the id {_shown(line['id'])}"
        details["hint"] = 'keep only "id" and the prediction: df[["id", "label"]].to_json(orient="records", lines=True)'
    return 'a JSON line must hold exactly "id" and one value', details


def _shown(value) -> str:
    return shorten(json.dumps(value, ensure_ascii=False))


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
    """Label indices or 0/1 choices, one row per annotator: the rows ``annotator_rows`` accepts read as
    one column, the others row by row (``RowFit``), which reads other layouts or explains the problem."""
    counts = keys.counts[rows.item]
    column = json_values(rows.text)
    values, ok = annotator_rows(column, counts, track)
    flagged, notes = np.flatnonzero(~ok), []
    hint = index_hint(track, column) if len(flagged) else None
    entries = _each(rows, flagged, lambda j: annotator_entries(
        rows.text[j], track, keys.annotators[rows.item[j]], notes), keys, problems)
    fit = RowFit(keys.annotators, keys.listed, {rows.item[j]: len(row) for j, row in entries.items()})
    out = _each(rows, sorted(entries), lambda j: annotator_values(fit.fit(rows.item[j], entries[j], notes), track, hint),
                keys, problems)
    ends = np.cumsum(counts)
    for j, row in out.items():
        values[ends[j] - counts[j]:ends[j]] = row
    return (None if problems or len(out) != len(flagged) else values), notes


def _wrap(values, track: Track, keys: ItemKeys):
    """Perspectivist rows as ``PerAnnotator`` on the track's items; other kinds' arrays as they are."""
    if track.kind != "perspectivist":
        return values
    counts = keys.counts
    return PerAnnotator(values=values if track.scale == "multilabel" else label_codes(values, len(track.labels)),
                        item=np.repeat(np.arange(len(keys.ids), dtype=np.int64), counts), n_items=len(keys.ids),
                        n_labels=len(track.labels), offsets=np.concatenate(([0], np.cumsum(counts))))
