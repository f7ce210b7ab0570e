"""The one rule of a competition's phase schedule, as Codabench applies it: each phase ends after it
starts, and a phase followed by another has an end strictly before the next one starts (Codabench
refuses overlapping or touching phases). The edition config (``edition``) and the checker of a
built ``competition.yaml`` (``check.v2``) both apply it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from ..errors import Problem

#: How the edition config and competition.yaml write a date.
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"


def config_date(value) -> dt.datetime:
    """A date as the edition config may write it, a quoted ``DATE_FORMAT`` or an unquoted YAML
    timestamp (a date, nothing to coerce), as a datetime; ValueError or TypeError otherwise."""
    if isinstance(value, dt.datetime):
        return value
    if isinstance(value, dt.date):
        return dt.datetime(value.year, value.month, value.day)
    return dt.datetime.strptime(value, DATE_FORMAT)


def schedule_problems(schedule: Sequence[tuple]) -> list[Problem]:
    """The problems of ``schedule``: per phase, in phase order, ``(where, name, start, end,
    has_end)``: the caller's name for the phase in a message (its key path in the file), the
    phase's name as participants see it, its dates (None when absent or unreadable: their own
    problem, found by the caller) and whether an end is written, even one that could not be read.
    Ends before starts come first, then each pair of consecutive phases (a missing end, an
    overlap)."""
    problems = []
    for where, name, start, end, _ in schedule:
        if start and end and end <= start:
            problems.append(
                Problem(
                    where,
                    f"phase {name!r} ends before it starts",
                    expected=f"an end after {start:{DATE_FORMAT}}",
                    found=f"{end:{DATE_FORMAT}}",
                )
            )
    for phase, following in zip(schedule, schedule[1:]):
        where, name, _, end, has_end = phase
        next_where, next_name, next_start, _, _ = following
        if not has_end:
            problems.append(
                Problem(
                    where,
                    f"phase {name!r} has no end but phase {next_name!r} follows it",
                    hint="every phase followed by another needs an 'end'",
                )
            )
        elif end and next_start and next_start <= end:
            problems.append(
                Problem(
                    next_where,
                    f"phase {next_name!r} starts before phase {name!r} ends, or as it ends: "
                    "Codabench refuses phases that overlap or touch",
                    expected=f"a start after {end:{DATE_FORMAT}}",
                    found=f"{next_start:{DATE_FORMAT}}",
                    hint=f"start {next_name!r} later or end {name!r} earlier",
                )
            )
    return problems
