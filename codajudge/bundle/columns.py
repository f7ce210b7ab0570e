"""Leaderboard column titles: "<track title> <metric title>", whole words, within Codabench's limit.

Codabench stores a column title in 36 characters (``leaderboards.Column.title``). A title that does
not fit uses the metric's short title; a track title too long even for that is a config error, so
no title is ever cut inside a word.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..errors import Problem
from ..metrics import get as get_metric
from ..tracks import Track

MAX_COLUMN_TITLE = 36


def column_title(track: Track, metric: str) -> str | None:
    """The column title of one metric of one track, or None when even the short form is too long."""
    found = get_metric(metric)
    titles = (f"{track.title} {name}" for name in (found.title, found.short_title or found.title))
    return next((title for title in titles if len(title) <= MAX_COLUMN_TITLE), None)


def column_title_problems(tracks: Sequence[Track], where: str) -> Iterator[Problem]:
    """One problem per track whose title leaves no room for a metric's (short) title, naming the
    first such metric."""
    for track in tracks:
        too_long = [metric for metric in track.metrics if column_title(track, metric) is None]
        if not too_long:
            continue
        shortest = get_metric(too_long[0]).short_title or get_metric(too_long[0]).title
        yield Problem(
            f"{where} '{track.id}'",
            f"the track's title is too long for the leaderboard column of metric "
            f"'{too_long[0]}' ('<title> {shortest}' must fit in {MAX_COLUMN_TITLE} characters)",
            expected=f"a title of at most {MAX_COLUMN_TITLE - len(shortest) - 1} characters",
            found=f"{track.title!r} ({len(track.title)} characters)",
            hint="set a shorter 'title' on the track",
        )
