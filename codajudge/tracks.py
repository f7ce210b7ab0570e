"""What a track is: its kind, labels or scale, metrics, accepted file names and leaderboard keys.

A track is declared once, in an edition config, and travels with the reference and input data as
``tracks.json`` so that the scoring and ingestion programs need no other configuration. Its keys
are declared once, in ``TRACK_FIELDS``: the edition schema's track table, which also checks a track
read back from a phase's ``task.json`` (``codajudge.fields``); ``track_from_dict`` adds the rules
across keys (a kind's scale, labels, aliases, alignment and layouts).
"""

from __future__ import annotations

import re
from fnmatch import fnmatchcase
from dataclasses import asdict, dataclass, replace
from itertools import product
from functools import cached_property
from collections.abc import Sequence

from . import kinds
from .fields import BOOL, INT, LIST, NUMBER, STR
from .fields import Field, Walk, check_object, choice, shown, string_map, strings
from .kinds.base import DISTRIBUTION, LABEL, SIMILARITY_RANGE
from .labels import LabelSet
from .errors import ConfigError
from .metrics import REGISTRY as METRICS

#: Codabench limits a leaderboard column key (and so a scores.json key) to 36 characters.
MAX_KEY_LENGTH = 36
PRIMARY_KEY = "primary"
#: Decimals of every leaderboard column (competition.yaml); a hidden-gold phase shows its scores
#: to this precision and no finer (``report.published_scores``).
PRECISION = 4
#: Other tasks' submission layouts a track may also read (``results_layout``): LeWiDi 2023's
#: ``<Dataset>_results.tsv``, rows ``hard_label<TAB>p0<TAB>p1`` in item order, no id
#: (``formats.results_tsv``), read by the tracks whose values are a label or a distribution.
RESULTS_LAYOUTS = ("lewidi2023",)
#: The keys of a track that tracks.json leaves out when they are unset (None, or no aliases).
OPTIONAL_KEYS = ("release_lines", "range", "label_aliases", "annotator_alignment", "results_layout")


def score_key(track_id: str, metric: str) -> str:
    """The scores.json and leaderboard key of one metric of one track (the only place keys are made)."""
    return f"{track_id}_{metric}"


@dataclass(frozen=True)
class Track:
    """One scored track. ``labels`` is ordered: soft-label vectors and ordinal distances follow it."""

    id: str
    kind: str
    dataset: str
    title: str = ""
    scale: str | None = None
    labels: tuple[str, ...] = ()
    metrics: tuple[str, ...] = ()
    primary: bool = True
    files: tuple[str, ...] = ()
    positional: bool = False  # accept the SemEval one-score-per-line format (similarity only)
    #: A positional track's release input lines when only its first items have gold (STS 2017 track 6:
    #: 500 lines, gold for the first 250): a positional file of that many lines is scored on its first ones.
    release_lines: int | None = None
    #: Similarity gold's declared scale (lowest, highest); None means ``kinds.base.SIMILARITY_RANGE``.
    range: tuple[float, float] | None = None
    #: (alias, label) pairs: other texts naming a label (ChaosNLI's e, n, c), read by ``label_set``.
    label_aliases: tuple[tuple[str, str], ...] = ()
    #: How a perspectivist row wider than its item's annotators is scored (``Kind.alignments``);
    #: None: the kind's default.
    annotator_alignment: str | None = None
    #: Another task's submission layout the track also reads (``RESULTS_LAYOUTS``; None: the kit's).
    results_layout: str | None = None

    @property
    def score_range(self) -> tuple[float, float]:
        """The lowest and highest gold score of a similarity track (higher = more similar)."""
        return self.range if self.range is not None else SIMILARITY_RANGE

    @property
    def main_metric(self) -> str:
        return self.metrics[0]

    @property
    def keys(self) -> list[str]:
        return [score_key(self.id, m) for m in self.metrics]

    @property
    def file_names(self) -> tuple[str, ...]:
        """Accepted submission file names, the canonical one first."""
        return (f"{self.id}.tsv",) + tuple(f for f in self.files if f != f"{self.id}.tsv")

    def reads_name(self, name: str) -> bool:
        """Whether a submission file named ``name`` (a base name) is the track's: one of its
        ``file_names`` or their patterns (``*`` any text), in any case."""
        name = name.lower()
        return any(fnmatchcase(name, pattern.lower()) for pattern in self.file_names)

    @cached_property
    def label_set(self) -> LabelSet:
        """The track's labels under the one label policy (``codajudge.labels``)."""
        return LabelSet(self.labels, dict(self.label_aliases))

    @cached_property
    def example(self) -> str:
        """A line of the track's file with a valid value (``ID<TAB>VALUE``), for messages: its
        kind's, written once per track rather than once per value read."""
        return kinds.of(self).example_value(self)

    def to_dict(self) -> dict:
        """The track as tracks.json holds it: tuples as lists, the aliases as a mapping, and the
        ``OPTIONAL_KEYS`` left unset absent."""
        d = {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self).items()}
        d["label_aliases"] = dict(self.label_aliases) or None
        return {k: v for k, v in d.items() if v is not None or k not in OPTIONAL_KEYS}


