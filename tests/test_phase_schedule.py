"""The phase schedule's one rule (``codajudge.bundle.schedule``): the edition config and the checker of
a built ``competition.yaml`` give the same verdict, with the same message, on the same dates."""

from __future__ import annotations

from pathlib import Path

import pytest

from codajudge.bundle.check import v2
from codajudge.bundle.check.findings import Findings
from codajudge.bundle.edition import _phases
from codajudge.errors import Problem

NAMES = ("Practice", "Evaluation")

#: case -> each phase's (start, end); None: the key is absent.
SCHEDULES = {
    "in order": [("2027-01-01 00:00:00", "2027-02-01 00:00:00"), ("2027-02-02 00:00:00", None)],
    "overlap": [("2027-01-01 00:00:00", "2027-02-01 00:00:00"), ("2027-01-15 00:00:00", None)],
    "touch": [("2027-01-01 00:00:00", "2027-02-01 00:00:00"), ("2027-02-01 00:00:00", None)],
    "end before start": [
        ("2027-01-01 00:00:00", "2026-12-01 00:00:00"),
        ("2027-02-02 00:00:00", None),
    ],
    "no end before the next phase": [
        ("2027-01-01 00:00:00", None),
        ("2027-02-02 00:00:00", None),
    ],
    "last phase ends as it starts": [
        ("2027-01-01 00:00:00", "2027-02-01 00:00:00"),
        ("2027-03-01 00:00:00", "2027-03-01 00:00:00"),
    ],
}


def _dates(start: str, end: str | None) -> dict:
    return {"start": start} if end is None else {"start": start, "end": end}


def edition_problems(schedule) -> list[Problem]:
    raw = [
        {"id": pid, **_dates(*dates)} for pid, dates in zip(("practice", "evaluation"), schedule)
    ]
    problems = []
    _phases(raw, problems, has_queue=False)
    return problems


def competition_yaml_messages(schedule) -> list[str]:
    phases = [
        {"index": i, "name": name, "tasks": [0], **_dates(*dates)}
        for i, (name, dates) in enumerate(zip(NAMES, schedule))
    ]
    findings = Findings()
    v2._check_phases(phases, {0: {}}, Path("."), findings, has_queue=False)
    return findings.lines()


@pytest.mark.parametrize("case", sorted(SCHEDULES))
def test_both_callers_give_the_same_verdict_and_message(case):
    """Each file names a phase its own way (its key path); the message after it is the same."""
    from_edition = edition_problems(SCHEDULES[case])
    from_bundle = competition_yaml_messages(SCHEDULES[case])
    assert len(from_edition) == len(from_bundle) == (0 if case == "in order" else 1)
    for problem, line in zip(from_edition, from_bundle):
        assert line.split(": ", 1)[1].startswith(problem.message)
        if problem.found is not None:
            assert f"expected {problem.expected}, found {problem.found}" in line


def test_an_overlap_names_both_phases_the_dates_and_the_fix():
    (problem,) = edition_problems(SCHEDULES["touch"])
    line = problem.render()
    assert line.startswith("phases (evaluation): phase 'Evaluation' starts before phase 'Practice'")
    assert "overlap or touch" in line
    assert "expected a start after 2027-02-01 00:00:00, found 2027-02-01 00:00:00" in line
    assert "Start 'Evaluation' later or end 'Practice' earlier" in line
    (line,) = competition_yaml_messages(SCHEDULES["touch"])
    assert line.startswith("phases[1]: phase 'Evaluation' starts before phase 'Practice'")
    assert "(start 'Evaluation' later or end 'Practice' earlier)" in line
