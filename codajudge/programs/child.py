"""The child process that runs a code submission (or a built-in baseline), and the parent's side.

The ingestion program (``programs.ingest``) starts ``child_main`` in a new interpreter under the time
limit; the child fits and runs one Model per track, writes ``<track_id>.tsv`` files and reports through
``WORK/report.json``, never with the kit's traceback (a failure of the participant's code carries
the traceback of its own frames). The parent (``run_child``) kills it at the limit and turns its
report, which participant code could have written, into a located error. The child's stdout and
stderr (the participant's prints) reach the parent through pipes, the kit's progress lines through
a third one, so that neither can be confused with the other nor grow without bound.
"""

from __future__ import annotations

import argparse
import dataclasses
import errno
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import BinaryIO, Callable, Dict, List, NamedTuple, Optional

from ..baselines.interface import (
    MODEL_FILE,
    call_participant,
    fresh_copy,
    load_model_class,
    plain_data,
    prediction_lines,
    track_settings,
)
from ..errors import (
    ConfigError,
    FileRefusals,
    KitError,
    Problem,
    SubmissionError,
    counted,
    grouped_by_file,
)
from ..formats.items import public_view, read_items
from ..formats.textfile import safe_display, shorten
from ..report import atomic_write
from ..spec import TaskSpec, read_spec
from ..runner.capture import JOIN_SECONDS, CappedOutput, Echo, drain, read_lines
from ..tracks import Track
from ..untrusted import read_head, read_small, stop_session
from .participant import ParticipantOutput

REPORT_FILE = "report.json"
PROGRESS_FILE = "progress.txt"
INTERNAL_ERROR_FILE = "internal_error.txt"
MAX_REPORT_BYTES = 1024 * 1024
MAX_TRACEBACK_BYTES = 64 * 1024
#: The participant's traceback in a message: its last frames, and at most this many characters.
MAX_FRAMES = 20
MAX_PARTICIPANT_TRACEBACK = 4000
#: The kit's lines from the child other than progress (notes) printed at most: bytes in all;
#: characters in each of the kit's lines.
KIT_LINES_BYTES = 256 * 1024
KIT_LINE_CHARS = 1000
#: The kit's progress lines are capped apart (the code can write to their pipe too, so other
#: lines must never crowd them out): bytes printed as they come, then bytes of the latest ones
#: printed when the child ended (a flood loses its middle, never its end).
PROGRESS_HEAD_BYTES = 64 * 1024
PROGRESS_TAIL_BYTES = 16 * 1024
#: What to do about a code submission that ran past its time limit.
TIME_LIMIT_HINT = (
    "make fit() and predict() faster, or train offline and load the model's parameters from "
    "files in the submission"
)
#: The kit's progress lines (``_run_track``): "track ID: what it does" and "track ID done in ...".
_PROGRESS_LINE = re.compile(r"^track (\S+?)(?:: (fitting|predicting)| done) ")
#: interface.load_model_class's refusal when model.py defines no class Model.
NO_MODEL_CLASS = "no class named Model"
#: The kit's own package: its frames are left out of a participant's traceback.
KIT = Path(__file__).resolve().parents[1]
BASELINE_PREFIX = "baseline:"
_CHILD_BOOT = (
    "import sys; sys.path.insert(0, sys.argv.pop(1)); "
    "from codajudge.programs.child import child_main; sys.exit(child_main(sys.argv[1:]))"
)


def load_dataset(
    input_dir: Path, dataset: str, say: Callable[[str], None] = print
) -> Dict[str, List[dict]]:
    """The public items and the training items (with gold) of one dataset; no training file = [].
    ``say`` tells what the participant should know (no training split)."""
    public = read_items(input_dir / f"{dataset}.jsonl", f"input data {dataset}.jsonl")
    train_path = input_dir / f"{dataset}.train.jsonl"
    if train_path.is_file():
        train = read_items(train_path, f"input data {train_path.name}")
    else:
        say(
            f"note: no training split for dataset '{dataset}' ({train_path.name} is absent); fit() gets []"
        )
        train = []
    return {"items": [public_view(item) for item in public], "train": train}


# ---------------------------------------------------------------- the child process (participant code)


def _write_report(work: Path, report: dict) -> None:
    atomic_write(work / REPORT_FILE, json.dumps(report, ensure_ascii=False))


