"""The ingestion program: runs a code submission (or a built-in baseline) and writes predictions.

``ingest.py INPUT_DATA OUTPUT [SUBMISSION] [--time-limit S] [--seed N]`` or
``python3 -m codajudge.programs.ingest --baseline NAME [--seed N] INPUT_DATA OUTPUT``.

INPUT_DATA (a folder, or its zip as CodaLab v1.5's Files tab gives it) holds ``task.json`` and, per dataset, ``<dataset>.jsonl`` (public items) and
``<dataset>.train.jsonl`` (training items with gold). SUBMISSION (Codabench mounts it at
/app/ingested_program) is a folder or zip with ``model.py`` (a code submission, see
``codajudge.baselines``) or with ``<track_id>.tsv`` files (a result submission, checked and passed on).
One whose root ``metadata.yaml`` (else ``metadata``) has a command is refused first: Codabench's
worker runs that command itself, beside this program and outside its limits (``worker_command``).

Participant code runs in a child process (``programs.child``, started by ``programs.supervisor``),
killed at the time limit (``--time-limit`` or the phase's ``execution_time_limit`` of task.json
minus 60 s kept for this program's checks after the code, the smaller wins). ``<track_id>.tsv``
files reach OUTPUT only when every track succeeded; ``ingestion_status.json`` always says ``ok`` or
``failed`` with a message, and the scoring program refuses to score a failed prediction step.
What the code prints is read from pipes, echoed to the log and kept (capped) in
``participant_output.txt`` in OUTPUT, with the failure's message (``programs.supervisor``); the file
is kept up to date while the code runs, so that a step killed from outside leaves it too.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from difflib import get_close_matches
from collections.abc import Container, Sequence
from pathlib import Path, PurePosixPath

import yaml

from ..baselines.base import item_annotators
from ..bundle.check.programs import METADATA
from ..errors import ConfigError, FileRefusals, SubmissionError, UsageError, first_few, plural
from ..formats import archive
from ..formats.archive import INGESTION_STATUS
from ..formats.coverage import OtherPhases, other_phase_ids
from ..formats.items import read_items
from ..formats.submission import ItemKeys, read_prediction
from ..gold import listed_annotators
from ..formats.textfile import MAX_FILE_BYTES, safe_display, shorten
from ..spec import MODEL_FILE, RESULTS_ONLY, SCORING_ONLY, TaskSpec, read_spec
from ..tracks import Track
from ..untrusted import TreeLimits, copy_regular, prune_tree, read_head, remove_entry, tree_entries
from .child import BASELINE_PREFIX, ChildPaths, load_dataset, nothing_predicted
from .supervisor import ParticipantOutput, run_child
from .common import SUBMISSION_INPUT, argument_parser, check_input_folder, run_guarded, writing_into
from .opening import open_submission
from .status import FAILED, OK, IngestionStatus, write_status

PROGRAM = "ingestion program"
#: Where the platform mounts the submission, the default of the SUBMISSION argument.
PLATFORM_SUBMISSION = "/app/ingested_program"
#: Seconds of the phase's execution_time_limit kept for this program's work after the code (stopping
#: it, checking and copying its predictions, writing its status), so that the prediction step ends
#: within its limit; the scoring step is a job of its own, with its own limit.
WRAP_UP_MARGIN = 60.0
#: A prediction file left by the child larger than the scorer reads is refused when copied.
PREDICTION_LIMITS = TreeLimits(file_bytes=MAX_FILE_BYTES)
#: What the platform's worker writes into the prediction output after this step.
WORKER_METADATA = "metadata"


# ---------------------------------------------------------------- time limits


def code_time_limit(phase_limit: float) -> float:
    """Seconds a code submission may run in a phase whose ``execution_time_limit`` is
    ``phase_limit``: that limit minus WRAP_UP_MARGIN (a quarter of it for limits under 240 s), kept
    for this program's checks after the code.
    Codabench's worker does not enforce the phase limit (its alarm is swallowed while it reads the
    logs), so this is the only limit a submission meets; it must end before the phase's."""
    return phase_limit - min(WRAP_UP_MARGIN, phase_limit / 4)


