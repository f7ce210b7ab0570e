"""The baselines' scores of each phase whose gold is public, written beside its gold
(``reference_data/<phase>/baseline_scores.json``) so that the results page can show them beside a
participant's scores. A hidden-gold phase gets no such file: its page shows the leaderboard's
scores only. An edition whose primary score counts a missing track as a baseline's score
(``primary_score: {missing: baseline NAME}``) gets that baseline's main metric per primary track in
the reference data's task.json of every phase (never in the input data's)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Dict

from ..errors import ConfigError
from ..report import BASELINE_SCORES
from ..spec import BASELINE, read_spec, write_spec
from ..tracks import score_key
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


def write_missing_track_scores(
    edition: Edition, root: Path, scores: Dict[str, Dict[str, Dict[str, float]]]
) -> None:
    """The ``baseline NAME`` rule's scores (track id -> main metric of that baseline on the phase,
    for every track: the ranking's groups count them too) in each phase's reference ``task.json``;
    nothing for the other rules."""
    rule = edition.primary_rule
    if rule.missing != BASELINE:
        return
    for phase in edition.phases:
        ran = scores.get(phase.id, {}).get(rule.baseline)
        if ran is None:
            raise ConfigError.single(
                f"edition {edition.name}: primary_score: missing",
                f"baseline {rule.baseline} was not run on phase {phase.id}",
                hint="name a baseline the edition can run (one that needs no missing training "
                "split)",
            )
        folder = Path(root) / "reference_data" / phase.id
        spec = read_spec(folder)
        by_track = {t.id: ran[score_key(t.id, t.main_metric)] for t in spec.tracks}
        write_spec(folder, replace(spec, primary_rule=replace(rule, baseline_scores=by_track)))
