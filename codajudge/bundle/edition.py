"""An edition config: everything that changes from one edition of a competition to the next.

One YAML file per edition (``editions/<name>/edition.yaml``) declares the title, phases with dates and
limits, datasets (which importer reads which release files), tracks, pages and the leaderboard. The
leaderboard columns are derived from the tracks (``tracks.leaderboard_keys``), never written by hand.
Every error names the key, what was expected and what was found.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional

from ..confine import path_problem, slug_problem
from ..errors import BuildProblems, ConfigError, Problem, strict_bool
from ..stats.bootstrap import DEFAULT_SEED
from ..spec import (
    BASELINE,
    PHASES,
    PrimaryRule,
    TaskSpec,
    check_primary_direction,
    primary_rule_from_dict,
)
from ..tracks import Track, tracks_from_list
from .check.leaderboard import SUBMISSION_RULES
from .columns import column_title_problems
from .config_yaml import load_config_yaml
from .data_checks import dataset_problems
from .phase_gold import config_problems
from .placeholders import page_problems, text_problems
from .sample import LocalSplit, declared_local
from .schedule import ScheduledPhase, schedule_problems
from .schema import (
    DATE_FORMAT,
    MAX_COUNT,
    MAX_RESAMPLES,
    MAX_SEED,
    MAX_TIME_LIMIT,
    validate_config,
)

DEFAULT_IMAGE = "codalab/codalab-legacy:py312"
DEFAULT_BASELINES = ("random", "most_frequent", "cosine_bow")
PHASE_NAMES = {"practice": "Practice", "evaluation": "Evaluation", "post-campaign": "Post-campaign"}


@dataclass(frozen=True)
class Phase:
    id: str
    name: str
    start: dt.datetime
    end: Optional[dt.datetime]
    split: str
    description: str = ""
    max_submissions_per_day: int = 5
    max_submissions: int = 100
    execution_time_limit: int = 600
    public_gold: bool = False  # the practice phase's dev gold ships in the starting kit

    @property
    def hide_gold(self) -> bool:
        return not self.public_gold

    def date_text(self, which: str) -> Optional[str]:
        value = self.start if which == "start" else self.end
        return value.strftime(DATE_FORMAT) if value else None


@dataclass(frozen=True)
class Edition:
    name: str
    title: str
    description: str
    folder: Path
    phases: List[Phase]
    datasets: Dict[str, dict]
    tracks: List[Track]
    pages: List[dict]
    terms: str
    logo: str
    docker_image: str = DEFAULT_IMAGE
    leaderboard: Dict[str, str] = field(default_factory=dict)
    baselines: List[str] = field(default_factory=lambda: list(DEFAULT_BASELINES))
    seed: int = DEFAULT_SEED
    bootstrap_resamples: int = 1000  # behind the detailed results' 95% intervals; 0 turns them off
    public_files: List[str] = field(default_factory=list)
    #: public file (its path in the bundle) -> why it holds hidden gold on purpose
    known_leaks: Dict[str, str] = field(default_factory=dict)
    contact_email: Optional[str] = None
    #: why the starting kit can score no phase, when it cannot (the builder warns otherwise)
    kit_scores_no_phase: Optional[str] = None
    #: the config file, as the messages name it
    config: str = "edition.yaml"
    #: the starting kit's ``local`` phase: a seeded slice of train (None: the kit has none)
    local: Optional[LocalSplit] = None
    queue: Optional[str] = (
        None  # Codabench queue (its vhost UUID) for the organiser's own compute workers
    )
    #: the primary score's rules (``primary_score``); the builder adds the baseline's scores
    primary_rule: PrimaryRule = PrimaryRule()
    #: the official ranking's settings (``ranking``: groups of tracks), passed on in task.json
    ranking: Dict[str, dict] = field(default_factory=dict)

    def spec(self, phase: Phase) -> TaskSpec:
        return TaskSpec(
            edition=self.name,
            title=self.title,
            phase=phase.id,
            tracks=self.tracks,
            hide_gold=phase.hide_gold,
            seed=self.seed,
            primary_rule=self.primary_rule,
            extra={
                "execution_time_limit": phase.execution_time_limit,
                "bootstrap_resamples": self.bootstrap_resamples,
                **({"ranking": self.ranking} if self.ranking else {}),
            },
        )

    def phase(self, phase_id: str) -> Phase:
        return next(p for p in self.phases if p.id == phase_id)


def _date(value, key: str, problems: List[Problem], where: str) -> Optional[dt.datetime]:
    if value is None:
        return None
    if isinstance(value, dt.datetime):
        return value
    if isinstance(value, dt.date):
        return dt.datetime(value.year, value.month, value.day)
    try:
        return dt.datetime.strptime(str(value), DATE_FORMAT)
    except ValueError:
        problems.append(
            Problem(
                where,
                f"'{key}' is not a UTC date and time",
                expected="'YYYY-MM-DD HH:MM:SS' (quoted)",
                found=repr(value),
            )
        )
        return None


def _int(
    raw: dict,
    key: str,
    default: int,
    problems: List[Problem],
    where: str,
    minimum: int = 0,
    maximum: int = MAX_COUNT,
) -> int:
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= maximum:
        problems.append(
            Problem(
                where,
                f"'{key}' must be a whole number from {minimum:,} to {maximum:,}",
                found=repr(value)[:80],
            )
        )
        return default
    return value


def _phases(raw_phases, problems: List[Problem], display: str) -> List[Phase]:
    if not isinstance(raw_phases, list) or not raw_phases:
        problems.append(Problem("phases", "must be a non-empty list", found=repr(raw_phases)[:80]))
        return []
    read = (_phase(raw, i, problems, display) for i, raw in enumerate(raw_phases))
    phases = [phase for phase in read if phase is not None]
    _check_phase_dates(phases, problems)
    return phases


def _phase(raw, i: int, problems: List[Problem], display: str) -> Optional[Phase]:
    """The phase ``phases[i]`` describes, or None when it is not a mapping or its id is unknown."""
    where = f"phases[{i}]"
    if not isinstance(raw, dict):
        problems.append(Problem(where, "must be a mapping", found=repr(raw)[:80]))
        return None
    pid = raw.get("id")
    if pid not in PHASES:
        problems.append(
            Problem(where, "unknown phase id", expected=" | ".join(PHASES), found=repr(pid))
        )
        return None
    where = f"phases[{i}] ({pid})"
    split = raw.get("split", "dev" if pid == "practice" else "test")
    if split not in ("dev", "test"):
        problems.append(Problem(where, "'split' must be dev or test", found=repr(split)))
    start = _date(raw.get("start"), "start", problems, where)
    if start is None and "start" not in raw:
        problems.append(Problem(where, "'start' is required", expected="'YYYY-MM-DD HH:MM:SS'"))
    return Phase(
        id=pid,
        name=str(raw.get("name", PHASE_NAMES[pid])),
        start=start or dt.datetime(1970, 1, 1),
        end=_date(raw.get("end"), "end", problems, where),
        split=split,
        description=str(raw.get("description", "")),
        max_submissions_per_day=_int(raw, "max_submissions_per_day", 5, problems, where),
        max_submissions=_int(raw, "max_submissions", 100, problems, where),
        execution_time_limit=_int(
            raw, "execution_time_limit", 600, problems, where, minimum=1, maximum=MAX_TIME_LIMIT
        ),
        public_gold=strict_bool(
            raw, "public_gold", pid == "practice", f"{display}: {where}", problems
        ),
    )


def _check_phase_dates(phases: List[Phase], problems: List[Problem]) -> None:
    """Phase ids unique, and the schedule's rule (``schedule.schedule_problems``)."""
    ids = [p.id for p in phases]
    if len(set(ids)) != len(ids):
        problems.append(Problem("phases", "a phase id is repeated", found=", ".join(ids)))
    schedule = [
        ScheduledPhase(f"phases ({p.id})", p.name, p.start, p.end, has_end=p.end is not None)
        for p in phases
    ]
    problems.extend(schedule_problems(schedule))


