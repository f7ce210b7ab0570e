"""Reading one track's submission file (``ID<TAB>VALUE`` lines or, for similarity, SemEval positional;
the layout is ``layout``'s) and aligning it with the track's items. The file is read once, line by
line, each value by its track's value type (``READERS``: ``values``, ``soft``, ``perspectivist``),
which accepts it or names its problem."""

from __future__ import annotations

import json
import re
from contextlib import suppress
from dataclasses import dataclass
from functools import cache
from itertools import chain
from pathlib import Path
from typing import NamedTuple
from collections.abc import Sequence

import numpy as np

from .. import kinds
from ..kinds.base import ANNOTATOR_ROW, DISTRIBUTION, LABEL, SCORE
from ..kinds.perspectivist import OFFICIAL_2025
from ..errors import ProblemCollector, SubmissionError, counted
from ..tracks import Track
from ..untrusted import read_head
from .annotators import RowFit, per_annotator
from .chaosnli import is_chaosnli_document, misshapen_records, pretty_records, read_chaosnli
from .coverage import (
    IDS_LOOKED_UP,
    LINE_NUMBERS_WORDS,
    OtherPhases,
    missing_items,
    numbered_ids_hint,
    prefixed_ids_hint,
    written_ids_hint,
    repeated_value,
    unknown_id,
    with_phase_hint,
)
from .index_hints import labels_as_indices_hint
from .items import duplicate_id
from .layout import (
    JSON_ARRAY_NOTE,
    JSON_LINES_NOTE,
    Columns,
    comments_note,
    id_tab_value,
    layout_of,
    shuffled_ids_note,
    with_r_quote_fix,
)
from .notes import NO_LABEL, ReadNote, note_warnings
from .perspectivist import annotator_entries, annotator_values, as_annotator_array
from .perspectivist import empty_label_sets
from .results_tsv import (
    NOTE as RESULTS_NOTE,
    is_results_row,
    reads_results_layout,
    refuse_other_layout,
    results_rows,
)
from .soft import parse_soft
from .textfile import MAX_LINE_BYTES, NO_QUOTES, Rule, read_texts, refuse_blank_line, safe_display
from .textfile import shorten
from .values import (
    COMMA_DECIMAL,
    ValueProblem,
    add_problem,
    is_decimal,
    json_or_none,
    most_entries,
    parse_json,
    parse_label,
    parse_number,
    parse_numbers,
    show,
)

RELEASE_LINES_NOTE = (
    "the file has the release's {} lines: the first {}, which have gold, are scored and the "
    "others ignored, as the official scorer reads them"
)
#: A line's first field, then the separator written where a tab should be: a comma (CSV), a
#: semicolon (the CSV Excel writes in locales of a decimal comma) or spaces.
SEPARATOR = re.compile(r"[^\s,;\[{\"']+( *[,;]|[ \u3000]+)\S")
#: How a line without a tab, its fields separated otherwise (CSV), is fixed.
TAB_FIX = "write a tab between the id and the value (df.to_csv(path, sep='\\t', index=False))"
SEMICOLON_HINT = f"the line looks semicolon-separated (Excel's CSV in many locales): {TAB_FIX}"
KEYED_BY_ID = (
    "the line is one JSON object keyed by the track's ids (json.dump of a dict): write one line per "
    'item, ID<TAB>VALUE, or JSON lines {"id": ID, "label": VALUE}'
)
DECIMAL_COMMA_HINT = "; its numbers have a decimal comma: use a dot as the decimal separator"
CSV_HINT = f"the line looks comma-separated (CSV): {TAB_FIX}"
SPACES_HINT = "the id and the value look separated by spaces: write one tab between them"
#: A first field in double quotes before a separator (csv.QUOTE_ALL, R's write.csv and write.csv2).
QUOTED_FIELD = re.compile(r'"[^"\t]*"(?= *[,;]| )')
QUOTED_FIELDS_HINT = (
    f"; its fields are in quotes (csv.QUOTE_ALL, R's write.csv): write them without quotes "
    f"({NO_QUOTES}; in R, write.table(..., quote=FALSE))"
)
#: The hint for a line of numbers only, apart by spaces, the first no id (numpy.savetxt of a
#: matrix).
SAVETXT_HINT = (
    "the line is {} numbers separated by spaces and no id column (numpy.savetxt?): write each "
    "item's id, a tab, then its value in the track's layout, a list as JSON: "
    'f"{{id}}\\t{{json.dumps(row.tolist())}}\\n"'
)
COMMENT_HINT = (
    "a comment line: only SemEval's positional score files may hold comments ('#'); remove it"
)
RESULTS_LAYOUT_GIVEN = (
    "the file looks like the LeWiDi 2023 layout (hard label<TAB>p0<TAB>p1 rows, no id), which "
    "this track does not read"
)
#: (formatted with such a line of the track: every hint naming a line shows one)
ID_COLUMN_HINT = (
    "write one line per item: its id (the 'id' field of the input file), a tab and its value, as "
    "in {}"
)
#: The hint on a first column of whole numbers that are no ids of the track (ids are no numbers).
NUMBERS_HINT = (
    "the first column holds whole numbers (line numbers, ranks), not the track's ids; "
    + ID_COLUMN_HINT
)
#: The hint on a first column of the file's line numbers, counted from 0 or 1, in order.
LINE_NUMBERS_HINT = (
    LINE_NUMBERS_WORDS + " ({!r} to {!r}, in order: a DataFrame's index or a counter), not the "
    "track's ids; " + ID_COLUMN_HINT
)
#: A value with a tab in it: the line has more columns than the id and the value.
EXTRA_COLUMNS_HINT = (
    "the line has {} tab-separated columns: write only the id and the value, ID<TAB>VALUE "
    "(df[[id_column, value_column]].to_csv(path, sep='\\t', index=False))"
)


