"""The notes a reader leaves on the values it accepted in another form than the plain one (a Python
literal, a soft label renormalised or with an extra leading bin dropped, a perspectivist row in
another layout), and the warnings a file's notes give: one per kind of note, with their count."""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple
from collections.abc import Sequence

from ..errors import counted, plural
from ..kinds.soft_label import LEADING_BIN_LAYOUT, SUM_TOLERANCE

#: The words several kinds' texts share.
_LISTED = "per name of the release's annotators list (an annotator repeated once per label given)"
_POOL = "per annotator of the dataset's whole pool"
_FIRST_ENTRIES = (
    "as the LeWiDi 2025 official scorer does (annotator alignment official_2025), each row's "
    "first entries are scored against the item's annotators in order, the others dropped"
)


class ReadNote(NamedTuple):
    """One value accepted in another form than the plain one: the ``kind`` of that form (one of the
    kinds below, the text of its warning) and, for a dropped leading bin that held probability, its
    ``mass`` (a probability, at most ``SUM_TOLERANCE``)."""

    kind: str
    mass: float | None = None
    #: For a row fitted to its item's annotators: which of its entries were scored against whom;
    #: for a soft-label object lacking labels: which.
    alignment: str | None = None
    #: The line of the value, where the file has lines (``LINED_NOTES`` name them).
    line: int | None = None
    #: The item of the value, where known (``LINED_NOTES`` name the first).
    item: str | None = None
    #: The titles of the track's metrics, for the kinds whose words name them (``{metrics}``).
    metrics: str = ""


def words(kind: str, count: int, mass: float = 0.0, metrics: str = "") -> str:
    """The text of ``kind`` for ``count`` notes, with the words agreeing with that number (``{s}``:
    a plural's "s", ``{was}``: was or were, ``{a}``: "a " for one), ``mass``, the largest mass
    of the notes, as ``{mass}`` and the track's metric titles as ``{metrics}``."""
    one = count == 1
    was = "was" if one else "were"
    return kind.format(s="" if one else "s", was=was, a="a " * one, mass=mass, metrics=metrics)


def _warning(kind: str, notes: Sequence[ReadNote]) -> str:
    """The warning of ``notes``, the notes of ``kind`` (at least one): their number, then the kind's
    ``words``; notes that carry an alignment (``ReadNote.alignment``) end it with each alignment and
    its number of items, the most frequent first."""
    mass = max(n.mass or 0.0 for n in notes)
    text = f"{len(notes)} {words(kind, len(notes), mass, notes[0].metrics)}"
    if notes[0].alignment:
        text = f"{text}: {_alignments(notes)}"
    lines = [note.line for note in notes if note.line is not None]
    if kind in LINED_NOTES and lines:
        text += f"; on {_lines(list(dict.fromkeys(lines)))}"  # a line's notes: one line
    items = [note.item for note in notes if note.item is not None]
    if kind in LINED_NOTES and items:
        text += f" (first item {items[0]!r})"
    return text


def _lines(lines: Sequence[int]) -> str:
    """ "line 3", or "lines 1, 2, 3, 4, 5 and 7 more": the first ``SHOWN_LINES`` of ``lines``."""
    shown = ", ".join(map(str, lines[:SHOWN_LINES]))
    more = f" and {len(lines) - SHOWN_LINES} more" if len(lines) > SHOWN_LINES else ""
    return f"{plural(len(lines), 'line')} {shown}{more}"


#: At most this many distinct alignments are named in one warning.
SHOWN_ALIGNMENTS = 4
#: At most this many lines are named in a warning of ``LINED_NOTES``.
SHOWN_LINES = 5


def _alignments(notes: Sequence[ReadNote]) -> str:
    """The ``notes``' alignments, each with its number of items, the most frequent first."""
    counts = Counter(note.alignment for note in notes).most_common()
    shown = [f"{alignment} ({counted(n, 'item')})" for alignment, n in counts[:SHOWN_ALIGNMENTS]]
    rest = sum(n for _, n in counts[SHOWN_ALIGNMENTS:])
    return "; ".join(shown + ([f"other alignments ({counted(rest, 'item')})"] if rest else []))


