"""The task spec: what the scoring and ingestion programs know about an edition and phase.

The builder writes it as ``task.json`` beside the reference data and the input data, so the
programs are edition-agnostic: a new edition needs new data and a new spec, never new code.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from . import __version__
from .errors import ConfigError, Problem, boolean_problem
from .fields import ANY, OBJECT, STR, Field, Walk, check_value, choice
from .metrics import get as get_metric
from .stats.bootstrap import DEFAULT_SEED
from .tracks import Track, tracks_from_list

SPEC_FILE = "task.json"
PHASES = ("practice", "evaluation", "post-campaign")
#: task.json's key (true) for a phase no ingestion program of the kit runs before scoring (a CodaLab
#: v1.5 bundle's): its submissions are results as uploaded, with no prediction step to report on.
SCORING_ONLY = "scoring_only"
#: The file a code submission is run from (``programs.child`` imports its class Model).
MODEL_FILE = "model.py"
#: Why a ``SCORING_ONLY`` phase refuses a submission of code (a zip holding ``MODEL_FILE``).
RESULTS_ONLY = (
    f"this competition takes result submissions only: no code is run on CodaLab v1.5, so "
    f"{MODEL_FILE} is not run; run it on your machine with the starting kit's ingestion program (python3 "
    "ingestion_program/ingest.py INPUT_DATA predictions MODEL_FOLDER) and upload a zip of the "
    "prediction files it writes"
)
#: The hint for a code submission given where prediction files are scored (``score_predictions``,
#: a runs folder): its model is not run there.
CODE_NOT_RUN = (
    f"this is a code submission ({MODEL_FILE}), scored by the prediction files it writes: run it "
    "first (in the starting kit: python3 run_local.py . SUBMISSION --phase local --output out) "
    "and score the files it writes in out/predictions"
)

#: The missing-track rules of the primary score (``primary_score: {missing: ...}``).
WORST, BASELINE, UNRANKED = "worst", "baseline", "unranked"
#: How the primary tracks' scores are averaged (``primary_score: {mean: ...}``).
PLAIN, NORMALISED = "plain", "normalised"

#: Each missing-track rule in words: what a primary track a run does not submit counts as
#: (``{baseline}``: the rule's baseline). Data, not a template file: the scoring program prints
#: them (``report.primary_sentence``) and a bundle's engine carries no templates.
MISSING_WORDS = {
    WORST: "counts as its metric's worst possible value",
    BASELINE: "counts as baseline {baseline}'s score on that track in this phase",
    UNRANKED: "leaves the run without a primary score (it is ranked only on the tracks it "
    "submitted; the leaderboard's primary column gets the worst value)",
}
#: Each mean rule in words: how the primary tracks' scores are averaged.
MEAN_WORDS = {
    PLAIN: "mean of the primary tracks' main metric",
    NORMALISED: "mean of the primary tracks' main metric, each normalised to 0-1 by its range",
}


@dataclass(frozen=True)
class PrimaryRule:
    """How the primary score treats a primary track a run did not submit, and how it averages.

    ``missing``: WORST (the metric's worst value on the track), BASELINE (the score of the baseline
    ``baseline`` on the same phase, ``baseline_scores``: track id -> main metric, written by the
    builder into the reference data's task.json) or UNRANKED (the run gets no primary score; the
    leaderboard's column still gets the worst value, so that the run sorts last). ``mean``: PLAIN
    (the mean of the main metrics) or NORMALISED (each first mapped to 0..1 by its metric's range on
    the track, ``(value - lower) / (upper - lower)``, so that every track weighs the same).
    """

    missing: str = WORST
    baseline: str | None = None
    mean: str = PLAIN
    baseline_scores: dict[str, float] = field(default_factory=dict)

    @property
    def normalised(self) -> bool:
        """Each primary track's score is mapped to 0..1 by its metric's range before the mean."""
        return self.mean == NORMALISED

    @property
    def column_title(self) -> str:
        """The leaderboard's primary column title (at most 36 characters, Codabench's limit)."""
        return "Primary score (normalised mean)" if self.normalised else "Primary score"

    def missing_words(self) -> str:
        """What a primary track a run does not submit counts as, in words (``MISSING_WORDS``)."""
        return MISSING_WORDS[self.missing].format(baseline=self.baseline)

    def missing_note(self, tracks) -> str:
        """The primary ``tracks`` a run did not submit and what each counts as, in words (the
        scoring program's note and the results page's primary score)."""
        return (
            f"primary tracks not submitted: {', '.join(tracks)}; by this edition's rule a missing "
            f"primary track {self.missing_words()}"
        )

    def spec_entry(self) -> dict:
        """``{"primary_score": ...}`` for task.json, or nothing when the rule is the default; its
        ``missing`` as the edition config writes it: ``worst``, ``baseline NAME`` or ``unranked``."""
        if self.missing == WORST and self.mean == PLAIN and not self.baseline_scores:
            return {}
        missing = f"{BASELINE} {self.baseline}" if self.missing == BASELINE else self.missing
        entry = {"missing": missing, "mean": self.mean}
        if self.baseline_scores:
            entry["baseline_scores"] = dict(self.baseline_scores)
        return {"primary_score": entry}


def primary_rule_problem(text) -> str | None:
    """What is wrong with a ``missing`` rule's text (None when it is one of the rules of ``MISSING_WORDS``)."""
    parts = str(text).split()
    if parts in ([WORST], [UNRANKED]) or (len(parts) == 2 and parts[0] == BASELINE):
        return None
    return "expected 'worst', 'baseline NAME' (a baseline of the edition) or 'unranked'"


