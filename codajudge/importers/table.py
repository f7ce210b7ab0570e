"""An organiser's own table: CSV, TSV or JSON lines, one item per row, read without writing code.

Options (see ``bundle/schema.py`` and ``docs/edition-config.md``):

- ``path``: one file holding every item (cut into splits with the dataset's ``split`` option), or
  per split ``splits: {train: {path: ...}, dev: {path: ...}, test: {path: ...}}``; a split the
  config does not give has no items (only train may be left out);
- ``format``: ``csv`` | ``tsv`` | ``jsonl`` (default: from the suffix ``.csv``, ``.tsv``,
  ``.jsonl``/``.json``); CSV and TSV files have a header row naming the columns; a JSON-lines
  file's columns are the keys of all its records;
- ``columns``: the kit's fields -> the file's columns: ``id``, ``texts: [col, col]``, ``score``,
  ``label``, ``annotations: [col, ...]`` (one column per annotator; the column names are the
  annotators' unless ``annotators`` names a column holding the names, comma-separated, one per
  annotations column), ``lang``, ``genre``;
- ``lang``, ``genre``: constants, for a file without such a column.

An empty annotation cell means that annotator did not label the item. Without a ``label`` column an
item's label is its annotations' strict majority (more than half of the labels given), counted by
the label each text names in the label set of the dataset's tracks (``majority``); an item without
one has label null, shown to systems but not scored, as the kit does for every release.
``where`` names the file's columns (or the kit's fields) and is applied to the rows here.
"""

from __future__ import annotations

import csv
import io
import math
from collections import Counter
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from ..errors import ConfigError, ProblemCollector
from ..formats.items import parsed_json_lines
from ..formats.textfile import shorten
from ..labels import LabelSet, label_key
from . import PartlyRead, SplitAbsent, UniqueItems
from .semeval_sts import read_release_lines

WHERE = "datasets (importer table)"
#: The longest cell the csv module reads (its ``field_size_limit``).
CELL_LIMIT = csv.field_size_limit()
SUFFIXES = {".csv": "csv", ".tsv": "tsv", ".jsonl": "jsonl", ".json": "jsonl"}
#: The importer applies ``where`` to the rows itself, so that it may name any column of the file.
APPLIES_WHERE = True
#: The majority label is taken in the label set of the dataset's tracks (``importers.load_split``).
READS_LABELS = True

#: (line number, row): one record of the file, a mapping column -> value.
Row = Tuple[int, dict]


def _file(source: dict, split: str) -> str:
    """The file of ``split``: ``path`` (one file for all), else the split's own ``path``."""
    if isinstance(source.get("path"), str):
        return source["path"]
    raise SplitAbsent.single(
        WHERE,
        f"no file for the {split} split",
        expected="'path' (one file, cut with 'split') or splits: {%s: {path: FILE}}" % split,
    )


def _format(source: dict, path: Path) -> str:
    if source.get("format"):
        return source["format"]
    if path.suffix.lower() in SUFFIXES:
        return SUFFIXES[path.suffix.lower()]
    raise ConfigError.single(
        str(path),
        "cannot tell the table's format from its suffix",
        expected=" | ".join(sorted(SUFFIXES)),
        found=repr(path.suffix),
        hint="name it with 'format: csv' (or tsv, jsonl) in the dataset",
    )


def _rows(path: Path, fmt: str, problems: ProblemCollector) -> Tuple[List[str], List[Row]]:
    """The header and (line number, row) of every record, each row a mapping column -> value."""
    lines = read_release_lines(path)
    if fmt == "jsonl":
        return _json_rows(lines, problems)
    return _csv_rows(lines, "\t" if fmt == "tsv" else ",", problems)


def _json_rows(lines: List[str], problems: ProblemCollector) -> Tuple[List[str], List[Row]]:
    """JSON lines: the header is every record's keys, in the order first seen (a key may be absent
    from some records: its cell is then empty)."""
    rows = []
    for lineno, record in parsed_json_lines(lines, problems):
        if isinstance(record, dict):
            rows.append((lineno, record))
        else:
            problems.add("line is not a JSON object", line=lineno, found=type(record).__name__)
    return list(dict.fromkeys(key for _, row in rows for key in row)), rows


