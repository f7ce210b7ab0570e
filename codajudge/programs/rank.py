"""Organiser ranking: score every final submission of a phase and write the official ranking.

    codajudge rank SUBMISSIONS_DIR REFERENCE_DIR [--out DIR]   (or python3 rank_submissions.py ...)
        [--test williams|bootstrap|wilcoxon|auto] [--alpha 0.05] [--resamples N] [--seed N]
        [--overall primary|mean-rank] [--latex-width auto|1|2] [--teams FILE] [--jobs N]
        [--run-code]

SUBMISSIONS_DIR holds one result zip per team or run (a folder of prediction files also works); the
file name without ``.zip`` names the system (two entries naming one, ``beta.zip`` and a folder
``beta``, or names that look alike, ``alpha`` and ``ALPHA``, are refused, exit 2); any other entry
(hidden ones and an earlier ranking's own output, ``--out`` or its files, aside, with a note) is
reported as not ranked. The ranking scores predictions: a code
submission (``model.py`` and no status file at its root) is refused before scoring, whatever else it
holds. A status file is trusted only from the platform's prediction output: rank the prediction
output Codabench keeps of each run (the prediction step's output), or give ``--run-code`` on the
submissions as uploaded, which runs each one holding ``model.py`` (whatever status file it holds,
with a note), one at a time, through the
phase's prediction step as ``run_local.py`` does (the bundle's ingestion program on the phase's
input data, under its ``execution_time_limit``, in the bubblewrap sandbox: ``runner.sandbox``) and
ranks its predictions; it runs none, exit 1, where the sandbox cannot run (install it with ``apt-get
install bubblewrap``). REFERENCE_DIR is a phase's reference folder (``task.json`` and the gold
``<dataset>.jsonl``), e.g. ``reference_data/evaluation`` of a bundle (of an unzipped bundle with
``--run-code``, which finds the phase's programs there). Each zip is opened with the scoring
program's safe extraction and scored by the same engine; one that cannot be scored is reported (name
and reason) and left out, and the others go on; a status file (``ingestion_status.json``, which a
participant's zip may carry) is heeded only where it says the prediction step failed: a prediction
output's tracks are its ``<track_id>.tsv`` at the root, and the file's notes and names are not shown
(``--run-code``'s own outputs' status is heeded whole); what the scoring program would note on a
ranked one (files ignored, tracks not covered, metric warnings) is listed per submission (stderr,
ranking.md, and ranking.csv rows ``submission_note``). The gold is read once; ``--jobs`` processes
(default: one per core, at most 4) score the submissions. Progress goes to stderr. Written to
``--out`` (default: the current folder; a folder that cannot hold them is refused before any
scoring, exit 2): ``ranking.md``, ``ranking.csv``, ``ranking.tex`` and ``ranking.html``, the tables
of ``codajudge.stats.tables`` (which writes the CSV) rendered by ``stats.markdown``, ``stats.latex``
and ``ranking_page``, each beginning with the ``codajudge rank`` command, every option spelled out,
that reproduces it.

Per track, systems are ranked on the main metric with statistical ties (``codajudge.stats.ranking``):
``auto`` uses Williams' t-test for Pearson r, Wilcoxon signed-rank on per-item losses for the
LeWiDi metrics and the paired bootstrap otherwise; all tests are two-sided at ``--alpha``. The
overall order (``--overall``) is the primary score, the leaderboard's order, which no other
system's submission can change; ``--overall mean-rank`` orders by the mean rank over the primary
tracks instead, which a third system can flip (a run scoring between two others on some tracks).
The primary score and the overall table follow the phase's ``primary_score`` rule (task.json): a
run the rule ``unranked`` leaves without a primary score is ranked on each track it submitted and
listed apart. The groups of tracks task.json declares (``ranking: {groups: ...}``) each get their
own table (``group_tables``). ``--latex-width`` sets ranking.tex's wide tables in one or both
columns of a two-column page (default: by their width). ``--teams FILE`` ranks teams: each team's best run by the overall order (computed over every run)
is kept and ranked under the team's name (``programs.teams`` says which files map runs to teams).
Intervals and bootstrap tests use ``--resamples`` resamples seeded with ``--seed`` (default: the
phase's seed in task.json); ``--resamples 0`` (no intervals) is refused where a track's test is the
paired bootstrap, which would have nothing to draw. A mistake in the command (a submissions folder
that is a file or missing, a teams file that does not say, a phase's input data given as its
reference folder) is refused with exit 2; a reference folder that cannot be read is the bundle's
problem (exit 1).
"""

from __future__ import annotations

import argparse
import os
import pickle
import re
import shlex
import sys
import tempfile
import time
import zipfile
from dataclasses import replace
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path, PurePosixPath
from collections.abc import Iterator
from typing import Union

