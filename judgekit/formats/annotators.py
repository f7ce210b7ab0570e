"""How many entries a perspectivist row holds, and which annotator each entry belongs to.

A row normally holds one entry per annotator of the item, in the item's ``annotators`` order. Two
other layouts written by LeWiDi 2025 participants and organisers are accepted, each decided once
per file (``RowFit.for_file``) and announced with one warning:

- **the release's annotators list**: VariErrNLI's ``annotators`` string repeats an annotator once per
  label given (``Ann1,Ann2,Ann2,Ann3``); a row as long as that list is read by merging the repeated
  positions, which must then agree;
- **the annotator pool**: the 2025 most-frequent baseline wrote every VariErrNLI row over the
  dataset's whole pool (``Ann1..Ann4``, 4 entries even for a 3-annotator item); a row as long as the
  pool whose item's annotators appear in the pool's order is read by pool position.

Anything else is refused with the item's annotators, their count and the order the entries follow.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence

import numpy as np

from .values import ValueProblem, annotator_entries, annotator_values

LISTED, POOL = "annotators list", "annotator pool"


def annotator_pool(annotators: Sequence[Sequence[str]]) -> List[str]:
    """Every annotator of the items, in an order every item's own order follows when one exists
    (a stable topological order; ties by first appearance), else in first-appearance order."""
    first: Dict[str, int] = {}
    after: Dict[str, set] = {}
    for names in annotators:
        for k, name in enumerate(names):
            first.setdefault(name, len(first))
            after.setdefault(name, set())
            if k:
                after[names[k - 1]].add(name)
    indegree = {name: 0 for name in first}
    for successors in after.values():
        for name in successors:
            indegree[name] += 1
    ready = sorted((n for n, d in indegree.items() if d == 0), key=first.get)
    order: List[str] = []
    while ready:
        name = ready.pop(0)
        order.append(name)
        for successor in after[name]:
            indegree[successor] -= 1
            if indegree[successor] == 0:
                ready.append(successor)
        ready.sort(key=first.get)
    return order if len(order) == len(first) else sorted(first, key=first.get)


def _positions(names: Sequence[str], pool_index: Dict[str, int]) -> Optional[List[int]]:
    """Pool positions of ``names`` if they all are in the pool, in increasing order; else None."""
    try:
        positions = [pool_index[name] for name in names]
    except KeyError:
        return None
    return positions if all(a < b for a, b in zip(positions, positions[1:])) else None


def _names(names: Sequence[str], limit: int = 8) -> str:
    return ", ".join(names[:limit]) + (", ..." if len(names) > limit else "")


@dataclass
class RowFit:
    """Fits a row's entries to its item's annotators, for one file (see the module docstring).

    ``listed[i]`` is item i's annotators list as the release wrote it (None when it names each
    annotator once); ``pool`` the dataset's annotator pool; ``mode`` the file's decision for rows
    whose length fits both layouts.
    """

    annotators: Sequence[Sequence[str]]
    listed: Sequence[Optional[Sequence[str]]] = ()
    pool: Sequence[str] = ()
    mode: Optional[str] = None

    @classmethod
    def for_file(cls, annotators, listed, lengths: Dict[int, int]) -> "RowFit":
        """The fit for a file whose item ``i`` row holds ``lengths[i]`` entries."""
        listed = list(listed) if listed else [None] * len(annotators)
        mismatched = {i: m for i, m in lengths.items() if m != len(annotators[i])}
        pool = annotator_pool(annotators) if mismatched else []
        decisive = set()
        for i, m in mismatched.items():
            fits = {LISTED} if listed[i] is not None and m == len(listed[i]) else set()
            if m == len(pool) and _positions(annotators[i], {a: k for k, a in enumerate(pool)}) is not None:
                fits.add(POOL)
            if len(fits) == 1:
                decisive |= fits
        mode = decisive.pop() if len(decisive) == 1 else POOL
        return cls(annotators, listed, pool, mode)

    def fit(self, i: int, entries: list, notes: List[str]) -> list:
        """Item ``i``'s entries, one per annotator in order; ValueProblem if the row cannot fit."""
        names = self.annotators[i]
        m, n = len(entries), len(names)
        if m == n:
            return entries
        listed = self.listed[i] if i < len(self.listed) else None
        positions = None
        if m == len(self.pool):
            positions = _positions(names, {a: k for k, a in enumerate(self.pool)})
        if listed is not None and m == len(listed) and (positions is None or self.mode == LISTED):
            notes.append(LISTED)
            return _merge_listed(entries, names, listed)
        if positions is not None:
            notes.append(POOL)
            return [entries[p] for p in positions]
        expected = (f"{n} entries, one per annotator of the item in this order: {_names(names)}" if n else
                    "an empty list []: the item has no annotators")
        if listed is not None:
            expected += f" (or {len(listed)}, one per name of the release's annotators list {_names(listed, 12)})"
        raise ValueProblem("wrong number of annotator entries", expected=expected, found=f"{m} entries",
                           hint="the item's annotators are in the input file's 'annotators' field")


def _same(a, b) -> bool:
    return np.array_equal(a, b) if isinstance(a, np.ndarray) or isinstance(b, np.ndarray) else a == b


def _merge_listed(entries: list, names: Sequence[str], listed: Sequence[str]) -> list:
    first: Dict[str, int] = {}
    for k, name in enumerate(listed):
        if name in first and not _same(entries[k], entries[first[name]]):
            raise ValueProblem(
                f"annotator {name} is given different entries at positions {first[name] + 1} and {k + 1}",
                expected=(f"one entry per annotator ({len(names)}: {_names(names)}), or one per name of the "
                          f"release's annotators list ({len(listed)}: {_names(listed, 12)}) with equal entries "
                          f"for a repeated annotator"),
                found=f"{len(entries)} entries")
        first.setdefault(name, k)
    return [entries[first[name]] for name in names]


def layout_warnings(notes: List[str]) -> List[str]:
    """One warning per layout read in a file (``notes`` as ``RowFit.fit`` fills it)."""
    out = []
    if notes.count(LISTED):
        out.append(f"{notes.count(LISTED)} row(s) had one entry per name of the release's annotators list "
                   f"(an annotator repeated once per label given); the repeated entries were merged")
    if notes.count(POOL):
        out.append(f"{notes.count(POOL)} row(s) had one entry per annotator of the dataset's whole pool; "
                   f"the entries of each item's own annotators were kept")
    return out


def parse_per_annotator(text: str, track, annotators: Sequence[str]) -> np.ndarray:
    """One row with exactly one entry per annotator of the item (``values.annotator_entries``)."""
    return annotator_values(RowFit([list(annotators)]).fit(0, annotator_entries(text, track, annotators), []),
                            track)