@dataclass(frozen=True)
class ItemKeys:
    """What a file is read against: the track's item ids in order, each item's annotators and, per item,
    the release's own annotators list when it repeats names (else None; empty when no item has one).
    ``elsewhere``: the hints naming the other phase a file is of, by its ids or its number of
    lines (``coverage.OtherPhases``), or None; ``tracks``: ``other_track_hint``'s."""

    ids: list[str]
    annotators: Sequence[Sequence[str]] = ()
    listed: Sequence[Sequence[str] | None] = ()
    elsewhere: OtherPhases | None = None
    #: The edition's tracks, to name the track whose file a file of another kind's values seems to be.
    tracks: Sequence[Track] = ()


class Prediction(NamedTuple):
    """A submission's values for one track, aligned with ``ItemKeys.ids``, and how it was read."""

    values: object
    warnings: list[str]
    format: str  # "id", "positional" or "chaosnli"


class Rows(NamedTuple):
    """A file's rows: each row's item index, line number, and its line (or value) with the offset its
    value starts at (the value is read in place: a copy of every value would cost the file again)."""

    item: Sequence[int]
    line: Sequence[int]
    texts: Sequence[str]
    starts: Sequence[int] = ()  # none: each text is the value
    scores: Sequence[float] | None = None  # the values as numbers, where the layout read them
    #: the file's JSON layout where it has one ("one JSON array of records", "JSON lines"): its
    #: values were JSON, a string written as its text
    json: str = ""

    def text(self, j: int) -> str:
        """Row j's value text."""
        return self.texts[j][self.starts[j] :] if self.starts else self.texts[j]


def read_prediction(path: Path, display: str, track: Track, keys: ItemKeys) -> Prediction:
    """Parse ``path`` for ``track`` and align it with ``keys.ids``; every problem is located and
    explained, and a refused file of another phase's ids is named as that phase's."""
    display = safe_display(display)
    problems = ProblemCollector(display)
    if is_chaosnli_document(path):  # one document for two tracks, its uids in any order
        values, warnings = read_chaosnli(
            path, display, track, keys.ids, keys.elsewhere, keys.tracks
        )
        return Prediction(values, warnings, "chaosnli")
    lines = None
    try:
        lines = read_texts(path, display, len(keys.ids), track.id)
        if reads_results_layout(track, lines):  # another task's layout the track declares
            *columns, swapped = results_rows(track, lines, keys.ids, problems, keys.elsewhere)
            rows = Rows(*columns)
            layout, warnings = "positional", [RESULTS_NOTE, *filter(None, [swapped])]
        else:
            refuse_other_layout(track, display, lines)
            rows, layout, warnings = _table_rows(lines, track, keys, problems)
        values, notes = _values(track, keys, rows, problems)
        problems.raise_if_any()
    except SubmissionError as error:
        error = pretty_records(error, path, track, keys.ids, keys.elsewhere)
        error = with_r_quote_fix(error, lines.texts[0] if lines and lines.texts else None)
        raise with_phase_hint(error, path, keys.elsewhere, keys.ids) from None
    if layout == "positional" and keys.elsewhere:  # no ids: another phase's rows would fit
        warnings += filter(None, [keys.elsewhere.same_count_note(len(keys.ids))])
    return Prediction(values, warnings + note_warnings(notes), layout)


