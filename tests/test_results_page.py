"""The results page of a public-gold phase (issue 26): the baselines' scores beside the
participant's, the worst items, a per-item CSV, warnings inside their track, a recompute command
that runs, and a per-annotator chart that says something. Hidden-gold phases keep the leaderboard's
scores only, and no output file of theirs holds any gold."""

import csv
import html
import io
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from codajudge import kinds, report
from codajudge.metrics import get as get_metric
from codajudge.metrics.base import MEAN
from codajudge.metrics.disagreement import PerAnnotator
from codajudge.programs import run_local
from codajudge.programs.score import main as score_main
from codajudge.scoring import score_folder
from codajudge.spec import read_spec
from codajudge.tracks import score_key, track_from_dict
from test_report_html import make_phase

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def bundle(bundles):
    return bundles.small()


@pytest.fixture(scope="module")
def kit_run(bundle, tmp_path_factory):
    """The starting kit's sample result submission on the practice phase, outputs kept."""
    kit = bundle.tree / "starting_kit"
    out = tmp_path_factory.mktemp("kit-run") / "results"
    submission = kit / "sample_submissions" / "result_submission.zip"
    run_local.run_once(kit, str(submission), "practice", output=out)
    return SimpleNamespace(kit=kit, out=out, submission=submission)


def test_the_builder_writes_baseline_scores_for_public_gold_phases_only(bundle):
    practice = bundle.tree / "reference_data" / "practice" / report.BASELINE_SCORES
    scores = json.loads(practice.read_text(encoding="utf-8"))
    assert sorted(scores) == ["cosine_bow", "most_frequent", "random"]
    assert all("primary" in by_key and "sim_pearson" in by_key for by_key in scores.values())
    for phase in ("evaluation", "post-campaign"):
        assert not (bundle.tree / "reference_data" / phase / report.BASELINE_SCORES).exists()
    kit_copy = bundle.tree / "starting_kit" / "reference_data" / "practice" / report.BASELINE_SCORES
    assert kit_copy.read_bytes() == practice.read_bytes()


def test_the_page_shows_each_baseline_beside_the_participant_s_score(bundle, kit_run):
    page = (kit_run.out / "detailed_results.html").read_text(encoding="utf-8")
    baselines = report.read_baseline_scores(bundle.tree / "reference_data" / "practice")
    spec = read_spec(bundle.tree / "reference_data" / "practice")
    assert page.count("<th class='l'>Baselines</th>") == len(spec.tracks)
    for track in spec.tracks:
        for metric in track.metrics:
            for name, scores in baselines.items():
                assert f"{name} {scores[score_key(track.id, metric)]:.4f}" in page


