"""LeWiDi 2023's submission layout (SemEval-2023 Task 11, on CodaLab), read for the tracks that
declare it (``results_layout: lewidi2023``): one ``<Dataset>_results.tsv`` per dataset, no id
column, one row per item in the release's item order, ``hard_label<TAB>p0<TAB>p1`` (the
probabilities in the order of the track's labels). One file gives both of a dataset's tracks: a
track whose value is a label reads the first column, one whose value is a distribution the others.
A file is read so when its first line has those 1 + K tab-separated fields (the kit's own layout
has two: ``ID<TAB>VALUE``), and only when its first column holds the track's labels: a first column
of ids (``id_column``) is refused, never read as labels with its rows aligned by position."""

from __future__ import annotations

import functools
import json
from fnmatch import fnmatchcase
from collections.abc import Collection, Sequence
from pathlib import PurePosixPath

from .. import kinds
from ..kinds.base import LABEL
from ..errors import ProblemCollector, SubmissionError, counted
from ..tracks import Track
from .coverage import OtherPhases
from .soft import soft_label
from .textfile import Lines, refuse_blank_line, shorten
from .values import NUMPY_HINT, ValueProblem, add_problem, is_decimal, outside_label_set, show
from .values import parse_probability

LAYOUT = "lewidi2023"
NOTE = (
    "the file was read in the LeWiDi 2023 layout: one row per item in item order, "
    "hard label<TAB>p0<TAB>p1, no id"
)

#: The fix of a field that is numpy's printing: the layout's fields are plain numbers, never lists.
NUMPY_FIELD_HINT = (
    "this is numpy's printing: write each field as a plain number (float(x) for each, or "
    '"\\t".join(map(str, row)))'
)

#: A file whose hard labels are not their row's most probable label on at least this share of its
#: rows, and of at least ``SWAPPED_ROWS`` rows, is noted: its probability columns look swapped.
SWAPPED_SHARE, SWAPPED_ROWS = 0.9, 20


#: The other way to submit a dataset's tracks, which a refusal of the layout's file names.
OWN_FILES = (
    "give each of the dataset's tracks its own file of ID<TAB>VALUE lines, named after the track "
    "(<track id>.tsv, listed on the Data page)"
)


def layout_files(tracks) -> dict[str, list[str]]:
    """The layout's files among ``tracks``' file names, each with the ids of the tracks it gives
    (the Data page lists them)."""
    files: dict[str, list[str]] = {}
    for track in (track for track in tracks if track.results_layout == LAYOUT):
        for name in track.files:
            files.setdefault(name, []).append(track.id)
    return files


def is_results_row(track: Track, text: str) -> bool:
    """Whether ``text`` is a row of the layout for ``track``: a label, then one number per label."""
    label, *probabilities = (field.strip() for field in text.split("\t"))
    return (
        len(probabilities) == len(track.labels)
        and track.label_set.codes([label])[0] >= 0
        and all(map(is_decimal, probabilities))
    )


def reads_results_layout(track: Track, lines: Lines) -> bool:
    """Whether ``track`` takes the layout and the file's first line (``textfile.read_texts`` gives
    one at least) has its 1 + K fields."""
    return track.results_layout == LAYOUT and lines.texts[0].count("\t") == len(track.labels)


def named_as_layout(track: Track, display: str) -> bool:
    """Whether ``display`` is one of the layout's file names (``track.files``) for ``track``."""
    name = PurePosixPath(display).name.lower()
    return track.results_layout == LAYOUT and any(fnmatchcase(name, f.lower()) for f in track.files)


def layout_expected(track: Track) -> str:
    """The layout's row for ``track``, as a refusal's "expected" names it."""
    probabilities = "<TAB>".join(f"p{j}" for j in range(len(track.labels)))
    return f"label<TAB>{probabilities}, no id, one row per item in the phase's input order"


def refuse_other_layout(track: Track, display: str, lines: Lines) -> None:
    """Refuse a file named as the layout's (``track.files``) whose first row has not its 1 + K
    fields: the file feeds both of a dataset's tracks, so no ``ID<TAB>VALUE`` reading can fit (the
    message is the same for both tracks, so it is named once)."""
    if not named_as_layout(track, display):
        return
    first = lines.texts[0]
    raise SubmissionError.single(
        display,
        "the row is not one of the LeWiDi 2023 layout, which this file's name takes",
        line=lines.numbers[0],
        expected=f"{len(track.labels) + 1} tab-separated fields, {layout_expected(track)}",
        found=f"{counted(first.count(chr(9)) + 1, 'field')}: {shorten(repr(first))}",
        hint="write the hard label, then one probability per label, separated by tabs and without "
        f"an id; or {OWN_FILES}",
    )


