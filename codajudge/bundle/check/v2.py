"""The Codabench v2 ``competition.yaml``: keys and types, pages, tasks, solutions, phases, dates."""

from __future__ import annotations

from pathlib import Path
from typing import Dict, Iterator, List, Tuple

from ..schedule import ScheduledPhase, schedule_problems
from .findings import (
    Findings,
    Platform,
    check_bool,
    check_count,
    check_image,
    check_in_bundle,
    check_page_file,
    check_text,
    inputs_by_reference,
    is_int,
    parse_date,
)
from .leaderboard import check_leaderboards, score_keys
from .programs import PROGRAMS, check_program

TOP_BOOLS = (
    "registration_auto_approve",
    "enable_detailed_results",
    "show_detailed_results_in_submission_panel",
    "show_detailed_results_in_leaderboard",
    "auto_run_submissions",
    "can_participants_make_submissions_public",
    "make_programs_available",
    "make_input_data_available",
    "forum_enabled",
)
TOP_KEYS = {
    *TOP_BOOLS,
    "version",
    "title",
    "description",
    "image",
    "docker_image",
    "competition_type",
    "fact_sheet",
    "reward",
    "contact_email",
    "pages",
    "tasks",
    "solutions",
    "terms",
    "queue",
    "phases",
    "leaderboards",
}
PHASE_BOOLS = (
    "auto_migrate_to_this_phase",
    "hide_output",
    "hide_prediction_output",
    "hide_score_output",
)
PHASE_KEYS = {
    "index",
    "name",
    "description",
    "start",
    "end",
    "max_submissions_per_day",
    "max_submissions",
    *PHASE_BOOLS,
    "tasks",
    "execution_time_limit",
    "public_data",
    "starting_kit",
}
TASK_KEYS = {
    "index",
    "key",
    "name",
    "description",
    "ingestion_only_during_scoring",
    "ingestion_program",
    "input_data",
    "scoring_program",
    "reference_data",
}
SOLUTION_KEYS = {"index", "key", "tasks", "path", "name", "description"}
#: The platform's default cap on a phase's execution time on the shared queue (seconds).
SHARED_QUEUE_TIME_LIMIT = 600


def _unknown(mapping: dict, allowed, where: str, what: str, findings: Findings) -> None:
    for key in sorted(set(mapping) - allowed, key=str):
        findings.add(
            where, f"unknown {what} key {key!r}", hint="Codabench ignores it; check its spelling"
        )


def check(doc: dict, root: Path, findings: Findings) -> None:
    _unknown(doc, TOP_KEYS, "competition.yaml", "top-level", findings)
    check_text(doc, "title", "title", findings, 256)
    check_text(doc, "description", "description", findings, 10000, required=False)
    check_image(root, doc.get("image"), "image", findings)
    for key in TOP_BOOLS:
        check_bool(doc, key, key, findings)
    if "docker_image" in doc:
        check_text(doc, "docker_image", "docker_image", findings, 128)
    if doc.get("competition_type", "competition") not in ("competition", "benchmark"):
        findings.add(
            "competition_type",
            "must be competition or benchmark",
            found=repr(doc["competition_type"]),
        )
    _check_pages(doc, root, findings)
    check_leaderboards(doc.get("leaderboards"), findings)
    tasks = _check_tasks(doc.get("tasks"), root, findings)
    _check_solutions(doc.get("solutions"), tasks, root, findings)
    _check_phases(doc.get("phases"), tasks, root, findings, has_queue=bool(doc.get("queue")))


def _check_pages(doc: dict, root: Path, findings: Findings) -> None:
    pages = doc.get("pages")
    if not isinstance(pages, list):
        findings.add(
            "pages", "a list of {title, file} is required (use [] for none)", found=repr(pages)[:60]
        )
    else:
        for number, page in enumerate(pages):
            where = f"pages[{number}]"
            if not isinstance(page, dict) or "file" not in page:
                findings.add(where, "a page needs 'title' and 'file'", found=repr(page)[:60])
                continue
            check_text(page, "title", where, findings, 255)
            check_page_file(root, page["file"], where, findings)
    if "terms" not in doc:
        findings.add("terms", "a terms page is required")
    else:
        check_page_file(root, doc["terms"], "terms", findings)