def test_the_recompute_command_runs_and_writes_the_same_page(kit_run, tmp_path):
    page = (kit_run.out / "detailed_results.html").read_text(encoding="utf-8")
    commands = set(re.findall(r"recompute with: <code>(.*?)</code>", page))
    assert len(commands) == 1
    argv = shlex.split(html.unescape(commands.pop()))
    assert argv[:3] == ["python3", "run_local.py", "."]
    assert argv[argv.index("--phase") + 1] == "practice"
    argv[0] = sys.executable
    argv[argv.index("YOUR_SUBMISSION.zip")] = str(kit_run.submission)
    argv[argv.index("--output") + 1] = str(tmp_path / "again")
    done = subprocess.run(argv, cwd=kit_run.kit, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    again = (tmp_path / "again" / "detailed_results.html").read_text(encoding="utf-8")
    assert again == page  # intervals included, byte for byte
    for name in ("scores.json", report.DETAILED_CSV):
        assert (tmp_path / "again" / name).read_bytes() == (kit_run.out / name).read_bytes()


def _csv_rows(path: Path):
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


def test_the_csv_has_every_item_its_gold_prediction_and_error(tmp_path):
    gold = make_phase(tmp_path, hide_gold=False, n_items=40)
    assert score_main([str(tmp_path), str(tmp_path / "out")]) == 0
    rows = _csv_rows(tmp_path / "out" / report.DETAILED_CSV)
    assert list(rows[0]) == list(report.CSV_COLUMNS)
    spec = read_spec(tmp_path / "ref")
    assert [r["track"] for r in rows] == [t.id for t in spec.tracks for _ in range(40)]
    predicted = dict(
        line.split("\t") for line in (tmp_path / "res" / "sim.tsv").read_text().splitlines()
    )
    sim = {r["id"]: r for r in rows if r["track"] == "sim"}
    scores = np.array([item["score"] for item in gold["sim"]])
    slope, intercept = np.polyfit([float(predicted[it["id"]]) for it in gold["sim"]], scores, 1)
    for item in gold["sim"]:
        row = sim[item["id"]]
        assert float(row["gold"]) == item["score"]
        assert float(row["prediction"]) == float(predicted[item["id"]])
        fitted = slope * float(row["prediction"]) + intercept  # on the gold's scale
        assert float(row["error"]) == pytest.approx(abs(item["score"] - fitted))
    nli = {r["id"]: r for r in rows if r["track"] == "nli"}
    for item in gold["nli"]:
        row = nli[item["id"]]
        assert row["gold"] == (item["label"] or "")
        assert row["error"] == (
            "" if item["label"] is None else str(int(row["prediction"] != item["label"]))
        )
    persp = {r["id"]: r for r in rows if r["track"] == "persp"}
    for item in gold["mp"]:
        assert json.loads(persp[item["id"]]["gold"]) == item["annotations"]


def test_the_worst_items_are_those_of_largest_error(tmp_path):
    make_phase(tmp_path, hide_gold=False, n_items=60)
    page = run_and_read(tmp_path)
    rows = _csv_rows(tmp_path / "out" / report.DETAILED_CSV)
    spec = read_spec(tmp_path / "ref")
    for track in spec.tracks:
        error_of = {
            r["id"]: float(r["error"])
            for r in rows
            if r["track"] == track.id and r["error"] and float(r["error"]) > 0
        }
        largest = sorted(error_of.values(), reverse=True)[: report.WORST_ITEMS]
        section = page[page.index(f"<h2>{html.escape(track.title)}</h2>") :].split("</section>")[0]
        table = section[section.index("items with the largest error") :]
        shown = re.findall(r"<tr><td class='l'>([^<]*)</td>.*?<td>([\d.]+)</td></tr>", table)
        assert len(shown) == min(report.WORST_ITEMS, len(error_of)), track.id
        for item_id, printed in shown:
            assert f"{error_of[item_id]:.4f}" == printed, (track.id, item_id)
        assert [error_of[item_id] for item_id, _ in shown] == pytest.approx(largest), track.id


def test_the_worst_items_are_only_items_with_an_error_and_fewer_are_said():
    """An NLI track's items predicted right (error 0) are no worst items: 3 wrong of 12 scored."""
    track = track_from_dict(
        {"id": "nli", "kind": "classification", "dataset": "d", "labels": ["a", "b"]}
    )
    gold = np.array([0] * 12)
    predicted = np.array([1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0])
    ids = [f"n{i}" for i in range(12)]
    tr = SimpleNamespace(
        track=track,
        gold=SimpleNamespace(gold=gold, scored=np.ones(12, bool), ids=ids, texts=[]),
        prediction=SimpleNamespace(values=predicted),
    )
    table = report.worst_items_table(tr)
    assert "<h3>The 3 items with the largest error</h3>" in table
    assert "Only 3 of the 12 items scored have an error above 0." in table
    assert re.findall(r"<tr><td class='l'>([^<]*)</td>", table) == ["n0", "n3", "n7"]
    tr.prediction.values = gold
    assert report.worst_items_table(tr) == (
        "<p class='sig'>Only 0 of the 12 items scored have an error above 0.</p>"
    )


def test_the_worst_items_show_their_texts_where_the_phase_s_gold_is_public(bundle, kit_run):
    """Issue 39: the participant has the texts of a public-gold phase's items, so its table shows
    them (from the reference data, the scoring program's only input); hidden gold keeps none."""
    texts_of = {}
    for path in (kit_run.kit / "input_data" / "practice").glob("*.jsonl"):
        for line in path.read_text(encoding="utf-8").splitlines():
            item = json.loads(line)
            texts_of[item["id"]] = item.get("texts")
    page = (kit_run.out / "detailed_results.html").read_text(encoding="utf-8")
    tables = page.split("items with the largest error")[1:]
    assert tables and all("<th class='l'>Texts</th>" in table for table in tables)
    shown = re.findall(
        r"<tr><td class='l'>([^<]*)</td><td class='l' dir='auto'>(.*?)</td>", "".join(tables)
    )
    assert len(shown) >= len(tables)
    for item_id, cell in shown:
        expected = [
            t if len(t) <= report.TEXT_CHARS else t[: report.TEXT_CHARS] + "\u2026"
            for t in texts_of[html.unescape(item_id)]
        ]
        assert cell == "<br>".join(map(html.escape, expected)), item_id
    for phase in ("evaluation", "post-campaign"):
        for path in (bundle.tree / "reference_data" / phase).glob("*.jsonl"):
            assert '"texts"' not in path.read_text(encoding="utf-8"), path


def test_reference_data_without_texts_gives_a_table_without_a_texts_column(tmp_path):
    make_phase(tmp_path, hide_gold=False, n_items=30)
    for path in (tmp_path / "ref").glob("*.jsonl"):
        lines = path.read_text(encoding="utf-8").split("\n")  # texts hold U+2028
        items = [json.loads(line) for line in lines if line]
        without_texts = [{k: v for k, v in it.items() if k != "texts"} for it in items]
        path.write_text("".join(json.dumps(it) + "\n" for it in without_texts))
    page = run_and_read(tmp_path)
    assert "items with the largest error" in page and "<th class='l'>Texts</th>" not in page


def test_a_long_text_is_cut_in_the_table():
    long = "x" * (report.TEXT_CHARS + 50)
    cell = report.item_text_cell(["a < b", long])
    assert cell == "a &lt; b<br>" + "x" * report.TEXT_CHARS + "\u2026"
    assert report.item_text_cell(None) == ""


def run_and_read(root: Path) -> str:
    assert score_main([str(root), str(root / "out")]) == 0
    return (root / "out" / "detailed_results.html").read_text(encoding="utf-8")


def test_a_hidden_gold_phase_writes_no_csv_and_removes_an_earlier_one(tmp_path):
    gold = make_phase(tmp_path, hide_gold=True, n_items=30)
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / report.DETAILED_CSV).write_text("track,id,gold\nsim,x,4.2\n")
    page = run_and_read(tmp_path)
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "detailed_results.html",
        "scores.json",
        "scores.txt",
    ]
    assert "largest error" not in page and "Baselines" not in page
    for dataset in gold.values():
        assert not any(item["id"] in page for item in dataset)


