"""The Codabench v2 ``competition.yaml``: keys and types, pages, tasks, solutions, phases, dates."""

from __future__ import annotations

import re
from functools import partial
from pathlib import Path

from ...baselines.interface import KIT_IMAGE
from ...errors import Problem
from ..schedule import ScheduledPhase, schedule_problems
from .findings import (
    is_email,
    is_uuid,
    Findings,
    as_int,
    check_bool,
    check_choice,
    check_count,
    check_image,
    check_keys,
    check_page_file,
    check_text,
    is_int,
    parse_date,
)
from .leaderboard import check_leaderboards
from .programs import PROGRAMS, check_bundle_files


#: What any image must hold to run the kit's programs (the kit's own: ``KIT_IMAGE``).
KIT_NEEDS = "Python >= 3.9, numpy, scipy and PyYAML"
#: Codabench's images by Python version (py37, py39, py312); its default, py37, is too old.
LEGACY_IMAGE = re.compile(r"(?:docker\.io/)?codalab/codalab-legacy:py3(\d+)")


def check_docker_image(doc: dict, key: str, where: str, findings: Findings) -> None:
    """The image every program runs in: an absent one is Codabench's default, codalab-legacy:py37,
    and a codalab-legacy image below py39 has a Python too old for the kit; an empty one is pulled
    as is and the compute worker fails. An image the kit does not know gets a note."""
    value = doc.get(key)
    if key not in doc:
        message = (
            f"'{key}' is absent: Codabench then runs the programs in its default image, "
            "codalab/codalab-legacy:py37, whose Python 3.7 cannot run the kit"
        )
        hint = f"add the kit's image, {key}: {KIT_IMAGE}"
        findings.add(where, message, expected=f"an image with {KIT_NEEDS}", hint=hint)
        return
    if value is None or (isinstance(value, str) and not value.strip()):
        message = f"'{key}' is empty: Codabench then has no image that can run the kit"
        hint = f"write the kit's image, {key}: {KIT_IMAGE}"
        findings.add(where, message, expected=KIT_NEEDS, found=repr(value), hint=hint)
        return
    check_text(doc, key, where, findings, 128)
    legacy = LEGACY_IMAGE.match(str(value).strip())
    if legacy is not None and int(legacy[1]) < 9:
        message = f"'{key}' runs Python 3.{legacy[1]}, which cannot run the kit"
        hint = f"use {key}: {KIT_IMAGE}, or codalab/codalab-legacy:py39"
        findings.add(where, message, expected=KIT_NEEDS, found=repr(value), hint=hint)
    elif legacy is None and isinstance(value, str) and value.strip():
        findings.notes.append(
            f"{where}: '{key}' {value!r} is not an image the kit knows: it must hold {KIT_NEEDS} "
            f"(the kit's image is {KIT_IMAGE})"
        )