def _csv_rows(lines: List[str], delimiter: str, problems) -> Tuple[List[str], List[Row]]:
    """CSV and TSV: the header is the first row. A line the csv module cannot read stops the file
    there, its problem raised with those found before it."""
    reader = csv.DictReader(io.StringIO("\n".join(lines)), delimiter=delimiter)
    header: List[str] = []
    rows = []
    try:
        header = list(reader.fieldnames or [])
        for row in reader:
            if None in row:
                problems.add("more cells than header columns", line=reader.line_num)
                continue
            rows.append((reader.line_num, row))
    except csv.Error as error:
        problems.add(**_csv_problem(str(error), max(reader.reader.line_num, 1), len(lines)))
        problems.raise_if_any(ConfigError)
    return header, rows


def _csv_problem(error: str, lineno: int, line_count: int) -> dict:
    """The located problem of a csv module error (its own words only for an unforeseen one); a file
    of one line (no LF) with a CR in it has lines ending in CR alone."""
    if "field larger than field limit" in error:
        return dict(
            message="a cell longer than the CSV reader's limit",
            line=lineno,
            expected=f"cells of at most {CELL_LIMIT:,} characters",
            found="a longer cell",
            hint="a quote that is never closed runs on to the end of the file: check the quotes "
            "of this line and the lines before it",
        )
    if "new-line character seen in unquoted field" in error:
        return dict(
            message="a line break (CR) inside an unquoted cell",
            line=lineno,
            expected="lines ending in LF or CR LF, a cell holding a line break quoted",
            found="lines ending in CR alone" if line_count == 1 else "a CR in an unquoted cell",
            hint="save the file with LF (Unix) or CR LF (Windows) line ends, and quote a cell "
            "that holds a line break",
        )
    return dict(message=f"not valid CSV ({error})", line=lineno)


def _missing_columns(columns: dict, header: List[str]) -> List[str]:
    wanted = [v for k, v in columns.items() if isinstance(v, str)]
    wanted += [c for k in ("texts", "annotations") for c in columns.get(k) or []]
    return [c for c in wanted if c not in header]


def _text(value) -> Optional[str]:
    """A cell as text: strings as they are, JSON numbers written out; empty and null are None."""
    if value is None or isinstance(value, bool):
        return None if value is None else str(value).lower()
    text = value if isinstance(value, str) else str(value)
    return text if text.strip() else None


def _score(row: dict, column: str, lineno: int, item_id: str, problems) -> Optional[float]:
    """The score cell as a finite float; None (a problem recorded) for anything else, a number
    beyond the float range (a JSON integer of hundreds of digits) included."""
    value = row.get(column)
    try:
        score = float(value) if not isinstance(value, bool) else math.nan
    except (TypeError, ValueError, OverflowError):
        score = math.nan
    if not math.isfinite(score):
        problems.add(
            f"the score in column {column!r} is not a finite number",
            line=lineno,
            item=item_id,
            expected="a number such as 3.8, at most about 1.8e308 in size",
            found=_shown(value),
        )
        return None
    return score


def _shown(value) -> str:
    """A cell for a message: its repr, cut to 60 characters with its length when longer."""
    text = repr(value)
    return text if len(text) <= 60 else f"{shorten(text)} ({len(text):,} characters)"


def majority(labels: List[str], label_set: Optional[LabelSet] = None) -> Optional[str]:
    """The label given by more than half of ``labels``, as ``label_set`` writes it; None when no label
    has that many. Votes are counted by label: texts naming one label of the set (``2.0`` and ``2``,
    an alias and its label) are one label; a text naming none (every text, without a set) counts
    as itself once normalised (``labels.label_key``) and, when it wins, is returned as first written
    (gold's check then refuses it)."""
    if not labels:
        return None
    votes = [_vote(label, label_set) for label in labels]
    vote, count = Counter(votes).most_common(1)[0]
    if 2 * count <= len(labels):
        return None
    named, key = vote
    return label_set.labels[key] if named else labels[votes.index(vote)]


def _vote(label: str, label_set: Optional[LabelSet]) -> Tuple[bool, object]:
    """(True, code) for a text naming a label of ``label_set``, else (False, its ``label_key``)."""
    code = label_set.code(label) if label_set is not None else -1
    return (True, code) if code >= 0 else (False, label_key(label))


def _annotators(columns: dict, row: dict) -> List[str]:
    """One name per annotations column: the column names, or the names the annotators column lists."""
    names = columns.get("annotations") or []
    if not columns.get("annotators"):
        return list(names)
    listed = [n.strip() for n in str(row.get(columns["annotators"]) or "").split(",")]
    return listed


