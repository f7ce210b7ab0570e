"""The benchmark's cases. Each runs in a fresh worker process and returns one or more result rows.

A row is a dict: ``case``, ``items``, ``seconds`` (the measured work), ``peak_mb``, and where they
apply ``floor_seconds`` / ``floor_ratio``, ``loop_ratios`` (metric -> ratio), ``bootstrap_ratio``,
``throughput`` and a free-text ``detail``.
"""

import math
import os
import shutil
from pathlib import Path
from typing import Callable

from codajudge.formats.items import read_items
from codajudge.scoring import read_track_file
from codajudge.gold import build_gold
from codajudge.metrics import get as get_metric
from codajudge.scoring import score_folder
from codajudge.spec import read_spec
from codajudge.stats.bootstrap import track_intervals

from . import floor, loops, synth
from .measure import best_of, interleaved, peak_mb, reset_peak, run_program, run_scorer

CSC_6 = [str(v) for v in range(1, 7)]


#: Targets of the 1,000,000-pair similarity cases (the reference holds no texts): peak memory (MB)
#: and the scoring program's CPU time over the parse floor's.
SIMILARITY_PEAK_MB_MAX = 600.0
SIMILARITY_FLOOR_RATIO_MAX = 3.0

#: ``--scale`` of run.py: a fraction of the documented sizes, for a quick look (targets still apply).
SCALE = float(os.environ.get("CODAJUDGE_BENCH_SCALE", "1"))


def sized(n_items: int) -> int:
    return max(100, int(n_items * SCALE))


def _case(track: dict, n_items: int, n_annotators: int = 0, **kw) -> synth.TrackCase:
    return synth.TrackCase(track=track, n_items=sized(n_items), n_annotators=n_annotators, **kw)


SCORING = {
    "similarity_positional": (
        _case({"id": "sts", "kind": "similarity", "dataset": "sts"}, 1_000_000),
        True,
    ),
    "similarity_id_tab": (
        _case({"id": "sts", "kind": "similarity", "dataset": "sts"}, 1_000_000),
        False,
    ),
}

BOOTSTRAP = {
    "similarity": {"kind": "similarity"},
    "classification": {"kind": "classification", "labels": list(synth.NLI)},
    "soft_categorical": {"kind": "soft_label", "scale": "categorical", "labels": list(synth.NLI)},
    "soft_ordinal": {"kind": "soft_label", "scale": "ordinal", "labels": CSC_6},
    "soft_multilabel": {"kind": "soft_label", "scale": "multilabel", "labels": list(synth.NLI)},
    "perspectivist_categorical": {
        "kind": "perspectivist",
        "scale": "categorical",
        "labels": list(synth.NLI),
    },
    "perspectivist_ordinal": {"kind": "perspectivist", "scale": "ordinal", "labels": CSC_6},
    "perspectivist_multilabel": {
        "kind": "perspectivist",
        "scale": "multilabel",
        "labels": list(synth.NLI),
    },
}


def write_phase(root: Path, case: synth.TrackCase, positional: bool = False, noise: float = 0.3):
    """root/ref (task.json + gold) and root/res (one submission) for a one-track phase."""
    track = case.as_track()
    items = synth.gold_items(case)
    synth.write_reference(root / "ref", synth.task_spec([track]), {track.dataset: items})
    synth.write_submission(
        root / "res", track, items, synth.predictions(case, items, noise=noise), positional
    )
    return track


def loop_ratios(track, ref: Path, res: Path) -> dict[str, float]:
    """Per LeWiDi metric of the track: per-item loop time over the kit's time, on the same data."""
    out = {}
    gold = build_gold(track, read_items(ref / f"{track.dataset}.jsonl", texts=False), "gold")
    pred = read_track_file(res / f"{track.id}.tsv", f"{track.id}.tsv", gold)
    for name in track.metrics:
        if name not in loops.LEWIDI_METRICS:
            continue
        metric = get_metric(name)
        kit_seconds, kit_value = best_of(5, lambda: metric.score(gold.gold, pred.values).value)
        (g, p), extra = loops.as_lists(name, gold.gold, pred.values)
        loop_seconds, loop_value = best_of(3, lambda: loops.loop_metric(name)(g, p, **extra))
        if not math.isclose(loop_value, kit_value, abs_tol=1e-9):
            raise AssertionError(f"{name}: the loop gives {loop_value!r}, the kit {kit_value!r}")
        out[name] = loop_seconds / kit_seconds
    return out


def scoring_case(name: str, workdir: Path) -> list[dict]:
    """The scoring program end to end against the parse floor on one big track, both programs run
    in fresh interpreters and compared by CPU time (user + system)."""
    case, positional = SCORING[name]
    root = workdir / name
    write_phase(root, case, positional)
    ref, res = str(root / "ref"), str(root / "res")
    run, parse = interleaved(
        lambda: run_scorer(root, root / "out"),
        lambda: run_program([str(floor.FLOOR_SCRIPT), ref, res], root / "floor"),
    )
    row = {
        "case": f"score {name}",
        "items": case.n_items,
        "seconds": run.cpu_seconds,
        "peak_mb": run.peak_mb,
        "peak_mb_max": SIMILARITY_PEAK_MB_MAX,
        "floor_seconds": parse.cpu_seconds,
        "floor_ratio": run.cpu_seconds / parse.cpu_seconds,
        "floor_ratio_max": SIMILARITY_FLOOR_RATIO_MAX,
        "detail": f"CPU seconds; wall {run.seconds:.2f} s, floor wall {parse.seconds:.2f} s",
    }
    shutil.rmtree(root, ignore_errors=True)
    return [row]


def bootstrap_case(workdir: Path) -> list[dict]:
    """1,000 resamples of a 100,000-item track against scoring it once, for every kind and scale."""
    rows = []
    for name, settings in BOOTSTRAP.items():
        track = {"id": "t", "dataset": "d", **settings}
        case = _case(track, 100_000, 5 if settings["kind"] != "similarity" else 0, pool=50)
        root = workdir / f"bootstrap-{name}"
        write_phase(root, case)
        spec = read_spec(root / "ref")
        reset_peak()
        score_seconds, result = best_of(2, lambda: score_folder(spec, root / "ref", root / "res"))
        tr = result.tracks["t"]
        boot_seconds, intervals = best_of(1, lambda: track_intervals(tr, 1000, spec.seed))
        assert set(intervals) == set(tr.scores), "every metric has an interval"
        rows.append(
            {
                "case": f"bootstrap {name}",
                "items": case.n_items,
                "seconds": boot_seconds,
                "peak_mb": peak_mb(),
                "score_seconds": score_seconds,
                "bootstrap_ratio": boot_seconds / score_seconds,
                "loop_ratios": loop_ratios(case.as_track(), root / "ref", root / "res"),
                "detail": ", ".join(tr.track.metrics),
            }
        )
        shutil.rmtree(root, ignore_errors=True)
    return rows


CASES: dict[str, Callable[[Path], list[dict]]] = {
    **{
        f"score_{name}": (lambda workdir, name=name: scoring_case(name, workdir))
        for name in SCORING
    },
    "bootstrap": bootstrap_case,
}


def lazy_cases() -> dict[str, Callable[[Path], list[dict]]]:
    """Every case, including those defined in other modules (imported when asked for)."""
    from .editions import EDITIONS, edition_case
    from .ranking import ranking_case
    from .throughput import cosine_case

    per_edition = {
        f"edition_{name}": (lambda workdir, name=name: edition_case(name, workdir))
        for name in EDITIONS
    }
    return {**per_edition, **CASES, "ranking": ranking_case, "cosine": cosine_case}
