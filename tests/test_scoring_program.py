"""The scoring program's contract (issue 2): perfect predictions score perfectly, negated gold gives
r = -1, missing tracks follow the primary policy, failures write no scores.json, and the outputs are
what Codabench reads."""

import io
import json
import math
import subprocess
import zipfile
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from codajudge.bundle.compose import score_rows
from codajudge.formats.items import write_items
from codajudge.formats.write import write_prediction
from codajudge.gold import gold_as_values
from codajudge.gold import build_gold
from codajudge.metrics import get as get_metric
from codajudge.programs.score import main as score_main
from codajudge.spec import TaskSpec, write_spec
from codajudge.tracks import tracks_from_list


TRACKS = tracks_from_list(
    [
        {"id": "sim", "kind": "similarity", "dataset": "pairs"},
        {
            "id": "nli",
            "kind": "classification",
            "dataset": "nli",
            "labels": ["entailment", "neutral", "contradiction"],
        },
        {
            "id": "nli_soft",
            "kind": "soft_label",
            "scale": "categorical",
            "dataset": "nli",
            "labels": ["entailment", "neutral", "contradiction"],
            "primary": False,
        },
        {
            "id": "sar_soft",
            "kind": "soft_label",
            "scale": "ordinal",
            "dataset": "sar",
            "labels": ["1", "2", "3", "4", "5", "6"],
            "primary": False,
        },
        {
            "id": "sar_pe",
            "kind": "perspectivist",
            "scale": "ordinal",
            "dataset": "sar",
            "labels": ["1", "2", "3", "4", "5", "6"],
            "primary": False,
        },
        {
            "id": "var_soft",
            "kind": "soft_label",
            "scale": "multilabel",
            "dataset": "var",
            "labels": ["contradiction", "entailment", "neutral"],
            "primary": False,
        },
        {
            "id": "var_pe",
            "kind": "perspectivist",
            "scale": "multilabel",
            "dataset": "var",
            "labels": ["contradiction", "entailment", "neutral"],
            "primary": False,
        },
    ]
)
NLI = ["entailment", "neutral", "contradiction"]


def _items():
    pairs = [
        {"id": f"p{i}", "texts": ["a b", "b c"], "score": float((i * 7) % 11) / 2}
        for i in range(12)
    ]
    nli = []
    for i in range(10):
        votes = [NLI[(i + k * (i % 3)) % 3] for k in range(5)]
        top = max(set(votes), key=votes.count)
        nli.append(
            {
                "id": f"n{i}",
                "texts": ["x", "y"],
                "annotators": [f"a{k}" for k in range(5)],
                "annotations": votes,
                "label": top if votes.count(top) >= 3 else None,
            }
        )
    sar = [
        {
            "id": f"s{i}",
            "texts": ["c", "r"],
            "annotators": ["S1", "S2", f"S{3 + i % 4}"],
            "annotations": [str(1 + i % 6), str(1 + (i * 5) % 6), "3"],
        }
        for i in range(8)
    ]
    var = [
        {
            "id": f"v{i}",
            "texts": ["c", "s"],
            "annotators": ["V1", "V2", "V3"],
            "annotations": [
                ["neutral"],
                ["entailment", "neutral"] if i % 2 else ["contradiction"],
                ["entailment"],
            ],
        }
        for i in range(6)
    ]
    return {"pairs": pairs, "nli": nli, "sar": sar, "var": var}


@pytest.fixture()
def task(tmp_path):
    ref = tmp_path / "input" / "ref"
    ref.mkdir(parents=True)
    (tmp_path / "input" / "res").mkdir()
    write_spec(ref, TaskSpec(edition="t", title="Test", phase="evaluation", tracks=TRACKS))
    items = _items()
    for name, rows in items.items():
        write_items(ref / f"{name}.jsonl", rows)
    golds = {t.id: build_gold(t, items[t.dataset], t.dataset) for t in TRACKS}
    return tmp_path, golds


