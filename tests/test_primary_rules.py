"""The edition's primary-score rules (issue 38): what a primary track a run did not submit counts
as (``primary_score: {missing: worst | baseline NAME | unranked}``), in the scoring program's
primary score, its results page and the official ranking."""

import csv
import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

from codajudge.errors import ConfigError
from codajudge.formats.items import write_items
from codajudge.programs.rank import main as rank_main
from codajudge.report import primary_sentence
from codajudge.scoring import score_folder
from codajudge.spec import PrimaryRule, read_spec, spec_from_dict

REPO = Path(__file__).resolve().parents[1]
N = 40
TRACKS = [
    {"id": "a", "kind": "similarity", "dataset": "a"},
    {"id": "b", "kind": "similarity", "dataset": "b"},
]


def _gold(track_id):
    return np.random.default_rng(ord(track_id)).uniform(0, 5, N)


def _ids(track_id):
    return [f"{track_id}{i}" for i in range(N)]


def _tsv(track_id, noise, seed):
    values = _gold(track_id) + np.random.default_rng(seed).normal(0, noise, N)
    return "".join(f"{i}\t{v:.6f}\n" for i, v in zip(_ids(track_id), values))


def _reference(folder: Path, primary_score=None) -> Path:
    folder.mkdir(parents=True)
    spec = {"edition": "t", "title": "Rules", "phase": "evaluation", "seed": 3, "tracks": TRACKS}
    if primary_score is not None:
        spec["primary_score"] = primary_score
    (folder / "task.json").write_text(json.dumps(spec))
    for t in TRACKS:
        items = [
            {"id": i, "texts": ["x", "y"], "score": float(g)}
            for i, g in zip(_ids(t["id"]), _gold(t["id"]))
        ]
        write_items(folder / f"{t['id']}.jsonl", items)
    return folder


def _submissions(folder: Path) -> Path:
    """good and fair submit both tracks; a_only (the best on a) submits track a alone."""
    folder.mkdir(parents=True)
    runs = {
        "good": {"a": (0.5, 1), "b": (0.5, 2)},
        "fair": {"a": (2.0, 3), "b": (2.0, 4)},
        "a_only": {"a": (0.1, 5)},
    }
    for name, tracks in runs.items():
        with zipfile.ZipFile(folder / f"{name}.zip", "w") as archive:
            for tid, (noise, seed) in tracks.items():
                archive.writestr(f"{tid}.tsv", _tsv(tid, noise, seed))
    return folder


def _score_a_only(tmp_path, primary_score):
    ref = _reference(tmp_path / "ref", primary_score)
    res = tmp_path / "res"
    res.mkdir()
    (res / "a.tsv").write_text(_tsv("a", 0.1, 5))
    return score_folder(read_spec(ref), ref, res)


def test_worst_is_the_default_and_says_what_stood_in(tmp_path):
    result = _score_a_only(tmp_path, None)
    a = result.tracks["a"].scores["pearson"]
    assert result.primary == pytest.approx((a - 1.0) / 2)
    assert result.ranked and result.stand_ins == {"b": "worst value"}
    note = "primary tracks not submitted: b; by this edition's rule a missing primary track counts"
    assert note + " as its metric's worst possible value" in result.warnings
    assert "worst possible value" in primary_sentence(result)


def test_unranked_run_has_no_primary_score_but_the_leaderboard_s_worst(tmp_path):
    result = _score_a_only(tmp_path, {"missing": "unranked"})
    assert not result.ranked
    assert result.scores()["primary"] == -1.0  # Pearson's worst on every track: sorts last
    assert result.scores()["a_pearson"] > 0.99
    assert primary_sentence(result).startswith("Primary score: none")
    assert "b; by this edition's rule a missing primary track leaves the run without" in " ".join(
        result.warnings
    )


def test_a_complete_run_is_unaffected_by_the_unranked_rule(tmp_path):
    ref = _reference(tmp_path / "ref", {"missing": "unranked"})
    res = tmp_path / "res"
    res.mkdir()
    for tid in ("a", "b"):
        (res / f"{tid}.tsv").write_text(_tsv(tid, 0.5, 1))
    result = score_folder(read_spec(ref), ref, res)
    scores = [result.tracks[t].scores["pearson"] for t in ("a", "b")]
    assert result.ranked and result.primary == pytest.approx(np.mean(scores))
    assert not result.stand_ins


