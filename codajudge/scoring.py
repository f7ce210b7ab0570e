"""The scoring engine: gold and a submission folder in, per-track scores and warnings out.

Primary score policy (``spec.PrimaryRule``, the edition's ``primary_score``): the mean, over the
edition's primary tracks, of each track's main metric (``mean: normalised``: each first mapped to 0..1
by its metric's range on the track). A primary track the submission does not cover counts, by
``missing``, as its metric's worst possible value (``worst``, the default: 0 for correlations would
reward skipping a negative track, so the worst of the range is used: -1 for Pearson, 0 for accuracy,
the upper bound for distances), as a baseline's score on the same phase (``baseline NAME``), or
leaves the run without a primary score (``unranked``; scores.json still gets the worst value, so that
the leaderboard sorts the run last). The primary score is always a finite number.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from collections.abc import Iterable, Sequence

import numpy as np

from .errors import ConfigError, FileRefusals, SubmissionError
from .formats import archive
from .formats.coverage import OtherPhases, other_phase_ids, test_submission_warning
from .formats.items import read_item_columns
from .formats.submission import ItemKeys, Prediction, read_prediction
from .formats.textfile import safe_display
from .gold import GoldTrack, gold_fields, gold_from_columns
from .metrics import PerAnnotator, get as get_metric
from .spec import BASELINE, CODE_NOT_RUN, MODEL_FILE, RESULTS_ONLY, SCORING_ONLY, UNRANKED, TaskSpec
from .tracks import PRIMARY_KEY, Track, score_key


@dataclass
class TrackResult:
    track: Track
    scores: dict[str, float]
    file: str
    warnings: list[str] = field(default_factory=list)
    stats: dict[str, np.ndarray] = field(default_factory=dict)  # metric -> per-item statistics
    gold: GoldTrack | None = None
    prediction: Prediction | None = None


@dataclass
class Result:
    spec: TaskSpec
    #: track id -> its result, in the edition's track order
    tracks: dict[str, TrackResult]
    primary: float
    warnings: list[str] = field(default_factory=list)
    #: primary track id -> what stood in for it (the run did not submit it), e.g. "worst value"
    stand_ins: dict[str, str] = field(default_factory=dict)
    #: False when the edition's rule is ``unranked`` and a primary track is missing
    ranked: bool = True

    def scores(self) -> dict[str, float]:
        """The flat scores.json mapping: the primary score, then every covered track's metrics."""
        tracks = self.tracks.values()
        by_track = {score_key(tr.track.id, m): v for tr in tracks for m, v in tr.scores.items()}
        return {PRIMARY_KEY: self.primary, **by_track}


def load_gold(
    spec: TaskSpec, ref_dir: Path, track_ids: Iterable[str] | None = None
) -> dict[str, GoldTrack]:
    """Gold of every track (or only of ``track_ids``), reading each dataset file needed once, and of
    it only the columns those tracks score, and the items' texts where the phase's gold is public
    (for the worst items on the results page; reference data may leave them out)."""
    tracks = [t for t in spec.tracks if track_ids is None or t.id in set(track_ids)]
    gold: dict[str, GoldTrack] = {}
    for dataset in dict.fromkeys(t.dataset for t in tracks):
        of_dataset = [t for t in tracks if t.dataset == dataset]
        fields = {name: default for t in of_dataset for name, default in gold_fields(t).items()}
        if not spec.hide_gold:
            fields["texts"] = None
        where = f"reference data {dataset}.jsonl"
        columns = read_item_columns(Path(ref_dir) / f"{dataset}.jsonl", where, fields)
        gold.update((t.id, gold_from_columns(t, columns, where)) for t in of_dataset)
    return {track.id: gold[track.id] for track in tracks}


def read_track_file(
    path: Path, display: str, gold: GoldTrack, phases=None, tracks=(), parts=None
) -> Prediction:
    """``read_prediction`` of ``path`` against the items of ``gold`` (ids, annotators, listed names);
    ``phases``: ``coverage.other_phase_ids`` of the reference data, to name a file of another phase's ids;
    ``tracks``: the edition's, to name a file of another track's values; ``parts``: dataset -> (ids,
    file name or None) of the phase's datasets (``archive.phase_parts``), to name a stray id of
    another part."""
    elsewhere = OtherPhases(gold.track, phases, parts)
    keys = ItemKeys(gold.ids, gold.annotators, gold.listed, elsewhere, tracks)
    return read_prediction(path, display, gold.track, keys)