def run_score(root: Path):
    """``score.py INPUT OUTPUT`` by the program's ``main`` in this process: its exit code and what it
    printed (the script in a process of its own, as the platform starts it, is run by test_hostile
    and test_bounds)."""
    args = [str(root / "input"), str(root / "out")]
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = score_main(args)
    done = subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())
    assert "Traceback" not in done.stderr + done.stdout
    scores_path = root / "out" / "scores.json"
    scores = json.loads(scores_path.read_text()) if scores_path.exists() else None
    return done, scores


def write_gold_submission(root: Path, golds, tracks=TRACKS):
    for t in tracks:
        write_prediction(
            root / "input" / "res" / f"{t.id}.tsv", t, golds[t.id].ids, gold_as_values(golds[t.id])
        )


def test_perfect_predictions_score_perfectly_on_every_track(task):
    root, golds = task
    write_gold_submission(root, golds)
    done, scores = run_score(root)
    assert done.returncode == 0, done.stderr
    assert list(scores) == [key for key, _, _ in score_rows(TRACKS)]
    for t in TRACKS:
        for m in t.metrics:
            metric = get_metric(m)
            best = 1.0 if metric.higher_is_better else 0.0
            assert scores[f"{t.id}_{m}"] == pytest.approx(best, abs=1e-12), (t.id, m)
    assert scores["primary"] == pytest.approx(1.0)
    txt = (root / "out" / "scores.txt").read_text().splitlines()
    assert [line.split(": ")[0] for line in txt] == list(scores)
    assert not (root / "out" / "metadata").exists()
    assert all(len(k) <= 36 and math.isfinite(v) for k, v in scores.items())


def test_negated_gold_gives_minus_one(task):
    root, golds = task
    sim = TRACKS[0]
    write_prediction(
        root / "input" / "res" / "sim.tsv", sim, golds["sim"].ids, [-v for v in golds["sim"].gold]
    )
    done, scores = run_score(root)
    assert done.returncode == 0, done.stderr
    assert scores["sim_pearson"] == pytest.approx(-1.0, abs=1e-12)
    assert scores["sim_spearman"] == pytest.approx(-1.0, abs=1e-12)


def test_semeval_positional_format_is_accepted(task):
    root, golds = task
    lines = "".join(f"{v}\t100\n" for v in golds["sim"].gold)
    (root / "input" / "res" / "sim.tsv").write_text(lines)
    done, scores = run_score(root)
    assert done.returncode == 0, done.stderr
    assert scores["sim_pearson"] == pytest.approx(1.0)


def test_constant_predictions_give_zero_and_a_warning(task):
    root, golds = task
    write_prediction(
        root / "input" / "res" / "sim.tsv",
        TRACKS[0],
        golds["sim"].ids,
        [2.5] * len(golds["sim"].ids),
    )
    done, scores = run_score(root)
    assert done.returncode == 0
    assert scores["sim_pearson"] == 0.0 and scores["sim_spearman"] == 0.0
    assert "undefined" in (root / "out" / "detailed_results.html").read_text()


def test_missing_primary_track_counts_as_worst_value(task):
    root, golds = task
    write_gold_submission(root, golds, tracks=[TRACKS[0]])
    done, scores = run_score(root)
    assert done.returncode == 0
    # sim is perfect (1.0); nli is missing and counts as accuracy's worst value, 0.0
    assert scores["primary"] == pytest.approx(0.5)
    assert "nli_accuracy" not in scores
    assert "not covered" in done.stdout


def test_subset_and_zip_with_one_top_folder(task, tmp_path):
    import zipfile

    root, golds = task
    folder = tmp_path / "pred"
    folder.mkdir()
    write_prediction(folder / "nli.tsv", TRACKS[1], golds["nli"].ids, gold_as_values(golds["nli"]))
    with zipfile.ZipFile(root / "input" / "res" / "submission.zip", "w") as zf:
        zf.write(folder / "nli.tsv", "my_team/nli.tsv")
        zf.writestr("__MACOSX/my_team/._nli.tsv", "junk")
        zf.writestr("my_team/.DS_Store", "junk")
    done, scores = run_score(root)
    assert done.returncode == 0, done.stderr
    assert scores["nli_accuracy"] == 1.0


