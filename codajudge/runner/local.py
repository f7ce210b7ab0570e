"""The two steps of a submission on a participant's machine, laid out as on Codabench, read from
a bundle's phase (``phase_task``).

Each step runs as Codabench's compute worker runs a program: the ``command`` of its metadata.yaml,
legacy ``$`` variables substituted, split without a shell, working folder the program, a time limit
for the whole step. The worker's ``/app/...`` folders are mapped to temporary ones.

Prediction step: /app/program = ingestion program, /app/input_data = the phase's input data,
/app/ingested_program = the submission, /app/output = predictions. It runs in a bubblewrap sandbox
that holds only these folders (see ``sandbox``); where there is none, it runs without isolation,
says so once on stderr and on the results page, and only the guard refuses Python-level reads of
the bundle's reference data.
Scoring step: /app/program = scoring program, /app/input/ref = reference data, /app/input/res = the
prediction output (with the worker's ``metadata`` file), /app/output = scores. The scoring program
and the reference data are fresh, read-only copies made after the prediction step ended.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..assets import CACHES, PACKAGE, kit_command
from ..baselines import known_baseline
from ..bundle.baselines_run import SOLUTION_TEMPLATE
from ..bundle.check.findings import Findings
from ..bundle.check.opening import KIT_PHASES_FILE, load_competition_yaml
from ..bundle.check.programs import METADATA, metadata_command
from ..confine import slug
from ..errors import ConfigError, UsageError
from ..formats.archive import NOTHING_AT_PATH, safe_extract
from ..formats.textfile import safe_display, safe_lines
from ..spec import SCORING_ONLY, read_spec
from ..untrusted import copy_tree, wait_then_stop
from . import sandbox
from .capture import JOIN_SECONDS, CappedOutput, drain

#: Where there is no sandbox, the prediction step's Python loads ``guard_site/sitecustomize.py``,
#: which refuses Python-level reads below the path in FORBIDDEN_ENV (the reference data).
GUARD_SITE = Path(__file__).resolve().parent / "guard_site"
FORBIDDEN_ENV = "CODAJUDGE_FORBIDDEN"
#: How messages name the prediction step's output folder.
PREDICTION_OUTPUT = "the prediction output (/app/output)"


@dataclass(frozen=True)
class PhaseTask:
    name: str
    time_limit: int
    scoring_program: Path
    ingestion_program: Path | None
    reference_data: Path
    input_data: Path | None
    columns: list


def read_competition(bundle: Path, shown: str | None = None) -> dict:
    """The bundle's competition.yaml, read as the bundle checker reads it: bounded (an alias bomb
    is refused, not expanded), a mapping at its top level, of Codabench's form (a CodaLab v1.5
    one, or a folder without one, is a usage error); a v1.5 starting kit's is its
    ``KIT_PHASES_FILE``. ``shown``: how messages name the bundle (default: its folder)."""
    shown = shown or str(bundle)
    names = ("competition.yaml", KIT_PHASES_FILE)
    name = next((name for name in names if (bundle / name).is_file()), None)
    if name is None:
        raise UsageError.single(
            f"BUNDLE {shown}",
            "not a bundle: competition.yaml is missing",
            hint="give the bundle folder or zip built by build_bundle.py, or the starting kit",
        )
    findings = Findings()
    doc = load_competition_yaml(bundle, findings, name)
    if doc is None:
        raise ConfigError(findings.problems)
    if isinstance(doc.get("phases"), dict):  # numbered phases: the v1.5 form (v2's are a list)
        raise UsageError.single(
            shown,
            "only Codabench bundles are run locally",
            expected="a Codabench bundle (version: 2)",
            found="a CodaLab v1.5 bundle (numbered phases, as --legacy builds)",
            hint="build the edition without --legacy and run that bundle, or unzip this bundle's "
            "starting_kit.zip and run its run_local.py (its README names the phases it scores)",
        )
    return doc


def phase_task(
    bundle: Path, phase: str, doc: dict | None = None, shown: str | None = None
) -> PhaseTask:
    """The (single) task of the named phase; names match as ``confine.slug``s (case and punctuation
    aside). ``doc``: the bundle's ``read_competition``, when the caller has read it already;
    ``shown``: how messages name the bundle (default: its folder)."""
    shown = shown or str(bundle)
    doc = read_competition(bundle, shown) if doc is None else doc
    try:
        return _phase_task(bundle, phase, doc, shown)
    except (LookupError, AttributeError, TypeError, ValueError) as e:
        # a hand-edited competition.yaml: the checker names each of its problems
        raise ConfigError.single(
            f"{shown}/competition.yaml",
            f"phase {phase!r} cannot be run from this competition.yaml",
            found=f"{e.__class__.__name__}: {e}"[:120],
            hint=f"'{kit_command('check')} {shown}' lists what is wrong in it",
        ) from None


def _phase_task(bundle: Path, phase: str, doc: dict, shown: str) -> PhaseTask:
    """``phase_task`` of a read competition.yaml, which raises where the document is malformed."""
    phases = doc.get("phases") or []
    entry = next((p for p in phases if slug(p.get("name")) == slug(phase)), None)
    if entry is None:
        raise ConfigError.single(
            f"{shown}/competition.yaml",
            "no such phase in this bundle",
            expected=" | ".join(str(p.get("name")) for p in phases),
            found=repr(phase),
        )
    index = entry["tasks"][0]
    task = next((t for t in doc.get("tasks") or [] if t["index"] == index), None)
    if task is None:
        raise ConfigError.single(
            f"{shown}/competition.yaml",
            f"phase {phase!r} cannot be run: it names task {index!r}, which no task has",
            expected="the index of an entry of 'tasks'",
            hint=f"'{kit_command('check')} {shown}' lists what is wrong in it",
        )
    # a folder the task does not name is None (a bundle without a prediction step)
    folders = ("scoring_program", "ingestion_program", "reference_data", "input_data")
    paths = {key: bundle / task[key] if task.get(key) else None for key in folders}
    return PhaseTask(
        name=str(entry.get("name")),
        time_limit=int(entry.get("execution_time_limit", 600)),
        columns=(doc.get("leaderboards") or [{}])[0].get("columns", []),
        **paths,
    )


@dataclass
class StepResult:
    exit_code: int
    stdout: str
    stderr: str
    timed_out: bool
    seconds: float
    #: The step's time limit in seconds.
    time_limit: float


def legacy_paths(is_scoring: bool) -> dict[str, str]:
    """The legacy ``$`` variables the worker substitutes in a command -> the /app folder each
    stands for, in the scoring step when ``is_scoring`` (else the ingestion step)."""
    return {
        "$input": "/app/input" if is_scoring else "/app/input_data",
        "$output": "/app/output",
        "$tmp": "/app/output",
        "$program": "/app/program",
        "$ingestion_program": "/app/program",
        "$hidden": "/app/input/ref",
        "$shared": "/app/shared",
        "$submission_program": "/app/ingested_program",
        "$predictions": "/app/input/res" if is_scoring else "/app/output",
    }


def program_command(program: Path, root: str, is_scoring: bool) -> list:
    """The program's command with legacy variables replaced and each ``/app/...`` path moved
    under ``root`` (the step's local folder holding its ``app``; '' in the sandbox, which mounts
    them at /app). Messages name the program as the bundle checker does, not by its local copy."""
    what = "scoring program" if is_scoring else "ingestion program"
    meta_path = next((program / n for n in METADATA if (program / n).is_file()), None)
    if meta_path is None:
        raise ConfigError.single(what, "no metadata.yaml", hint="each program needs a command")
    command = metadata_command(meta_path.read_bytes(), f"{what}'s {meta_path.name}")
    legacy = legacy_paths(is_scoring)
    for var in sorted(legacy, key=len, reverse=True):
        command = command.replace(var, legacy[var])
    args = [root + arg if arg.startswith("/app/") else arg for arg in shlex.split(command)]
    if args and args[0] in ("python", "python3"):
        args[0] = sys.executable
    return args


def run_step(
    args: list,
    cwd: Path,
    time_limit: int,
    env: dict[str, str] | None = None,
    pipes: Sequence[tuple[int, int]] = (),
) -> StepResult:
    """Run one step; at the limit every process descended from it is killed (sessions of their own
    included), and after it ends its process group is, as the worker removes containers. Its
    stdout and stderr are kept capped (``capture.CappedOutput``: head, tail, a note on the cut).
    ``env``: the step's whole environment (default: this process's, its output unbuffered).
    ``pipes``: (read, write) ends of the step's stdout and stderr when the command passes them on
    (``sandbox.command``'s ``streams``); bwrap's own stdout then goes nowhere and its stderr is
    kept after the step's, each line prefixed with ``sandbox.BWRAP_PREFIX`` (shown, as the step's
    stderr is, only when the step fails: ``run_local.read_scores``)."""
    start = time.monotonic()
    out, err, bwrap = CappedOutput(), CappedOutput(), CappedOutput()
    try:
        process = subprocess.Popen(
            args,
            cwd=cwd,
            env=dict(os.environ, PYTHONUNBUFFERED="1") if env is None else env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL if pipes else subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            pass_fds=[write for _, write in pipes],
        )
    finally:  # the step holds them now (or never will): the readers see their end with the step's
        for _, write in pipes:
            os.close(write)
    ends = [os.fdopen(read, "rb") for read, _ in pipes] or [process.stdout, process.stderr]
    readers = [drain(ends[0], out.add), drain(ends[1], err.add)]
    readers += [drain(process.stderr, bwrap.add)] if pipes else []
    # as the worker removes the container: nothing of the step lives on
    timed_out = wait_then_stop(process, time_limit)
    for reader in readers:
        reader.join(JOIN_SECONDS)
    stderr = err.text() + "".join(
        f"{sandbox.BWRAP_PREFIX}{safe_lines(line)}\n" for line in bwrap.text().splitlines()
    )
    if timed_out:
        stderr += f"\nExecution Time Limit exceeded. Limit was {time_limit} seconds\n"
    code = -9 if timed_out else process.returncode
    return StepResult(code, out.text(), stderr, timed_out, time.monotonic() - start, time_limit)


@dataclass
class RunResult:
    prediction: StepResult
    scoring: StepResult
    output: Path
    predictions: Path


def place_submission(submission: str, target: Path, uploaded: bool = False) -> None:
    """A zip (extracted safely; ``uploaded``: copied as it is, which the ingestion program reads as
    the uploaded zip), a folder (copied) or ``baseline:NAME`` (a one-line code submission)."""
    if submission.startswith("baseline:"):
        name = submission.split(":", 1)[1]
        known_baseline(name, submission, prefix="baseline:")
        target.mkdir(parents=True)
        (target / "model.py").write_text(SOLUTION_TEMPLATE.format(name=name), encoding="utf-8")
        return
    source = Path(submission)
    if source.is_dir():
        shutil.copytree(source, target, symlinks=True)
    elif source.is_file():
        target.mkdir(parents=True)
        if uploaded:
            shutil.copyfile(source, target / source.name)
        else:
            safe_extract(source, target, source.name)
    else:
        raise NOTHING_AT_PATH.error(safe_display(submission))


def lay_out_step(step: Path, program: Path, data: Path, data_folder: str) -> Path:
    """The ``app/...`` folders of a step in ``step``: its ``program`` copied to ``app/program`` as
    the worker mounts it (the engine put beside it when the bundle is the repository itself; a
    built bundle already carries it), its ``data`` to ``data_folder`` and an empty ``app/output``.
    Returns the program's folder."""
    target = step / "app/program"
    shutil.copytree(program, target, ignore=shutil.ignore_patterns(*CACHES))
    if not (target / "codajudge").is_dir():
        shutil.copytree(PACKAGE, target / "codajudge", ignore=shutil.ignore_patterns(*CACHES))
    shutil.copytree(data, step / data_folder)
    (step / "app/output").mkdir()
    return target