#: The data folders or zips of a task, and of a phase.
TASK_DATA = ("reference_data", "input_data")
PHASE_DATA = ("public_data", "starting_kit")
#: Each key of the yaml's top level, a phase, a task and a solution, and its check (None: none, or
#: checked with the others, below).
TOP_KEYS = {
    "title": partial(check_text, limit=256),
    "description": partial(check_text, limit=10000, required=False),
    "docker_image": check_docker_image,
    "competition_type": partial(check_choice, allowed=("competition", "benchmark")),
    **dict.fromkeys(
        "version image fact_sheet reward contact_email pages tasks solutions terms queue phases "
        "leaderboards".split()
    ),
    **dict.fromkeys(
        "registration_auto_approve enable_detailed_results "
        "show_detailed_results_in_submission_panel show_detailed_results_in_leaderboard "
        "auto_run_submissions can_participants_make_submissions_public make_programs_available "
        "make_input_data_available forum_enabled".split(),
        check_bool,
    ),
}
PHASE_KEYS = {
    "name": partial(check_text, limit=256),
    "description": partial(check_text, limit=10000, required=False),
    "max_submissions_per_day": check_count,
    "max_submissions": check_count,
    "execution_time_limit": partial(check_count, positive=True),
    **dict.fromkeys(
        "auto_migrate_to_this_phase hide_output hide_prediction_output hide_score_output".split(),
        check_bool,
    ),
    **dict.fromkeys(("index", "start", "end", "tasks", *PHASE_DATA)),
}
TASK_KEYS = {
    "name": partial(check_text, limit=256),
    "description": partial(check_text, limit=10000, required=False),
    "ingestion_only_during_scoring": check_bool,
    **dict.fromkeys(("index", "key", *PROGRAMS, *TASK_DATA)),
}
SOLUTION_KEYS = dict.fromkeys("index key tasks path name description".split())
#: The ``version`` values of this form, and the one a message asks for.
VERSIONS = ("2",)
VERSION_TEXT = "2"
#: Phases have end dates, so that phase_gold's rule on rescored items applies.
HAS_PHASE_ENDS = True
#: Where a phase's data is chosen, as a message names it.
PHASE_DATA_KEYS = "the phase's 'tasks' and the task's reference_data and input_data"
#: A phase's execution time limit when its yaml gives none (seconds).
DEFAULT_TIME_LIMIT = 600
#: The platform's default cap on a phase's execution time on the shared queue (seconds).
SHARED_QUEUE_TIME_LIMIT = 600


def check(doc: dict, root: Path, findings: Findings) -> None:
    if isinstance(doc.get("phases"), dict) and {"html", "leaderboard"} & set(doc):
        # one cause, not the v2 form's every key found missing or unknown
        findings.add(
            "competition.yaml",
            f"'version: {doc['version']}' makes the file a Codabench bundle",
            expected="Codabench's form (pages, tasks, leaderboards, phases as a list)",
            found="CodaLab v1.5 form (html, leaderboard, phases as a mapping)",
            hint="remove 'version' for a CodaLab v1.5 bundle, or write the bundle in Codabench's form",
        )
        return
    check_keys(doc, TOP_KEYS, "competition.yaml", "top-level", findings)
    check_image(root, doc.get("image"), "image", findings)
    _check_pages(doc, root, findings)
    check_leaderboards(doc.get("leaderboards"), findings)
    tasks = _check_tasks(doc.get("tasks"), root, findings)
    _check_solutions(doc.get("solutions"), tasks, root, findings)
    _check_phases(doc.get("phases"), tasks, root, findings, has_queue=bool(doc.get("queue")))
    _check_platform_fields(doc, findings)


def _check_platform_fields(doc: dict, findings: Findings) -> None:
    """``queue``, looked up by Codabench's unpacker as a queue's vhost (a UUIDField), and
    ``contact_email`` (an EmailField): a value of another form makes the upload fail."""
    queue, email = doc.get("queue"), doc.get("contact_email")
    if queue not in (None, "") and not is_uuid(queue):
        message = "not the vhost of a Codabench queue (a UUID): the upload would fail"
        expected = "e.g. '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d' (Resources > Queue Management)"
        findings.add("queue", message, expected=expected, found=repr(queue)[:60])
    if email not in (None, "") and not is_email(email):
        message = "not an e-mail address: the upload would fail"
        expected = "e.g. organisers@example.org"
        findings.add("contact_email", message, expected=expected, found=repr(email)[:60])


def _check_pages(doc: dict, root: Path, findings: Findings) -> None:
    pages = doc.get("pages")
    if not isinstance(pages, list):
        findings.add(
            "pages", "a list of {title, file} is required (use [] for none)", found=repr(pages)[:60]
        )
        pages = []
    for number, page in enumerate(pages):
        where = f"pages[{number}]"
        if not isinstance(page, dict) or "file" not in page:
            findings.add(where, "a page needs 'title' and 'file'", found=repr(page)[:60])
            continue
        check_text(page, "title", where, findings, 255)
        check_page_file(root, page["file"], where, findings)
    check_page_file(root, doc.get("terms"), "terms", findings)