def _table_rows(lines, track: Track, keys: ItemKeys, problems: ProblemCollector):
    """(rows, layout, warnings) of a file of ``ID<TAB>VALUE`` lines or, for a positional track,
    SemEval positional ones; the layout is "id" or "positional"."""
    display = problems.file
    columns = Columns(lines, track, keys.ids, display, lambda text: _is_value(track, keys, text))
    layout = layout_of(columns) if track.positional and not columns.json_lines else "id"
    read_rows = _positional_rows if layout == "positional" else _id_rows
    rows = read_rows(columns, keys, problems)
    if columns.json_lines:
        rows = rows._replace(
            json="one JSON array of records" if columns.records_array else "JSON lines"
        )
    header = columns.header if layout == "id" else columns.positional.header
    release = layout == "positional" and len(columns.positional.firsts) > len(keys.ids)
    warnings = [  # each that applies, in this order
        columns.comments and comments_note(len(columns.comments)),
        header and "the first line was read as a header and skipped",
        columns.json_lines and (JSON_ARRAY_NOTE if columns.records_array else JSON_LINES_NOTE),
        release and RELEASE_LINES_NOTE.format(track.release_lines, len(keys.ids)),
        layout == "id" and track.positional and shuffled_ids_note(columns),
    ]
    return rows, layout, list(filter(None, warnings))


def _is_value(track: Track, keys: ItemKeys, text: str) -> bool:
    """Whether ``text`` is a value of the track by the track's own rule (``_values`` of one row); a
    perspectivist row is one when it is a JSON list or object (its length is its item's: a header has none)."""
    if kinds.of(track).value_type is ANNOTATOR_ROW:
        return isinstance(json_or_none(text), (list, dict))
    problems = ProblemCollector("")
    _values(track, keys, Rows([0], [1], [text]), problems)
    return not problems


def _positional_rows(columns: Columns, keys: ItemKeys, problems: ProblemCollector) -> Rows:
    """The scores of a SemEval positional file, one per line in item order (a confidence must be a number)."""
    header, fields, split, scores = columns.positional
    every, n = columns.numbers, len(keys.ids)
    numbers = every[header:]  # the header's line stays in the blank-line check
    release = columns.track.release_lines if (columns.track.release_lines or 0) > n else None
    lines = every
    if columns.comments:  # a comment line before the last line is a line too
        lines = sorted([*every, *(k for k in columns.comments if k < every[-1])])
    # first: a blank line is the cause of a line count one short, and is named at its line
    refuse_blank_line(problems.file, lines, "positional")
    if len(fields) not in (n, release):
        expected = f"{n} lines (one score per pair, in input order)"
        if release:
            expected += f", or the release's {release} lines, of which the first {n} are scored"
        other_phase = keys.elsewhere and (
            keys.elsewhere.of_line_count(len(fields))
            or keys.elsewhere.left_out_lines(len(fields), n)
        )
        by_id = "or write ID<TAB>SCORE lines, which are matched by id"
        raise SubmissionError.single(
            problems.file,
            "wrong number of lines for the SemEval positional format",
            expected=expected,
            found=counted(len(fields), "non-blank line")
            + (" besides comments" if columns.comments else ""),
            hint="; ".join(filter(None, (other_phase, by_id))),
        )
    # the release's lines: read on the first n, as the official scorer reads them
    for j, line in split.items():
        if j < n and len(line) == 2 and not is_decimal(line[1]):
            problems.add(
                "the second column (confidence) is not a number",
                line=numbers[j],
                expected="a score and, optionally, a confidence such as 3.2<TAB>80",
                found=show(line[1]),
            )
    problems.raise_if_any()
    return Rows(range(n), numbers[:n], fields[:n], scores=scores and scores[:n])


def _id_rows(columns: Columns, keys: ItemKeys, problems: ProblemCollector) -> Rows:
    """The value column of an ``ID<TAB>VALUE`` file in item order (``_id_problems`` explains the rest)."""
    known = np.flatnonzero(columns.tabbed & (columns.position >= 0))
    # the items given and the row of each one's first line, in item order
    given, first = np.unique(columns.position[known], return_index=True)
    if len(given) != len(columns.heads) or len(given) != len(keys.ids):
        _id_problems(columns, keys, problems)
    rows = known[first].tolist()

    def picked(column: Sequence) -> list:
        return list(map(column.__getitem__, rows))

    return Rows(given, picked(columns.lines), picked(columns.body), picked(columns.starts))