@pytest.mark.parametrize(
    "metadata", ['{"exitCode": 1, "ingestionExitCode": 1}', "ingestionExitCode: 137\n"]
)
def test_failed_prediction_step_is_reported_not_scored(task, metadata):
    root, golds = task
    write_gold_submission(root, golds)
    (root / "input" / "res" / "metadata").write_text(metadata)
    done, scores = run_score(root)
    assert done.returncode != 0 and scores is None
    assert "prediction step failed" in done.stderr


def test_ingestion_status_failed_is_reported(task):
    root, golds = task
    write_gold_submission(root, golds)
    (root / "input" / "res" / "ingestion_status.json").write_text(
        '{"status": "failed", "message": "model.py raised"}'
    )
    done, scores = run_score(root)
    assert done.returncode != 0 and scores is None
    assert "model.py raised" in done.stderr


def test_a_missing_reference_file_is_the_bundle_s_without_python_s_error(task):
    root, golds = task
    write_gold_submission(root, golds)
    (root / "input" / "ref" / "pairs.jsonl").unlink()
    done, scores = run_score(root)
    assert done.returncode == 1 and scores is None
    assert "reference data pairs.jsonl: the file is missing from the phase's data" in done.stderr
    assert "bundle must be rebuilt" in done.stderr and "Errno" not in done.stderr


def test_error_leaves_no_scores_json_even_after_an_earlier_success(task):
    root, golds = task
    write_gold_submission(root, golds)
    assert run_score(root)[1] is not None
    (root / "input" / "res" / "sim.tsv").write_text("p0\tnan\n")
    done, scores = run_score(root)
    assert done.returncode != 0 and scores is None
    assert not (root / "out" / "scores.txt").exists()
    assert "sim.tsv" in done.stderr


def test_only_the_ingestion_programs_files_count_after_a_successful_prediction_step(task):
    """The worker also copies a result submission's own files into the prediction output; a copy in
    a folder (or under another accepted name) must not count as a second file for the track."""
    root, golds = task
    res = root / "input" / "res"
    write_gold_submission(root, golds, tracks=[TRACKS[0]])
    (res / "team").mkdir()
    (res / "team" / "sim.tsv").write_text("p0\tnot a number\n")
    (res / "ingestion_status.json").write_text('{"status": "ok", "message": "", "tracks": ["sim"]}')
    done, scores = run_score(root)
    assert done.returncode == 0, done.stderr
    assert scores["sim_pearson"] == pytest.approx(1.0)


def test_a_status_listing_no_tracks_is_a_plain_result_submission(task):
    """``"tracks": []`` lists none, so (programs/status.py) no prediction output's tracks are
    trusted: the files present are read and scored, not refused as "found no files"."""
    root, golds = task
    write_gold_submission(root, golds)
    status = '{"status": "ok", "message": "", "tracks": []}'
    (root / "input" / "res" / "ingestion_status.json").write_text(status)
    done, scores = run_score(root)
    assert done.returncode == 0, done.stderr
    assert scores["primary"] == pytest.approx(1.0)


@pytest.mark.parametrize("zipped", [False, True])
def test_a_submission_of_only_ignored_files_names_them(task, zipped):
    """Only the worker's ``metadata`` (and a dotfile): "found no files" would be untrue."""
    root, _ = task
    res = root / "input" / "res"
    files = {"metadata": "exitCode: 0\n", ".DS_Store": ""}
    if zipped:
        with zipfile.ZipFile(res / "submission.zip", "w") as zf:
            for name, text in files.items():
                zf.writestr(name, text)
    for name, text in files.items() if not zipped else ():
        (res / name).write_text(text)
    done, scores = run_score(root)
    assert done.returncode == 2 and scores is None
    shown = "'metadata', '.DS_Store'" if zipped else "'.DS_Store', 'metadata'"  # entry order
    assert f"found only {shown} (ignored: " in done.stderr
    assert "no files" not in done.stderr


