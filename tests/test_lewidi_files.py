"""LeWiDi 2025 prediction files as the organisers' starter kit and the participants wrote them.

The expected numbers are computed by ``tests/lewidi_official.py`` (the official definitions written
out as plain Python over the release JSON), never by the kit. Needs ../shared/data/lewidi2025.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

import lewidi_official as official
from codajudge.baselines import MostFrequent
from codajudge.baselines.interface import prediction_lines, track_settings
from codajudge.bundle.edition import load_edition
from codajudge.errors import SubmissionError
from codajudge.scoring import read_track_file
from codajudge.gold import build_gold
from codajudge.importers import load_split
from codajudge.bundle.prose import Templates
from codajudge.kinds.perspectivist import BY_NAME, OFFICIAL_2025
from codajudge.metrics import get

REPO = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(
    not official.PRACTICE_ZIP.is_file(),
    reason="../shared/data/lewidi2025 not found: the release lives beside the repository",
)
EDITION = (
    load_edition(REPO / "editions" / "lewidi2025")
    if (REPO / "editions" / "lewidi2025").is_dir()
    else None
)
DATASET_OF = {"csc": "CSC", "mp": "MP", "par": "Paraphrase", "ven": "VariErrNLI"}
#: the 2025 file names: <dataset>_<split>_<soft|pe>.tsv with long or short dataset names
LONG = {"csc": "CSC", "mp": "MP", "par": "Paraphrase", "ven": "VariErrNLI"}

_CACHE = {}


def track(track_id: str, alignment: str = None):
    """The edition's track (its perspectivist tracks: ``official_2025``), or under ``alignment``."""
    declared = next(t for t in EDITION.tracks if t.id == track_id)
    return replace(declared, annotator_alignment=alignment) if alignment else declared


def items(key: str, split: str):
    if (key, split) not in _CACHE:
        source = dict(EDITION.datasets[key])
        source.update(
            (source.pop("splits", None) or {}).get(split, {})
        )  # CSC, MP: train from the zip
        _CACHE[key, split] = load_split(source, official.RELEASE.parent, split)
    return _CACHE[key, split]


def records(key: str, split: str):
    if ("raw", key, split) not in _CACHE:
        _CACHE["raw", key, split] = official.load(DATASET_OF[key], split)
    return _CACHE["raw", key, split]


def kit_score(track_id: str, split: str, path: Path, alignment: str = None):
    gold = build_gold(track(track_id, alignment), items(track_id.split("_")[0], split), "gold")
    prediction = read_track_file(path, path.name, gold)
    metric = get(track(track_id).main_metric)
    return metric.score(gold.gold, prediction.values, gold.scored).value, prediction


def write(path: Path, rows) -> Path:
    path.write_text(
        "".join(f"{item_id}\t{json.dumps(row)}\n" for item_id, row in rows), encoding="utf-8"
    )
    return path


def official_files(key: str, split: str, tmp_path: Path, long_names: bool):
    """The starter kit's most-frequent baseline for one dataset, in the official layouts, with the
    official scores of its two files."""
    dataset = DATASET_OF[key]
    train, test = records(key, "train"), records(key, split)
    soft = official.baseline_soft(train, dataset)
    per, fallback = official.baseline_pe(train, dataset)
    name = LONG[key] if long_names else key
    soft_file = write(tmp_path / f"{name}_{split}_soft.tsv", [(i, soft) for i in test])
    pe_rows = [(i, official.pe_row(r, dataset, per, fallback)) for i, r in test.items()]
    pe_file = write(tmp_path / f"{name}_{split}_pe.tsv", pe_rows)
    expected_soft = official.soft_score(
        [official.soft_gold(r, dataset) for r in test.values()], [soft] * len(test), dataset
    )
    expected_pe = official.pe_score(
        [official.pe_gold(r, dataset) for r in test.values()], [row for _, row in pe_rows], dataset
    )
    return (soft_file, expected_soft), (pe_file, expected_pe)


@pytest.mark.parametrize("split", ["dev", "test"])
@pytest.mark.parametrize("key", ["csc", "mp", "par", "ven"])
def test_the_starter_kit_baseline_files_score_their_official_values(key, split, tmp_path):
    (soft_file, expected_soft), (pe_file, expected_pe) = official_files(
        key, split, tmp_path, key in ("par", "ven")
    )
    assert round(kit_score(f"{key}_soft", split, soft_file)[0], 5) == round(expected_soft, 5)
    assert round(kit_score(f"{key}_pe", split, pe_file)[0], 5) == round(expected_pe, 5)