def test_baseline_rule_counts_the_baseline_s_score_shipped_in_task_json(tmp_path):
    rule = {"missing": "baseline most_frequent", "baseline_scores": {"a": 0.1, "b": 0.25}}
    result = _score_a_only(tmp_path, rule)
    a = result.tracks["a"].scores["pearson"]
    assert result.ranked and result.primary == pytest.approx((a + 0.25) / 2)
    assert result.stand_ins == {"b": "baseline most_frequent's score"}
    assert "baseline most_frequent" in primary_sentence(result)


def test_baseline_rule_without_the_baseline_s_scores_is_a_bundle_problem(tmp_path):
    with pytest.raises(ConfigError) as caught:
        _score_a_only(tmp_path, {"missing": "baseline most_frequent"})
    assert "no score of baseline most_frequent for track b" in caught.value.render()


def test_the_rule_round_trips_through_task_json_and_bad_rules_are_refused():
    raw = {"edition": "t", "phase": "evaluation", "tracks": TRACKS}
    assert spec_from_dict(raw, "task.json").primary_rule == PrimaryRule()
    assert "primary_score" not in spec_from_dict(raw, "task.json").to_dict()
    rule = {"missing": "baseline random", "mean": "normalised", "baseline_scores": {"a": 0.0}}
    spec = spec_from_dict({**raw, "primary_score": rule}, "task.json")
    assert spec.to_dict()["primary_score"] == rule
    for bad in ({"missing": "best"}, {"missing": "baseline"}, {"mean": "median"}):
        with pytest.raises(ConfigError):
            spec_from_dict({**raw, "primary_score": bad}, "task.json")


def test_scoring_program_gives_an_unranked_run_the_worst_primary_and_says_so(tmp_path, capsys):
    """The scoring program's main in this process (score.py as a process: test_hostile)."""
    from codajudge.programs.score import main as score

    _reference(tmp_path / "input" / "ref", {"missing": "unranked"})
    res = tmp_path / "input" / "res"
    res.mkdir()
    (res / "a.tsv").write_text(_tsv("a", 0.1, 5))
    assert score([str(tmp_path / "input"), str(tmp_path / "out")]) == 0, capsys.readouterr().err
    scores = json.loads((tmp_path / "out" / "scores.json").read_text())
    assert scores["primary"] == -1.0 and scores["a_pearson"] > 0.99
    assert "Primary score: none" in (tmp_path / "out" / "detailed_results.html").read_text()


def _rank(tmp_path, primary_score):
    ref = _reference(tmp_path / "ref", primary_score)
    subs = _submissions(tmp_path / "subs")
    out = tmp_path / "out"
    assert rank_main([str(subs), str(ref), "--out", str(out), "--resamples", "100"]) == 0
    return list(csv.DictReader((out / "ranking.csv").open())), out


