"""Reading what the runner needs from a bundle: a phase, its task's programs and data, its limits."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from ..confine import slug
from ..errors import ConfigError
from ..formats.textfile import utf8_text


@dataclass(frozen=True)
class PhaseTask:
    name: str
    time_limit: int
    scoring_program: Path
    ingestion_program: Path | None
    reference_data: Path
    input_data: Path | None
    columns: list


def read_competition(bundle: Path) -> dict:
    """The bundle's competition.yaml."""
    path = bundle / "competition.yaml"
    if not path.is_file():
        raise ConfigError.single(
            str(bundle),
            "not a bundle: competition.yaml is missing",
            hint="give the bundle folder or zip built by build_bundle.py, or the starting kit",
        )
    return yaml.safe_load(utf8_text(path.read_bytes(), str(path)))


def phase_task(bundle: Path, phase: str, doc: dict | None = None) -> PhaseTask:
    """The (single) task of the named phase; names match as ``confine.slug``s (case and punctuation
    aside). ``doc``: the bundle's ``read_competition``, when the caller has read it already."""
    doc = read_competition(bundle) if doc is None else doc
    phases = doc.get("phases") or []
    entry = next((p for p in phases if slug(p.get("name")) == slug(phase)), None)
    if entry is None:
        raise ConfigError.single(
            str(bundle / "competition.yaml"),
            "no such phase in this bundle",
            expected=" | ".join(str(p.get("name")) for p in phases),
            found=repr(phase),
        )
    task = next(t for t in doc.get("tasks") or [] if t["index"] == entry["tasks"][0])

    def where(key: str) -> Path | None:
        return bundle / task[key] if task.get(key) else None

    columns = (doc.get("leaderboards") or [{}])[0].get("columns", [])
    return PhaseTask(
        name=str(entry.get("name")),
        time_limit=int(entry.get("execution_time_limit", 600)),
        scoring_program=where("scoring_program"),
        ingestion_program=where("ingestion_program"),
        reference_data=where("reference_data"),
        input_data=where("input_data"),
        columns=columns,
    )