from ..assets import kit_command
from ..errors import ConfigError, KitError, SubmissionError, UsageError, counted, first_few
from ..formats.archive import INGESTION_STATUS, READ_ERRORS, code_model, walk_entries
from ..formats.coverage import OTHER_PHASE_WORDS
from ..formats.textfile import name_as_read, safe_display
from ..metrics import get as get_metric
from ..metrics.edition_module import load_source, loaded_modules
from ..report import atomic_write, submission_notes
from ..gold import GoldTrack
from ..scoring import Result, load_gold
from ..spec import BASELINE, MODEL_FILE, UNRANKED, TaskSpec, read_spec
from ..texts import kit_text
from ..stats.bootstrap import DEFAULT_RESAMPLES, signature_text
from ..stats.paired import BOOTSTRAP, TESTS, choose_test
from ..stats.ranking import (
    BY_PRIMARY,
    GROUP_MEAN_RANK,
    OverallRow,
    rank_group,
    OVERALL_RULES,
    order_best_first,
    rank_as_printed,
    rank_overall,
    rank_track,
)
from ..ranking_page import render_html
from ..stats.latex import LATEX_WIDTHS, render_latex
from ..stats.markdown import render_markdown
from ..stats.tables import (
    AFTER_EVERY_SYSTEM,
    GroupTable,
    RankingReport,
    Settings,
    render_csv,
)
from ..stats import tables
from ..runner.local import PhaseTask, phase_task, predict, require_sandbox
from ..runner.sandbox import limits_in_force
from .common import argument_parser, run_parsed
from .score import score_submission_folder
from .status import read_status
from .teams import read_teams, teams_of

OUTPUT_FILES = ("ranking.md", "ranking.csv", "ranking.tex", "ranking.html")
RENDERERS = (render_markdown, render_csv, render_latex, render_html)
#: What scoring one submission gives: its Result, or why it is not scored, and the seconds it took.
Outcome = tuple[Union[Result, str], float]
#: Why an entry of the submissions folder that is neither a zip nor a folder is not ranked.
NOT_A_SUBMISSION = (
    "neither a zip nor a folder, so not read; to rank it, give it as a .zip (or a folder) of "
    "prediction files"
)


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


#: A refusal of a file of another phase's ids (``formats.coverage.OtherPhases``), naming the phase.
OTHER_PHASE = re.compile(re.escape(OTHER_PHASE_WORDS).replace(r"\{\}", r"(\S+)"), re.IGNORECASE)


def log_other_phase(spec: TaskSpec, ref_dir: Path, refused: list[tuple[str, str]], of: int) -> None:
    """A note when most of the ``of`` submissions were refused as another phase's ids: the
    reference given is likely not their phase's."""
    phases = [found[1] for _, why in refused if (found := OTHER_PHASE.search(why))]
    phase = max(set(phases), key=phases.count, default=None)
    if phase and 2 * phases.count(phase) > of:
        log(
            f"note: {phases.count(phase)} of {counted(of, 'submission')} hold the ids of phase "
            f"{phase}, but {ref_dir} is the reference data of phase {spec.phase}: to rank phase "
            f"{phase}'s submissions, give the bundle's reference_data/{phase} "
            f"({Path(ref_dir).parent / phase})"
        )


def find_submissions(
    folder: Path, out: Path | None = None
) -> tuple[list[tuple[str, Path]], list[tuple[str, str]]]:
    """(system name, path) of every zip and sub-folder, sorted by name, and (name, why) of every
    other entry, which is not ranked (hidden entries, the ranking's ``out`` folder or a folder
    holding only the way to it, and its files ``OUTPUT_FILES`` when ``folder`` is ``out``, are
    skipped, with a note). A name is shown by ``safe_display`` in every table (bytes that are not
    UTF-8 as their values, ``caf\\xe9``; unprintable characters and end spaces escaped). UsageError
    when there is no submission, no such folder (or a file), or two entries name the same system
    (``beta.zip`` and a folder ``beta``) or names that look alike (``name_as_read``)."""
    listing = sorted(folder.iterdir()) if folder.is_dir() else []
    target = out.resolve() if out else None
    own = [
        p
        for p in listing
        if (p.is_dir() and target and _leads_only_to(p, target))
        or (p.is_file() and p.name in OUTPUT_FILES and folder.resolve() == target)
    ]
    hidden = [p for p in listing if p.name[:1] == "."]
    skipped = {
        f"the earlier ranking's own output in {folder} (--out is {out})": own,
        f"the hidden entries (names starting with a dot) in {folder}": hidden,
    }
    for what, paths in skipped.items():
        if paths:
            log(f"note: skipped {what}: " + ", ".join(shown(paths)))
    entries = [p for p in listing if p not in hidden and p not in own]
    found = [p for p in entries if p.is_dir() or (p.is_file() and p.suffix.lower() == ".zip")]
    others = [(safe_display(p.name), NOT_A_SUBMISSION) for p in entries if p not in found]
    if not found:
        problem = "is a file, not a folder" if folder.exists() else "does not exist"
        raise UsageError.single(
            str(folder),
            "no submission found" if folder.is_dir() else f"the submissions folder {problem}",
            expected="a folder of result zips (or folders), one per team or run",
            found=first_few([name for name, _ in others]) if others else None,
            hint=None if folder.is_dir() else "give the folder that holds the result zips",
        )
    raw_names = [path.stem if path.is_file() else path.name for path in found]
    looks = [name_as_read(name) for name in raw_names]
    clashes = [path for look, path in zip(looks, found) if looks.count(look) > 1]
    if clashes:
        raise UsageError.single(
            str(folder),
            "entries name the same system (the file name without .zip names it), or names that "
            "look alike (equal but for case, Unicode normal form, invisible characters or "
            "whitespace at either end)",
            expected="one zip or folder per system, under names that look different",
            found=first_few(shown(clashes)),
            hint="remove or rename all but one of each",
        )
    submissions = [(safe_display(name), path) for name, path in zip(raw_names, found)]
    for name, why in others:
        log(f"{name}: NOT RANKED: {why}")
    return submissions, others


