"""An edition config: everything that changes from one edition of a competition to the next.

One YAML file per edition (``editions/<name>/edition.yaml``) declares the title, phases with dates and
limits, datasets (which importer reads which release files), tracks, pages and the leaderboard. The
leaderboard columns are derived from the tracks (``tracks.leaderboard_keys``), never written by hand.
Every error names the key, what was expected and what was found.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional

import yaml

from ..errors import ConfigError, Problem
from ..spec import PHASES, TaskSpec, check_primary_direction
from ..tracks import Track, tracks_from_list

DATE_FORMAT = "%Y-%m-%d %H:%M:%S"
DEFAULT_IMAGE = "codalab/codalab-legacy:py312"
PHASE_NAMES = {"practice": "Practice", "evaluation": "Evaluation", "post-campaign": "Post-campaign"}
SUBMISSION_RULES = ("Add", "Add_And_Delete", "Add_And_Delete_Multiple", "Force_Last",
                    "Force_Latest_Multiple", "Force_Best")


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
    baselines: List[str] = field(default_factory=lambda: ["random", "most_frequent", "cosine_bow"])
    seed: int = 12345
    bootstrap_resamples: int = 1000  # behind the detailed results' 95% intervals; 0 turns them off
    public_files: List[str] = field(default_factory=list)
    contact_email: Optional[str] = None

    def spec(self, phase: Phase) -> TaskSpec:
        return TaskSpec(edition=self.name, title=self.title, phase=phase.id, tracks=self.tracks,
                        hide_gold=phase.hide_gold, seed=self.seed,
                        extra={"execution_time_limit": phase.execution_time_limit,
                               "bootstrap_resamples": self.bootstrap_resamples})

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
        problems.append(Problem(where, f"'{key}' is not a UTC date and time",
                                expected="'YYYY-MM-DD HH:MM:SS' (quoted)", found=repr(value)))
        return None


def _int(raw: dict, key: str, default: int, problems: List[Problem], where: str, minimum: int = 0) -> int:
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        problems.append(Problem(where, f"'{key}' must be a whole number >= {minimum}", found=repr(value)))
        return default
    return value


def _phases(raw_phases, problems: List[Problem]) -> List[Phase]:
    if not isinstance(raw_phases, list) or not raw_phases:
        problems.append(Problem("phases", "must be a non-empty list", found=repr(raw_phases)[:80]))
        return []
    phases: List[Phase] = []
    for i, raw in enumerate(raw_phases):
        where = f"phases[{i}]"
        if not isinstance(raw, dict):
            problems.append(Problem(where, "must be a mapping", found=repr(raw)[:80]))
            continue
        pid = raw.get("id")
        if pid not in PHASES:
            problems.append(Problem(where, "unknown phase id", expected=" | ".join(PHASES), found=repr(pid)))
            continue
        where = f"phases[{i}] ({pid})"
        known = {"id", "name", "start", "end", "split", "description", "max_submissions_per_day",
                 "max_submissions", "execution_time_limit", "public_gold"}
        for key in sorted(set(raw) - known):
            problems.append(Problem(where, f"unknown key '{key}'", expected=", ".join(sorted(known))))
        split = raw.get("split", "dev" if pid == "practice" else "test")
        if split not in ("dev", "test"):
            problems.append(Problem(where, "'split' must be dev or test", found=repr(split)))
        start = _date(raw.get("start"), "start", problems, where)
        if start is None and "start" not in raw:
            problems.append(Problem(where, "'start' is required", expected="'YYYY-MM-DD HH:MM:SS'"))
        phases.append(Phase(
            id=pid, name=str(raw.get("name", PHASE_NAMES[pid])), start=start or dt.datetime(1970, 1, 1),
            end=_date(raw.get("end"), "end", problems, where), split=split,
            description=str(raw.get("description", "")),
            max_submissions_per_day=_int(raw, "max_submissions_per_day", 5, problems, where),
            max_submissions=_int(raw, "max_submissions", 100, problems, where),
            execution_time_limit=_int(raw, "execution_time_limit", 600, problems, where, minimum=1),
            public_gold=bool(raw.get("public_gold", pid == "practice"))))
    ids = [p.id for p in phases]
    if len(set(ids)) != len(ids):
        problems.append(Problem("phases", "a phase id is repeated", found=", ".join(ids)))
    for prev, nxt in zip(phases, phases[1:]):
        if prev.end is None:
            problems.append(Problem(f"phases ({prev.id})", "every phase followed by another needs an 'end'"))
        elif nxt.start <= prev.end:
            problems.append(Problem(f"phases ({nxt.id})", "phase dates overlap or touch: Codabench needs each "
                                    "phase to start strictly after the previous one ends",
                                    expected=f"start after {prev.date_text('end')}", found=nxt.date_text("start")))
    for p in phases:
        if p.end is not None and p.end <= p.start:
            problems.append(Problem(f"phases ({p.id})", "phase ends before it starts",
                                    expected=f"end after {p.date_text('start')}", found=p.date_text("end")))
    return phases


def _pages(raw, folder: Path, problems: List[Problem]) -> List[dict]:
    pages = []
    for i, page in enumerate(raw or []):
        if not isinstance(page, dict) or "title" not in page or "file" not in page:
            problems.append(Problem(f"pages[{i}]", "each page needs 'title' and 'file'", found=repr(page)[:80]))
            continue
        if not (folder / page["file"]).is_file():
            problems.append(Problem(f"pages[{i}]", "page file not found", found=str(folder / page["file"])))
        pages.append({"title": str(page["title"]), "file": str(page["file"])})
    return pages


def _check_public_files(raw, folder: Path, problems: List[Problem]) -> None:
    """``public_files``: files of the edition folder copied into the starting kit (and leak-checked)."""
    if raw is None:
        return
    if not isinstance(raw, list):
        problems.append(Problem("public_files", "must be a list of file paths relative to the edition folder",
                                found=repr(raw)[:80]))
        return
    for i, name in enumerate(raw):
        relative = Path(str(name))
        if not isinstance(name, str) or relative.is_absolute() or ".." in relative.parts:
            problems.append(Problem(f"public_files[{i}]", "must be a path inside the edition folder",
                                    expected="e.g. extra/lexicon.tsv", found=repr(name)))
        elif not (folder / relative).is_file():
            problems.append(Problem(f"public_files[{i}]", "file not found", found=str(folder / relative)))


def load_edition(path: Path) -> Edition:
    """Read and validate ``edition.yaml`` (or a folder holding one)."""
    path = Path(path)
    if path.is_dir():
        path = path / "edition.yaml"
    display = str(path)
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise ConfigError.single(display, f"cannot read the edition config ({e.strerror})")
    except yaml.YAMLError as e:
        raise ConfigError.single(display, f"not valid YAML ({e})")
    if not isinstance(raw, dict):
        raise ConfigError.single(display, "the edition config must be a YAML mapping")
    folder = path.parent
    problems: List[Problem] = []
    known = {"name", "title", "description", "phases", "datasets", "tracks", "pages", "terms", "logo",
             "docker_image", "leaderboard", "baselines", "seed", "public_files", "contact_email",
             "bootstrap_resamples"}
    for key in sorted(set(raw) - known):
        problems.append(Problem(display, f"unknown top-level key '{key}'", expected=", ".join(sorted(known))))
    for key in ("name", "title", "terms", "logo"):
        if not isinstance(raw.get(key), str) or not raw.get(key):
            problems.append(Problem(display, f"'{key}' is required", expected="a non-empty string",
                                    found=repr(raw.get(key))))
    phases = _phases(raw.get("phases"), problems)
    try:
        tracks = tracks_from_list(raw.get("tracks"), where=f"{display}: tracks")
        check_primary_direction(tracks, f"{display}: tracks")
    except ConfigError as e:
        problems.extend(e.problems)
        tracks = []
    datasets = raw.get("datasets") or {}
    if not isinstance(datasets, dict):
        problems.append(Problem(display, "'datasets' must map a dataset id to its source", found=repr(datasets)[:80]))
        datasets = {}
    for t in tracks:
        if t.dataset not in datasets:
            problems.append(Problem(f"{display}: tracks '{t.id}'", "its dataset is not declared under 'datasets'",
                                    expected=", ".join(sorted(datasets)) or "a datasets entry", found=repr(t.dataset)))
    for key in ("terms", "logo"):
        if isinstance(raw.get(key), str) and not (folder / raw[key]).is_file():
            problems.append(Problem(display, f"'{key}' file not found", found=str(folder / raw[key])))
    leaderboard = raw.get("leaderboard") or {}
    rule = leaderboard.get("submission_rule", "Force_Last")
    if rule not in SUBMISSION_RULES:
        problems.append(Problem(display, "unknown leaderboard submission_rule", expected=" | ".join(SUBMISSION_RULES),
                                found=repr(rule)))
    pages = _pages(raw.get("pages"), folder, problems)
    _check_public_files(raw.get("public_files"), folder, problems)
    seed = _int(raw, "seed", 12345, problems, display)
    resamples = _int(raw, "bootstrap_resamples", 1000, problems, display)
    if problems:
        raise ConfigError(problems)
    return Edition(name=raw["name"], title=raw["title"], description=str(raw.get("description", "")),
                   folder=folder, phases=phases, datasets=datasets, tracks=tracks, pages=pages,
                   terms=raw["terms"], logo=raw["logo"], docker_image=str(raw.get("docker_image", DEFAULT_IMAGE)),
                   leaderboard={"title": str(leaderboard.get("title", "Results")),
                                "key": str(leaderboard.get("key", "main")), "submission_rule": rule},
                   baselines=list(raw.get("baselines", ["random", "most_frequent", "cosine_bow"])),
                   seed=seed, bootstrap_resamples=resamples,
                   public_files=list(raw.get("public_files") or []),
                   contact_email=raw.get("contact_email"))