def time_limit_of(spec: TaskSpec, option: float | None) -> float | None:
    """Seconds the code submission may run: the smaller of --time-limit and code_time_limit() of
    task.json's ``execution_time_limit`` (the phase's)."""
    limits = [] if option is None else [float(option)]
    raw = spec.extra.get("execution_time_limit")
    if raw is not None:
        if isinstance(raw, bool) or not isinstance(raw, (int, float)) or not raw > 0:
            raise ConfigError.single(
                "task.json",
                "'execution_time_limit' must be a positive number of seconds",
                found=repr(raw),
            )
        limits.append(code_time_limit(float(raw)))
    return min(limits) if limits else None


def clear_output(
    output_dir: Path,
    names: list[str],
    kept: Container = frozenset(),
    copied: Container = frozenset(),
) -> None:
    """Remove whatever stands at ``names`` in the prediction output (names this program writes: a
    previous run's files, or a submission's folder or link of that name, copied there by the
    worker), then every ``*.html`` file and everything that is neither a regular file nor a folder
    (links, FIFOs, sockets: never followed), but the entries ``kept`` lists unchanged (what was in
    the folder before the run, ``entries_before``: a folder given by hand is not this step's to
    clean; on the platform it starts empty): Codabench's worker copies a submission without a
    ``metadata`` file into this folder and uploads and zips the folder afterwards (a zip stores a
    link's target). Codabench shows no html of this folder (only the scoring step gets the
    detailed results' address); the html goes anyway so that the scoring program's page is the
    only one a run leaves, on a platform that shows a prediction step's html too (CodaLab v1.5).
    It runs before the code runs, again after (code can write here, and its processes are stopped
    by then), and on a failure. A ``metadata`` entry of any kind is removed too: the worker writes
    its own there, and fails a step that left one. A page or link at a path of the submission's own
    entries (``copied``: the worker's copy of it) goes without a note: the submission's notes name
    that file already (a result file matching no track), so a removed file is noted once."""
    for name in [*names, WORKER_METADATA]:
        kind = remove_entry(output_dir / name)
        is_worker_file = name == WORKER_METADATA
        if kind is None or (kind == "a regular file" and not is_worker_file):
            continue
        writer = "ingestion program writes that name"
        if is_worker_file:
            writer = (
                "platform's worker writes that name after this step (it fails a step that left one)"
            )
        print(f"note: removed {name!r} from the prediction output: it was {kind}, and the {writer}")
    is_page = lambda name: name.lower().endswith((".html", ".htm"))  # noqa: E731
    for relative, kind in prune_tree(output_dir, is_page, "the prediction output", kept):
        if relative in copied:
            continue
        why = f"it was {kind}, and only regular files are kept"
        if kind == "a regular file":
            why = "only the scoring program writes the detailed results page"
        print(f"note: removed {relative!r} from the prediction output: {why}")


def entries_before(output_dir: Path, copied: Container) -> set[tuple[str, int, int]]:
    """The entries in the prediction output before the run (``tree_entries``), which the step
    leaves as they are, but those at the relative paths ``copied`` of the submission folder's own
    entries (``submission_entries``): Codabench's worker copies a submission folder there
    (``clear_output``), and that copy is the step's. A run by hand thus never removes a file the
    output folder held before it."""
    return {entry for entry in tree_entries(output_dir) if entry[0] not in copied}


def submission_entries(submission: Path | None) -> frozenset[str]:
    """The relative paths of a submission folder's entries (none for a zip or a baseline)."""
    return (
        frozenset(relative for relative, *_ in tree_entries(submission))
        if submission
        else frozenset()
    )


