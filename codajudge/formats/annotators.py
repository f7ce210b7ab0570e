"""Which annotator each entry of a perspectivist row belongs to.

A row holds one entry per annotator of the item, in its ``annotators`` order. Two other layouts seen
in LeWiDi 2025 are read, decided once per file (``RowFit``) and announced with one warning:

- **the release's annotators list**: VariErrNLI's ``annotators`` string repeats an annotator once per
  label given (``Ann1,Ann2,Ann2,Ann3``); a row that long is read by merging the repeated positions,
  which must then agree;
- **the annotator pool**: the 2025 most-frequent baseline wrote every VariErrNLI row over the whole
  pool (``Ann1..Ann4``, even for a 3-annotator item); a row that long is read by pool position when
  the item's annotators appear in the pool's order.

Which entries of such a row are scored is the track's annotator alignment: by name (each entry is its
list or pool annotator's), or as the LeWiDi 2025 official scorer (``first_entries``: its first k
entries, in order, against the item's k annotators; the scorer paired them with ``zip()``).

Anything else is refused with the item's annotators, their count and the order the entries follow.
"""

from __future__ import annotations

from collections import Counter
from heapq import heappop, heappush
from collections.abc import Sequence

import numpy as np

from ..errors import first_few
from ..metrics import PerAnnotator
from .notes import (
    ANNOTATOR_POOL,
    ANNOTATOR_POOL_FIRST,
    ANNOTATORS_LIST,
    ANNOTATORS_LIST_FIRST,
    LONGER_ROWS_FIRST,
    ReadNote,
)
from .perspectivist import annotator_entries, annotator_values, as_annotator_array
from .values import ValueProblem

#: The layouts a row of another length than its item's annotators may have, each as the notes that
#: announce a row read in it: by name, and (index 1) by first entries.
LISTED = (ANNOTATORS_LIST, ANNOTATORS_LIST_FIRST)
POOL = (ANNOTATOR_POOL, ANNOTATOR_POOL_FIRST)
#: A row longer than its item's annotators in neither layout, read by first entries only.
LONGER = (LONGER_ROWS_FIRST, LONGER_ROWS_FIRST)


def per_annotator(values: np.ndarray, counts: np.ndarray, n_labels: int) -> PerAnnotator:
    """Per-annotator values over items, ``counts[i]`` rows for item i in item order: label indices
    ``(m,)`` or 0/1 choices ``(m, K)`` of a multilabel track."""
    item = np.repeat(np.arange(len(counts), dtype=np.int64), counts)  # each row's item
    offsets = np.concatenate(([0], np.cumsum(counts)))  # item i's rows start at offsets[i]
    return PerAnnotator(values, item, len(counts), n_labels, offsets)


def annotator_names(annotators) -> list[str]:
    """An item's annotators (its ``annotators`` field) as names, in order; none for null or absent."""
    return list(map(str, annotators or []))


def annotator_pool(annotators: Sequence[Sequence[str]]) -> list[str]:
    """Every annotator of the items, in an order every item's own order follows when one exists
    (a stable topological order: ties by first appearance), else in first-appearance order."""
    after: dict[str, set] = {}  # each annotator's successors, in first-appearance order
    for names in annotators:
        for k, name in enumerate(names):
            after.setdefault(name, set()).update(names[k + 1 : k + 2])
    rank = {name: r for r, name in enumerate(after)}
    # predecessors not yet placed
    waiting = Counter(name for successors in after.values() for name in successors)
    ready = [(rank[name], name) for name in after if not waiting[name]]  # sorted: a heap
    placed = []
    # Kahn's algorithm, the first ready annotator in first-appearance order placed first
    while ready:
        placed.append(heappop(ready)[1])
        for name in after[placed[-1]]:
            waiting[name] -= 1
            if not waiting[name]:
                heappush(ready, (rank[name], name))
    # else a cycle: the items' orders disagree
    return placed if len(placed) == len(after) else list(after)


#: Annotator names (or row columns) a message lists, at most.
NAMES_SHOWN = 8


