"""The baselines' scores of each phase whose gold is public, written beside its gold
(``reference_data/<phase>/baseline_scores.json``) so that the results page can show them beside a
participant's scores. A hidden-gold phase gets no such file: its page shows the leaderboard's
scores only."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Dict

from ..report import BASELINE_SCORES
from .edition import Edition


def baseline_scores_text(scores: Dict[str, Dict[str, float]]) -> str:
    """``{baseline: {scores.json key: value}}`` as JSON, keys sorted (the build is reproducible)."""
    return json.dumps(scores, indent=1, sort_keys=True, allow_nan=False) + "\n"


def write_baseline_scores(
    edition: Edition, root: Path, scores: Dict[str, Dict[str, Dict[str, float]]]
) -> None:
    """``BASELINE_SCORES`` in the reference data of every public-gold phase with baselines run;
    ``scores``: ``baselines_run.baseline_scores`` (phase id -> baseline -> key -> value)."""
    for phase in edition.phases:
        if phase.public_gold and scores.get(phase.id):
            path = Path(root) / "reference_data" / phase.id / BASELINE_SCORES
            path.write_text(baseline_scores_text(scores[phase.id]), encoding="utf-8")
