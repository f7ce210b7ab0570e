"""The results page bounds its bootstrap: a large track gets fewer resamples (and says so, with the
signature that reproduces them), a huge one none; small tracks keep the requested number."""

import re
from types import SimpleNamespace

import numpy as np

from codajudge import report
from codajudge.metrics import get as get_metric
from codajudge.stats.bootstrap import signature_text, track_intervals
from codajudge.tracks import track_from_dict


def test_page_resamples_fit_the_draw_budget():
    budget, minimum = report.PAGE_DRAWS, report.PAGE_MIN_RESAMPLES
    assert report.page_resamples(1000, 300) == 1000
    assert report.page_resamples(1000, budget // 1000) == 1000
    assert report.page_resamples(1000, budget // 250) == 250
    assert report.page_resamples(1000, budget // minimum) == minimum
    assert report.page_resamples(1000, budget // minimum + 1) == 0
    assert report.page_resamples(0, 10**9) == 0
    for n in (1, 999, 54321, 10**6):
        used = report.page_resamples(1000, n)
        assert used * n <= budget and used in (0, 1000) or minimum <= used < 1000


def _track_result(n: int):
    rng = np.random.default_rng(n)
    gold = rng.integers(0, 2, n)
    pred = np.where(rng.random(n) < 0.8, gold, 1 - gold)
    metric = get_metric("accuracy")
    track = track_from_dict(
        {"id": "t", "kind": "classification", "dataset": "d", "labels": ["0", "1"]}
    )
    value = metric.score(gold, pred)
    return SimpleNamespace(
        track=track,
        gold=SimpleNamespace(n_scored=n),
        stats={"accuracy": value.stats},
        scores={"accuracy": value.value},
    )


def _page():
    """The spec of a public-gold page asking for 1,000 resamples with seed 7."""
    extra = {"bootstrap_resamples": 1000}
    return SimpleNamespace(hide_gold=False, extra=extra, seed=7, phase="practice")


def test_the_page_says_how_many_resamples_it_used(monkeypatch):
    """(Phases with public gold: a hidden-gold page has no interval, see test_hidden_gold.py.)"""
    monkeypatch.setattr(report, "PAGE_DRAWS", 400 * 500)
    tr = _track_result(500)
    page = report._score_table(tr, _page(), {})
    assert "400 resamples, not 1000" in page and signature_text(400, 7) in page
    interval = track_intervals(tr, 400, 7)["accuracy"]
    assert f"[{interval.low:.4f}, {interval.high:.4f}]" in page
    small = report._score_table(_track_result(200), _page(), {})
    assert signature_text(1000, 7) in small and "not 1000" not in small


def test_a_track_too_large_for_the_minimum_gets_no_interval(monkeypatch):
    monkeypatch.setattr(report, "PAGE_DRAWS", report.PAGE_MIN_RESAMPLES * 500 - 1)
    page = report._score_table(_track_result(500), _page(), {})
    assert "No interval" in page and signature_text(1000, 7) in page
    assert not re.search(r"\[\d\.\d{4}, \d\.\d{4}\]", page)