def _check_tasks(tasks, root: Path, findings: Findings) -> Dict[object, dict]:
    known: Dict[object, dict] = {}
    if not isinstance(tasks, list) or not tasks:
        findings.add("tasks", "a non-empty list of tasks is required", found=repr(tasks)[:60])
        return known
    for number, task in enumerate(tasks):
        where = f"tasks[{number}]"
        if not isinstance(task, dict) or not is_int(task.get("index")):
            findings.add(where, "a task needs an integer 'index'", found=repr(task)[:60])
            continue
        if task["index"] in known:
            findings.add(where, "task index used twice", found=repr(task["index"]))
            continue
        known[task["index"]] = task
        _unknown(task, TASK_KEYS, where, "task", findings)
        if "key" in task:
            continue  # an existing task on the platform, by its UUID
        check_text(task, "name", where, findings, 256)
        check_text(task, "description", where, findings, 10000, required=False)
        check_bool(task, "ingestion_only_during_scoring", where, findings)
        _check_no_code_beside_gold(task, where, findings)
        if "scoring_program" not in task:
            findings.add(where, "the task has no scoring_program")
        for kind in ("scoring_program", "ingestion_program", "reference_data", "input_data"):
            if kind in task:
                path = check_in_bundle(root, task[kind], where, kind, findings)
                if path is not None and kind.endswith("_program"):
                    check_program(path, where, kind.replace("_", " "), findings)
    return known


def _check_no_code_beside_gold(task: dict, where: str, findings: Findings) -> None:
    """Participant code runs in the prediction step, which Codabench gives the input data only
    (codabench src/apps/competitions/tasks.py:173-181). With ``ingestion_only_during_scoring`` the
    ingestion program runs in the scoring step instead, whose containers mount ``/app/input`` with
    the reference data (compute_worker/compute_worker.py:926-944, 1148-1157)."""
    if task.get("ingestion_only_during_scoring") is True and task.get("ingestion_program"):
        findings.add(
            where,
            "ingestion_only_during_scoring runs the ingestion program, and the participant code it "
            "runs, in the scoring step beside the reference data",
            expected="ingestion_only_during_scoring absent or false",
            found="true",
        )


def _check_solutions(solutions, tasks: Dict[object, dict], root: Path, findings: Findings) -> None:
    if solutions in (None, []):
        return
    if not isinstance(solutions, list):
        findings.add("solutions", "must be a list", found=repr(solutions)[:60])
        return
    for number, solution in enumerate(solutions):
        where = f"solutions[{number}]"
        if not isinstance(solution, dict):
            findings.add(where, "a solution must be a mapping", found=repr(solution)[:60])
            continue
        _unknown(solution, SOLUTION_KEYS, where, "solution", findings)
        if not is_int(solution.get("index")):
            findings.add(
                where, "a solution needs an integer 'index'", found=repr(solution.get("index"))
            )
        refs = solution.get("tasks")
        refs = refs if isinstance(refs, list) else [refs]
        unknown = [r for r in refs if not is_int(r) or r not in tasks]
        if unknown:
            findings.add(
                where,
                "the solution names tasks that do not exist",
                expected=f"indexes {sorted(tasks, key=str)}",
                found=", ".join(map(repr, unknown)),
            )
        if "key" not in solution:
            if "path" not in solution:
                findings.add(where, "a solution needs a 'path'")
            else:
                check_in_bundle(root, solution["path"], where, "solution path", findings)


def _check_phases(
    phases, tasks: Dict[object, dict], root: Path, findings: Findings, has_queue: bool
) -> None:
    if not isinstance(phases, list) or not phases or not all(isinstance(p, dict) for p in phases):
        findings.add(
            "phases", "a non-empty list of phase mappings is required", found=repr(phases)[:60]
        )
        return
    indexes = [p.get("index") for p in phases]
    if any(not is_int(i) for i in indexes) or len(set(indexes)) != len(indexes):
        findings.add("phases", "every phase needs its own integer 'index'", found=str(indexes))
        return
    ordered = sorted(phases, key=lambda p: p["index"])
    schedule = [
        _check_phase(phase, number, tasks, root, findings, has_queue)
        for number, phase in enumerate(ordered)
    ]
    for problem in schedule_problems(schedule):
        findings.add_problem(problem)


