"""competition.yaml (Codabench v2) from an edition: tasks, phases, the leaderboard, solutions.

The leaderboard's columns are ``score_rows``, the rows against which the builder checks the keys
the scoring program writes for the gold (``build.check_keys_with_gold``), so the two cannot drift
apart.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..metrics import get as get_metric
from ..tracks import PRECISION, PRIMARY_KEY, Track
from .columns import column_title
from .edition import Edition, Phase, split_text


def score_rows(tracks: Sequence[Track]) -> list[tuple[str, Track | None, str]]:
    """(score key, its track, its metric's name) of every score, in leaderboard order: the primary
    score first (no track; the first primary track's main metric), then every track's metrics in
    declaration order. The leaderboard's columns and the pages' score tables are these rows."""
    rows = [(PRIMARY_KEY, None, next(t for t in tracks if t.primary).main_metric)]
    return rows + [(key, t, metric) for t in tracks for key, metric in zip(t.keys, t.metrics)]


def leaderboard_columns(edition: Edition) -> list[dict]:
    """The leaderboard's columns (``score_rows``), titled within Codabench's limit."""
    return [
        {
            "title": column_title(track, metric) if track else edition.primary_rule.column_title,
            "key": key,
            "index": index,
            "sorting": "desc" if get_metric(metric).higher_is_better else "asc",
            "precision": PRECISION,
        }
        for index, (key, track, metric) in enumerate(score_rows(edition.tracks))
    ]


def competition_yaml(
    edition: Edition, pages: list[dict], kit_phases: list[Phase] | None = None
) -> dict:
    """The bundle's competition.yaml mapping, its baselines written as solutions
    (``solutions/NAME``); with ``kit_phases``, the starting kit's own (those phases only, no
    solutions, no starting kit to point to). One task per phase: all tracks of the phase's split,
    scored by the one scoring program."""
    phases = kit_phases or edition.phases
    solutions = [
        {
            "index": i,
            "name": name,  # its name on the platform (else "solution @ <timestamp>")
            "description": "A built-in baseline of the kit, run as a code submission",
            "tasks": list(range(len(phases))),  # every phase's task
            "path": f"solutions/{name}",
        }
        for i, name in enumerate(edition.baselines)
    ]
    starting_kit = None if kit_phases else "starting_kit"
    # the edition's title, key and submission_rule
    board = {**edition.leaderboard, "primary_index": 0, "columns": leaderboard_columns(edition)}
    return {
        "version": 2,
        "title": edition.title,
        "description": edition.description or edition.title,
        "image": "logo.png",
        "terms": "pages/terms.md",
        "docker_image": edition.docker_image,
        "registration_auto_approve": True,
        "enable_detailed_results": True,
        "show_detailed_results_in_submission_panel": True,
        "show_detailed_results_in_leaderboard": True,
        "make_programs_available": True,
        "make_input_data_available": True,
        "pages": pages,
        "tasks": [
            {
                "index": index,
                "name": f"{edition.title} - {phase.name}",
                "description": f"All tracks, {split_text(edition, phase)} split",
                # where the phase's programs and data live inside the bundle
                "scoring_program": "scoring_program",
                "ingestion_program": "ingestion_program",
                "reference_data": f"reference_data/{phase.id}",
                "input_data": f"input_data/{phase.id}",
            }
            for index, phase in enumerate(phases)
        ],
        # the optional keys, only when the edition sets them (solutions: the bundle's only)
        **({"contact_email": edition.contact_email} if edition.contact_email else {}),
        **({"queue": edition.queue} if edition.queue else {}),
        **({"solutions": solutions} if solutions and not kit_phases else {}),
        "phases": [_phase_entry(phase, index, starting_kit) for index, phase in enumerate(phases)],
        "leaderboards": [board],
    }


def _phase_entry(phase: Phase, index: int, starting_kit: str | None) -> dict:
    """A phase of competition.yaml: dates, limits, its task, the starting kit and its public data
    (no ``end`` for a phase that stays open, no ``starting_kit`` in the kit's own file)."""
    entry = {
        "index": index,
        "name": phase.name,
        "description": phase.description or phase.name,
        "start": phase.date_text("start"),
        "end": phase.date_text("end"),
        "max_submissions_per_day": phase.max_submissions_per_day,
        "max_submissions": phase.max_submissions,
        "execution_time_limit": phase.execution_time_limit,
        "tasks": [index],
        "starting_kit": starting_kit,
        "public_data": f"input_data/{phase.id}",
    }
    return {key: value for key, value in entry.items() if value is not None}
