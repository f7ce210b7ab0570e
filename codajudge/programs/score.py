"""The scoring program: ``score.py INPUT OUTPUT`` with INPUT/ref (gold + task.json) and INPUT/res.

INPUT/res is the result submission (extracted by the platform) or the ingestion step's output.
The worker's ``metadata`` file and the kit's ``ingestion_status.json`` there tell whether the
prediction step failed, in which case that failure is reported instead of scoring stale files.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import zipfile
from pathlib import Path

# One BLAS thread, set before numpy is first imported (an organiser's own setting wins): scoring is
# element-wise work, and more OpenBLAS threads would only start, busy-wait and take CPU from the
# program on a two-core worker (0.1 s of CPU for a 50,000-item track).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from ..errors import SubmissionError  # noqa: E402
from ..formats.archive import INGESTION_STATUS, READ_ERRORS, safe_extract  # noqa: E402
from ..formats.textfile import safe_lines, shorten  # noqa: E402
from ..gold import GoldTrack  # noqa: E402
from .. import report  # noqa: E402
from ..scoring import Result, score_folder  # noqa: E402
from ..spec import SCORING_ONLY, TaskSpec, read_spec  # noqa: E402
from .common import argument_parser, check_input_folder, own_words  # noqa: E402
from .common import SUBMISSION_INPUT, run_guarded, writing_into  # noqa: E402
from .opening import open_submission  # noqa: E402
from .status import MAX_STATUS_BYTES, OK, IngestionStatus, note_as_read, read_small_text  # noqa: E402
from .status import read_status  # noqa: E402


#: What a missing INPUT folder should have been.
INPUT_HINT = (
    "give the folder holding ref/ (the reference data, with its task.json) and res/ (the "
    "submission or the prediction output), the one the platform mounts at /app/input"
)
#: How many characters of the prediction step's message the scoring program repeats.
STATUS_MESSAGE_CHARS = 2000


def _check_metadata(res_dir: Path) -> None:
    """Refuse to score when the worker recorded a non-zero exit code in res/metadata."""
    text = read_small_text(res_dir / "metadata")
    if text is None:
        return
    import yaml  # imported here: only the platform's worker writes this file, and yaml takes a while to load

    try:
        meta = yaml.safe_load(text)
    except Exception:  # noqa: BLE001 - the worker's file; whatever cannot be parsed carries no exit code
        return
    for key in ("ingestionExitCode", "exitCode") if isinstance(meta, dict) else ():
        code = meta.get(key)
        if isinstance(code, int) and not isinstance(code, bool) and code != 0:
            raise SubmissionError.single(
                "metadata",
                "the prediction step failed, so nothing was scored",
                found=f"{key} {code}",
                hint="see the prediction logs for the error",
            )


#: The prediction step's status files, read from the root of a zip (its extraction leaves them out).
STATUS_FILES = (INGESTION_STATUS, "metadata")
IGNORED_STATUS = (
    f"{INGESTION_STATUS} in the submission was ignored: this phase takes result submissions "
    "only, so no ingestion program ran to write one; leave it out of the zip"
)


def prediction_status(spec: TaskSpec, folder: Path) -> tuple[IngestionStatus, list[str]]:
    """The prediction step's status in ``folder`` (a failed step refused) and the notes on it. A
    ``SCORING_ONLY`` phase has no prediction step: a status file there is the participant's, so it
    is ignored, with a note, and the upload is read as a plain result submission."""
    status = read_status(folder)
    if spec.extra.get(SCORING_ONLY) is True:
        return IngestionStatus(OK, ""), [IGNORED_STATUS] if status else []
    if status is not None and status.status != OK:  # the prediction step (or its code) failed
        # the prediction step's own message (its lines kept), cut to STATUS_MESSAGE_CHARS; the
        # kit's own UNREADABLE_MESSAGE passes through unchanged
        failure = shorten(safe_lines(own_words(status.message)), STATUS_MESSAGE_CHARS)
        cut = failure.endswith("...") and len(failure) > STATUS_MESSAGE_CHARS
        raise SubmissionError.single(
            INGESTION_STATUS,
            f"the prediction step failed: {failure}",
            hint="the ingestion program's log has the whole message" if cut else None,
        )
    _check_metadata(folder)
    return status or IngestionStatus(OK, ""), []  # none: a plain result submission


def score_submission_folder(
    spec: TaskSpec,
    ref_dir: Path,
    res_dir: Path,
    gold: dict[str, GoldTrack] | None = None,
    trusted_status: bool = True,
) -> Result:
    """Score a submission folder (INPUT/res) as the scoring program does; the ranking tool shares
    it, and gives it zips too, read as the folder the platform extracts from one.

    A failed prediction step is refused. A prediction output scores only the tracks its ingestion
    status lists (no status is read in a phase without the kit's ingestion program:
    ``prediction_status``); otherwise a zip, or a folder holding only a zip, is read through a safe
    extraction. The result's warnings begin with the extraction's (entries skipped) and the
    prediction step's notes but those the tracks' own repeat (how a file was read). ``gold``:
    ``load_gold`` of every track, read once by the caller (else only the needed gold is read).
    Without ``trusted_status`` (the ranking tool, but for the outputs its ``--run-code`` made: a
    zip as uploaded may carry a status file of the participant's making) only the status's
    failure is heeded: a prediction output's tracks are those whose ``<track_id>.tsv`` stands at
    its root, and its notes and file names are not shown.
    """
    with tempfile.TemporaryDirectory(prefix="codajudge-res-") as tmp:
        folder = res_dir if res_dir.is_dir() else copy_status_files(res_dir, Path(tmp))
        status, ignored = prediction_status(spec, folder)
        archive_warnings = []
        # a successful prediction step's tracks are scored, and only they; a plain result
        # submission has none (no status, or one listing no tracks)
        if status.tracks is None:
            folder, archive_warnings = open_submission(res_dir, Path(tmp), spec.tracks)
        elif folder != res_dir:  # a zipped prediction output: its entries skipped are no one's
            safe_extract(res_dir, folder, res_dir.name)
        if not trusted_status and status.tracks is not None:  # the kit's names for checked copies
            found = tuple(t.id for t in spec.tracks if (folder / f"{t.id}.tsv").is_file())
            status = IngestionStatus(OK, "", found)
        result = score_folder(spec, ref_dir, folder, status.tracks, gold, status.names)
    said = set(map(note_as_read, report.submission_notes(result)))  # a file's reading notes
    notes = [note for note in status.notes if trusted_status and note not in said]
    result.warnings[:0] = archive_warnings + ignored + notes
    return result


def copy_status_files(archive: Path, folder: Path) -> Path:
    """``folder``, into which the prediction step's status files at the zip's root were copied;
    a zip that cannot be read has none (its extraction then says what is wrong with it)."""
    with contextlib.suppress(*READ_ERRORS), zipfile.ZipFile(archive) as zf:
        for info in zf.infolist():
            if info.filename in STATUS_FILES and info.file_size <= MAX_STATUS_BYTES:
                (folder / info.filename).write_bytes(zf.read(info))
    return folder


def remove_scores(output_dir: Path) -> None:
    """Remove the scores a run writes into ``output_dir``: only a complete run leaves them."""
    for scores in (report.SCORES_JSON, report.SCORES_TXT, report.DETAILED_CSV):
        (output_dir / scores).unlink(missing_ok=True)


def score_submission(input_dir: Path, output_dir: Path) -> int:
    """The scoring program's run: INPUT/res scored against INPUT/ref, the scores and pages written
    to OUTPUT (whose scores of an earlier run are removed first); a missing INPUT is named first,
    as the ingestion program names its own."""
    check_input_folder(input_dir, lambda: INPUT_HINT)
    with writing_into(output_dir):  # only a complete run leaves scores: an earlier run's go
        remove_scores(output_dir)
    ref_dir, res_dir = input_dir / "ref", input_dir / "res"
    spec = read_spec(ref_dir)
    if not res_dir.is_dir():
        raise SubmissionError.single(
            str(res_dir),
            "the submission folder is missing",
            hint="the platform mounts the submission (or the prediction output) here",
        )
    result = score_submission_folder(spec, ref_dir, res_dir)
    for note in report.submission_notes(result):  # first in the log the platform shows
        print(f"note: {note}", flush=True)
    page = report.detailed_html(result, baselines=report.read_baseline_scores(ref_dir))
    with writing_into(output_dir):
        report.write_outputs(output_dir, result, page)
    for line in report.score_log_lines(result):
        print(line)
    return 0


def main(argv: list[str] | None = None, prog: str = "score.py") -> int:
    """``prog`` names the command in usage and error lines (``codajudge score`` from the CLI); the
    platform's script says "scoring program" in the messages its logs show."""
    parser = argument_parser(prog, __doc__)
    parser.add_argument("input", nargs="?", default="/app/input", help="folder with ref/ and res/")
    parser.add_argument("output", nargs="?", default="/app/output", help="folder for scores.json")
    args = parser.parse_args(argv)
    input_dir, output_dir = Path(args.input), Path(args.output)

    def on_error(message: str) -> None:
        remove_scores(output_dir)  # written before the run failed (its log could not be written)
        report.atomic_write(output_dir / report.DETAILED_HTML, report.failure_html(message))

    program = "scoring program" if prog == "score.py" else prog
    body = lambda: score_submission(input_dir, output_dir)  # noqa: E731
    return run_guarded(
        body, program, on_error=on_error, details_dir=output_dir, input_of=SUBMISSION_INPUT
    )
