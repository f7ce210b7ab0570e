"""What must hold after every run of the scoring program, whatever it was given.

``run_program`` runs ``python3 scoring_program/score.py INPUT OUTPUT`` as the platform does (a
fresh process, its own working folder and TMPDIR); ``run_in_process`` calls the same ``main`` for
the fuzzer. ``violations`` lists every broken promise: a traceback, an internal error, a partial
or invalid scores.json, a refusal without a single clear message naming the file.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Sequence

REPO = Path(__file__).resolve().parents[2]
SCORE_PY = REPO / "scoring_program" / "score.py"
REFUSAL_HEADER = "scoring program: the submission was not accepted:"
OUTPUT_NAMES = ("scores.json", "scores.txt", "detailed_results.html")


@dataclass
class Outcome:
    """What one run of the scoring program left: exit code, streams and output files."""

    code: int
    stdout: str
    stderr: str
    outputs: dict  # output file name -> bytes, for the files present

    @property
    def html(self) -> str:
        return self.outputs.get("detailed_results.html", b"").decode("utf-8", "replace")


def collect(code: int, stdout: str, stderr: str, output_dir: Path) -> Outcome:
    outputs = {}
    if output_dir.is_dir():
        for path in sorted(output_dir.iterdir()):
            if path.is_file():
                outputs[path.name] = path.read_bytes()
    return Outcome(code, stdout, stderr, outputs)


def run_program(input_dir: Path, output_dir: Path, work: Path, timeout: float = 120) -> Outcome:
    """One platform-style run in a fresh interpreter; temporary files go to ``work/tmp``."""
    tmp = work / "tmp"
    tmp.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "COV_"))}
    env.update(TMPDIR=str(tmp), PYTHONDONTWRITEBYTECODE="1", PYTHONUNBUFFERED="1", LC_ALL="C.UTF-8")
    proc = subprocess.run(
        [sys.executable, str(SCORE_PY), str(input_dir), str(output_dir)],
        cwd=work,
        env=env,
        capture_output=True,
        timeout=timeout,
    )
    return collect(
        proc.returncode,
        proc.stdout.decode("utf-8", "replace"),
        proc.stderr.decode("utf-8", "replace"),
        output_dir,
    )


def run_in_process(input_dir: Path, output_dir: Path) -> Outcome:
    """The same program through ``main`` in this interpreter (fast, for fuzzing)."""
    from codajudge.programs.score import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(input_dir), str(output_dir)])
    return collect(code, out.getvalue(), err.getvalue(), output_dir)


def _finite_json(text: str):
    def refuse(name):
        raise ValueError(f"non-standard JSON constant {name}")

    return json.loads(text, parse_constant=refuse)


def scores_problems(outcome: Outcome, keys: Sequence[str]) -> list[str]:
    """Why the scores.json of an accepted run is not a complete, finite set of leaderboard scores."""
    raw = outcome.outputs.get("scores.json")
    if raw is None:
        return ["exit 0 without scores.json"]
    try:
        scores = _finite_json(raw.decode("utf-8"))
    except ValueError as e:
        return [f"scores.json is not valid JSON: {e}"]
    problems = []
    if not isinstance(scores, dict) or "primary" not in scores:
        return ["scores.json is not an object with a primary score"]
    for key, value in scores.items():
        if key not in keys:
            problems.append(f"scores.json has an unknown key {key!r}")
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or not math.isfinite(value)
        ):
            problems.append(f"scores.json {key} = {value!r} is not a finite number")
    if "scores.txt" not in outcome.outputs:
        problems.append("scores.txt is missing")
    return problems


def refusal_problems(outcome: Outcome, file_names: Sequence[str]) -> list[str]:
    """Why a refusal is not one clear message: the header, then problem lines whose location (before
    the first ': ') names one of ``file_names``; and no scores may be left behind."""
    problems = []
    present = [name for name in ("scores.json", "scores.txt") if name in outcome.outputs]
    if present:
        problems.append(f"refused but left {', '.join(present)}")
    if outcome.code == 3 or "internal_error.txt" in outcome.outputs:
        problems.append("internal error (a bug, not a refusal)")
    lines = outcome.stderr.rstrip("\n").split("\n")
    if lines[0] != REFUSAL_HEADER:
        problems.append(f"stderr does not start with the refusal header: {lines[0][:200]!r}")
    elif len(lines) < 2:
        problems.append("refusal without a problem line")
    else:
        for line in lines[1:]:
            where = line.split(": ", 1)[0]
            if line.startswith("... and ") or any(name in where for name in file_names):
                continue
            problems.append(f"a problem line names no file: {line[:200]!r}")
    return problems


def violations(
    outcome: Outcome,
    keys: Sequence[str],
    file_names: Sequence[str],
    expected_code: int | None = None,
) -> list[str]:
    """Every broken promise of one run (empty when all hold)."""
    found = []
    for stream, text in (("stdout", outcome.stdout), ("stderr", outcome.stderr)):
        if "Traceback" in text:
            found.append(f"a traceback on {stream}")
    if any(word in outcome.outputs.get("scores.json", b"") for word in (b"NaN", b"Infinity")):
        found.append("scores.json holds NaN or Infinity")
    if re.search(rb"(?m): -?(nan|inf)$", outcome.outputs.get("scores.txt", b"")):
        found.append("scores.txt holds nan or inf")
    if expected_code is not None and outcome.code != expected_code:
        found.append(f"exit code {outcome.code}, expected {expected_code}")
    if outcome.code == 0:
        found += scores_problems(outcome, keys)
    else:
        found += refusal_problems(outcome, file_names)
    return found