@pytest.mark.parametrize("alignment", [BY_NAME, OFFICIAL_2025])
def test_published_varierrnli_dev_baseline_numbers(tmp_path, alignment):
    """metrics.md §6: MAMD 0.65292 and MER 0.31500 on the 2025 dev data, with rows of each item's
    own annotators: the same under both annotator alignments, without a note."""
    (soft_file, soft), (pe_file, pe) = official_files("ven", "dev", tmp_path, True)
    assert (round(soft, 5), round(pe, 5)) == (0.65292, 0.315)
    assert round(kit_score("ven_soft", "dev", soft_file)[0], 5) == 0.65292
    score, prediction = kit_score("ven_pe", "dev", pe_file, alignment)
    assert round(score, 5) == 0.315 and prediction.warnings == []


@pytest.mark.parametrize("key", ["csc", "mp", "par", "ven"])
def test_the_kits_most_frequent_baseline_reproduces_the_starter_kit(key, tmp_path):
    """Both tracks of each dataset, from the kit's own baseline through the file it writes; on
    VariErrNLI (scored as the 2025 scorer) its rows are over the whole pool, as the starter kit's."""
    dataset = DATASET_OF[key]
    dev = records(key, "dev")
    for kind in ("soft", "pe"):
        model = MostFrequent(track_settings(track(f"{key}_{kind}"), 0)).fit(items(key, "train"))
        public = items(key, "dev")
        lines = prediction_lines(
            track(f"{key}_{kind}"), public, model.predict(public), "predictions"
        )
        path = tmp_path / f"{key}_{kind}.tsv"
        path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        score = kit_score(f"{key}_{kind}", "dev", path)[0]
        train = records(key, "train")
        if kind == "soft":
            expected = official.soft_score(
                [official.soft_gold(r, dataset) for r in dev.values()],
                [official.baseline_soft(train, dataset)] * len(dev),
                dataset,
            )
        else:
            per, fallback = official.baseline_pe(train, dataset)
            expected = official.pe_score(
                [official.pe_gold(r, dataset) for r in dev.values()],
                [
                    official.pe_row(
                        r, dataset, per, fallback, official.starter_kit_names(r, dataset)
                    )
                    for r in dev.values()
                ],
                dataset,
            )
        assert round(score, 5) == round(expected, 5), kind
    if key == "ven":  # the kit writes the label-major layout of 2025, over the pool
        assert json.loads(lines[0].split("\t")[1]) == official.pe_row(
            dev[lines[0].split("\t")[0]],
            dataset,
            *official.baseline_pe(records(key, "train"), dataset),
            names=official.VEN_POOL,
        )


# --- VariErrNLI rows over other annotator lists ----------------------------------------------------

POOL = official.VEN_POOL
POOL_NOTE = "rows had one entry per annotator of the dataset's whole pool; "
BY_NAME_NOTE = "the entries of each item's own annotators were kept, by name: "
FIRST_ENTRIES_NOTE = (
    "as the LeWiDi 2025 official scorer does (annotator alignment official_2025), each row's first "
    "entries are scored against the item's annotators in order, the others dropped: "
)


def pool_rows(split: str):
    """The starter kit's most-frequent baseline as its file was written: 4 entries on every
    VariErrNLI row, even for 3-annotator items; and the official gold."""
    test = records("ven", split)
    per, fallback = official.baseline_pe(records("ven", "train"), "VariErrNLI")
    rows = [
        (i, official.pe_row(r, "VariErrNLI", per, fallback, names=POOL)) for i, r in test.items()
    ]
    assert {len(row[0]) for _, row in rows} == {4}
    return rows, [official.pe_gold(r, "VariErrNLI") for r in test.values()]


def own_rows(rows, split: str):
    """``rows`` (over the pool) cut to each item's own annotators, by name."""
    test = records("ven", split)
    return [
        [[vector[POOL.index(name)] for name in official.annotations(test[i])] for vector in row]
        for i, row in rows
    ]


def test_pool_rows_are_scored_as_the_2025_scorer_on_the_lewidi2025_edition(tmp_path):
    """The starter kit's dev file (13 items with fewer than 4 annotators): the official function
    (``zip``) gives 0.29722, which the edition's ``official_2025`` gives; the kit gave the by-name
    0.31500 before the rule existed. The note names the columns scored against whom, and on how many
    items."""
    rows, gold = pool_rows("dev")
    expected = official.pe_score(gold, [row for _, row in rows], "VariErrNLI")
    score, prediction = kit_score("ven_pe", "dev", write(tmp_path / "VariErrNLI_dev_pe.tsv", rows))
    assert round(score, 5) == round(expected, 5) == 0.29722
    assert prediction.warnings == [
        "13 "
        + POOL_NOTE
        + FIRST_ENTRIES_NOTE
        + "columns 1, 2, 3 against Ann1, Ann3, Ann4 (3 items); "
        "columns 1, 2 against Ann2, Ann4 (3 items); columns 1, 2 against Ann1, Ann4 (2 items); "
        "columns 1, 2, 3 against Ann1, Ann2, Ann4 (2 items); other alignments (3 items)"
    ]


