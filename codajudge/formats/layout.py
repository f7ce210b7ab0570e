"""A submission file's layout, decided once per file before any value is read: comment lines, a
header line, JSON lines or one JSON array, SemEval positional or ``ID<TAB>VALUE`` lines (``Columns``,
``layout_of``), and the layouts refused as one problem naming their cause (pandas' index column, the
values of many items on one line, row numbers read as scores)."""

from __future__ import annotations

import csv
import json
import re
from dataclasses import replace
from functools import cached_property
from itertools import compress, count, repeat
from typing import Callable, NamedTuple
from collections.abc import Mapping, Sequence

import numpy as np

from .. import kinds
from ..errors import SubmissionError, counted, plural
from ..tracks import Track
from .coverage import IDS_LOOKED_UP
from .textfile import NO_QUOTES, Lines, Rule, shorten, unquoted
from .values import COMMA_DECIMAL, is_decimal, is_percent, is_quoted_number, json_or_none
from .values import layout_json
from .values import parse_numbers

# index: GLUE's index<TAB>prediction; idx: HF datasets
HEADER_NAMES = ("id", "item", "item_id", "index", "idx")
COMMENTS_NOTE = "{} starting with '#' {} skipped (SemEval's scorer, correlation.pl, skips them too)"


def comments_note(count: int) -> str:
    """The note on ``count`` comment lines skipped."""
    return COMMENTS_NOTE.format(counted(count, "comment line"), plural(count, "was", "were"))


#: A column name in a header line: a word (letters, digits, '_', '-', '.' or spaces inside), never a value
#: attempt such as a JSON list, a signed number or a text with control characters.
COLUMN_NAME = re.compile(r"[^\W\d][\w .-]*")
#: The column names Python's float() reads as a number (a NaN, an infinity).
FLOAT_WORDS = ("nan", "inf", "infinity")
#: Whitespace as ``str.split`` separates fields (the same characters as ``str.isspace``).
INNER_SPACE = re.compile(r"\s")
ONLY_COMMENTS = Rule("the file holds only comment lines (starting with '#')", "one line per item")
#: pandas' ``to_csv`` writes an unnamed first column, the DataFrame's index, by default.
INDEX_COLUMN = Rule(
    "the file has an extra first column, a DataFrame's index: its header line starts with a tab",
    "ID<TAB>VALUE lines, after at most one header line such as id<TAB>label",
    "write the file with index=False (df.to_csv(path, sep='\\t', index=False))",
)
INDEX_AND_COMMAS = INDEX_COLUMN._replace(
    message="the file has an extra first column, a DataFrame's index, and commas for tabs: its "
    "header line starts with a comma",
    hint="write the file with tabs and without the index: df.to_csv(path, sep='\\t', index=False)",
)
R_TABLE_FIX = 'use write.table(..., row.names=FALSE, quote=FALSE, sep="\\t")'
#: R's write.table of a named vector (or a data frame whose row names are the ids): the row names
#: are the ids, the header is the one line to drop.
R_NAMES_FIX = 'use write.table(..., sep="\\t", quote=FALSE, col.names=FALSE)'
JSON_LINES_NOTE = 'the file was read as JSON lines, one object {"id": ID, "any name": VALUE} a line (CLUE\'s layout)'
JSON_ARRAY_NOTE = (
    'the file was read as one JSON array of objects {"id": ID, "any name": VALUE}, one per item '
    '(json.dump of a list of records, to_json(orient="records"))'
)


def records_array(numbers: Sequence[int], texts: list[str]) -> Lines:
    """A file of one line holding a JSON array of objects (``json.dump(records)``, pandas'
    ``to_json(orient="records")`` without ``lines=True``) as JSON lines, each object on that
    line; an array that is JSON but for NaN or Infinity (``layout_json``) too, each value refused
    at its item."""
    one_array = len(texts) == 1 and texts[0].lstrip().startswith("[")
    records = layout_json(texts[0]) if one_array else None
    if not (isinstance(records, list) and records and all(isinstance(r, dict) for r in records)):
        return Lines(numbers, texts)
    lines = [json.dumps(record, ensure_ascii=False) for record in records]
    return Lines([numbers[0]] * len(lines), lines)


