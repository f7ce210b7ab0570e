"""The one shape of a recorded reader outcome, shared by the recorders of ``tests/hostile/``.

``['ok', *summary(result)]`` or ``['error', error type, full message]``; any other exception is a
crash of the kit and propagates (a recording never turns a crash into an expected outcome).
"""

from __future__ import annotations

from typing import Callable

from codajudge.errors import ConfigError, SubmissionError


def recorded_outcome(action: Callable[[], object], summary: Callable[[object], list]) -> list:
    try:
        result = action()
    except (SubmissionError, ConfigError) as e:
        return ["error", type(e).__name__, str(e)]
    return ["ok", *summary(result)]
