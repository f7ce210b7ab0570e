"""An edition config: everything that changes from one edition of a competition to the next.

One YAML file per edition (``editions/<name>/edition.yaml``) declares the title, phases with dates and
limits, datasets (which importer reads which release files), tracks, pages and the leaderboard. The
leaderboard columns are derived from the tracks (``compose.score_rows``), never written by hand.
Every error names the key, what was expected and what was found.

The schema (``schema.py``) has checked every key's type, bounds and allowed values and declares
their defaults before this module reads a config; here come the rules that span keys and files.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, make_dataclass, replace
from pathlib import Path

from ..confine import missing_file_problem, path_problem, slug_problem
from ..errors import BuildProblems, ConfigError, Problem
from ..spec import BASELINE, PrimaryRule, TaskSpec, check_primary_direction, primary_rule_from_dict
from ..formats.textfile import utf8_text
from ..metrics.edition_module import load_source
from ..tracks import Track, tracks_from_list
from .check.v2 import time_limit_problems
from .columns import column_title_problems
from .config_yaml import load_config_yaml
from .data_checks import dataset_problems
from .phase_gold import config_problems
from .placeholders import page_problems, text_problems
from .prose import Templates, override_problems
from .sample import declared_local
from .schedule import DATE_FORMAT, ScheduledPhase, config_date, schedule_problems
from ..fields import did_you_mean, with_defaults
from .schema import CONFIG, LEADERBOARD_FIELDS, PHASE_FIELDS, TOP_LEVEL_FIELDS, known_part
from .schema import validate_config


@dataclass(frozen=True)
class Phase:
    """A phase of the config (a field per key of ``PHASE_FIELDS``, the numbers' defaults the
    schema's); ``public_gold``: its gold ships in the starting kit."""

    id: str
    name: str
    start: dt.datetime
    end: dt.datetime | None
    split: str
    description: str = ""
    max_submissions_per_day: int = PHASE_FIELDS["max_submissions_per_day"].default
    max_submissions: int = PHASE_FIELDS["max_submissions"].default
    execution_time_limit: int = PHASE_FIELDS["execution_time_limit"].default
    public_gold: bool = False

    @property
    def hide_gold(self) -> bool:
        return not self.public_gold

    def date_text(self, which: str) -> str | None:
        """The ``which`` date ("start" or "end") as the config writes it; None when absent."""
        value = self.start if which == "start" else self.end
        return value.strftime(DATE_FORMAT) if value else None


def split_text(edition, phase: Phase) -> str:
    """The split ``phase`` scores as participants read it (Timeline, competition.yaml, the build
    summary): its name, except a split that each of the tracks' datasets samples from its training
    items (``sample: {dev: {of: train}}``), named what it is (template ``timeline/held_out``):
    training items are not the release's dev set, which an edition may score as its test split."""
    sources = [edition.datasets.get(track.dataset) or {} for track in edition.tracks]
    held_out = all(_sampled_from(source, phase.split) == "train" for source in sources)
    return Templates.of(edition.folder).fill("timeline/held_out") if held_out else phase.split


def _sampled_from(source: dict, split: str) -> str | None:
    """The split a dataset's ``split`` is sampled from (its ``sample``'s ``of``), if it is one."""
    sample = (source.get("sample") or {}).get(split) or {}
    return sample.get("of")


def _spec(edition, phase: Phase) -> TaskSpec:
    """What the scoring program of ``phase`` knows of the edition (its task.json)."""
    return TaskSpec(
        edition=edition.name,
        title=edition.title,
        phase=phase.id,
        tracks=edition.tracks,
        hide_gold=phase.hide_gold,
        seed=edition.seed,
        primary_rule=edition.primary_rule,
        extra={
            "execution_time_limit": phase.execution_time_limit,
            "bootstrap_resamples": edition.bootstrap_resamples,
            **({"ranking": edition.ranking} if edition.ranking else {}),
            **({"metrics_module": edition.metrics_module} if edition.metrics_module else {}),
        },
    )


#: A loaded edition: a field per top-level key of the schema (``TOP_LEVEL_FIELDS``, whose docs say
#: what each means) holding its value as written or its default, except ``phases`` (Phase),
#: ``tracks`` (Track), ``pages`` (those whose file exists), ``leaderboard`` (with its defaults),
#: ``local`` (a ``sample.LocalSplit``; None: the kit has none), ``queue`` (the vhost UUID as
#: Codabench writes it), ``ranking`` ({} when absent) and ``metrics_module`` (its file name and
#: text, for task.json), and ``primary_score``, held read as ``primary_rule`` (the builder adds
#: the baseline's scores). Besides: ``folder``, the edition folder; ``config``, the config file as
#: messages name it. ``spec(phase)``: what the phase's scoring program knows of it.
EDITION_KEYS = [key for key in TOP_LEVEL_FIELDS if key != "primary_score"]
Edition = make_dataclass(
    "Edition",
    [*EDITION_KEYS, "primary_rule", "folder", "config"],
    frozen=True,
    namespace={"__module__": __name__, "spec": _spec},
)


def _phases(raw: list[dict], problems: list[Problem], has_queue: bool) -> list[Phase]:
    """The phases ``raw`` lists (each passed the schema: a key given is not None; a key omitted
    takes its default from the phase's id, else from the schema's; an end omitted: none), with the
    problems of their ids (unique), of their time limits (``check.v2.time_limit_problems``;
    ``has_queue``: the edition has a queue of its own) and of their schedule
    (``schedule.schedule_problems``) added to ``problems``."""
    phases = []
    for entry in raw:
        pid = entry["id"]
        by_id = {
            "name": pid.capitalize(),  # Practice, Evaluation, Post-campaign
            "split": "dev" if pid == "practice" else "test",
            "public_gold": pid == "practice",
        }
        dates = {key: config_date(entry[key]) for key in ("start", "end") if key in entry}
        phases.append(Phase(**{"end": None, **by_id, **entry, **dates}))
        limit = phases[-1].execution_time_limit
        problems += time_limit_problems(f"phases ({pid})", limit, has_queue)
    ids = [p.id for p in phases]
    if len(set(ids)) != len(ids):
        problems.append(Problem("phases", "a phase id is repeated", found=", ".join(ids)))
    schedule = [
        ScheduledPhase(f"phases ({p.id})", p.name, p.start, p.end, p.end is not None)
        for p in phases
    ]
    problems.extend(schedule_problems(schedule))
    return phases


def _edition_file(value, folder: Path, where: str, key: str, problems: list, what="file") -> bool:
    """A file the config names must be a regular file (a ``what``) inside the edition folder
    (links resolved)."""
    problem = path_problem(value, folder, where, key, "the edition folder")
    if problem is None and not (folder / value).is_file():
        problem = missing_file_problem(value, folder, where, key, f"{what} of the edition folder")
    problems += [] if problem is None else [problem]
    return problem is None


#: The files the builder writes in a bundle's pages/ itself, each with its title: the terms and
#: the generated pages (``pages.generated_pages``). An edition's own page is written there under
#: its file's name.
BUILT_PAGES = {
    "terms.md": "Terms",
    "data.md": "Data and formats",
    "evaluation.md": "Evaluation",
    "baselines.md": "Baselines",
    "timeline.md": "Timeline",
}


def _page_name_problems(pages: list[dict]) -> Iterator[Problem]:
    """A page whose file name is that of a page the builder writes, or of an earlier page: in the
    bundle's pages/ one would replace the other."""
    taken = dict.fromkeys(BUILT_PAGES, "a page the builder writes")
    for i, page in enumerate(pages):
        name = Path(page["file"]).name
        if name in taken:
            message = f"the page's file name {name!r} is that of {taken[name]}"
            hint = "rename the file: the bundle keeps every page in pages/ by its file name alone"
            yield Problem(f"pages[{i}]", message, hint=hint)
        taken.setdefault(name, f"pages[{i}]")


def _page_title_problems(pages: list[dict]) -> Iterator[Problem]:
    """A page whose title is that of a page the builder writes or of an earlier page, compared
    without case: the competition would show two tabs of one name (and the legacy ``html:``, keyed
    by title, would quietly key one by its file name instead)."""
    taken = {t.casefold(): (f"the builder's page {t!r}", None) for t in BUILT_PAGES.values()}
    for i, page in enumerate(pages):
        title, file = str(page["title"]).strip(), page["file"]
        if title.casefold() not in taken:
            taken[title.casefold()] = (f"pages[{i}] ({file})", file)
            continue
        other, other_file = taken[title.casefold()]
        retitle = f"{file} or {other_file}" if other_file else file
        yield Problem(
            f"pages[{i}]",
            f"its title {title!r} ({file}) is that of {other}, compared without case: "
            "competition.yaml would show 2 tabs of that title",
            expected=f"{len(pages) + len(BUILT_PAGES)} distinct titles: the edition's "
            f"{len(pages)} pages' and the builder's {len(BUILT_PAGES)} "
            f"({', '.join(BUILT_PAGES.values())})",
            hint=f"retitle {retitle}",
        )


def _check_files(raw: dict, folder: Path, display: str, problems: list[Problem]) -> list[dict]:
    """terms, logo, pages and public_files (copied into the starting kit, and leak-checked): regular
    files inside the edition folder; the terms and pages none a placeholder or a default page
    (``placeholders.page_problems``), each page's file name its own in the bundle
    (``_page_name_problems``) and its title too, compared without case (``_page_title_problems``),
    each file under ``templates/`` a kit template's
    (``prose.override_problems``). Returns the pages whose file is one."""
    terms = _edition_file(raw["terms"], folder, display, "terms", problems)
    _edition_file(raw["logo"], folder, display, "logo", problems)
    for i, name in enumerate(raw.get("public_files") or []):
        _edition_file(name, folder, f"public_files[{i}]", f"public_files[{i}]", problems)
    pages = [
        page  # its title and file: the schema's keys, all required
        for i, page in enumerate(raw.get("pages") or [])
        if _edition_file(page["file"], folder, f"pages[{i}]", "page file", problems)
    ]
    written = ([raw["terms"]] if terms else []) + [page["file"] for page in pages]
    problems.extend(page_problems(raw["name"], folder, written))
    problems.extend(override_problems(folder))
    problems.extend(_page_name_problems(raw.get("pages") or []))
    problems.extend(_page_title_problems(raw.get("pages") or []))
    return pages


def _tracks(raw: dict, display: str, problems: list[Problem]) -> list[Track]:
    try:
        tracks = tracks_from_list(raw["tracks"], where=f"{display}: tracks")
        check_primary_direction(tracks, f"{display}: tracks")
    except ConfigError as e:
        problems.extend(e.problems)
        tracks = []
    problems.extend(column_title_problems(tracks, f"{display}: tracks"))
    named = {entry["id"] for entry in raw["tracks"] if "dataset" in entry}
    declared = sorted(map(str, raw["datasets"]))
    for t in (t for t in tracks if t.dataset not in raw["datasets"]):
        default = "" if t.id in named else " (by default its id, as it gives no 'dataset')"
        default_hint = f"add 'dataset: NAME' to the track, NAME one of the {len(declared)} declared"
        problems.append(
            Problem(
                f"{display}: tracks '{t.id}'",
                f"its dataset{default} is not declared under 'datasets'",
                expected=f"one of the {len(declared)} declared: {', '.join(declared)}",
                found=repr(t.dataset),
                hint=did_you_mean(t.dataset, declared) if t.id in named else default_hint,
            )
        )
    return tracks


#: What a schema problem other than an unknown key leaves unchecked (the rules after it read a
#: config of the schema's shape).
AFTER_SCHEMA = (
    "the cross-field rules (phase dates, files, pages, tracks' datasets) and the data; "
    "fix the problems above and check again"
)
#: What a problem in the tracks, phases or datasets leaves unchecked.
AFTER_CONFIG = "the data, which is read through the tracks and datasets above; fix them first"


def load_edition(path: Path, collected: list[Problem] | None = None) -> Edition:
    """Read and validate ``edition.yaml`` (or a folder holding one), every problem reported at once.
    With ``collected``, the problems that leave the data readable are added to
    it and the edition returned, so that its data is checked in the same run."""
    path, raw = load_config_yaml(path)
    display, folder = str(path), path.parent
    own_metrics = _own_metrics(raw.get("metrics_module"), folder, display)
    problems: list[Problem] = validate_config(raw, display)
    # A misspelt or unknown key leaves the config readable without it (its right name is most
    # often a key with a default), so the other checks still mean something. A config without
    # one is read as loaded (the nodes YAML aliases share stay shared).
    # Without them, it is checked again: a required key misspelt is missing (said once, by the
    # unknown key's did-you-mean).
    if not all(p.message.startswith("unknown key ") for p in problems):
        raise BuildProblems(problems, unchecked=AFTER_SCHEMA)
    known = known_part(raw, CONFIG) if problems else raw
    if problems and validate_config(known, display):
        raise BuildProblems(problems, unchecked=AFTER_SCHEMA)
    edition = _cross_checked(known, display, folder, problems, own_metrics)
    # The data is read through the tracks, phases and datasets: it can be checked when they were
    # read whole (the schema has checked each phase's split).
    concerned = any(
        ": tracks" in p.file or ": datasets" in p.file or p.file.endswith("phases")
        for p in problems
    )
    if problems and (collected is None or concerned or not edition.tracks):
        raise BuildProblems(problems, unchecked=None if collected is None else AFTER_CONFIG)
    if collected is not None:
        collected.extend(problems)
    return edition


def _own_metrics(value, folder: Path, display: str) -> dict[str, str]:
    """``metrics_module``, registered before the tracks naming its metrics are read: its file name
    and text (``metrics.edition_module``), or nothing when absent or not a string (the schema says
    so)."""
    if not isinstance(value, str):
        return {}
    problems: list[Problem] = []
    if not _edition_file(value, folder, display, "metrics_module", problems, "Python file"):
        raise BuildProblems(problems)
    source = utf8_text((folder / value).read_bytes(), str(folder / value))
    load_source(source, str(folder / value))
    return {"file": value, "source": source}


def _cross_checked(
    raw: dict, display: str, folder: Path, problems: list[Problem], own_metrics: dict[str, str]
) -> Edition:
    """The edition ``raw`` describes (with its ``metrics_module`` entry ``own_metrics``, already
    registered), the cross-field rules' problems added to ``problems``."""
    top = with_defaults(raw, TOP_LEVEL_FIELDS)
    # the names that become file or folder names: the edition's name and the dataset ids
    names = [slug_problem(raw["name"], display, "name")]
    names += [slug_problem(d, f"{display}: datasets", "dataset id") for d in raw["datasets"]]
    found = [problem for problem in names if problem is not None]
    phases = _phases(raw["phases"], found, has_queue=bool(raw.get("queue")))
    tracks, datasets = _tracks(raw, display, found), raw["datasets"]
    found.extend(dataset_problems(datasets, display))
    if not found:  # which gold may be public, and which phases may score the same items
        found.extend(config_problems(phases, datasets))
    pages = _check_files(raw, folder, display, found)
    found.extend(text_problems(raw))
    rule = _primary_rule(top, display, found)
    ranking = _ranking(raw, display, found)
    for problem in found:
        if not problem.file.startswith(display) and "/" not in problem.file:
            problem = replace(problem, file=f"{display}: {problem.file}")  # a cross-field rule's
        if problem not in problems:  # a rule may find one problem twice (a track declared thrice)
            problems.append(problem)
    return Edition(
        **{
            **{key: top[key] for key in EDITION_KEYS},  # as written, or the schema's default
            "folder": folder,
            "phases": phases,
            "tracks": tracks,
            "pages": pages,
            "leaderboard": with_defaults(top["leaderboard"], LEADERBOARD_FIELDS),
            "baselines": list(top["baselines"]),  # not the schema's default list itself
            "public_files": list(top["public_files"] or []),
            "known_leaks": dict(top["known_leaks"] or {}),
            "config": display,
            "local": declared_local(top["local"]),
            # Codabench's Queue.vhost is a UUIDField, and its unpacker looks the queue up by it
            "queue": top["queue"] and str(uuid.UUID(top["queue"].strip())),
            "primary_rule": rule,
            "ranking": ranking,
            "metrics_module": own_metrics,
        }
    )


def _ranking(raw: dict, display: str, problems: list[Problem]) -> dict:
    """``ranking`` (validated by the schema): every group's tracks must be the edition's, each
    named once (a group's table has a column per track)."""
    ranking = dict(raw.get("ranking") or {})
    # the ids as declared: a track that failed to load is still the edition's, not an unknown one
    known = [t["id"] for t in raw["tracks"]]
    for name, group in (ranking.get("groups") or {}).items():
        where = f"{display}: ranking: groups: {name}: tracks"
        if unknown := [t for t in group["tracks"] if t not in known]:
            problems.append(
                Problem(
                    where,
                    "names tracks the edition does not have",
                    expected=", ".join(known),
                    found=", ".join(map(str, unknown)),
                    hint="use the ids under 'tracks'",
                )
            )
        if twice := sorted({t for t in group["tracks"] if group["tracks"].count(t) > 1}):
            problems.append(Problem(where, "names a track more than once", found=", ".join(twice)))
    return ranking


def _primary_rule(top: dict, display: str, problems: list[Problem]) -> PrimaryRule:
    """``primary_score`` of ``top`` (the top-level keys, validated by the schema, with their
    defaults); ``baseline NAME`` must name one of its ``baselines``."""
    rule = primary_rule_from_dict(top["primary_score"], display)
    if rule.missing == BASELINE and rule.baseline not in top["baselines"]:
        problems.append(
            Problem(
                f"{display}: primary_score: missing",
                "the baseline named is not one of the edition's baselines",
                expected=", ".join(top["baselines"]) or "a baseline listed under 'baselines'",
                found=repr(rule.baseline),
                hint="list it under 'baselines' or name one that is",
            )
        )
    return rule