def _id_problem(value) -> str | None:
    if isinstance(value, str) and re.fullmatch(r"[a-z0-9][a-z0-9_]*", value):
        return None
    return "'id' must be lowercase letters, digits and underscores|e.g. id: en_en"


#: A track's keys, as an edition.yaml and a phase's task.json write them (``Track`` has a field of
#: each); ``metrics`` names registered metrics (the registry itself: an edition's own metrics are
#: registered when it is read). The rules across keys are ``track_from_dict``'s.
TRACK_FIELDS = {
    "id": Field(
        STR,
        "lowercase letters, digits and _; names the submission file <id>.tsv",
        required=True,
        check=_id_problem,
    ),
    "title": Field(STR, "its title on pages and leaderboard columns (default: the id)"),
    "kind": choice("what is predicted", kinds.NAMES, "track kind", required=True),
    "dataset": Field(STR, "a key of 'datasets' (default: the track id)"),
    "scale": choice("required for soft_label and perspectivist", kinds.SCALES, "scale"),
    "labels": strings("the ordered labels (quote numbers and yes/no)", 'labels: ["1", "2", "3"]'),
    "label_aliases": string_map(
        "alias text -> one of 'labels': other texts naming a label (docs/labels.md)",
        "label_aliases: {e: entailment, n: neutral, c: contradiction}",
    ),
    "metrics": Field(
        LIST,
        "the metrics scored, main metric first (default: the kind's; see docs/edition-config.md)",
        items=Field(STR, choices=METRICS, what="metric", extensible=True),
    ),
    "primary": Field(BOOL, "its main metric counts in the primary score", default=True),
    "files": strings(
        "other accepted submission file names (globs; no other track's <id>.tsv, nor its 'files' "
        "but for the same values or a document holding both: *.json, or one results_layout)"
    ),
    "positional": Field(BOOL, "accept one score per line in input order (similarity)"),
    "release_lines": Field(INT, "input lines of a positional release", minimum=2),
    "results_layout": choice(
        "another task's submission layout also read: lewidi2023 (<Dataset>_results.tsv, "
        "rows hard label<TAB>p0<TAB>p1 in item order, no id; name the file in 'files')",
        RESULTS_LAYOUTS,
    ),
    "range": Field(
        LIST,
        "similarity gold's scale [lowest, highest] (default [0, 5]; see 'Data' above)",
        items=Field(NUMBER),
        length=2,
        example="range: [1, 5]",
    ),
    "annotator_alignment": choice(
        "how a perspectivist row wider than its item's annotators is scored: by_name (default) "
        "or official_2025 (see 'Metrics' above)",
        tuple(dict.fromkeys(a for kind in kinds.REGISTRY.values() for a in kind.alignments)),
    ),
}