def _id_problems(columns: Columns, keys: ItemKeys, problems: ProblemCollector) -> None:
    """The problems of the lines that give no item (no tab, an unknown or a repeated id), in line
    order, then that of the items without a line."""
    heads, position, example = columns.heads, columns.position, columns.track.example
    index = dict(zip(keys.ids, range(len(keys.ids))))
    kind = kinds.of(columns.track)
    if keys.ids and kind.value_type is ANNOTATOR_ROW:  # one label per annotator of that item
        example = kind.example_value(columns.track, len(keys.annotators[0]))
    line = example.replace("ID", repr(keys.ids[0]) if keys.ids else "ID")
    expected = f"lines such as {line}"
    score_columns = columns.score_columns_rule()
    index_hint = columns.index_column_hint(index) or (
        score_columns and f"{score_columns.message}: {score_columns.hint}"
    )
    index_hint = index_hint or _line_numbers_hint(heads, index, keys, line)
    index_hint = index_hint or _release_lines_hint(heads, index, columns.track)
    if len(heads) and columns.tabbed.all():
        _refuse_column_of_no_ids(columns, line, problems.file)
    if len(heads) and columns.tabbed.all() and (position < 0).all():
        _refuse_score_columns(score_columns, columns, problems.file)
        elsewhere = keys.elsewhere and keys.elsewhere(heads)
        other_track = _other_track_hint(heads, columns.track, keys)
        hint = index_hint or elsewhere or other_track or written_ids_hint(heads[0], index)
        hint = hint or prefixed_ids_hint(heads, index) or numbered_ids_hint(heads, index)
        hint = hint or (NUMBERS_HINT.format(line) if all(map(str.isdigit, heads)) else None)
        rule = Rule("none of the ids in this file belong to the track", expected, hint)
        found = f"ids such as {shorten(heads[0])!r} on line {columns.lines[0]}"
        raise rule.error(problems.file, found)
    runs, described = _batch_runs(position), None
    first_line: dict[int, int] = {}  # item -> the line that gave it
    # the items a line without a tab starts with (then a space, comma or semicolon): that line's
    # problem says why they have no prediction, so they are not also listed as items without one
    named: list[int] = []
    texts = columns.texts[columns.header :]
    # the file's decimal comma, named once for every line (its header line has none)
    last_fields = (text.rpartition(";")[2].strip() for text in texts[:IDS_LOOKED_UP])
    decimal_comma = any(map(COMMA_DECIMAL.fullmatch, last_fields))
    rows = zip(heads, columns.starts, columns.lines, position.tolist(), texts)
    unknown = [head for head, item, tab in zip(heads, position, columns.tabbed) if tab and item < 0]
    index_hint = index_hint or (keys.elsewhere and keys.elsewhere.unknown_ids_hint(unknown))
    no_tab_expected = f"ID<TAB>VALUE such as {example}" + (
        ", or one score per line in input order (SemEval positional)"
        if columns.track.positional
        else ""
    )
    for head, start, line, item, text in rows:
        if not start:
            json_track = columns.track if columns.json_lines else None
            problem = _no_tab(text, json_track, no_tab_expected, decimal_comma, index)
            add_problem(problems, problem, line=line)
            named.append(index.get(LEADING_FIELD.split(text.strip(), maxsplit=1)[0], -1))
        elif item < 0:
            hint = index_hint or _other_track_hint([head], columns.track, keys)
            if described is None:  # once per file
                described = numbered_ids_hint(heads, index) or ""
            unknown_id(problems, head, index, line, hint, described)
        elif item in first_line:
            duplicate_id(problems, line, head, first_line[item], "keep one line per item" + runs)
        else:
            first_line[item] = line
    if first_line or not problems:  # no line gave an item: its lines' problems say why
        missing_items(keys.ids, [*first_line, *named], problems)


def _line_numbers_hint(
    heads: list[str], index: dict[str, int], keys: ItemKeys, line: str
) -> str | None:
    """``LINE_NUMBERS_HINT``, showing the track's ``line``, for ids (``heads``, two or more) that
    are the file's line numbers, counted from 0 or 1, in order, on a track whose ids are no range
    of whole numbers (there ``numbered_ids_hint`` names a shift); only another phase's hint when
    they are exactly that phase's whole id set (its file: OCNLI's evaluation ids are 0..2999, in
    order); else None."""
    start = int(heads[0]) if len(heads) > 1 and heads[0] in ("0", "1") else -1
    if start < 0 or heads != list(map(str, range(start, start + len(heads)))):
        return None
    if numbered_ids_hint(heads, index) is not None:
        return None
    phase = keys.elsewhere and keys.elsewhere.whole_phase(heads)
    return phase or LINE_NUMBERS_HINT.format(heads[0], heads[-1], line)