def scored_subset(gold: GoldTrack, pred_values) -> tuple[object, object, np.ndarray | None]:
    """What a track's metrics score: the gold and predicted values of the items that have gold, and
    the mask of the per-item statistics to keep (None: every item's).

    Array kinds are cut before the metric (a missing classification label is -1); per-annotator
    rows are cut after, by dropping the per-item statistics of items without annotations.
    """
    if isinstance(gold.gold, PerAnnotator):
        return gold.gold, pred_values, gold.scored
    return gold.gold[gold.scored], pred_values[gold.scored], None


def score_track(gold: GoldTrack, prediction: Prediction, file: str) -> TrackResult:
    scored = scored_subset(gold, prediction.values)
    on_track = {"track": gold.track.id, "n_labels": len(gold.track.labels)}
    by_metric = {m: get_metric(m).score(*scored, **on_track) for m in gold.track.metrics}
    warnings = list(prediction.warnings)
    warnings += [f"{get_metric(m).title}: {v.warning}" for m, v in by_metric.items() if v.warning]
    scores = {name: value.value for name, value in by_metric.items()}
    stats = {name: value.stats for name, value in by_metric.items()}
    return TrackResult(gold.track, scores, file, warnings, stats, gold, prediction)


def agreement(result: TrackResult) -> float | None:
    """The share of a track's scored items whose predicted label is the gold's, for a kind with one
    label an item (a 1-D array of each); else None."""
    gold, prediction = result.gold, result.prediction
    if gold is None or prediction is None or isinstance(gold.gold, PerAnnotator):
        return None
    truth, values = scored_subset(gold, prediction.values)[:2]
    same_shape = isinstance(truth, np.ndarray) and np.shape(values) == truth.shape
    if not same_shape or truth.ndim != 1 or not len(truth):
        return None
    return float(np.mean(np.asarray(values) == truth))


def primary_score(
    spec: TaskSpec, results: dict[str, TrackResult]
) -> tuple[float, dict[str, str], bool]:
    """The primary score of ``results`` by the spec's ``PrimaryRule`` (see the module docstring),
    what stood in for each missing primary track, and whether the run ranks."""
    values, stand_ins = [], {}
    for t in spec.primary_tracks:
        if t.id in results:
            value = results[t.id].scores[t.main_metric]
        else:
            value, stand_ins[t.id] = stand_in(spec, t)
        values.append(as_counted(spec, t, value))
    ranked = not stand_ins or spec.primary_rule.missing != UNRANKED
    # the worst score there is (``stand_in`` under unranked: each track's worst value), so that the
    # leaderboard sorts the run last
    if not ranked:
        values = [as_counted(spec, t, stand_in(spec, t)[0]) for t in spec.primary_tracks]
    return float(np.mean(values)), stand_ins, ranked


def as_counted(spec: TaskSpec, track: Track, value: float) -> float:
    """A primary track's main metric as the primary score's mean counts it: as it is, or with
    ``mean: normalised`` mapped to 0..1 by the metric's range on the track (direction kept: 0 is
    the range's lower end)."""
    if not spec.primary_rule.normalised:
        return value
    lower, upper = get_metric(track.main_metric).bounds(len(track.labels))
    return (value - lower) / (upper - lower)


def stand_in(spec: TaskSpec, track: Track):
    """(value, what it is) that counts for a primary ``track`` a run did not submit."""
    rule = spec.primary_rule
    if rule.missing == BASELINE and track.id in rule.baseline_scores:
        return rule.baseline_scores[track.id], f"baseline {rule.baseline}'s score"
    if rule.missing == BASELINE:
        raise ConfigError.single(
            "reference data task.json: primary_score",
            f"no score of baseline {rule.baseline} for track {track.id}",
            hint="rebuild the bundle with build_bundle.py, which writes the baseline's scores",
        )
    return get_metric(track.main_metric).worst(len(track.labels)), "worst value"