class Positional(NamedTuple):
    """A file read positionally (SemEval): ``header`` is 1 when its first line is a header
    (``score``, ``prediction<TAB>confidence``: one or two names, none a number such as "nan") and
    the lines after it are one per item or the release's (``Track.release_lines``), else 0; then,
    for each line after it, its first whitespace-separated field (``firsts``, its score) and those
    fields as numbers when every one is one (``scores``, ``values.parse_numbers``; else None);
    ``split``: the fields (a score, then optionally a confidence) of each line holding more than
    one, by its index among those lines (a per-line list for every line would cost the garbage
    collector a pass over each)."""

    header: int
    firsts: list[str]
    split: dict[int, list[str]]
    scores: list[float] | None


class Columns:
    """The layout of a file of ``track`` read against its item ``ids``, decided once: its lines
    (``numbers``, ``texts``) without comments (``comments``: the numbers of the comment lines
    skipped) and a one-line JSON array read as records, after refusing the layouts refused as one
    problem (pandas' index column, the values of many items on one line); then, after its header
    line if any (``header``: 1, else 0; ``_is_header``, by the track's ``is_value``, or pandas'
    index header over the track's ids, ``_index_header``), each line's
    number (``lines``) and parts around its first tab (``heads``, stripped; ``rests``;
    ``tabbed``), with each head's item index (``position``, -1 for none)."""

    def __init__(
        self,
        lines: Lines,
        track: Track,
        ids: list[str],
        display: str,
        is_value: Callable[[str], bool],
    ):
        self.track, self.ids, self.display = track, ids, display
        numbers, texts, self.comments = self._without_comments(*lines)
        array = records_array(numbers, texts)
        #: Whether the file was one JSON array of records, read as one record a line.
        self.records_array = array.texts is not texts
        numbers, texts = array
        index_header = self._index_header(numbers, texts, is_value)
        r_header = self._r_row_names(numbers, texts) or _r_vector_name(texts, ids, is_value)
        self._refuse_one_line_of_values(numbers, texts)
        self.numbers, self.texts = numbers, texts
        braced = texts[0].lstrip().startswith("{")
        self.json_lines = braced and not any(map(str.__contains__, texts, repeat("\t")))
        texts = list(map(id_tab_value, texts)) if self.json_lines else texts
        is_header = _is_header(texts[0], ids, is_value if not self.json_lines else bool)
        self.header = int(index_header or r_header or is_header)
        self.body, self.lines = (texts[1:], numbers[1:]) if self.header else (texts, numbers)
        # each value stays in its line, read at its offset: a copy of every value would cost the
        # file's size again
        self.starts = [text.find("\t") + 1 for text in self.body]
        rows = zip(self.body, self.starts)
        self.heads = [(text[: start - 1] if start else text).strip() for text, start in rows]
        self.tabbed = np.array(self.starts, dtype=np.int64) > 0

    def _without_comments(self, numbers: Sequence[int], texts: list[str]):
        """A file's lines (numbers, texts) without its comments, and the numbers of the comment
        lines skipped: on a positional (SemEval) track, a line whose first non-blank character is
        '#' is a comment, skipped as the official scorer skips it, unless an item id of the track
        starts with '#'. A file without '#' is not looked at line by line."""
        marked = self.track.positional and any(map(str.__contains__, texts, repeat("#")))
        if not marked or any(map(str.startswith, map(str.lstrip, self.ids), repeat("#"))):
            return numbers, texts, []
        kept = [not text.lstrip().startswith("#") for text in texts]
        if not any(kept):
            raise ONLY_COMMENTS.error(self.display, counted(len(texts), "comment line"))
        comments = [number for number, k in zip(numbers, kept) if not k]
        return list(compress(numbers, kept)), list(compress(texts, kept)), comments

    def _index_header(self, numbers: Sequence[int], texts: list[str], is_value) -> bool:
        """Whether the first line is the header pandas' to_csv writes with its default index=True
        over the track's ids (a Series or DataFrame indexed by them: ``\\tlabel``), read as an
        ordinary header; refused, as one problem, when the index is a RangeIndex (row numbers).
        Such a line starts with an empty name before a tab, or a comma (sep=","), then names that
        are column names (``_column_names``: a line of values, ``\\t3.115``, is a line with a blank
        id); the lines below tell the two indexes apart (``_indexed_by_ids``). Column names that
        are whole numbers (an unnamed Series' 0) would be read as a value: the fix drops the
        header."""
        commas = "\t" not in texts[0]
        fields = list(map(_field, texts[0].split("," if commas else "\t")))
        if len(fields) < 2 or fields[0] or not _column_names(fields[1:], is_value):
            return False
        if self._indexed_by_ids(texts[1 : IDS_LOOKED_UP + 1], "," if commas else "\t", len(fields)):
            return True
        rule = INDEX_AND_COMMAS if commas else INDEX_COLUMN
        if all(map(str.isdigit, fields[1:])):
            fix = rule.hint.replace("index=False", "index=False, header=False")
            n, names = len(fields) - 1, ", ".join(fields[1:])
            read_as = f"would be read as {plural(n, 'a value', 'values')}"
            rule = rule._replace(hint=f"{fix}: the {counted(n, 'column name')} ({names}) {read_as}")
        raise rule.error(self.display, repr(shorten(texts[0])), numbers[0])

    def _indexed_by_ids(self, rows: list[str], sep: str, width: int) -> bool:
        """Whether most of ``rows`` (the lines below an index header of ``width`` fields) start
        with an id of the track, and, before two or more names, most do not hold one in their
        second field (a RangeIndex that is also the track's ids 0..N, before an id column, is the
        index)."""
        known = set(self.ids)
        fields = [list(map(_field, row.split(sep, 2))) for row in rows]

        def most(column: int) -> bool:
            given = sum(len(f) > column and f[column] in known for f in fields)
            return 2 * given > len(fields)

        return bool(fields) and most(0) and not (width > 2 and most(1))

    def _r_row_names(self, numbers: Sequence[int], texts: list[str]) -> bool:
        """Whether the first line is the header of R's write.table with its defaults: a header
        line, then lines of one field more (space- or tab-separated), the first in quotes, R's row
        names (the fields read as CSV). Refused, as one problem, when the row names are "1", "2",
        ... (``R_TABLE_FIX``), or when they are other names (a named vector's: the ids) under a
        header of names in quotes, space-separated (``R_NAMES_FIX``); tab-separated, that header
        is a header (the ids in quotes are then refused with R's fix, ``with_r_quote_fix``)."""
        rows = texts[1 : IDS_LOOKED_UP + 1]
        sep = "\t" if "\t" in "".join(texts[:2]) else " "  # a header of one name has none
        if not rows or not all(t.startswith('"') for t in rows):
            return False
        names = len(_csv_fields(texts[0], sep))
        if not names or any(len(_csv_fields(t, sep)) != names + 1 for t in rows):
            return False
        if all(t.startswith(f'"{k}"{sep}') for k, t in enumerate(rows, 1)):
            quoted = 'R\'s row names in quotes ("1", "2", ...)'
            fix = R_TABLE_FIX
        elif _quoted_names(texts[0]) and sep == " ":
            quoted = (
                f"R's row names in quotes ({_csv_fields(rows[0], sep)[0]!r} on line {numbers[1]})"
            )
            fix = R_NAMES_FIX
        else:
            return _quoted_names(texts[0])
        message = (
            f"the file has an extra first column, {quoted}: its header line has "
            f"{counted(names, 'name')} and its lines {names + 1} fields"
            + (", space-separated" if fix is R_NAMES_FIX else "")
        )
        rule = INDEX_COLUMN._replace(message=message, hint=fix)
        raise rule.error(self.display, repr(shorten(texts[0])), numbers[0])

    def _refuse_one_line_of_values(self, numbers: Sequence[int], texts: list[str]) -> None:
        """Refuse, as one problem, a file of one line holding the values of many items, unless that
        line is an item's: a JSON list of two or more scores or labels, or three or more numbers
        apart (``print(list(scores))``, ``np.savetxt`` of a row); on tracks whose value is itself a
        list, a JSON list of one row per item."""
        if len(texts) != 1 or len(self.ids) < 2 or texts[0].partition("\t")[0].strip() in self.ids:
            return
        rows = kinds.of(self.track).value_type.is_row
        value = json_or_none(texts[0])
        parts = re.split(r"[\s,;]+", texts[0].strip(" \t,;"))
        if isinstance(value, list):
            nested = [isinstance(v, (list, dict)) for v in value]
            shaped = all(nested) if rows else not any(nested)
            count = len(value) if shaped and len(value) >= (len(self.ids) if rows else 2) else 0
        else:
            apart = value is None and not rows and len(parts) > 2 and all(map(is_decimal, parts))
            count = len(parts) if apart else 0
        if count:
            raise SubmissionError.single(
                self.display,
                f"the file holds one line of {count} values",
                line=numbers[0],
                found=repr(shorten(texts[0])),
                expected=f"one line per item ({len(self.ids):,} items): "
                + ("one score per line in input order, or " if self.track.positional else "")
                + f"lines such as {self.track.example}",
                hint=kinds.of(self.track).one_line_fix,
            )

    def index_column_hint(self, index: Mapping[str, int]) -> str | None:
        """The hint for a file whose first lines after its header (up to ``IDS_LOOKED_UP``) each
        hold three or more tab-separated columns, the first whole numbers and the second an id of
        ``index`` (id -> item index): the first is a DataFrame's index (to_csv with header=False
        keeps it), else None (a first column of scores, a second of confidences: no index)."""
        rows = [[_field(f) for f in text.split("\t", 2)] for text in self.body[:IDS_LOOKED_UP]]
        if not rows or not all(len(row) == 3 and row[1] in index for row in rows):
            return None
        if not all(row[0].isascii() and row[0].isdigit() for row in rows):
            return None
        where = f"the second column holds the track's ids ({rows[0][1]!r} on line {self.lines[0]})"
        # R's write.table: a header without the row names' column, rows named "1", "2", ...
        short_header = self.header and self.texts[0].count("\t") + 1 == self.body[0].count("\t")
        if short_header and [row[0] for row in rows] == list(map(str, range(1, len(rows) + 1))):
            return f"{where}: the first column is R's row names; {R_TABLE_FIX}"
        return f"{where}: the first column is a DataFrame's index; {INDEX_COLUMN.hint}"

    def score_columns_rule(self) -> Rule | None:
        """On a positional track, the refusal of a file whose first lines after its header (up to
        ``IDS_LOOKED_UP``) each hold three or more tab-separated columns, the first numbers that
        are not all whole (scores, not an index or ids): the SemEval format has two at most; else
        None. Its ``found`` is ``score_columns_found``."""
        rows = [text.split("\t") for text in self.body[:IDS_LOOKED_UP]]
        if not (self.track.positional and rows and min(map(len, rows)) >= 3):
            return None
        firsts = [row[0].strip() for row in rows]
        if parse_numbers(firsts) is None or all(map(str.isdigit, firsts)):
            return None
        wide = sum(text.count("\t") >= 2 for text in self.body)
        return Rule(
            f"{wide} of the file's {len(self.body)} lines have 3 or more tab-separated columns, "
            "the first holding scores, not ids",
            "the SemEval format, SCORE[<TAB>CONFIDENCE], one line per pair in input order",
            "write the score, then at most a confidence",
        )

    def score_columns_found(self) -> str:
        """What ``score_columns_rule`` found: the first line's columns."""
        line = self.body[0]
        return f"{line.count(chr(9)) + 1} columns on line {self.lines[0]}, {shorten(line)!r}"

    @cached_property
    def position(self) -> np.ndarray:
        """Each head's item index, -1 for a head that is no item id."""
        index = dict(zip(self.ids, range(len(self.ids))))
        return np.fromiter(map(index.get, self.heads, repeat(-1)), np.int64, len(self.heads))

    @cached_property
    def positional(self) -> Positional:
        """The file as a positional reading sees it, decided once."""
        names = list(map(_field, self.texts[0].split()))  # R's write.table quotes them
        named = all(COLUMN_NAME.fullmatch(n) and n.lower() not in FLOAT_WORDS for n in names)
        one_per_line = len(self.texts) - 1 in (len(self.ids), self.track.release_lines)
        header = int(one_per_line and 1 <= len(names) <= 2 and named)
        lines = self.texts[header:]
        # the few lines of two fields are split before the stripped first fields of every line
        # exist: the lists made then would make the garbage collector pass over that long list
        spaced = compress(count(), map(INNER_SPACE.search, map(str.strip, lines)))
        split = {j: lines[j].split() for j in spaced}
        firsts = list(map(str.strip, lines))
        for j, fields in split.items():
            firsts[j] = fields[0]
        return Positional(header, firsts, split, parse_numbers(firsts))


