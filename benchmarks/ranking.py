"""Organiser ranking: 50 systems x 4 tracks x 10,000 items, scored and tested between all pairs.

The work is what ``rank_submissions.py`` does (read each phase's gold once, score every submission
folder against it, rank each track with statistical ties and intervals), plus a paired test between
every pair of systems on every track with the test ``auto`` picks for the track's main metric, the
bootstrap ones on the track's shared resamples. Reported in three parts: scoring, ranks with
intervals, and the paired tests. Targets: at most 30 s and 600 MB in all.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import List

import numpy as np

from judgekit.programs.rank import score_all
from judgekit.spec import read_spec
from judgekit.stats.paired import choose_test
from judgekit.stats.pairs import TrackTests
from judgekit.stats.ranking import rank_track

from . import synth
from .cases import sized
from .measure import peak_mb, reset_peak

N_SYSTEMS = 50
N_ITEMS = sized(10_000)
SECONDS_MAX = 30.0
PEAK_MB_MAX = 600.0
RESAMPLES = 1000
NLI = list(synth.NLI)
TRACKS = {
    "sts": synth.TrackCase({"id": "sts", "kind": "similarity", "dataset": "sts"}, N_ITEMS),
    "nli": synth.TrackCase({"id": "nli", "kind": "classification", "dataset": "nli", "labels": NLI}, N_ITEMS, 5),
    "nli_soft": synth.TrackCase({"id": "nli_soft", "kind": "soft_label", "scale": "categorical", "dataset": "nli",
                                 "labels": NLI, "primary": False}, N_ITEMS, 5),
    "mp_pe": synth.TrackCase({"id": "mp_pe", "kind": "perspectivist", "scale": "categorical", "dataset": "mp",
                              "labels": ["0", "1"], "primary": False}, N_ITEMS, 10),
}


def write_systems(root: Path) -> None:
    """ref/ with the four tracks' gold and subs/<system>/ with one file per track for 50 systems."""
    items = {}
    for case in TRACKS.values():
        items.setdefault(case.track["dataset"], synth.gold_items(case))
    tracks = [case.as_track() for case in TRACKS.values()]
    synth.write_reference(root / "ref", synth.task_spec(tracks), items)
    for number, noise in enumerate(np.linspace(0.15, 0.6, N_SYSTEMS), start=1):
        folder = root / "subs" / f"system{number:02d}"
        for track, case in zip(tracks, TRACKS.values()):
            data = items[track.dataset]
            values = synth.predictions(case, data, seed=1000 + number, noise=float(noise))
            synth.write_submission(folder, track, data, values)


def all_pair_tests(spec, results) -> int:
    """Every pair of systems tested on every track with the test ``auto`` picks, each system against
    all that follow it at once (``TrackTests``: bootstrap tests on the track's shared resamples)."""
    tests = 0
    for track in spec.tracks:
        test, _ = choose_test(track.main_metric, "auto")
        submitted = {name: r.tracks[track.id] for name, r in results.items()}
        pairs = TrackTests(test, track.main_metric, submitted, RESAMPLES, spec.seed)
        names = sorted(submitted)
        for k, leader in enumerate(names):
            tests += len(pairs.against(leader, names[k + 1:]))
    return tests


def ranking_case(workdir: Path) -> List[dict]:
    root = workdir / "ranking"
    write_systems(root)
    spec = read_spec(root / "ref")
    submissions = sorted((p.name, p) for p in (root / "subs").iterdir())
    reset_peak()
    started = time.perf_counter()
    results, failures = score_all(submissions, spec, root / "ref")
    scored = time.perf_counter()
    if failures:
        raise RuntimeError(f"synthetic submissions were refused: {failures[:2]}")
    for track in spec.tracks:
        rank_track(track, results, "auto", 0.05, RESAMPLES, spec.seed)
    ranked = time.perf_counter()
    tests = all_pair_tests(spec, results)
    finished = time.perf_counter()
    return [{"case": "ranking 50 systems x 4 tracks", "items": N_ITEMS, "seconds": finished - started,
             "peak_mb": peak_mb(), "seconds_max": SECONDS_MAX, "peak_mb_max": PEAK_MB_MAX,
             "detail": f"scoring {scored - started:.1f} s, ranks with intervals {ranked - scored:.1f} s, "
                       f"{tests} paired tests {finished - ranked:.1f} s"}]
