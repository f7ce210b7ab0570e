"""The two steps of a submission on a participant's machine, laid out as on Codabench.

Prediction step: /app/program = ingestion program, /app/input_data = the phase's input data,
/app/ingested_program = the submission, /app/output = predictions. There is no reference data in
this layout, and the guard refuses Python-level reads of the bundle's reference data.
Scoring step: /app/program = scoring program, /app/input/ref = reference data, /app/input/res = the
prediction output (with the worker's ``metadata`` file), /app/output = scores.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from ..bundle.baselines_run import SOLUTION_TEMPLATE
from ..errors import SubmissionError
from ..formats.archive import safe_extract
from .bundle_view import PhaseTask
from .guard import FORBIDDEN_ENV
from .worker import StepResult, program_command, run_step

GUARD_SITE = Path(__file__).resolve().parent / "guard_site"
ENGINE = Path(__file__).resolve().parents[1]


@dataclass
class RunResult:
    prediction: Optional[StepResult]
    scoring: StepResult
    output: Path
    predictions: Path


def _layout(work: Path) -> dict:
    app = {p: str(work / p.strip("/").replace("/", "_")) for p in
           ("/app/program", "/app/input_data", "/app/ingested_program", "/app/output", "/app/input", "/app/shared")}
    app["/app/input/ref"] = app["/app/input"] + "/ref"
    app["/app/input/res"] = app["/app/input"] + "/res"
    return app


def place_submission(submission: str, target: Path) -> None:
    """A zip (extracted safely), a folder (copied) or ``baseline:NAME`` (a one-line code submission)."""
    if submission.startswith("baseline:"):
        target.mkdir(parents=True)
        (target / "model.py").write_text(SOLUTION_TEMPLATE.format(name=submission.split(":", 1)[1]),
                                         encoding="utf-8")
        return
    source = Path(submission)
    if source.is_dir():
        shutil.copytree(source, target, symlinks=True)
    elif source.is_file():
        target.mkdir(parents=True)
        safe_extract(source, target, source.name)
    else:
        raise SubmissionError.single(submission, "submission not found",
                                     expected="a zip, a folder or baseline:NAME (random, most_frequent, cosine_bow)")


def copy_program(source: Path, target: Path) -> None:
    """A program as the worker mounts it; the engine is put beside it when the bundle is the
    repository itself (a built bundle already carries it)."""
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    if not (target / "judgekit").is_dir():
        shutil.copytree(ENGINE, target / "judgekit", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


def copy_plain_submission(submission: Path, output: Path) -> None:
    """The worker copies a submission without a ``metadata`` file into the prediction output (it is
    run as a "program" that has no command), beside what the ingestion program writes."""
    if not any((submission / name).is_file() for name in ("metadata", "metadata.yaml")):
        shutil.copytree(submission, output, dirs_exist_ok=True, symlinks=True)


def run_submission(task: PhaseTask, submission: str, work: Path, time_limit: Optional[int] = None) -> RunResult:
    limit = time_limit or task.time_limit
    app = _layout(work)
    for key in ("/app/output", "/app/shared"):
        Path(app[key]).mkdir(parents=True)
    prediction = None
    if task.ingestion_program is not None:
        copy_program(task.ingestion_program, Path(app["/app/program"]))
        if task.input_data is not None:
            shutil.copytree(task.input_data, app["/app/input_data"])
        place_submission(submission, Path(app["/app/ingested_program"]))
        copy_plain_submission(Path(app["/app/ingested_program"]), Path(app["/app/output"]))
        forbidden = {FORBIDDEN_ENV: str(task.reference_data.resolve()),
                     "PYTHONPATH": str(GUARD_SITE)}
        args = program_command(Path(app["/app/program"]), app, is_scoring=False)
        prediction = run_step(args, Path(app["/app/program"]), limit, forbidden)
        shutil.rmtree(app["/app/program"])
    else:
        place_submission(submission, Path(app["/app/output"]))
    res = Path(app["/app/input/res"])
    shutil.copytree(app["/app/output"], res)
    if prediction is not None:
        (res / "metadata").write_text(json.dumps({"exitCode": prediction.exit_code,
                                                  "elapsedTime": round(prediction.seconds, 3),
                                                  "ingestionExitCode": prediction.exit_code,
                                                  "ingestionElapsedTime": round(prediction.seconds, 3)}) + "\n")
    scores_out = work / "scoring_output"
    scores_out.mkdir()
    app["/app/output"] = str(scores_out)
    copy_program(task.scoring_program, Path(app["/app/program"]))
    shutil.copytree(task.reference_data, app["/app/input/ref"])
    args = program_command(Path(app["/app/program"]), app, is_scoring=True)
    scoring = run_step(args, Path(app["/app/program"]), limit)
    return RunResult(prediction, scoring, scores_out, res)