def test_a_hidden_gold_page_shows_no_baselines_even_with_the_file(tmp_path):
    make_phase(tmp_path, hide_gold=True, n_items=20)
    (tmp_path / "ref" / report.BASELINE_SCORES).write_text(
        json.dumps({"random": {"sim_pearson": 0.123456}})
    )
    page = run_and_read(tmp_path)
    assert "Baselines" not in page and "0.1235" not in page


def test_warnings_sit_inside_their_track_s_section(tmp_path):
    make_phase(tmp_path, hide_gold=False, n_items=30)
    lines = (tmp_path / "res" / "sim.tsv").read_text().splitlines()
    constant = [line.split("\t")[0] + "\t3.0" for line in lines]  # Pearson r undefined: a warning
    (tmp_path / "res" / "sim.tsv").write_text("\n".join(constant) + "\n")
    page = run_and_read(tmp_path)
    sections = page.split("<section>")[1:]
    with_warning = [s for s in sections if "class='warn'>Warning:" in s]
    assert with_warning, "constant predictions should give the similarity track a warning"
    for section in with_warning:
        title, rest = section.split("</h2>", 1)
        assert "Similarity" in title
        assert rest.index("Warning:") < rest.index("<table>")  # before the scores, inside
    assert "</section>" in with_warning[0]


# --- the per-annotator chart ------------------------------------------------------------------


def _persp_result(labels_per_annotator):
    """A categorical perspectivist track result: annotator ``A{k}`` labels ``n`` items."""
    track = track_from_dict(
        {
            "id": "p",
            "kind": "perspectivist",
            "scale": "categorical",
            "dataset": "d",
            "labels": ["0", "1"],
        }
    )
    names = [f"A{k}" for k, n in enumerate(labels_per_annotator) for _ in range(n)]
    rng = np.random.default_rng(0)
    values = rng.integers(0, 2, len(names))
    item = np.arange(len(names))
    gold = PerAnnotator(values, item, len(names), 2)
    pred = PerAnnotator(1 - values, item, len(names), 2)
    return SimpleNamespace(
        track=track,
        gold=SimpleNamespace(gold=gold, annotators=[[n] for n in names]),
        prediction=SimpleNamespace(values=pred),
    )