RENORMALISED = f"soft label{{s}} summed to within {SUM_TOLERANCE} of 1 and {{was}} renormalised"
EMPTY_LEADING_BIN = (
    f"soft label{{s}} had an extra, empty leading bin ({LEADING_BIN_LAYOUT}) that was dropped"
)
PYTHON_LITERAL = (
    "value{s} {was} not JSON but {a}Python literal{s} (str() of a list: single quotes, tuples) "
    "and {was} read as such; json.dumps(x) writes JSON"
)
LEADING_BIN_WITH_MASS = (
    f"soft label{{s}} had an extra leading bin ({LEADING_BIN_LAYOUT}) holding a little probability, "
    "at most {mass:.2g}; it was dropped and the row{s} renormalised"
)
#: Its notes' alignment names the form given: ``CHOSEN_AS_LIST`` or ``CHOSEN_AS_OBJECT``.
CHOSEN_ONLY = (
    "multilabel soft label{s} {was} one P(chosen) per label and {was} read as "
    "[1 - P(chosen), P(chosen)] pairs"
)
CHOSEN_AS_LIST = "given as a list"
CHOSEN_AS_OBJECT = "given as an object label -> P(chosen)"
ANNOTATORS_LIST = f"row{{s}} had one entry {_LISTED}; the repeated entries were merged, by name"
ANNOTATOR_POOL = (
    f"row{{s}} had one entry {_POOL}; the entries of each item's own annotators were kept, by name"
)
ANNOTATORS_LIST_FIRST = f"row{{s}} had one entry {_LISTED}; {_FIRST_ENTRIES}"
ANNOTATOR_POOL_FIRST = f"row{{s}} had one entry {_POOL}; {_FIRST_ENTRIES}"
LONGER_ROWS_FIRST = f"row{{s}} had more entries than the item's annotators; {_FIRST_ENTRIES}"
NO_LABEL = (
    'annotator label set{s} {was} empty ("", [] or a string of commas) and {was} read as no label '
    "chosen (0 for every label)"
)

#: ``{metrics}``: the titles of the track's metrics (``ReadNote.metrics``).
MISSING_LABELS = (
    "soft label object{s} lacked labels, each read as probability 0 (a forgotten label can worsen "
    "this track's {metrics}: give every label, 0 where meant)"
)

#: The kinds of notes a value's rules leave (``values``, ``soft``), in the order of their warnings.
VALUE_NOTES = (
    MISSING_LABELS,
    RENORMALISED,
    EMPTY_LEADING_BIN,
    PYTHON_LITERAL,
    LEADING_BIN_WITH_MASS,
    CHOSEN_ONLY,
    NO_LABEL,
)
#: The kinds of notes whose warning names the lines of the values (a silent change of the score).
LINED_NOTES = (MISSING_LABELS, NO_LABEL)
#: The kinds of notes the fitting of perspectivist rows leaves (``annotators.RowFit``).
LAYOUT_NOTES = (
    ANNOTATORS_LIST,
    ANNOTATOR_POOL,
    ANNOTATORS_LIST_FIRST,
    ANNOTATOR_POOL_FIRST,
    LONGER_ROWS_FIRST,
)
#: Every kind of note, in the order of the warnings of a file's reading.
NOTE_KINDS = VALUE_NOTES + LAYOUT_NOTES


def note_warnings(notes: Sequence[ReadNote], kinds: Sequence[str] = NOTE_KINDS) -> list[str]:
    """One warning per kind among ``kinds`` that ``notes`` hold, in the order of ``kinds``."""
    by_kind: dict[str, list[ReadNote]] = {}
    for note in notes:
        by_kind.setdefault(note.kind, []).append(note)
    return [_warning(kind, by_kind[kind]) for kind in kinds if kind in by_kind]