def _release_lines_hint(heads: list[str], index: dict[str, int], track: Track) -> str | None:
    """The hint for a file whose unknown ids (of ``heads``) are all the release's unscored lines: a
    track whose ids are "0".."n-1" (``index``) of a release of more input lines
    (``track.release_lines``: STS 2017 track 6's 500 for 250 gold scores), unknown ids that are
    whole numbers from n to the release's last line, in a file not of ids 1..n (a shift by one,
    ``numbered_ids_hint``'s); else None."""
    n, release = len(index), track.release_lines or 0
    unknown = [head for head in heads if head not in index]
    extra = set(map(str, range(n, release)))
    if not unknown or list(index) != list(map(str, range(n))) or not extra.issuperset(unknown):
        return None
    if set(heads) <= set(map(str, range(1, n + 1))):
        return None
    written = f"{counted(len(set(unknown)), 'id')} from {min(unknown, key=int)!r} to "
    return (
        f"the release's input had {release} lines, of which the first {n} (ids '0' to "
        f"{str(n - 1)!r}) are the scored items, as a positional file of {release} lines is read; "
        f"the file's {written}{max(unknown, key=int)!r} are the release's unscored lines: drop the "
        f"ids {str(n)!r} to {str(release - 1)!r}"
    )


def _other_track_hint(heads: Sequence[str], track: Track, keys: ItemKeys) -> str | None:
    """``OtherPhases.other_track_hint`` of ``heads`` when ``keys`` know the phase's other parts."""
    if keys.elsewhere is None:
        return None
    return keys.elsewhere.other_track_hint(heads, track, keys.tracks)


def _refuse_score_columns(rule: Rule | None, columns: Columns, display: str) -> None:
    """Refuse by ``rule``, ``score_columns_rule``, where it applies: a file of no id of the track
    whose first column holds scores is told its column count first, not its ids."""
    if rule is not None:
        raise rule.error(display, columns.score_columns_found())


def _refuse_column_of_no_ids(columns: Columns, line: str, display: str) -> None:
    """Refuse a file whose first column repeats one value (``repeated_value``), expecting lines such
    as the track's ``line``: no ids, named as
    the LeWiDi 2023 layout when its rows are that layout's (``is_results_row``); a repeated id of
    the track is left to the refusal of each duplicate id's line."""
    repeated = repeated_value(columns.heads)
    if repeated is None:
        return
    found = f"{repeated[0]!r} on {repeated[1]} of its {counted(len(columns.heads), 'line')}"
    message = "the first column repeats one value on half its lines or more: it holds no item ids"
    if all(is_results_row(columns.track, text) for text in columns.body[:IDS_LOOKED_UP]):
        message = RESULTS_LAYOUT_GIVEN
        found += f", such as {shorten(columns.body[0])!r} (a hard label, then probabilities)"
    elif repeated[0] in columns.ids:
        return
    rule = Rule(message, f"lines such as {line}", ID_COLUMN_HINT.format(line))
    raise rule.error(display, found)


#: What ends a line's first field when the line has no tab (spaces, a comma, a semicolon).
LEADING_FIELD = re.compile(r"[\s,;]+")


def _batch_runs(position: np.ndarray) -> str:
    """The note for a duplicate id's hint when a file's ids come in runs of k (> 1) equal ids on
    consecutive lines, each run but the last exactly k long and no id in two runs (a batch counter
    written as the id), else ""."""
    ends = np.flatnonzero(np.diff(position) != 0) + 1
    runs = np.diff(np.concatenate(([0], ends, [len(position)])))
    if len(runs) < 2 or runs[0] < 2 or (runs[:-1] != runs[0]).any() or runs[-1] > runs[0]:
        return ""
    if len(np.unique(position[np.concatenate(([0], ends))])) != len(runs):
        return ""
    return (
        f" (the ids come in runs of {runs[0]} equal ids on consecutive lines: a batch's index "
        "written in place of each item's id?)"
    )