def _column_names(names: list[str], is_value: Callable[[str], bool]) -> bool:
    """Whether the names after an index header's empty first name are column names: an unnamed
    Series' or DataFrame's whole numbers (0, 1, ...), or names (``COLUMN_NAME``) none of which is a
    value of the track (``is_value``: a label, a score) or a number ("nan")."""
    if names == list(map(str, range(len(names)))):
        return True
    return all(
        COLUMN_NAME.fullmatch(n) and n.lower() not in FLOAT_WORDS and not is_value(n) for n in names
    )


def _is_header(text: str, ids: list[str], is_value: Callable[[str], bool]) -> bool:
    """Whether a file's first line is a header: its first field is no item id and is a header name
    (``HEADER_NAMES``, any case) or, as pandas writes its column names (``dataset_idx<TAB>pred``), both its
    fields are names (``COLUMN_NAME``) and the second is no value of the track (``is_value``); a
    field in quotes (csv.QUOTE_ALL) is read without them."""
    first, tab, value = _header_fields(text)
    if first.lower() in HEADER_NAMES:
        return first.lower() not in ids
    names = bool(tab and COLUMN_NAME.fullmatch(first) and COLUMN_NAME.fullmatch(value))
    return names and not is_value(value) and first not in ids


def _r_vector_name(texts: list[str], ids: list[str], is_value: Callable[[str], bool]) -> bool:
    """Whether the first line is the one column name R's write.table(v, sep="\\t", quote=FALSE)
    writes over a named vector's ID<TAB>VALUE lines (``x``): one name (``COLUMN_NAME``, no inner
    space), no id of the track nor an id with its value glued on (a lost tab), no value, over lines
    (up to ``IDS_LOOKED_UP``) of two fields each, tab- or space-separated (the latter then refused
    line by line with the spaces' hint)."""
    first, rows = texts[0].strip(), texts[1 : IDS_LOOKED_UP + 1]
    name = COLUMN_NAME.fullmatch(first) and not INNER_SPACE.search(first)
    if not (rows and name) or first.lower() in FLOAT_WORDS or first in ids or is_value(first):
        return False
    if any(first.startswith(i) and is_decimal(first[len(i) :]) for i in ids):
        return False
    return all(len(row.split("\t" if "\t" in row else None)) == 2 for row in rows)


