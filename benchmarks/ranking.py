"""Organiser ranking: 50 systems x 4 tracks x 10,000 items, scored and tested between all pairs.

The work is what ``rank_submissions.py`` does (read each phase's gold once, score every submission
folder against it, rank each track with statistical ties and intervals), plus a paired test between
every pair of systems on every track with the test ``auto`` picks for the track's main metric, the
bootstrap ones on the track's shared resamples. Reported in three parts, wall and CPU seconds each:
scoring (in two processes), ranks with intervals, and the paired tests. Targets: at most 30 s and
600 MB in all (every process, shared pages counted once: ``MemorySampler``).
"""

import os
import resource
import threading
import time
from pathlib import Path

import numpy as np

from codajudge.programs.rank import score_all
from codajudge.spec import read_spec
from codajudge.stats.paired import TrackTests, choose_test, shared_resamples
from codajudge.stats.ranking import rank_track
from codajudge.stats.tables import Settings

from . import synth
from .cases import sized
from .measure import peak_mb, reset_peak

N_SYSTEMS = 50
N_ITEMS = sized(10_000)
SECONDS_MAX = 30.0
PEAK_MB_MAX = 600.0
RESAMPLES = 1000
JOBS = 2  # scoring processes: the benchmark's machine has 2 cores
NLI = list(synth.NLI)
TRACKS = {
    "sts": synth.TrackCase({"id": "sts", "kind": "similarity", "dataset": "sts"}, N_ITEMS),
    "nli": synth.TrackCase(
        {"id": "nli", "kind": "classification", "dataset": "nli", "labels": NLI}, N_ITEMS, 5
    ),
    "nli_soft": synth.TrackCase(
        {
            "id": "nli_soft",
            "kind": "soft_label",
            "scale": "categorical",
            "dataset": "nli",
            "labels": NLI,
            "primary": False,
        },
        N_ITEMS,
        5,
    ),
    "mp_pe": synth.TrackCase(
        {
            "id": "mp_pe",
            "kind": "perspectivist",
            "scale": "categorical",
            "dataset": "mp",
            "labels": ["0", "1"],
            "primary": False,
        },
        N_ITEMS,
        10,
    ),
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
    """Every pair of systems tested on every track with the test ``auto`` picks (``TrackTests``:
    bootstrap tests on the track's shared resamples)."""
    tests = 0
    for track in spec.tracks:
        test, _ = choose_test(track.main_metric, "auto")
        submitted = {name: r.tracks[track.id] for name, r in results.items()}
        raws = shared_resamples(track.main_metric, submitted, RESAMPLES, spec.seed)
        pairs = TrackTests(test, track.main_metric, submitted, raws)
        names = sorted(submitted)
        for k, leader in enumerate(names):
            tests += len([pairs.pair(leader, other).p_value for other in names[k + 1 :]])
    return tests


class Clock:
    """Wall and CPU seconds of consecutive parts (CPU of this process and of its finished children)."""

    def __init__(self):
        self.parts: list[tuple[str, float, float]] = []
        self._last = self._now()

    @staticmethod
    def _now() -> tuple[float, float]:
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return time.perf_counter(), time.process_time() + children.ru_utime + children.ru_stime

    def lap(self, name: str) -> None:
        now = self._now()
        self.parts.append((name, now[0] - self._last[0], now[1] - self._last[1]))
        self._last = now

    def text(self) -> str:
        return ", ".join(f"{name} {wall:.1f} s (CPU {cpu:.1f} s)" for name, wall, cpu in self.parts)


class MemorySampler:
    """The peak, over the work, of this process's and its children's memory (MB), counting each
    shared page once: their proportional set sizes (Linux smaps_rollup) summed every 25 ms, and
    never less than this process's own resident peak. Scoring processes forked from this one share
    its pages, so adding their resident peaks would count those pages again."""

    def __init__(self):
        self.peak = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, peak_mb())

    def _watch(self) -> None:
        while not self._stop.wait(0.025):
            pids = [os.getpid()] + _children(os.getpid())
            self.peak = max(self.peak, sum(_pss_mb(pid) for pid in pids))


def _children(pid: int) -> list[int]:
    found = []
    for children in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            found += [int(c) for c in children.read_text().split()]
        except OSError:
            pass
    return found


def _pss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) / 1024.0
    except (OSError, ValueError):
        pass
    return 0.0


def ranking_case(workdir: Path) -> list[dict]:
    root = workdir / "ranking"
    write_systems(root)
    spec = read_spec(root / "ref")
    submissions = sorted((p.name, p) for p in (root / "subs").iterdir())
    reset_peak()
    clock = Clock()
    with MemorySampler() as memory:
        results, failures = score_all(submissions, spec, root / "ref", jobs=JOBS)
        clock.lap(f"scoring in {JOBS} processes")
        if failures:
            raise RuntimeError(f"synthetic submissions were refused: {failures[:2]}")
        for track in spec.tracks:
            rank_track(track, results, Settings("auto", 0.05, RESAMPLES, spec.seed))
        clock.lap("ranks with intervals")
        tests = all_pair_tests(spec, results)
        clock.lap(f"{tests} paired tests")
    workers_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0
    seconds = sum(wall for _, wall, _ in clock.parts)
    return [
        {
            "case": "ranking 50 systems x 4 tracks",
            "items": N_ITEMS,
            "seconds": seconds,
            "peak_mb": memory.peak,
            "seconds_max": SECONDS_MAX,
            "peak_mb_max": PEAK_MB_MAX,
            "detail": f"{clock.text()}; peak: all processes, shared pages once (largest scoring "
            f"process {workers_mb:.0f} MB resident, with the pages it shares)",
        }
    ]
