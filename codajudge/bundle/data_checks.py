"""Every split an edition ships is checked like gold, the public training split included: labels in
the track's set, gold of a kind with a ``range`` (similarity) inside the track's, no id twice
within a split.

Ids may repeat across splits (OCNLI numbers each file from 0; ocnli scores its dev file as test too);
an item shared between a public and a scored split is the leak check's (``build._check_disjoint``).
"""

from __future__ import annotations

from collections import Counter
from typing import Dict, List, Optional

import numpy as np

from .. import kinds
from ..errors import ConfigError, Problem, counted
from ..gold import build_gold
from ..tracks import Track

MAX_IDS_SHOWN = 5


def duplicate_ids(items: List[dict], where: str) -> List[Problem]:
    repeated = [item_id for item_id, n in Counter(it["id"] for it in items).items() if n > 1]
    if not repeated:
        return []
    return [
        Problem(
            where,
            "an item id is repeated within the split",
            expected="each id once per split",
            found=f"{counted(len(repeated), 'repeated id')}: "
            + ", ".join(map(repr, repeated[:MAX_IDS_SHOWN]))
            + (", ..." if len(repeated) > MAX_IDS_SHOWN else ""),
        )
    ]


def out_of_range(track: Track, gold: np.ndarray, ids: List[str], where: str) -> List[Problem]:
    """Gold outside the track's declared ``range`` (default 0-5), for a kind with ``has_range``."""
    lo, hi = track.score_range
    outside = np.flatnonzero((gold < lo) | (gold > hi)).tolist()
    if not outside:
        return []
    shown = ", ".join(f"{ids[i]!r} ({gold[i]:g})" for i in outside[:MAX_IDS_SHOWN])
    return [
        Problem(
            where,
            f"{kinds.of(track).name} gold outside the track's range on {counted(len(outside), 'item')}",
            expected=f"scores from {lo:g} to {hi:g} (track '{track.id}' range)",
            found=shown + (", ..." if len(outside) > MAX_IDS_SHOWN else ""),
            hint="correct the data, or declare the scale with the track key range: [LOW, HIGH]",
        )
    ]


def track_problems(track: Track, items: List[dict], where: str) -> List[Problem]:
    try:
        gold = build_gold(track, items, where)
    except ConfigError as e:
        return list(e.problems)
    if not kinds.of(track).has_range:
        return []
    return out_of_range(track, gold.gold, gold.ids, where)


def split_problems(
    tracks: List[Track],
    splits: Dict[str, Dict[str, List[dict]]],
    places: Optional[Dict[str, Dict[str, str]]] = None,
) -> List[Problem]:
    """Every problem of every split (train included) of every track's dataset; ``places``: dataset
    -> split -> the file and key the problems name (default: the dataset's key and the split)."""
    problems: List[Problem] = []
    for split, datasets in splits.items():
        for dataset, items in sorted(datasets.items()):
            default = f"datasets '{dataset}' ({split})"
            where = (places or {}).get(dataset, {}).get(split, default)
            problems.extend(duplicate_ids(items, where))
            for track in tracks:
                if track.dataset == dataset and items:
                    problems.extend(track_problems(track, items, where))
    return problems
