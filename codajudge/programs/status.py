"""``ingestion_status.json``: what the prediction step says about itself, written by the ingestion
program beside its predictions and read by the scoring program and the ranking tool.

The file is a JSON object::

    {"status": "ok" | "failed", "message": str, "tracks": [track id, ...],
     "notes": [note, ...], "names": {track id: the participant's own file name}}

``tracks`` are the tracks the step wrote predictions for (only they are scored), ``notes`` what the
participant should know (files ignored, how a result submission's files were read; shown on the
results page) and ``names`` the file names of a result submission as the participant wrote them.
On the platform the file sits in a folder that participant code could write to, so it is read as
untrusted: a regular file of at most MAX_STATUS_BYTES, every field checked and cut to a
displayable length.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..formats.archive import INGESTION_STATUS
from ..formats.textfile import safe_display, shorten
from ..report import atomic_write
from ..untrusted import read_head

#: The prediction step's status files are small; a larger one is treated as unreadable.
MAX_STATUS_BYTES = 64 * 1024
OK = "ok"
FAILED = "failed"
#: The ``status`` of a file that exists but cannot be read as a status (no object, too large, a link).
UNREADABLE = "unreadable"
UNREADABLE_MESSAGE = "the ingestion status file is unreadable"
#: How many notes are kept, and their length and that of the names (characters), when read.
MAX_NOTES = 20
NOTE_CHARS = 300
NAME_CHARS = 200


@dataclass(frozen=True)
class IngestionStatus:
    """One prediction step's status. ``tracks`` is None when the file lists none (or no list of
    track ids): then it is no prediction output whose tracks could be trusted."""

    status: str
    message: str
    tracks: tuple[str, ...] | None = None
    notes: tuple[str, ...] = ()
    names: dict[str, str] = field(default_factory=dict)


def write_status(output_dir: Path, status: IngestionStatus) -> None:
    """Write ``output_dir/ingestion_status.json`` (atomically); ``tracks`` None is written as []."""
    document = dict(asdict(status), tracks=list(status.tracks or ()))
    text = json.dumps(document, ensure_ascii=False, indent=1) + "\n"
    atomic_write(output_dir / INGESTION_STATUS, text)


def read_small_text(path: Path, limit: int = MAX_STATUS_BYTES) -> str | None:
    """The text of a small status file (``limit`` bytes at most; undecodable bytes replaced), or
    None when it is absent, a link, no regular file or larger."""
    data = read_head(path, limit + 1)
    if data is None or len(data) > limit:
        return None
    return data.decode("utf-8", errors="replace")


def read_status(folder: Path) -> IngestionStatus | None:
    """The status file in ``folder``; None when there is none (a plain result submission), a status
    ``unreadable`` when something stands at its name that is no small JSON object."""
    path = folder / INGESTION_STATUS
    if not (path.is_file() or path.is_symlink()):
        return None
    document = read_json_object(path)
    if document is None:
        return IngestionStatus(UNREADABLE, UNREADABLE_MESSAGE)
    tracks, notes, names = (document.get(key) for key in ("tracks", "notes", "names"))
    listed = isinstance(tracks, list) and all(isinstance(track, str) for track in tracks)
    notes = notes[:MAX_NOTES] if isinstance(notes, list) else []
    names = names if isinstance(names, dict) else {}
    return IngestionStatus(
        status=str(document.get("status")),
        message=str(document.get("message") or "no message"),
        tracks=tuple(tracks) if listed and tracks else None,
        notes=tuple(map(note_as_read, notes)),
        names={
            track: shorten(safe_display(name), NAME_CHARS)
            for track, name in names.items()
            if isinstance(track, str) and isinstance(name, str)
        },
    )


def note_as_read(note: object) -> str:
    """A note as ``read_status`` gives it: escaped for display and cut to NOTE_CHARS."""
    return shorten(safe_display(str(note)), NOTE_CHARS)


def read_json_object(path: Path, limit: int = MAX_STATUS_BYTES) -> dict | None:
    """The JSON object in a small file written where participant code could write (``limit``
    bytes at most, undecodable bytes replaced), or None when it is absent, a link, no regular
    file, larger or no JSON object."""
    text = read_small_text(path, limit)
    try:
        document = json.loads(text) if text is not None else None
    except (ValueError, RecursionError):
        return None
    return document if isinstance(document, dict) else None
