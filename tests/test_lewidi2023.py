"""LeWiDi 2023 (SemEval-2023 Task 11): the lewidi importer on the real 2023 release
(../shared/data/lewidi2023) and small copies, the gold its options choose (the release's soft and
hard labels), and the 2023 submission layout ``<Dataset>_results.tsv``. Expected values come from
the release README and from reading the raw JSON here."""

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from codajudge.errors import ConfigError, FileRefusals, SubmissionError
from codajudge.formats.coverage import OtherPhases
from codajudge.formats.submission import ItemKeys, read_prediction
from codajudge.gold import build_gold
from codajudge.importers.lewidi import load_split
from codajudge.scoring import read_track_file, score_track
from codajudge.tracks import track_from_dict

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
RELEASE = DATA / "lewidi2023"
pytestmark = pytest.mark.skipif(not RELEASE.is_dir(), reason="../shared/data/lewidi2023 is absent")

NAMES = ("ArMIS", "ConvAbuse", "HS-Brexit", "MD-Agreement")
COUNTS = {
    "ArMIS": (657, 141, 145),
    "ConvAbuse": (2398, 812, 840),
    "HS-Brexit": (784, 168, 168),
    "MD-Agreement": (6592, 1104, 3057),
}
SEVERITY = {"-3": "1", "-2": "1", "-1": "1", "0": "0", "1": "0"}
SOFT = track_from_dict(
    {
        "id": "soft",
        "kind": "soft_label",
        "scale": "categorical",
        "labels": ["0", "1"],
        "metrics": ["cross_entropy"],
        "results_layout": "lewidi2023",
    }
)
HARD = track_from_dict(
    {
        "id": "hard",
        "kind": "classification",
        "labels": ["0", "1"],
        "metrics": ["micro_f1"],
        "results_layout": "lewidi2023",
    }
)


def source(dataset, **options):
    base = {"importer": "lewidi", "path": "lewidi2023", "dataset": dataset}
    if dataset == "ConvAbuse":
        base["label_map"] = SEVERITY
    return {**base, **options}


def raw(dataset, split):
    path = RELEASE / f"{dataset}_dataset" / f"{dataset}_{split}.json"
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("dataset", NAMES)
def test_the_2023_layout_is_read_item_by_item_from_the_release(dataset):
    for split, count in zip(("train", "dev", "test"), COUNTS[dataset]):
        items = load_split(source(dataset), DATA, split)
        records = raw(dataset, split)
        assert len(items) == count and [it["id"] for it in items] == list(records)
        first, record = items[0], records[items[0]["id"]]
        assert first["texts"] == [record["text"]] and first["lang"] == record["lang"]
        assert first["annotators"] == record["annotators"].split(",")
        assert "label" not in first and "distribution" not in first  # gold: the annotations only


def test_convabuse_severity_is_mapped_and_its_annotator_counts_vary():
    sizes = set()
    for split in ("train", "dev", "test"):
        records = raw("ConvAbuse", split)
        for item in load_split(source("ConvAbuse"), DATA, split):
            severities = records[item["id"]]["annotations"].split(",")
            assert item["annotations"] == [SEVERITY[s] for s in severities]
            sizes.add(len(item["annotators"]))
    assert min(sizes) == 2 and max(sizes) == 8


def test_convabuse_without_label_map_says_how_to_map_the_severity_scale():
    with pytest.raises(ConfigError, match="label_map") as refused:
        load_split(
            {**source("ConvAbuse"), "label_map": None, "check_soft_label": False}, DATA, "dev"
        )
    assert "found '-2'" in str(refused.value) and "ConvAbuse_dev.json" in str(refused.value)


def test_release_gold_keeps_the_files_soft_labels_and_the_organisers_tie_breaks():
    for split, numbers in (("train", 77), ("dev", 29)):
        items = load_split(
            source("ConvAbuse", soft_gold="release", hard_gold="release"), DATA, split
        )
        records = raw("ConvAbuse", split)
        assert [it["label"] for it in items] == [str(r["hard_label"]) for r in records.values()]
        assert [it["distribution"] for it in items] == [r["soft_label"] for r in records.values()]
        assert sum(type(r["hard_label"]) is int for r in records.values()) == numbers


@pytest.mark.parametrize("dataset, ties", [("HS-Brexit", 13), ("ConvAbuse", 29)])
def test_a_recomputed_majority_leaves_the_test_ties_unscored(dataset, ties):
    majority = load_split(source(dataset, hard_gold="majority"), DATA, "test")
    released = load_split(source(dataset, hard_gold="release"), DATA, "test")
    assert sum(it["label"] is None for it in majority) == ties
    assert all(it["label"] is not None for it in released)
    gold = build_gold(HARD, majority, "test")
    assert gold.n_scored == len(majority) - ties