def public_keys(items: list[dict]) -> ItemKeys:
    """The public items' ids and annotators, so that result files are checked by the scorer's own
    reader (``read_prediction``) without any gold."""
    ids = [item["id"] for item in items]
    return ItemKeys(ids, list(map(item_annotators, items)), listed_annotators(items))


def check_result_files(
    run: Ingestion, spec: TaskSpec, folder: Path, out_dir: Path, refuse_none=None
) -> list[str] | None:
    """A result submission: check each track file by the scorer's reader and copy it as
    ``<track_id>.tsv``; every broken file is named in one refusal (``FileRefusals``); without any,
    ``refuse_none()`` raises when given, or its None is returned (else the refusal names the files
    found). What the participant should know (files ignored, then how each file was read, in the
    scorer's words) is printed and appended to ``run.notes``, and each track's file name as the
    participant wrote it is put in ``run.names`` (for the scorer's notes and results page)."""

    @functools.cache
    def items_of(dataset: str) -> list[dict]:
        return read_items(run.input_dir / f"{dataset}.jsonl", f"input data {dataset}.jsonl")

    ids_of = lambda dataset: [item["id"] for item in items_of(dataset)]  # noqa: E731
    phases, refusals = other_phase_ids(run.input_dir), FileRefusals()
    found = archive.find_track_files(folder, spec.tracks, ids_of, phases)
    if not found.files and refuse_none is not None:
        return refuse_none()
    if not found.files and spec.extra.get(SCORING_ONLY) is True:  # its platform runs no code
        found.refuse_if_none("submission")
    if not found.files:
        habits = other_platform_entry_points(found.unclaimed)
        hint = MODEL_PY_HINT if habits else misnamed_model_hint(found.unclaimed)
        found.refuse_if_none("submission", habits, MODEL_FILE, hint)
    given = {track: safe_display(str(relative)) for track, relative in found.files.items()}
    found.refuse_meant(given)
    parts = archive.phase_parts(spec.tracks, given, ids_of)
    read_notes = []  # the scorer's track notes, once per file (two tracks may share one)
    for track in (t for t in spec.tracks if t.id in found.files):
        relative = found.files[track.id]
        path = folder / relative
        elsewhere, keys = OtherPhases(track, phases, parts), public_keys(items_of(track.dataset))
        keys = replace(keys, elsewhere=elsewhere, tracks=spec.tracks)
        prediction = refusals.attempt(read_prediction, path, str(relative), track, keys)
        if prediction is not None:
            shutil.copyfile(path, out_dir / f"{track.id}.tsv")
            run.names[track.id] = str(relative)
            read_notes += [f"{given[track.id]}: {w}" for w in prediction.warnings if w]
    refusals.raise_if_any()
    for note in dict.fromkeys([*found.ignored_notes(given), *read_notes]):
        run.notes.append(note)
        print(f"note: {note}")
    return [t.id for t in spec.tracks if t.id in found.files]


#: The scripts other platforms start a code submission by (Kaggle-style kits name them so).
ENTRY_SCRIPTS = ("run.py", "main.py")
#: The most of a submission's metadata file read for its command; a larger one is refused unread.
METADATA_BYTES = 64 * 1024
#: How a code submission is run here, told to a submission that brought another way to start it.
MODEL_PY_HINT = (
    f"the ingestion program runs no script of a submission: it imports {MODEL_FILE} and calls "
    f"its class Model, as Model(track), fit(train_items) and predict(items), which returns one "
    "prediction per item (the kit writes the prediction files); put your script's training in "
    f"fit() and its prediction in predict() of a class Model in {MODEL_FILE} at the "
    f"submission's root, as in the starting kit's sample_submissions/code_submission/{MODEL_FILE}"
)


#: Why a submission is refused whose metadata command Codabench's worker takes: it runs text ...
RUNS_ITSELF = (
    "Codabench runs the command of this file itself, in a container of its own beside the "
    "ingestion program, outside the competition's time limit and the kit's checks, so the "
    "submission is refused and nothing of it is scored"
)
#: ... and fails on any other value but an empty one, with no message to the participant.
FAILS_ON_IT = (
    "Codabench's worker reads the command of this file itself and fails on a command that is not "
    "text, ending the prediction step with no message, so the submission is refused and nothing "
    "of it is scored"
)