def ingested_track_files(res_dir: Path, spec: TaskSpec, declared: list[str]):
    """The files the ingestion program wrote: ``<track>.tsv`` at the root for each declared track.

    The worker may also copy a result submission's own files into the prediction output; only the
    ingestion program's checked copies are scored. A declared file that is missing means the
    prediction output is partial, which is refused; one that is not a regular file (a link to
    anywhere) is refused as the prediction file of a result submission is, and never opened.
    """
    folder = Path(res_dir)
    known = {t.id for t in spec.tracks}
    unknown = [t for t in declared if t not in known]
    missing = [t for t in declared if t in known and not os.path.lexists(folder / f"{t}.tsv")]
    if unknown or missing:
        raise SubmissionError.single(
            "prediction step",
            "the prediction output is incomplete",
            expected="a file for every track the ingestion program reported",
            found=f"missing {', '.join(f'{t}.tsv' for t in missing) or 'none'}; "
            f"unknown tracks {', '.join(unknown) or 'none'}",
            hint="the prediction step was probably interrupted; submit again",
        )
    files = {track: PurePosixPath(f"{track}.tsv") for track in declared}
    for relative in files.values():
        archive.refuse_irregular(relative, archive.entry_kind(folder / relative))
    return archive.FoundFiles(spec.tracks, files, [], [])


def score_folder(
    spec: TaskSpec,
    ref_dir: Path,
    res_dir: Path,
    ingested: list[str] | None = None,
    gold: dict[str, GoldTrack] | None = None,
    names: dict[str, str] | None = None,
) -> Result:
    """Score every track file found in ``res_dir`` against the gold in ``ref_dir``.

    ``ingested`` lists the tracks the ingestion program reported writing; then only its files count.
    Only the gold of the tracks found is read (every track's where a part taking ChaosNLI documents
    has no file: ``archive.phase_parts``), unless ``gold`` (``load_gold`` of every track, as the
    ranking tool loads it once for all submissions) is given. ``names``: track id -> the file's name as
    the participant wrote it, shown instead of the ingested copy's ``<track_id>.tsv``.
    """

    def ids_of(dataset: str) -> Sequence[str]:
        nonlocal gold  # every track's gold, for documents claimed by their ids or a part with no file
        if not any(g.track.dataset == dataset for g in (gold or {}).values()):
            gold = load_gold(spec, ref_dir)
        return next(g.ids for g in gold.values() if g.track.dataset == dataset)

    refusals, phases = FileRefusals(), other_phase_ids(ref_dir)
    if ingested is not None:
        found = ingested_track_files(res_dir, spec, ingested)
        model_notes = []  # the ingestion program noted them
    else:
        found = archive.find_track_files(res_dir, spec.tracks, ids_of, phases)
        # read as results here: a model.py the ingestion program would not run either is noted
        entries = [relative for relative, _ in archive.walk_entries(Path(res_dir))]
        model_notes = archive.models_not_run(entries, spec.tracks)
    holds_code = any(PurePosixPath(name).name == MODEL_FILE for name in found.unclaimed)
    code_hint = ""  # a code submission where prediction files are scored: how to get them
    if holds_code:
        code_hint = RESULTS_ONLY if spec.extra.get(SCORING_ONLY) is True else CODE_NOT_RUN
    found.refuse_if_none("submission", hint=code_hint)
    files = found.files
    gold = gold or load_gold(spec, ref_dir, files)
    shown = {track: (names or {}).get(track, str(relative)) for track, relative in files.items()}
    found.refuse_meant({track: safe_display(name) for track, name in shown.items()})
    parts = archive.phase_parts(spec.tracks, shown, ids_of)
    results: dict[str, TrackResult] = {}
    for track in (t for t in spec.tracks if t.id in files):
        name = shown[track.id]
        path = Path(res_dir) / files[track.id]
        prediction = refusals.attempt(
            read_track_file, path, name, gold[track.id], phases, spec.tracks, parts
        )
        if prediction is None:
            continue
        results[track.id] = score_track(gold[track.id], prediction, safe_display(name))
        labels = len(track.labels)
        foreign = test_submission_warning(
            name, gold[track.id].ids, agreement(results[track.id]), labels
        )
        if foreign:
            results[track.id].warnings.append(foreign)
    refusals.raise_if_any()
    missing = [t.id for t in spec.tracks if t.id not in results]
    warnings = found.ignored_notes({track: safe_display(name) for track, name in shown.items()})
    warnings += model_notes
    if missing:  # the tracks the run did not submit, then what stood in for the primary ones
        warnings.append("tracks not covered by this submission: " + ", ".join(missing))
    primary, stand_ins, ranked = primary_score(spec, results)
    if stand_ins:
        warnings.append(spec.primary_rule.missing_note(stand_ins))
    return Result(spec, results, primary, warnings, stand_ins, ranked)