def test_an_annotator_listed_twice_keeps_both_annotations_as_the_soft_label_counts_them():
    items = {it["id"]: it for it in load_split(source("MD-Agreement"), DATA, "test")}
    assert items["2038"]["annotators"].count("Ann448") == 2
    assert Counter(items["2038"]["annotations"]) == {"0": 4, "1": 1}  # soft_label 0.8 / 0.2


def test_split_in_ids_prefixes_every_id_with_its_split():
    items = load_split(source("ArMIS", split_in_ids=True), DATA, "dev")
    assert [it["id"] for it in items] == [f"dev-{k}" for k in raw("ArMIS", "dev")]


def test_soft_gold_release_is_the_gold_of_soft_label_tracks():
    items = load_split(source("HS-Brexit", soft_gold="release"), DATA, "test")
    gold = build_gold(SOFT, items, "test")
    released = [
        [r["soft_label"]["0"], r["soft_label"]["1"]] for r in raw("HS-Brexit", "test").values()
    ]
    assert np.array_equal(gold.gold, np.array(released))  # 0.67, not 2/3
    shares = build_gold(SOFT, load_split(source("HS-Brexit"), DATA, "test"), "test")
    assert not np.array_equal(shares.gold, gold.gold)


def test_a_broken_gold_distribution_is_refused_naming_the_item():
    items = [
        {
            "id": "a",
            "texts": ["x"],
            "annotators": ["A"],
            "annotations": ["0"],
            "distribution": {"0": 0.5, "1": 0.2},
        },
        {
            "id": "b",
            "texts": ["y"],
            "annotators": ["A"],
            "annotations": ["1"],
            "distribution": {"yes": 1.0},
        },
    ]
    with pytest.raises(ConfigError) as refused:
        build_gold(SOFT, items, "ref.jsonl")
    message = str(refused.value)
    assert "ref.jsonl" in message and "item 'a'" in message and "item 'b'" in message
    assert "gold 'distribution'" in message


# --- the 2023 results layout ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def brexit_dev():
    items = load_split(source("HS-Brexit", soft_gold="release", hard_gold="release"), DATA, "dev")
    return build_gold(SOFT, items, "dev"), build_gold(HARD, items, "dev")


def test_one_results_file_gives_both_tracks_of_its_dataset(brexit_dev, tmp_path):
    soft, hard = brexit_dev
    rng = np.random.default_rng(5)
    p1 = rng.uniform(size=len(soft.ids)).round(3)
    labels = (p1 > 0.5).astype(int)
    path = tmp_path / "HS-Brexit_results.tsv"
    path.write_text("".join(f"{h}\t{1 - p:.3f}\t{p:.3f}\n" for h, p in zip(labels, p1)))
    read_soft = read_track_file(path, path.name, soft)
    read_hard = read_track_file(path, path.name, hard)
    assert np.allclose(read_soft.values, np.column_stack([1 - p1, p1]))
    assert np.array_equal(read_hard.values, labels)
    assert any("LeWiDi 2023 layout" in w for w in read_soft.warnings)
    scored = score_track(hard, read_hard, path.name).scores["micro_f1"]
    assert scored == pytest.approx(np.mean(labels == hard.gold))


def test_a_results_file_of_another_row_count_names_the_count_and_the_phase(brexit_dev, tmp_path):
    soft, _ = brexit_dev
    path = tmp_path / "HS-Brexit_results.tsv"
    path.write_text("0\t1.0\t0.0\n" * 145)
    phases = {"evaluation": 145, "local": 78}
    other = {p: {SOFT.dataset: frozenset(map(str, range(n)))} for p, n in phases.items()}
    keys = ItemKeys(soft.ids, soft.annotators, elsewhere=OtherPhases(SOFT, other))
    with pytest.raises(SubmissionError) as refused:
        read_prediction(path, path.name, SOFT, keys)
    message = str(refused.value)
    assert "HS-Brexit_results.tsv" in message and "expected 168 rows" in message
    assert "found 145 non-blank rows" in message and "the evaluation phase has items" in message