def track_fields(raw: dict) -> dict[str, Field]:
    """``TRACK_FIELDS`` for the track ``raw``: an unknown metric is matched against, and shown, the
    metrics that apply to its kind and scale (when they are known), not every metric."""
    kind, scale = raw.get("kind"), raw.get("scale")
    kind = kinds.REGISTRY.get(kind) if isinstance(kind, str) else None
    scale = scale if kind and kind.has_scale and isinstance(scale, str) else None
    suggest = kind.applicable_metrics(scale) if kind else ()
    metric = replace(TRACK_FIELDS["metrics"].items, suggest=suggest)
    return {**TRACK_FIELDS, "metrics": replace(TRACK_FIELDS["metrics"], items=metric)}


def track_from_dict(raw: dict, where: str = "tracks") -> Track:
    """Build and validate a Track from a config mapping (a key set to None counts as absent): its
    keys against ``TRACK_FIELDS``, then the rules across them; errors name the key, expected and
    found."""
    if not isinstance(raw, dict):
        raise ConfigError.single(where, "a track must be a mapping", found=repr(raw))
    raw = {key: value for key, value in raw.items() if value is not None}
    tid = raw.get("id")
    walk = Walk(f"{where} '{tid}'")
    check_object(walk, "", raw, track_fields(raw))
    walk.raise_if_any()
    kind = kinds.REGISTRY[raw["kind"]]
    scale, labels = raw.get("scale"), tuple(raw.get("labels", ()))
    positional = raw.get("positional", kind.positional_by_default)
    _check_needed_keys(kind, raw, walk)
    _check_misplaced_keys(kind, raw, positional, walk)
    given = {key: tuple(value) if isinstance(value, list) else value for key, value in raw.items()}
    track = Track(
        **{
            **given,  # the keys of TRACK_FIELDS, lists as tuples; the others' defaults are Track's
            "dataset": raw.get("dataset", tid),
            "title": raw.get("title") or tid,
            "metrics": _checked_metrics(kind, scale, given.get("metrics", ()), walk),
            "positional": positional,
            "range": tuple(map(float, raw["range"])) if "range" in raw else None,
            "label_aliases": _checked_aliases(kind, labels, raw.get("label_aliases"), walk),
        }
    )
    # two labels or aliases naming one label once normalised (``codajudge.labels``)
    for first, second in track.label_set.collisions() if kind.has_labels else ():
        walk.refuse(
            "two of 'labels' and 'label_aliases' name one label once normalised",
            expected="names that differ once surrounding spaces are ignored and numbers are "
            "read as values (docs/labels.md)",
            found=f"{first!r} and {second!r} name the same label once normalised",
            hint="remove or rename one of them",
        )
    for key in track.keys:
        if len(key) > MAX_KEY_LENGTH:
            walk.refuse(
                f"leaderboard key '{key}' is longer than {MAX_KEY_LENGTH} characters",
                expected=f"at most {MAX_KEY_LENGTH}",
                found=str(len(key)),
                hint="use a shorter track id",
            )
    walk.raise_if_any()
    return track


def _check_needed_keys(kind, raw: dict, walk: Walk) -> None:
    """The keys a track of ``kind`` must have: a ``scale`` (soft-label and perspectivist kinds) and
    ``labels``, at least two, for the kinds that have labels (``track_from_dict`` refuses two
    naming one label)."""
    if kind.has_scale and "scale" not in raw:
        walk.refuse(
            f"'scale' is missing: kind {kind.name} needs one",
            expected=" | ".join(map(str, kind.scales)),
            hint=f"add scale: {kind.scales[0]} (or another) to the track",
        )
    labels = raw.get("labels")
    if kind.has_labels and len(labels or ()) < 2:
        walk.refuse(
            f"'labels' must list at least two labels: kind {kind.name} needs them",
            expected="two or more labels, quoted, in order",
            found=None if labels is None else repr(labels),
            hint='add labels: ["L1", ...] to the track',
        )


#: The keys a track takes only on some layouts or values (``_check_misplaced_keys``), each with
#: the problem of one given elsewhere ({kind}: the track's kind).
MISPLACED = {
    "release_lines": "'release_lines' must be a whole number of lines (at least 2) on a "
    "positional track",
    "range": "'range' must be [lowest, highest] gold score of a similarity track",
    "results_layout": "'results_layout' must be on a track predicting one label or one "
    "distribution over its labels, not on a {kind} track",
}