def id_column(track: Track, heads: Sequence[str], ids: Collection[str]) -> int | None:
    """The index of the row to name (the first whose first field is one of the track's ``ids``,
    else the first) when the first column (``heads``) holds ids rather than the track's labels:
    distinct values (labels repeat), not all labels, and the track's ids or no fractions (those
    are probabilities); else None."""
    if len(set(heads)) < max(len(heads), 2) or all(c >= 0 for c in track.label_set.codes(heads)):
        return None
    known = next((j for j, head in enumerate(heads) if head in ids), None)
    if known is not None:
        return known
    fractions = any(is_decimal(head) and not head.lstrip("+-").isdigit() for head in heads)
    return None if fractions else 0


def refuse_id_column(track: Track, display: str, lines: Lines, ids: Collection[str]) -> None:
    """Refuse a file of the layout's 1 + K fields whose first column holds ids (``id_column``): the
    layout has none, so its rows would be aligned by position and the ids taken as hard labels. A
    file named as the layout's is told to remove the column (in one message for both its tracks);
    a track's own file, also how to write its value as one field."""
    heads = [text.partition("\t")[0].strip() for text in lines.texts]
    row = id_column(track, heads, ids)
    if row is None:
        return
    text = lines.texts[row]
    found = f"the id {shorten(heads[row])!r} in {shorten(repr(text))}"
    remove = "remove the id column, keeping the rows in item order, the hard label first"
    if named_as_layout(track, display):
        expected = layout_expected(track)
        hint = f"{remove}; or {OWN_FILES}"
    else:
        expected = f"ID<TAB>VALUE lines, or the LeWiDi 2023 layout: {layout_expected(track)}"
        hint = f"write {_one_field(track, heads[row], text)}; or {remove}"
    raise SubmissionError.single(
        display,
        "the first column holds ids, which the LeWiDi 2023 layout (rows in item order) has not",
        line=lines.numbers[row],
        expected=expected,
        found=found,
        hint=hint,
    )


def _one_field(track: Track, head: str, text: str) -> str:
    """How the row ``text`` of the id ``head`` is written as an ``ID<TAB>VALUE`` line: a soft
    label as one JSON list of the row's probabilities, a label as the label alone."""
    if kinds.of(track).value_type is LABEL:
        return f"the label alone after the id ({shorten(head)}<TAB>{track.labels[0]})"
    probabilities = ", ".join(field.strip() for field in text.split("\t")[1:])
    return f"the soft label as one JSON list ({shorten(head)}<TAB>[{shorten(probabilities)}])"


def results_rows(
    track: Track,
    lines: Lines,
    ids: Sequence[str],
    problems: ProblemCollector,
    elsewhere: OtherPhases,
) -> tuple[range, list[int], list[str], str | None]:
    """(item index, line number, value text) of each row, the value text being the track's part of
    the row: the label, or the probabilities as a JSON list; then the note on rows whose columns
    look swapped (``swapped_note``), from the rows as read. A first column of ids is refused
    (``refuse_id_column``), then a row count other than the track's number of items (``ids``),
    naming the other phase (``elsewhere``) that has that many items, if any."""
    refuse_id_column(track, problems.file, lines, frozenset(ids))
    n_items = len(ids)
    numbers, texts = list(lines.numbers), lines.texts
    if len(texts) != n_items:
        # one row too many, the first not ending in a number: a header line, which the layout has not
        header = len(texts) == n_items + 1 and not is_decimal(texts[0].rpartition("\t")[2].strip())
        header_hint = f"line 1 ({shorten(repr(texts[0]))}) looks like a header, which the layout has not: remove it"
        raise SubmissionError.single(
            problems.file,
            "wrong number of rows for the LeWiDi 2023 layout (one row per item, in item order)",
            expected=f"{n_items} rows, one per item of this phase",
            found=counted(len(texts), "non-blank row"),
            hint=(header and header_hint)
            or (elsewhere and elsewhere.of_line_count(len(texts)))
            or "write one row per item of this phase's input data, in its order",
        )
    refuse_blank_line(problems.file, numbers, "LeWiDi 2023 results")
    k = len(track.labels)
    reads_label = kinds.of(track).value_type is LABEL
    expected = f"{k + 1} fields: label<TAB>" + "<TAB>".join(f"p{j}" for j in range(k))
    expected += ", each p a decimal number such as 0.5"
    values, read = [], []  # read: (label code, probabilities) of each row read whole

    @functools.cache
    def first_hint() -> str | None:  # a pass over every row, which only a refused label needs
        return _probability_first_hint(track, texts)

    for line, text in zip(numbers, texts):
        fields = [f.strip() for f in text.split("\t")]
        probabilities = []
        try:
            if len(fields) != k + 1:
                raise ValueProblem(
                    "a row must be the hard label and one probability per label, tab-separated",
                    found=shorten(repr(text)),
                )
            # names a field's problem
            probabilities = [parse_probability(field) for field in fields[1:]]
        except ValueProblem as problem:
            problem.expected = expected  # the row's layout, of which the field is a part
            problem.hint = NUMPY_FIELD_HINT if problem.hint == NUMPY_HINT else problem.hint
            add_problem(problems, problem, line=line)
        else:  # a soft-label track checks the label too: the row is read only when whole
            code = track.label_set.code(fields[0])
            if code < 0:
                problem = _label_problem(track, fields[0], first_hint)
            else:
                problem = _reordered_soft_problem(track, fields, probabilities)
                read.append((code, probabilities))
            if problem:
                add_problem(problems, problem, line=line)
        values.append(fields[0] if reads_label else json.dumps(probabilities))
    problems.raise_if_any()
    return range(len(texts)), numbers, values, swapped_note(track, read)