def _error_report(error: KitError) -> dict:
    kind = "config" if isinstance(error, ConfigError) else "submission"
    return {
        "status": "failed",
        "kind": kind,
        "omitted": error.omitted,
        "problems": [dataclasses.asdict(p) for p in error.problems],
    }


#: What code that writes its own prediction files is told (the kit writes them from predict()).
RETURN_PREDICTIONS_HINT = (
    "the kit writes the prediction files itself: return the predictions from predict() (one per "
    "item, in the items' order) instead of writing files; write any file of your own under /tmp"
)
#: Files written by the code shown in a message, at most.
WRITTEN_SHOWN = 3


class WrittenFiles:
    """The files participant code opened for writing in the child, outside
    the kit's work folder (where the kit writes its report and the predictions) and Python's
    bytecode caches: recorded by an audit hook, so that wherever the code writes, code that writes
    its own prediction files is told to return them from predict()."""

    def __init__(self, work: Path):
        self.kit = str(Path(work).resolve())
        self.paths: List[str] = []

    def install(self) -> None:
        sys.addaudithook(self._hook)

    def _hook(self, event: str, args: tuple) -> None:
        if event == "open" and len(args) == 3 and _opens_for_writing(args[1], args[2]):
            self._record(args[0])

    def _record(self, target) -> None:
        if isinstance(target, int) or target is None or len(self.paths) >= 100:
            return
        name = os.fsdecode(target)
        full = os.path.abspath(name)
        kit = full == self.kit or full.startswith(self.kit + os.sep)
        if not kit and "__pycache__" not in full and name not in self.paths:
            self.paths.append(name)

    def shown(self) -> str:
        """The first files written, as a message shows them ('' when none)."""
        listed = ", ".join(repr(_path_end(p)) for p in self.paths[:WRITTEN_SHOWN])
        return listed + (", ..." if len(self.paths) > WRITTEN_SHOWN else "")


def _path_end(path: str, limit: int = 80) -> str:
    """A path fit for a message, its end kept when it is long (the file's name tells most)."""
    shown = safe_display(path)
    return shown if len(shown) <= limit else "..." + shown[-limit:]


def _opens_for_writing(mode, flags) -> bool:
    """Whether an ``open`` audit event (``open()``'s mode, ``os.open``'s flags) may write."""
    if isinstance(mode, str):
        return any(c in mode for c in "wax+")
    return isinstance(flags, int) and bool(flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT))


def writing_hint(raised: Optional[BaseException]) -> Optional[str]:
    """RETURN_PREDICTIONS_HINT for the error of code that could not write a file (a read-only
    folder, as the submission's own is while it runs), else None."""
    refused = (errno.EROFS, errno.EACCES, errno.EPERM)
    if isinstance(raised, OSError) and raised.errno in refused and raised.filename is not None:
        return RETURN_PREDICTIONS_HINT
    return None


def nothing_predicted(written: str = "") -> SubmissionError:
    """The refusal of a code submission whose predict() returned None for every track;
    ``written``: the files the code wrote (``WrittenFiles.shown``), then told to return them."""
    return SubmissionError.single(
        MODEL_FILE,
        "predict() returned None for every track, so nothing can be scored",
        hint=f"your code wrote {written}, but {RETURN_PREDICTIONS_HINT}"
        if written
        else "return one prediction per item for at least one track",
    )


def _call(what: str, root: Optional[Path], function: Callable, *args):
    """``call_participant``, whose one-line error gets the traceback of the participant's own
    frames in its hint (``with_traceback``)."""
    try:
        return call_participant(what, root, function, *args)
    except SubmissionError as error:
        raise with_traceback(error, root) from None


def with_traceback(error: SubmissionError, root: Optional[Path]) -> SubmissionError:
    """``error`` (raised by ``call_participant``, whose context is the participant's exception)
    with the traceback of the participant's frames (``participant_traceback``) added to its
    hints, after ``writing_hint`` when the code could not write a file; ``error`` itself when it
    has no such context, or neither applies."""
    raised = error.__context__
    trace = participant_traceback(raised, root) if raised is not None and root else None
    added = "; ".join(filter(None, (writing_hint(raised), trace)))
    if not added:
        return error
    problems = [
        dataclasses.replace(p, hint=f"{p.hint + '; ' if p.hint else ''}{added}")
        for p in error.problems
    ]
    return SubmissionError(problems, error.omitted)


