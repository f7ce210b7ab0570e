"""The child process that runs a code submission (or a built-in baseline): the code that runs in
the participant's process.

The supervisor (``programs.supervisor.run_child``) starts ``child_main`` in a new interpreter under
the time limit; the child fits and runs one Model per track, writes ``<track_id>.tsv`` files and
reports through ``WORK/report.json``, never with the kit's traceback (a failure of the participant's
code carries the traceback of its own frames). The two sides share ``ChildPaths``: the folders of
one run and the files the child leaves in its work folder, which the supervisor reads as written by
participant code. The kit's lines (progress, notes) go to the pipe the supervisor passed
(its last argument), apart from the participant's stdout and stderr.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import errno
import functools
import importlib.util
import inspect
import json
import os
import sys
import time
import traceback
from pathlib import Path
from typing import Callable

from ..assets import PACKAGE
from ..baselines.interface import (
    IMAGE_PACKAGES,
    KIT_IMAGE,
    plain_data,
    prediction_lines,
    track_settings,
)
from ..errors import ConfigError, FileRefusals, KitError, SubmissionError, counted, first_few
from ..formats.items import public_view, read_items
from ..formats.textfile import safe_display, shorten
from ..report import atomic_write
from ..runner.sandbox import limit_hint
from ..spec import MODEL_FILE, read_spec
from ..tracks import Track

#: The participant's traceback in a message: its last frames, and at most this many characters.
MAX_FRAMES = 20
MAX_PARTICIPANT_TRACEBACK = 4000
BASELINE_PREFIX = "baseline:"


@dataclasses.dataclass(frozen=True)
class ChildPaths:
    """The folders of one run of the child: ``input_dir`` (the phase's input data, read),
    ``out_dir`` (where it writes ``<track_id>.tsv``) and ``work`` (the files it leaves for the
    supervisor: its report, the step it is on, an internal error's traceback)."""

    input_dir: Path
    out_dir: Path
    work: Path


#: The files the child leaves in ``ChildPaths.work`` for the supervisor.
REPORT = "report.json"
PROGRESS = "progress.txt"
INTERNAL_ERROR = "internal_error.txt"


def load_dataset(
    input_dir: Path, dataset: str, say: Callable[[str], None]
) -> dict[str, list[dict]]:
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
        self.paths: list[str] = []

    def hook(self, event: str, args: tuple) -> None:
        if event != "open" or len(args) != 3 or len(self.paths) >= 100:
            return
        # open() and C's fopen give a mode (fopen with flags 0), os.open its flags only
        target, mode, flags = args
        if isinstance(mode, str):
            writes = any(c in mode for c in "wax+")
        else:
            writes = isinstance(flags, int) and bool(flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT))
        if not writes or isinstance(target, int) or target is None:
            return
        name = os.fsdecode(target)
        full = os.path.abspath(name)
        kit = full == self.kit or full.startswith(self.kit + os.sep)
        if not kit and "__pycache__" not in full and name not in self.paths:
            self.paths.append(name)

    def advice(self) -> str:
        """What code that wrote files is told, naming the first of them ('' when it wrote none)."""
        if not self.paths:
            return ""
        # each path's end kept when it is long (the file's name tells most)
        ends = [repr(p if len(p) <= 80 else "..." + p[-80:]) for p in map(safe_display, self.paths)]
        return f"your code wrote {first_few(ends, WRITTEN_SHOWN)}, but {RETURN_PREDICTIONS_HINT}"


def nothing_predicted(advice: str = "") -> SubmissionError:
    """The refusal of a code submission whose predict() returned None for every track;
    ``advice``: ``WrittenFiles.advice`` of the files the code wrote."""
    return SubmissionError.single(
        MODEL_FILE,
        "predict() returned None for every track, so nothing can be scored",
        hint=advice or "return one prediction per item for at least one track",
    )


#: What a model.py that does not follow the interface is told.
INTERFACE_HINT = (
    "define in model.py a class Model with __init__(self, track), fit(self, train_items) and "
    "predict(self, items); for example 'from codajudge.baselines import CosineBow as Model'"
)
#: The methods a Model class must have, besides its constructor.
MODEL_METHODS = ("fit", "predict")
#: The kit's calls of a Model -> the signature each needs.
MODEL_SIGNATURES = {
    "Model(track)": "__init__(self, track)",
    "Model.fit": "fit(self, train_items)",
    "Model.predict": "predict(self, items)",
}
#: The longest exception line quoted in a message (characters).
MAX_ERROR_CHARS = 400


def call_participant(what: str, root: Path | None, function: Callable, *args, signature=None):
    """Call participant code (``root``: the submission's folder, None for a built-in baseline);
    any exception (even SystemExit) becomes a one-line SubmissionError. Its hint says where in the
    submission it was raised, gives RETURN_PREDICTIONS_HINT when the code could not write a file,
    and the traceback of the participant's own frames (``participant_traceback``). A call whose
    ``args`` do not bind to ``function`` is refused with the ``signature`` it needs."""
    try:
        return function(*args)
    except KeyboardInterrupt:
        raise
    except BaseException as error:  # noqa: BLE001 - participant code may raise anything
        failed = f"{what} failed with {_exception_line(error)}"
        if signature and isinstance(error, TypeError) and not _binds(function, args):
            raise _signature_refusal(failed, function, root, signature) from None
        # a read-only folder, as the submission's is
        refused = (errno.EROFS, errno.EACCES, errno.EPERM)
        unwritable = isinstance(error, OSError) and error.errno in refused and error.filename
        hints = [RETURN_PREDICTIONS_HINT if unwritable else _relative_path_hint(error)]
        hints.append(_missing_package_hint(error))
        hints.append(limit_hint(error))
        if root is not None:  # participant code, whose own frames are shown
            hints = [_raised_at(error, root), *hints, participant_traceback(error, root)]
        raise SubmissionError.single(
            MODEL_FILE, failed, hint="; ".join(filter(None, hints)) or None
        ) from None


def _binds(function: Callable, args: tuple) -> bool:
    """Whether ``args`` bind to the parameters of ``function`` (True when it has no signature)."""
    try:
        inspect.signature(function).bind(*args)
    except Exception as error:  # noqa: BLE001 - no signature to read: the call's own error stands
        return not isinstance(error, TypeError)  # a TypeError: the arguments do not bind
    return True


def _signature_refusal(failed: str, function, root, signature) -> SubmissionError:
    """The refusal (``failed``: its message) of the kit's call of ``function`` (a class or a bound
    method) that does not bind to its parameters: the ``signature`` expected, the participant's def
    found and its line."""
    target = function.__init__ if isinstance(function, type) else function
    target = getattr(target, "__func__", target)
    code = getattr(target, "__code__", None)
    found = None
    with contextlib.suppress(Exception):  # a def of the submission's files (or nothing found)
        path = Path(code.co_filename).resolve().relative_to(root).as_posix()
        found = (
            f"def {code.co_name}{inspect.signature(target)} at {path}, line {code.co_firstlineno}"
        )
    return SubmissionError.single(
        MODEL_FILE,
        failed,
        expected=f"def {signature}",
        found=found,
        hint="the kit calls Model(track), then fit(train_items) and predict(items): give the "
        "method these parameters (any extra one with a default value)",
    )


def _missing_package_hint(error: BaseException) -> str | None:
    """What to do about a ModuleNotFoundError: fix the name of a module missing from a package
    that imports, else whether the package is in the platform's image (IMAGE_PACKAGES)."""
    name = error.name if isinstance(error, ModuleNotFoundError) else None
    if not isinstance(name, str):
        return None
    parent, _, module = name.rpartition(".")
    if parent in sys.modules:  # imported before its submodule was looked for
        missing = f"{shorten(safe_display(parent))} imports, but it has no module "
        return missing + f"{shorten(safe_display(module))}: fix the name in the import"
    package = shorten(safe_display(name.split(".")[0]))
    if package in IMAGE_PACKAGES:
        listed = IMAGE_PACKAGES[package]  # pip's name, then the version
        pip_name = listed.split()[0]
        return f"{package} is in the platform's image ({listed}): pip install {pip_name} to run locally"
    return (
        f"the platform's image ({KIT_IMAGE}) does not have {package}: ship pure-Python code in "
        "the zip, or ask the organisers"
    )


def _relative_path_hint(error: BaseException) -> str | None:
    """How to open a file shipped with the submission, when ``error`` is an OSError of a relative
    path (read from the working folder, which on the platform is the ingestion program's)."""
    name = error.filename if isinstance(error, OSError) else None
    if not isinstance(name, (str, bytes)) or os.path.isabs(name):
        return None
    return (
        f"a relative path is read from the working folder ({safe_display(os.getcwd())}), not the "
        "submission's: open a file shipped in the zip with "
        f"os.path.join(os.path.dirname(__file__), {shorten(os.fsdecode(name), 80)!r})"
    )


def _exception_line(error: BaseException) -> str:
    """The last line of the exception, as Python would print it (never the whole traceback)."""
    if isinstance(error, SystemExit):
        return f"SystemExit({error.code!r}): the code called sys.exit()"
    line = traceback.format_exception_only(type(error), error)[-1].strip()
    return shorten(line, MAX_ERROR_CHARS)


def _raised_at(error: BaseException, root: Path) -> str | None:
    """'the error was raised at model.py, line 12': the innermost frame inside the submission
    folder, if any."""
    frames = traceback.extract_tb(error.__traceback__)
    if isinstance(error, SyntaxError) and error.filename:
        frames.append(traceback.FrameSummary(error.filename, error.lineno or 0, "<module>"))
    inside = [(Path(f.filename).resolve(), f.lineno) for f in frames]
    inside = [(path, line) for path, line in inside if path.is_relative_to(root)]
    if not inside:
        return None
    path, line = inside[-1]
    return f"the error was raised at {path.relative_to(root).as_posix()}, line {line}"


def participant_traceback(error: BaseException, root: Path) -> str | None:
    """The traceback of ``error`` without the kit's frames (nor the import machinery's), the
    submission's files named relative to ``root``; at most MAX_FRAMES frames and
    MAX_PARTICIPANT_TRACEBACK characters (its end is kept). None when no frame is left (and the
    error is no SyntaxError, which names its own line)."""
    frames = [
        frame
        for frame in traceback.extract_tb(error.__traceback__)
        if not frame.filename.startswith("<frozen ")
        and not Path(frame.filename).resolve().is_relative_to(PACKAGE)  # the kit's own frames
    ][-MAX_FRAMES:]
    if not frames and not isinstance(error, SyntaxError):
        return None
    lines = traceback.format_list(frames) + traceback.format_exception_only(type(error), error)
    text = "".join(lines).replace(str(root) + os.sep, "").rstrip("\n")
    if len(text) > MAX_PARTICIPANT_TRACEBACK:
        text = "..." + text[-MAX_PARTICIPANT_TRACEBACK:]
    return f"your code's traceback, most recent call last (the kit's frames left out):\n{text}"


def load_model_class(root: Path) -> type:
    """Import ``root/model.py`` (with ``root`` on sys.path for its own helper modules) and return
    its ``Model`` class; when it defines no ``Model`` but classes of other names with ``fit`` and
    ``predict``, the refusal names them and says how to rename."""
    sys.path.insert(0, str(root))
    spec = importlib.util.spec_from_file_location("model", root / MODEL_FILE)
    module = importlib.util.module_from_spec(spec)
    sys.modules["model"] = module
    call_participant("importing model.py", root, spec.loader.exec_module, module)
    model_class = getattr(module, "Model", None)
    if not isinstance(model_class, type):
        alike = _model_like_classes(module)
        if alike:  # the class is there under another name
            found = first_few([f"class {name}" for name in alike]) + " (with fit and predict)"
            hint = f"rename it Model, or add the line 'Model = {alike[0]}' after it"
        else:
            found = f"Model = {model_class!r}"[:80] if model_class is not None else "nothing"
            hint = INTERFACE_HINT
        raise SubmissionError.single(
            MODEL_FILE, "no class named Model", expected="class Model", found=found, hint=hint
        )
    missing = [name for name in MODEL_METHODS if not callable(getattr(model_class, name, None))]
    if missing:
        raise SubmissionError.single(
            MODEL_FILE,
            "class Model lacks " + " and ".join(missing),
            expected="methods fit and predict",
            hint=INTERFACE_HINT,
        )
    return model_class


def _model_like_classes(module) -> list[str]:
    """The names of the classes defined in ``module`` (not imported) that have fit and predict."""
    try:
        return [
            shorten(safe_display(name), 60)
            for name, value in vars(module).items()
            if isinstance(value, type)
            and getattr(value, "__module__", None) == "model"
            and all(callable(getattr(value, method, None)) for method in MODEL_METHODS)
        ]
    except Exception:  # noqa: BLE001 - the participant's objects; the plain refusal then stands
        return []


class _Run:
    """One run of the child: the model class and the submission's folder (``root``, None for a
    built-in baseline), the seed, its folders, the kit's lines for the log (``say``), the refusals
    kept per track and the files the code wrote (``written``, recorded for a code submission from
    before its module is imported)."""

    def __init__(self, paths: ChildPaths, source: str, seed: int, say: Callable[[str], None]):
        self.paths, self.seed, self.say = paths, seed, say
        self.written = WrittenFiles(paths.work)
        self.refusals = FileRefusals(unit="track")
        self.root: Path | None = None
        if source.startswith(BASELINE_PREFIX):
            from ..baselines import baseline_class

            self.model_class = baseline_class(source[len(BASELINE_PREFIX) :])
        else:
            sys.addaudithook(self.written.hook)
            self.root = Path(source).resolve()
            self.model_class = load_model_class(self.root)

    def step(self, track: Track, what: str) -> None:
        """Which track and step the run is on (read by the supervisor at a time-out)."""
        (self.paths.work / PROGRESS).write_text(f"{track.id}\n{what}", encoding="utf-8")

    def own_copy(self, items: list[dict]) -> list[dict]:
        """``items`` for a model to keep or change: a fresh copy for participant code (the kit
        reads the items after it, and the next track's model gets them too), the items themselves
        for a built-in baseline (the kit's own code, which changes nothing it is given)."""
        return items if self.root is None else copy.deepcopy(items)

    def call(self, track: Track, what: str, function: Callable, *args):
        """``function(*args)`` of the participant's code, ``what`` it is on ``track`` (the step the
        run is on from now), through ``call_participant``."""
        self.step(track, what)
        where = f"track '{track.id}': {what}"
        signature = MODEL_SIGNATURES.get(what)
        return call_participant(where, self.root, function, *args, signature=signature)


def run_models(
    paths: ChildPaths,
    source: str,
    seed: int,
    say: Callable[[str], None],
    datasets: dict[str, dict[str, list[dict]]] | None = None,
) -> list[str]:
    """Fit and run one Model per track; write ``<track_id>.tsv`` into ``paths.out_dir``. Returns the
    tracks the model skipped (``predict`` returned None). ``say`` prints the kit's progress lines.
    ``datasets`` (dataset -> its items, as ``load_dataset`` reads them from ``paths.input_dir``) is
    filled and reused: the builder runs every built-in baseline of a phase on data read once."""
    spec = read_spec(paths.input_dir)
    run = _Run(paths, source, seed, say)
    datasets = {} if datasets is None else datasets
    skipped: list[str] = []
    for track in spec.tracks:
        run.step(track, "loading its data")
        if track.dataset not in datasets:
            datasets[track.dataset] = load_dataset(paths.input_dir, track.dataset, say)
        if _run_track(run, track, datasets[track.dataset]):
            skipped.append(track.id)
    run.refusals.raise_if_any()
    if len(skipped) == len(spec.tracks):
        raise nothing_predicted(run.written.advice())
    return skipped


def _run_track(run: _Run, track: Track, data: dict[str, list[dict]]) -> bool:
    """Run one track and write its prediction file; True when the model skipped the track
    (``predict`` returned None). Refused predictions write no file: the refusal is kept in
    ``run.refusals``, so that the other tracks still run and one message names every track's
    problems. An exception of the participant's code stops the run."""
    started = time.monotonic()
    model = run.call(track, "Model(track)", run.model_class, track_settings(track, run.seed))
    run.say(f"track {track.id}: fitting on {counted(len(data['train']), 'training item')}")
    run.call(track, "Model.fit", model.fit, run.own_copy(data["train"]))
    fitted = time.monotonic()
    run.say(f"track {track.id}: predicting {counted(len(data['items']), 'item')}")
    predictions = run.call(track, "Model.predict", model.predict, run.own_copy(data["items"]))
    if predictions is None:  # the model skips this track: not submitted, as a missing result file
        advice = run.written.advice()
        run.say(
            f"note: track {track.id}: predict() returned None, so the track is not submitted"
            + (f"; {advice}" if advice else "")
        )
        return True
    predictions = run.call(track, "reading what Model.predict returned", plain_data, predictions)
    where = f"predictions for track '{track.id}'"
    lines = run.refusals.attempt(
        prediction_lines, track, data["items"], predictions, where, run.say
    )
    if lines is None:
        run.say(
            f"track {track.id}: its predictions were refused "
            f"({counted(len(run.refusals.errors), 'track')} so far): the submission will be "
            "refused once every track is checked, so that one message names every track's problems"
        )
        return False
    run.say(
        f"track {track.id} done in {time.monotonic() - started:.1f} s (fit {fitted - started:.1f} s, "
        f"predict {time.monotonic() - fitted:.1f} s), {len(lines)} predictions"
    )
    text = "".join(line + "\n" for line in lines)
    (run.paths.out_dir / f"{track.id}.tsv").write_text(text, encoding="utf-8")
    return False


def child_main(argv: list[str]) -> int:
    """Entry of the child process (``INPUT OUT WORK SOURCE SEED KIT_FD``, see ``ChildPaths`` and
    ``run_models``); reports through ``WORK/report.json``, never with a traceback."""
    input_dir, out_dir, work, source, seed, kit_fd = argv
    paths = ChildPaths(Path(input_dir), Path(out_dir), Path(work))
    kit = os.fdopen(int(kit_fd), "w", encoding="utf-8", errors="replace", buffering=1)
    say = functools.partial(print, file=kit)
    try:
        skipped = run_models(paths, source, int(seed), say)
    except KitError as error:
        kind = "config" if isinstance(error, ConfigError) else "submission"
        report, code = {"status": "failed", "kind": kind, "message": error.render()}, 2
    except BaseException as error:  # noqa: BLE001 - reported to the parent, which explains it
        (paths.work / INTERNAL_ERROR).write_text(traceback.format_exc(), encoding="utf-8")
        message = f"{error.__class__.__name__}: {error}"[:400]
        report, code = {"status": "failed", "kind": "internal", "message": message}, 3
    else:
        report, code = {"status": "ok", "skipped": skipped}, 0
    atomic_write(paths.work / REPORT, json.dumps(report, ensure_ascii=False))
    return code
