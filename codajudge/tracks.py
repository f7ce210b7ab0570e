"""What a track is: its kind, labels or scale, metrics, accepted file names and leaderboard keys.

A track is declared once, in an edition config, and travels with the reference and input data as
``tracks.json`` so that the scoring and ingestion programs need no other configuration.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, fields
from functools import cached_property
from typing import Dict, List, Optional, Sequence, Tuple

from . import kinds
from .kinds.base import DISTRIBUTION, LABEL, SIMILARITY_RANGE
from .labels import LabelSet
from .errors import ConfigError, Refusals, strict_bool

#: Codabench limits a leaderboard column key (and so a scores.json key) to 36 characters.
MAX_KEY_LENGTH = 36
PRIMARY_KEY = "primary"
#: Decimals of every leaderboard column (competition.yaml); a hidden-gold phase shows its scores
#: to this precision and no finer (``report.published_scores``).
PRECISION = 4
TRACK_ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_]*$")
#: Other tasks' submission layouts a track may also read (``results_layout``): LeWiDi 2023's
#: ``<Dataset>_results.tsv``, rows ``hard_label<TAB>p0<TAB>p1`` in item order, no id
#: (``formats.results_tsv``), read by the tracks whose values are a label or a distribution.
RESULTS_LAYOUTS = ("lewidi2023",)
RESULTS_LAYOUT_READINGS = (LABEL, DISTRIBUTION)
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
    scale: Optional[str] = None
    labels: Tuple[str, ...] = ()
    metrics: Tuple[str, ...] = ()
    primary: bool = True
    files: Tuple[str, ...] = ()
    positional: bool = False  # accept the SemEval one-score-per-line format (similarity only)
    #: A positional track's release input lines when only its first items have gold (STS 2017 track 6:
    #: 500 lines, gold for the first 250): a positional file of that many lines is scored on its first ones.
    release_lines: Optional[int] = None
    #: Similarity gold's declared scale (lowest, highest); None means ``kinds.base.SIMILARITY_RANGE``.
    range: Optional[Tuple[float, float]] = None
    #: (alias, label) pairs: other texts naming a label (ChaosNLI's e, n, c), read by ``label_set``.
    label_aliases: Tuple[Tuple[str, str], ...] = ()
    #: How a perspectivist row wider than its item's annotators is scored (``Kind.alignments``);
    #: None: the kind's default.
    annotator_alignment: Optional[str] = None
    #: Another task's submission layout the track also reads (``RESULTS_LAYOUTS``; None: the kit's).
    results_layout: Optional[str] = None

    @property
    def score_range(self) -> Tuple[float, float]:
        """The lowest and highest gold score of a similarity track (higher = more similar)."""
        return self.range if self.range is not None else SIMILARITY_RANGE

    @property
    def main_metric(self) -> str:
        return self.metrics[0]

    @property
    def keys(self) -> List[str]:
        return [score_key(self.id, m) for m in self.metrics]

    @property
    def file_names(self) -> Tuple[str, ...]:
        """Accepted submission file names, the canonical one first."""
        return (f"{self.id}.tsv",) + tuple(f for f in self.files if f != f"{self.id}.tsv")

    @cached_property
    def label_set(self) -> LabelSet:
        """The track's labels under the one label policy (``codajudge.labels``)."""
        return LabelSet(self.labels, dict(self.label_aliases))

    def to_dict(self) -> dict:
        """The track as tracks.json holds it: tuples as lists, the aliases as a mapping, and the
        ``OPTIONAL_KEYS`` left unset absent."""
        d = {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self).items()}
        d["label_aliases"] = dict(self.label_aliases) or None
        return {k: v for k, v in d.items() if v is not None or k not in OPTIONAL_KEYS}


def _as_str_tuple(value, key: str, refusals: Refusals) -> Tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, (list, tuple)) or not all(
        isinstance(v, (str, int, float)) for v in value
    ):
        refusals.add(f"'{key}' must be a list of strings", found=repr(value))
        return ()
    return tuple(str(v) for v in value)