def _annotations(columns: dict, row: dict, lineno: int, item_id: str, problems) -> Dict[str, list]:
    """``annotators`` and ``annotations`` of the row (empty cells left out), or {} without any."""
    cells = [_text(row.get(c)) for c in columns.get("annotations") or []]
    names = _annotators(columns, row)
    problem = _names_problem(names, len(cells))
    if problem:
        problems.add(
            problem,
            line=lineno,
            item=item_id,
            expected=f"{len(cells)} different comma-separated names",
            found=repr(row.get(columns["annotators"]))[:80],
        )
        return {}
    given = [(name, cell) for name, cell in zip(names, cells) if cell is not None]
    if not given:
        return {}
    return {"annotators": [n for n, _ in given], "annotations": [c for _, c in given]}


def _names_problem(names: List[str], cells: int) -> str:
    """Why a row's annotator names do not fit its annotations cells ('' when they do)."""
    if len(names) != cells:
        return "the annotators column does not name one annotator per annotations column"
    if len(set(names)) != len(names):
        return "the annotators column names an annotator twice"
    return ""


def _item(source: dict, row: dict, lineno: int, problems, labels) -> Optional[dict]:
    """The kit's item of one row (None when its id or score is refused); ``labels``: the tracks'
    label set, in which the annotations' majority is taken."""
    columns = source["columns"]
    item_id = _text(row.get(columns["id"]))
    if item_id is None:
        problems.add("empty id", line=lineno, hint=f"every row needs a value in {columns['id']!r}")
        return None
    texts = [_text(row.get(c)) or "" for c in columns["texts"]]
    item: dict = {"id": item_id, "texts": texts}
    for field in ("lang", "genre"):
        value = _text(row.get(columns[field])) if columns.get(field) else source.get(field)
        if value is not None:
            item[field] = value
    item.update(_annotations(columns, row, lineno, item_id, problems))
    if columns.get("score"):
        score = _score(row, columns["score"], lineno, item_id, problems)
        if score is None:
            return None
        item["score"] = score
    if columns.get("label"):
        item["label"] = _text(row.get(columns["label"]))
    elif "annotations" in item:
        item["label"] = majority(item["annotations"], labels)
    return item


def _kept(row: dict, item: dict, where: dict) -> bool:
    """``where`` on one row: a column of the file, else a field of the kit's item."""
    for key, wanted in where.items():
        value = row[key] if key in row else item.get(key)
        allowed = wanted if isinstance(wanted, list) else [wanted]
        if _text(value) not in allowed:
            return False
    return True


def _check_where_keys(where: dict, header: List[str], path: Path) -> None:
    fields = ("id", "lang", "genre", "label", "score")
    unknown = [k for k in where if k not in header and k not in fields]
    if unknown:
        raise ConfigError.single(
            str(path),
            f"'where' names no column of the file: {', '.join(map(repr, unknown))}",
            expected="one of " + ", ".join(header),
        )


def read_table(source: dict, path: Path, labels: Optional[LabelSet] = None) -> List[dict]:
    """The items of one table file, ``where`` applied; duplicate ids and bad cells are problems;
    ``labels``: the label set of the dataset's tracks (see ``majority``)."""
    fmt = _format(source, path)
    problems = ProblemCollector(str(path))
    unique = UniqueItems(problems)
    where = source.get("where") or {}
    header, rows = _rows(path, fmt, problems)
    if rows:
        _check_header(source["columns"], header, path)
        _check_where_keys(where, header, path)
    for lineno, row in rows:
        item = _item(source, row, lineno, problems, labels)
        if item is not None and _kept(row, item, where):
            unique.add(item, lineno)
    if problems:
        raise PartlyRead(problems.problems, problems.omitted, unique.items)
    return unique.items


def _check_header(columns: dict, header: List[str], path: Path) -> None:
    missing = _missing_columns(columns, header)
    if missing:
        raise ConfigError.single(
            str(path),
            "the table has no column " + ", ".join(map(repr, missing)),
            expected="columns among " + ", ".join(map(repr, header)),
            hint="correct the dataset's 'columns' to the file's header",
        )


def load_split(source: dict, root: Path, split: str, labels: Optional[LabelSet]) -> List[dict]:
    """The items of ``split`` (the whole file when the dataset cuts it with ``split``); ``labels``:
    the label set of the dataset's tracks, None when they have none."""
    path = Path(root) / _file(source, split)
    if not path.is_file():
        raise ConfigError.single(str(path), "the table file is missing")
    return read_table(source, path, labels)