#: ... and crashes on a file it cannot read as YAML text (it catches only yaml.YAMLError).
CANNOT_READ = (
    "Codabench's worker reads this file as UTF-8 YAML and fails on one it cannot read, ending the "
    "prediction step with no message, so the submission is refused and nothing of it is scored"
)


def worker_command(folder: Path) -> tuple[str, str, str] | None:
    """(file name, its command as shown, why it is refused: ``RUNS_ITSELF``, ``FAILS_ON_IT``,
    ``CANNOT_READ``) when Codabench's worker takes a command of the submission ``folder``
    (compute_worker.py ``_run_program_directory``): it reads ``metadata.yaml`` at the root, else ``metadata``, as
    YAML, and takes its ``command`` when that is not empty (null, "", 0, [], {}); it runs text, in
    a container of its own beside the ingestion program, and fails on any other value
    (``replace_legacy_metadata_command`` calls its ``replace``); it catches only yaml.YAMLError,
    so a file not UTF-8 or nested too deep ends the step (``CANNOT_READ``); None when it takes
    none."""
    name = next((name for name in METADATA if (folder / name).exists()), None)
    if name is None:
        return None
    data = read_head(folder / name, METADATA_BYTES + 1) or b""
    if len(data) > METADATA_BYTES:  # the worker reads it whole: a command may be anywhere in it
        return name, f"a file over {METADATA_BYTES // 1024} KiB, not read here", RUNS_ITSELF
    try:  # the worker's own loader, which also reads some python/ tags a safe loader refuses
        meta = yaml.load(data.decode("utf-8"), Loader=yaml.FullLoader)
    except yaml.YAMLError:
        return None  # the worker catches this one, and runs nothing
    except UnicodeDecodeError as e:  # the worker's open(..., "r") reads UTF-8 (its C locale)
        return name, f"bytes that are not UTF-8 text, the first at byte {e.start}", CANNOT_READ
    except RecursionError:
        return name, "YAML nested deeper than the worker's reader follows", CANNOT_READ
    command = meta.get("command") if isinstance(meta, dict) else None
    if not command:  # the worker runs nothing
        return None
    if not isinstance(command, str):
        shown = shorten(safe_display(repr(command)), 80)
        return name, f"a command of type {type(command).__name__}, not text: {shown}", FAILS_ON_IT
    shown = f"'{shorten(safe_display(command), 80)}'"  # escaped once, not again by a repr
    return name, f"{'command' if command.strip() else 'a blank command'} {shown}", RUNS_ITSELF


def refuse_worker_command(folder: Path) -> None:
    """SubmissionError when Codabench's worker takes a command of the submission
    (``worker_command``): a text command runs outside the phase's limits and the kit's, and it
    shares the prediction output; any other value fails the step with no message. Nothing of such
    a submission is scored."""
    found = worker_command(folder)
    if found is None:
        return
    name, shown, why = found
    expected = f"no {' or '.join(METADATA)} with a command at the submission's root"
    if why == CANNOT_READ:
        expected = f"{name} saved as UTF-8 YAML, or no {name}"
    raise SubmissionError.single(
        name,
        why,
        expected=expected,
        found=shown,
        hint=f"remove {name} and submit the prediction files themselves, or a {MODEL_FILE} with "
        f"a class Model, which the ingestion program runs within the time limit (see the "
        f"starting kit's sample_submissions)",
    )


def other_platform_entry_points(unclaimed: list[str]) -> list[str]:
    """The ``run.py`` or ``main.py`` files among ``unclaimed`` (as shown), which show a code
    submission written for another platform; [] when there is none."""
    return [name for name in unclaimed if PurePosixPath(name).name.lower() in ENTRY_SCRIPTS]