def shown(paths: list[Path]) -> list[str]:
    """The names of entries of the submissions folder, for a message: each escaped
    (``safe_display``) as every output shows its system name, a zip's before its ``.zip``
    (``alpha\\x20.zip``), a folder's with ``/``."""
    return [
        safe_display(p.stem) + p.suffix
        if p.is_file() and p.suffix.lower() == ".zip"
        else safe_display(p.name) + ("/" if p.is_dir() else "")
        for p in paths
    ]


def score_one(path: Path, spec: TaskSpec, ref_dir: Path, gold: dict, made_here=()) -> Outcome:
    """(its Result, or why it is not scored, and the seconds it took) for one submission; a
    ConfigError (the reference data is wrong) propagates. Its ingestion status (tracks, notes) is
    trusted only where the path is ``made_here``: a prediction output ``--run-code`` made."""
    started = time.monotonic()
    # code to run rather than a prediction output: code and no ingestion status (a prediction
    # output holds the submission's files too, as the platform's worker copies them there)
    if path not in made_here and holds_code(path, spec.tracks) and not holds_status(path):
        return kit_text("ranking/code_submission", model=MODEL_FILE), time.monotonic() - started
    try:
        outcome: Result | str = score_submission_folder(
            spec, ref_dir, path, gold, path in made_here
        )
    except ConfigError:
        raise  # the reference data is wrong: no submission can be ranked
    except KitError as e:
        outcome = " / ".join(e.render().splitlines())
    except Exception as e:  # noqa: BLE001 - one broken submission must not stop the others
        outcome = f"internal error ({e.__class__.__name__}: {e})"
    return outcome, time.monotonic() - started


def holds_code(path: Path, tracks: list) -> bool:
    """Whether a submission (zip or folder) holds code to run: a ``model.py`` among its files where
    the ingestion program runs one (``archive.code_model``: the shallowest, at any depth, unless
    a file the ``tracks`` claim sits in a shallower folder; ignored entries such as ``__MACOSX/``
    left out; a link or other special file so named counts too, which that program refuses,
    naming it), whatever else it holds."""
    files = [PurePosixPath(name) for name in entry_names(path) if not name.endswith("/")]
    models, above = code_model(files, tracks)
    return bool(models) and not above


def holds_status(path: Path) -> bool:
    """Whether a submission (zip or folder) holds an ingestion status at its root, as the
    platform's prediction output does (anyone can write one: it is trusted only where
    ``--run-code`` made it)."""
    if path.is_dir():
        return os.path.lexists(path / INGESTION_STATUS)
    return INGESTION_STATUS in entry_names(path)


def entry_names(path: Path) -> list[str]:
    """The relative names of a folder's entries or a zip's members ([] for a zip that cannot be
    read: scoring it says why)."""
    if path.is_dir():
        return [relative.as_posix() for relative, _ in walk_entries(path)]
    try:
        with zipfile.ZipFile(path) as archive:
            return archive.namelist()
    except READ_ERRORS:
        return []


def code_task(reference: Path, spec: TaskSpec) -> PhaseTask:
    """The bundle's task whose reference data is ``reference`` (``BUNDLE/reference_data/PHASE``):
    the phase's ingestion program, input data and time limit, which ``--run-code`` runs code by."""
    bundle = reference.resolve().parent.parent
    if not (bundle / "competition.yaml").is_file():
        raise ConfigError.single(
            str(reference),
            "--run-code needs the bundle this reference folder belongs to (its ingestion program "
            "and input data), and no competition.yaml is two folders up",
            hint="give the reference folder inside an unzipped bundle: BUNDLE/reference_data/PHASE",
        )
    task = phase_task(bundle, spec.phase)
    if task.ingestion_program is None:
        raise ConfigError.single(
            str(bundle / "competition.yaml"),
            f"phase {task.name!r} runs no code (it has no ingestion program)",
            hint="rank its code submissions' prediction outputs, or use the Codabench bundle",
        )
    return task


