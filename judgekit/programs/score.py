"""The scoring program: ``score.py INPUT OUTPUT`` with INPUT/ref (gold + task.json) and INPUT/res.

INPUT/res is the result submission (extracted by the platform) or the ingestion step's output.
The worker's ``metadata`` file and the kit's ``ingestion_status.json`` there tell whether the
prediction step failed, in which case that failure is reported instead of scoring stale files.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
from pathlib import Path
from typing import List, Optional

import yaml

from ..errors import SubmissionError
from ..formats.archive import safe_extract, submission_files
from ..report import DETAILED_HTML, SCORES_JSON, SCORES_TXT, atomic_write, failure_html, write_outputs
from ..scoring import score_folder
from ..spec import read_spec
from .common import run_guarded

INGESTION_STATUS = "ingestion_status.json"


def check_prediction_step(res_dir: Path) -> None:
    """Refuse to score when the prediction step (ingestion or submitted code) failed."""
    status_path = res_dir / INGESTION_STATUS
    if status_path.is_file():
        try:
            status = json.loads(status_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            status = {"status": "failed", "message": "the ingestion status file is unreadable"}
        if status.get("status") != "ok":
            raise SubmissionError.single("prediction step", "the prediction step failed, so nothing was scored",
                                         found=str(status.get("message", "no message")),
                                         hint="see the ingestion log for details")
    meta_path = res_dir / "metadata"
    if meta_path.is_file():
        try:
            meta = yaml.safe_load(meta_path.read_text(encoding="utf-8", errors="replace"))
        except yaml.YAMLError:
            meta = None
        if isinstance(meta, dict):
            for key in ("ingestionExitCode", "exitCode"):
                code = meta.get(key)
                if isinstance(code, int) and not isinstance(code, bool) and code != 0:
                    raise SubmissionError.single("prediction step", "the prediction step failed, so nothing was scored",
                                                 found=f"{key} {code}", hint="see the prediction logs for the error")


def unpack_if_archive(res_dir: Path, work: Path) -> Path:
    """A folder holding only a zip (a submission copied as is) is read through a safe extraction."""
    files = submission_files(res_dir)
    if len(files) == 1 and files[0].suffix.lower() == ".zip":
        safe_extract(res_dir / files[0], work, str(files[0]))
        return work
    return res_dir


def score_submission(input_dir: Path, output_dir: Path) -> int:
    ref_dir, res_dir = input_dir / "ref", input_dir / "res"
    spec = read_spec(ref_dir)
    if not res_dir.is_dir():
        raise SubmissionError.single(str(res_dir), "the submission folder is missing",
                                     hint="the platform mounts the submission (or the prediction output) here")
    check_prediction_step(res_dir)
    with tempfile.TemporaryDirectory(prefix="judgekit-res-") as tmp:
        folder = unpack_if_archive(res_dir, Path(tmp))
        result = score_folder(spec, ref_dir, folder)
        write_outputs(output_dir, result, _detailed_page(result))
    for warning in result.warnings:
        print(f"note: {warning}")
    for key, value in result.scores().items():
        print(f"{key}: {value:.6f}")
    return 0


def _detailed_page(result) -> str:
    """The detailed results page, with plots and intervals where the stats layer is available."""
    from ..report import detailed_html
    return detailed_html(result)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="score.py", description=__doc__.splitlines()[0])
    parser.add_argument("input", nargs="?", default="/app/input", help="folder with ref/ and res/")
    parser.add_argument("output", nargs="?", default="/app/output", help="folder for scores.json")
    args = parser.parse_args(argv)
    input_dir, output_dir = Path(args.input), Path(args.output)
    output_dir.mkdir(parents=True, exist_ok=True)
    for stale in (SCORES_JSON, SCORES_TXT):
        if (output_dir / stale).exists():
            (output_dir / stale).unlink()

    def on_error(message: str) -> None:
        atomic_write(output_dir / DETAILED_HTML, failure_html("Submission not scored", message))

    return run_guarded(lambda: score_submission(input_dir, output_dir), "scoring program",
                       on_error=on_error, details_dir=output_dir)
