"""The folders CodaLab v1.5 lays out for one submission, and what each container running participant
code can reach, emulated from the sources (codalab/codalab-competitions @ c7ef5e28,
``codalab/apps/web/tasks.py`` and ``models.py``; codalab/competitions-v1-compute-worker @ 04534012,
``worker.py``). Nothing of either is imported: the rules are written out here with their lines.

- The site runs a prediction step only when the phase is not ``is_scoring_only`` (``tasks.py:758-786``;
  the model's default is True, ``models.py:889``, and organisers can change it in the phase editor,
  ``forms.py:79``). Its run bundle holds the submission as ``program``, the phase's
  ``input_data`` as ``input`` and, only when the phase has an ingestion program, that program and
  the phase's reference data as ``hidden_ref`` (``tasks.py:160-176``, ``189-194``).
- The worker unzips the run into ``TMP/<mkdtemp>/run`` and moves ``run/hidden_ref`` to
  ``TMP/hidden_ref`` (``worker.py:312-331``). A zip with a file named ``metadata`` is a code
  submission (``worker.py:438-442``).
- A submission ``metadata`` with a ``command`` runs in a container of its own that mounts the run
  folder and the shared folder (``worker.py:481-536``).
- With an ingestion program, a code submission starts the ingestion container, which mounts the run
  folder, the shared folder and the hidden reference folder (``worker.py:447-455``, ``573-595``);
  the ingestion program runs the participant's ``model.py`` in it.
- The scoring step runs the scoring program only (``tasks.py:496-508``): no participant code.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass
from pathlib import Path

import yaml


@dataclass(frozen=True)
class Container:
    """A container the v1 worker starts that runs participant code, and the host folders it mounts."""

    why: str
    mounts: list[Path]


def _unzip(data: bytes, into: Path) -> None:
    into.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        archive.extractall(into)


def _metadata(program: Path) -> dict | None:
    path = program / "metadata"
    if not path.is_file():
        return None
    return yaml.safe_load(path.read_text(encoding="utf-8")) or {}


def prediction_containers(
    bundle: Path, phase: dict, submission: bytes, tmp: Path
) -> list[Container]:
    """The containers running participant code in a submission's prediction step on v1.5, laid out
    under ``tmp`` (the worker's ``SUBMISSION_TEMP_DIR``) from the legacy bundle folder ``bundle``
    and its competition.yaml ``phase``; none when the site skips the step."""
    if phase.get("is_scoring_only", True):
        return []
    run = tmp / "tmpRUN" / "run"
    _unzip(submission, run / "program")
    if phase.get("input_data"):
        _unzip((bundle / phase["input_data"]).read_bytes(), run / "input")
    hidden_ref = None
    if phase.get("ingestion_program"):
        _unzip((bundle / phase["ingestion_program"]).read_bytes(), run / "ingestion_program")
        if phase.get("reference_data"):
            hidden_ref = tmp / "hidden_ref"  # moved out of run/ (worker.py:325-331)
            _unzip((bundle / phase["reference_data"]).read_bytes(), hidden_ref)
    shared = tmp / "tmpSHARED"
    shared.mkdir(parents=True, exist_ok=True)
    meta = _metadata(run / "program")
    containers = []
    if meta is not None and meta.get("command"):
        containers.append(Container("the submission's own command", [run, shared]))
    if meta is not None and phase.get("ingestion_program"):
        mounts = [run, shared] + ([hidden_ref] if hidden_ref else [])
        containers.append(Container("the ingestion program running model.py", mounts))
    return containers


def _file_bytes(path: Path) -> set:
    with zipfile.ZipFile(path) as archive:
        return {archive.read(n) for n in archive.namelist() if not n.endswith("/")}


def reachable_gold(bundle: Path, phase: dict, containers: list[Container]) -> dict[str, list[str]]:
    """For each container, the files under its mounts whose bytes are those of a file of the
    phase's reference data that its public input data does not also hold (``task.json``): what
    participant code there could read of the gold."""
    gold = _file_bytes(bundle / phase["reference_data"])
    if phase.get("input_data"):
        gold -= _file_bytes(bundle / phase["input_data"])
    found: dict[str, list[str]] = {}
    for container in containers:
        for mount in container.mounts:
            for path in sorted(mount.rglob("*")):
                if path.is_file() and path.read_bytes() in gold:
                    found.setdefault(container.why, []).append(str(path))
    return found