def run_code_submissions(
    submissions: list[tuple[str, Path]], reference: Path, spec: TaskSpec, work: Path
) -> tuple[list[tuple[str, Path]], list[tuple[str, str]]]:
    """``--run-code``: each code submission replaced by its prediction output, made by running it
    through the phase's prediction step in the sandbox (``runner.local.predict``), one at a
    time, in ``work``; the others as they are. Returns them, and (name, reason) of those whose
    step left no prediction output to score. A ConfigError before any runs when the sandbox
    cannot run here."""
    code = [name for name, path in submissions if holds_code(path, spec.tracks)]
    if not code:
        log("--run-code: no code submission to run")
        return submissions, []
    task = code_task(reference, spec)
    require_sandbox(task)
    kept, failures = [], []
    limit = f"phase {task.name}, {task.time_limit} s"
    for number, (name, path) in enumerate(submissions):
        if name in code:
            prefix = f"[{code.index(name) + 1}/{len(code)}] {name}"
            log(f"{prefix}: running its code in the sandbox ({limit})")
            if holds_status(path):
                note = kit_text("ranking/code_with_status", model=MODEL_FILE)
                log(f"{prefix}: note: {note}")
            path, said = run_code(task, path, work / str(number))
            log(f"{prefix}: {'NOT RUN: ' if path is None else ''}{said}")
        if path is None:
            failures.append((name, said))
        else:
            kept.append((name, path))
    return kept, failures


def run_code(task: PhaseTask, submission: Path, work: Path) -> tuple[Path | None, str]:
    """(the prediction output, what its step says) of one code submission run in the sandbox;
    (None, why) when it left none to score."""
    try:
        output, step, _ = predict(task, str(submission), work, task.time_limit)
    except SubmissionError as e:  # a zip that cannot be extracted
        return None, " / ".join(e.render().splitlines())
    if step.timed_out:  # the step was killed: a status file there is not the kit's
        return None, f"its code ran past the phase's time limit of {step.time_limit:g} s"
    status = read_status(output)
    if status is not None:
        said = status.message.splitlines()[0] if status.message else "no message"
        return output, f"prediction step {status.status} in {step.seconds:.1f} s: {said}"
    ended = f"the prediction step ended (exit code {step.exit_code}) without an ingestion status"
    limits = limits_in_force()  # a limit the organiser set may leave the step no room to start
    return None, f"{ended}; {limits}" if limits else ended


def score_all(
    submissions: list[tuple[str, Path]], spec: TaskSpec, ref_dir: Path, jobs: int = 1, made_here=()
) -> tuple[dict[str, Result], list[tuple[str, str]]]:
    """Score every submission against the phase's gold, read once, in ``jobs`` worker processes
    (each holding the gold); a failure is logged and recorded, and the others go on. A reference
    that cannot be read stops everything (ConfigError). Results are those of scoring each
    submission on its own, in the submissions' order, sharing the parent's gold. ``made_here``:
    the prediction outputs ``--run-code`` made, whose ingestion status is the kit's own."""
    gold = reference_gold(spec, ref_dir)
    results: dict[str, Result] = {}
    failures: list[tuple[str, str]] = []
    paths = [path for _, path in submissions]
    if jobs <= 1 or len(paths) < 2:
        outcomes = (score_one(path, spec, ref_dir, gold, made_here) for path in paths)
    else:
        outcomes = _pooled_outcomes(paths, (spec, ref_dir, gold, made_here), jobs)
    for number, ((name, _), (value, seconds)) in enumerate(zip(submissions, outcomes), start=1):
        prefix = f"[{number}/{len(submissions)}] {name}"
        if isinstance(value, str):
            failures.append((name, value))
            log(f"{prefix}: NOT SCORED: {value}")
            continue
        # a worker's result comes without the spec and gold, which the parent holds
        value.spec = spec
        for track_id, track_result in value.tracks.items():
            track_result.gold = gold[track_id]
        results[name] = value
        log(f"{prefix}: scored ({', '.join(sorted(value.tracks))}) in {seconds:.1f} s")
        for note in submission_notes(value):
            log(f"  note: {note}")
    return results, failures


def reference_gold(spec: TaskSpec, ref_dir: Path) -> dict[str, GoldTrack]:
    """The phase's gold (``load_gold``); when it cannot be read from a phase's input data given
    instead (its datasets' training files beside them, or a folder of ``input_data``), a
    UsageError saying so; a missing gold file's ConfigError tells which folder to give."""
    try:
        return load_gold(spec, ref_dir)
    except ConfigError as e:
        in_input_data = Path(ref_dir).resolve().parent.name == "input_data"
        if not (in_input_data or any(Path(ref_dir).glob("*.train.jsonl"))):
            if all((Path(ref_dir) / f"{t.dataset}.jsonl").is_file() for t in spec.tracks):
                raise
            hint = f"give the bundle's reference_data/{spec.phase}, or rebuild the bundle"
            hint += " (python3 build_bundle.py)"
            raise ConfigError([replace(e.problems[0], hint=hint)]) from None
        raise UsageError.single(
            str(ref_dir),
            "this looks like a phase's input data (its items without their gold), not its "
            "reference data",
            expected="a phase's reference folder (task.json and the gold <dataset>.jsonl)",
            found=f"no gold ({e.problems[0].file}: {e.problems[0].message})",
            hint="give the bundle's reference_data/PHASE, not input_data/PHASE",
        ) from None