def track_from_dict(raw: dict, where: str = "tracks") -> Track:
    """Build and validate a Track from a config mapping; errors name the key, expected and found."""
    if not isinstance(raw, dict):
        raise ConfigError.single(where, "a track must be a mapping", found=repr(raw))
    refusals = Refusals(where)
    known = {f.name for f in fields(Track)}
    for key in sorted(set(raw) - known):
        refusals.add(f"unknown key '{key}'", expected=", ".join(sorted(known)))
    tid = raw.get("id")
    if not isinstance(tid, str) or not TRACK_ID_PATTERN.match(tid):
        refusals.add("'id' must be lowercase letters, digits and underscores", found=repr(tid))
        tid = str(tid)
    refusals = Refusals(f"{where} '{tid}'", refusals.problems)
    kind = _checked_kind(raw.get("kind"), refusals)
    scale = _checked_scale(kind, raw.get("scale"), refusals)
    labels = _checked_labels(kind, raw.get("labels"), refusals)
    aliases = _checked_aliases(kind, labels, raw.get("label_aliases"), refusals)
    metrics = _checked_metrics(kind, scale, raw.get("metrics"), refusals)
    primary = strict_bool(raw, "primary", True, refusals.where, refusals.problems)
    positional = strict_bool(
        raw, "positional", kind.positional_by_default, refusals.where, refusals.problems
    )
    release_lines = _checked_release_lines(raw.get("release_lines"), positional, refusals)
    track = Track(
        id=tid,
        kind=kind.name,
        dataset=str(raw.get("dataset", tid)),
        title=str(raw.get("title") or tid),
        scale=scale if kind.has_scale else None,
        labels=labels,
        metrics=metrics,
        primary=primary,
        files=_as_str_tuple(raw.get("files"), "files", refusals),
        positional=positional,
        release_lines=release_lines,
        range=_checked_range(kind, raw.get("range"), refusals),
        label_aliases=aliases,
        annotator_alignment=_checked_alignment(kind, raw.get("annotator_alignment"), refusals),
        results_layout=_checked_results_layout(kind, scale, raw.get("results_layout"), refusals),
    )
    if kind.has_labels:
        _check_collisions(track.label_set, refusals)
    for key in track.keys:
        if len(key) > MAX_KEY_LENGTH:
            refusals.add(
                f"leaderboard key '{key}' is longer than {MAX_KEY_LENGTH} characters",
                expected=f"at most {MAX_KEY_LENGTH}",
                found=str(len(key)),
                hint="use a shorter track id",
            )
    if refusals.problems:
        raise ConfigError(refusals.problems)
    return track


def _checked(value, fits: bool, refusals: Refusals, problem: str, expected=None, found=None):
    """``value`` when absent (None) or when it ``fits``; else None, and ``problem`` reported (found:
    the value, unless told)."""
    if value is None or fits:
        return value
    refusals.add(problem, expected=expected, found=found or repr(value)[:80])
    return None


def _checked_release_lines(value, positional: bool, refusals: Refusals) -> Optional[int]:
    """The track's ``release_lines``: absent, or a whole number (at least 2) on a positional track."""
    fits = positional and type(value) is int and value >= 2
    problem = "'release_lines' must be a whole number of lines (at least 2) on a positional track"
    return _checked(value, fits, refusals, problem)


def _checked_results_layout(kind, scale, value, refusals: Refusals):
    """The track's ``results_layout``: absent, or a layout of ``RESULTS_LAYOUTS`` on a track whose
    value is one label or one distribution over its labels."""
    kind_fits = kind.value_type in RESULTS_LAYOUT_READINGS and scale != "multilabel"
    return _checked(
        value,
        value in RESULTS_LAYOUTS and kind_fits,
        refusals,
        "'results_layout' must name a known layout, on a track predicting one label or one "
        "distribution over its labels",
        expected=" | ".join(RESULTS_LAYOUTS),
        found=None if kind_fits else f"{value!r} on a {kind.name} track",
    )


def _checked_kind(name, refusals: Refusals) -> kinds.Kind:
    """The track's ``kind``: one of the registered kinds. An unknown one is reported and checked as
    a kind without labels, scales or metrics, so that the track's other keys are still reported."""
    if name in kinds.REGISTRY:
        return kinds.REGISTRY[name]
    refusals.add("unknown track kind", expected=" | ".join(kinds.NAMES), found=repr(name))
    unknown = kinds.Kind()
    unknown.name = str(name)
    return unknown


def _checked_alignment(kind, value, refusals: Refusals) -> Optional[str]:
    """The track's ``annotator_alignment``: absent, or one of its kind's ``alignments``."""
    return _checked(
        value,
        value in kind.alignments,
        refusals,
        f"'annotator_alignment' must be one of the rules of kind {kind.name}"
        if kind.alignments
        else f"'annotator_alignment' does not apply to kind {kind.name}",
        expected=" | ".join(kind.alignments) or "no annotator_alignment key",
    )


def _checked_range(kind, value, refusals: Refusals):
    """The track's ``range``: absent, or [lowest, highest] numbers on a similarity track."""
    numbers = isinstance(value, (list, tuple)) and len(value) == 2
    numbers = numbers and all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in value
    )
    fits = kind.has_range and numbers and value[0] < value[1]
    problem = "'range' must be [lowest, highest] gold score of a similarity track"
    value = _checked(value, fits, refusals, problem, expected="e.g. range: [0, 5]")
    return value and (float(value[0]), float(value[1]))


def _checked_scale(kind, scale, refusals: Refusals):
    """The track's ``scale``: required for soft-label and perspectivist kinds, refused for the others."""
    if kind.has_scale:
        if scale is None:
            refusals.add(
                f"'scale' is missing: kind {kind.name} needs one",
                expected=" | ".join(kind.scales),
                hint=f"add scale: {kind.scales[0]} (or another of the above) to the track",
            )
        elif scale not in kind.scales:
            refusals.add(
                f"'scale' is required for kind {kind.name}",
                expected=" | ".join(kind.scales),
                found=repr(scale),
            )
    elif scale is not None:
        refusals.add(f"'scale' does not apply to kind {kind.name}", found=repr(scale))
    return scale