#: The problem of a row without its hard label: the layout has one on every row.
EMPTY_LABEL = (
    "the hard label is empty",
    "the layout needs one on every row, even for an entry of soft labels only: write the row's "
    "most probable label (its argmax); or enter the soft-label track alone by its own file of "
    "ID<TAB>VALUE lines, named after the track (<track id>.tsv, listed on the Data page)",
)


def _label_problem(track: Track, field: str, first_hint) -> ValueProblem:
    """The problem of a row's first field that is no label of ``track``: empty (``EMPTY_LABEL``),
    else outside the label set, with ``first_hint()`` (the column-order hint) where it has none."""
    if not field:
        message, hint = EMPTY_LABEL
        return ValueProblem(message, f"one of {', '.join(track.labels)}", "''", hint)
    return outside_label_set(field, track, show(field), first_hint())


def swapped_note(track: Track, read: Sequence[tuple[int, list[float]]]) -> str | None:
    """A note when the rows' hard labels are below their own rows' largest probability on nearly
    all rows (``SWAPPED_SHARE`` of ``SWAPPED_ROWS`` or more rows read): the probabilities look
    written in another order than the labels'. ``read``: (label code, probabilities) of each row
    ``results_rows`` read whole."""
    below = sum(p[c] < max(p) for c, p in read)
    if len(read) < SWAPPED_ROWS or below < SWAPPED_SHARE * len(read):
        return None
    labels = ", ".join(track.labels)
    return (
        f"the hard label is not its row's most probable label on {below} of {len(read)} rows: "
        f"columns swapped? the layout is the hard label, then one probability per label in the "
        f"order of the labels ({labels}), tab-separated"
    )


def _probability_first_hint(track: Track, texts: Sequence[str]) -> str | None:
    """The hint for rows whose first field is, on most of them, a probability: a number from 0 to
    1 that is no label of ``track``, or written with a decimal point (a unanimous item's 1.0 or
    0.0, which names a label too): the columns in another order (p0<TAB>p1<TAB>hard); else None."""
    firsts = [text.partition("\t")[0].strip() for text in texts]
    n = sum(
        is_decimal(f) and 0 <= float(f) <= 1 and _written_as_probability(f, track) for f in firsts
    )
    if 2 * n <= len(firsts):
        return None
    return (
        f"the first field of {n} of the {len(firsts)} rows is a probability (a number from 0 to 1 "
        f"that is no label, or written with a decimal point): {_layout_order(track)}"
    )


def _layout_order(track: Track) -> str:
    """The layout's order of columns, as the hints on rows written in another order say it."""
    labels = ", ".join(track.labels)
    return f"the layout is hard_label<TAB>p0<TAB>p1, the hard label (one of {labels}) first"


def _reordered_soft_problem(
    track: Track, fields: Sequence[str], probabilities: list[float]
) -> ValueProblem | None:
    """The soft-label problem (``soft_label``) of a row read whole on a soft-label track, with the
    column-order hint, when the row looks written in another order (p0<TAB>p1<TAB>hard): its first
    field written with a decimal point (a unanimous item's 1.0, which also names label 1) or its
    last field a label as written (0); else None (a row that passes, or of the layout's look,
    is left to the track's reader)."""
    reordered = "." in fields[0] or fields[-1] in track.labels
    if kinds.of(track).value_type is LABEL or not reordered:
        return None
    try:
        soft_label(probabilities, track)
    except ValueProblem as problem:
        problem.hint = (
            "the row's first field is written as a probability (with a decimal point) or its last "
            f"as a label: columns in another order? {_layout_order(track)}"
        )
        return problem
    return None


def _written_as_probability(field: str, track: Track) -> bool:
    """Whether ``field``, a number from 0 to 1, is written as a probability: no label of
    ``track``, or with a decimal point (1.0 names label 1, and is a unanimous item's p)."""
    return track.label_set.code(field) < 0 or "." in field
