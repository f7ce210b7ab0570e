"""The phase schedule's one rule (``codajudge.bundle.schedule``): the edition config and the checker of
a built ``competition.yaml`` give the same verdict, with the same message, on the same dates."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from codajudge.bundle.check import v2
from codajudge.bundle.check.findings import Findings
from codajudge.bundle.edition import _phases
from codajudge.bundle.schedule import past_phase_notes
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


def test_a_phase_that_ended_before_today_is_noted_and_no_other():
    """An edition copied from last year keeps its dates: each phase over by ``now`` is noted
    (today fixed here), a phase still running or without an end is not."""
    phases = _phases(
        [
            {"id": "practice", "start": "2020-01-01 00:00:00", "end": "2020-02-01 00:00:00"},
            {"id": "evaluation", "start": "2020-02-02 00:00:00", "end": "2020-03-01 12:00:00"},
            {"id": "post-campaign", "start": "2020-03-02 00:00:00"},
        ],
        [],
        has_queue=False,
    )
    assert past_phase_notes(phases, now=dt.datetime(2020, 3, 1, 12)) == [
        "phase 'practice' ended on 2020-02-01 00:00:00 (UTC), before today; reusing an edition? "
        "set new dates under 'phases'"
    ]


@pytest.mark.parametrize("command", ["check", "dry run", "build"])
def test_check_and_build_note_past_dates_and_exit_as_before(command, tmp_path, capsys):
    """The note reaches the organiser in ``check`` (with and without --data), the dry run and
    the build summary; the exit code stays 0 (the dates are 2020's, past whatever today is)."""
    import yaml
    from small_edition import make_edition

    from codajudge import cli

    edition = make_edition(tmp_path / "edition")
    config = yaml.safe_load((edition / "edition.yaml").read_text(encoding="utf-8"))
    for phase in config["phases"]:
        phase.update({key: "2020" + phase[key][4:] for key in ("start", "end") if key in phase})
    (edition / "edition.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    args = {
        "check": [["check", str(edition)], ["check", str(edition), "--data", str(edition)]],
        "dry run": [["build", "--edition", str(edition), "--dry-run"]],
        "build": [["build", "--edition", str(edition), "--out", str(tmp_path / "out")]],
    }[command]
    for arg in args:
        assert cli.main(arg) == 0
        out = capsys.readouterr().out
        assert "phase 'evaluation' ended on 2020-02-14 23:59:59 (UTC), before today" in out, out