def _check_phase(
    phase: dict,
    number: int,
    tasks: Dict[object, dict],
    root: Path,
    findings: Findings,
    has_queue: bool,
) -> ScheduledPhase:
    """The ``number``-th phase (in index order); returns its place in the schedule."""
    where = f"phases[{number}]"
    _unknown(phase, PHASE_KEYS, where, "phase", findings)
    check_text(phase, "name", where, findings, 256)
    check_text(phase, "description", where, findings, 10000, required=False)
    _check_phase_limits(phase, where, findings, has_queue)
    for key in PHASE_BOOLS:
        check_bool(phase, key, where, findings)
    if number == 0 and phase.get("auto_migrate_to_this_phase") is True:
        findings.add(where, "the first phase cannot have auto_migrate_to_this_phase")
    refs = phase.get("tasks")
    if not isinstance(refs, list) or not refs:
        findings.add(where, "a phase needs a non-empty list of task indexes", found=repr(refs))
    else:
        for ref in refs:
            if not is_int(ref) or ref not in tasks:
                findings.add(
                    where,
                    "the phase names a task that does not exist",
                    expected=f"one of {sorted(tasks, key=str)}",
                    found=repr(ref),
                )
    for key in ("public_data", "starting_kit"):
        if phase.get(key) not in (None, ""):
            check_in_bundle(root, phase[key], where, key, findings)
    if phase.get("start") in (None, ""):
        findings.add(where, "a phase needs a 'start' date")
        start = None
    else:
        start = parse_date(phase["start"], f"{where}.start", findings)
    has_end = phase.get("end") not in (None, "")
    end = parse_date(phase["end"], f"{where}.end", findings) if has_end else None
    return ScheduledPhase(where, phase.get("name"), start, end, has_end)


def _check_phase_limits(phase: dict, where: str, findings: Findings, has_queue: bool) -> None:
    """Submission counts and the time limit: whole numbers, the limit within the shared queue's."""
    for key in ("max_submissions_per_day", "max_submissions"):
        check_count(phase, key, where, findings)
    check_count(phase, "execution_time_limit", where, findings, positive=True)
    limit = phase.get("execution_time_limit")
    if is_int(limit) and limit > SHARED_QUEUE_TIME_LIMIT and not has_queue:
        findings.add(
            where,
            "execution_time_limit above what the shared queue allows",
            expected=f"at most {SHARED_QUEUE_TIME_LIMIT} s, or a 'queue' of your own",
            found=f"{limit} s",
        )


def scored_tasks(doc: dict) -> Iterator[Tuple[dict, dict]]:
    """(phase, task) of every task with reference data, in phase order (of a bundle whose yaml
    the v2 check found sound)."""
    tasks = {task["index"]: task for task in doc["tasks"]}
    for phase in sorted(doc["phases"], key=lambda p: p["index"]):
        for ref in phase["tasks"]:
            if tasks[ref].get("reference_data"):
                yield phase, tasks[ref]


def _phase_references(doc: dict) -> List[Tuple[str, str]]:
    return [(str(phase.get("name")), task["reference_data"]) for phase, task in scored_tasks(doc)]


def _published_paths(doc: dict) -> List[str]:
    """Pages, starting kits, public data, the input data participant code runs on, solutions, and
    the programs when the bundle makes them available."""
    values = [p.get("file") for p in doc.get("pages") or [] if isinstance(p, dict)]
    values.append(doc.get("terms"))
    for phase in doc.get("phases") or []:
        values += [phase.get("starting_kit"), phase.get("public_data")]
    for task in doc.get("tasks") or []:
        values.append(task.get("input_data"))
        if doc.get("make_programs_available"):
            values += [task.get(kind) for kind in PROGRAMS]
    values += [s.get("path") for s in doc.get("solutions") or [] if isinstance(s, dict)]
    return [v for v in values if isinstance(v, str) and v]


PLATFORM = Platform(
    versions=("2",),
    version_text="2",
    check=check,
    score_keys=lambda doc: score_keys(doc["leaderboards"][0]),
    phase_references=_phase_references,
    inputs_of=lambda doc: inputs_by_reference(doc.get("tasks") or []),
    published_paths=_published_paths,
    has_phase_ends=True,
)