def _header_fields(text: str) -> tuple[str, str, str]:
    """A first line's first field, its tab ('' without one) and the rest, each stripped, a field in
    quotes (csv.QUOTE_ALL) read without them."""
    first, tab, value = text.partition("\t")
    return _field(first), tab, _field(value)


def _field(text: str) -> str:
    """A field stripped, read without the quotes around it (csv.QUOTE_ALL, R's write.table)."""
    return unquoted(text) or text.strip()


def with_r_quote_fix(error: SubmissionError, first: str | None) -> SubmissionError:
    """``error`` with R's fix beside Python's in each hint to write without quotes, when the file's
    ``first`` line is a header of names each in double quotes, as R's write.table writes it
    (``"id"<TAB>"label"``; Python's csv.QUOTE_ALL too, whose fix stays)."""
    if not _quoted_names(first or ""):
        return error
    r_fix = f"({NO_QUOTES}; in R, write.table(..., quote=FALSE))"
    problems = [
        replace(p, hint=p.hint and p.hint.replace(f"({NO_QUOTES})", r_fix)) for p in error.problems
    ]
    return SubmissionError(problems, error.omitted)


def _quoted_names(first: str) -> bool:
    """Whether a file's ``first`` line is a header of names each in double quotes, as R's
    write.table writes it (``"id"<TAB>"label"``, ``"x"``; Python's csv.QUOTE_ALL too)."""
    cells = first.split("\t" if "\t" in first else None)
    named = [c.strip()[:1] == '"' and COLUMN_NAME.fullmatch(unquoted(c) or "") for c in cells]
    return bool(cells) and all(named)


