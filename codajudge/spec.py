"""The task spec: what the scoring and ingestion programs know about an edition and phase.

The builder writes it as ``task.json`` beside the reference data and the input data, so the
programs are edition-agnostic: a new edition needs new data and a new spec, never new code.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import List, Optional

from . import __version__
from .errors import ConfigError, Problem, strict_bool
from .metrics import get as get_metric
from .stats.bootstrap import DEFAULT_SEED
from .tracks import Track, tracks_from_list

SPEC_FILE = "task.json"
PHASES = ("practice", "evaluation", "post-campaign")


@dataclass(frozen=True)
class TaskSpec:
    """An edition's tracks for one phase. ``hide_gold`` forbids per-item gold in any report."""

    edition: str
    title: str
    phase: str
    tracks: List[Track]
    hide_gold: bool = True
    kit_version: str = __version__
    seed: int = DEFAULT_SEED
    extra: dict = field(default_factory=dict)

    def track(self, track_id: str) -> Optional[Track]:
        return next((t for t in self.tracks if t.id == track_id), None)

    @property
    def primary_tracks(self) -> List[Track]:
        return [t for t in self.tracks if t.primary]

    def to_dict(self) -> dict:
        return {
            "edition": self.edition,
            "title": self.title,
            "phase": self.phase,
            "hide_gold": self.hide_gold,
            "kit_version": self.kit_version,
            "seed": self.seed,
            "tracks": [t.to_dict() for t in self.tracks],
            **self.extra,
        }


def check_primary_direction(tracks: List[Track], where: str) -> None:
    """The primary score averages the primary tracks' main metrics: they must share a direction."""
    primary = [t for t in tracks if t.primary]
    if not primary:
        raise ConfigError.single(
            where, "no track has 'primary: true'; the primary score needs at least one"
        )
    directions = {get_metric(t.main_metric).direction for t in primary}
    if len(directions) > 1:
        detail = ", ".join(
            f"{t.id} ({t.main_metric}: {get_metric(t.main_metric).direction} is better)"
            for t in primary
        )
        raise ConfigError.single(
            where,
            "primary tracks mix higher-is-better and lower-is-better metrics",
            found=detail,
            hint="mark only tracks of one direction as primary",
        )


def spec_from_dict(raw: dict, where: str) -> TaskSpec:
    if not isinstance(raw, dict):
        raise ConfigError.single(where, "the task spec must be a JSON object")
    missing = [k for k in ("edition", "phase", "tracks") if k not in raw]
    if missing:
        raise ConfigError([Problem(where, f"missing key '{k}'") for k in missing])
    tracks = tracks_from_list(raw["tracks"], where=f"{where}: tracks")
    check_primary_direction(tracks, where)
    known = {"edition", "title", "phase", "tracks", "hide_gold", "kit_version", "seed"}
    return TaskSpec(
        edition=str(raw["edition"]),
        title=str(raw.get("title", raw["edition"])),
        phase=str(raw["phase"]),
        tracks=tracks,
        hide_gold=strict_bool(raw, "hide_gold", True, where),
        kit_version=str(raw.get("kit_version", __version__)),
        seed=int(raw.get("seed", DEFAULT_SEED)),
        extra={k: v for k, v in raw.items() if k not in known},
    )


def read_spec(folder: Path) -> TaskSpec:
    path = Path(folder) / SPEC_FILE
    display = f"{Path(folder).name}/{SPEC_FILE}"
    if not path.is_file():
        raise ConfigError.single(
            display,
            "the task spec is missing",
            hint="the bundle's reference and input data must each contain task.json, "
            "written by build_bundle.py",
        )
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ConfigError.single(display, f"cannot read the task spec ({e})")
    return spec_from_dict(raw, display)


def write_spec(folder: Path, spec: TaskSpec) -> None:
    text = json.dumps(spec.to_dict(), ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    (Path(folder) / SPEC_FILE).write_text(text, encoding="utf-8")
