"""LeWiDi 2023's submission layout (SemEval-2023 Task 11, on CodaLab), read for the tracks that
declare it (``results_layout: lewidi2023``): one ``<Dataset>_results.tsv`` per dataset, no id
column, one row per item in the release's item order, ``hard_label<TAB>p0<TAB>p1`` (the
probabilities in the order of the track's labels). One file gives both of a dataset's tracks: a
track whose value is a label reads the first column, one whose value is a distribution the others.
A file is read so when its first line has those 1 + K tab-separated fields (the kit's own layout
has two: ``ID<TAB>VALUE``)."""

from __future__ import annotations

import json
from fnmatch import fnmatchcase
from pathlib import PurePosixPath

from .. import kinds
from ..kinds.base import LABEL
from ..errors import ProblemCollector, SubmissionError, counted
from ..tracks import Track
from .coverage import OtherPhases
from .textfile import Lines, refuse_blank_line, shorten
from .values import ValueProblem, add_problem, is_decimal, parse_number

LAYOUT = "lewidi2023"
NOTE = (
    "the file was read in the LeWiDi 2023 layout: one row per item in item order, "
    "hard label<TAB>p0<TAB>p1, no id"
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


def refuse_other_layout(track: Track, display: str, lines: Lines) -> None:
    """Refuse a file named as the layout's (``track.files``) whose first row has not its 1 + K
    fields: the file feeds both of a dataset's tracks, so no ``ID<TAB>VALUE`` reading can fit (the
    message is the same for both tracks, so it is named once)."""
    name = PurePosixPath(display).name.lower()
    if track.results_layout != LAYOUT or not any(fnmatchcase(name, f.lower()) for f in track.files):
        return
    k, first = len(track.labels), lines.texts[0]
    raise SubmissionError.single(
        display,
        "the row is not one of the LeWiDi 2023 layout, which this file's name takes",
        line=lines.numbers[0],
        expected=f"{k + 1} tab-separated fields, label<TAB>"
        + "<TAB>".join(f"p{j}" for j in range(k))
        + ", no id, one row per item in the phase's input order",
        found=f"{counted(first.count(chr(9)) + 1, 'field')}: {shorten(repr(first))}",
        hint="write the hard label, then one probability per label, separated by tabs and without "
        "an id; or give each of the dataset's tracks its own file of ID<TAB>VALUE lines, named "
        "after the track (<track id>.tsv, listed on the Data page)",
    )


def results_rows(
    track: Track, lines: Lines, n_items: int, problems: ProblemCollector, elsewhere: OtherPhases
) -> tuple[range, list[int], list[str]]:
    """(item index, line number, value text) of each row, the value text being the track's part of
    the row: the label, or the probabilities as a JSON list. A row count other than the track's
    number of items is refused, naming the other phase (``elsewhere``) that has that many items, if any."""
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
    values = []
    for line, text in zip(numbers, texts):
        fields = [f.strip() for f in text.split("\t")]
        probabilities = []
        try:
            if len(fields) != k + 1:
                raise ValueProblem(
                    "a row must be the hard label and one probability per label, tab-separated",
                    found=shorten(repr(text)),
                )
            probabilities = [parse_number(field) for field in fields[1:]]  # names a field's problem
        except ValueProblem as problem:
            problem.expected = expected  # the row's layout, of which the field is a part
            add_problem(problems, problem, line=line)
        values.append(fields[0] if reads_label else json.dumps(probabilities))
    problems.raise_if_any()
    return range(len(texts)), numbers, values