def _csv_fields(text: str, sep: str) -> list[str]:
    """A line's fields read as CSV separated by ``sep`` (a quoted field may hold ``sep``); none
    for a line the csv module refuses (a field over its limit of 131,072 characters)."""
    try:
        return next(csv.reader([text.strip()], delimiter=sep))
    except csv.Error:
        return []


def id_tab_value(text: str) -> str:
    """A JSON line of an ``"id"`` and one value under any name (CLUE's
    ``{"id": 0, "label": "neutral"}``) as ``ID<TAB>VALUE`` (an id written as a float, ``42473.0``,
    as written: refused as no item's); any other line as written (refused as a line without a tab,
    by ``submission._no_tab``), as is one whose id is no string nor whole number: only a value may
    be NaN or Infinity (``layout_json``), an id that is one is refused as not finite."""
    line = layout_json(text)
    if not (isinstance(line, dict) and len(line) == 2 and _is_id(line.get("id"))):
        return text
    value = next(value for name, value in line.items() if name != "id")
    return f"{line['id']}\t{value if isinstance(value, str) else json.dumps(value)}"


def _is_id(value) -> bool:
    """Whether a JSON line's ``"id"`` reads as an id: a string or a whole number (not NaN)."""
    return type(value) in (str, int) or type(value) is float and value.is_integer()