def misnamed_model_hint(unclaimed: list[str]) -> str:
    """The hint for a submission without model.py whose files (``unclaimed``, as shown) include
    ones probably meant as model.py: named alike in any case (``Model.py``, ``model.py.txt``,
    ``modle.py``, ``model.ipynb``: difflib's ratio at least 0.8); "" when there is none."""
    meant = [n for n in unclaimed if get_close_matches(PurePosixPath(n).name.lower(), [MODEL_FILE])]
    # a notebook's JSON is no Python: it is converted, not renamed
    notebook = "a notebook is not run: export it as a Python script (jupyter nbconvert --to script)"
    hints = [
        f"file {name!r} was probably meant as {MODEL_FILE}, the file a code submission is run "
        f"from: {notebook if name.lower().endswith('.ipynb') else f'name it exactly {MODEL_FILE}'}"
        for name in meant
    ]
    return first_few(hints, 3, sep="; ")


def find_model_folder(folder: Path, tracks: Sequence[Track], notes: list[str]) -> Path | None:
    """The folder holding the submission's model.py: the shallowest one, at any depth, which must
    be alone at that depth and a regular file (ignored entries such as ``__MACOSX/`` left out);
    None without one, or where a file the ``tracks`` claim sits in a shallower folder
    (``archive.code_model``: the submission is results, and a note in ``notes`` names model.py)."""
    found = dict(archive.walk_entries(folder))
    top, above = archive.code_model(list(found), tracks)
    if top and above:
        notes.append(archive.model_not_run(top, above))
        print(f"note: {notes[-1]}")
        return None
    if not top:
        return None
    if len(top) > 1:
        raise SubmissionError.single(
            "submission",
            f"more than one {MODEL_FILE}",
            expected=f"one {MODEL_FILE}",
            found=first_few(list(map(str, top))),
        )
    if found[top[0]]:  # a link (never followed), a FIFO, ...
        raise SubmissionError.single(
            safe_display(str(top[0])),
            f"{MODEL_FILE} is {found[top[0]]}",
            expected="a regular file",
            hint=f"put the file {MODEL_FILE} itself in the submission folder",
        )
    return folder / top[0].parent


@dataclass
class Ingestion:
    """One run of the ingestion program: its input and output folders, what the code prints
    (``output``, saved by the caller on failure), the seed and the time limit given on the
    command line (None: task.json's), the names of the files written to the output folder so far
    (removed on failure), and the notes and each track's file name as the participant wrote it
    (for the status file); ``before``: what the output folder held before the run, left there
    (``entries_before``; None until every argument was checked: nothing is written before);
    ``copied``: the submission folder's own entries, which the worker copies into the output.
    """

    input_dir: Path
    output_dir: Path
    output: ParticipantOutput
    seed: int | None = None
    time_limit: float | None = None
    written: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)
    before: set | None = None
    copied: frozenset = frozenset()


def ingest(run: Ingestion, submission: Path | None, baseline: str | None) -> int:
    """The whole prediction step of ``submission`` (or of the built-in ``baseline``). Files reach
    ``run.output_dir`` only at the end, when all succeeded; what the code printed is kept in
    ``run.output`` (saved here on success, by the caller on failure)."""
    spec = read_spec(run.input_dir)
    started = time.monotonic()
    output_dir = run.output_dir
    own_names = [INGESTION_STATUS, archive.PARTICIPANT_OUTPUT]
    own_names += [f"{t.id}.tsv" for t in spec.tracks]
    with writing_into(output_dir):  # checked before the code runs
        clear_output(output_dir, own_names, run.before, run.copied)
    with tempfile.TemporaryDirectory(prefix="codajudge-ingest-") as tmp:
        paths = ChildPaths(run.input_dir, Path(tmp) / "predictions", Path(tmp))
        paths.out_dir.mkdir()
        if baseline is not None:
            tracks = _run_code(run, spec, paths, f"{BASELINE_PREFIX}{baseline}")
            what = f"baseline {baseline}"
        else:
            tracks, what = _predict_submission(run, spec, submission, paths)
        message = f"{what}: predictions written for track(s) {', '.join(tracks)}"
        status = IngestionStatus(OK, message, tuple(tracks), tuple(run.notes), run.names)
        with writing_into(output_dir):
            # the code has run and its processes are stopped; on the platform it could write here
            clear_output(output_dir, own_names, run.before, run.copied)
            for track in tracks:  # only the tracks' files: anything else the code left stays
                name = f"{track}.tsv"
                copy_regular(
                    paths.out_dir / name, output_dir / name, "code submission", PREDICTION_LIMITS
                )
                run.written.append(name)
            run.output.keep()
            write_status(output_dir, status)
    print(f"{message} in {time.monotonic() - started:.1f} s")
    return 0


