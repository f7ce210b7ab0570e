"""CodaLab v1.5 bundles (no ``version``), as Codabench's v1.5 unpacker and the compute worker read them:
``html`` pages with terms, numbered phases with ``phasenumber``/``label``/``start_date``, every
program and data set as a zip, each program zip with a file named exactly ``metadata`` holding its
``command`` (CodaLab's workers read only that name), no ingestion program (v1.5 shows the reference
data to the code it runs) and the leaderboard in v1.5 form."""

from __future__ import annotations

import datetime as dt
from difflib import get_close_matches
from pathlib import Path

from ..bundle.check.findings import (
    Findings,
    as_int,
    check_image,
    check_page_file,
    check_count,
    check_text,
    is_int,
    parse_date,
)
from ..bundle.check.leaderboard import V1_COLUMN_KEYS, check_leaderboard
from ..bundle.check.programs import PROGRAMS, check_bundle_files
from ..bundle.check.v2 import check_docker_image
from ..fields import did_you_mean, shown

DATA = ("reference_data", "input_data", "public_data", "starting_kit")
#: The pages CodaLab v1.5's upload reads by name (codalab-competitions apps/web/models.py,
#: CompetitionDefBundle.unpack: comp_spec['html']['overview'], ... and the assert on 'data').
V15_PAGES = ("overview", "evaluation", "terms", "data")
#: The top-level keys CodaLab v1.5 takes: unpack removes html, phases, leaderboard and admin_names
#: and passes the rest to Competition(**comp_base), a TypeError on any other key; the fields of
#: class Competition in codalab-competitions apps/web/models.py, as the harness's legacy_v15.py reads
#: them.
V15_TOP_KEYS = tuple(
    """
    html phases leaderboard admin_names admins allow_organizer_teams allow_public_submissions
    allow_teams anonymous_leaderboard competition_docker_image creator deleted description
    disallow_leaderboard_modifying enable_detailed_results enable_forum
    enable_medical_image_viewer enable_per_submission_metadata enable_teams end_date
    force_submission_to_leaderboard has_registration hide_chart hide_top_three image
    image_url_base is_migrating is_migrating_delayed last_modified last_phase_migration
    modified_by original_yaml_file pagecontainers published queue require_team_approval reward
    secret_key show_datasets_from_yaml start_date teams title upper_bound_max_submission_size
    url_redirect
    """.split()
)
#: The keys a v1.5 phase takes: unpack removes datasets and passes the rest to
#: CompetitionPhase.objects.get_or_create(**phase_spec), a FieldError on any other key; the fields
#: of class CompetitionPhase in codalab-competitions apps/web/models.py.
V15_PHASE_KEYS = tuple(
    """
    datasets competition description phasenumber label start_date max_submissions
    max_submissions_per_day is_scoring_only scoring_program reference_data input_data
    leaderboard_management_mode force_best_submission_to_leaderboard auto_migration is_migrated
    execution_time_limit color max_submission_size participant_max_storage_use
    delete_submissions_except_best_and_last input_data_organizer_dataset
    reference_data_organizer_dataset scoring_program_organizer_dataset phase_never_ends
    scoring_program_docker_image default_docker_image disable_custom_docker_image starting_kit
    starting_kit_organizer_dataset public_data public_data_organizer_dataset ingestion_program
    ingestion_program_docker_image ingestion_program_organizer_dataset
    """.split()
)
#: The ``version`` values of this form (none reads "1"), and the one a message asks for.
VERSIONS = ("1", "1.5")
VERSION_TEXT = "none for a CodaLab v1.5 bundle"
#: A v1.5 phase has a start date only: it ends when the next one starts.
HAS_PHASE_ENDS = False
#: Where a phase's data is chosen, as a message names it.
PHASE_DATA_KEYS = "the phase's reference_data and input_data zips"
#: A v1.5 phase's execution time limit when its yaml gives none: not assumed, so not compared.
DEFAULT_TIME_LIMIT = None


def check(doc: dict, root: Path, findings: Findings) -> None:
    check_text(doc, "title", "title", findings, 256)
    check_image(root, doc.get("image"), "image", findings)
    check_docker_image(doc, "competition_docker_image", "competition.yaml", findings)
    if "docker_image" in doc or "pages" in doc:
        findings.add(
            "competition.yaml",
            "v2 keys in a v1.5 bundle (no 'version')",
            expected="version: 2, or competition_docker_image and html",
            found="docker_image/pages",
        )
    for key in sorted(set(doc) - set(V15_TOP_KEYS) - {"docker_image", "pages"}, key=str):
        findings.add_rule_break(
            "competition.yaml",
            f"unknown top-level key {key!r}: CodaLab v1.5 refuses a key its Competition model "
            "has not (a TypeError on upload)",
            hint=did_you_mean(key, V15_TOP_KEYS) or "remove it",
        )
    _check_html(doc.get("html"), root, findings)
    _check_phases(doc.get("phases"), root, findings)
    _check_leaderboard(doc.get("leaderboard"), findings)