def layout_of(columns: Columns) -> str:
    """How a file of a positional track is read, "id" or "positional", decided once for the whole file.

    Ids when the first column holds item ids (``_holds_ids``): numeric ids ("0".."249") would
    otherwise take integer scores and a confidence column for ids. Else positional when every line
    holds one or two fields and most first fields are numbers (so a bad value is reported at its
    line). A file read both ways (no header, every id once, each a 0-5 score) is refused."""
    heads, ids, as_ids = columns.heads, columns.ids, _holds_ids(columns)
    bare = as_ids and not columns.header and len(heads) == len(ids)  # each item's id, no header
    scores = parse_numbers(heads) if bare else None
    if as_ids and (scores is None or not all(0 <= score <= 5 for score in scores)):
        return "id"  # cannot be ambiguous: the costlier positional reading is not needed
    positional = _reads_positionally(columns)
    if not (as_ids and positional):
        return "positional" if positional else "id"
    raise SubmissionError.single(
        columns.display,
        "the file can be read two ways: its first column holds every item id once, and could "
        "also be the scores of a positional file",
        expected=f"ID<TAB>SCORE lines (matched by id, e.g. {ids[0]!r}<TAB>3.2) or one score per line "
        f"in input order (SemEval positional, an optional confidence column)",
        found=f"{len(ids)} lines of two numbers",
        hint="write the ID<TAB>SCORE lines with a header line 'id<TAB>score' to mean ids, or give the "
        "scores with decimals (3.0) to mean positional",
    )


def shuffled_ids_note(columns: Columns) -> str | None:
    """The note on a file read as ``ID<TAB>SCORE`` whose first column could also be a positional
    file's scores: no header, every item id once as a whole number, out of the track's order (a
    column of ids written by the kit's input file is in order, or sorted as text by ``sort``;
    ranks are not), and two numbers on every line; its example is the first line out of order.
    The id reading stays (a file sorted by score has its ids out of order; whole numbers each once
    are refused as positional scores, ``_reads_positionally``); the note says so, and how to make
    the file mean either reading; None for any other file."""
    position, n = columns.position, len(columns.ids)
    if columns.header or len(position) != n or not columns.tabbed.all() or (position < 0).any():
        return None
    heads = columns.heads
    # in the input order, or sorted as text ('sort -k1,1': 0, 1, 10, 100, ...): an ordinary id file
    in_order = (np.diff(position) > 0).all() or all(map(str.__le__, heads, heads[1:]))
    if in_order or len(np.unique(position)) != n:
        return None
    _, _, split, scores = columns.positional
    if scores is None or len(split) != n or not all(len(f) == 2 for f in split.values()):
        return None
    if not all(map(is_decimal, (fields[1] for fields in split.values()))):
        return None
    low, high = columns.track.score_range
    moved = int(np.argmax(position != np.arange(n)))  # the first line out of order
    return (
        f"the first column holds each of the track's {n:,} item ids once, out of the input order "
        f"(such as {heads[moved]!r} on line {columns.lines[moved]}), and was read as each line's "
        "item id, the second column as its score (ID<TAB>SCORE); if the first column is your "
        f"scores (one per line in input order, a confidence after it), give them as scores from "
        f"{low:g} to {high:g} with decimals (whole numbers each once, such as ranks, are read as "
        "ids); to keep the id reading without this note, start the file with the header line "
        "'id<TAB>score'"
    )