def _separator_hint(text: str, decimal_comma: bool, ids: dict[str, int]) -> str | None:
    """The hint for a line without a tab, by the separator written after its first field: a comma
    (CSV), a semicolon (with the file's ``decimal_comma`` named) or spaces, and the quotes where the
    first field is in them (``QUOTED_FIELD``); a line of numbers only apart by spaces, the first
    none of the track's ``ids``, has no id column (``SAVETXT_HINT``); None for no separator."""
    quoted = QUOTED_FIELD.match(text.strip())
    separator = SEPARATOR.match("x" + text.strip()[quoted.end() :] if quoted else text.strip())
    if separator is None:
        return None
    written = separator.group(1).strip()
    quotes = QUOTED_FIELDS_HINT if quoted else ""
    if written == ";":
        return SEMICOLON_HINT + (DECIMAL_COMMA_HINT if decimal_comma else "") + quotes
    fields = text.split()
    if not written and fields[0] not in ids and parse_numbers(fields) is not None:
        return SAVETXT_HINT.format(len(fields))
    return (CSV_HINT if written == "," else SPACES_HINT) + quotes


def _no_tab(
    text: str, json_track: Track | None, expected: str, decimal_comma: bool, ids: dict[str, int]
) -> ValueProblem:
    """The problem of a line without a tab, with the separator it has if any
    (``_separator_hint``); in a JSON-lines file (``json_track``: its track), a line that is no
    object of an ``"id"`` and one value (``id_tab_value``), named by the keys it has (one object
    keyed by the track's ``ids``, ChaosNLI's records: their keys whose values the track reads);
    ``expected``: the lines the track reads (ID<TAB>VALUE, and the positional form where accepted)."""
    if json_track is None:
        comment = text.lstrip().startswith("#")
        hint = COMMENT_HINT if comment else _separator_hint(text, decimal_comma, ids)
        return ValueProblem("line has no tab", expected, repr(text[:60]), hint)
    found, hint = repr(shorten(text)), None
    try:
        line = parse_json(text)
    except ValueProblem as p:
        line, found = None, f"{found}: {p.message}"

    def reads(value) -> bool:  # ChaosNLI's records: lines of a value the track reads are a fix
        return _reads(json_track, value if isinstance(value, str) else json.dumps(value))

    if problem := misshapen_records(line, reads):
        return problem
    if is_columns(line):
        return _columns_problem(line)
    expected = 'one object {"id": ID, "any name": VALUE} a line, the id a string or an integer'
    if line == {} or line == []:  # json.dump of a dict or list never filled
        empty = "JSON object {}" if line == {} else "JSON list []"
        hint = "write the predictions into it (was it dumped before they were added?)"
        return ValueProblem(f"an empty {empty}: no id and no prediction", expected, found, hint)
    if isinstance(line, dict):
        found = f"keys {shorten(', '.join(map(str, line)))}"
        if len(line) == 2 and "id" in line:
            found = f"the id {shorten(json.dumps(line['id'], ensure_ascii=False))}"
        hint = _keys_hint(line, json_track, ids, reads)
        if len(line) > 1 and all(key in ids for key in line):  # json.dump({id: value, ...})
            hint = KEYED_BY_ID
    return ValueProblem('a JSON line must hold exactly "id" and one value', expected, found, hint)


def _keys_hint(line: dict, track: Track, ids: dict[str, int], reads) -> str:
    """The fix of a JSON line of other keys than "id" and one value, named by the line's own keys,
    followed by pandas as written: the id's ("id", else one holding one of the track's ``ids``, to
    rename) and the value's (``_value_key``); a key of a whole number 0..n-1 that is none of the
    track's ids (Hugging Face's ``idx``) is named as a row position."""
    id_key = "id" if "id" in line else next((k for k in line if _is_id(line[k], ids)), None)
    n = len(ids)
    at = next((k for k in line if not id_key and type(line[k]) is int and 0 <= line[k] < n), None)
    value = _value_key(line, track, reads, (id_key, at))
    to_json = f'[["id", "{value}"]].to_json(orient="records", lines=True)'
    if id_key not in (None, "id"):
        return (
            f'name the id "id" and keep one value: df.rename(columns={{"{id_key}": "id"}}){to_json}'
        )
    if at is not None:
        return (
            f"\"{at}\" holds row positions (0 to {n - 1}), not the track's ids: write each item's "
            f"id (the 'id' field of the input file's line at that position) under \"id\", then "
            f"df{to_json}"
        )
    fix = 'keep only "id" and the prediction' if id_key else 'write each item\'s id under "id"'
    return f"{fix}: df{to_json}"


def _value_key(line: dict, track: Track, reads, other: tuple) -> str:
    """A JSON line's key of a value the track ``reads`` (else, on a track of rows, of a list or
    object; else its first key), ``other`` keys (the id's) aside."""
    values = [key for key in line if key not in other]
    row = kinds.of(track).value_type.is_row
    rows = [key for key in values if row and isinstance(line[key], (list, dict))]
    return next((key for key in values if reads(line[key])), (rows or values or ["label"])[0])