def _is_kit_frame(filename: str) -> bool:
    return filename.startswith("<frozen ") or Path(filename).resolve().is_relative_to(KIT)


def participant_traceback(error: BaseException, root: Path) -> Optional[str]:
    """The traceback of ``error`` without the kit's frames (nor the import machinery's), the
    submission's files named relative to ``root``; at most MAX_FRAMES frames and
    MAX_PARTICIPANT_TRACEBACK characters (its end is kept). None when no frame is left (and the
    error is no SyntaxError, which names its own line)."""
    import traceback

    frames = [
        frame
        for frame in traceback.extract_tb(error.__traceback__)
        if not _is_kit_frame(frame.filename)
    ][-MAX_FRAMES:]
    if not frames and not isinstance(error, SyntaxError):
        return None
    lines = traceback.format_list(frames) + traceback.format_exception_only(type(error), error)
    text = "".join(lines).replace(str(root) + os.sep, "").rstrip("\n")
    if len(text) > MAX_PARTICIPANT_TRACEBACK:
        text = "..." + text[-MAX_PARTICIPANT_TRACEBACK:]
    return f"your code's traceback, most recent call last (the kit's frames left out):\n{text}"


def _load_model_class(root: Path) -> type:
    """``load_model_class``; when model.py defines no ``Model`` but classes of other names with
    ``fit`` and ``predict``, the refusal names them and says how to rename."""
    try:
        return load_model_class(root)
    except SubmissionError as error:
        if error.problems[0].message != NO_MODEL_CLASS:
            raise with_traceback(error, root) from None
        found = _model_like_classes(sys.modules.get("model"))
        if not found:
            raise
        listed = ", ".join(f"class {name}" for name in found[:5])
        raise SubmissionError.single(
            MODEL_FILE,
            NO_MODEL_CLASS,
            expected="class Model",
            found=f"{listed} (with fit and predict)",
            hint=f"rename it Model, or add the line 'Model = {found[0]}' after it",
        ) from None


def _model_like_classes(module) -> List[str]:
    """The names of the classes defined in ``module`` (not imported) that have fit and predict."""
    names = []
    try:
        for name, value in vars(module).items():
            if not isinstance(value, type) or getattr(value, "__module__", None) != "model":
                continue
            if all(callable(getattr(value, method, None)) for method in ("fit", "predict")):
                names.append(shorten(safe_display(name), 60))
    except Exception:  # noqa: BLE001 - the participant's objects; the plain refusal then stands
        return []
    return names


class _Progress:
    """The child's side of the run: which track and step it is on (the progress file, read by
    the parent at a time-out), the kit's lines for the log (``say``) and the files the code
    wrote (``written``)."""

    def __init__(self, work: Path, say: Callable[[str], None]):
        self.work, self.say = work, say
        self.written = WrittenFiles(work)

    def step(self, track: Track, what: str) -> None:
        (self.work / PROGRESS_FILE).write_text(f"{track.id}\n{what}", encoding="utf-8")


def run_models(
    input_dir: Path,
    out_dir: Path,
    work: Path,
    source: str,
    seed: int,
    say: Callable[[str], None] = print,
) -> List[str]:
    """Fit and run one Model per track; write ``<track_id>.tsv`` into ``out_dir``. Returns the tracks
    the model skipped (``predict`` returned None). ``say`` prints the kit's progress lines."""
    spec = read_spec(input_dir)
    skipped: List[str] = []
    progress = _Progress(work, say)
    if source.startswith(BASELINE_PREFIX):
        from ..baselines import baseline_class

        model_class, root = baseline_class(source[len(BASELINE_PREFIX) :]), None
    else:
        root = Path(source).resolve()
        progress.written.install()
        model_class = _load_model_class(root)
    datasets: Dict[str, Dict[str, List[dict]]] = {}
    refusals = FileRefusals(unit="track")
    for track in spec.tracks:
        progress.step(track, "loading its data")
        if track.dataset not in datasets:
            datasets[track.dataset] = load_dataset(input_dir, track.dataset, say)
        result = _run_track(
            track, datasets[track.dataset], model_class, root, seed, progress, refusals
        )
        if result.skipped:
            skipped.append(track.id)
        elif result.lines is not None:
            (out_dir / f"{track.id}.tsv").write_text(
                "".join(line + "\n" for line in result.lines), encoding="utf-8"
            )
    refusals.raise_if_any()
    if len(skipped) == len(spec.tracks):
        raise nothing_predicted(progress.written.shown())
    return skipped


