"""The scoring program on each shipped edition's evaluation phase, as participants' submissions meet it.

Each edition is built from its release data (``build_bundle.py --edition E --data ../shared/data``,
or taken already built from ``--bundles DIR``, as ``DIR/E/E``); a baseline of the bundle's
``solutions/`` writes the submission through the ingestion program; the scoring program then scores
it. Its CPU time (user + system) is set against the CPU time of a fresh interpreter merely importing
what the scorer cannot do without: numpy and PyYAML, plus the scipy module a metric of the phase
needs. An edition whose release data is absent is skipped with the reason.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from .measure import REPO, interleaved, run_imports, run_scorer

EDITIONS = ("default", "sts2017", "ocnli", "lewidi2025", "chaosnli", "lewidi2023")
#: The release data of every edition but ``default`` (which ships its own).
DATA = REPO.parent / "shared" / "data"
#: ``--bundles`` of run.py: a folder of editions already built (``DIR/E/E``), instead of building.
BUNDLES = os.environ.get("CODAJUDGE_BENCH_BUNDLES")
INGEST = REPO / "ingestion_program" / "ingest.py"
BASE_IMPORTS = ("numpy", "yaml")
#: The scipy module each metric that uses scipy imports while scoring.
SCIPY_BY_METRIC = {"jsd": "scipy.special", "kl": "scipy.special"}
#: The scoring program's CPU time over the imports' at most this.
IMPORT_RATIO_MAX = 1.8
#: The baseline that writes the submission: the first of these the bundle ships.
BASELINE_ORDER = ("cosine_bow", "most_frequent", "random")


def edition_bundle(name: str, workdir: Path) -> Path | None:
    """The built bundle folder of edition ``name``; None when its release data is absent."""
    if BUNDLES:
        return Path(BUNDLES) / name / name
    if name != "default" and not DATA.is_dir():
        return None
    out = workdir / "bundles" / name
    data = [] if name == "default" else ["--data", str(DATA)]
    command = [sys.executable, "build_bundle.py", "--edition", name, *data, "--out", str(out)]
    subprocess.run(command, cwd=str(REPO), check=True, capture_output=True)
    return out / name


def write_submission(bundle: Path, res: Path) -> str:
    """``res/<track>.tsv`` from a baseline the bundle ships, by the ingestion program; its name."""
    baseline = next(b for b in BASELINE_ORDER if (bundle / "solutions" / b).is_dir())
    command = [sys.executable, str(INGEST), str(bundle / "input_data" / "evaluation"), str(res)]
    subprocess.run(
        [*command, "--baseline", baseline], cwd=str(REPO), check=True, capture_output=True
    )
    return baseline


def imports_of(spec: dict) -> list[str]:
    """What the scoring program of this phase must import: numpy, PyYAML and its metrics' scipy."""
    metrics = {m for track in spec["tracks"] for m in track["metrics"]}
    return [*BASE_IMPORTS, *sorted({SCIPY_BY_METRIC[m] for m in metrics & set(SCIPY_BY_METRIC)})]


def edition_case(name: str, workdir: Path) -> list[dict]:
    """One row: the scoring program's CPU time on the edition's evaluation phase over the imports'."""
    bundle = edition_bundle(name, workdir)
    if bundle is None:
        return [{"case": f"edition {name}", "skipped": f"no release data at {DATA}"}]
    root = workdir / f"edition-{name}"
    (root / "input").mkdir(parents=True)
    ref = bundle / "reference_data" / "evaluation"
    (root / "input" / "ref").symlink_to(ref)
    baseline = write_submission(bundle, root / "input" / "res")
    spec = json.loads((ref / "task.json").read_text(encoding="utf-8"))
    modules = imports_of(spec)
    run, imports = interleaved(
        lambda: run_scorer(root / "input", root / "out"),
        lambda: run_imports(modules, root / "imports"),
    )
    datasets = {track["dataset"] for track in spec["tracks"]}
    items = sum(_line_count(ref / f"{dataset}.jsonl") for dataset in datasets)
    shutil.rmtree(root, ignore_errors=True)
    return [
        {
            "case": f"edition {name}",
            "items": items,
            "seconds": run.cpu_seconds,
            "peak_mb": run.peak_mb,
            "floor_seconds": imports.cpu_seconds,
            "floor_ratio": run.cpu_seconds / imports.cpu_seconds,
            "floor_ratio_max": IMPORT_RATIO_MAX,
            "detail": f"CPU seconds; {len(spec['tracks'])} tracks, {baseline} baseline, "
            f"floor: import {', '.join(modules)}",
        }
    ]


def _line_count(path: Path) -> int:
    with open(path, "rb") as f:
        return sum(1 for line in f if line.strip())