def _queue(raw, problems: List[Problem], where: str) -> Optional[str]:
    """``queue``: the vhost of a Codabench queue, a UUID (Codabench's Queue.vhost is a UUIDField and
    its unpacker looks the queue up by it; the queue page shows it as the last part of the broker URL)."""
    if raw is None:
        return None
    try:
        return str(uuid.UUID(raw.strip() if isinstance(raw, str) else ""))
    except ValueError:
        problems.append(
            Problem(
                where,
                "'queue' must be the vhost of a Codabench queue (a UUID)",
                expected="e.g. '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d' (Codabench: Resources > "
                "Queue Management, the queue's details)",
                found=repr(raw)[:80],
            )
        )
        return None


def _pages(raw, folder: Path, problems: List[Problem]) -> List[dict]:
    if raw is not None and not isinstance(raw, list):
        problems.append(Problem("pages", "must be a list of {title, file}", found=repr(raw)[:80]))
        return []
    pages = []
    for i, page in enumerate(raw or []):
        if not isinstance(page, dict) or "title" not in page or "file" not in page:
            problems.append(
                Problem(f"pages[{i}]", "each page needs 'title' and 'file'", found=repr(page)[:80])
            )
            continue
        if _edition_file(page["file"], folder, f"pages[{i}]", "page file", problems):
            pages.append({"title": str(page["title"]), "file": str(page["file"])})
    return pages