class TrackResult(NamedTuple):
    """What one track's run gave: its prediction lines (None when refused or skipped), and whether
    the model skipped the track (``predict`` returned None)."""

    lines: Optional[List[str]]
    skipped: bool


def _run_track(
    track: Track,
    data: Dict[str, List[dict]],
    model_class,
    root,
    seed: int,
    progress: _Progress,
    refusals: FileRefusals,
) -> TrackResult:
    """One track's prediction lines, or none when its predictions are refused: the refusal is kept
    in ``refusals``, so that the other tracks still run and one message names every track's
    problems. An exception of the participant's code stops the run."""
    started = time.monotonic()
    progress.step(track, "Model(track)")
    model = _call(
        f"track '{track.id}': Model(track)", root, model_class, track_settings(track, seed)
    )
    progress.say(f"track {track.id}: fitting on {counted(len(data['train']), 'training item')}")
    progress.step(track, "Model.fit")
    _call(f"track '{track.id}': Model.fit", root, model.fit, fresh_copy(data["train"]))
    fitted = time.monotonic()
    progress.say(f"track {track.id}: predicting {counted(len(data['items']), 'item')}")
    progress.step(track, "Model.predict")
    predictions = _call(
        f"track '{track.id}': Model.predict", root, model.predict, fresh_copy(data["items"])
    )
    if predictions is None:  # the model skips this track: not submitted, as a missing result file
        written = progress.written.shown()
        progress.say(
            f"note: track {track.id}: predict() returned None, so the track is not submitted"
            + (f"; your code wrote {written}, but {RETURN_PREDICTIONS_HINT}" if written else "")
        )
        return TrackResult(lines=None, skipped=True)
    predictions = _call(
        f"track '{track.id}': reading what Model.predict returned", root, plain_data, predictions
    )
    where = f"predictions for track '{track.id}'"
    lines = refusals.attempt(prediction_lines, track, data["items"], predictions, where)
    if lines is None:
        progress.say(f"track {track.id}: its predictions were refused; the other tracks go on")
        return TrackResult(lines=None, skipped=False)
    progress.say(
        f"track {track.id} done in {time.monotonic() - started:.1f} s (fit {fitted - started:.1f} s, "
        f"predict {time.monotonic() - fitted:.1f} s), {len(lines)} predictions"
    )
    return TrackResult(lines=lines, skipped=False)


def child_main(argv: List[str]) -> int:
    """Entry of the child process; reports through ``WORK/report.json``, never with a traceback."""
    parser = argparse.ArgumentParser(prog="ingest child")
    for name in ("input", "out", "work", "source"):
        parser.add_argument(name)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--kit-fd", type=int, required=True)
    args = parser.parse_args(argv)
    work = Path(args.work)
    kit = os.fdopen(args.kit_fd, "w", encoding="utf-8", errors="replace", buffering=1)

    def say(line: str) -> None:
        kit.write(line + "\n")

    try:
        skipped = run_models(Path(args.input), Path(args.out), work, args.source, args.seed, say)
    except KitError as error:
        _write_report(work, _error_report(error))
        return 2
    except BaseException as error:  # noqa: BLE001 - reported to the parent, which explains it
        import traceback

        (work / INTERNAL_ERROR_FILE).write_text(traceback.format_exc(), encoding="utf-8")
        _write_report(
            work,
            {
                "status": "failed",
                "kind": "internal",
                "message": f"{error.__class__.__name__}: {error}"[:400],
            },
        )
        return 3
    _write_report(work, {"status": "ok", "skipped": skipped})
    return 0


# ---------------------------------------------------------------- the parent side


def _stop(process: subprocess.Popen) -> None:
    """Kill the child and every process it started (its own session), then reap it: nothing of
    the participant's may still run while the parent reads and moves what it left. (The session
    is the child's so that this reaches its forks; a step killed from outside ends the rest with
    the sandbox or container it runs in.)"""
    stop_session(process.pid)
    if process.poll() is None:
        process.kill()
    process.wait()