def _pooled_outcomes(paths: list[Path], score_args: tuple, jobs: int) -> Iterator[Outcome]:
    """``score_one`` of each path with ``score_args`` (spec, reference, gold, the paths made
    here), in order, in a pool of ``jobs`` processes."""
    # pickled here and unpickled in the worker after the edition's own metrics are registered
    # there: a worker started by spawn or forkserver has not run their module
    initargs = (loaded_modules(), pickle.dumps(score_args))
    workers = min(jobs, len(paths))
    with ProcessPoolExecutor(workers, initializer=_start_worker, initargs=initargs) as pool:
        yield from pool.map(_score_in_worker, paths)


_WORKER: dict[str, object] = {}


def _start_worker(edition_metrics: list[tuple[str, str]], payload: bytes) -> None:
    for source, file_name in edition_metrics:
        load_source(source, file_name)
    _WORKER["score_args"] = pickle.loads(payload)


def _score_in_worker(path: Path) -> Outcome:
    """``score_one`` in a worker, its Result returned without the gold (the parent holds it); a
    ConfigError (the reference data is wrong) is raised in the parent by ``pool.map``."""
    value, seconds = score_one(path, *_WORKER["score_args"])
    if isinstance(value, Result):
        value.spec = None
        for track_result in value.tracks.values():
            track_result.gold = None
    return value, seconds


def rank_tracks(
    spec: TaskSpec, results: dict[str, Result], settings: Settings
) -> dict[str, object]:
    """Every track's ranking (track id -> ``TrackRanking``)."""
    rankings = {}
    for track in spec.tracks:
        started = time.monotonic()
        ranking = rank_track(track, results, settings)
        rankings[track.id] = ranking
        said = f"{counted(len(ranking.rows), 'system')}, test {ranking.test}"
        log(f"ranked track {track.id} ({said}) in {time.monotonic() - started:.1f} s")
    return rankings


def overall_order(spec: TaskSpec, results: dict[str, Result], settings: Settings) -> list[str]:
    """Every system, best first, by the overall rule (the primary score needs no track ranking)."""
    unranked = sorted(name for name, r in results.items() if not r.ranked)
    if settings.overall == BY_PRIMARY:
        return order_best_first(*primary_scores(spec, results)) + unranked
    rows = overall_rows(spec, results, rank_tracks(spec, results, settings), settings.overall)
    return [row.system for row in rows] + unranked


def primary_scores(spec: TaskSpec, results: dict[str, Result]) -> tuple[dict[str, float], bool]:
    """The primary score of every run that has one, and whether higher is better (the direction
    of the primary tracks' main metric)."""
    scores = {name: r.primary for name, r in results.items() if r.ranked}
    return scores, get_metric(spec.primary_tracks[0].main_metric).higher_is_better


def overall_rows(
    spec: TaskSpec, results: dict[str, Result], rankings: dict[str, object], rule: str
) -> list[OverallRow]:
    """The overall table's rows by ``rule``, over the runs that have a primary score."""
    track_ids = [t.id for t in spec.primary_tracks]
    scores, higher_is_better = primary_scores(spec, results)
    rows = rank_overall(track_ids, rankings, scores, higher_is_better, rule, stand_in_scores(spec))
    # a primary score is one as the overall table prints it (tables.primary_column), as a track's
    percent = not spec.primary_rule.normalised and all(
        get_metric(t.main_metric).percent for t in spec.primary_tracks
    )
    if rule == BY_PRIMARY:
        rank_as_printed(rows, lambda value: tables.shown(value, percent))
    return rows


def stand_in_scores(spec: TaskSpec) -> dict[str, float]:
    """Track id -> the score a run that did not submit it ranks at, by the phase's missing-track
    rule: the baseline's (``baseline NAME``); none otherwise (it ranks after every system)."""
    rule = spec.primary_rule
    return rule.baseline_scores if rule.missing == BASELINE else {}


def stand_in_words(spec: TaskSpec) -> str:
    """Where a track a run did not submit ranks by the phase's missing-track rule, in words that
    follow "whose rank" (the group tables, the overall mean rank); "" under ``unranked``, where no
    stand-in counts (the run is left out)."""
    rule = spec.primary_rule
    if rule.missing == BASELINE:
        # a baseline worse than every run of the track ranks after the last run (stand_in_rank)
        return kit_text("ranking/stand_in_baseline", baseline=rule.baseline)
    return "" if rule.missing == UNRANKED else AFTER_EVERY_SYSTEM