def _edition_file(value, folder: Path, where: str, key: str, problems: List[Problem]) -> bool:
    """A file the config names must be a regular file inside the edition folder (links resolved)."""
    problem = path_problem(value, folder, where, key, "the edition folder")
    if problem is None and not (folder / value).is_file():
        problem = Problem(where, f"'{key}' file not found", found=str(folder / value))
    if problem is not None:
        problems.append(problem)
    return problem is None


def _check_public_files(raw, folder: Path, problems: List[Problem]) -> None:
    """``public_files``: files of the edition folder copied into the starting kit (and leak-checked)."""
    if raw is None:
        return
    if not isinstance(raw, list):
        problems.append(
            Problem(
                "public_files",
                "must be a list of file paths relative to the edition folder",
                found=repr(raw)[:80],
            )
        )
        return
    for i, name in enumerate(raw):
        _edition_file(name, folder, f"public_files[{i}]", f"public_files[{i}]", problems)


def _check_known_leaks(raw, display: str, problems: List[Problem]) -> None:
    """``known_leaks``: each declared leak says why (the schema has checked the strings)."""
    for name, why in (raw or {}).items():
        if isinstance(why, str) and not why.strip():
            problems.append(
                Problem(
                    f"{display}: known_leaks {name!r}",
                    "must say why the file holds hidden gold on purpose",
                    expected="a sentence, e.g. 'the test gold, released after the campaign'",
                    found=repr(why),
                )
            )


def _check_names(raw: dict, display: str, problems: List[Problem]) -> None:
    """Required strings, and the names that become file or folder names (edition name, dataset ids)."""
    for key in ("name", "title", "terms", "logo"):
        if not isinstance(raw.get(key), str) or not raw.get(key):
            problems.append(
                Problem(
                    display,
                    f"'{key}' is required",
                    expected="a non-empty string",
                    found=repr(raw.get(key))[:80],
                )
            )
    if isinstance(raw.get("name"), str) and raw.get("name"):
        problem = slug_problem(raw["name"], display, "name")
        if problem is not None:
            problems.append(problem)
    datasets = raw.get("datasets")
    for dataset_id in datasets if isinstance(datasets, dict) else ():
        problem = slug_problem(dataset_id, f"{display}: datasets", "dataset id")
        if problem is not None:
            problems.append(problem)
        elif not isinstance(datasets[dataset_id], dict):
            problems.append(
                Problem(
                    f"{display}: datasets '{dataset_id}'",
                    "must be a mapping of source options",
                    expected="e.g. {importer: kit, path: data/sts_en}",
                    found=repr(datasets[dataset_id])[:80],
                )
            )


def _check_files(raw: dict, folder: Path, display: str, problems: List[Problem]) -> List[dict]:
    """terms, logo, pages and public_files: regular files inside the edition folder. Returns the pages."""
    for key in ("terms", "logo"):
        if isinstance(raw.get(key), str) and raw.get(key):
            _edition_file(raw[key], folder, display, key, problems)
    _check_public_files(raw.get("public_files"), folder, problems)
    return _pages(raw.get("pages"), folder, problems)