def _annotator_chart(tr) -> str:
    return report._annotator_figure(tr, tr.gold.gold, tr.prediction.values)


def test_the_annotator_chart_shows_only_annotators_with_enough_labels():
    counts = [7] * 800 + [30 + k for k in range(50)]  # 850 annotators, 50 with 30 or more labels
    figure = _annotator_chart(_persp_result(counts))
    bars = re.findall(r"<text [^>]*>(A\d+) \((\d+)\)</text>", figure)
    assert len(bars) == report.MAX_ANNOTATOR_BARS
    assert sorted(int(n) for _, n in bars) == list(range(40, 80))  # the 40 with the most labels
    assert "40 of the 850 annotators shown" in figure


def test_no_annotator_chart_when_none_has_enough_labels():
    figure = _annotator_chart(_persp_result([7] * 850))
    assert "<svg" not in figure
    assert "none of the 850 annotators has 30 labels or more (the most is 7)" in figure


def test_the_annotator_chart_says_when_all_qualifying_annotators_are_shown():
    figure = _annotator_chart(_persp_result([5, 31, 45]))
    assert figure.count("<rect x=") >= 2 and "2 of the 3 annotators shown" in figure


# --- the kinds declare the page's per-kind pieces ---------------------------------------------


def test_report_and_plots_name_no_kind():
    for module in ("report.py", "plots.py"):
        source = (REPO / "codajudge" / module).read_text(encoding="utf-8")
        for name in kinds.NAMES:
            assert f'"{name}"' not in source and f"'{name}'" not in source, (module, name)
        assert ".kind ==" not in source and ".kind in" not in source, module


def test_every_kind_declares_a_figure_the_report_draws_and_its_item_errors(tmp_path):
    make_phase(tmp_path, hide_gold=False, n_items=12)
    result = score_folder(read_spec(tmp_path / "ref"), tmp_path / "ref", tmp_path / "res")
    assert {kinds.REGISTRY[name].report_figure for name in kinds.NAMES} <= set(report.FIGURES)
    for tr in result.tracks.values():
        kind = kinds.of(tr.track)
        errors = kind.item_errors(tr.track, tr.gold.gold, tr.prediction.values)
        assert np.shape(errors) == (len(tr.gold.ids),), tr.track.id
        assert kind.item_error_unit(tr.track)
        scored = np.asarray(errors)[tr.gold.scored]
        assert np.isfinite(scored).all() and (scored >= 0).all(), tr.track.id
        texts = kind.item_texts(tr.track, tr.prediction.values, [0, 1])
        assert len(texts) == 2 and all(texts), tr.track.id


def test_a_similarity_item_error_is_its_distance_from_the_best_line_on_any_scale():
    """Pearson r does not depend on the prediction's scale, so neither does the item error: the
    prediction is mapped onto the gold's scale by the least-squares line before the difference."""
    track = track_from_dict({"id": "s", "kind": "similarity", "dataset": "d"})
    kind = kinds.of(track)
    gold = np.array([0.0, 1.0, 2.0, 3.0, 4.0, 5.0])
    assert kind.item_errors(track, gold, gold / 5) == pytest.approx(np.zeros(6), abs=1e-12)
    assert kind.item_errors(track, gold, 10 - 2 * gold) == pytest.approx(np.zeros(6), abs=1e-12)
    off = gold / 5
    off[2] = 0.9  # one item far from the line
    errors = kind.item_errors(track, gold, off)
    assert int(np.argmax(errors)) == 2
    slope, intercept = np.polyfit(off, gold, 1)  # numpy's own least-squares line
    assert errors == pytest.approx(np.abs(gold - (slope * off + intercept)))
    constant = kind.item_errors(track, gold, np.full(6, 3.0))
    assert constant == pytest.approx(np.abs(gold - gold.mean()))
    with_unscored = kind.item_errors(track, np.append(gold, np.nan), np.append(off, 0.5))
    assert with_unscored[:6] == pytest.approx(errors) and np.isnan(with_unscored[6])