def group_tables(
    spec: TaskSpec, results: dict[str, Result], rankings: dict[str, object]
) -> list[GroupTable]:
    """The tables of the groups of tracks the phase's task.json declares (``ranking: {groups:
    {NAME: {tracks: [...], order: mean_rank | mean_score}}}``), each over the scored runs that
    entered at least one of its tracks (a stand-in alone ranks no run; the others are listed as not
    entered); by the rule ``unranked``, a run that did not submit every track is left out too.
    ConfigError when a group names no track, one the phase does not have, or one twice."""
    rule = spec.primary_rule
    known = {t.id for t in spec.tracks}
    tables = []
    for name, group in ((spec.extra.get("ranking") or {}).get("groups") or {}).items():
        track_ids, order = list(group.get("tracks", [])), group.get("order", GROUP_MEAN_RANK)
        unknown = [t for t in track_ids if t not in known]
        if unknown or not track_ids or len(set(track_ids)) < len(track_ids):
            raise ConfigError.single(
                f"reference task.json: ranking: groups: {name}",
                "a group names tracks the phase does not have (or none, or one twice)",
                expected=f"each of {', '.join(sorted(known))} once at most",
                found=", ".join(map(str, unknown or track_ids)) or "no tracks",
            )
        entered = [n for n, r in results.items() if any(t in r.tracks for t in track_ids)]
        complete = [n for n in entered if all(t in results[n].tracks for t in track_ids)]
        kept = complete if rule.missing == UNRANKED else entered
        rows = rank_group(track_ids, rankings, kept, stand_in_scores(spec), order)
        left_out = [n for n in entered if n not in kept]
        not_entered = [n for n in results if n not in entered]
        words = stand_in_words(spec)
        tables.append(GroupTable(name, order, track_ids, rows, left_out, words, not_entered))
    return tables


def build_report(
    spec: TaskSpec,
    results: dict[str, Result],
    failures,
    settings: Settings,
    runs: dict[str, str],
) -> RankingReport:
    """The ranking of ``results``; with ``runs`` (team -> run; {}: ranking runs), of those runs
    under their teams' names."""
    if runs:
        results = {team: results[run] for team, run in runs.items()}
    rankings = rank_tracks(spec, results, settings)
    return RankingReport(
        spec,
        signature_text(settings.resamples, settings.seed, test=settings.test, alpha=settings.alpha),
        rankings,
        overall_rows(spec, results, rankings, settings.overall),
        failures=failures,
        notes={
            name: lines for name, result in results.items() if (lines := submission_notes(result))
        },
        settings=settings,
        runs=runs,
        rule_notes=primary_rule_notes(spec, results),
        groups=group_tables(spec, results, rankings),
        stand_in_rank=stand_in_words(spec),
    )


def primary_rule_notes(spec: TaskSpec, results: dict[str, Result]) -> list[tuple[str, str]]:
    """Which of the ranked runs (name -> Result) the missing-track rule applied to, as
    (run, plain-text note) pairs: what stood in for each primary track a run did not submit, then
    the runs left without a primary score and the tracks they are ranked on."""
    notes = [
        (name, "; ".join(f"{track} counted as {what}" for track, what in r.stand_ins.items()))
        for name, r in results.items()
        if r.ranked and r.stand_ins
    ]
    for name, r in results.items():
        if not r.ranked:
            submitted = ", ".join(t.id for t in spec.tracks if t.id in r.tracks) or "no track"
            notes.append((name, kit_text("ranking/unranked_note", tracks=submitted)))
    return notes


def _within(convert, low, high, name: str, strict: bool = False):
    """An argparse type: ``convert(text)`` from ``low`` to ``high`` (both excluded when ``strict``)."""

    def parse(text: str):
        value = convert(text)
        if not (low < value < high if strict else low <= value <= high):
            bounds = f"between {low} and {high} ({'exclusive' if strict else 'inclusive'})"
            bounds = f"strictly {bounds}" if strict else bounds
            raise argparse.ArgumentTypeError(f"{name} must be {bounds}, not {text}")
        return value

    parse.__name__ = name  # argparse names a value that is not a number by it
    return parse