def _indexed(rows, what: str, findings: Findings) -> dict[object, dict]:
    """``rows`` (tasks or phases) by their integer ``index``: a non-empty list of mappings, each
    with an index of its own; {} (after saying so) when they are not."""
    listed = rows if isinstance(rows, list) and rows else [None]
    indexes = [row.get("index") if isinstance(row, dict) else None for row in listed]
    if not all(is_int(i) for i in indexes):
        findings.add(
            what,
            f"a non-empty list of {what} mappings, each with an integer 'index', is required",
            found=repr(rows)[:60],
        )
        return {}
    if len(set(indexes)) != len(indexes):
        findings.add(what, f"every one of the {what} needs its own 'index'", found=str(indexes))
        return {}
    return {row["index"]: row for row in rows}


def _check_tasks(tasks, root: Path, findings: Findings) -> dict[object, dict]:
    known = _indexed(tasks, "tasks", findings)
    for number, task in enumerate(known.values()):
        where = f"tasks[{number}]"
        if "key" in task:  # an existing task on the platform, by its UUID: only its keys' names
            check_keys(task, dict.fromkeys(TASK_KEYS), where, "task", findings)
            continue
        check_keys(task, TASK_KEYS, where, "task", findings)
        # Participant code runs in the prediction step, which Codabench gives the input data only
        # (codabench src/apps/competitions/tasks.py:173-181). With ingestion_only_during_scoring
        # the ingestion program runs in the scoring step instead, whose containers mount
        # /app/input with the reference data (compute_worker/compute_worker.py:926-944, 1148-1157).
        if task.get("ingestion_only_during_scoring") is True and task.get("ingestion_program"):
            findings.add(
                where,
                "ingestion_only_during_scoring runs the ingestion program, and the participant "
                "code it runs, in the scoring step beside the reference data",
                expected="ingestion_only_during_scoring absent or false",
                found="true",
            )
        if "scoring_program" not in task:
            findings.add(where, "the task has no scoring_program")
        files = {key: task[key] for key in PROGRAMS + TASK_DATA if key in task}
        check_bundle_files(files, where, root, findings)
    return known


def _check_solutions(solutions, tasks: dict[object, dict], root: Path, findings: Findings) -> None:
    if solutions in (None, []):
        return
    for number, solution in enumerate(_indexed(solutions, "solutions", findings).values()):
        where = f"solutions[{number}]"
        check_keys(solution, SOLUTION_KEYS, where, "solution", findings)
        _check_task_refs(solution.get("tasks"), tasks, where, "solution", findings)
        if "key" not in solution:
            check_bundle_files({"solution path": solution.get("path")}, where, root, findings)


def _check_task_refs(refs, tasks: dict[object, dict], where: str, what: str, findings: Findings):
    """A phase's or a solution's ``tasks``: a non-empty list of the indexes of tasks (when the tasks
    are sound: otherwise their own finding says so)."""
    refs = refs if isinstance(refs, list) and refs else [refs]
    unknown = [ref for ref in refs if not is_int(ref) or ref not in tasks]
    if unknown and tasks:
        findings.add(
            where,
            f"the {what} names tasks that do not exist",
            expected=f"a non-empty list of indexes among {sorted(tasks, key=str)}",
            found=", ".join(map(repr, unknown)),
        )


def _check_phases(phases, tasks: dict, root: Path, findings: Findings, has_queue: bool) -> None:
    """The phases, each (``_check_phase``) and as a schedule (``schedule_problems``)."""
    schedule = [
        _check_phase(phase, number, tasks, root, findings, has_queue)
        for number, (_, phase) in enumerate(sorted(_indexed(phases, "phases", findings).items()))
    ]
    findings.problems += schedule_problems(schedule)