#: The keys of ``primary_score`` as an edition.yaml writes them (the edition schema's table); a
#: task.json's also holds the builder's ``baseline_scores``.
PRIMARY_SCORE_FIELDS = {
    "missing": Field(
        STR,
        "what a primary track a run did not submit counts as: worst | baseline NAME | unranked "
        "(README: Primary score)",
        default=WORST,
        check=primary_rule_problem,
        example="missing: baseline most_frequent",
    ),
    "mean": choice(
        "plain | normalised mean of the primary tracks' main metric (README: Primary score)",
        tuple(MEAN_WORDS),
        default=PLAIN,
    ),
}


def primary_rule_from_dict(raw, where: str) -> PrimaryRule:
    """The rule of a task.json's or an edition config's ``primary_score`` mapping (None: default)."""
    if raw is None:
        return PrimaryRule()
    walk = Walk(where)
    fields = {**PRIMARY_SCORE_FIELDS, "baseline_scores": Field(ANY)}
    check_value(walk, "", "primary_score", raw, Field(OBJECT, schema=fields))
    walk.raise_if_any()
    parts = str(raw.get("missing", WORST)).split()
    scores = {str(k): float(v) for k, v in dict(raw.get("baseline_scores") or {}).items()}
    mean = raw.get("mean", PLAIN)
    return PrimaryRule(parts[0], parts[1] if len(parts) == 2 else None, mean, scores)


#: The keys of task.json that are a field of ``TaskSpec`` as they are, each with its type.
PLAIN_KEYS = dict(edition=str, title=str, phase=str, hide_gold=bool, kit_version=str, seed=int)


@dataclass(frozen=True)
class TaskSpec:
    """An edition's tracks for one phase. ``hide_gold`` forbids per-item gold in any report."""

    edition: str
    title: str
    phase: str
    tracks: list[Track]
    hide_gold: bool = True
    kit_version: str = __version__
    seed: int = DEFAULT_SEED
    extra: dict = field(default_factory=dict)
    primary_rule: PrimaryRule = PrimaryRule()

    @property
    def primary_tracks(self) -> list[Track]:
        return [t for t in self.tracks if t.primary]

    def to_dict(self) -> dict:
        return {
            **{key: getattr(self, key) for key in PLAIN_KEYS},
            "tracks": [t.to_dict() for t in self.tracks],
            **self.extra,
            **self.primary_rule.spec_entry(),
        }


def check_primary_direction(tracks: list[Track], where: str) -> None:
    """The primary score averages the primary tracks' main metrics: they must share a direction."""
    primary = [t for t in tracks if t.primary]
    if not primary:
        raise ConfigError.single(
            where, "no track has 'primary: true'; the primary score needs at least one"
        )
    directions = [get_metric(t.main_metric).direction for t in primary]
    if len(set(directions)) > 1:
        raise ConfigError.single(
            where,
            "primary tracks mix higher-is-better and lower-is-better metrics",
            found=", ".join(
                f"{t.id} ({t.main_metric}: {direction} is better)"
                for t, direction in zip(primary, directions)
            ),
            hint="mark only tracks of one direction as primary",
        )


def spec_from_dict(raw: dict, where: str) -> TaskSpec:
    if not isinstance(raw, dict):
        raise ConfigError.single(where, "the task spec must be a JSON object")
    missing = [k for k in ("edition", "phase", "tracks") if k not in raw]
    if missing:
        raise ConfigError([Problem(where, f"missing key '{k}'") for k in missing])
    if "metrics_module" in raw:  # the edition's own metrics, registered before tracks name them
        from .metrics.edition_module import load_entry  # only an edition with its own module

        load_entry(raw["metrics_module"], where)
    tracks = tracks_from_list(raw["tracks"], where=f"{where}: tracks")
    check_primary_direction(tracks, where)
    hide_gold = raw.get("hide_gold", True)
    if type(hide_gold) is not bool:  # a quoted "false" would otherwise show per-item gold
        raise ConfigError([boolean_problem(where, "'hide_gold'", hide_gold)])
    plain = {key: read(raw[key]) for key, read in PLAIN_KEYS.items() if key in raw}
    return TaskSpec(
        **{"title": str(raw["edition"]), **plain},
        tracks=tracks,
        extra={k: v for k, v in raw.items() if k not in (*PLAIN_KEYS, "tracks", "primary_score")},
        primary_rule=primary_rule_from_dict(raw.get("primary_score"), where),
    )


def read_spec(folder: Path) -> TaskSpec:
    path = Path(folder) / SPEC_FILE
    display = f"{Path(folder).name}/{SPEC_FILE}"
    if not path.is_file():
        raise ConfigError.single(
            display,
            "the task spec is missing",
            hint="the bundle's reference and input data must each contain task.json, "
            "written by build_bundle.py",
        )
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ConfigError.single(display, f"cannot read the task spec ({e})")
    return spec_from_dict(raw, display)


def write_spec(folder: Path, spec: TaskSpec) -> None:
    text = json.dumps(spec.to_dict(), ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    (Path(folder) / SPEC_FILE).write_text(text, encoding="utf-8")
