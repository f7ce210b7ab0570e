"""``run_local.py BUNDLE SUBMISSION --phase PHASE [--output DIR]``: Codabench's two steps, locally.

BUNDLE is a Codabench bundle folder or zip (a CodaLab v1.5 one is refused: run its starting kit),
or a starting kit (itself a small bundle); SUBMISSION is a result zip or folder, a code submission
(folder or zip with model.py) or ``baseline:NAME`` (random, most_frequent, cosine_bow); PHASE is
one of BUNDLE's phases, as its competition.yaml (run_local.yaml in a CodaLab v1.5 kit) names them.
A bundle's are its edition's (e.g. practice, evaluation, post-campaign). A starting kit scores
``local``, a validation split held out of the training data with its gold, when the edition has
one, and ``practice`` when the practice gold is public; a phase whose gold it lacks is refused with
the phases it scores (its README's first commands name them).

Examples, inside a starting kit with a local phase:
    python3 run_local.py . baseline:cosine_bow --phase local
    python3 run_local.py . sample_submissions/local_result_submission.zip --phase local --output out
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

from ..bundle.check.opening import KIT_PHASES_FILE
from ..bundle.pages import LOCAL_PHASE
from ..bundle.prose import listed
from ..confine import slug
from ..errors import ConfigError, SubmissionError, UsageError
from ..formats.archive import PARTICIPANT_OUTPUT
from ..formats.coverage import other_phase_ids
from ..report import missing_primary_words, score_meanings
from ..spec import read_spec
from ..runner.local import PhaseTask, RunResult, run_submission
from ..runner.local import phase_task, read_competition
from ..runner.sandbox import limits_in_force
from .status import note_as_read
from .supervisor import HEAD_FULL_NOTE, code_printed, last_progress, past_time_limit
from ..untrusted import remove_entry
from .opening import open_submission
from .common import (
    BUNDLE_PROBLEM,
    REFUSED,
    SUBMISSION_INPUT,
    argument_parser,
    own_words,
    run_parsed,
)

KEPT_OUTPUTS = ("scores.json", "scores.txt", "detailed_results.html", "detailed_results.csv")


def open_bundle(path: Path, work: Path) -> Path:
    """The bundle folder at ``path``, or the zip at ``path`` safely extracted into ``work``; a
    usage error on the BUNDLE argument when it is neither (it is not the submission)."""
    if path.is_dir():
        return path
    found = "nothing at this path"
    if path.is_file():
        try:
            return open_submission(path, work)[0]
        except SubmissionError as refused:
            found = refused.problems[0].message
    raise UsageError.single(
        f"BUNDLE {path}",
        "not a bundle",
        expected="a bundle folder or zip, or the starting kit folder",
        found=found,
        hint="check the path: the bundle comes first, then the submission",
    )


def run_once(
    bundle_dir: Path,
    submission: str,
    phase: str | PhaseTask,
    time_limit: int | None = None,
    output: Path | None = None,
    notes: list[str] | None = None,
) -> dict[str, float]:
    """Run one submission through both steps of a bundle folder (see ``open_bundle``) on ``phase``
    (its name, or its ``phase_task`` when the caller has read it already); returns its scores or
    raises with the failing step's message. The steps' notes are appended to ``notes``."""
    with tempfile.TemporaryDirectory(prefix="codajudge-run-") as tmp:
        task = phase if isinstance(phase, PhaseTask) else phase_task(Path(bundle_dir), phase)
        result = run_submission(task, submission, Path(tmp) / "app", time_limit)
        if output is not None:
            tracks = [track.id for track in read_spec(task.reference_data).tracks]
            keep_outputs(result, Path(output), tracks)
        say_where_the_output_is(result, output)
        if notes is not None:  # the notes both steps printed for the participant, once each
            notes.extend(said_notes(result.prediction.stdout, result.scoring.stdout))
        return read_scores(result)


def said_notes(*outputs: str) -> list[str]:
    """The notes the steps printed (``outputs``, in order), each once, whole: the scoring step
    repeats the prediction step's notes as its status file gives them (``note_as_read``: cut to
    ``NOTE_CHARS``), the same note. No log is shown here (``HEAD_FULL_NOTE``):
    ``say_where_the_output_is`` says where what the code printed is."""
    lines = "\n".join(outputs).splitlines()
    said = [line[6:] for line in lines if line.startswith("note: ") and line != HEAD_FULL_NOTE]
    kept: dict[str, str] = {}
    for note in said:
        kept.setdefault(note_as_read(note), note)
    return list(kept.values())


def keep_outputs(result: RunResult, output: Path, tracks: list[str]) -> None:
    """Copy the scoring step's files and, into ``output/predictions``, what a participant uploads
    as results: each of ``tracks``' ``<track_id>.tsv`` the prediction step wrote, and what the code
    printed (``PARTICIPANT_OUTPUT``); never the worker's copy of the submission (its model.py would
    make a zip of the folder a code submission), the worker's ``metadata`` or the status file.
    Whatever stood at their names is removed first, so that none of a previous run's is taken for
    this one's (and no link there is written through)."""
    output.mkdir(parents=True, exist_ok=True)
    for name in KEPT_OUTPUTS:
        remove_entry(output / name)
        if (result.output / name).is_file():
            shutil.copyfile(result.output / name, output / name)
    remove_entry(output / "predictions")
    (output / "predictions").mkdir()
    for name in [f"{track}.tsv" for track in tracks] + [PARTICIPANT_OUTPUT]:
        if (result.predictions / name).is_file():  # a regular file: copied so (``copy_tree``)
            shutil.copyfile(result.predictions / name, output / "predictions" / name)