def _check_html(html, root: Path, findings: Findings) -> None:
    if not isinstance(html, dict) or not html:
        findings.add(
            "html", "a v1.5 bundle needs an 'html' mapping of pages", found=repr(html)[:60]
        )
        return
    others = {str(name).lower(): str(name) for name in html if name not in V15_PAGES}
    for page in (page for page in V15_PAGES if page not in html):
        close = get_close_matches(page, others, n=1)
        hint = f"add {page}: {page}.html, a page of the bundle"
        hint = f"rename {others[close[0]]!r} to {page!r}" if close else hint
        message = f"no {page!r} page: CodaLab v1.5's upload fails without one"
        findings.add("html", message, found=", ".join(map(str, html)), hint=hint)
    for key, value in html.items():
        check_page_file(root, value, f"html.{key}", findings)


def _check_phases(phases, root: Path, findings: Findings) -> None:
    ordered = sorted(_numbered_phases(phases, findings), key=lambda item: item[1]["phasenumber"])
    starts = [_check_phase(key, phase, root, findings) for key, phase in ordered]
    for (where, start), (next_where, next_start) in zip(starts, starts[1:]):
        if start and next_start and next_start - start <= dt.timedelta(days=1):
            findings.add_rule_break(
                next_where,
                "a v1.5 phase must start more than a day after the previous one (Codabench "
                "ends a phase one day before the next starts)",
                found=f"{start:%Y-%m-%d %H:%M} then {next_start:%Y-%m-%d %H:%M}",
            )


def _numbered_phases(phases, findings: Findings) -> list[tuple]:
    """The phases' (key, mapping) pairs, or none after saying why their order is unknown: no
    mapping of phases, a phase without an integer phasenumber, or one phasenumber for two phases
    (v1.5 orders and migrates the phases by it)."""
    if not isinstance(phases, dict) or not phases:
        findings.add("phases", "a v1.5 bundle needs a mapping of phases", found=repr(phases)[:60])
        return []
    problems_before = len(findings.problems)
    keys_by_number: dict = {}
    for key, phase in phases.items():
        number = phase.get("phasenumber") if isinstance(phase, dict) else None
        keys_by_number.setdefault(number if is_int(number) else None, []).append(key)
        if not is_int(number):
            found = f"phasenumber: {number!r}" if number is not None else "no phasenumber"
            findings.add(
                f"phases[{key}]",
                "a v1.5 phase needs a mapping with an integer 'phasenumber'",
                found=found if isinstance(phase, dict) else repr(phase)[:60],
                hint="number the phases 1, 2, 3, ... in the order they run",
            )
    for number, keys in keys_by_number.items():
        if number is not None and len(keys) > 1:
            used_by = " and ".join(repr(str(key)) for key in keys)
            findings.add(
                "phases",
                f"phasenumber {number} used by phases {used_by}",
                expected="each phase its own phasenumber",
                hint="number the phases 1, 2, 3, ... in the order they run",
            )
    return [] if len(findings.problems) > problems_before else list(phases.items())


def _check_phase(key, phase: dict, root: Path, findings: Findings) -> tuple:
    """One v1.5 phase's label, start date and files; its place in messages and its start (None
    when missing or bad)."""
    where = f"phases[{key}]"
    for needed in ("label", "start_date", "scoring_program"):
        if not phase.get(needed):
            findings.add(where, f"a phase needs a {needed!r}")
    check_text(phase, "label", where, findings, 50, required=False)  # the model's max_length
    for unknown in sorted(set(phase) - set(V15_PHASE_KEYS), key=str):
        findings.add_rule_break(
            where,
            f"unknown phase key {unknown!r}: CodaLab v1.5 refuses a key its CompetitionPhase "
            "model has not (a FieldError on upload)",
            hint=did_you_mean(unknown, V15_PHASE_KEYS) or "remove it",
        )
    # the model's PositiveIntegerFields; a limit of 0 lets no submission in (models.py refuses one
    # once the count reaches max_submissions, and any when max_submissions_per_day is 0)
    for limit in ("max_submissions", "max_submissions_per_day"):
        check_count(phase, limit, where, findings, positive=True)
    check_count(phase, "execution_time_limit", where, findings)
    written = phase.get("start_date")
    start = parse_date(written, f"{where}.start_date", findings) if written else None
    # a v1.5 phase takes result submissions only: for a phase with an ingestion program the site
    # sends the reference data to the prediction run (codalab-competitions tasks.py:165-176,
    # ``hidden_ref``) and the v1 worker mounts it into the container where the ingestion program
    # runs participant code (competitions-v1-compute-worker worker.py:325-331, 587)
    if phase.get("ingestion_program") not in (None, ""):
        findings.add_rule_break(
            where,
            "a CodaLab v1.5 phase with an ingestion program lets participant code read the "
            "phase's reference data (v1.5 mounts it as hidden_ref beside the code the ingestion "
            "program runs)",
            expected="no ingestion_program: result submissions only on v1.5, code submissions "
            "in a Codabench v2 bundle",
            found=f"ingestion_program: {phase['ingestion_program']}",
        )
    files = {kind: phase[kind] for kind in PROGRAMS + DATA if phase.get(kind) not in (None, "")}
    check_bundle_files(files, where, root, findings, legacy=True)
    return where, start