def test_a_perspectivist_item_error_is_the_mean_of_its_annotators_errors():
    track = track_from_dict(
        {
            "id": "p",
            "kind": "perspectivist",
            "scale": "ordinal",
            "dataset": "d",
            "labels": list("1234"),
        }
    )
    item = np.array([0, 0, 1, 1, 1])
    gold = PerAnnotator(np.array([0, 3, 1, 1, 2]), item, 3, 4, np.array([0, 2, 5, 5]))
    pred = PerAnnotator(np.array([1, 3, 1, 3, 2]), item, 3, 4)
    errors = kinds.of(track).item_errors(track, gold, pred)
    assert errors[:2].tolist() == pytest.approx([(1 / 4) / 2, (2 / 4) / 3])
    assert np.isnan(errors[2])  # an item without annotations
    assert kinds.of(track).item_texts(track, gold, [0, 1]) == ['["1", "4"]', '["2", "2", "3"]']


@pytest.mark.parametrize("scale", ["categorical", "multilabel"])
def test_a_perspectivist_item_error_is_the_value_the_score_averages_rounded_as_it(scale):
    """ER and MER round each item's share (MER: each label's) to 5 decimals before the mean: the
    CSV and the worst items show those values (1 of 3 annotators wrong: 0.33333, not 1/3)."""
    track = track_from_dict(
        {"id": "p", "kind": "perspectivist", "scale": scale, "dataset": "d", "labels": list("abc")}
    )
    item = np.array([0, 0, 0, 1, 1, 1, 1, 1, 1])
    gold, pred = np.array([0, 1, 2, 0, 0, 1, 1, 2, 2]), np.array([0, 1, 1, 0, 0, 1, 1, 2, 0])
    if scale == "multilabel":  # a 0/1 choice of each label per annotator
        gold, pred = np.eye(3, dtype=np.int64)[gold], np.eye(3, dtype=np.int64)[pred]
    gold = PerAnnotator(gold, item, 2, 3, np.array([0, 3, 9]))
    pred = PerAnnotator(pred, item, 2, 3)
    errors = kinds.of(track).item_errors(track, gold, pred)
    metric = get_metric(track.main_metric)
    assert errors.tolist() == metric.item_stats(gold, pred)[:, 0].tolist()
    assert errors.mean() == metric.score(gold, pred).value
    # MER: per label 0, 0.33333, 0.33333 (annotator 3 chose c, not b), then their mean
    assert errors.tolist() == (
        [0.22222, 0.33334 / 3] if scale == "multilabel" else [0.33333, 0.16667]
    )


def test_a_soft_label_item_error_is_its_main_metric_on_the_item_alone():
    """The soft-label kind reads an item's error off its main metric's per-item statistic, which is
    the metric on that item alone only for a mean over items: every metric it may score is one."""
    kind = kinds.REGISTRY["soft_label"]
    for scale in kind.scales:
        for name in kind.applicable_metrics(scale):
            assert get_metric(name).stats_form == MEAN, name
    track = track_from_dict(
        {
            "id": "s",
            "kind": "soft_label",
            "scale": "categorical",
            "dataset": "d",
            "labels": ["a", "b"],
        }
    )
    gold = np.array([[1.0, 0.0], [0.5, 0.5]])
    pred = np.array([[0.0, 1.0], [0.5, 0.5]])
    errors = kind.item_errors(track, gold, pred)
    metric = get_metric(track.main_metric)
    for i in range(2):
        assert errors[i] == pytest.approx(metric.score(gold[i : i + 1], pred[i : i + 1]).value)