def _check_phase(
    phase: dict, number: int, tasks: dict, root: Path, findings: Findings, has_queue: bool
) -> ScheduledPhase:
    """The ``number``-th phase (in index order), ``tasks`` the tasks by index; returns its place in
    the schedule."""
    where = f"phases[{number}]"
    check_keys(phase, PHASE_KEYS, where, "phase", findings)
    findings.problems += time_limit_problems(where, phase.get("execution_time_limit"), has_queue)
    if number == 0 and phase.get("auto_migrate_to_this_phase") is True:
        findings.add(where, "the first phase cannot have auto_migrate_to_this_phase")
    _check_task_refs(phase.get("tasks"), tasks, where, "phase", findings)
    kits = {key: phase[key] for key in PHASE_DATA if phase.get(key) not in (None, "")}
    check_bundle_files(kits, where, root, findings)
    if phase.get("start") in (None, ""):
        findings.add(where, "a phase needs a 'start' date")
    start, end = phase_dates(phase, where, findings)
    return ScheduledPhase(where, phase.get("name"), start, end, phase.get("end") not in (None, ""))


def time_limit_problems(where: str, limit, has_queue: bool) -> list[Problem]:
    """The problem of a phase's ``execution_time_limit`` ``limit`` (at ``where``) above what the
    shared queue allows in a competition without a queue of its own, if any. The edition config's
    check applies it too."""
    limit = as_int(limit)
    if limit is None or limit <= SHARED_QUEUE_TIME_LIMIT or has_queue:
        return []
    return [
        Problem(
            where,
            "execution_time_limit above what the shared queue allows",
            expected=f"at most {SHARED_QUEUE_TIME_LIMIT} s, or a 'queue' of your own",
            found=f"{limit} s",
        )
    ]


def phase_dates(phase: dict, where: str, findings: Findings) -> tuple:
    """(start, end) of a phase, None where absent or unreadable (a finding)."""
    return tuple(parse_date(phase.get(key), f"{where}.{key}", findings) for key in ("start", "end"))


def score_keys(doc: dict) -> list[str]:
    """The keys the scoring program must write: the columns of the (first) leaderboard that the
    platform does not compute (of a yaml the checks found sound)."""
    columns = doc["leaderboards"][0]["columns"]
    return [str(c["key"]) for c in columns if c.get("key") and not c.get("computation")]


def column_sortings(doc: dict) -> dict[str, tuple[str, str, object]]:
    """Each column's key -> (its place, "sorting", its sorting: Codabench's desc when absent) of
    the (first) leaderboard (of a yaml the checks found sound)."""
    columns = enumerate(doc["leaderboards"][0]["columns"])
    place = "leaderboards[0].columns[{}]".format
    return {str(c["key"]): (place(n), "sorting", c.get("sorting", "desc")) for n, c in columns}


def references(doc: dict) -> list[tuple[str, str, str | None, dict]]:
    """(phase name, reference_data path, input_data path or None, phase) of every task with
    reference data, in phase order (of a bundle whose yaml the v2 check found sound)."""
    tasks = {task["index"]: task for task in doc["tasks"]}
    return [
        (str(phase.get("name")), tasks[ref]["reference_data"], tasks[ref].get("input_data"), phase)
        for phase in sorted(doc["phases"], key=lambda p: p["index"])
        for ref in phase["tasks"]
        if tasks[ref].get("reference_data")
    ]


def published_paths(doc: dict) -> list[str]:
    """Pages, starting kits, public data, the input data participant code runs on, solutions, and
    the programs when the bundle makes them available (of a yaml the checks found sound)."""
    programs = PROGRAMS if doc.get("make_programs_available") else ()
    published = {"phases": PHASE_DATA, "tasks": ("input_data", *programs), "solutions": ("path",)}
    values = [page["file"] for page in doc["pages"]] + [doc["terms"]]
    for part, keys in published.items():
        for row in doc.get(part) or []:
            values += [row.get(key) for key in keys]
    return [v for v in values if isinstance(v, str) and v]
