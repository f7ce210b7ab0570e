"""Which of a track's items a file covers: the messages every reader gives for items without a
prediction and for ids that are not the track's (one wording for every layout)."""

from __future__ import annotations

from typing import List, Sequence

import numpy as np

from ..errors import ProblemCollector

UNKNOWN_ID = "unknown id: not an item of this track"


def missing_items(
    ids: List[str], given: Sequence[int], problems: ProblemCollector, shown: int = 5
) -> None:
    """Add the problem of the items of ``ids`` whose index is not in ``given`` (distinct item
    indices), if any: how many, how many the file has, and the first ``shown`` ids."""
    missing = np.setdiff1d(np.arange(len(ids)), np.asarray(given, dtype=np.int64))
    if not len(missing):
        return
    listed = ", ".join(repr(ids[i]) for i in missing[:shown])
    more = len(missing) - shown
    problems.add(
        f"{len(missing)} of the track's {len(ids)} items have no prediction "
        f"(the file has {len(ids) - len(missing)} of them): {listed}"
        + (f" and {more} more" if more > 0 else ""),
        hint="predict every item listed in the track's input file",
    )