def _checked_labels(kind, raw, refusals: Refusals) -> Tuple[str, ...]:
    """The track's ``labels``: at least two, for the kinds that have labels (``_check_collisions``
    refuses two naming one label)."""
    labels = _as_str_tuple(raw, "labels", refusals)
    if kind.has_labels:
        if raw is None:
            refusals.add(
                f"'labels' is missing: kind {kind.name} needs the track's labels",
                expected="two or more labels, quoted, in order",
                hint='add labels: ["LABEL1", "LABEL2", ...] to the track',
            )
        elif len(labels) < 2:
            refusals.add("'labels' must list at least two labels", found=repr(list(labels)))
    return labels


def _checked_aliases(
    kind, labels: Tuple[str, ...], raw, refusals: Refusals
) -> Tuple[Tuple[str, str], ...]:
    """The track's ``label_aliases`` as (alias, label) pairs: absent, or alias text -> one of the
    track's labels, on a kind with labels (``_check_collisions`` checks them with the labels)."""
    if raw is None:
        return ()
    texts = isinstance(raw, dict) and all(
        isinstance(k, str) and isinstance(v, str) for k, v in raw.items()
    )
    if not (kind.has_labels and texts):
        refusals.add(
            "'label_aliases' must map alias texts to labels of a track with labels",
            expected="e.g. label_aliases: {e: entailment, n: neutral}",
            found=repr(raw)[:80],
            hint="quote an alias or label YAML reads as a number or a boolean ('1', 'yes')",
        )
        return ()
    for alias, label in raw.items():
        if label not in labels:
            refusals.add(
                f"'label_aliases' entry {alias!r} names no label of the track",
                expected="one of " + ", ".join(labels),
                found=repr(label),
                hint="write the label as 'labels' writes it (case counts)",
            )
    return tuple(raw.items())


def _check_collisions(labels: LabelSet, refusals: Refusals) -> None:
    """A problem per two labels or aliases that name one label once normalised (``codajudge.labels``),
    a label written twice among them."""
    for first, second in labels.collisions():
        refusals.add(
            "two of 'labels' and 'label_aliases' name one label once normalised",
            expected="names that differ once surrounding spaces are ignored and numbers are "
            "read as values (docs/labels.md)",
            found=f"{first!r} and {second!r} name the same label once normalised",
            hint="remove or rename one of them",
        )


def _checked_metrics(kind, scale, raw, refusals: Refusals) -> Tuple[str, ...]:
    """The track's ``metrics``: the kind's defaults when absent, else only metrics that apply to it."""
    metrics = _as_str_tuple(raw, "metrics", refusals)
    scale = scale if kind.has_scale else None
    allowed = kind.applicable_metrics(scale)
    if allowed and not metrics:
        return kind.default_metrics[scale]
    if allowed:
        for m in metrics:
            if m not in allowed:
                refusals.add(
                    f"metric '{m}' does not apply to this track", expected=" | ".join(allowed)
                )
    return metrics


def tracks_from_list(raw: Sequence[dict], where: str = "tracks") -> List[Track]:
    if not isinstance(raw, list) or not raw:
        raise ConfigError.single(where, "'tracks' must be a non-empty list", found=repr(raw)[:80])
    refusals = Refusals(where)
    tracks: List[Track] = []
    for i, item in enumerate(raw):
        try:
            tracks.append(track_from_dict(item, f"{where}[{i}]"))
        except ConfigError as e:
            refusals.problems.extend(e.problems)
    seen: Dict[str, Track] = {}
    names: Dict[str, str] = {}
    for t in tracks:
        if t.id in seen:
            refusals.add(f"track id '{t.id}' is declared twice")
        seen[t.id] = t
        for name in t.file_names:
            owner = seen.get(names.get(name.lower(), t.id), t)
            # one document may hold each item's value of two tracks of one dataset and of
            # different kinds (ChaosNLI's predictions: the probabilities and the label)
            shared = owner.dataset == t.dataset and kinds.of(owner) is not kinds.of(t)
            if owner.id != t.id and not shared:
                refusals.add(
                    f"file name '{name}' is claimed by tracks '{owner.id}' and '{t.id}'",
                    hint="only tracks of one dataset and of different kinds may share a file "
                    "(a document holding both, such as ChaosNLI's prediction file)",
                )
            names[name.lower()] = t.id
    if refusals.problems:
        raise ConfigError(refusals.problems)
    return tracks


def dataset_label_set(tracks: Sequence[Track], dataset: str) -> Optional[LabelSet]:
    """The label set an item's majority ``label`` of ``dataset`` is taken in: that of the first of its
    tracks whose gold is that label, else of the first with labels; None when none has labels."""
    labelled = [t for t in tracks if t.dataset == dataset and t.labels]
    readers = [t for t in labelled if "label" in kinds.of(t).gold_fields]
    return (readers or labelled)[0].label_set if labelled else None