def test_a_results_file_of_as_many_rows_as_another_phases_items_is_noted(brexit_dev, tmp_path):
    """HS-Brexit's dev and test splits both have 168 items: a file without ids of that many rows is
    read, with a note naming the phases of the same count (none when no other phase has it)."""
    soft, _ = brexit_dev
    path = tmp_path / "HS-Brexit_results.tsv"
    path.write_text("0\t1.0\t0.0\n" * 168)
    phases = {"practice": 168, "local": 78, "post-campaign": 168}
    other = {p: {SOFT.dataset: frozenset(map(str, range(n)))} for p, n in phases.items()}
    keys = ItemKeys(soft.ids, soft.annotators, elsewhere=OtherPhases(SOFT, other))
    note = "as many as the items of this phase and of the practice and post-campaign phases"
    assert any(note in w for w in read_prediction(path, path.name, SOFT, keys).warnings)
    keys = ItemKeys(
        soft.ids, soft.annotators, elsewhere=OtherPhases(SOFT, {"local": other["local"]})
    )
    assert not any("no ids" in w for w in read_prediction(path, path.name, SOFT, keys).warnings)


def refused_for_both_tracks(path: Path, golds) -> str:
    """The one refusal of a results file read, as the layout's file, for HS-Brexit's soft and hard
    tracks (``golds``, the ``brexit_dev`` fixture's)."""
    refusals = FileRefusals()
    for track, gold in zip((SOFT, HARD), golds):
        track = track_from_dict({**track.to_dict(), "files": [path.name]})
        refusals.attempt(
            read_prediction, path, path.name, track, ItemKeys(gold.ids, gold.annotators)
        )
    with pytest.raises(SubmissionError) as refused:
        refusals.raise_if_any()
    return str(refused.value)


def results_with_one_row(folder: Path, n_items: int, line: int, row: str) -> Path:
    """An ``HS-Brexit_results.tsv`` of ``n_items`` sound 2023-layout rows (``0<TAB>1.0<TAB>0.0``)
    but line ``line`` (1-based), which is ``row``."""
    rows = ["0\t1.0\t0.0"] * n_items
    rows[line - 1] = row
    path = folder / "HS-Brexit_results.tsv"
    path.write_text("\n".join(rows) + "\n")
    return path


@pytest.mark.parametrize(
    "row, found",
    [
        ("dev-1\t0\t0.875\t0.125", "found 4 fields: 'dev-1\\t0\\t0.875\\t0.125'"),
        ("0.875\t0.125", "found 2 fields"),
        ("0,0.875,0.125", "found 1 field: '0,0.875,0.125'"),
        ("0 0.875 0.125", "found 1 field"),
    ],
    ids=["id_column", "soft_only", "commas", "spaces"],
)
def test_a_results_file_of_another_layout_is_told_the_2023_layout_once(
    brexit_dev, tmp_path, row, found
):
    """A file named as the layout's whose rows are not hard label<TAB>p0<TAB>p1 (an id added,
    probabilities only, commas or spaces) is told that layout, and the per-track files that take
    ids, in one message for both its tracks."""
    path = tmp_path / "HS-Brexit_results.tsv"
    path.write_text(f"{row}\n" * len(brexit_dev[0].ids))
    message = refused_for_both_tracks(path, brexit_dev)
    assert message.count(path.name) == 1 and "line 1: " in message and found in message, message
    assert "expected 3 tab-separated fields, label<TAB>p0<TAB>p1, no id" in message
    assert "<track id>.tsv" in message and "ID<TAB>VALUE" in message


@pytest.mark.parametrize("make_id", [str, lambda i: f"item{i}"], ids=["track_ids", "id_shaped"])
def test_a_tracks_own_file_of_ids_and_probabilities_is_refused_not_read_by_position(
    brexit_dev, tmp_path, make_id
):
    """The trial's armis_soft.tsv (ID<TAB>p0<TAB>p1, reversed order) was read in the 2023 layout:
    its ids taken as hard labels, its rows aligned by position (7.71 for the gold's 0.22)."""
    soft, hard = brexit_dev
    ids = [make_id(i) for i in soft.ids]
    rows = [f"{i}\t{p0}\t{p1}" for i, (p0, p1) in zip(ids, soft.gold)][::-1]
    path = tmp_path / "soft.tsv"
    path.write_text("\n".join(rows) + "\n")
    for track, gold in ((SOFT, soft), (HARD, hard)):
        with pytest.raises(SubmissionError) as refused:
            read_prediction(path, path.name, track, ItemKeys(gold.ids, gold.annotators))
        message = str(refused.value)
        assert "line 1: the first column holds ids" in message, message
        assert f"found the id {ids[-1]!r}" in message
        assert "expected ID<TAB>VALUE lines, or the LeWiDi 2023 layout" in message
        assert "remove the id column, keeping the rows in item order" in message
    assert f"the soft label as one JSON list ({ids[-1]}<TAB>[" in str(
        pytest.raises(
            SubmissionError, read_prediction, path, path.name, SOFT, ItemKeys(soft.ids)
        ).value
    )