def run_submission(
    task: PhaseTask, submission: str, work: Path, time_limit: int | None = None
) -> RunResult:
    """Both steps of ``submission`` on ``task`` in ``work``, each step in a folder of its own
    (``predict``, ``score``) holding the ``app/...`` folders the worker mounts for it."""
    limit = time_limit or task.time_limit
    res, prediction, unisolated = predict(task, submission, work, limit)
    step = work / "score"
    program = lay_out_step(step, task.scoring_program, task.reference_data, "app/input/ref")
    scores_out = step / "app/output"
    for fresh in (program, step / "app/input/ref"):
        sandbox.make_read_only(fresh)
    scoring = run_step(program_command(program, str(step), is_scoring=True), program, limit)
    if unisolated is not None:
        note = sandbox.UNISOLATED_NOTE.format(reason=unisolated)
        note_on_page(scores_out / "detailed_results.html", note)
    return RunResult(prediction, scoring, scores_out, res)


def predict(
    task: PhaseTask, submission: str, work: Path, limit: int
) -> tuple[Path, StepResult, str | None]:
    """The prediction step of ``submission`` in the ``app/...`` folders of ``work/predict``,
    ``limit`` seconds at most (every task the kit builds has an ingestion program and input
    data). Returns the folder the scoring step in ``work`` reads as /app/input/res, which holds
    what the step left in its /app/output, copied as regular files only once its processes have
    ended, and the worker's ``metadata`` (exit code, seconds); the step's result; and, when it ran
    without isolation, why (``--run-code`` of the ranking runs code only where ``require_sandbox``
    passed first)."""
    step = work / "predict"
    program = lay_out_step(step, task.ingestion_program, task.input_data, "app/input_data")
    (step / "app/shared").mkdir()
    submitted = step / "app/ingested_program"
    # a scoring-only phase (CodaLab v1.5) scores an uploaded zip as results, with no prediction
    # step: the ingestion program is given the zip itself, to check and copy its prediction files
    uploaded = (
        read_spec(task.input_data).extra.get(SCORING_ONLY) is True and Path(submission).is_file()
    )
    place_submission(submission, submitted, uploaded)
    # the worker copies a submission without a metadata file into the prediction output (it is
    # run as a "program" that has no command), beside what the ingestion program writes
    if not uploaded and not any((submitted / name).is_file() for name in METADATA):
        shutil.copytree(submitted, step / "app/output", dirs_exist_ok=True, symlinks=True)
    # in the sandbox if this machine has one; else said once on stderr, and the guard is loaded
    unisolated = sandbox_refusal(task)
    if unisolated is None:  # the command sees Codabench's own /app paths
        inside = given_zip(program_command(program, "", is_scoring=False), submission, uploaded)
        pipes = [os.pipe(), os.pipe()]  # the step's stdout and stderr, which bwrap never holds
        streams = [write for _, write in pipes]
        args = sandbox.command(sandbox.bwrap_binary(), inside, step, streams=streams)
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}  # bwrap sets the step's
    else:
        sandbox.warn_once(sandbox.UNISOLATED_NOTE.format(reason=unisolated))
        args = given_zip(
            program_command(program, str(step), is_scoring=False), submission, uploaded
        )
        env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONPATH=str(GUARD_SITE))
        env[FORBIDDEN_ENV] = str(task.reference_data.resolve())
        pipes = []
    prediction = run_step(args, program, limit, env, pipes)
    res = work / "score/app/input/res"
    copy_tree(step / "app/output", res, PREDICTION_OUTPUT)
    code, seconds = prediction.exit_code, round(prediction.seconds, 3)
    metadata = {"exitCode": code, "elapsedTime": seconds}
    metadata.update(ingestionExitCode=code, ingestionElapsedTime=seconds)
    (res / "metadata").write_text(json.dumps(metadata) + "\n")
    return res, prediction, unisolated