def test_pool_rows_by_name_keep_each_items_own_annotators(tmp_path):
    rows, gold = pool_rows("dev")
    expected = official.pe_score(gold, own_rows(rows, "dev"), "VariErrNLI")
    path = write(tmp_path / "VariErrNLI_dev_pe.tsv", rows)
    score, prediction = kit_score("ven_pe", "dev", path, BY_NAME)
    assert round(score, 5) == round(expected, 5) == 0.315
    assert prediction.warnings == [
        "13 " + POOL_NOTE + BY_NAME_NOTE + "columns 1, 3, 4 against Ann1, Ann3, Ann4 (3 items); "
        "columns 2, 4 against Ann2, Ann4 (3 items); columns 1, 4 against Ann1, Ann4 (2 items); "
        "columns 1, 2, 4 against Ann1, Ann2, Ann4 (2 items); other alignments (3 items)"
    ]


@pytest.mark.parametrize(
    "alignment, published", [(OFFICIAL_2025, "0.345000"), (BY_NAME, "0.340556")]
)
def test_pool_rows_on_the_test_set_give_the_two_numbers_the_pages_state(
    tmp_path, alignment, published
):
    """The published VariErrNLI test baseline, MER .345, is the official function's value of the
    pool-wide rows (``zip``: the first 3 entries of the 8 items with 3 annotators); by name they
    score .340556. The official_2025 paragraph of the Data and Evaluation pages states both."""
    rows, gold = pool_rows("test")
    cut = [row for _, row in rows] if alignment == OFFICIAL_2025 else own_rows(rows, "test")
    expected = official.pe_score(gold, cut, "VariErrNLI")
    score, prediction = kit_score("ven_pe", "test", write(tmp_path / "ven.tsv", rows), alignment)
    assert f"{score:.6f}" == f"{expected:.6f}" == published
    assert published in Templates().fill(f"kinds/perspectivist_alignment_{OFFICIAL_2025}")
    assert prediction.warnings[0].startswith("8 " + POOL_NOTE)


def _listed(record):
    return [name.strip() for name in record["annotators"].split(",")]


LISTED_NOTE = (
    "rows had one entry per name of the release's annotators list (an annotator repeated once per "
    "label given); "
)


def listed_rows():
    dev = records("ven", "dev")
    per, fallback = official.baseline_pe(records("ven", "train"), "VariErrNLI")
    rows = [
        (i, official.pe_row(r, "VariErrNLI", per, fallback, names=_listed(r)))
        for i, r in dev.items()
    ]
    assert sum(len(_listed(r)) > len(r["annotations"]) for r in dev.values()) == 5
    return rows, [official.pe_gold(r, "VariErrNLI") for r in dev.values()]


def test_rows_over_the_release_annotators_string_are_merged_by_name(tmp_path):
    rows, _ = listed_rows()
    path = write(tmp_path / "ven_dev_pe.tsv", rows)
    score, prediction = kit_score("ven_pe", "dev", path, BY_NAME)
    assert round(score, 5) == 0.315
    assert prediction.warnings == [
        "5 "
        + LISTED_NOTE
        + "the repeated entries were merged, by name: columns 1, 2, 3, 5 against "
        "Ann1, Ann2, Ann3, Ann4 (2 items); columns 1, 2, 4, 5 against Ann1, Ann2, Ann3, Ann4 (1 item); "
        "columns 1, 2, 4 against Ann1, Ann3, Ann4 (1 item); columns 1, 2 against Ann1, Ann4 (1 item)"
    ]


def test_rows_over_the_release_annotators_string_by_the_2025_scorer(tmp_path):
    """The 2025 scorer pairs by ``zip``: a row's first entries against the item's annotators, so
    Ann2's second entry is scored as Ann3's where the list repeats Ann2."""
    rows, gold = listed_rows()
    expected = official.pe_score(gold, [row for _, row in rows], "VariErrNLI")
    score, prediction = kit_score("ven_pe", "dev", write(tmp_path / "ven_dev_pe.tsv", rows))
    assert round(score, 5) == round(expected, 5) != 0.315
    assert prediction.warnings == [
        "5 "
        + LISTED_NOTE
        + FIRST_ENTRIES_NOTE
        + "columns 1, 2, 3, 4 against Ann1, Ann2, Ann3, Ann4 (3 items); "
        "columns 1, 2, 3 against Ann1, Ann3, Ann4 (1 item); columns 1, 2 against Ann1, Ann4 (1 item)"
    ]