def test_a_results_file_with_an_id_column_is_told_to_remove_it_once(brexit_dev, tmp_path):
    """3 fields, the first an id: was told "label outside the track's label set" on every line."""
    soft, _ = brexit_dev
    path = tmp_path / "HS-Brexit_results.tsv"
    path.write_text("".join(f"{i}\t0.5\t0.5\n" for i in soft.ids))
    message = refused_for_both_tracks(path, brexit_dev)
    assert message.count(path.name) == 1 and "line 1: the first column holds ids" in message
    assert "label outside" not in message
    assert "Remove the id column, keeping the rows in item order, the hard label first" in message


def test_a_soft_track_reads_the_2023_layout_only_with_labels_in_the_first_column(
    brexit_dev, tmp_path
):
    soft, _ = brexit_dev
    path = results_with_one_row(tmp_path, len(soft.ids), 5, "2\t1.0\t0.0")
    with pytest.raises(SubmissionError, match=r"line 5: label outside the track's label set"):
        read_track_file(path, path.name, soft)


def test_the_evaluation_page_says_the_kit_renormalises_what_the_2023_code_did_not(
    brexit_dev, tmp_path
):
    """Rows truncated to 3 decimals (summing to 0.998 or so) are renormalised by the kit and not by
    the 2023 code, so the scores differ: the page claimed the organisers' computation, unqualified."""
    from codajudge.bundle import pages
    from codajudge.bundle.edition import load_edition

    soft, _ = brexit_dev
    rng = np.random.default_rng(3)
    p1 = rng.uniform(0.05, 0.95, size=len(soft.ids))
    rows = np.floor(np.column_stack([1 - p1, p1]) * 1000) / 1000
    path = tmp_path / "soft.tsv"
    path.write_text("".join(f"{i}\t{json.dumps(list(r))}\n" for i, r in zip(soft.ids, rows)))
    kit = score_track(soft, read_track_file(path, path.name, soft), path.name)
    clipped = np.clip(rows, 1e-12, 1 - 1e-12)
    organisers = -np.sum(soft.gold * np.log(clipped + 1e-9)) / len(rows)
    assert abs(kit.scores["cross_entropy"] - organisers) > 1e-4
    editions = Path(__file__).resolve().parents[1] / "editions"
    no_local = pages.LocalScore(practice_public=True, local_items={})
    page = pages.evaluation_page(load_edition(editions / "lewidi2023"), no_local)
    assert "a predicted row summing to within 0.02 of 1 is first renormalised" in page
    assert "which their code did not" in page


def test_a_results_file_with_a_header_line_is_told_to_remove_it(brexit_dev, tmp_path):
    soft, _ = brexit_dev
    path = tmp_path / "HS-Brexit_results.tsv"
    path.write_text("hard_label\tp0\tp1\n" + "0\t1.0\t0.0\n" * len(soft.ids))
    with pytest.raises(SubmissionError) as refused:
        read_prediction(path, path.name, SOFT, ItemKeys(soft.ids, soft.annotators))
    assert "Line 1 ('hard_label\\tp0\\tp1') looks like a header" in str(refused.value)


def test_a_file_refused_alike_for_both_its_tracks_is_named_once(brexit_dev, tmp_path):
    soft, hard = brexit_dev
    path = tmp_path / "HS-Brexit_results.tsv"
    path.write_text("0\t1.0\t0.0\n" * 10)
    refusals = FileRefusals()
    for track, gold in ((SOFT, soft), (HARD, hard)):
        refusals.attempt(read_prediction, path, path.name, track, ItemKeys(gold.ids))
    with pytest.raises(SubmissionError) as refused:
        refusals.raise_if_any()
    assert str(refused.value).count("HS-Brexit_results.tsv") == 1, str(refused.value)


def test_a_results_row_that_is_not_label_and_probabilities_is_located(brexit_dev, tmp_path):
    soft, _ = brexit_dev
    path = results_with_one_row(tmp_path, len(soft.ids), 7, "0\tabc\t0.0")
    with pytest.raises(SubmissionError, match=r"line 7.*3 fields: label<TAB>p0<TAB>p1"):
        read_track_file(path, path.name, soft)


