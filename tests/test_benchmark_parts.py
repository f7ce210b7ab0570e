"""The benchmark's parts, at a tiny size (the benchmark itself, benchmarks/run.py, is not a test):
its synthetic phases score, its per-item loops compute the kit's metrics, its targets are checked."""

import dataclasses
import math
import re

import pytest

from benchmarks import cases, editions, floor, loops, measure, report, synth
from codajudge.formats.items import read_items
from codajudge.scoring import read_track_file
from codajudge.gold import build_gold
from codajudge.scoring import score_folder
from codajudge.spec import read_spec

KINDS = sorted(cases.BOOTSTRAP)


@pytest.mark.parametrize("name", KINDS)
def test_synthetic_phases_score_and_loops_agree_with_the_kit(name, tmp_path):
    track = synth.TrackCase(
        {"id": "t", "dataset": "d", **cases.BOOTSTRAP[name]},
        300,
        n_annotators=0 if name == "similarity" else 5,
        pool=12,
    )
    cases.write_phase(tmp_path, track)
    spec = read_spec(tmp_path / "ref")
    result = score_folder(spec, tmp_path / "ref", tmp_path / "res")
    scores = result.tracks["t"].scores
    assert set(scores) == set(spec.tracks[0].metrics) and all(
        math.isfinite(v) for v in scores.values()
    )
    assert floor.read_phase(tmp_path / "ref", tmp_path / "res") == 300
    gold = build_gold(spec.tracks[0], read_items(tmp_path / "ref" / "d.jsonl", texts=False), "gold")
    pred = read_track_file(tmp_path / "res" / "t.tsv", "t.tsv", gold)
    for metric in spec.tracks[0].metrics:
        if metric in loops.LEWIDI_METRICS:
            (g, p), extra = loops.as_lists(metric, gold.gold, pred.values)
            assert loops.loop_metric(metric)(g, p, **extra) == pytest.approx(
                scores[metric], abs=1e-9
            )


def test_positional_submissions_are_read_as_positional(tmp_path):
    track = synth.TrackCase({"id": "sts", "kind": "similarity", "dataset": "sts"}, 200)
    cases.write_phase(tmp_path, track, positional=True)
    spec = read_spec(tmp_path / "ref")
    result = score_folder(spec, tmp_path / "ref", tmp_path / "res")
    assert result.tracks["sts"].prediction.format == "positional"
    assert 0.5 < result.tracks["sts"].scores["pearson"] < 1.0


def test_every_missed_target_is_reported():
    good = {
        "case": "c",
        "items": 1,
        "seconds": 1.0,
        "peak_mb": 100.0,
        "floor_ratio": 2.0,
        "floor_ratio_max": 2.5,
        "loop_ratios": {"amd": 30.0},
        "bootstrap_ratio": 3.0,
        "throughput_ratio": 0.1,
    }
    assert report.check_targets([good], 100.0) == []
    bad = dict(
        good,
        peak_mb=2000.0,
        floor_ratio=2.6,
        loop_ratios={"amd": 19.0},
        bootstrap_ratio=25.0,
        throughput_ratio=0.02,
    )
    skipped = {"case": "edition e", "skipped": "no release data"}
    misses = report.check_targets([bad, {"case": "x", "error": "boom"}, skipped], 700.0)
    assert len(misses) == 7
    assert report.check_targets([good], 700.0, complete=False) == []
    assert "| c | 1 |" in report.render_table([good])
    assert "skipped: no release data" in report.render_table([skipped])


def test_the_floor_and_the_scorer_are_measured_alike(tmp_path, monkeypatch):
    # one turn each: what is compared, not how steady the least of several turns is
    monkeypatch.setattr(measure, "repeats_for", lambda seconds: 1)
    track = synth.TrackCase({"id": "sts", "kind": "similarity", "dataset": "sts"}, 200)
    cases.write_phase(tmp_path, track, positional=True)
    ref, res = str(tmp_path / "ref"), str(tmp_path / "res")
    scorer, parse = measure.interleaved(
        lambda: measure.run_scorer(tmp_path, tmp_path / "out"),
        lambda: measure.run_program([str(floor.FLOOR_SCRIPT), ref, res], tmp_path / "floor"),
    )
    assert (tmp_path / "out" / "scores.json").is_file()
    assert 0 < parse.cpu_seconds < scorer.cpu_seconds and 0 < parse.peak_mb < scorer.peak_mb

    def failing():
        return measure.run_program([str(floor.FLOOR_SCRIPT), ref, "/absent"], tmp_path / "x")

    with pytest.raises(RuntimeError, match="exit 1"):
        measure.interleaved(failing, failing)


@pytest.mark.parametrize(
    ("metrics", "modules"),
    [
        (["accuracy", "amd"], ["numpy", "yaml"]),
        (["pearson", "spearman"], ["numpy", "yaml"]),
        (["cross_entropy", "accuracy"], ["numpy", "yaml"]),
        (["jsd", "kl", "accuracy"], ["numpy", "yaml", "scipy.special"]),
    ],
)
def test_an_edition_is_set_against_the_imports_its_metrics_need(metrics, modules):
    spec = {"tracks": [{"metrics": metrics[:1]}, {"metrics": metrics[1:]}]}
    assert editions.imports_of(spec) == modules


def test_a_case_may_set_its_own_time_and_memory_targets():
    row = {
        "case": "ranking",
        "items": 1,
        "seconds": 31.0,
        "peak_mb": 650.0,
        "seconds_max": 30.0,
        "peak_mb_max": 600.0,
    }
    misses = report.check_targets([row], 100.0)
    assert misses == ["ranking: peak memory 650 MB >= 600 MB", "ranking: 31.0 s > 30 s"]
    assert report.check_targets([dict(row, seconds=29.0, peak_mb=500.0)], 100.0) == []


def test_the_ranking_case_runs_at_a_tiny_size(tmp_path, monkeypatch):
    from benchmarks import ranking

    monkeypatch.setattr(ranking, "N_SYSTEMS", 4)
    monkeypatch.setattr(ranking, "RESAMPLES", 50)
    monkeypatch.setattr(
        ranking,
        "TRACKS",
        {name: dataclasses.replace(case, n_items=120) for name, case in ranking.TRACKS.items()},
    )
    (row,) = ranking.ranking_case(tmp_path)
    assert (
        row["seconds"] > 0
        and "6 paired tests" not in row["detail"]
        and "24 paired tests" in row["detail"]
    )
    for part in (
        "scoring in 2 processes",
        "ranks with intervals",
        "24 paired tests",
    ):  # wall and CPU of each
        assert re.search(re.escape(part) + r" [0-9.]+ s \(CPU [0-9.]+ s\)", row["detail"]), row[
            "detail"
        ]
    assert 0 < row["peak_mb"] < row["peak_mb_max"]