def check_output(output: Path) -> None:
    """``--output`` made, and shown to take a file, before anything runs (the run's outputs are
    copied there after it); UsageError naming it when it cannot be (a file in its path, a folder
    that cannot be written)."""
    try:
        output.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=output).close()
    except OSError as e:
        raise UsageError.single(
            f"--output {output}",
            "cannot make or write into this folder",
            found=(e.strerror or str(e)).lower(),
            hint="give --output a folder you can write to",
        ) from None


def say_where_the_output_is(result: RunResult, output: Path | None) -> None:
    """Print where the prediction step kept what the submitted code printed (if it printed; a file
    of the ingestion program's message alone is not named, that message is said anyway)."""
    if not code_printed(result.predictions / PARTICIPANT_OUTPUT):
        return
    if output is not None:
        print(f"what your code printed is in {Path(output) / 'predictions' / PARTICIPANT_OUTPUT}")
    else:
        print(
            "note: your code printed something; run with --output DIR to keep it in "
            f"DIR/predictions/{PARTICIPANT_OUTPUT}"
        )


def read_scores(result: RunResult) -> dict[str, float]:
    """The scores of a run whose steps succeeded; else the failed step's message, its own said
    once (not wrapped in a second "not accepted")."""
    if result.prediction.timed_out:
        during = last_progress(result.prediction.stdout)
        limit_note = "locally, --time-limit sets the limit of each step"
        raise past_time_limit(result.prediction.time_limit, during, limit_note)
    for name, step in (("prediction step", result.prediction), ("scoring step", result.scoring)):
        if step.exit_code == 0:
            continue
        for marker, error_type in ((REFUSED, SubmissionError), (BUNDLE_PROBLEM, ConfigError)):
            if marker in step.stderr:
                raise error_type.single("", own_words(step.stderr))
        tail = "\n".join(step.stderr.strip().splitlines()[-25:])
        reason = f"the {name} exited with code {step.exit_code}"
        # a limit the organiser set may leave the step no room to start (numpy's import)
        hint = limits_in_force()
        raise SubmissionError.single(name, reason, found=tail or "no message", hint=hint)
    return json.loads((result.output / "scores.json").read_text(encoding="utf-8"))


def leaderboard_row(scores: dict[str, float], task: PhaseTask) -> str:
    """One line per leaderboard column of ``task``, whose scoring step ran: its title, the score
    (n/a when the track was not submitted) and its direction and range (``report.score_meanings``
    of the phase's task.json, in its reference data, which the scoring step read; read while a
    zipped bundle's extracted copy still exists), the primary score's after what that score is
    when a primary track is missing (``report.missing_primary_words``)."""
    spec = read_spec(task.reference_data)
    meanings = score_meanings(spec)
    if words := missing_primary_words(spec, scores):
        meanings["primary"] = f"{words}; {meanings['primary']}"
    width = max((len(c["title"]) for c in task.columns), default=10)
    lines = []
    for column in task.columns:
        value = scores.get(column["key"])
        shown = "n/a" if value is None else f"{value:.{column.get('precision', 4)}f}"
        meaning = meanings.get(column["key"])
        said = f"  ({meaning})" if meaning else ""
        lines.append(f"  {column['title']:<{width}}  {shown:>8}{said}")
    return "\n".join(lines)


#: What a starting kit offers for a phase whose gold it does not hold (``{phase}``: the words
#: naming that phase, or none; ``{held}``: where the kit holds a platform phase's data, or none).
CHECK_HINT = (
    "to check the format and coverage of your files{phase} without scores, "
    "download the phase's public data (Files tab on the platform{held}) and run: python3 "
    "ingestion_program/ingest.py PHASE_DATA checked YOUR_SUBMISSION (a result zip or a folder "
    "with model.py)"
)


def _check_hint(bundle: Path, tasks: dict[str, PhaseTask], phase: str) -> str:
    """``CHECK_HINT`` for ``phase`` (the words naming it), naming the input data the kit holds of
    each of its platform phases (``tasks``: the kit's, by slug)."""
    held = [
        f"; the {name} data is {task.input_data.relative_to(bundle).as_posix()} in this kit"
        for name, task in tasks.items()
        if name != LOCAL_PHASE and task.input_data is not None and task.input_data.is_dir()
    ]
    return CHECK_HINT.format(phase=phase, held="".join(held))


