"""Running the built-in baselines at build time, through the real ingestion program.

Their scores go on the Baselines page, their predictions become the starting kit's sample result
submission, and each becomes a Codabench solution (a code submission of one line).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict

from ..assets import kit_root
from ..errors import ConfigError
from ..scoring import score_folder
from ..spec import read_spec
from .edition import Edition

SOLUTION_TEMPLATE = '''"""Baseline solution '{name}': a code submission that runs the kit's built-in baseline."""
from judgekit.baselines import baseline_class

Model = baseline_class("{name}")
'''


def run_baseline(name: str, input_dir: Path, output_dir: Path, seed: int) -> None:
    """Predictions of baseline ``name`` for one phase, written by the ingestion program itself."""
    script = kit_root() / "ingestion_program" / "ingest.py"
    command = [sys.executable, str(script), "--baseline", name, "--seed", str(seed),
               str(input_dir), str(output_dir)]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise ConfigError.single(f"baseline {name}", "the baseline failed on the edition's data",
                                 found=(done.stderr or done.stdout).strip()[-800:])


def baseline_scores(edition: Edition, root: Path) -> Dict[str, Dict[str, Dict[str, float]]]:
    """``scores[phase id][baseline][key]`` for every phase and baseline of the edition."""
    scores: Dict[str, Dict[str, Dict[str, float]]] = {}
    scored_split: Dict[str, str] = {}
    for phase in edition.phases:
        if phase.split in scored_split:  # same items and gold (evaluation, post-campaign): same scores
            scores[phase.id] = scores[scored_split[phase.split]]
            continue
        scored_split[phase.split] = phase.id
        ref = root / "reference_data" / phase.id
        spec = read_spec(ref)
        scores[phase.id] = {}
        for name in edition.baselines:
            with tempfile.TemporaryDirectory(prefix="judgekit-baseline-") as tmp:
                run_baseline(name, root / "input_data" / phase.id, Path(tmp), edition.seed)
                scores[phase.id][name] = score_folder(spec, ref, Path(tmp)).scores()
    return scores


def write_solutions(edition: Edition, root: Path) -> list:
    paths = []
    for name in edition.baselines:
        folder = root / "solutions" / name
        folder.mkdir(parents=True)
        (folder / "model.py").write_text(SOLUTION_TEMPLATE.format(name=name), encoding="utf-8")
        paths.append(f"solutions/{name}")
    return paths
