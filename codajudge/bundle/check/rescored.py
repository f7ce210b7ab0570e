"""A built bundle's phases against ``phase_gold``'s third rule: before the evaluation ends, no
hidden-gold phase scores items that a later hidden-gold phase scores (Codabench v2 bundles; a
post-campaign phase, one starting after the evaluation ends, is exempt). Items are the same when
their texts are (``text_key``, the texts read from the task's input data), or their ids when the
input data has no texts for them."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Set

from ..leaks import text_key
from ..phase_gold import later_hidden_pairs
from .findings import Findings
from .values import parse_date


@dataclass
class ScoredPhase:
    """One phase of the bundle with reference data: ``id`` its kit id (task.json's ``phase``),
    ``where`` its reference data's path, ``keys`` dataset -> the keys of the items it scores."""

    id: str
    name: str
    where: str
    start: Optional[dt.datetime]
    end: Optional[dt.datetime]
    hide_gold: bool
    keys: Dict[str, Set[tuple]] = field(default_factory=dict)


def phase_dates(phase: dict) -> tuple:
    """(start, end) of a v2 phase, None where absent (the v2 check has reported bad dates)."""
    scratch = Findings()
    return tuple(
        parse_date(phase[key], key, scratch) if phase.get(key) not in (None, "") else None
        for key in ("start", "end")
    )


def item_key(item: dict) -> tuple:
    key = text_key(item)
    return key if any(key) else ("id", str(item["id"]))


def check_rescored(phases: List[ScoredPhase], findings: Findings) -> None:
    """A finding for each (earlier, later) pair of hidden-gold phases, the later one not
    post-campaign, that score items in common."""
    dated = [p for p in phases if p.start is not None]
    for earlier, later in later_hidden_pairs(dated):
        shared = sum(len(keys & later.keys.get(d, set())) for d, keys in earlier.keys.items())
        if not shared:
            continue
        findings.add(
            earlier.where,
            f"phase {earlier.name!r} scores {shared} items that the later phase {later.name!r} "
            f"({later.where}) scores, both with gold hidden: the scores of its submissions would "
            f"reveal the gold of phase {later.name!r} before the evaluation ends",
            expected=f"phase {earlier.name!r} scoring no item of phase {later.name!r}",
            hint="rebuild from an edition whose earlier phase scores items of its own (exclude, "
            "sample; docs/participant-checks.md); a phase starting after the evaluation ends may "
            "score them again",
        )