def _tracks_and_datasets(raw: dict, display: str, problems: List[Problem]):
    try:
        tracks = tracks_from_list(raw.get("tracks"), where=f"{display}: tracks")
        check_primary_direction(tracks, f"{display}: tracks")
    except ConfigError as e:
        problems.extend(e.problems)
        tracks = []
    problems.extend(column_title_problems(tracks, f"{display}: tracks"))
    datasets = raw.get("datasets") or {}
    if not isinstance(datasets, dict):
        problems.append(
            Problem(
                display, "'datasets' must map a dataset id to its source", found=repr(datasets)[:80]
            )
        )
        datasets = {}
    for t in tracks:
        if t.dataset not in datasets:
            problems.append(
                Problem(
                    f"{display}: tracks '{t.id}'",
                    "its dataset is not declared under 'datasets'",
                    expected=", ".join(sorted(map(str, datasets))) or "a datasets entry",
                    found=repr(t.dataset),
                )
            )
    return tracks, datasets


def _leaderboard(raw: dict, display: str, problems: List[Problem]) -> Dict[str, str]:
    """``leaderboard``: its title, key and submission rule (Codabench's), with the kit's defaults."""
    leaderboard = raw.get("leaderboard") or {}
    if not isinstance(leaderboard, dict):
        problems.append(
            Problem(display, "'leaderboard' must be a mapping", found=repr(leaderboard)[:80])
        )
        leaderboard = {}
    rule = leaderboard.get("submission_rule", "Force_Last")
    if rule not in SUBMISSION_RULES:
        problems.append(
            Problem(
                display,
                "unknown leaderboard submission_rule",
                expected=" | ".join(SUBMISSION_RULES),
                found=repr(rule)[:80],
            )
        )
    return {
        "title": str(leaderboard.get("title", "Results")),
        "key": str(leaderboard.get("key", "main")),
        "submission_rule": rule,
    }


def in_file(problem: Problem, display: str) -> Problem:
    """``problem`` located in the config file ``display`` (the cross-field checks name the key only)."""
    if problem.file.startswith(display) or "/" in problem.file:
        return problem
    return dataclasses.replace(problem, file=f"{display}: {problem.file}")


def _raw_config(path: Path):
    """The edition config's path (``edition.yaml`` inside a folder) and its YAML mapping."""
    path = Path(path)
    if path.is_dir():
        path = path / "edition.yaml"
    raw = load_config_yaml(path, str(path))
    if not isinstance(raw, dict):
        raise ConfigError.single(str(path), "the edition config must be a YAML mapping")
    return path, raw


#: What a schema problem other than an unknown key leaves unchecked (the rules after it read a
#: config of the schema's shape).
AFTER_SCHEMA = (
    "the cross-field rules (phase dates, files, pages, tracks' datasets) and the data; "
    "fix the problems above and check again"
)
#: What a problem in the tracks, phases or datasets leaves unchecked.
AFTER_CONFIG = "the data, which is read through the tracks and datasets above; fix them first"


def is_unknown_key(problem: Problem) -> bool:
    """A misspelt or unknown key: the config is read without it, so the other checks still mean
    something (its right name is most often a key with a default)."""
    return problem.message.startswith("unknown key ")


def data_checkable(edition: "Edition", problems: List[Problem]) -> bool:
    """Whether the edition's data can be read despite ``problems``: its tracks, phases and datasets
    were read whole."""
    concerned = any(
        ": tracks" in p.file or ": datasets" in p.file or p.file.endswith("phases")
        for p in problems
    )
    splits_known = all(phase.split in ("dev", "test") for phase in edition.phases)
    return bool(edition.tracks and edition.phases) and splits_known and not concerned