def _predict_submission(run: Ingestion, spec: TaskSpec, submission: Path, paths: ChildPaths):
    """(track ids predicted, what the submission was): a code submission's ``model.py`` run on the
    tracks, or a result submission's files checked; the predictions are written to
    ``paths.out_dir``."""
    folder, warnings = open_submission(submission, paths.work)
    for warning in warnings:
        print(f"note: {warning}")
    # the worker reads the folder it extracted, not a zip inside it
    refuse_worker_command(submission if submission.is_dir() else folder)
    model_folder = find_model_folder(folder, spec.tracks, run.notes)
    if model_folder is None:
        return check_result_files(run, spec, folder, paths.out_dir), "result submission"
    if spec.extra.get(SCORING_ONLY) is True:
        # scored as the platform scores an upload: as results, model.py noted as ignored; a zip
        # with no prediction file is refused, a folder of code alone is run to write the files
        found = safe_display(str(model_folder.relative_to(folder) / MODEL_FILE))
        refuse = functools.partial(_refuse_code_zip, submission, found)
        tracks = check_result_files(run, spec, folder, paths.out_dir, refuse)
        if tracks is not None:
            return tracks, "result submission"
        run.notes.append(RUN_FOR_UPLOAD.format(len(spec.tracks), plural(len(spec.tracks), "file")))
        print(f"note: {run.notes[-1]}")
    else:
        _note_result_files_beside_code(spec, folder, run.notes)
    for dataset in dict.fromkeys(t.dataset for t in spec.tracks):
        # the bundle's data is checked here, out of the code's reach (the child says the notes)
        load_dataset(run.input_dir, dataset, say=lambda note: None)
    return _run_code(run, spec, paths, str(model_folder.resolve())), "code submission"


#: The note on a folder of model.py and no prediction file, run in a scoring-only phase ({0}: the
#: number of tracks, {1}: "file" or "files").
RUN_FOR_UPLOAD = (
    f"the submission folder holds {MODEL_FILE} and no prediction file, so it was run as a code "
    "submission to write the prediction files; CodaLab v1.5 runs no code: upload a zip of the {0} "
    "<track_id>.tsv {1} it writes, not this folder"
)


def _refuse_code_zip(submission: Path, found: str) -> None:
    """The refusal of an uploaded zip holding ``found`` (its model.py) and no prediction file, in a
    phase whose platform runs no code (``SCORING_ONLY``); none of a folder, which is run to write
    the files to upload."""
    if submission.is_dir():
        return
    raise SubmissionError.single(
        safe_display(str(submission)),
        f"the zip holds {MODEL_FILE}, a code submission, and no prediction file: this "
        "competition's platform refuses it",
        expected="a zip of the prediction files (a result submission)",
        found=found,
        hint=RESULTS_ONLY,
    )