@pytest.mark.parametrize(
    "row, problem",
    [
        (  # the layout's fields are plain numbers: no json.dumps of a list (lewidi23/npr)
            "0\tnp.float64(0.5)\tnp.float64(0.5)",
            "not a number; .* This is numpy's printing: write each field as a plain number "
            r"\(float\(x\) for each",
        ),
        ("0\t0,5\t0,5", "not a number; .* Use a dot as the decimal separator"),
        ("0\tnan\t0.5", "not a finite number; .* found 'nan'"),
    ],
    ids=["numpy", "decimal_comma", "nan"],
)
def test_a_results_rows_bad_probability_is_named_as_a_file_of_lines_names_it(
    brexit_dev, tmp_path, row, problem
):
    """A row of the layout's 3 fields is refused for its probability's own problem, as the TSV
    readers name it, not as a row of another shape."""
    soft, hard = brexit_dev
    path = results_with_one_row(tmp_path, len(soft.ids), 7, row)
    for gold in (soft, hard):
        with pytest.raises(SubmissionError, match=f"line 7: {problem}") as refused:
            read_track_file(path, path.name, gold)
        assert "one probability per label" not in str(refused.value)


def test_a_results_rows_percentage_is_told_to_divide_it_by_100(brexit_dev, tmp_path):
    """lewidi23/pct_str (0<TAB>87%<TAB>13%) was told "write the number without the % sign (62.7,
    not 62.7%)", and 87 and 13 were then refused for summing to 100. A probability written as a
    percentage is told to divide it by 100."""
    soft, hard = brexit_dev
    path = results_with_one_row(tmp_path, len(soft.ids), 7, "0\t87%\t13%")
    for gold in (soft, hard):
        with pytest.raises(SubmissionError) as refused:
            read_track_file(path, path.name, gold)
        assert str(refused.value) == (
            "HS-Brexit_results.tsv, line 7: not a number; expected 3 fields: label<TAB>p0<TAB>p1, "
            "each p a decimal number such as 0.5, found '87%'. A probability is a number from 0 "
            "to 1: divide the percentage by 100 (0.87, not 87%)"
        )