def _is_id(value, ids: dict[str, int]) -> bool:
    """Whether a JSON line's ``value`` is one of the track's ``ids`` (a string, or an integer)."""
    return type(value) in (str, int) and str(value) in ids


def is_columns(line) -> bool:
    """Whether ``line`` (a JSON value) is one object of columns, "id" among them, each a list of as
    many values (a HuggingFace dataset's ``to_dict()``, pandas' ``to_dict(orient="list")``); an
    object keyed by ids whose values are lists (soft labels) has no "id" key."""
    if not (isinstance(line, dict) and len(line) > 1 and "id" in line):
        return False
    lengths = {len(column) if type(column) is list else -1 for column in line.values()}
    return len(lengths) == 1 and min(lengths) > 0


def _columns_problem(line: dict) -> ValueProblem:
    """The problem of a JSON line that is one object of columns (``is_columns``)."""
    rows = len(line["id"])
    return ValueProblem(
        "the file is one JSON object of columns, not one record per item",
        expected='one object {"id": ID, "any name": VALUE} a line, one line per item',
        found=f"columns {shorten(', '.join(map(str, line)))}, each a list of {rows} values",
        hint='write one record per item: pd.DataFrame(d).to_json(path, orient="records", '
        'lines=True) of this object d (of a DataFrame df: df.to_json(path, orient="records", '
        "lines=True))",
    )


def _values(track: Track, keys: ItemKeys, rows: Rows, problems: ProblemCollector):
    """(values in row order, notes for the warnings) of ``rows``, each read by the track's value type
    (``READERS``), which accepts it or adds its problem; values None when a row was refused."""
    reader = READERS[kinds.of(track).value_type]
    if reader is None:
        return _annotator_rows(track, keys, rows, problems)
    # a score column is read at once; a column with a refused value is read row by row
    if reader is parse_number:
        scores = rows.scores or parse_numbers(list(map(rows.text, range(len(rows.item)))))
        if scores is not None:
            return np.array(scores, dtype=float), []
    notes: list[ReadNote] = []
    values = []
    for j in range(len(rows.item)):
        noted = len(notes)
        try:
            values.append(reader(rows.text(j), track, notes))
            notes[noted:] = [note._replace(line=rows.line[j]) for note in notes[noted:]]
        except ValueProblem as problem:
            if not problems:  # the first value refused tells whether the file is another track's
                hint = other_track_hint(rows.text(j), track, keys.tracks, bool(rows.json))
                problem.hint = hint or problem.hint
            _add(_json_string(problem, rows.json), problems, rows, keys, j)
    if problems:
        return None, notes
    return np.array(values, dtype=np.int64 if reader is parse_label else float), notes


def _json_string(problem: ValueProblem, layout: str) -> ValueProblem:
    """``problem``, but where a file of a JSON ``layout`` (``Rows.json``) holds a JSON string the
    track's reader parses as JSON (a label in a soft-label file), said so: the file is valid
    JSON."""
    if layout and problem.message.startswith("not valid JSON"):
        problem.message = f"value is a JSON string in {layout}, not a value of this track"
    return problem


def other_track_hint(
    text: str, track: Track, tracks: Sequence[Track], json: bool = False
) -> str | None:
    """The hint for a value ``track`` refuses that a track of ``tracks`` on the same items, of
    another value type, reads (a hard label in a soft-label file): the file seems to be that
    track's, named with its file (``json``: the file is JSON, which that file reads as JSON lines);
    else None."""
    own = READERS[kinds.of(track).value_type]
    for other in (t for t in tracks if t.dataset == track.dataset):
        if READERS[kinds.of(other).value_type] is not own and _reads(other, text):
            example = track.example.partition("<TAB>")[2]
            # each file named after its own track: a name both tracks read (ChaosNLI's
            # snli*.json) would give the other track two files
            lines = " (ID<TAB>VALUE lines, or JSON lines)" if json else ""
            return (
                f"the file seems to hold the values of track {other.id!r}: write them in "
                f"{other.file_names[0]}{lines} and this track's values (such as {example}) in "
                f"{track.file_names[0]}, each file named after its own track only"
            )
    return None


#: How many of a file's first lines (not blank, not comments) ``tracks_reading`` reads for a value:
#: a header line and a line the readers refuse are passed over as the readers pass a header over.
LINES_ROUTED = 5


