"""The one rule of a competition's phase schedule, as Codabench applies it: each phase ends after it
starts, and a phase followed by another has an end strictly before the next one starts (Codabench
refuses overlapping or touching phases). The edition config (``edition``) and the checker of a
built ``competition.yaml`` (``check.v2``) both apply it."""

from __future__ import annotations

import datetime as dt
from typing import NamedTuple
from collections.abc import Iterator, Sequence

from ..errors import Problem

#: How the edition config and competition.yaml write a date.
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"


def config_date(value) -> dt.datetime:
    """A date as the edition config writes it, text in ``DATE_FORMAT`` (quoted or not: the config's
    loader reads no timestamps), as a datetime; ValueError or TypeError otherwise."""
    return dt.datetime.strptime(value, DATE_FORMAT)


class ScheduledPhase(NamedTuple):
    """One phase's place in the schedule, in phase order. ``start`` and ``end`` are None when absent
    or unreadable (their own problem, found by the caller); ``has_end``: an end is written, even
    one that could not be read."""

    where: str  # the caller's name for the phase in a message (its key path in the file)
    name: str  # the phase's name as participants see it
    start: dt.datetime | None
    end: dt.datetime | None
    has_end: bool


def schedule_problems(schedule: Sequence[ScheduledPhase]) -> Iterator[Problem]:
    """The problems of ``schedule`` (phases in order): ends before starts first, then each pair of
    consecutive phases: the first has no end, or the second starts before it ends (or as it
    ends)."""
    for phase in schedule:
        if phase.start and phase.end and phase.end <= phase.start:
            yield Problem(
                phase.where,
                f"phase {phase.name!r} ends before it starts",
                expected=f"an end after {phase.start:{DATE_FORMAT}}",
                found=f"{phase.end:{DATE_FORMAT}}",
            )
    for phase, following in zip(schedule, schedule[1:]):
        if not phase.has_end:
            yield Problem(
                phase.where,
                f"phase {phase.name!r} has no end but phase {following.name!r} follows it",
                hint="every phase followed by another needs an 'end'",
            )
        elif phase.end and following.start and following.start <= phase.end:
            yield Problem(
                following.where,
                f"phase {following.name!r} starts before phase {phase.name!r} ends, or as it "
                "ends: Codabench refuses phases that overlap or touch",
                expected=f"a start after {phase.end:{DATE_FORMAT}}",
                found=f"{following.start:{DATE_FORMAT}}",
                hint=f"start {following.name!r} later or end {phase.name!r} earlier",
            )


def past_phase_notes(phases, now: dt.datetime | None = None) -> list[str]:
    """A note per phase of ``phases`` (``edition.Phase``) that ended before ``now`` (default: the
    current UTC time): an edition copied from an earlier one keeps its dates, and Codabench takes
    a phase already over without a word."""
    now = now or dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)
    return [
        f"phase {phase.id!r} ended on {phase.end:{DATE_FORMAT}} (UTC), before today; reusing an "
        "edition? set new dates under 'phases'"
        for phase in phases
        if phase.end and phase.end < now
    ]