def given_zip(args: list, submission: str, uploaded: bool) -> list:
    """The prediction step's command, its submission argument (``/app/ingested_program``) naming
    the zip placed there when ``uploaded`` (``place_submission``): the ingestion program reads it as
    the uploaded zip it is, with no note on a folder holding only a zip."""
    if not uploaded:
        return args
    name = Path(submission).name
    return [f"{arg}/{name}" if arg.endswith("/app/ingested_program") else arg for arg in args]


def sandbox_refusal(task: PhaseTask) -> str | None:
    """Why the prediction step of ``task`` cannot run in the sandbox here, or None when it can."""
    return sandbox.probe() or sandbox.exposed_secret([task.reference_data, task.scoring_program])


def require_sandbox(task: PhaseTask) -> None:
    """A ConfigError when the prediction step of ``task`` cannot run in the sandbox here."""
    reason = sandbox_refusal(task)
    if reason is not None:
        raise ConfigError.single(
            "the sandbox (bubblewrap)",
            f"code submissions are run only in the sandbox, and it cannot run here: {reason}",
            hint=f"{sandbox.INSTALL_HINT}; where bwrap is installed but cannot run, allow "
            "unprivileged user namespaces, which it needs",
        )


def note_on_page(page: Path, note: str) -> None:
    """Add a warning at the top of a detailed results page (if the scoring step wrote one)."""
    import html

    try:
        text = page.read_text(encoding="utf-8")
    except OSError:
        return
    warning = f"<p class='warn'><b>Note:</b> {html.escape(note)}</p>"
    os.chmod(page, 0o644)
    page.write_text(text.replace("<body>", f"<body>\n{warning}", 1), encoding="utf-8")