def test_the_ranking_tool_runs_from_a_bundle_s_copy_of_the_engine(tmp_path, bundles):
    """A built bundle's scoring program carries the engine with the ranking tool's words
    (templates/ranking), though not the page templates only the builder reads: ``codajudge rank``
    run from that copy writes every output."""
    import subprocess
    import sys

    engine = bundles.small().tree / "scoring_program"
    assert (engine / "codajudge" / "templates" / "ranking" / "markdown_header.md").is_file()
    assert not (engine / "codajudge" / "templates" / "evaluation.md").exists()
    ref = _reference(tmp_path / "ref", {"missing": "unranked"})
    subs, out = _submissions(tmp_path / "subs"), tmp_path / "out"
    command = [sys.executable, "-m", "codajudge", "rank", str(subs), str(ref), "--out", str(out)]
    done = subprocess.run(
        [*command, "--resamples", "0"], cwd=engine, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert all((out / f"ranking.{ext}").is_file() for ext in ("md", "csv", "tex", "html"))


def test_ranking_lists_an_unranked_run_apart_and_ranks_it_on_its_track(tmp_path):
    rows, out = _rank(tmp_path, {"missing": "unranked"})
    overall = [r["system"] for r in rows if r["table"] == "overall"]
    assert overall == ["good", "fair"]
    on_a = {r["system"]: r["rank"] for r in rows if r["table"] == "a"}
    assert on_a["a_only"] == "1"
    rule = {r["system"]: r["note"] for r in rows if r["table"] == "primary_rule"}
    assert set(rule) == {"a_only"} and "no primary score" in rule["a_only"]
    for name in ("ranking.md", "ranking.html", "ranking.tex"):
        text = (out / name).read_text()
        assert "no primary score" in text and "leaves the run without a primary score" in text


def test_ranking_by_worst_value_keeps_every_run_and_marks_the_stand_in(tmp_path):
    rows, out = _rank(tmp_path, None)
    overall = [r["system"] for r in rows if r["table"] == "overall"]
    assert overall == ["good", "fair", "a_only"]
    rule = {r["system"]: r["note"] for r in rows if r["table"] == "primary_rule"}
    assert rule == {"a_only": "b counted as worst value"}


def test_the_overall_mean_rank_ranks_a_missing_track_by_the_rule_as_the_group_tables_do(tmp_path):
    """Under ``baseline NAME``, a_only's track b ranks where the baseline's score falls (here above
    every run: rank 1), not last, in the overall mean rank as in a group's table; the caption says
    so."""
    rule = {"missing": "baseline most_frequent", "baseline_scores": {"a": 0.0, "b": 0.999}}
    ref = _reference(tmp_path / "ref", rule)
    spec = json.loads((ref / "task.json").read_text())
    spec["ranking"] = {"groups": {"both": {"tracks": ["a", "b"]}}}
    (ref / "task.json").write_text(json.dumps(spec))
    subs, out = _submissions(tmp_path / "subs"), tmp_path / "out"
    command = [str(subs), str(ref), "--out", str(out), "--resamples", "0", "--overall", "mean-rank"]
    assert rank_main(command) == 0
    rows = list(csv.DictReader((out / "ranking.csv").open()))
    overall = {r["system"]: float(r["mean_rank"]) for r in rows if r["table"] == "overall"}
    group = {r["system"]: float(r["mean_rank"]) for r in rows if r["table"] == "group"}
    on_a = {r["system"]: int(r["rank"]) for r in rows if r["table"] == "a"}
    assert overall == group and overall["a_only"] == (on_a["a_only"] + 1) / 2
    text = (out / "ranking.md").read_text()
    assert "last place" not in text
    stand_in = "which is that of the cluster baseline most\\_frequent's score"
    assert f"counted for a track a run did not submit, {stand_in}" in text


def test_ranking_csv_keeps_a_run_name_with_a_colon_whole(tmp_path):
    """The primary_rule rows' system is the run's name, even one holding ": "."""
    ref = _reference(tmp_path / "ref", None)
    subs = _submissions(tmp_path / "subs")
    (subs / "a_only.zip").rename(subs / "a: only.zip")
    out = tmp_path / "out"
    assert rank_main([str(subs), str(ref), "--out", str(out), "--resamples", "0"]) == 0
    rows = csv.DictReader((out / "ranking.csv").open())
    rule = {r["system"]: r["note"] for r in rows if r["table"] == "primary_rule"}
    assert rule == {"a: only": "b counted as worst value"}


def _edition_with(tmp_path, primary_score):
    import shutil

    import yaml

    from codajudge.bundle.edition import load_edition

    folder = tmp_path / "ed"
    shutil.copytree(REPO / "editions" / "default", folder, ignore=shutil.ignore_patterns("data"))
    config = yaml.safe_load((folder / "edition.yaml").read_text(encoding="utf-8"))
    config["primary_score"] = primary_score
    (folder / "edition.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    return load_edition(folder)


def test_an_edition_s_baseline_rule_must_name_one_of_its_baselines(tmp_path):
    with pytest.raises(ConfigError) as caught:
        _edition_with(tmp_path, {"missing": "baseline majority"})
    text = caught.value.render()
    assert "primary_score: missing" in text and "'majority'" in text and "cosine_bow" in text


def test_the_builder_ships_the_baseline_s_scores_in_the_reference_task_json_only(tmp_path):
    from codajudge.bundle.baselines_run import write_missing_track_scores
    from codajudge.spec import write_spec

    edition = _edition_with(tmp_path, {"missing": "baseline most_frequent"})
    root = tmp_path / "bundle"
    scores = {}
    for number, phase in enumerate(edition.phases):
        for side in ("reference_data", "input_data"):
            (root / side / phase.id).mkdir(parents=True)
            spec = edition.spec(phase)
            spec.extra["public_gold_phases"] = ["practice"]  # a key the builder wrote: kept
            write_spec(root / side / phase.id, spec)
        scores[phase.id] = {
            "most_frequent": {
                f"{t.id}_{m}": number + 0.01 * k
                for k, t in enumerate(edition.tracks)
                for m in t.metrics
            }
        }
    write_missing_track_scores(edition, root, scores)
    for number, phase in enumerate(edition.phases):
        rule = read_spec(root / "reference_data" / phase.id).primary_rule
        assert set(rule.baseline_scores) == {t.id for t in edition.tracks}
        first = edition.tracks[-1]
        assert (
            rule.baseline_scores[first.id]
            == scores[phase.id]["most_frequent"][f"{first.id}_{first.main_metric}"]
        )
        assert not read_spec(root / "input_data" / phase.id).primary_rule.baseline_scores
        assert read_spec(root / "reference_data" / phase.id).extra["public_gold_phases"]


def _lewidi_spec(mean):
    from codajudge.bundle.edition import load_edition

    edition = load_edition(REPO / "editions" / "lewidi2025")
    tracks = [t.to_dict() for t in edition.tracks]
    raw = {"edition": "l", "phase": "evaluation", "tracks": tracks}
    return spec_from_dict({**raw, "primary_score": {"mean": mean}}, "task.json")


def _primary_of(spec, by_track):
    from types import SimpleNamespace

    from codajudge.scoring import primary_score

    results = {
        t.id: SimpleNamespace(scores={t.main_metric: by_track[t.id]}) for t in spec.primary_tracks
    }
    return primary_score(spec, results)[0]


#: LeWiDi-2025-style soft-label distances: "better" beats the baseline on three of four datasets
#: and loses on Paraphrase, whose Wasserstein distance runs 0 to 10 (CSC's 0 to 5, MP's and
#: VariErrNLI's 0 to 2).
BASELINE_RUN = {"csc_soft": 1.0, "mp_soft": 0.4, "par_soft": 3.0, "ven_soft": 0.6}
BETTER_RUN = {"csc_soft": 0.8, "mp_soft": 0.3, "par_soft": 3.8, "ven_soft": 0.5}


def test_the_plain_mean_lets_paraphrase_decide_and_the_normalised_one_does_not():
    plain, normalised = _lewidi_spec("plain"), _lewidi_spec("normalised")
    assert _primary_of(plain, BETTER_RUN) > _primary_of(plain, BASELINE_RUN)  # lower is better
    assert _primary_of(normalised, BETTER_RUN) < _primary_of(normalised, BASELINE_RUN)
    expected = (1.0 / 5 + 0.4 / 2 + 3.0 / 10 + 0.6 / 2) / 4
    assert _primary_of(normalised, BASELINE_RUN) == pytest.approx(expected)


def test_the_terminal_states_a_normalised_primary_score_s_range_as_0_to_1():
    from codajudge.report import score_meanings

    plain, normalised = _lewidi_spec("plain"), _lewidi_spec("normalised")
    assert score_meanings(normalised)["primary"] == "lower is better, 0 to 1"
    assert score_meanings(plain)["primary"] == "lower is better, 0 to 4.75"  # (5 + 2 + 10 + 2) / 4
    assert score_meanings(normalised)["par_soft_awd"] == "lower is better, 0 to 10"


def test_lewidi2025_states_the_normalised_mean_on_its_pages_and_leaderboard():
    from codajudge.bundle import pages
    from codajudge.bundle.compose import leaderboard_columns
    from codajudge.bundle.edition import load_edition
    from codajudge.bundle.pages import LocalScore

    edition = load_edition(REPO / "editions" / "lewidi2025")
    assert edition.primary_rule.mean == "normalised"
    assert edition.primary_rule.spec_entry()["primary_score"]["missing"] == "baseline most_frequent"
    text = pages.evaluation_page(edition, LocalScore(True, {}))
    assert "(score - lower) / (upper - lower)" in text
    assert "Paraphrase soft (Avg Wasserstein dist) 0 to 10" in text
    assert "MP soft" in text and "baseline most_frequent's score" in text
    title = leaderboard_columns(edition)[0]["title"]
    assert "normalised" in title and len(title) <= 36
    default = load_edition(REPO / "editions" / "default")
    assert leaderboard_columns(default)[0]["title"] == "Primary score"
    assert "(score - lower)" not in pages.evaluation_page(default, LocalScore(True, {}))


def test_ranking_states_a_normalised_primary_score(tmp_path):
    rows, out = _rank(tmp_path, {"mean": "normalised"})
    good = next(r for r in rows if r["table"] == "overall" and r["system"] == "good")
    pearsons = [float(r["value"]) for r in rows if r["system"] == "good" and r["table"] in "ab"]
    assert float(good["primary"]) == pytest.approx(np.mean([(v + 1) / 2 for v in pearsons]))
    for name in ("ranking.md", "ranking.html", "ranking.tex"):
        text = (out / name).read_text().replace("\\", "")  # Markdown escapes brackets
        assert "normalised to 0-1 by its metric" in text and "(normalised)" in text


def test_the_kits_local_phase_stands_the_baseline_in_for_a_missing_primary_track(bundles, tmp_path):
    """LeWiDi 2025 counts a primary track a run leaves out as the most-frequent baseline's score:
    the kit's local phase carries that baseline's scores too, so a local run without a track is
    scored (it was refused as a bundle to rebuild)."""
    from conftest import shared_data
    from codajudge.programs.run_local import run_once
    from codajudge.spec import read_spec

    built = bundles.shipped("lewidi2025", shared_data("lewidi2025").parent)
    kit = built.tree / "starting_kit"
    rule = read_spec(kit / "reference_data" / "local").primary_rule
    assert set(rule.baseline_scores) == {t.id for t in built.edition.tracks}
    submission = tmp_path / "submission"
    with zipfile.ZipFile(kit / "sample_submissions" / "local_result_submission.zip") as archive:
        archive.extractall(submission)
    (submission / "csc_soft.tsv").unlink()
    scores = run_once(kit, str(submission), "local", output=tmp_path / "out")
    assert "csc_soft_awd" not in scores and "mp_soft_amd" in scores
    assert np.isfinite(scores["primary"])


@pytest.mark.parametrize(
    "rule, words",
    [
        (
            {"missing": "unranked"},
            "1 primary track missing: no primary score, the worst value stands in",
        ),
        (None, "1 primary track missing, each counts as its metric's worst possible value"),
    ],
)
def test_the_terminal_says_what_a_primary_score_with_a_track_missing_is(tmp_path, rule, words):
    """sub_only5 (sts2017): "Primary score -1.0000" read as a correlation of -1; it is the worst
    value an unranked run's column gets. The terminal says so beside it; scores.json keeps the number."""
    from types import SimpleNamespace

    from codajudge.programs.run_local import leaderboard_row

    task = SimpleNamespace(
        reference_data=_reference(tmp_path / "ref", rule),
        columns=[
            {"title": "Primary score", "key": "primary"},
            {"title": "a r", "key": "a_pearson"},
        ],
    )
    shown = leaderboard_row({"primary": -1.0, "a_pearson": 0.5}, task).splitlines()
    assert shown[0] == f"  Primary score   -1.0000  ({words}; higher is better, -1 to 1)"
    assert shown[1] == "  a r              0.5000  (higher is better, -1 to 1)"
    full = leaderboard_row({"primary": 0.4, "a_pearson": 0.5, "b_pearson": 0.3}, task)
    assert full.splitlines()[0] == "  Primary score    0.4000  (higher is better, -1 to 1)"