def tracks_reading(path: Path, tracks: Sequence[Track]) -> list[Track]:
    """Those of ``tracks`` whose value type reads the value of the first of the file's first
    ``LINES_ROUTED`` lines (blank lines and '#' comments skipped, as the readers skip them) whose
    value some of them reads, an ID<TAB>VALUE line or a JSON line of an "id" and one value (a file
    of labels is a label track's, of probabilities a soft-label track's, after a header line);
    all of ``tracks`` when none or no value is read."""
    head = (read_head(path, MAX_LINE_BYTES) or b"").decode("utf-8", "replace").lstrip("\ufeff")
    lines = [text.strip() for text in head.splitlines()]
    lines = [text for text in lines if text and not text.startswith("#")][:LINES_ROUTED]
    for line in lines:
        value = id_tab_value(line).partition("\t")[2]
        if reading := [track for track in tracks if value and _reads(track, value)]:
            return reading
    return list(tracks)


def _reads(track: Track, value: str) -> bool:
    """Whether the track's value type (``READERS``; an annotator row has none) reads ``value``,
    one value's text: a reader returns the value it read, or raises."""
    reader = READERS[kinds.of(track).value_type]
    with suppress(ValueProblem):
        return bool(reader) and reader(value, track, []) is not None
    return False


#: Each value type's reader of one value text (the text, the track, the notes of the values read in
#: another form); an annotator row is read against its item's annotators (``_annotator_rows``).
READERS = {SCORE: parse_number, LABEL: parse_label, DISTRIBUTION: parse_soft, ANNOTATOR_ROW: None}


def _annotator_rows(track: Track, keys: ItemKeys, rows: Rows, problems: ProblemCollector):
    """Label indices or 0/1 choices, one row per annotator of each row's item, as ``PerAnnotator`` on
    the track's items: each row's entries as written (``annotator_entries``), fitted to its item's
    annotators (``RowFit``, which reads other layouts), then their labels (``annotator_values``); a
    refused row's problem is added."""
    notes: list[ReadNote] = []
    # the most entries a row may have: an item's annotators, the release's annotators list of an
    # item, or the whole annotator pool (``annotators.RowFit``)
    pool = len(set(chain.from_iterable(keys.annotators)))
    listed = max(map(len, filter(None, keys.listed)), default=0)
    longest = max(max(map(len, keys.annotators), default=0), listed, pool)
    most = most_entries(track, longest)
    # the hint that the rows hold label indices: looked for over the whole file once, if needed
    hint = cache(lambda: labels_as_indices_hint(track, map(rows.text, range(len(rows.item))), most))
    entries = {}
    for j in range(len(rows.item)):
        try:
            names = keys.annotators[rows.item[j]]
            entries[j] = annotator_entries(rows.text(j), track, names, notes, longest)
        except ValueProblem as problem:
            # on multilabel tracks, indices are read as 0/1 vectors: the row's layout is refused
            problem.hint = (track.scale == "multilabel" and hint()) or problem.hint
            _add(problem, problems, rows, keys, j)
    lengths = {rows.item[j]: len(row) for j, row in entries.items()}
    official = track.annotator_alignment == OFFICIAL_2025
    fit = RowFit(keys.annotators, keys.listed, lengths, first_entries=official)
    values = []
    for j, row in entries.items():
        try:
            fitted = fit.fit(rows.item[j], row, notes)
            values += annotator_values(fitted, track, hint)
            empty = empty_label_sets(fitted, track)
            notes += [ReadNote(NO_LABEL, line=rows.line[j], item=keys.ids[rows.item[j]])] * empty
        except ValueProblem as problem:
            _add(problem, problems, rows, keys, j)
    if problems:
        return None, notes
    labels = as_annotator_array(values, track)
    counts = np.fromiter(map(len, keys.annotators), np.int64, len(keys.annotators))
    return per_annotator(labels, counts, len(track.labels)), notes


def _add(problem: ValueProblem, problems: ProblemCollector, rows: Rows, keys: ItemKeys, j: int):
    """Row j's problem, at its line and item; a value with a tab in it is named first as a line of
    too many columns (an ID<TAB>VALUE<TAB>SCORE line, say)."""
    columns = rows.text(j).count("\t") + 2
    if columns > 2:
        extra = EXTRA_COLUMNS_HINT.format(columns)
        problem.hint = f"{extra}; {problem.hint}" if problem.hint else extra
    add_problem(problems, problem, line=rows.line[j], item=keys.ids[rows.item[j]])