class KitLines:
    """The kit's lines from the child, each printed as it comes while its cap holds: the progress
    lines (``_PROGRESS_LINE``) and the others are capped apart, and the latest progress lines past
    their cap are printed by ``finish``."""

    def __init__(self):
        self.progress = CappedOutput(PROGRESS_HEAD_BYTES, PROGRESS_TAIL_BYTES, _print_kit_line)
        self.others = CappedOutput(KIT_LINES_BYTES, 0, _print_kit_line)

    def add(self, line: bytes, echo: Optional[Echo] = None) -> None:
        is_progress = _PROGRESS_LINE.match(line.decode("utf-8", "replace")) is not None
        (self.progress if is_progress else self.others).add(line, echo)

    def read_from(self, stream: BinaryIO, echo: Optional[Echo] = None) -> None:
        read_lines(stream, self.add, echo)

    def finish(self) -> None:
        """After the child ended: the note on the progress lines cut, and the latest ones."""
        if self.progress.tail:
            print(self.progress.cut_note(), end="", flush=True)
            self.progress.echo_tail()


def run_child(
    input_dir: Path,
    out_dir: Path,
    work: Path,
    source: str,
    seed: int,
    time_limit: Optional[float],
    details_dir: Path,
    output: Optional[ParticipantOutput] = None,
) -> List[str]:
    """Run the models in a child process under ``time_limit``; raise its failure as a KitError.
    Returns the tracks the model skipped (its report's word: skipping gains nothing, so a forged
    list only withdraws tracks).

    ``source`` is ``baseline:NAME`` (the kit's own code) or the absolute path of a code submission.
    What the child prints on stdout and stderr (the participant's code) is read from pipes into
    ``output`` (capped, echoed); the kit's own lines (progress, notes) come through a third pipe
    and are printed here, capped too (``KitLines``: no flood of other lines drops a progress
    line)."""
    output = ParticipantOutput() if output is None else output
    kit_read, kit_write = os.pipe()
    try:
        process = _start_child(input_dir, out_dir, work, source, seed, kit_write)
    finally:
        os.close(kit_write)
    output.started = True
    readers, kit_lines = [], KitLines()
    try:
        readers += output.drain(process.stdout, process.stderr)
        readers.append(drain(os.fdopen(kit_read, "rb"), kit_lines))
        _wait(process, time_limit, work)
    finally:
        for reader in readers:
            reader.join(JOIN_SECONDS)
        output.finish()
        kit_lines.finish()
    _raise_child_failure(
        work, process.returncode, details_dir, trusted=source.startswith(BASELINE_PREFIX)
    )
    skipped = (_read_report(work / REPORT_FILE) or {}).get("skipped")
    return [t for t in skipped if isinstance(t, str)] if isinstance(skipped, list) else []


def _start_child(
    input_dir: Path, out_dir: Path, work: Path, source: str, seed: int, kit_fd: int
) -> subprocess.Popen:
    root = Path(__file__).resolve().parents[2]
    command = [
        sys.executable,
        "-c",
        _CHILD_BOOT,
        str(root),
        str(input_dir.resolve()),
        str(out_dir.resolve()),
        str(work.resolve()),
        source,
        "--seed",
        str(seed),
        "--kit-fd",
        str(kit_fd),
    ]
    env = dict(os.environ, PYTHONUNBUFFERED="1")  # the participant's lines reach the log as printed
    env.setdefault("PYTHONHASHSEED", "0")  # set iteration order in participant code is reproducible
    return subprocess.Popen(
        command,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        pass_fds=(kit_fd,),
        start_new_session=True,
    )


def _print_kit_line(line: bytes) -> None:
    print(safe_display(line.decode("utf-8", "replace").rstrip("\n"))[:KIT_LINE_CHARS], flush=True)


def _wait(process: subprocess.Popen, time_limit: Optional[float], work: Path) -> None:
    """Wait for the child under ``time_limit``, then stop every process it started."""
    try:
        process.wait(timeout=time_limit)
    except subprocess.TimeoutExpired:
        _stop(process)
        raise SubmissionError.single(
            "code submission",
            f"the code submission ran past the time limit of {time_limit:g} s{_during(work)}",
            hint=f"{TIME_LIMIT_HINT} (code gets the phase's time limit minus up to 60 s kept "
            "for scoring)",
        )
    except BaseException:
        _stop(process)
        raise
    _stop(process)  # forks of the child may live on after it exited