#: Accepted similarity predictions so large that a difference or a sum of two of them overflows.
HUGE_PREDICTIONS = {
    "gold_times_3e307": lambda i, gold: gold * 3e307,
    "two_items_at_plus_minus_1e308": lambda i, gold: (1e308, -1e308)[i] if i < 2 else gold,
}


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("case", sorted(HUGE_PREDICTIONS))
def test_huge_similarity_predictions_keep_the_csv_the_worst_items_and_a_finite_plot(
    tmp_path, capsys, case
):
    """Issue 34, item 11: the item error's line is fitted on rescaled predictions (any scale gives
    the same errors), so it never overflows; the public gold is written whatever the error; the
    scatter plot's coordinates stay finite; and no numpy warning reaches the log."""
    gold = make_phase(tmp_path, hide_gold=False, n_items=40)["sim"]
    predicted = np.array([HUGE_PREDICTIONS[case](i, it["score"]) for i, it in enumerate(gold)])
    (tmp_path / "res" / "sim.tsv").write_text(
        "".join(f"{it['id']}\t{value!r}\n" for it, value in zip(gold, predicted.tolist()))
    )
    page = run_and_read(tmp_path)
    assert capsys.readouterr().err == ""
    rows = [r for r in _csv_rows(tmp_path / "out" / report.DETAILED_CSV) if r["track"] == "sim"]
    scores = np.array([it["score"] for it in gold])
    assert [float(r["gold"]) for r in rows] == scores.tolist()
    small = predicted / 1e308  # the same line fits these, and numpy fits them without overflow
    slope, intercept = np.polyfit(small, scores, 1)
    expected = np.abs(scores - (slope * small + intercept))
    assert [float(r["error"]) for r in rows] == pytest.approx(expected, rel=1e-6, abs=1e-9)
    section = page[page.index("<h2>Similarity") :].split("</section>")[0]
    assert "items with the largest error" in section
    svg = section[section.index("<svg") : section.index("</svg>")]
    assert svg.count("<circle") == len(gold)
    assert not re.search(r"\b(nan|inf)\b", svg, re.IGNORECASE)


def test_the_csv_writes_every_item_s_public_gold_even_where_its_error_is_undefined(
    tmp_path, monkeypatch
):
    """The gold column follows the gold (the items that have it), never the error: an item whose
    error cannot be computed keeps its gold and gets an empty error cell."""
    gold = make_phase(tmp_path, hide_gold=False, n_items=20)["sim"]
    similarity = type(kinds.REGISTRY["similarity"])
    computed = similarity.item_errors

    def first_undefined(self, track, gold, predicted):
        errors = np.array(computed(self, track, gold, predicted), dtype=float)
        errors[0] = np.nan
        return errors

    monkeypatch.setattr(similarity, "item_errors", first_undefined)
    run_and_read(tmp_path)
    rows = [r for r in _csv_rows(tmp_path / "out" / report.DETAILED_CSV) if r["track"] == "sim"]
    assert [float(r["gold"]) for r in rows] == [it["score"] for it in gold]
    assert rows[0]["error"] == "" and all(r["error"] for r in rows[1:])


@pytest.mark.parametrize("n_items, warned", [(4, True), (12, False)])
def test_intervals_over_fewer_than_ten_items_carry_a_warning(tmp_path, n_items, warned):
    """Intervals over a handful of items (a 2-item group spans the metric's whole range) are
    shown with a warning that they say little; over 10 items or more, without."""
    make_phase(tmp_path, hide_gold=False, n_items=n_items)
    page = run_and_read(tmp_path)
    warning = f"Warning: these intervals are drawn over only {n_items} items (fewer than 10)"
    assert (warning in page) == warned


@pytest.mark.parametrize(
    "text, expected",
    [
        ("{not json", {}),
        ("[1, 2]", {}),
        (
            '{"random": {"sts_en": "x", "nli_zh": 0.5, "irony": NaN}, "broken": 3}',
            {"random": {"nli_zh": 0.5}},
        ),
        (
            '{"random": {"sts_en": 1' + "0" * 400 + ', "nli_zh": -Infinity, "irony": 2}}',
            {"random": {"irony": 2.0}},
        ),
    ],
)
def test_a_hand_edited_baseline_scores_file_never_stops_the_scoring(text, expected, tmp_path):
    """The page's baselines column reads what it can of ``baseline_scores.json`` (the builder's
    file, which an organiser may edit by hand) and drops the rest, never failing the scoring."""
    (tmp_path / report.BASELINE_SCORES).write_text(text, encoding="utf-8")
    assert report.read_baseline_scores(tmp_path) == expected


def test_the_texts_cells_take_their_own_texts_direction():
    """An item's text cell has dir='auto' (the trial's ArMIS Arabic: its cut mark shows at its
    text's end); its head and the other columns' cells have none."""
    columns = [("Item", report.LEFT), ("Texts", report.TEXT), ("Error", report.RIGHT)]
    table = report.html_table(
        columns, [["a-1", report.item_text_cell(["\u0645\u0631\u062d\u0628\u0627"]), "1"]]
    )
    assert "<th class='l'>Texts</th>" in table and table.count("dir='auto'") == 1
    assert "<td class='l' dir='auto'>\u0645\u0631\u062d\u0628\u0627</td>" in table
