"""The benchmark's parts, at a tiny size (the benchmark itself, benchmarks/run.py, is not a test):
its synthetic phases score, its per-item loops compute the kit's metrics, its targets are checked."""

import math

import pytest

from benchmarks import cases, floor, loops, report, synth
from judgekit.formats.items import read_items
from judgekit.formats.submission import read_prediction
from judgekit.gold import build_gold
from judgekit.scoring import score_folder
from judgekit.spec import read_spec

KINDS = sorted(cases.BOOTSTRAP)


@pytest.mark.parametrize("name", KINDS)
def test_synthetic_phases_score_and_loops_agree_with_the_kit(name, tmp_path):
    track = synth.TrackCase({"id": "t", "dataset": "d", **cases.BOOTSTRAP[name]}, 300,
                            n_annotators=0 if name == "similarity" else 5, pool=12)
    cases.write_phase(tmp_path, track)
    spec = read_spec(tmp_path / "ref")
    result = score_folder(spec, tmp_path / "ref", tmp_path / "res")
    scores = result.tracks["t"].scores
    assert set(scores) == set(spec.tracks[0].metrics) and all(math.isfinite(v) for v in scores.values())
    assert floor.read_phase(tmp_path / "ref", tmp_path / "res", spec.tracks) == 300
    gold = build_gold(spec.tracks[0], read_items(tmp_path / "ref" / "d.jsonl"), "gold")
    pred = read_prediction(tmp_path / "res" / "t.tsv", "t.tsv", gold)
    for metric in spec.tracks[0].metrics:
        if metric in loops.LEWIDI_METRICS:
            (g, p), extra = loops.as_lists(metric, gold.gold, pred.values)
            assert loops.loop_metric(metric)(g, p, **extra) == pytest.approx(scores[metric], abs=1e-9)


def test_positional_submissions_are_read_as_positional(tmp_path):
    track = synth.TrackCase({"id": "sts", "kind": "similarity", "dataset": "sts"}, 200)
    cases.write_phase(tmp_path, track, positional=True)
    spec = read_spec(tmp_path / "ref")
    result = score_folder(spec, tmp_path / "ref", tmp_path / "res")
    assert result.tracks["sts"].prediction.format == "positional"
    assert 0.5 < result.tracks["sts"].scores["pearson"] < 1.0


def test_every_missed_target_is_reported():
    good = {"case": "c", "items": 1, "seconds": 1.0, "peak_mb": 100.0, "floor_ratio": 2.0,
            "loop_ratios": {"amd": 30.0}, "bootstrap_ratio": 3.0, "throughput_ratio": 0.1}
    assert report.check_targets([good], 100.0) == []
    bad = dict(good, peak_mb=2000.0, floor_ratio=2.6, loop_ratios={"amd": 19.0}, bootstrap_ratio=25.0,
               throughput_ratio=0.02)
    misses = report.check_targets([bad, {"case": "x", "error": "boom"}], 700.0)
    assert len(misses) == 7
    assert report.check_targets([good], 700.0, complete=False) == []
    assert "| c | 1 |" in report.render_table([good])