def test_partial_prediction_output_is_refused(task):
    root, golds = task
    write_gold_submission(root, golds, tracks=[TRACKS[0]])
    (root / "input" / "res" / "ingestion_status.json").write_text(
        '{"status": "ok", "message": "", "tracks": ["sim", "nli"]}'
    )
    done, scores = run_score(root)
    assert done.returncode != 0 and scores is None
    assert "incomplete" in done.stderr and "nli.tsv" in done.stderr


@pytest.mark.parametrize("absolute", [False, True])
def test_a_listed_track_file_that_is_a_link_is_refused_never_read(task, absolute):
    """A prediction output's ``<track>.tsv`` linked to the hidden gold: refused as ``run`` and
    ``rank`` refuse a linked prediction file, without a word of the gold's content."""
    root, _ = task
    res = root / "input" / "res"
    gold = root / "input" / "ref" / "pairs.jsonl"
    (res / "sim.tsv").symlink_to(gold if absolute else Path("..", "ref", "pairs.jsonl"))
    (res / "ingestion_status.json").write_text('{"status": "ok", "message": "", "tracks": ["sim"]}')
    done, scores = run_score(root)
    assert done.returncode == 2 and scores is None
    assert "sim.tsv: the prediction file is a symbolic link; expected a regular file" in done.stderr
    assert "JSON" not in done.stderr and "keys" not in done.stderr


def test_missing_items_and_bad_values_are_reported_together(task):
    """One round of fixes should be enough: the missing ids and the bad values of the lines present."""
    root, golds = task
    ids = golds["sim"].ids
    (root / "input" / "res" / "sim.tsv").write_text(
        f"{ids[0]}\tnan\n" + "".join(f"{i}\t1.0\n" for i in ids[1:-1])
    )
    done, scores = run_score(root)
    assert scores is None
    assert f"1 of the track's {len(ids)} items has no prediction" in done.stderr
    assert f"sim.tsv, line 1, item '{ids[0]}': not a finite number" in done.stderr


def test_the_gold_s_shares_submitted_score_exactly_0(tmp_path):
    """ChaosNLI's 100 annotations per item: the shares c / 100 of some items do not add up to 1 in
    floats, and a submitted row is divided by its sum; the gold's shares are read by that rule too,
    so that a submission of the shares is the gold to the bit (it scored jsd 1e-10, kl -4e-18)."""
    track = tracks_from_list(
        [
            {
                "id": "chaos",
                "kind": "soft_label",
                "scale": "categorical",
                "dataset": "chaos",
                "labels": NLI,
                "metrics": ["jsd", "kl"],
            }
        ]
    )
    counts = [(6, 85, 9), (7, 82, 11), (6, 83, 11), (7, 58, 35), (50, 50, 0)]
    items = [
        {
            "id": f"c{i}",
            "texts": ["x", "y"],
            "annotators": [f"a{k}" for k in range(100)],
            "annotations": sum(([lab] * n for lab, n in zip(NLI, c)), []),
        }
        for i, c in enumerate(counts)
    ]
    ref = tmp_path / "input" / "ref"
    ref.mkdir(parents=True)
    (tmp_path / "input" / "res").mkdir()
    spec = TaskSpec(edition="t", title="Test", phase="evaluation", tracks=track, hide_gold=False)
    write_spec(ref, spec)  # public gold: scores.json at full precision
    write_items(ref / "chaos.jsonl", items)
    rows = [json.dumps([n / 100 for n in c]) for c in counts]
    lines = "".join(f"c{i}\t{row}\n" for i, row in enumerate(rows))
    (tmp_path / "input" / "res" / "chaos.tsv").write_text(lines)
    done, scores = run_score(tmp_path)
    assert done.returncode == 0, done.stderr
    assert scores["chaos_jsd"] == 0.0 and scores["chaos_kl"] == 0.0