def _check_misplaced_keys(kind, raw: dict, positional: bool, walk: Walk) -> None:
    """Refuse each key given to a track whose kind has no use for it, then each key of
    ``MISPLACED`` given where it does not apply (the schema's choices leave each kind's alignments
    alone: only the perspectivist kind has any)."""
    of_kind = {
        "scale": kind.has_scale,
        "positional": kind.positional_by_default or not positional,  # tracks.json writes false
        "range": kind.has_range,
        "annotator_alignment": bool(kind.alignments),
    }
    for key in [key for key, fits in of_kind.items() if key in raw and not fits]:
        problem = f"'{key}' does not apply to kind {kind.name}"
        walk.refuse(problem, expected=f"no {key} key", found=shown(raw[key]), hint="remove it")
    low, high = raw.get("range", SIMILARITY_RANGE)
    applies = {
        "release_lines": positional,
        "range": not kind.has_range or low < high,
        "results_layout": kind.value_type in (LABEL, DISTRIBUTION)
        and raw.get("scale") != "multilabel",
    }
    expected = {"range": "e.g. range: [0, 5]"}
    for key, fits in applies.items():
        if key in raw and not fits:
            problem = MISPLACED[key].format(kind=kind.name)
            walk.refuse(problem, expected=expected.get(key), found=shown(raw[key]))


def _checked_aliases(kind, labels: tuple[str, ...], raw, walk: Walk) -> tuple[tuple[str, str], ...]:
    """The track's ``label_aliases`` as (alias, label) pairs: absent, or alias text -> one of the
    track's labels, on a kind with labels (``track_from_dict`` checks them with the labels)."""
    if raw is None:
        return ()
    if not (kind.has_labels and all(isinstance(alias, str) for alias in raw)):
        walk.refuse(
            "'label_aliases' must map alias texts to labels of a track with labels",
            expected="e.g. label_aliases: {e: entailment, n: neutral}",
            found=repr(raw)[:80],
            hint="quote an alias or label YAML reads as a number or a boolean ('1', 'yes')",
        )
        return ()
    for alias, label in raw.items():
        if label not in labels:
            walk.refuse(
                f"'label_aliases' entry {alias!r} names no label of the track",
                expected="one of " + ", ".join(labels),
                found=repr(label),
                hint="write the label as 'labels' writes it (case counts)",
            )
    return tuple(raw.items())


def _checked_metrics(kind, scale, metrics: tuple[str, ...], walk: Walk) -> tuple[str, ...]:
    """The track's ``metrics``: the kind's defaults when absent, else only metrics that apply to it."""
    scale = scale if kind.has_scale else None
    allowed = kind.applicable_metrics(scale)
    if allowed and not metrics:
        return kind.default_metrics[scale]
    for m in metrics if allowed else ():
        if m not in allowed:
            _refuse_metric(walk, m, (kind.name, scale), allowed)
    return metrics


def _refuse_metric(walk: Walk, name: str, track: tuple, allowed: Sequence[str]) -> None:
    """Refuse metric ``name`` on a track of (kind, scale) ``track`` it does not apply to: the
    (kind, scale) pairs it applies to (its ``applies_to``) and how to change them."""
    metric = METRICS.get(name)
    pairs = ", ".join(map(str, metric.applies_to)) if metric else ""
    found = f"'{name}', which applies to {pairs or 'no kind'}" if metric else f"'{name}'"
    where = f"the registration in {metric.module_file}" if metric else "its registration"
    walk.refuse(
        f"metric '{name}' does not apply to this track, of (kind, scale) {track}",
        expected=" | ".join(allowed),
        found=found,
        hint=f"name one of the metrics expected; or, if '{name}' suits this track, add {track} "
        f"to applies_to in {where}",
    )