def _check_leaderboard(board, findings: Findings) -> None:
    """The v1.5 leaderboard's own form, then its first board and columns as Codabench's v1
    unpacker converts them (title = ``label``, sorting = ``sort`` or desc), checked as a v2 one
    under their v1.5 names and places."""
    boards = board.get("leaderboards") if isinstance(board, dict) else None
    columns = board.get("columns") if isinstance(board, dict) else None
    if not isinstance(boards, dict) or not isinstance(columns, dict) or not columns:
        findings.add(
            "leaderboard",
            "a v1.5 leaderboard needs 'leaderboards' and 'columns' mappings",
            found=repr(board)[:60],
        )
        return
    labels = {str(b.get("label")).lower() for b in boards.values() if isinstance(b, dict)}
    converted = []
    for index, (key, column) in enumerate(columns.items()):
        column = column if isinstance(column, dict) else {}
        target = column.get("leaderboard")
        if not isinstance(target, dict) or str(target.get("label")).lower() not in labels:
            findings.add(
                f"leaderboard.columns.{key}",
                "the column points at no declared leaderboard",
                expected="leaderboard: *ANCHOR of a leaderboard with a label",
                found=f"leaderboard: {target!r}"[:80] if "leaderboard" in column else "none",
                hint="write the anchor (&NAME) on a board under 'leaderboards' and *NAME here",
            )
        _check_numeric_format(column.get("numeric_format"), f"leaderboard.columns.{key}", findings)
        label, sort = column.get("label", key), column.get("sort") or "desc"
        converted.append({"label": label, "key": key, "index": index, "sort": sort})
    first = next(iter(boards), "")
    board = {"title": first, "key": str(first), "columns": converted}
    places = [f"leaderboard.columns.{key}" for key in columns]
    check_leaderboard(board, "leaderboard", findings, V1_COLUMN_KEYS, places)


def _check_numeric_format(value, where: str, findings: Findings) -> None:
    """A column's decimal places: v1.5 shows 1 to 10 (CompetitionPhase.format_value clamps any
    other number, and falls back to 1 on text) and Codabench's unpacker needs an integer."""
    if value is not None and not 1 <= (as_int(value) or 0) <= 10:
        findings.add_rule_break(
            where,
            "'numeric_format' (the decimal places shown) must be an integer from 1 to 10",
            found=shown(value),
        )


def score_keys(doc: dict) -> list[str]:
    columns = doc["leaderboard"]["columns"]  # the checks found every column a mapping
    return [str(k) for k, v in columns.items() if not v.get("computed")]


def column_sortings(doc: dict) -> dict[str, tuple[str, str, object]]:
    """Each column's key -> (its place, "sort", its sort: desc when absent, as Codabench's v1
    unpacker reads it)."""
    columns = doc["leaderboard"]["columns"].items()
    return {
        str(k): (f"leaderboard.columns.{k}", "sort", v.get("sort") or "desc") for k, v in columns
    }


def references(doc: dict) -> list[tuple[str, str, str | None, dict]]:
    phases = sorted((doc.get("phases") or {}).values(), key=lambda p: p["phasenumber"])
    return [
        (str(p.get("label")), p["reference_data"], p.get("input_data"), p)
        for p in phases
        if p.get("reference_data")
    ]


def published_paths(doc: dict) -> list[str]:
    """The pages, and each phase's starting kit, public data and input data."""
    values = list((doc.get("html") or {}).values())
    for phase in (doc.get("phases") or {}).values():
        values += [phase.get(kind) for kind in ("starting_kit", "public_data", "input_data")]
    return [v for v in values if isinstance(v, str) and v]