def load_edition(path: Path, collected: Optional[List[Problem]] = None) -> Edition:
    """Read and validate ``edition.yaml`` (or a folder holding one), every problem reported at once.
    With ``collected``, the problems that leave the data readable (``data_checkable``) are added to
    it and the edition returned, so that its data is checked in the same run."""
    path, raw = _raw_config(path)
    display, folder = str(path), path.parent
    problems: List[Problem] = validate_config(raw, display)
    if not all(map(is_unknown_key, problems)):
        raise BuildProblems(problems, unchecked=AFTER_SCHEMA)
    edition = _cross_checked(raw, display, folder, problems)
    if problems and (collected is None or not data_checkable(edition, problems)):
        raise BuildProblems(problems, unchecked=None if collected is None else AFTER_CONFIG)
    if collected is not None:
        collected.extend(problems)
    return edition


def _cross_checked(raw: dict, display: str, folder: Path, problems: List[Problem]) -> Edition:
    """The edition ``raw`` describes, the cross-field rules' problems added to ``problems``."""
    found: List[Problem] = []
    _check_names(raw, display, found)
    phases = _phases(raw.get("phases"), found, display)
    tracks, datasets = _tracks_and_datasets(raw, display, found)
    found.extend(dataset_problems(datasets, display))
    if not found:  # which gold may be public, and which phases may score the same items
        found.extend(config_problems(phases, datasets))
    leaderboard = _leaderboard(raw, display, found)
    pages = _check_files(raw, folder, display, found)
    _check_known_leaks(raw.get("known_leaks"), display, found)
    terms = [raw["terms"]] if path_problem(raw["terms"], folder, "", "terms", "") is None else []
    found.extend(page_problems(raw["name"], folder, terms + [page["file"] for page in pages]))
    found.extend(text_problems(raw))
    seed = _int(raw, "seed", DEFAULT_SEED, found, display, maximum=MAX_SEED)
    queue = _queue(raw.get("queue"), found, display)
    resamples = _int(raw, "bootstrap_resamples", 1000, found, display, maximum=MAX_RESAMPLES)
    rule = _primary_rule(raw, display, found)
    ranking = _ranking(raw, tracks, display, found)
    problems.extend(in_file(p, display) for p in found)
    return Edition(
        name=raw["name"],
        title=raw["title"],
        description=str(raw.get("description", "")),
        folder=folder,
        phases=phases,
        datasets=datasets,
        tracks=tracks,
        pages=pages,
        terms=raw["terms"],
        logo=raw["logo"],
        docker_image=str(raw.get("docker_image", DEFAULT_IMAGE)),
        leaderboard=leaderboard,
        baselines=list(raw.get("baselines", DEFAULT_BASELINES)),
        seed=seed,
        bootstrap_resamples=resamples,
        public_files=list(raw.get("public_files") or []),
        known_leaks=dict(raw.get("known_leaks") or {}),
        contact_email=raw.get("contact_email"),
        kit_scores_no_phase=raw.get("kit_scores_no_phase"),
        config=display,
        local=declared_local(raw.get("local")),
        queue=queue,
        primary_rule=rule,
        ranking=ranking,
    )


def _ranking(raw: dict, tracks: List[Track], display: str, problems: List[Problem]) -> dict:
    """``ranking`` (validated by the schema): every group's tracks must be the edition's."""
    ranking = dict(raw.get("ranking") or {})
    known = [t.id for t in tracks]
    for name, group in (ranking.get("groups") or {}).items():
        unknown = [t for t in group["tracks"] if t not in known]
        if unknown:
            problems.append(
                Problem(
                    f"{display}: ranking: groups: {name}: tracks",
                    "names tracks the edition does not have",
                    expected=", ".join(known),
                    found=", ".join(map(str, unknown)),
                    hint="use the ids under 'tracks'",
                )
            )
    return ranking


def _primary_rule(raw: dict, display: str, problems: List[Problem]) -> PrimaryRule:
    """``primary_score`` (validated by the schema); ``baseline NAME`` must name a listed baseline."""
    rule = primary_rule_from_dict(raw.get("primary_score"), display)
    baselines = list(raw.get("baselines", DEFAULT_BASELINES))
    if rule.missing == BASELINE and rule.baseline not in baselines:
        problems.append(
            Problem(
                f"{display}: primary_score: missing",
                "the baseline named is not one of the edition's baselines",
                expected=", ".join(baselines) or "a baseline listed under 'baselines'",
                found=repr(rule.baseline),
                hint="list it under 'baselines' or name one that is",
            )
        )
    return rule