def _run_code(run: Ingestion, spec: TaskSpec, paths: ChildPaths, source: str) -> list[str]:
    """The tracks predicted by ``source`` (see ``run_child``) run in the child process, under the
    time limit of ``time_limit_of``; every track not skipped has its file in ``paths.out_dir``."""
    seed = spec.seed if run.seed is None else run.seed
    limit = time_limit_of(spec, run.time_limit)
    # every other track's file is copied from the child's folder, as a regular file (its report
    # could be forged, its files be missing, links or pipes)
    skipped = run_child(paths, source, seed, limit, run.output)
    tracks = [t.id for t in spec.tracks if t.id not in skipped]
    if not tracks:  # the child refuses it first; its report could be forged
        raise nothing_predicted()
    return tracks


def _note_result_files_beside_code(spec: TaskSpec, folder: Path, notes: list[str]) -> None:
    """A note when a code submission also holds files named like the tracks' prediction files:
    they are not what is scored (the code's predictions are), which the participant may not expect."""
    files = archive.track_named(archive.submission_files(folder), spec.tracks)
    if not files:
        return
    listed = first_few([repr(str(relative)) for relative in files])
    files_were = plural(len(files), "file {} was", "files {} were").format(listed)
    note = (
        f"the submission holds {MODEL_FILE}, so it was run as a code submission and its prediction "
        f"{files_were} ignored; to submit those files instead, leave {MODEL_FILE} out"
    )
    notes.append(note)
    print(f"note: {note}")


#: The program's arguments -> their ``argparse`` settings; the folders default to the platform's.
ARGUMENTS = {
    "input_data": dict(
        nargs="?", default="/app/input_data", help="folder (or zip) with task.json and items"
    ),
    "output": dict(nargs="?", default="/app/output", help="folder for <track_id>.tsv files"),
    "submission": dict(
        nargs="?", help=f"the submission folder or zip (default {PLATFORM_SUBMISSION})"
    ),
    "--baseline": dict(help="run a built-in baseline instead: random, most_frequent, cosine_bow"),
    "--seed": dict(type=int, help="seed given to the model (default: task.json's seed)"),
    "--time-limit": dict(type=float, metavar="SECONDS", help="kill the code submission after this"),
}


def parse_arguments(argv: list[str] | None, prog: str = "ingest.py") -> argparse.Namespace:
    parser = argument_parser(prog, __doc__)
    for name, settings in ARGUMENTS.items():
        parser.add_argument(name, **settings)
    args = parser.parse_args(argv)
    if args.baseline is not None:
        from ..baselines import known_baseline

        try:
            known_baseline(args.baseline, "--baseline")
        except SubmissionError as unknown:
            parser.error(str(unknown))
        if args.submission is not None:
            parser.error("give either a submission folder or --baseline, not both")
    if args.time_limit is not None and not args.time_limit > 0:
        parser.error("--time-limit must be a positive number of seconds")
    return args


def submission_path(given: str | None, prog: str) -> Path:
    """The SUBMISSION argument, or PLATFORM_SUBMISSION, where the platform mounts it; a usage
    error when neither is given (the program run by hand without a submission) or nothing is at
    the path given."""
    if given is not None:
        if not (Path(given).exists() or Path(given).is_symlink()):
            raise UsageError(archive.NOTHING_AT_PATH.error(safe_display(given)).problems)
        return Path(given)
    if Path(PLATFORM_SUBMISSION).exists():
        return Path(PLATFORM_SUBMISSION)
    raise UsageError.single(
        "SUBMISSION",
        f"no submission was given (and nothing is at {PLATFORM_SUBMISSION}, where the platform "
        "puts it)",
        hint=f"give the submission folder or zip after the output folder, as in {prog} "
        "INPUT_DATA OUTPUT SUBMISSION, or run a built-in baseline with --baseline NAME",
    )


def phase_folders_beside(input_data: Path) -> str:
    """The hint for a missing input data folder (a mistyped path or phase name): the folders beside
    it that hold a phase's data (a task.json)."""
    found = sorted(task.parent for task in input_data.parent.glob("*/task.json") if task.is_file())
    if found:
        return "the folders of a phase's data there are " + ", ".join(map(str, found))
    return "give the folder of a phase's data, the one holding its task.json"


