"""The hostile edition's tracks and gold, and its track files read as the scoring program reads them."""

from __future__ import annotations

from pathlib import Path

from hostile import edition
from codajudge.gold import build_gold
from codajudge.scoring import read_track_file
from codajudge.spec import spec_from_dict

SPEC = spec_from_dict(edition.spec(), "task.json")
TRACKS = {t.id: t for t in SPEC.tracks}
GOLD = {t.id: build_gold(t, edition.items_of(t.id), "gold") for t in SPEC.tracks}


def read(path: Path, track_id: str):
    """The prediction in ``path`` read as the hostile edition's track ``track_id``."""
    return read_track_file(path, f"{track_id}.tsv", GOLD[track_id])
