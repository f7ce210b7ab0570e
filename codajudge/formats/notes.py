"""The notes a reader leaves on the values it accepted in another form than the plain one (a Python
literal, a soft label renormalised or with an extra leading bin dropped, a perspectivist row in
another layout), and the warnings a file's notes give: one per kind of note, with their count."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from operator import attrgetter
from typing import List, Optional, Sequence

from ..errors import counted
from ..kinds.soft_label import LEADING_BIN_LAYOUT, SUM_TOLERANCE


@dataclass(frozen=True, eq=False)
class NoteKind:
    """A kind of note and its warning: the number of notes of that kind, then ``one`` (for one
    note) or ``several``. A kind whose notes carry a mass (``ReadNote.mass``) names the largest
    one in its text as ``{mass}``; a kind whose notes carry an alignment (``ReadNote.alignment``)
    ends with each alignment and its number of items, the most frequent first."""

    one: str
    several: str
    carries_mass: bool = False
    carries_alignment: bool = False

    def warning(self, count: int, notes: Sequence[ReadNote]) -> str:
        """The warning of the ``count`` notes of this kind among ``notes``."""
        text = self.one if count == 1 else self.several
        if self.carries_alignment:
            return f"{count} {text}: {_alignments(self, notes)}"
        if not self.carries_mass:
            return f"{count} {text}"
        largest = max(note.mass for note in notes if note.kind is self)
        return f"{count} {text.format(mass=largest)}"


@dataclass(frozen=True)
class ReadNote:
    """One value accepted in another form than the plain one: the ``kind`` of that form and, for a
    dropped leading bin that held probability, its ``mass`` (a probability, at most ``SUM_TOLERANCE``)."""

    kind: NoteKind
    mass: Optional[float] = None
    #: For a row fitted to its item's annotators: which of its entries were scored against whom.
    alignment: Optional[str] = None


#: At most this many distinct alignments are named in one warning.
SHOWN_ALIGNMENTS = 4


def _alignments(kind: NoteKind, notes: Sequence[ReadNote]) -> str:
    """``kind``'s notes' alignments, each with its number of items, the most frequent first."""
    counts = Counter(note.alignment for note in notes if note.kind is kind).most_common()
    shown = [f"{alignment} ({counted(n, 'item')})" for alignment, n in counts[:SHOWN_ALIGNMENTS]]
    rest = sum(n for _, n in counts[SHOWN_ALIGNMENTS:])
    return "; ".join(shown + ([f"other alignments ({counted(rest, 'item')})"] if rest else []))


RENORMALISED = NoteKind(
    f"soft label summed to within {SUM_TOLERANCE} of 1 and was renormalised",
    f"soft labels summed to within {SUM_TOLERANCE} of 1 and were renormalised",
)
EMPTY_LEADING_BIN = NoteKind(
    f"soft label had an extra, empty leading bin ({LEADING_BIN_LAYOUT}) that was dropped",
    f"soft labels had an extra, empty leading bin ({LEADING_BIN_LAYOUT}) that was dropped",
)
PYTHON_LITERAL = NoteKind(
    "value was not JSON but a Python literal (str() of a list: single quotes, tuples) and was "
    "read as such; json.dumps(x) writes JSON",
    "values were not JSON but Python literals (str() of a list: single quotes, tuples) and "
    "were read as such; json.dumps(x) writes JSON",
)
LEADING_BIN_WITH_MASS = NoteKind(
    f"soft label had an extra leading bin ({LEADING_BIN_LAYOUT}) holding a little "
    "probability, at most {mass:.2g}; it was dropped and the row renormalised",
    f"soft labels had an extra leading bin ({LEADING_BIN_LAYOUT}) holding a little "
    "probability, at most {mass:.2g}; it was dropped and the rows renormalised",
    carries_mass=True,
)
_LISTED = "per name of the release's annotators list (an annotator repeated once per label given)"
_POOL = "per annotator of the dataset's whole pool"
_FIRST_ENTRIES = (
    "as the LeWiDi 2025 official scorer did (annotator alignment official_2025), each row's "
    "first entries were scored against the item's annotators in order, the others dropped"
)


def _layout_kind(layout: str, reading: str) -> NoteKind:
    """The note of rows with one entry ``layout``, read as ``reading`` says."""
    return NoteKind(
        f"row had one entry {layout}; {reading}",
        f"rows had one entry {layout}; {reading}",
        carries_alignment=True,
    )


ANNOTATORS_LIST = _layout_kind(_LISTED, "the repeated entries were merged, by name")
ANNOTATOR_POOL = _layout_kind(_POOL, "the entries of each item's own annotators were kept, by name")
ANNOTATORS_LIST_FIRST = _layout_kind(_LISTED, _FIRST_ENTRIES)
ANNOTATOR_POOL_FIRST = _layout_kind(_POOL, _FIRST_ENTRIES)

#: The kinds of notes a value's rules leave (``values``, ``soft``), in the order of their warnings.
VALUE_NOTES = (RENORMALISED, EMPTY_LEADING_BIN, PYTHON_LITERAL, LEADING_BIN_WITH_MASS)
#: The kinds of notes the fitting of perspectivist rows leaves (``annotators.RowFit``).
LAYOUT_NOTES = (ANNOTATORS_LIST, ANNOTATOR_POOL, ANNOTATORS_LIST_FIRST, ANNOTATOR_POOL_FIRST)
#: Every kind of note, in the order of the warnings of a file's reading.
NOTE_KINDS = VALUE_NOTES + LAYOUT_NOTES


def note_warnings(notes: Sequence[ReadNote], kinds: Sequence[NoteKind] = NOTE_KINDS) -> List[str]:
    """One warning per kind among ``kinds`` that ``notes`` hold, in the order of ``kinds``."""
    counts = Counter(map(attrgetter("kind"), notes))
    return [kind.warning(counts[kind], notes) for kind in kinds if counts[kind]]
