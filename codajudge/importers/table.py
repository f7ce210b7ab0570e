"""An organiser's own table: CSV, TSV, JSON lines or one JSON document, read without writing code.

Options (see ``bundle/schema.py`` and ``docs/edition-config.md``):

- ``path``: one file holding every item (cut into splits with the dataset's ``split`` option), or
  per split ``splits: {train: {path: ...}, dev: {path: ...}, test: {path: ...}}``; a split the
  config does not give has no items (only train may be left out);
- ``format``: ``csv`` | ``tsv`` | ``jsonl`` | ``json`` (default: from the suffix ``.csv``,
  ``.tsv``, ``.jsonl``/``.json``); CSV and TSV files have a header row naming the columns; the
  columns of JSON lines and of a JSON document (an object keyed by id, whose keys are the items'
  ids, or a list of records) are the keys of all its records. A file that reads badly in its
  format and looks like another form is refused once, naming that form and the option to set;
- ``columns``: the kit's fields -> the file's columns: ``id``, ``texts: [col, col]``, ``score``,
  ``label``, ``annotations: [col, ...]`` (one column per annotator; the column names are the
  annotators' unless ``annotators`` names a column holding the names, comma-separated, one per
  annotations column) or ``annotations: {column: col, sep: ","}`` (one column holding each row's
  annotations, named by an ``annotators`` column, which may say its own ``sep`` alike, or a JSON
  object annotator -> label, whose keys name the annotators); a JSON
  list as an annotation is a multilabel annotation's labels (``[]``: none),
  ``distribution`` (a soft label, a JSON list or object label -> probability: soft-label tracks'
  gold), ``lang``, ``genre``;
- ``lang``, ``genre``: constants, for a file without such a column.

An empty annotation cell (or part) means that annotator did not label the item. Without a
``label`` column an item's label is its annotations' strict majority (more than half of the labels
given), counted by the label each text names in the label set of the dataset's tracks
(``majority``); an item without one has label null, shown to systems but not scored, as the kit
does for every release.
``where`` names the file's columns (or the kit's fields) and is applied to the rows here.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from collections import Counter
from pathlib import Path
from collections.abc import Callable, Iterator

from ..errors import ConfigError, PlacedProblems, ProblemCollector, counted, plural
from ..fields import ITEM_FIELDS, did_you_mean
from ..formats.items import parsed_json_lines
from ..formats.textfile import shorten
from ..formats.values import ValueProblem, add_problem, json_or_none, outside_label_set
from ..kinds.base import split_multilabel
from ..labels import LabelSet, label_key
from . import PartlyRead, SplitAbsent, none_kept, unique_items, where_keeps
from .semeval_sts import read_release_lines

WHERE = "datasets (importer table)"
SUFFIXES = {".csv": "csv", ".tsv": "tsv", ".jsonl": "jsonl", ".json": "jsonl"}
#: Each form of table (the ``format`` option), as messages name it.
FORMS = {
    "csv": "CSV (comma-separated cells under a header row)",
    "tsv": "TSV (tab-separated cells under a header row)",
    "jsonl": "JSON lines (one JSON object per line)",
    "json": "one JSON document (an object keyed by id, or a list of records)",
}
#: Other names of a form (the ``format`` option's hints): ``json`` is not JSON lines' closest.
FORM_SYNONYMS = {"ndjson": "jsonl", "jsonlines": "jsonl", "json-lines": "jsonl", "tab": "tsv"}

#: (line number, row): one record of the file, a mapping column -> value.
Row = tuple[int, dict]


def json_rows(lines: list[str], fmt: str, id_column: str, problems) -> tuple[list[str], list[Row]]:
    """JSON lines, or one JSON document (``_document_entries``; an object's keys are written to
    ``id_column``): the header is every record's keys, in the order first seen (a key may be absent
    from some records: its cell is then empty)."""
    if fmt == "jsonl":
        entries = ((lineno, None, value) for lineno, value in parsed_json_lines(lines, problems))
    else:
        entries = _document_entries("\n".join(lines), problems)
    rows = []
    for lineno, key, record in entries:
        if isinstance(record, dict):
            rows.append((lineno, record if key is None else {**record, id_column: key}))
        else:
            problems.add("a record is not a JSON object", line=lineno, found=type(record).__name__)
    return list(dict.fromkeys(key for _, row in rows for key in row)), rows


_SPACE = re.compile(r"[ \t\n\r]*")


def _document_entries(text: str, problems) -> Iterator[tuple[int, str | None, object]]:
    """(line, key or None, value) of each entry of one JSON document: an object keyed by id (the
    key is the item's id) or a list of records; a repeated key is an entry of its own. The line is
    that of the entry's value, found by decoding one entry after another. A document that is not
    valid JSON, or neither an object nor a list, has no entries (a problem added)."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        problems.add(f"not valid JSON ({error.msg})", line=error.lineno)
        return
    except (RecursionError, ValueError):  # what Python cannot read, said as for JSON lines
        next(parsed_json_lines([text], problems), None)
        return
    if not isinstance(document, (dict, list)):
        problems.add(
            "the file is not a JSON object or list",
            line=1,
            expected="an object keyed by id, or a list of records",
            found=type(document).__name__,
        )
        return
    decoder = json.JSONDecoder()
    at = _SPACE.match(text).end()
    keyed, line, counted = text[at] == "{", 1, 0
    at = _SPACE.match(text, at + 1).end()
    while text[at] not in "]}":
        key = None
        if keyed:
            key, at = decoder.raw_decode(text, at)
            at = _SPACE.match(text, _SPACE.match(text, at).end() + 1).end()  # past the colon
        line, counted = line + text.count("\n", counted, at), at
        value, at = decoder.raw_decode(text, at)
        yield line, key, value
        at = _SPACE.match(text, at).end()
        at = _SPACE.match(text, at + 1).end() if text[at] == "," else at


def _looks_like(lines: list[str]) -> str | None:
    """The form a table's first non-blank line shows: a JSON list, or an object not whole on its
    line (or of objects only, a document keyed by id), begins one document; a whole object is a
    line of JSON lines; else TSV when it holds a tab, CSV a comma. None when it shows none."""
    first = next((line.strip() for line in lines if line.strip()), "")
    if first.startswith("["):
        return "json"
    if first.startswith("{"):
        value = json_or_none(first)
        record = isinstance(value, dict) and not all(isinstance(v, dict) for v in value.values())
        return "jsonl" if record else "json"
    if "\t" in first:
        return "tsv"
    return "csv" if "," in first else None


def _refuse_other_form(source: dict, path: Path, fmt: str, lines: list[str]) -> None:
    """One problem in place of a file's many when it reads badly as ``fmt`` and looks like
    another form (a pretty-printed JSON document read as JSON lines, a TSV file read as CSV)."""
    form = _looks_like(lines)
    if form is None or form == fmt:
        return
    chosen = f"'format: {fmt}'" if source.get("format") else f"its suffix {path.suffix!r}"
    raise ConfigError.single(
        str(path),
        f"the table looks like {FORMS[form]}, but is read as {FORMS[fmt]} (by {chosen})",
        hint=f"set 'format: {form}' in the dataset",
    )


def _csv_rows(lines: list[str], delimiter: str, problems) -> tuple[list[str], list[Row]]:
    """CSV and TSV: the header is the first row. A line the csv module cannot read stops the file
    there, its problem raised with those found before it."""
    reader = csv.DictReader(io.StringIO("\n".join(lines)), delimiter=delimiter)
    rows = []
    try:
        header = list(reader.fieldnames or [])
        _refuse_repeated_columns(header, problems.file)
        for row in reader:
            if cells := _cells_unlike_header(row, len(header)):
                problems.add(**cells, line=reader.line_num)
                continue
            rows.append((reader.line_num, row))
    except csv.Error as error:
        problems.add(**_csv_problem(str(error), len(lines)), line=max(reader.reader.line_num, 1))
        raise ConfigError(problems.problems, problems.omitted)
    return header, rows


def _cells_unlike_header(row: dict, columns: int) -> dict | None:
    """The problem of a CSV row of more or fewer cells than its header's ``columns`` (the csv
    module puts extra cells under the key None, and None in each cell a short row lacks), counting
    both; None for a row of one cell per column."""
    extra, lacking = len(row.get(None, ())), sum(v is None for k, v in row.items() if k is not None)
    if not extra and not lacking:
        return None
    found = f"the row has {counted(columns + extra - lacking, 'cell')}, the header {columns}"
    said = dict(expected="one cell per header column", found=found)
    if extra:
        fix = "quote a cell holding the separator, drop the extra cells, or name their columns"
        return dict(message="more cells than header columns", **said, hint=fix)
    fix = "give the row its missing cells (an empty cell is nothing between two separators)"
    return dict(message="fewer cells than header columns", **said, hint=f"{fix}, or drop it")


def _refuse_repeated_columns(header: list[str], file: str) -> None:
    """A header naming a column twice is refused: the csv module would read the last of them,
    silently, and the kit would score gold from a column the organiser did not mean."""
    positions: dict[str, list[int]] = {}
    for k, name in enumerate(header, 1):
        positions.setdefault(name, []).append(k)
    repeated = {name: at for name, at in positions.items() if len(at) > 1}
    if repeated:
        found = "; ".join(
            f"{_column_name(name)} in columns {', '.join(map(str, at))}"
            for name, at in repeated.items()
        )
        raise ConfigError.single(
            file,
            f"the header row names {counted(len(repeated), 'column')} more than once",
            line=1,
            expected=f"{len(header)} different column names",
            found=found,
            hint="rename or drop one of each repeated column: the reader cannot tell which "
            "one is meant",
        )


def _column_name(name: str) -> str:
    """A header's column name for a message: in quotes, or said to be empty."""
    return repr(name) if name else "an empty column name"


def _csv_problem(error: str, line_count: int) -> dict:
    """The problem of a csv module error, its line aside (its own words only for an unforeseen
    one); a file of one line (no LF) with a CR in it has lines ending in CR alone."""
    if "field larger than field limit" in error:
        return dict(
            message="a cell longer than the CSV reader's limit",
            expected=f"cells of at most {csv.field_size_limit():,} characters",
            found="a longer cell",
            hint="a quote that is never closed runs on to the end of the file: check the quotes "
            "of this line and the lines before it",
        )
    if "new-line character seen in unquoted field" in error:
        return dict(
            message="a line break (CR) inside an unquoted cell",
            expected="lines ending in LF or CR LF, a cell holding a line break quoted",
            found="lines ending in CR alone" if line_count == 1 else "a CR in an unquoted cell",
            hint="save the file with LF (Unix) or CR LF (Windows) line ends, and quote a cell "
            "that holds a line break",
        )
    return dict(message=f"not valid CSV ({error})")


def _text(value) -> str | None:
    """A cell as text: strings as they are, JSON numbers written out; empty and null are None."""
    if isinstance(value, bool):
        return str(value).lower()
    text = "" if value is None else str(value)
    return text if text.strip() else None


def _score(row: dict, column: str) -> float:
    """The score cell as a finite float; a ValueProblem for anything else, a number beyond the
    float range (a JSON integer of hundreds of digits) included."""
    value = row.get(column)
    try:
        score = float(value) if not isinstance(value, bool) else math.nan
    except (TypeError, ValueError, OverflowError):
        score = math.nan
    if not math.isfinite(score):
        raise ValueProblem(
            f"the score in column {column!r} is not a finite number",
            expected="a number such as 3.8, at most about 1.8e308 in size",
            found="an empty cell" if _text(value) is None else _shown(value),
            hint="drop the row or fill its score: an item without gold is never scored",
        )
    return score


def _shown(value) -> str:
    """A cell for a message: its repr, cut to 60 characters with its length when longer."""
    text = repr(value)
    return text if len(text) <= 60 else f"{shorten(text)} ({len(text):,} characters)"


def majority(labels: list[str], label_set: LabelSet | None = None) -> str | None:
    """The label given by more than half of ``labels``, as ``label_set`` writes it; None when no label
    has that many. Votes are counted by label: texts naming one label of the set (``2.0`` and ``2``,
    an alias and its label) are one label; a text naming none (every text, without a set) counts
    as itself once normalised (``labels.label_key``) and, when it wins, is returned as first written
    (gold's check then refuses it)."""
    if not labels:
        return None
    # (True, code) for a text naming a label of the set, else (False, its ``label_key``)
    codes = label_set.codes(labels) if label_set is not None else [-1] * len(labels)
    votes = [(c >= 0, c if c >= 0 else label_key(text)) for text, c in zip(labels, codes)]
    vote, count = Counter(votes).most_common(1)[0]
    if 2 * count <= len(labels) or vote == (False, None):  # no majority, or of lists (multilabel)
        return None
    named, key = vote
    return label_set.labels[key] if named else labels[votes.index(vote)]


def _column_and_sep(spec) -> tuple[str, str]:
    """The column and separator of a list held in one column: its name (comma-separated) or
    ``{column: NAME, sep: SEP}`` (``sep`` default ``,``; the schema has checked it)."""
    return (spec, ",") if isinstance(spec, str) else (spec["column"], spec.get("sep", ","))


def _parts(row: dict, spec, read: Callable = lambda value: _text(value) or "") -> list:
    """The list one column holds (``_column_and_sep``): a JSON record's list, each entry as ``read``
    takes it (by default its text), or text cut at the separator, each part stripped."""
    column, sep = _column_and_sep(spec)
    cell = row.get(column)
    if isinstance(cell, list):
        return [read(value) for value in cell]
    text = _text(cell)
    return [] if text is None else [part.strip() for part in text.split(sep)]


def one_column_or(key: str, plain: str, is_plain: Callable[[object], bool]) -> Callable:
    """The schema's check (``fields.Field.check``) of the ``columns`` option ``key``: written
    ``plain`` (a value ``is_plain`` accepts) or as one column holding a list (``{column: NAME, sep:
    SEP}``, read by ``_parts``); a ``message|expected`` or None."""

    def check(value) -> str | None:
        # one column: ``{column: NAME, sep: SEP}`` (``sep`` optional), both non-empty text
        one_column = isinstance(value, dict) and set(value) <= {"column", "sep"}
        parts = (value.get("column"), value.get("sep", ",")) if one_column else (None,)
        if is_plain(value) or all(isinstance(v, str) and v != "" for v in parts):
            return None
        expected = f'{plain}, or {{column: NAME, sep: ","}}'
        return f"'{key}' is neither {plain} nor one column holding a list|{expected}"

    return check


def _annotations(columns: dict, row: dict, at: PlacedProblems) -> dict[str, list] | None:
    """``annotators`` and ``annotations`` of the row (empty cells left out), {} without any, None
    (a problem added) when the annotators column does not name them each once. The annotators
    are those the annotators column names, else the annotations columns' names; the annotations
    of one column holding a list are named by an annotators column only (or by an object's
    keys)."""
    spec = columns.get("annotations")
    keyed = _keyed_annotations(row, spec)
    if keyed is not None:  # a JSON object annotator -> label: its keys name the annotators
        names, cells = list(keyed), [_annotation(value) for value in keyed.values()]
    elif isinstance(spec, dict):  # None for an empty cell or part (not labelled)
        cells, names = [None if p == "" else p for p in _parts(row, spec, _annotation)], None
    else:
        names = spec or []
        cells = [_annotation(row.get(column)) for column in names]
    listed = columns.get("annotators")  # comma-separated unless it says its own ``sep``
    if listed is not None and keyed is not None:  # the object's keys, in the column's order
        return _keys_as_listed(_parts(row, listed), keyed, listed, at)
    names = _parts(row, listed) if listed is not None else names
    if listed is not None and (len(names) != len(cells) or len(set(names)) != len(names)):
        column, sep = _column_and_sep(listed)
        message, hint = _annotators_mismatch(spec, len(names), len(cells))
        expected = f"{len(cells)} different names separated by {sep!r}"
        at.add(message, expected=expected, found=repr(row.get(column))[:80], hint=hint)
        return None
    given = [k for k, cell in enumerate(cells) if cell is not None]
    named = {"annotators": [names[k] for k in given]} if names is not None else {}
    return {**named, "annotations": [cells[k] for k in given]} if given else {}


def _keyed_annotations(row: dict, spec) -> dict | None:
    """The cell of one annotations column holding a JSON object annotator -> label (LeWiDi 2025's
    ``annotations``, a JSON record's own or written as JSON text), else None."""
    if not isinstance(spec, dict):
        return None
    cell = row.get(spec["column"])
    value = json_or_none(cell) if isinstance(cell, str) else cell
    return value if isinstance(value, dict) else None


def _keys_as_listed(names: list, keyed: dict, listed, at: PlacedProblems) -> dict[str, list] | None:
    """An annotations object read with an annotators column too: the column must list the
    object's keys, each once (in any order, the one given); a problem and None when it does not."""
    if sorted(names) != sorted(keyed) or len(set(names)) != len(names):
        column, sep = _column_and_sep(listed)
        at.add(
            f"the annotators column does not list the {counted(len(keyed), 'key')} of the "
            "annotations object, each once",
            expected=f"the object's keys {', '.join(map(repr, keyed))}, separated by {sep!r}",
            found=f"{counted(len(names), 'name')}: {shorten(repr(sep.join(names)), 80)}",
            hint=f"list in {column!r} the annotators the annotations object names, or drop the "
            "'annotators' option: the object's keys name them",
        )
        return None
    given = [name for name in names if _annotation(keyed[name]) is not None]
    labels = [_annotation(keyed[name]) for name in given]
    return {"annotators": given, "annotations": labels} if given else {}


def _annotators_mismatch(spec, n_names: int, n_values: int) -> tuple[str, str]:
    """(message, hint) of a row whose annotators column does not name each of its annotations once
    (``spec``: the ``annotations`` option, columns or one column holding a list)."""
    if n_names == n_values:
        return "the annotators column names an annotator twice", "name each annotator once"
    unlabelled = "for an annotator who did not label the item"
    if isinstance(spec, dict):
        column, sep = _column_and_sep(spec)
        values = f"{counted(n_values, 'value')} in annotations column {column!r}"
        fix = f"as many values as annotators, in their order, separated by {sep!r}, with an "
        fix += f"empty value {unlabelled}"
    else:
        values = counted(n_values, "annotations column")
        fix = f"one name per annotations column, in their order, with an empty cell {unlabelled}"
    message = f"the annotators column names {counted(n_names, 'annotator')} for {values}"
    return message, f"give {fix}"


def _annotation(value) -> str | list[str] | None:
    """One annotation: a JSON list (a multilabel annotation; [] chooses no label) as its labels'
    texts, any other value as ``_text`` reads it (None: not labelled)."""
    return [_text(label) or "" for label in value] if isinstance(value, list) else _text(value)


def _item(source: dict, row: dict, at: PlacedProblems, tracks) -> dict | None:
    """The kit's item of one row (None when its id, score, soft label or an annotation is refused);
    ``tracks``: the dataset's tracks with labels, the first's label set the one the annotations'
    majority is taken in."""
    columns = source["columns"]
    item_id = _item_id(row, columns["id"], at)
    if item_id is None:
        return None
    at = at._replace(item=item_id)
    item: dict = {"id": item_id, "texts": [_text(row.get(c)) or "" for c in columns["texts"]]}
    for field in ("lang", "genre"):
        value = _text(row.get(columns[field])) if columns.get(field) else source.get(field)
        if value is not None:
            item[field] = value
    annotations = _annotations(columns, row, at)  # None: refused, not said again unlabelled
    item.update(annotations or {})
    if (
        annotations is None
        or _unlabelled(columns, row, item, at)
        or _outside_label_sets(item.get("annotations", []), tracks, at)
    ):
        return None
    try:  # a cell the item cannot be made without
        if columns.get("score"):
            item["score"] = _score(row, columns["score"])
        if columns.get("distribution"):
            item.update(_soft_label(row, columns["distribution"]))
    except ValueProblem as problem:
        add_problem(at, problem)
        return None
    _name_labels(item, row, columns, tracks)
    return item


def _name_labels(item: dict, row: dict, columns: dict, tracks) -> None:
    """The item's annotations as the first of ``tracks`` names them (``_as_named``) and its
    ``label``: the label column's, else the annotations' majority."""
    if tracks and "annotations" in item:
        item["annotations"] = [_as_named(a, tracks[0]) for a in item["annotations"]]
    if columns.get("label"):
        item["label"] = _text(row.get(columns["label"]))
    elif "annotations" in item:
        item["label"] = majority(item["annotations"], tracks[0].label_set if tracks else None)


def _as_named(annotation, track):
    """An annotation as ``track``'s label set names its labels (``1.0`` for label ``"1"`` is
    ``"1"``; a multilabel one part by part), so that every reader of the items (the leak probe,
    the gold) sees one label, however the table wrote it; a part naming no label is kept as is."""
    parts = split_multilabel(annotation) if track.scale == "multilabel" else [annotation]
    codes = track.label_set.codes(parts)
    named = [track.labels[c] if c >= 0 else p for p, c in zip(parts, codes)]
    if isinstance(annotation, list):
        return named
    return ",".join(named) if track.scale == "multilabel" else named[0]


def _item_id(row: dict, column: str, at: PlacedProblems) -> str | None:
    """The row's id; None, a problem added, when it is empty or has a space before or after it
    (``p43 `` beside ``p43``: two ids to the reader, one to the eye and to the gold files)."""
    item_id = _text(row.get(column))
    if item_id is None:
        at.add("empty id", hint=f"every row needs a value in {column!r}")
    elif item_id != item_id.strip():
        at.add(
            f"an id with a space before or after it in column {column!r}",
            expected="an id without leading or trailing spaces",
            found=repr(item_id),
            hint="strip the spaces around the id",
        )
        return None
    return item_id


def _unlabelled(columns: dict, row: dict, item: dict, at: PlacedProblems) -> bool:
    """A problem (True) for a row of a dataset with ``annotations`` that no annotator labelled and
    whose ``label`` and ``distribution`` columns, where the dataset has them, are empty too: its
    item would have no gold on any track, shown to systems and never scored, as a row without a
    score is refused."""
    gold = [row.get(columns[key]) for key in ("label", "distribution") if columns.get(key)]
    if "annotations" not in columns or "annotations" in item or any(map(_text, gold)):
        return False
    spec = columns["annotations"]
    cells = [_column_and_sep(spec)[0]] if isinstance(spec, dict) else spec
    names = ", ".join(map(repr, cells))
    at.add(
        "no annotator labelled the item",
        expected=f"a label in at least one of the annotations columns {names}",
        found=f"{counted(len(cells), 'empty cell')}",
        hint="drop the row, or fill its annotations: an item without gold is never scored",
    )
    return True


def _outside_label_sets(annotations: list, tracks, at: PlacedProblems) -> bool:
    """A problem per label set of the ``tracks`` reading the row (naming those tracks) that one of
    its ``annotations`` is outside: the first such annotation, and the label it probably meant
    (``outside_label_set``, else the closest label); True when there is one. Every annotation is
    checked, so that a misspelt one cannot hide in a majority (docs/labels.md); on multilabel
    tracks each label of an annotation, split as the kit splits them (``split_multilabel``), so
    that the gold (``gold._annotation_values``) need not refuse it again, without the line."""
    sets: dict[tuple, list] = {}  # label set and scale -> the tracks reading the annotations so
    for track in tracks:
        key = (track.labels, tuple(track.label_set.aliases.items()), track.scale == "multilabel")
        sets.setdefault(key, []).append(track)
    refused = False
    for (*_, multilabel), readers in sets.items():
        values = (
            [p for a in annotations for p in split_multilabel(a)] if multilabel else annotations
        )
        codes = readers[0].label_set.codes(values)
        if outside := [value for value, code in zip(values, codes) if code < 0]:
            close = did_you_mean(str(outside[0]).strip(), readers[0].labels)
            problem = outside_label_set(outside[0], readers[0], _shown(outside[0]), close)
            names = ", ".join(repr(t.id) for t in readers)
            problem.message = (
                f"annotation outside the label set of {plural(len(readers), 'track')} {names}"
            )
            add_problem(at, problem)
            refused = True
    return refused


def _soft_label(row: dict, column: str) -> dict:
    """The soft-label cell as the item's ``distribution`` (soft-label tracks' gold): a JSON list in
    the tracks' label order or an object label -> probability, a JSON record's own or written as
    JSON text; none for an empty cell, a ValueProblem for any other."""
    cell = row.get(column)
    value = json_or_none(cell) if isinstance(cell, str) else cell  # the kit's JSON rules
    if isinstance(value, (list, dict)):
        return {"distribution": value}
    if _text(cell) is None:
        return {}
    python = isinstance(cell, str) and "'" in cell
    raise ValueProblem(
        f"the soft label in column {column!r} is not a JSON list or object",
        expected='a list in the labels\' order such as [0.25, 0.75], or {"0": 0.25, "1": 0.75}',
        found=_shown(cell),
        hint="write it as JSON, with double quotes" if python else None,
    )


def load_split(source: dict, root: Path, split: str, tracks=()) -> list[dict]:
    """The items of ``split``'s file (the whole file when the dataset cuts it with ``split``),
    ``where`` applied; duplicate ids and bad cells are problems; ``tracks``: the dataset's tracks
    with labels, whose label sets every annotation is checked against, the first's the one a
    majority is taken in (see ``majority``)."""
    if not isinstance(source.get("path"), str):  # ``path``: one file for all, or the split's own
        raise SplitAbsent.single(
            WHERE,
            f"no file for the {split} split",
            expected="'path' (one file, cut with 'split') or splits: {%s: {path: FILE}}" % split,
        )
    path = Path(root) / source["path"]
    problems = ProblemCollector(str(path))
    where = source.get("where") or {}
    compared: list[dict] = []  # the values ``where`` compares, of every row made an item

    def kept_item(row: dict, at: PlacedProblems) -> dict | None:
        item = _item(source, row, at, tracks)
        if item is None:
            return None
        # ``where`` on one row: a column of the file, else a field of the item
        compared.append({key: _text(row[key] if key in row else item.get(key)) for key in where})
        return item if where_keeps(compared[-1], where) else None

    rows = _read_rows(source, path, problems)
    hint = _long_format_hint(rows, source["columns"])
    _refuse_unnamed(rows, source["columns"], str(path), hint)
    items = unique_items(rows, kept_item, problems, hint)
    if problems:
        raise PartlyRead(problems.problems, problems.omitted, items)
    if compared and not items:
        raise none_kept(where, compared, source["path"], WHERE)
    return items


def _refuse_unnamed(rows: list[Row], columns: dict, file: str, long_format: str | None) -> None:
    """Refuse once, at its first row, a table whose one annotations column (``annotations:
    {column: ...}``) holds text or lists that no ``annotators`` column names (only a JSON object's
    keys name them), counting its rows so, with the one-row-per-item fix when the ids repeat."""
    spec = columns.get("annotations")
    if not isinstance(spec, dict) or columns.get("annotators") is not None:
        return
    unnamed = [
        (line, row.get(spec["column"]))
        for line, row in rows
        if _text(row.get(spec["column"])) is not None and _keyed_annotations(row, spec) is None
    ]
    if unnamed:
        line, cell = unnamed[0]
        raise ConfigError.single(
            file,
            f"annotations in one column {spec['column']!r} that no 'annotators' column names, on "
            f"{counted(len(unnamed), 'row')} of {len(rows)}",
            line=line,
            expected="an 'annotators' column, or a JSON object annotator -> label in each cell",
            found=repr(cell)[:80],
            hint=long_format
            or "add `annotators: COLUMN` to the dataset's 'columns', or write each cell as a JSON "
            "object annotator -> label",
        )


def _long_format_hint(rows: list[Row], columns: dict) -> str | None:
    """The fix of ids repeated by a table of one row per annotation (an annotation tool's export):
    the rows of an id agree on its id and texts and differ only in other columns (an annotator's
    and a label's: two columns at least, or the one the dataset reads annotations from), or the
    header names an annotator column; None for any other table. Its pandas line joins the cells as
    texts (``pd.read_csv`` reads labels 0/1 as integers); without an annotator column it numbers
    each item's rows first, as its annotators."""
    mine = [columns["id"], *columns["texts"]]
    first: dict = {}
    differ: dict[str, None] = {}  # the columns the rows of one id differ in, in the header's order
    for _, row in rows:
        seen = first.setdefault(tuple(row.get(c) for c in mine), row)
        differ.update(dict.fromkeys(k for k in row if seen is not row and row[k] != seen[k]))
    annotator = [k for k in (rows[0][1] if rows else {}) if "annotator" in str(k).lower()]
    alone = len(differ) == 1 and not annotator and _annotations_columns(columns) >= differ.keys()
    spread = list(differ) if len(differ) > 1 or alone else annotator
    if not spread:
        return None
    keys = ", ".join(map(repr, mine))
    numbered = (
        f"df['annotator'] = 'a' + df.groupby([{keys}]).cumcount().astype(str) (each item's rows "
        "numbered: no annotator column), then "
        if alone
        else ""
    )
    joined = ", ".join(map(repr, ["annotator", *spread] if alone else spread))
    return (
        f"the rows of an id differ only in {', '.join(map(repr, spread))}: one row per annotation. "
        "Make one row per item, its annotators in one column and their annotations in another "
        "('annotators' and 'annotations: {column: ...}' in 'columns', docs/edition-config.md), "
        f"e.g. with pandas: {numbered}df.groupby([{keys}], sort=False)[[{joined}]]"
        ".agg(lambda s: ','.join(map(str, s))).reset_index()"
    )


def _annotations_columns(columns: dict) -> set:
    """The columns the dataset reads annotations from (none without ``annotations``)."""
    spec = columns.get("annotations") or []
    return {_column_and_sep(spec)[0]} if isinstance(spec, dict) else set(spec)


def _read_rows(source: dict, path: Path, problems) -> list[Row]:
    """(line number, row) of every record of the file in its format, its columns
    checked; a file that reads badly so and looks like another form is refused once
    (``_refuse_other_form``)."""
    fmt = source.get("format") or SUFFIXES.get(path.suffix.lower())
    if not fmt:
        raise ConfigError.single(
            str(path),
            "cannot tell the table's format from its suffix",
            expected=" | ".join(sorted(SUFFIXES)),
            found=repr(path.suffix),
            hint="name it with 'format: csv' (or tsv, jsonl, json) in the dataset",
        )
    lines = read_release_lines(path)
    try:
        if fmt in ("jsonl", "json"):  # an object keyed by id gives its keys to the id column
            header, rows = json_rows(lines, fmt, source["columns"]["id"], problems)
        else:
            header, rows = _csv_rows(lines, "\t" if fmt == "tsv" else ",", problems)
        if rows:
            _check_header(source, header, path)
    except ConfigError:
        _refuse_other_form(source, path, fmt, lines)
        raise
    if problems:
        _refuse_other_form(source, path, fmt, lines)
    return rows


def _check_header(source: dict, header: list[str], path: Path) -> None:
    """Every column ``columns`` names is in the file's ``header``, and every key of ``where`` is a
    column of the file or a field of the kit's item the dataset gives (``_given``)."""
    columns = source["columns"]
    wanted = [v for v in columns.values() if isinstance(v, str)]
    wanted += [spec["column"] for spec in columns.values() if isinstance(spec, dict)]
    wanted += [c for v in columns.values() if isinstance(v, list) for c in v]
    missing = [c for c in wanted if c not in header]
    if missing:
        raise ConfigError.single(
            str(path),
            "the table has no column " + ", ".join(map(repr, missing)),
            expected="columns among " + ", ".join(map(repr, header)),
            hint="correct the dataset's 'columns' to the file's header",
        )
    unknown = [k for k in source.get("where") or {} if k not in header and not _given(source, k)]
    if unknown:
        given = ""
        for field in [k for k in unknown if k in ("lang", "genre")][:1]:
            given = f"; or give every item its {field}: map its column (columns: {{{field}: "
            given += f"COLUMN}}) or set it on the dataset ({field}: VALUE)"
        raise ConfigError.single(
            str(path),
            f"'where' names a field no item has, nor any column of the file: "
            f"{', '.join(map(repr, unknown))}",
            expected=f"a column among {', '.join(map(repr, header))}",
            hint="name a column of the file" + given,
        )


def _given(source: dict, field: str) -> bool:
    """Whether the dataset gives its items the field ``field`` of the kit's item (``ITEM_FIELDS``):
    by a column of ``columns`` (a ``label`` by the annotations too), or as a constant (lang,
    genre)."""
    by_annotations = field == "label" and "annotations" in source["columns"]
    constant = field in ("lang", "genre") and source.get(field) is not None
    return field in ITEM_FIELDS and (field in source["columns"] or by_annotations or constant)


def item_lines(source: dict, root: Path, ids: list[str]) -> dict[str, int]:
    """The line of each of ``ids`` in the table of ``source`` (where the id is first seen), read
    again for a data check's refusal (a repeat, a score out of range); none for a file that cannot
    be read again."""
    path = Path(root) / source["path"]
    try:
        rows = _read_rows(source, path, ProblemCollector(str(path)))
    except (ConfigError, OSError):
        return {}
    read = ((_text(row.get(source["columns"]["id"])), n) for n, row in reversed(rows))
    return {item_id: n for item_id, n in read if item_id in ids}
