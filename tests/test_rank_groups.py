"""Groups of tracks with their own overall table (issue 38): LeWiDi 2025's Task A and Task B, each
ordering runs by their mean rank over the datasets, a dataset's rank accounting for statistical
ties (Wilcoxon signed-rank tests on per-item losses)."""

import csv
import json
import re
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from codajudge.programs.rank import main as rank_main
from codajudge.stats.ranking import (
    GROUP_MEAN_SCORE,
    RankedSystem,
    TrackRanking,
    rank_group,
    rank_track,
)
from codajudge.stats.tables import Settings
from codajudge.tracks import tracks_from_list

N = 60
DATASETS = ("csc", "mp", "par", "ven")
TRACKS = {
    t.id: t
    for t in tracks_from_list(
        [
            {"id": d, "kind": "soft_label", "scale": "ordinal", "labels": ["1", "2", "3"]}
            for d in DATASETS
        ]
    )
}
BASE = 0.5 + 0.01 * np.arange(N)


def _even_odd(size, period=2):
    """A difference of ``size`` whose signs balance exactly (a Wilcoxon p of 1)."""
    signs = np.where((np.arange(N) // (period // 2)) % 2 == 0, 1.0, -1.0)
    return size * signs


#: Per-item losses on each dataset as offsets from BASE: a constant offset of 0.2 or more is a
#: significant difference; two systems whose losses differ by balanced signs are not.
LOSSES = {
    "csc": {"W": 0, "X": 0.2, "L": 0.4, "Y": 0.6, "Z": 0.8, "V": 1.0},
    "mp": {"W": 0, "Y": 0.2, "L": 0.4, "X": 0.6, "Z": 0.8, "V": 1.0},
    "par": {"L": 0, "W": 0.2, "X": 0.2 + _even_odd(0.05), "Y": 0.5, "Z": 0.7, "V": 0.9},
    "ven": {
        "L": 0,
        "W": 0.2,
        "X": 0.2 + _even_odd(0.05),
        "Y": 0.2 + _even_odd(0.03, 4),
        "Z": 0.2 + _even_odd(0.04, 8),
        "V": 0.6,
    },
}


def _results():
    results = {}
    for dataset, systems in LOSSES.items():
        for name, offset in systems.items():
            losses = BASE + offset
            track = SimpleNamespace(
                scores={"awd": float(losses.mean())}, stats={"awd": losses[:, None]}
            )
            results.setdefault(name, SimpleNamespace(tracks={}))
            results[name].tracks[dataset] = track
    return results


def test_the_published_example_mean_tie_aware_rank_1_5_is_first():
    """The LeWiDi 2025 Task B winner: ranks 1, 1, 2 (2-way tie) and 2 (4-way tie), mean 1.5."""
    results = _results()
    rankings = {
        d: rank_track(TRACKS[d], results, Settings("wilcoxon", 0.05, 200, 1)) for d in DATASETS
    }
    ranks = {d: next(r.rank for r in rankings[d].rows if r.system == "W") for d in DATASETS}
    assert ranks == {"csc": 1, "mp": 1, "par": 2, "ven": 2}
    tied = {d: [r.system for r in rankings[d].rows if r.rank == ranks[d]] for d in ("par", "ven")}
    assert sorted(tied["par"]) == ["W", "X"] and sorted(tied["ven"]) == ["W", "X", "Y", "Z"]
    rows = rank_group(list(DATASETS), rankings, sorted(results), {})
    assert [(r.system, r.rank, r.value) for r in rows[:3]] == [
        ("W", 1, 1.5),
        ("L", 2, 2.0),  # 3, 3, 1, 1
        ("X", 3, 2.5),  # 2, 4, 2, 2
    ]


def _ranking(track_id, scores):
    track = TRACKS[track_id]
    rows = [RankedSystem(s, v, k, k == 1) for k, (s, v) in enumerate(scores.items(), start=1)]
    return TrackRanking(track, "awd", "wilcoxon", None, rows)


def test_equal_means_share_a_place_and_a_missing_track_ranks_at_its_stand_in():
    rankings = {
        "csc": _ranking("csc", {"A": 0.1, "B": 0.2, "C": 0.3}),
        "mp": _ranking("mp", {"B": 0.1, "A": 0.2}),
    }
    rows = rank_group(["csc", "mp"], rankings, ["A", "B", "C"], {"mp": 0.15})
    assert [(r.system, r.rank, r.value) for r in rows] == [
        ("A", 1, 1.5),
        ("B", 1, 1.5),
        ("C", 3, 2.5),
    ]
    c = rows[-1]
    assert c.track_ranks == {"csc": 3, "mp": 2} and c.stand_ins == ["mp"]  # 0.15: after B only
    without = rank_group(["csc", "mp"], rankings, ["A", "B", "C"], {})
    assert without[-1].track_ranks["mp"] == 3  # after every system that submitted it
    by_score = rank_group(["csc", "mp"], rankings, ["A", "B", "C"], {}, GROUP_MEAN_SCORE)
    assert [r.system for r in by_score] == ["A", "B", "C"]  # lower distance first


def test_a_stand_in_ranks_with_the_cluster_its_score_falls_in():
    """A stand-in's rank is its cluster's, as a run with that score gets: not one more than the
    systems strictly better, which ignores the ties (0.25 and 0.22 rank 2, with A and D)."""
    ranked = _ranking("csc", {"B": 0.1, "A": 0.2, "D": 0.25, "E": 0.5})
    for row, rank in zip(ranked.rows, (1, 2, 2, 4)):
        row.rank = rank
    ranks = {
        stand_in: rank_group(["csc"], {"csc": ranked}, ["C"], {"csc": stand_in})[0].value
        for stand_in in (0.05, 0.1, 0.22, 0.25, 0.3, 0.6)
    }
    assert ranks == {0.05: 1, 0.1: 1, 0.22: 2, 0.25: 2, 0.3: 4, 0.6: 5}


def _zip(path: Path, files: dict):
    import zipfile

    with zipfile.ZipFile(path, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)


def test_rank_writes_each_group_s_table_in_every_format(tmp_path):
    from codajudge.formats.items import write_items

    rng = np.random.default_rng(5)
    ref, subs, out = tmp_path / "ref", tmp_path / "subs", tmp_path / "out"
    ref.mkdir()
    subs.mkdir()
    tracks = [{"id": t, "kind": "similarity", "dataset": t} for t in ("a", "b", "c")]
    groups = {"Task A": {"tracks": ["a", "b"]}, "Task B": {"tracks": ["c"], "order": "mean_score"}}
    spec = {"edition": "g", "title": "Groups", "phase": "evaluation", "seed": 1, "tracks": tracks}
    spec["ranking"] = {"groups": groups}
    spec["primary_score"] = {
        "missing": "baseline most_frequent",
        "baseline_scores": {"a": 0.0, "b": 0.0, "c": 0.0},
    }
    (ref / "task.json").write_text(json.dumps(spec))
    gold = {t: rng.uniform(0, 5, 50) for t in ("a", "b", "c")}
    for t, values in gold.items():
        write_items(
            ref / f"{t}.jsonl",
            [{"id": f"{t}{i}", "texts": ["x"], "score": float(v)} for i, v in enumerate(values)],
        )

    def tsv(t, noise):
        values = gold[t] + rng.normal(0, noise, 50)
        return "".join(f"{t}{i}\t{v:.5f}\n" for i, v in enumerate(values))

    _zip(subs / "good.zip", {f"{t}.tsv": tsv(t, 0.3) for t in ("a", "b", "c")})
    _zip(subs / "fair.zip", {f"{t}.tsv": tsv(t, 2.0) for t in ("a", "b", "c")})
    _zip(subs / "no_b.zip", {"a.tsv": tsv("a", 0.3), "c.tsv": tsv("c", 0.3)})
    _zip(subs / "only_c.zip", {"c.tsv": tsv("c", 0.1)})  # enters no track of Task A
    assert rank_main([str(subs), str(ref), "--out", str(out), "--resamples", "100"]) == 0
    rows = list(csv.DictReader((out / "ranking.csv").open()))
    task_a = {r["system"]: r for r in rows if r["table"] == "group" and r["title"] == "Task A"}
    assert set(task_a) == {"good", "fair", "no_b", "only_c"} and task_a["good"]["rank"] == "1"
    # a stand-in alone ranks no run: only_c is listed under Task A as not entered, without a rank
    assert task_a["only_c"]["rank"] == "" and "not entered" in task_a["only_c"]["note"]
    assert "b=3+" in task_a["no_b"]["note"]  # ranked at the baseline's Pearson 0: after both
    task_b = [r for r in rows if r["table"] == "group" and r["title"] == "Task B"]
    assert task_b[0]["metric"] == "mean_score" and task_b[0]["value"]
    for name in ("ranking.md", "ranking.html", "ranking.tex"):
        text = (out / name).read_text()
        assert "Task A" in text and "Task B" in text and "3+" in text, name
        assert "baseline most" in text
        # b's baseline (Pearson 0) is worse than every run: b=3+ is after the last run, said so
        assert "or after the last run where that score is worse than every run" in text, name
        assert re.search(r"Not entered \(no track of the group submitted[^)]*\): only\\?_c\.", text)
    task_a_md = (out / "ranking.md").read_text().split("## Task A")[1].split("## Task B")[0]
    assert "| only" not in task_a_md  # not a row of Task A's table


def test_a_group_naming_a_track_twice_in_task_json_is_refused():
    import pytest

    from codajudge.errors import ConfigError
    from codajudge.programs.rank import group_tables

    rule = SimpleNamespace(missing="worst", baseline=None, baseline_scores={})
    groups = {"A": {"tracks": ["csc", "mp", "csc"]}}
    spec = SimpleNamespace(
        primary_rule=rule, tracks=list(TRACKS.values()), extra={"ranking": {"groups": groups}}
    )
    with pytest.raises(ConfigError, match="or one twice.*found csc, mp, csc"):
        group_tables(spec, {}, {})