#: The share of an ``ID<TAB>VALUE`` file's lines that may have lost their tab (``52.025`` for
#: ``5<TAB>2.025``) and the file still be read by id, each such line refused at its line.
BROKEN_LINES_SHARE = 0.1


def _holds_ids(columns: Columns) -> bool:
    """Whether a file's first column holds item ids: all its lines but a few
    (``BROKEN_LINES_SHARE``, each refused as a line without a tab) have a tab, some of its first
    heads are known ids, and its header line names an id column (``HEADER_NAMES``), or each line
    gives another known id, or its distinct known ids are at least half its lines and more than a
    column of whole 0-5 scores holds (so that a repeated, missing or unknown id or a lost tab gets
    the id reader's message)."""
    heads, tabbed = columns.heads, columns.tabbed
    # cheap first: a positional file's lines are not looked up
    if not (heads and _nearly_all_tabbed(columns)):
        return False
    if set(heads[:IDS_LOOKED_UP]).isdisjoint(columns.ids):
        return False
    distinct = len(np.unique(columns.position[tabbed & (columns.position >= 0)]))
    named = columns.header and _header_fields(columns.texts[0])[0].lower() in HEADER_NAMES
    many = distinct > 6 and 2 * distinct >= len(heads)  # whole 0-5 scores take at most 6 values
    return bool(named or many or distinct == len(heads))


def _nearly_all_tabbed(columns: Columns) -> bool:
    """Whether all a file's lines after its header but a few (``BROKEN_LINES_SHARE``) have a tab."""
    broken = len(columns.tabbed) - int(columns.tabbed.sum())
    return broken <= BROKEN_LINES_SHARE * len(columns.tabbed)


def _reads_positionally(columns: Columns) -> bool:
    """Whether every line holds one or two fields and most first fields are numbers, decimal commas
    and quoted numbers counted ("2,68", ``COMMA_DECIMAL``; ``"0.2174"``): such lines are then
    refused one by one, with the hint of ``parse_number`` (use a dot, remove the quotes), rather
    than all as lines without a tab. A first column of whole numbers, each once, some above 5, is
    refused, even with a few other lines (``BROKEN_LINES_SHARE``): ids or line numbers, which
    would be read as scores (and the scores as confidences); the track's ids written as floats
    (``0.0``) and such a column before a tab on (nearly) every line are ids, refused as unknown
    ones by the id reader."""
    _, firsts, split, scores = columns.positional
    if any(len(fields) > 2 for fields in split.values()):
        return False
    if scores is None:
        numbers = sum(map(_number_like, firsts))
        return 2 * numbers >= len(firsts)
    # all but a few (a line whose tab was lost, 52.025 for 5<TAB>2.025): never scored as values
    whole = [value for value in scores if value % 1 == 0]
    few_others = len(scores) - len(whole) <= BROKEN_LINES_SHARE * len(scores)
    if few_others and max(whole, default=0) > 5 and len(set(whole)) == len(whole):
        known = set(columns.ids)
        if all(first.endswith(".0") and first[:-2] in known for first in firsts):
            return False  # the track's ids written as floats: the id reader's hint names them
        if _nearly_all_tabbed(columns):
            # ID<TAB>SCORE lines of unknown ids: the id reader names them and the ids' range
            return False
        raise SubmissionError.single(
            columns.display,
            "the first column holds whole numbers, each once, up to "
            f"{max(whole):.0f}: item ids or line numbers, not scores",
            expected=f"ID<TAB>SCORE lines with the track's ids (such as {columns.ids[0]!r}<TAB>3.2) "
            "or one score per line in input order",
            found=f"lines such as {shorten(columns.texts[columns.positional.header])!r}",
            hint="write each item's id (the 'id' field of the input file) and a tab before its score",
        )
    return True


def _number_like(text: str) -> bool:
    """Whether a positional line's first field is meant as a number: one, one with a decimal comma,
    in quotes or with a % sign (each refused at its line with its fix, by ``parse_number``)."""
    if is_decimal(text) or bool(COMMA_DECIMAL.fullmatch(text)):
        return True
    return is_quoted_number(text) or is_percent(text)