class RowFit:
    """Fits a file's rows to their items' annotators. ``listed[i]``: item i's annotators list as the release
    wrote it (None when it names each annotator once); ``lengths[i]``: how many entries item i's row has;
    ``first_entries``: a longer row's first entries are its item's annotators' (the 2025 scorer's rule,
    a row of any greater length), else each entry is its list or pool annotator's."""

    def __init__(
        self,
        annotators,
        listed=(),
        lengths: dict[int, int] | None = None,
        first_entries: bool = False,
    ):
        self.annotators, self.listed = annotators, listed or [None] * len(annotators)
        self.first_entries = first_entries
        mismatched = {i: m for i, m in (lengths or {}).items() if m != len(annotators[i])}
        pool = annotator_pool(annotators) if mismatched else []
        self.pool = {name: k for k, name in enumerate(pool)}
        layouts = map(self._layouts, mismatched, mismatched.values())
        decisive = {fits[0] for fits in layouts if len(fits) == 1}
        self.mode = decisive.pop() if len(decisive) == 1 else POOL  # for rows that fit both layouts

    def fit(self, i: int, entries: list, notes: list[ReadNote]) -> list:
        """Item ``i``'s entries, one per annotator in order; ValueProblem if the row cannot fit."""
        names, listed, m = self.annotators[i], self.listed[i], len(entries)
        if m == len(names):
            return entries
        fits = self._layouts(i, m)
        if not fits:
            expected = "an empty list []: the item has no annotators"
            if names:
                expected = f"{len(names)} entries, one per annotator of the item in this order: {first_few(names, NAMES_SHOWN)}"
            if listed is not None:
                expected += f" (or {len(listed)}, one per name of the release's annotators list {first_few(listed, 12)})"
            by_pool = not self.first_entries and self._positions(i) is not None
            if names and len(self.pool) != len(names) and by_pool:
                expected += f" (or {len(self.pool)}, one per annotator of the dataset's pool)"
            raise ValueProblem(
                "wrong number of annotator entries",
                expected=expected,
                found=f"{m} entries",
                hint="the item's annotators are in the input file's 'annotators' field",
            )
        layout = self.mode if len(fits) == 2 else fits[0]
        if self.first_entries:
            positions = list(range(len(names)))
        elif layout == LISTED:
            positions = _listed_positions(entries, names, listed)
        else:
            positions = self._positions(i)
        columns = first_few([str(p + 1) for p in positions], NAMES_SHOWN)
        alignment = f"columns {columns} against {first_few(names, NAMES_SHOWN)}"
        notes.append(ReadNote(layout[self.first_entries], alignment=alignment))
        return [entries[p] for p in positions]

    def _layouts(self, i: int, m: int) -> list[str]:
        """The layouts a row of ``m`` entries (not item i's number of annotators) fits."""
        fits = [LISTED] if self.listed[i] is not None and m == len(self.listed[i]) else []
        by_pool = self.first_entries or self._positions(i) is not None  # by name: pool order
        fits += [POOL] if m == len(self.pool) and by_pool else []
        # the 2025 scorer's zip(): any longer row's first entries, the others dropped
        longer = self.first_entries and not fits and m > len(self.annotators[i])
        return [LONGER] if longer else fits

    def _positions(self, i: int) -> list[int] | None:
        """Pool positions of item i's annotators when all are in the pool, in its order; else None."""
        positions = [self.pool.get(name, -1) for name in self.annotators[i]]
        return positions if all(a < b for a, b in zip([-1] + positions, positions)) else None


def _listed_positions(entries: list, names: Sequence[str], listed: Sequence[str]) -> list[int]:
    """Each annotator's first position in the release's annotators list, whose repeated entries must
    agree (ValueProblem otherwise)."""
    first: dict[str, int] = {}
    for k, name in enumerate(listed):
        if name in first and entries[k] != entries[first[name]]:
            raise ValueProblem(
                f"annotator {name} is given different entries at positions {first[name] + 1} and {k + 1}",
                expected=(
                    f"one entry per annotator ({len(names)}: {first_few(names, NAMES_SHOWN)}), or one per name of the "
                    f"release's annotators list ({len(listed)}: {first_few(listed, 12)}) with equal entries "
                    "for a repeated annotator"
                ),
                found=f"{len(entries)} entries",
            )
        first.setdefault(name, k)
    return [first[name] for name in names]


def parse_per_annotator(
    text: str, track, annotators: Sequence[str], pool: Sequence[str] = ()
) -> np.ndarray:
    """One row with one entry per annotator of the item, or one per annotator of the items' whole
    ``pool`` (as the 2025 baseline wrote VariErrNLI's), as written (``perspectivist.annotator_entries``)."""
    entries = annotator_entries(text, track, annotators, [], len(annotators))
    written = pool if len(entries) == len(pool) != len(annotators) else annotators
    return as_annotator_array(annotator_values(RowFit([written]).fit(0, entries, []), track), track)