def opened_input_data(input_data: Path, work: Path) -> Path:
    """The INPUT_DATA argument as a folder: a zip of a phase's input data (what CodaLab v1.5's
    Files tab gives) is extracted safely into ``work``; a folder is used as it is. A usage error
    names any other file, or a zip that is not one."""
    check_input_folder(input_data, lambda: phase_folders_beside(input_data))
    if not input_data.is_file():
        return input_data
    hint = "give the folder of a phase's data, the one holding its task.json, or its zip"
    if input_data.suffix.lower() != ".zip":
        raise UsageError.single(str(input_data), "a file, not a phase's data", hint=hint)
    target = work / "input_data"
    target.mkdir()
    try:
        warnings = archive.safe_extract(input_data, target, str(input_data))
    except SubmissionError as refused:
        raise UsageError(refused.problems) from None
    for warning in warnings:
        print(f"note: {warning}")
    return target


def _relation(out: Path, other: Path) -> str:
    """How folder ``out`` stands to folder ``other`` (both resolved): "is", "is inside", "holds",
    or "" when they are apart."""
    if out == other:
        return "is"
    if other in out.parents:
        return "is inside"
    return "holds" if out in other.parents else ""


def refuse_shared_output(output_dir: Path, folders: dict[str, Path | None]) -> None:
    """A usage error, before anything is written, when the output folder is, holds or is inside
    one of ``folders`` (what they are -> the folder given, None or a zip: nothing to share): the
    step clears its output (``clear_output``) and would remove the submission's or the data's
    files."""
    out = output_dir.resolve()
    for what, folder in folders.items():
        if folder is None or not folder.is_dir():
            continue
        relation = _relation(out, folder.resolve())
        if relation:
            raise UsageError.single(
                f"OUTPUT {output_dir}",
                f"the output folder {relation} the {what} folder {folder}, whose files this "
                "program would remove or overwrite",
                expected="1 output folder apart from the submission and the input data",
                hint="give another output folder, neither inside nor holding them",
            )


def main(argv: list[str] | None = None, prog: str = "ingest.py") -> int:
    """``prog`` names the command in usage and error lines (``codajudge ingest`` from the CLI); the
    platform's script says "ingestion program" in the messages its logs and status file show."""
    args = parse_arguments(argv, prog)
    output_dir = Path(args.output)
    output = ParticipantOutput(saved_in=output_dir)
    run = Ingestion(Path(args.input_data), output_dir, output, args.seed, args.time_limit)

    def body() -> int:
        with tempfile.TemporaryDirectory(prefix="codajudge-input-") as work:
            # every argument is checked before anything is written to or removed from OUTPUT
            run.input_dir = opened_input_data(Path(args.input_data), Path(work))
            submission = None if args.baseline else submission_path(args.submission, prog)
            folder = submission if submission is not None and submission.is_dir() else None
            given = {"submission": folder, "input data": Path(args.input_data)}
            refuse_shared_output(output_dir, given)
            run.copied = submission_entries(folder)
            run.before = entries_before(output_dir, run.copied)
            # made for a failure's status; ingest() says why it cannot be
            with contextlib.suppress(OSError):
                output_dir.mkdir(parents=True, exist_ok=True)
            return ingest(run, submission, args.baseline)

    def on_error(message: str) -> None:
        if run.before is None:  # an argument refused: nothing is written
            return
        try:
            clear_output(output_dir, [INGESTION_STATUS, *run.written], run.before, run.copied)
            remove_entry(output_dir / archive.PARTICIPANT_OUTPUT)
            output.keep(failure=message)
        finally:
            write_status(output_dir, IngestionStatus(FAILED, message))

    program = PROGRAM if prog == "ingest.py" else prog
    return run_guarded(
        body, program, on_error=on_error, details_dir=output_dir, input_of=SUBMISSION_INPUT
    )


if __name__ == "__main__":
    sys.exit(main())