def tracks_from_list(raw: Sequence[dict], where: str = "tracks") -> list[Track]:
    if not isinstance(raw, list) or not raw:
        raise ConfigError.single(where, "'tracks' must be a non-empty list", found=repr(raw)[:80])
    walk = Walk(where)
    placed: dict[int, Track] = {}
    for i, item in enumerate(raw):
        try:
            placed[i] = track_from_dict(item, f"{where}[{i}]")
        except ConfigError as e:
            walk.problems.extend(e.problems)
    tracks = list(placed.values())
    seen: set[str] = set()
    for t in tracks:
        if t.id in seen:
            walk.refuse(f"track id '{t.id}' is declared twice")
        seen.add(t.id)
    _check_shared_names(tracks, walk)
    _check_own_names_unclaimed(placed, walk)
    walk.raise_if_any()
    return tracks


def _check_shared_names(tracks: list[Track], walk: Walk) -> None:
    """Refuse a name in a track's ``files`` that matches one in another's (either read as a file
    name) unless one file so named can hold both tracks' values (``_holds_both``): else such a file
    is read by both tracks, and one of them refuses it."""
    for i, first in enumerate(tracks):
        for second in tracks[i + 1 :]:
            for name, other in product(first.file_names[1:], second.file_names[1:]):
                if _overlap(name, other) and not _holds_both(first, second, name, other):
                    shown_names = repr(name) if name == other else f"{name!r} and {other!r}"
                    walk.refuse(
                        f"file name {shown_names} is claimed by tracks '{first.id}' and "
                        f"'{second.id}'",
                        expected="a name of its own per track (two share one only for the "
                        "same values, or a document holding both tracks' values: ChaosNLI's, "
                        "named *.json, or their one 'results_layout')",
                        found=f"{shown_names} in their 'files'",
                        hint="a line ID<TAB>VALUE holds one value, so one track would refuse every "
                        f"such file: give each track a name of its own ({first.id}.tsv and "
                        f"{second.id}.tsv are accepted without 'files')",
                    )


def _overlap(name: str, other: str) -> bool:
    """Whether two file names or patterns may claim one file: one matches the other (any case)."""
    name, other = name.lower(), other.lower()
    return fnmatchcase(name, other) or fnmatchcase(other, name)


def _holds_both(first: Track, second: Track, name: str, other: str) -> bool:
    """Whether one file claimed by both tracks' names can hold both tracks' values: tracks of one
    dataset and of one kind (the same values: two metrics' tracks), or of different kinds reading a
    ChaosNLI document (the kit takes one under a *.json name: ``formats.archive``) or their one
    ``results_layout`` (a hard label and probabilities)."""
    if first.dataset != second.dataset:
        return False
    if kinds.of(first) is kinds.of(second):
        return True
    documents = name.lower().endswith(".json") and other.lower().endswith(".json")
    layout = first.results_layout
    return documents or (layout is not None and layout == second.results_layout)


def _check_own_names_unclaimed(placed: dict[int, Track], walk: Walk) -> None:
    """Refuse a name in a track's ``files`` that matches another track's own file name ``<id>.tsv``:
    a submission of both tracks' own files would give the first track twice."""
    for i, track in placed.items():
        for pattern in track.file_names[1:]:
            for other in placed.values():
                own = other.file_names[0]
                if other.id != track.id and _overlap(own, pattern):
                    Walk(f"{walk.display}[{i}] '{track.id}'", walk.problems).add(
                        "files",
                        f"{pattern!r} accepts {own}, the own file name of track '{other.id}'",
                        expected="names accepting no other track's own file name (<id>.tsv)",
                        found=pattern,
                        hint="choose another name; for one document holding both tracks' values, "
                        f"list a name such as {track.dataset}*.json (ChaosNLI's) under both "
                        "tracks' 'files'",
                    )


def dataset_label_tracks(tracks: Sequence[Track], dataset: str) -> tuple[Track, ...]:
    """The tracks of ``dataset`` with labels, those whose gold is the majority ``label`` first: each
    reads the items' annotations through its own label set (docs/labels.md), and an item's majority
    ``label`` is taken in the first's."""
    labelled = [t for t in tracks if t.dataset == dataset and t.labels]
    readers = [t for t in labelled if "label" in kinds.of(t).gold_fields]
    return tuple(readers + [t for t in labelled if t not in readers])