def _edition_phases(tasks: dict[str, PhaseTask]) -> set[str]:
    """The slugs of the kit's phases and of the edition's others its input data names (their ids
    in ``other_phase_ids.json``: a phase on another split than the kit's)."""
    folders = [task.input_data for task in tasks.values() if task.input_data is not None]
    return set(tasks) | {slug(name) for folder in folders for name in other_phase_ids(folder)}


def kit_phase_task(bundle: Path, phase: str, shown: str, option: str = "--phase") -> PhaseTask:
    """``phase_task`` of the phase ``option`` names: one the bundle has not, or in a starting kit
    one it cannot score (its gold is hidden), is a usage error (nothing of the submission is
    read), answered with the phases it has or scores. ``shown``: how messages name the bundle
    (an empty one: its folder); ``option``: how they name the phase's argument."""
    doc = read_competition(bundle, shown)
    names = [p.get("name", "") for p in doc.get("phases") or [] if isinstance(p, dict)]
    if not (bundle / "sample_submissions").is_dir():
        if names and slug(phase) not in map(slug, names):
            reason = f"no such phase in {shown or bundle}: {phase}"
            expected = f"{option} " + " or ".join(map(slug, names))
            raise UsageError.single(option, reason, expected=expected)
        return phase_task(bundle, phase, doc, shown)
    tasks = {slug(name): phase_task(bundle, name, doc, shown) for name in names}
    # every phase of a kit names its reference data, whose folder it leaves out where the gold is
    # hidden
    scored = [name for name, task in tasks.items() if task.reference_data.is_dir()]
    expected = f"{option} " + " or ".join(scored) if scored else None
    task = tasks.get(slug(phase))
    if task is not None and task.reference_data.is_dir():
        return task
    if task is None and slug(phase) not in _edition_phases(tasks):
        where = option
        reason = f"no such phase: {phase}; {_kit_phase_list(list(tasks), scored)}"
        hint = None if scored else _check_hint(bundle, tasks, "")
    else:  # a phase of the kit (or of its edition) whose gold is hidden
        cannot = "this phase's gold is hidden, so this starting kit cannot score it"
        where = f"{option} {phase}"
        reason = cannot if scored else f"{cannot}, nor any other phase"
        hint = _check_hint(bundle, tasks, " for that phase")
    raise UsageError.single(where, reason, expected=expected, hint=hint)


def _kit_phase_list(phases: list[str], scored: list[str]) -> str:
    """The kit's phases as a participant may pass them: those it scores, the others named apart
    (their gold is hidden, so the kit refuses them)."""
    hidden = [name for name in phases if name not in scored]
    if not hidden:
        return f"this starting kit's phases are: {', '.join(phases)}"
    apart = f" (the gold of {listed(hidden)} is hidden)"
    if not scored:
        return f"this starting kit can score no phase{apart}"
    return f"this starting kit can score: {', '.join(scored)}{apart}"


def run(args) -> int:
    with tempfile.TemporaryDirectory(prefix="codajudge-bundle-") as tmp:
        bundle = open_bundle(Path(args.bundle), Path(tmp))
        task = kit_phase_task(bundle, args.phase, args.bundle)
        notes: list[str] = []
        output = Path(args.output) if args.output else None
        if output is not None:
            check_output(output)
        scores = run_once(bundle, args.submission, task, args.time_limit, output, notes)
        # read while a zipped bundle's extracted copy, with its task.json, still exists
        row = leaderboard_row(scores, task)
    for note in notes:
        print(f"note: {note}")
    print(f"{args.submission} on the {args.phase} phase:")
    print(row)
    if output is not None:  # what keep_outputs left there, as found
        kept = [name for name in KEPT_OUTPUTS if (output / name).is_file()] + ["predictions/"]
        if (output / "predictions" / PARTICIPANT_OUTPUT).is_file():
            kept.append(f"predictions/{PARTICIPANT_OUTPUT}")
        print(f"kept {listed(kept)} in {args.output}")
    return 0


#: ``--phase``: the phases are the given bundle's or kit's own.
PHASE_HELP = (
    f"a phase of BUNDLE (its competition.yaml, or {KIT_PHASES_FILE} in a CodaLab v1.5 kit): in "
    "a starting kit, local (its validation split, "
    "scored locally) or practice where the practice gold is public; in a bundle, e.g. practice, "
    "evaluation or post-campaign"
)


def main(argv: list[str] | None = None, prog: str = "run_local.py") -> int:
    parser = argument_parser(prog, __doc__, epilog=__doc__)
    parser.add_argument("bundle", help="bundle folder or zip (or the starting kit folder)")
    parser.add_argument("submission", help="result zip/folder, code submission, or baseline:NAME")
    parser.add_argument("--phase", required=True, help=PHASE_HELP)
    parser.add_argument("--output", help="keep scores, detailed results and predictions here")
    parser.add_argument(
        "--time-limit", type=int, help="seconds per step (default: the phase's limit)"
    )
    return run_parsed(parser, argv, run, SUBMISSION_INPUT)