def _during(work: Path) -> str:
    """ " (while running track 'T': Model.fit)" from the child's progress file (track id, then the
    step), which participant code may have replaced (by a FIFO, a link, a huge file): read only as
    a regular file, 200 bytes at most."""
    data = read_head(work / PROGRESS_FILE, 200)
    if data is None:
        return ""
    track, _, step = data.decode("utf-8", "replace").partition("\n")
    shown = f"track '{shorten(safe_display(track), 80)}'"
    if step:
        shown += f": {shorten(safe_display(step), 40)}"
    return f" (while running {shown})"


def last_progress(log: str) -> str:
    """ " (while running track 'T': fitting)" from the last of the kit's progress lines in the
    ingestion program's ``log`` (its stdout), '' when there is none or the track was done."""
    for line in reversed(log.splitlines()):
        match = _PROGRESS_LINE.match(line)
        if match is None:
            continue
        track, step = shorten(safe_display(match.group(1)), 80), match.group(2)
        return f" (while running track '{track}': {step})" if step else ""
    return ""


def _read_report(path: Path) -> Optional[dict]:
    """The child's report.json, or None when it is absent, no regular file, over MAX_REPORT_BYTES
    or not a JSON object."""
    data = read_small(path, MAX_REPORT_BYTES)
    try:
        report = json.loads(data.decode("utf-8")) if data is not None else None
    except (ValueError, RecursionError):
        return None
    return report if isinstance(report, dict) else None


def _keep_traceback(source: Path, target: Path) -> None:
    """Keep the head of a trusted child's traceback for the organisers (MAX_TRACEBACK_BYTES)."""
    text = read_head(source, MAX_TRACEBACK_BYTES)
    if text is not None:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text)


def _raise_child_failure(
    work: Path, returncode: int, details_dir: Path, trusted: bool = True
) -> None:
    """Raise the child's failure.

    What the kit trusts: a child's report is the kit's own word only when the child ran no
    participant code (``trusted``: a built-in baseline). Otherwise every file in the work folder
    could have been written by that code, so its report may say "ok" (the prediction files are
    checked anyway) or describe the submission's own failure, but never blame the bundle or the
    kit (exit 1 or 3; the input data was checked by this process before the child started), and
    its traceback file is not kept (it is no kit's traceback, and could be of any size)."""
    report = _read_report(work / REPORT_FILE)
    if report is not None and report.get("status") == "ok":
        return  # every file was written and checked; an exit code set later (atexit) changes nothing
    if report is None:
        how = (
            f"was killed by signal {-returncode} (out of memory?)"
            if returncode < 0
            else f"exited with code {returncode}"
        )
        raise SubmissionError.single(
            "code submission",
            f"the code submission stopped unexpectedly: the process {how}{_during(work)}",
            hint="look for os._exit(), crashes in native libraries or memory use",
        )
    if trusted and report.get("kind") == "internal":
        _keep_traceback(work / INTERNAL_ERROR_FILE, details_dir / "internal_error_child.txt")
    try:
        problems = [Problem(**p) for p in report.get("problems", [])]
        omitted = int(report.get("omitted", 0))
        for problem in problems:  # a forged report's fields must not fail later, when shown
            problem.render()
    except (TypeError, ValueError, AttributeError):
        problems, omitted = [], 0
    if not trusted and (report.get("kind") != "submission" or not problems):
        raise SubmissionError.single(
            "code submission",
            f"the process running the code submission failed{_during(work)}",
            found=shorten(safe_display(str(report.get("message") or "no message")), 400),
            hint="the input data passed the kit's checks before your code ran, so a "
            "failure in that process is counted as the submission's; if you believe "
            "it is the kit's, send the ingestion log to the organisers",
        )
    if report.get("kind") == "internal" or not problems:
        raise RuntimeError(str(report.get("message", "the ingestion child process failed")))
    if report.get("kind") == "config":
        raise ConfigError(problems, omitted)
    raise grouped_by_file(problems, omitted, unit="track")


def check_child_output(spec: TaskSpec, out: Path, skipped: List[str] = ()) -> None:
    """Every track's file is there after a child that says it succeeded (its report may be forged),
    the tracks it skipped aside."""
    missing = [
        f"{t.id}.tsv"
        for t in spec.tracks
        if t.id not in skipped and not (out / f"{t.id}.tsv").is_file()
    ]
    if missing:
        raise SubmissionError.single(
            "code submission",
            "the prediction step ended without writing every track's predictions",
            expected="one file per track",
            found=f"missing: {', '.join(missing)}",
            hint="let the ingestion program write the files; do not exit early",
        )