def test_rows_over_the_annotators_string_that_disagree_are_refused_by_name(tmp_path):
    """By name the repeated entries must agree; the 2025 scorer scores the first entries, as is."""
    dev = records("ven", "dev")
    rows = [
        (i, [[0] * len(_listed(r)), [0] * len(_listed(r)), [1] * len(_listed(r))])
        for i, r in dev.items()
    ]
    rows[0] = ("49807", [[0, 0, 0, 0, 0], [0, 1, 0, 0, 0], [1, 1, 1, 1, 1]])  # Ann2 twice: 1 then 0
    path = write(tmp_path / "ven_dev_pe.tsv", rows)
    with pytest.raises(SubmissionError) as error:
        kit_score("ven_pe", "dev", path, BY_NAME)
    assert str(error.value) == (
        "ven_dev_pe.tsv, line 1, item '49807': annotator Ann2 is given different entries at positions 2 and 3; "
        "expected one entry per annotator (4: Ann1, Ann2, Ann3, Ann4), or one per name of the release's "
        "annotators list (5: Ann1, Ann2, Ann2, Ann3, Ann4) with equal entries for a repeated annotator, "
        "found 5 entries"
    )
    gold = [official.pe_gold(r, "VariErrNLI") for r in dev.values()]
    expected = official.pe_score(gold, [row for _, row in rows], "VariErrNLI")
    assert round(kit_score("ven_pe", "dev", path)[0], 5) == round(expected, 5)


def test_a_row_keyed_by_an_unknown_annotator_says_how_to_key_it(tmp_path):
    """A dict row naming Ann999 (the trial's mp_dev_pe.tsv) was refused without a fix."""
    dev = records("mp", "dev")
    rows = [(i, dict.fromkeys(r["annotations"], "0")) for i, r in dev.items()]
    first_id, first = rows[0]
    rows[0] = (first_id, {**dict(list(first.items())[:-1]), "Ann999": "1"})
    with pytest.raises(SubmissionError) as error:
        kit_score("mp_pe", "dev", write(tmp_path / "mp_dev_pe.tsv", rows))
    assert str(error.value).endswith(
        f"found missing [{list(first)[-1]!r}], unknown ['Ann999']. Give one label for each of the "
        "item's annotators, keyed by their ids as in the item's annotators field (input data)"
    )


def test_another_length_names_the_items_annotators(tmp_path):
    dev = records("ven", "dev")
    rows = [
        (i, [[0] * len(r["annotations"])] * 2 + [[1] * len(r["annotations"])])
        for i, r in dev.items()
    ]
    rows[0] = ("49807", [[0, 0], [0, 0], [1, 1]])
    with pytest.raises(SubmissionError) as error:
        kit_score("ven_pe", "dev", write(tmp_path / "ven_dev_pe.tsv", rows))
    assert str(error.value) == (
        "ven_dev_pe.tsv, line 1, item '49807': wrong number of annotator entries; expected 4 entries, one per "
        "annotator of the item in this order: Ann1, Ann2, Ann3, Ann4 (or 5, one per name of the release's "
        "annotators list Ann1, Ann2, Ann2, Ann3, Ann4), found 2 entries. The item's annotators are in the "
        "input file's 'annotators' field"
    )


def test_annotator_major_label_names_are_still_read(tmp_path):
    dev = records("ven", "dev")
    rows = [(i, [[label] for label in ["neutral"] * len(r["annotations"])]) for i, r in dev.items()]
    label_major = [
        (i, [[0] * len(r["annotations"])] * 2 + [[1] * len(r["annotations"])])
        for i, r in dev.items()
    ]
    a = kit_score("ven_pe", "dev", write(tmp_path / "a.tsv", rows))[0]
    b = kit_score("ven_pe", "dev", write(tmp_path / "b.tsv", label_major))[0]
    assert a == b


def test_annotator_major_0_1_vectors_are_refused_with_the_transpose_hint(tmp_path):
    dev = records("ven", "dev")
    rows = [
        (i, [[0] * len(r["annotations"])] * 2 + [[1] * len(r["annotations"])])
        for i, r in dev.items()
    ]
    rows[0] = ("49807", [[0, 0, 1]] * 4)
    with pytest.raises(SubmissionError) as error:
        kit_score("ven_pe", "dev", write(tmp_path / "ven_dev_pe.tsv", rows))
    assert str(error.value) == (
        "ven_dev_pe.tsv, line 1, item '49807': 0/1 vectors are read label-major: one vector per label; expected "
        "3 vectors of 0/1 (contradiction, entailment, neutral), each with one entry per annotator of the item, "
        "found 4 vectors of 3 entries. This looks like one vector per annotator: write one vector per label "
        "instead (transpose it)"
    )