def option_table() -> dict[str, dict]:
    """``codajudge rank``'s options: flag -> ``argparse`` settings."""
    # scoring processes: one per core this process may use, at most 4
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    jobs = max(1, min(4, cores or 1))
    return {
        "--out": dict(type=Path, default=Path("."), help="folder for the tables (default: .)"),
        "--test": dict(choices=TESTS, default="auto", help="significance test (default: auto)"),
        "--alpha": dict(
            type=_within(float, 0, 1, "alpha", strict=True),
            default=0.05,
            help="significance level (default: 0.05)",
        ),
        "--resamples": dict(
            type=_within(int, 0, 1_000_000, "resamples"),
            default=DEFAULT_RESAMPLES,
            help=f"bootstrap resamples (default: {DEFAULT_RESAMPLES})",
        ),
        "--seed": dict(
            type=_within(int, 0, 2**32 - 1, "seed"),
            help="bootstrap seed, 0 to 4294967295 (default: the phase's seed)",
        ),
        "--overall": dict(
            choices=OVERALL_RULES,
            default=BY_PRIMARY,
            help="overall order: the primary score (default; no third system can change it) or "
            "the mean rank over the primary tracks (a third system can flip two others)",
        ),
        "--latex-width": dict(
            choices=LATEX_WIDTHS,
            default="auto",
            help="ranking.tex's wide tables (overall, groups): 'auto' spans both columns of a "
            "two-column page when a table is wider than one column (estimated from its text), '1' "
            "keeps every table in one column, '2' sets them across both (track tables always fit "
            "one column)",
        ),
        "--teams": dict(
            type=Path,
            help="rank teams, each by its best run: a CSV with columns submission,team, or "
            "Codabench's export of submissions (CSV with columns Submission ID, File Name, Owner; "
            "or JSON, a list of objects with keys id, filename, owner; the team is the owner)",
        ),
        "--run-code": dict(
            action="store_true",
            help="run each code submission (model.py) through the phase's prediction step, in "
            "the bubblewrap sandbox (apt-get install bubblewrap) under the phase's time limit, "
            "and rank its predictions; REFERENCE_DIR must then be BUNDLE/reference_data/PHASE "
            "of an unzipped bundle",
        ),
        "--jobs": dict(
            type=_within(int, 1, 64, "jobs"),
            default=jobs,
            help=f"processes scoring submissions (default: {jobs}, the cores up to 4)",
        ),
    }


def check_out(out: Path) -> None:
    """``--out`` checked before any submission is scored, without creating it: the folder, or the
    nearest one above it that exists (where it will be created), takes a new file, and no folder
    stands where an output file goes; UsageError naming ``--out`` otherwise."""
    existing = next((path for path in (out, *out.parents) if os.path.lexists(path)), out)
    try:
        if not existing.is_dir():
            raise out_refused(out, f"a file at {existing}")
        in_the_way = [out / name for name in OUTPUT_FILES if (out / name).is_dir()]
        if in_the_way:
            raise out_refused(out, f"a folder at {in_the_way[0]}")
        tempfile.TemporaryFile(dir=existing).close()
    except OSError as e:
        raise out_refused(out, f"that {existing} takes no new file ({os_reason(e)})") from None


def os_reason(error: OSError) -> str:
    """What the system said of a failed file operation, in lower case: ``permission denied``."""
    return (error.strerror or str(error)).lower()


def out_refused(out: Path, found: str) -> UsageError:
    """The refusal of an ``--out`` folder that cannot hold the ranking."""
    return UsageError.single(
        str(out),
        "--out cannot hold the ranking",
        expected=f"a folder that can be created or written, to hold {', '.join(OUTPUT_FILES)}",
        found=found,
        hint="give --out another folder, or remove what is in the way",
    )


def write_outputs(out: Path, report: RankingReport) -> None:
    """Every output file of ``report`` written in ``out``, created when missing, with a note
    naming the earlier ranking's files it replaced; UsageError when one cannot be written (the
    folder changed, or the disk filled, while scoring)."""
    earlier = [name for name in OUTPUT_FILES if os.path.lexists(out / name)]
    try:
        out.mkdir(parents=True, exist_ok=True)
        for name, render in zip(OUTPUT_FILES, RENDERERS):
            atomic_write(out / name, render(report))
            log(f"wrote {out / name}")
        if earlier:
            log(f"note: replaced the earlier ranking files in {out}: {', '.join(earlier)}")
    except OSError as e:
        found = f"that {e.filename or out} cannot be written ({os_reason(e)})"
        raise out_refused(out, found) from None


def check_resamples(spec: TaskSpec, resamples: int, test: str) -> None:
    """UsageError when ``--resamples 0`` leaves a track whose test (``--test``, on its main metric)
    is the paired bootstrap without a resample to draw: its p-values would all be 1."""
    tracks = [t.id for t in spec.tracks if choose_test(t.main_metric, test)[0] == BOOTSTRAP]
    if resamples < 1 and tracks:
        raise UsageError.single(
            f"--resamples {resamples}",
            "the paired bootstrap test needs resamples to draw (without any, every p-value is 1)",
            expected="at least 1 resample where a track is tested by the paired bootstrap",
            found=f"{counted(len(tracks), 'track')} tested by it (--test {test}): {', '.join(tracks)}",
            hint=f"leave --resamples out (default {DEFAULT_RESAMPLES}) or give a positive number",
        )