def test_rows_of_probabilities_then_the_label_are_told_the_layouts_order(brexit_dev, tmp_path):
    """lewidi23/order (p0<TAB>p1<TAB>hard) was told "label outside the track's label set, on 140
    lines ... found '0.87'. Give a label among 0, 1": where most rows' first field is a number in
    (0, 1) that is no label, the hint says it looks like a probability and gives the layout."""
    soft, hard = brexit_dev
    n = len(soft.ids)
    path = tmp_path / "HS-Brexit_results.tsv"
    path.write_text("0.87\t0.13\t0\n" * (n - 1) + "0\t1.0\t0.0\n")
    for gold in (soft, hard):
        with pytest.raises(SubmissionError) as refused:
            read_track_file(path, path.name, gold)
        said = str(refused.value)
        assert said.startswith(
            f"HS-Brexit_results.tsv: label outside the track's label set, on {n - 1} lines"
        )
        assert said.endswith(
            f"The first field of {n - 1} of the {n} rows is a probability (a number from 0 to 1 "
            "that is no label, or written with a decimal point): the layout is "
            "hard_label<TAB>p0<TAB>p1, the hard label (one of 0, 1) first"
        )
    # a unanimous item's row, probabilities first (1.0<TAB>0.0<TAB>0), names label 1 by its first
    # field: it counts as written in the layout's other order, so most rows still get the hint
    path.write_text("1.0\t0.0\t0\n" * (n - n // 3) + "0.67\t0.33\t0\n" * (n // 3))
    with pytest.raises(SubmissionError) as refused:
        read_track_file(path, path.name, hard)
    assert f"The first field of {n} of the {n} rows is a probability" in str(refused.value)
    path.write_text("0\t1.0\t0.0\n" * (n // 2) + "0.5\t0.5\t0\n" * (n - n // 2))
    with pytest.raises(SubmissionError) as refused:
        read_track_file(path, path.name, hard)
    assert str(refused.value).endswith("Give a label among 0, 1")


def test_rows_failing_as_soft_labels_in_another_order_are_told_the_layouts_order(
    brexit_dev, tmp_path
):
    """lewidi23/order_base (1.0<TAB>0.0<TAB>0, the baseline's values with the hard label last) was
    told "soft label does not sum to 1 ... found sum 0" with no column-order hint: 1.0 names label
    1. A row failing as a soft label whose first field has a decimal point, or whose last field is
    a label as written, is told the layout's order."""
    soft, hard = brexit_dev
    n = len(soft.ids)
    path = tmp_path / "HS-Brexit_results.tsv"
    path.write_text("1.0\t0.0\t0\n" * n)
    with pytest.raises(SubmissionError) as refused:
        read_track_file(path, path.name, soft)
    said = str(refused.value)
    assert said.startswith(f"HS-Brexit_results.tsv: soft label does not sum to 1, on {n} lines")
    assert said.endswith(
        "The row's first field is written as a probability (with a decimal point) or its last as "
        "a label: columns in another order? the layout is hard_label<TAB>p0<TAB>p1, the hard "
        "label (one of 0, 1) first"
    )
    path.write_text("0\t0.5\t0.5\n" * (n - 1) + "1\t0.2\t0.2\n")  # the layout's look: no hint
    with pytest.raises(SubmissionError) as refused:
        read_track_file(path, path.name, soft)
    assert "columns in another order" not in str(refused.value)


def test_an_empty_hard_label_is_told_the_layout_needs_one_on_every_row(brexit_dev, tmp_path):
    """lewidi23/emp (<TAB>0.68<TAB>0.32, soft labels only) was told "label outside the track's
    label set ... found ''": the hard label is empty, and the layout needs one on every row, or
    the soft-label track its own file."""
    soft, hard = brexit_dev
    path = tmp_path / "HS-Brexit_results.tsv"
    path.write_text("\t0.68\t0.32\n" * len(soft.ids))
    for gold in (soft, hard):
        with pytest.raises(SubmissionError) as refused:
            read_track_file(path, path.name, gold)
        said = str(refused.value)
        assert said.startswith(
            f"HS-Brexit_results.tsv: the hard label is empty, on {len(soft.ids)} lines"
        )
        assert said.endswith(
            "expected one of 0, 1, found '' on line 1. The layout needs one on every row, even for "
            "an entry of soft labels only: write the row's most probable label (its argmax); or "
            "enter the soft-label track alone by its own file of ID<TAB>VALUE lines, named after "
            "the track (<track id>.tsv, listed on the Data page)"
        )


ARABIC_INDIC = str.maketrans("0123456789.", "٠١٢٣٤٥٦٧٨٩٫")


@pytest.mark.parametrize("separator", [".", "٫"])
def test_values_and_ids_in_arabic_indic_digits_are_named_with_the_fix(
    brexit_dev, tmp_path, separator
):
    """lewidi23/ar_arabicdigits_ids, _vals and ar_arabicdecsep (dev-١, ٠.٦٨, ٠٫٦٨) were refused
    without naming the cause. A value, label or id holding a Unicode decimal digit that is not
    ASCII names the digits' script (by its character name) and range, and the fix."""
    soft, hard = brexit_dev
    n = len(soft.ids)
    fix = "write ASCII digits (str.translate, or int() and float(), which read them)"
    written = "written with Arabic-Indic digits (U+0660..U+0669)"
    path = tmp_path / "HS-Brexit_results.tsv"
    table = ARABIC_INDIC if separator != "." else str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
    path.write_text("0\t0.68\t0.32\n".translate(table) * n)
    with pytest.raises(SubmissionError) as refused:
        read_track_file(path, path.name, soft)
    shown = "0.68".translate(table)
    if separator == ".":
        assert str(refused.value).endswith(
            f"found {shown!r} on line 1. The value is {written}: {fix}"
        )
    else:
        assert str(refused.value).endswith(
            f"found {shown!r} on line 1. The value is {written} and the Arabic decimal "
            f"separator (U+066B): {fix} and a dot for U+066B"
        )
    path.write_text("٠\t0.68\t0.32\n" * n)  # the hard label alone
    with pytest.raises(SubmissionError) as refused:
        read_track_file(path, path.name, hard)
    assert str(refused.value).endswith(f"found '٠' on line 1. The label is {written}: {fix}")
    path = tmp_path / "hard.tsv"
    path.write_text("".join(f"{i.translate(table)}\t0\n" for i in hard.ids))
    with pytest.raises(SubmissionError) as refused:
        read_track_file(path, path.name, hard)
    said = str(refused.value)
    assert said.startswith("hard.tsv: none of the ids in this file belong to the track"), said
    assert said.endswith(f"The id {hard.ids[0].translate(table)!r} is {written}: {fix}"), said


@pytest.mark.parametrize(
    "row, soft_track, problem",
    [
        (
            "2\t1.0\t0.0",
            False,
            "label outside the track's label set; expected one of 0, 1, found '2'. Give a label "
            "among 0, 1",
        ),
        (
            "0\t1.2\t-0.2",
            True,
            "soft label has a negative probability; expected probabilities >= 0, found -0.2. "
            "Probabilities are between 0 and 1: give each label's probability, the soft label "
            "summing to 1 (a model's raw scores, logits, become such by a softmax)",
        ),
        (  # the hard label as numpy prints a number (lewidi23/npr's rows, the label so written)
            "np.int64(0)\t0.5\t0.5",
            False,
            "found 'np.int64(0)'. This is numpy's printing: write the label itself (x.item(), or "
            "int(x))",
        ),
    ],
    ids=["label", "negative", "numpy_label"],
)
def test_a_results_rows_refused_value_says_how_to_fix_it(
    brexit_dev, tmp_path, row, soft_track, problem
):
    """The trial's refusals said where, what was expected and what was found, but not the fix."""
    soft, hard = brexit_dev
    path = results_with_one_row(tmp_path, len(soft.ids), 7, row)
    with pytest.raises(SubmissionError) as refused:
        read_track_file(path, path.name, soft if soft_track else hard)
    assert str(refused.value).endswith(problem)
    assert "line 7" in str(refused.value)


def test_a_results_row_nested_deeper_than_json_reads_is_located_not_a_traceback(
    brexit_dev, tmp_path
):
    soft, _ = brexit_dev
    path = results_with_one_row(tmp_path, len(soft.ids), 3, "0\t" + "[" * 100_000 + "\t0.0")
    with pytest.raises(SubmissionError, match=r"line 3.*3 fields: label<TAB>p0<TAB>p1"):
        read_track_file(path, path.name, soft)


def test_a_track_without_the_layout_reads_such_a_file_as_the_kits_own(brexit_dev, tmp_path):
    soft, _ = brexit_dev
    plain = track_from_dict({**SOFT.to_dict(), "results_layout": None})
    path = tmp_path / "soft.tsv"
    path.write_text("0\t1.0\t0.0\n" * len(soft.ids))
    with pytest.raises(SubmissionError) as refused:
        read_prediction(path, path.name, plain, ItemKeys(soft.ids, soft.annotators))
    # refused, not read in the layout: the refusal names the layout as one this track does not read
    layout = "looks like the LeWiDi 2023 layout (hard label<TAB>p0<TAB>p1 rows, no id), which this "
    assert layout + "track does not read" in str(refused.value)


def test_results_layout_is_refused_on_a_track_it_does_not_fit():
    with pytest.raises(ConfigError, match="results_layout"):
        track_from_dict({"id": "s", "kind": "similarity", "results_layout": "lewidi2023"})


def test_the_data_page_states_the_gold_chosen_and_the_2023_layout():
    from codajudge.bundle.edition import load_edition
    from codajudge.bundle.pages import data_page

    editions = Path(__file__).resolve().parents[1] / "editions"
    page = data_page(load_edition(editions / "lewidi2023"))
    assert "- `hs_brexit`: soft-label gold is the release's own `soft_label`" in page
    assert "ties broken at random by the organisers" in page and "-3 -> 1, -2 -> 1" in page
    assert "`ConvAbuse_results.tsv`: `convabuse_soft`, `convabuse_hard`" in page
    other = data_page(load_edition(editions / "lewidi2025"))
    assert "**Gold.**" not in other and "LeWiDi 2023 layout" not in other


def test_the_kit_readme_says_the_2023_files_have_no_ids():
    """The README said ArMIS_results.tsv is "read as armis_soft.tsv and armis_hard.tsv", never
    that it has no ids and is hard<TAB>p0<TAB>p1 in item order (only the Data page did)."""
    from codajudge.bundle import pages
    from codajudge.bundle.edition import load_edition

    editions = Path(__file__).resolve().parents[1] / "editions"
    no_local = pages.LocalScore(practice_public=True, local_items={})
    listed = [dict(title=name, file=f"pages/{name}.md") for name in ("data", "evaluation", "terms")]
    readme = pages.render(load_edition(editions / "lewidi2023"), no_local, {}, listed, "random")
    assert (
        "`HS-Brexit_results.tsv` and `MD-Agreement_results.tsv` hold no ids: one row per " in readme
    )
    assert "in the phase's input order, `hard_label<TAB>p0<TAB>p1`" in readme
    other = pages.render(load_edition(editions / "lewidi2025"), no_local, {}, listed, "random")
    assert "hold no ids" not in other


def test_a_results_file_whose_probabilities_are_swapped_is_noted_for_both_tracks(
    brexit_dev, tmp_path
):
    """hard<TAB>p1<TAB>p0 (the trial's order2.zip): the hard label is its row's least probable
    label on nearly every row, which the note names with its counts; a file agreeing on 80% of its
    rows, or of fewer than 20 rows, is not noted."""
    soft, hard = brexit_dev
    p1 = np.random.default_rng(6).uniform(0.55, 0.95, size=len(soft.ids)).round(3)
    n = len(p1)

    def read(agree: int, name="HS-Brexit_results.tsv"):
        path = tmp_path / name
        rows = [
            f"1\t{1 - p:.3f}\t{p:.3f}" if j < agree else f"1\t{p:.3f}\t{1 - p:.3f}"
            for j, p in enumerate(p1)
        ]
        path.write_text("\n".join(rows) + "\n")
        return [" ".join(read_track_file(path, path.name, t).warnings) for t in (soft, hard)]

    said = f"not its row's most probable label on {n} of {n} rows: columns swapped?"
    assert all(said in warnings for warnings in read(0))
    assert all("columns swapped?" not in warnings for warnings in read(n // 5))
    from codajudge.formats.results_tsv import swapped_note

    rows = [(1, [round(p, 3), round(1 - p, 3)]) for p in p1]  # label 1 below its row's p0
    assert swapped_note(soft.track, rows[:19]) is None
    assert "on 20 of 20 rows" in swapped_note(soft.track, rows[:20])


def test_a_results_file_given_twice_names_every_track_it_is_for(tmp_path):
    """ArMIS_results.tsv at the root and in x/ (the trial's dup.zip) is refused naming both ArMIS
    tracks it gives, not only the first."""
    from codajudge.bundle.edition import load_edition
    from codajudge.formats.archive import locate_track_files

    edition = load_edition(Path(__file__).resolve().parents[1] / "editions" / "lewidi2023")
    for relative in ("ArMIS_results.tsv", "x/ArMIS_results.tsv"):
        (tmp_path / relative).parent.mkdir(exist_ok=True)
        (tmp_path / relative).write_text("0\t0.5\t0.5\n")
    with pytest.raises(SubmissionError) as refused:
        locate_track_files(tmp_path, edition.tracks)
    message = str(refused.value)
    armis = sorted(t.id for t in edition.tracks if "ArMIS_results.tsv" in t.file_names)
    assert len(armis) == 2 and f"tracks '{armis[0]}', '{armis[1]}' (2) are given" in message
    assert "found 2 files" in message and message.count("ArMIS_results.tsv") == 2


def test_a_tracks_own_file_reads_the_2023_rows_too_and_the_data_page_says_so(brexit_dev, tmp_path):
    """The Data page said each track's own file, <track id>.tsv, takes the kit's ID<TAB>VALUE
    lines, but it reads id-less 2023 rows as well (the trial's hs_brexit_soft.tsv of them scored)."""
    from codajudge.bundle.edition import load_edition
    from codajudge.bundle.pages import data_page

    soft, hard = brexit_dev
    rows = "".join(f"{h}\t0.6\t0.4\n" for h in hard.gold)
    for track, spec in ((soft, SOFT), (hard, HARD)):
        path = tmp_path / f"{spec.id}.tsv"
        path.write_text(rows)
        read = read_track_file(path, path.name, track)
        assert any("LeWiDi 2023 layout" in w for w in read.warnings)
    assert np.array_equal(read.values, hard.gold)
    editions = Path(__file__).resolve().parents[1] / "editions"
    page = " ".join(data_page(load_edition(editions / "lewidi2023")).split())
    assert (
        "Each track's own file, `<track id>.tsv`, takes the kit's `ID<TAB>VALUE` lines or, when "
        "its first line has this layout's fields, this layout's rows, of which it reads its own "
        "column (a label track) or columns (a soft-label track)"
    ) in page


def test_the_overview_gives_the_organisers_2023_baseline_as_its_dev_scores():
    """The organisers' 2023 baseline, every row 0<TAB>1.0<TAB>0.0, scored on the release's dev
    splits by their definitions (snippets.py's cross-entropy, micro-F1): the overview gives the
    numbers as a reference line (tests/test_editions.py checks the kit scores the same)."""
    ce, f1 = [], []
    for name in NAMES:
        path = RELEASE / f"{name}_dataset" / f"{name}_dev.json"
        dev = list(json.loads(path.read_text(encoding="utf-8")).values())
        soft = np.array([[r["soft_label"]["0"], r["soft_label"]["1"]] for r in dev])
        predicted = np.clip(np.array([[1.0, 0.0]] * len(dev)), 1e-12, 1 - 1e-12)
        ce.append(f"{-np.sum(soft * np.log(predicted + 1e-9)) / len(dev):.4f}")
        f1.append(f"{np.mean([str(r['hard_label']) == '0' for r in dev]):.4f}".lstrip("0"))
    page = (
        Path(__file__).resolve().parents[1] / "editions/lewidi2023/pages/overview.md"
    ).read_text(encoding="utf-8")
    said = (
        f"cross-entropy {' / '.join(ce)} and micro-F1 {' / '.join(f1)} "
        "(ArMIS / ConvAbuse / HS-Brexit / MD-Agreement)"
    )
    assert said in " ".join(page.split()) and "`0<TAB>1.0<TAB>0.0`" in page
