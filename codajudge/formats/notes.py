"""The notes a reader leaves on the values it accepted in another form than the plain one (a Python
literal, a soft label renormalised or with an extra leading bin dropped, a perspectivist row in
another layout), and the warnings a file's notes give: one per kind of note, with their count."""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple
from collections.abc import Sequence

from ..errors import counted
from ..kinds.soft_label import LEADING_BIN_LAYOUT, SUM_TOLERANCE

#: The words several kinds' texts share.
_LISTED = "per name of the release's annotators list (an annotator repeated once per label given)"
_POOL = "per annotator of the dataset's whole pool"
_FIRST_ENTRIES = (
    "as the LeWiDi 2025 official scorer did (annotator alignment official_2025), each row's "
    "first entries were scored against the item's annotators in order, the others dropped"
)


class NoteKind(NamedTuple):
    """A kind of note and its warning: the number of notes of that kind, then ``text`` with the
    words agreeing with that number (``{s}``: a plural's "s", ``{was}``: was or were, ``{a}``: "a "
    for one). A kind whose notes carry a mass (``ReadNote.mass``) names the
    largest one as ``{mass}``; a kind whose notes carry an alignment (``ReadNote.alignment``) ends
    with each alignment and its number of items, the most frequent first."""

    text: str
    carries_alignment: bool = False

    def words(self, count: int, mass: float = 0.0) -> str:
        """``text`` for ``count`` notes, of which the largest mass is ``mass``."""
        one = count == 1
        agreeing = {"s": "" if one else "s", "was": "was" if one else "were", "a": "a " * one}
        return self.text.format(mass=mass, **agreeing)

    def warning(self, notes: Sequence[ReadNote]) -> str:
        """The warning of ``notes``, this kind's notes (at least one)."""
        text = f"{len(notes)} {self.words(len(notes), max(n.mass or 0.0 for n in notes))}"
        return f"{text}: {_alignments(notes)}" if self.carries_alignment else text


class ReadNote(NamedTuple):
    """One value accepted in another form than the plain one: the ``kind`` of that form and, for a
    dropped leading bin that held probability, its ``mass`` (a probability, at most ``SUM_TOLERANCE``)."""

    kind: NoteKind
    mass: float | None = None
    #: For a row fitted to its item's annotators: which of its entries were scored against whom.
    alignment: str | None = None


#: At most this many distinct alignments are named in one warning.
SHOWN_ALIGNMENTS = 4


def _alignments(notes: Sequence[ReadNote]) -> str:
    """The ``notes``' alignments, each with its number of items, the most frequent first."""
    counts = Counter(note.alignment for note in notes).most_common()
    shown = [f"{alignment} ({counted(n, 'item')})" for alignment, n in counts[:SHOWN_ALIGNMENTS]]
    rest = sum(n for _, n in counts[SHOWN_ALIGNMENTS:])
    return "; ".join(shown + ([f"other alignments ({counted(rest, 'item')})"] if rest else []))


RENORMALISED = NoteKind(
    f"soft label{{s}} summed to within {SUM_TOLERANCE} of 1 and {{was}} renormalised"
)
EMPTY_LEADING_BIN = NoteKind(
    f"soft label{{s}} had an extra, empty leading bin ({LEADING_BIN_LAYOUT}) that was dropped"
)
PYTHON_LITERAL = NoteKind(
    "value{s} {was} not JSON but {a}Python literal{s} (str() of a list: single quotes, tuples) "
    "and {was} read as such; json.dumps(x) writes JSON"
)
LEADING_BIN_WITH_MASS = NoteKind(
    f"soft label{{s}} had an extra leading bin ({LEADING_BIN_LAYOUT}) holding a little probability, "
    "at most {mass:.2g}; it was dropped and the row{s} renormalised"
)
ANNOTATORS_LIST = NoteKind(
    f"row{{s}} had one entry {_LISTED}; the repeated entries were merged, by name", True
)
ANNOTATOR_POOL = NoteKind(
    f"row{{s}} had one entry {_POOL}; the entries of each item's own annotators were kept, by name",
    True,
)
ANNOTATORS_LIST_FIRST = NoteKind(f"row{{s}} had one entry {_LISTED}; {_FIRST_ENTRIES}", True)
ANNOTATOR_POOL_FIRST = NoteKind(f"row{{s}} had one entry {_POOL}; {_FIRST_ENTRIES}", True)

#: The kinds of notes a value's rules leave (``values``, ``soft``), in the order of their warnings.
VALUE_NOTES = (RENORMALISED, EMPTY_LEADING_BIN, PYTHON_LITERAL, LEADING_BIN_WITH_MASS)
#: The kinds of notes the fitting of perspectivist rows leaves (``annotators.RowFit``).
LAYOUT_NOTES = (ANNOTATORS_LIST, ANNOTATOR_POOL, ANNOTATORS_LIST_FIRST, ANNOTATOR_POOL_FIRST)
#: Every kind of note, in the order of the warnings of a file's reading.
NOTE_KINDS = VALUE_NOTES + LAYOUT_NOTES


def note_warnings(notes: Sequence[ReadNote], kinds: Sequence[NoteKind] = NOTE_KINDS) -> list[str]:
    """One warning per kind among ``kinds`` that ``notes`` hold, in the order of ``kinds``."""
    by_kind: dict[NoteKind, list[ReadNote]] = {}
    for note in notes:
        by_kind.setdefault(note.kind, []).append(note)
    return [kind.warning(by_kind[kind]) for kind in kinds if kind in by_kind]