def run(args: argparse.Namespace) -> int:
    spec = read_spec(args.reference)
    submissions, not_submissions = find_submissions(args.submissions, args.out)
    teams = read_teams(args.teams) if args.teams is not None else None
    if teams is not None:  # every submission's team, checked before any is scored
        teams_of([name for name, _ in submissions], teams)
    check_resamples(spec, args.resamples, args.test)
    check_out(args.out)
    results, refused = score_submissions(submissions, spec, args)
    failures = not_submissions + refused
    log_other_phase(spec, args.reference, refused, len(submissions))
    if not results:
        log("no submission could be scored; nothing to rank")
        return 2
    seed = spec.seed if args.seed is None else args.seed
    options = {name: getattr(args, name, None) for name in Settings._fields}
    settings = Settings(**dict(options, seed=seed, command=command_line(args, seed)))
    runs: dict[str, str] = {}  # team -> its best run, teams in the order of their best runs
    teams_not_ranked: list[tuple[str, str]] = []
    if teams is not None:
        team_of, notes, teams_not_ranked = teams_of(list(results), teams, dict(refused))
        for note in notes + [f"{team!r}: {why}" for team, why in teams_not_ranked]:
            log(f"note: {args.teams}: {note}")
        for system in overall_order(spec, results, settings):  # best first
            runs.setdefault(team_of[system], system)
        log(f"ranking {counted(len(runs), 'team')} by their best run: " + ", ".join(runs.values()))
        teams_not_ranked += runs_not_standing(results, runs, team_of)
    report = build_report(spec, results, failures + teams_not_ranked, settings, runs)
    write_outputs(args.out, report)
    if failures:
        unranked = counted(len(failures), "submission")
        log(f"{unranked} not ranked: " + ", ".join(name for name, _ in failures))
    return 0


def runs_not_standing(
    results: dict[str, Result], runs: dict[str, str], team_of: dict[str, str]
) -> list[tuple[str, str]]:
    """(run, why) of each scored run that does not stand for its team (``runs``: team -> its best
    run; ``team_of``: run -> team), its notes after the reason: every row is accounted for."""
    listed = []
    for run, result in results.items():
        best = runs[team_of[run]]
        if run != best:
            why = kit_text("ranking/teams_superseded", team=repr(team_of[run]), best=repr(best))
            notes = "; ".join(submission_notes(result))
            listed.append((run, f"{why}; its notes: {notes}" if notes else why))
    return listed


def _leads_only_to(path: Path, target: Path) -> bool:
    """Whether the folder ``path`` is ``target`` (resolved) or holds nothing but the way to it, each
    folder down to it holding only the next (``SUBS/results`` of ``--out SUBS/results/ranking``);
    a team's folder that also holds ``--out`` is still a submission."""
    if path.resolve() == target:
        return True
    inside = [entry for entry in path.iterdir() if entry.name[:1] != "."]
    if path.resolve() not in target.parents or len(inside) != 1:
        return False
    return inside[0].is_dir() and _leads_only_to(inside[0], target)


def score_submissions(
    submissions: list[tuple[str, Path]], spec: TaskSpec, args: argparse.Namespace
) -> tuple[dict[str, Result], list[tuple[str, str]]]:
    """``score_all`` of the submissions; with ``--run-code``, of their code's prediction outputs
    (``run_code_submissions``), whose failures to run come first among the failures."""
    with tempfile.TemporaryDirectory(prefix="codajudge-rank-code-") as tmp:
        not_run: list[tuple[str, str]] = []
        if args.run_code:
            submissions, not_run = run_code_submissions(
                submissions, args.reference, spec, Path(tmp)
            )
        log(f"scoring {counted(len(submissions), 'submission')} against {args.reference}")
        made_here = [path for _, path in submissions if Path(tmp) in path.parents]
        results, failures = score_all(submissions, spec, args.reference, args.jobs, made_here)
    return results, not_run + failures


#: Options that change how a ranking is made, not what it says: the reproducing command leaves them out.
NOT_REPRODUCED = ("--jobs",)


def command_line(args: argparse.Namespace, seed: int) -> str:
    """The ``codajudge rank`` command that reproduces a ranking: the paths as given (relative where
    they were), every option that changes the tables with its value (``NOT_REPRODUCED`` do not),
    the seed the ranking used."""
    parts = [str(args.submissions), str(args.reference)]
    for flag in option_table():
        value = seed if flag == "--seed" else getattr(args, flag[2:].replace("-", "_"))
        if flag in NOT_REPRODUCED or value is None or value is False:
            continue
        parts += [flag] if value is True else [flag, str(value)]
    return " ".join([kit_command("rank")] + [shlex.quote(part) for part in parts])


def main(argv: list[str] | None = None, prog: str = "rank_submissions.py") -> int:
    parser = argument_parser(prog, __doc__, epilog=__doc__.split("\n\n", 2)[2])
    parser.add_argument(
        "submissions", type=Path, help="folder of final submissions (one zip per team or run)"
    )
    parser.add_argument(
        "reference", type=Path, help="a phase's reference folder (task.json + gold)"
    )
    for flag, options in option_table().items():
        parser.add_argument(flag, **options)
    return run_parsed(parser, argv, run)
