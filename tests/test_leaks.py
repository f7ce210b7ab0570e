"""The content-based leak check (issue 13, item 5): hidden gold in a public file is refused whatever
the layout (CSV, TSV, a JSON object keyed by id, JSON lines, an item file with items left out, a
column of scores without ids), and files that only look alike are not.

The hidden splits are generated here (seeded), so expected shares come from the data, not the checker.
"""

from __future__ import annotations

import csv
import io
import json
import math
import random
import shutil
from pathlib import Path

import pytest

from codajudge.bundle.build import build
from codajudge.bundle.leaks import LEAK_SHARE_MIN, leak_threshold
from codajudge.bundle.edition import load_edition
from codajudge.bundle.leaks import HiddenSplit, Scan, check_public_tree
from codajudge.errors import ConfigError
from codajudge.formats.items import public_view
from codajudge.formats.write import write_prediction
from codajudge.gold import build_gold, gold_as_values
from codajudge.programs.build import main as build_main
from codajudge.tracks import track_from_dict
from test_builder import DEFAULT, _fast, copy_edition, edit_config, needs_default_data, read_jsonl
from test_kinds import _evaluation_items, tracks_of_every_kind_and_scale

NLI = ["entailment", "neutral", "contradiction"]
WORDS = (
    "the a cat dog runs sleeps red blue house tree sky big small man woman child plays eats".split()
)


def _texts(rng):
    return [" ".join(rng.sample(WORDS, 6)), " ".join(rng.sample(WORDS, 6))]


def _items(kind: str, n: int, seed: int, prefix: str = "t"):
    rng = random.Random(seed)
    items = []
    for i in range(n):
        item = {"id": f"{prefix}-{i:04d}", "texts": _texts(rng), "lang": "en"}
        if kind == "sim":
            item["score"] = round(rng.uniform(0, 5), 2)
        elif kind == "nli":
            item["label"] = rng.choice(NLI)
        else:
            item["annotators"] = ["A1", "A2", "A3", "A4", "A5"]
            item["annotations"] = [rng.choice(NLI) for _ in range(5)]
        items.append(item)
    return items


TRACKS = {
    "sim": {"id": "sim", "kind": "similarity", "dataset": "sim"},
    "nli": {"id": "nli", "kind": "classification", "dataset": "nli", "labels": NLI},
    "soft": {
        "id": "soft",
        "kind": "soft_label",
        "scale": "categorical",
        "dataset": "ann",
        "labels": NLI,
    },
    "pe": {
        "id": "pe",
        "kind": "perspectivist",
        "scale": "categorical",
        "dataset": "ann",
        "labels": NLI,
    },
}


def _hidden(name: str, items) -> dict:
    track = track_from_dict(TRACKS[name])
    return {f"{name} (test)": HiddenSplit(build_gold(track, items, "test"), items)}


def _check(tmp_path: Path, hidden: dict, name: str, text: str) -> str:
    """'' if the public file passes, else the refusal's text."""
    public = tmp_path / "public"
    public.mkdir(exist_ok=True)
    (public / name).write_text(text, encoding="utf-8")
    try:
        check_public_tree([public], hidden, tmp_path)
    except ConfigError as e:
        return str(e)
    finally:
        (public / name).unlink()
    return ""


def _csv(rows) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    return buffer.getvalue()


SIM = _items("sim", 300, seed=1)
NLI_ITEMS = _items("nli", 300, seed=2)
ANN = _items("ann", 200, seed=3)


def test_scores_as_csv_with_a_header_and_other_columns_are_refused(tmp_path):
    rows = [["item", "lang", "gold"]] + [[it["id"], it["lang"], it["score"]] for it in SIM]
    text = _check(tmp_path, _hidden("sim", SIM), "answers.csv", _csv(rows))
    assert "public/answers.csv" in text and "hidden gold of track 'sim (test)'" in text
    assert "100% of its items, next to their ids" in text


def test_a_release_gold_file_numbering_the_hidden_items_by_its_lines_is_refused(tmp_path):
    """A split of a release numbers its items by their lines: the release's gold file, one value a
    line with the other splits' items between, holds each test item's gold on line id+1 (ids from
    0), line id (ids from 1) or, under a header line, line id+2, beside no id; another release's
    gold on those lines passes."""
    release = _items("sim", 250, seed=4)
    test = [dict(item, id=str(k)) for k, item in enumerate(release) if k % 4 == 1]
    gold_file = "".join(f"{item['score']:.6f}\n" for item in release)
    found = _check(tmp_path, _hidden("sim", test), "STS.gs.track1.txt", gold_file)
    assert "hidden gold of track 'sim (test)'" in found
    assert "100% of its items, as it is or transformed, in the" in found
    assert "value of line id+1 (ids from 0)" in found
    found = _check(tmp_path, _hidden("sim", test), "STS.gs.track1.tsv", "score\n" + gold_file)
    assert "value of line id+2 (ids from 0, under a header line)" in found
    labels = [dict(item, id=str(k + 1)) for k, item in enumerate(NLI_ITEMS) if k % 3 == 0]
    as_indices = "".join(f"{NLI.index(it['label'])}\t{it['texts'][0]}\n" for it in NLI_ITEMS)
    found = _check(tmp_path, _hidden("nli", labels), "labels.tsv", as_indices)
    assert "value of line id (ids from 1)" in found
    other = "".join(f"{item['score']:.6f}\n" for item in _items("sim", 250, seed=5))
    assert _check(tmp_path, _hidden("sim", test), "STS.gs.track2.txt", other) == ""


def test_scores_before_their_ids_and_in_a_json_object_are_refused(tmp_path):
    hidden = _hidden("sim", SIM)
    reversed_tsv = "".join(f"{it['score']}\t{it['id']}\n" for it in SIM)
    assert "next to their ids" in _check(tmp_path, hidden, "gold.tsv", reversed_tsv)
    as_object = json.dumps({it["id"]: it["score"] for it in SIM}, indent=2)
    assert "hidden gold of track 'sim (test)'" in _check(tmp_path, hidden, "gold.json", as_object)
    nested = json.dumps(
        {it["id"]: {"text": " ".join(it["texts"]), "score": it["score"]} for it in SIM}
    )
    assert "hidden gold of track 'sim (test)'" in _check(tmp_path, hidden, "gold.txt", nested)


def test_labels_and_soft_labels_keyed_by_id_are_refused(tmp_path):
    labels = json.dumps({it["id"]: it["label"] for it in NLI_ITEMS})
    assert "hidden gold of track 'nli (test)'" in _check(
        tmp_path, _hidden("nli", NLI_ITEMS), "labels.json", labels
    )
    soft_hidden = _hidden("soft", ANN)
    soft = {
        it["id"]: {label: round(it["annotations"].count(label) / 5, 4) for label in NLI}
        for it in ANN
    }
    assert "hidden gold of track 'soft (test)'" in _check(
        tmp_path, soft_hidden, "soft.json", json.dumps(soft)
    )
    per_annotator = {it["id"]: dict(zip(it["annotators"], it["annotations"])) for it in ANN}
    assert "hidden gold of track 'pe (test)'" in _check(
        tmp_path, _hidden("pe", ANN), "pe.json", json.dumps(per_annotator)
    )


def test_an_item_file_with_one_item_removed_is_refused(tmp_path):
    kept = SIM[:150] + SIM[151:]
    text = "".join(json.dumps(it) + "\n" for it in kept)
    found = _check(tmp_path, _hidden("sim", SIM), "items.jsonl", text)
    assert (
        "public item file carries the hidden gold of track 'sim (test)'" in found
        and "100%" in found
    )
    # the same in a release's own layout (not the kit's item format): read by its content instead
    extra = "".join(
        json.dumps(
            {
                "sentence1": it["texts"][0],
                "sentence2": it["texts"][1],
                "gold": it["score"],
                "pair_id": it["id"],
            }
        )
        + "\n"
        for it in kept
    )
    found = _check(tmp_path, _hidden("sim", SIM), "items.jsonl", extra)
    assert (
        "public file reproduces the hidden gold of track 'sim (test)'" in found and "100%" in found
    )


def test_a_column_of_scores_without_ids_is_refused_with_items_missing(tmp_path):
    scores = [it["score"] for it in SIM]
    del scores[100], scores[40]
    found = _check(tmp_path, _hidden("sim", SIM), "STS.gs.txt", "".join(f"{s}\n" for s in scores))
    assert "hidden gold of track 'sim (test)'" in found and "in their order" in found
    # a table with a numeric row number before each score: its last column
    table = "".join(f"{i}\t{s}\n" for i, s in enumerate(scores))
    assert "in their order" in _check(tmp_path, _hidden("sim", SIM), "table.tsv", table)
    # a middle column, beside row numbers and another number (column after column)
    table = "".join(
        f"{i}\t{s}\t{len(it['texts'][0])}\n" for i, (s, it) in enumerate(zip(scores, SIM))
    )
    assert "in their order" in _check(tmp_path, _hidden("sim", SIM), "table.tsv", table)
    labels = [it["label"] for it in NLI_ITEMS][5:]
    found = _check(tmp_path, _hidden("nli", NLI_ITEMS), "labels.txt", " ".join(labels))
    assert "hidden gold of track 'nli (test)'" in found and "in their order" in found


def test_look_alikes_are_not_refused(tmp_path):
    """Ids with other values, other items with their own gold, and a short excerpt pass."""
    rng = random.Random(9)
    sim, nli = _hidden("sim", SIM), _hidden("nli", NLI_ITEMS)
    shuffled = [it["score"] for it in SIM]
    rng.shuffle(shuffled)
    assert (
        _check(tmp_path, sim, "guess.csv", _csv([[it["id"], s] for it, s in zip(SIM, shuffled)]))
        == ""
    )
    guesses = _csv([[it["id"], rng.choice(NLI)] for it in NLI_ITEMS])
    assert _check(tmp_path, nli, "guess.csv", guesses) == ""
    # a training file that reuses the test ids for other items (as OCNLI's release does), in any layout
    train = _items("nli", 300, seed=5)
    assert (
        _check(tmp_path, nli, "train.jsonl", "".join(json.dumps(it) + "\n" for it in train)) == ""
    )
    assert _check(tmp_path, nli, "train.json", json.dumps(train)) == ""
    other = _items("sim", 300, seed=6)
    assert _check(tmp_path, sim, "other.txt", "".join(f"{it['score']}\n" for it in other)) == ""
    # the public view of the test items, and a fifth of the gold
    public = "".join(json.dumps({k: it[k] for k in ("id", "texts", "lang")}) + "\n" for it in SIM)
    assert _check(tmp_path, sim, "test.jsonl", public) == ""
    assert (
        _check(tmp_path, sim, "part.csv", _csv([[it["id"], it["score"]] for it in SIM[:60]])) == ""
    )


@pytest.mark.parametrize(
    "track", tracks_of_every_kind_and_scale(), ids=lambda t: f"{t.kind}-{t.scale}"
)
def test_every_kind_s_gold_written_as_a_submission_file_is_refused(track, tmp_path):
    """The kit's own submission encodings (a multilabel per-annotator row is a 0/1 matrix, not the
    labels as released) are read as a submission of the track."""
    items = _evaluation_items(track.dataset)
    gold = build_gold(track, items, "test")
    public = tmp_path / "public"
    public.mkdir()
    write_prediction(public / f"{track.id}.tsv", track, gold.ids, gold_as_values(gold))
    with pytest.raises(ConfigError) as caught:
        check_public_tree([public], {track.id: HiddenSplit(gold, items)}, tmp_path)
    assert f"public/{track.id}.tsv: public file reproduces the hidden gold" in str(caught.value)


def _irony_perspectivist_test() -> tuple:
    """The default edition's irony test split as a perspectivist track (binary labels from 3 to 6
    annotators an item, most agreeing), with every third item's first annotation flipped: 2 items in
    3 exactly right, as a good system gets them (67%, over the by-id share of 60% its chance asks)."""
    needs_default_data()
    items = read_jsonl(DEFAULT / "data" / "irony" / "test.jsonl")
    track = track_from_dict(
        {"id": "pe", "kind": "perspectivist", "scale": "categorical", "dataset": "irony"}
        | {"labels": ["0", "1"]}
    )
    gold = build_gold(track, items, "test")
    rows = [list(row) for row in gold_as_values(gold)]
    for row in rows[::3]:
        row[0] = "1" if row[0] == "0" else "0"
    return track, gold, items, rows


def test_a_system_s_predictions_in_a_submission_file_are_not_taken_for_the_gold(tmp_path):
    """A file that reads as a submission is judged as predictions: 67% of items exactly right is a
    system's skill (the sample result submission of an edition whose first phase hides its gold);
    the same rows in another layout, and 90% of items right, are refused."""
    track, gold, items, rows = _irony_perspectivist_test()
    hidden = {"pe (test)": HiddenSplit(gold, items)}
    public = tmp_path / "public"
    public.mkdir()
    write_prediction(public / "pe.tsv", track, gold.ids, rows)
    check_public_tree([public], hidden, tmp_path)
    table = [["item", "lang", "labels"]] + [[i, "en", " ".join(r)] for i, r in zip(gold.ids, rows)]
    found = _check(tmp_path, hidden, "table.csv", _csv(table))
    assert "hidden gold of track 'pe (test)'" in found
    assert "of its items, next to their ids" in found
    right = [list(row) for row in gold_as_values(gold)]
    write_prediction(public / "pe.tsv", track, gold.ids, rows[:4] + right[4:])
    with pytest.raises(ConfigError) as caught:
        check_public_tree([public], hidden, tmp_path)
    assert "public/pe.tsv: public file reproduces the hidden gold" in str(caught.value)
    assert "92% of items exact" in str(caught.value)


def test_a_submission_s_neighbouring_lines_do_not_count_as_its_items_gold(tmp_path):
    """Read as a submission, a file's items are right or wrong by their own line: 88% of items
    right is under the 90% asked, though the nearest value before each id (the previous line's
    label) is the gold of the items wrong too."""
    labels = [it["label"] for it in NLI_ITEMS]
    predicted = list(labels)
    wrong = [i for i in range(1, len(labels)) if labels[i] == labels[i - 1]][::2][:36]
    for i in wrong:
        predicted[i] = NLI[(NLI.index(labels[i]) + 1) % 3]
    assert len(wrong) == 36  # 264 of 300 items right: 88%
    rows = "".join(f"{it['id']}\t{label}\n" for it, label in zip(NLI_ITEMS, predicted))
    assert _check(tmp_path, _hidden("nli", NLI_ITEMS), "nli.tsv", rows) == ""


def _persp_items(seed: int, n: int = 120) -> list[dict]:
    """Items numbered from 1 (as LeWiDi 2023 numbers each split), 6 of 12 annotators each, labels
    "1" with probability 0.15: most items' patterns are all "0"."""
    rng = random.Random(seed)
    items = []
    for i in range(n):
        names = rng.sample([f"A{k}" for k in range(12)], 6)
        annotations = ["1" if rng.random() < 0.15 else "0" for _ in names]
        items.append(
            {"id": str(i + 1), "texts": [f"text {seed} {i}"], "lang": "en"}
            | {"annotators": names, "annotations": annotations}
        )
    return items


def test_another_split_under_the_same_ids_is_not_taken_for_the_gold(tmp_path):
    """Beside each id of a training file that numbers its own items as the test does, the next
    twelve labels hold a six-label pattern of mostly "0" by chance (92% of the test items' gold was
    found so): the by-id reading must beat what it finds for other items' gold. The test's own
    annotations beside its ids are still refused."""
    track = track_from_dict(TRACKS["pe"] | {"labels": ["0", "1"]})
    test, train = _persp_items(1), _persp_items(2)
    hidden = {"pe (test)": HiddenSplit(build_gold(track, test, "test"), test)}
    other = "".join(json.dumps(item) + "\n" for item in train)
    assert _check(tmp_path, hidden, "d.train.jsonl", other) == ""
    leak = "".join(f"{it['id']}\t{' '.join(it['annotations'])}\n" for it in test)
    assert "next to their ids" in _check(tmp_path, hidden, "answers.tsv", leak)


def test_an_edition_whose_first_phase_hides_its_gold_builds(tmp_path):
    """Its sample result submission holds the baselines' test predictions (the per-annotator
    majority gets 67% of the irony test items exactly right)."""
    folder = copy_edition(tmp_path / "ed", with_data=True)
    edit_config(folder, lambda config: config.update(phases=config["phases"][1:]))
    build(load_edition(folder), folder, tmp_path / "out")
    assert (tmp_path / "out" / "default.zip").is_file()


def _listed(item: dict) -> dict:
    """The item with the release's annotators list as VariErrNLI gives it: a name once per label."""
    names = [n for n, labels in zip(item["annotators"], item["annotations"]) for _ in labels]
    return dict(item, annotators_listed=names) if len(names) > len(item["annotators"]) else item


def test_a_public_field_naming_annotators_once_per_hidden_label_is_refused(tmp_path):
    """A hidden-gold phase's input items may not tell how many labels each annotator gave (the
    VariErrNLI annotators list, on 6 of 50 test items: its absence on the others tells too): the
    names repeated, or the numbers, are refused on any number of items; each name once is not."""
    track = track_from_dict(TRACKS["pe"] | {"scale": "multilabel"})
    items = [
        {"id": f"v{i}", "texts": [f"premise {i}", f"statement {i}"], "annotators": ["A1", "A2"]}
        | {"annotations": [["neutral"], ["neutral", "contradiction"] if i < 6 else ["entailment"]]}
        for i in range(50)
    ]
    hidden = {"pe (test)": HiddenSplit(build_gold(track, items, "test"), items)}
    folder = "input_data/evaluation/ven.jsonl"
    (tmp_path / "public" / folder).parent.mkdir(parents=True)
    public = [public_view(_listed(item)) for item in items]
    found = _check(tmp_path, hidden, folder, "".join(json.dumps(p) + "\n" for p in public))
    assert "ven.jsonl, line 1, item 'v0': public input items name each annotator once per" in found
    assert "'annotators_listed' on 6 of the file's 50 items" in found
    counts = [dict(p, annotators_listed=[1, 2]) if i < 6 else p for i, p in enumerate(public)]
    assert "on 6 of the file's 50 items" in _check(
        tmp_path, hidden, folder, "".join(json.dumps(p) + "\n" for p in counts)
    )
    once = [dict(p, annotators_listed=p["annotators"]) for p in public]
    assert _check(tmp_path, hidden, folder, "".join(json.dumps(p) + "\n" for p in once)) == ""


def test_a_hidden_gold_phase_publishes_no_annotators_list_counting_labels(tmp_path):
    """The builder leaves ``annotators_listed`` out of the input and reference data of the phases
    whose gold is hidden (the evaluation's test), and keeps it where the gold is public (practice)."""
    folder = copy_edition(tmp_path / "ed", with_data=True)
    for split in ("dev", "test"):
        path = folder / "data" / "nli_var" / f"{split}.jsonl"
        path.write_text("".join(json.dumps(_listed(it)) + "\n" for it in read_jsonl(path)))
    edit_config(folder, _fast)
    build(load_edition(folder), folder, tmp_path / "out")
    root = tmp_path / "out" / "default"
    for data in ("input_data", "reference_data"):
        for phase, listed in (("practice", 6), ("evaluation", 0)):
            items = read_jsonl(root / data / phase / "nli_var.jsonl")
            assert sum("annotators_listed" in item for item in items) == listed, (data, phase)


def test_the_threshold_is_half_the_items_and_more_when_chance_agrees_often():
    assert leak_threshold(0.0) == LEAK_SHARE_MIN
    assert leak_threshold(1 / 3) == pytest.approx((1 - (2 / 3) ** 2 + 1) / 2)
    assert leak_threshold(0.5) > leak_threshold(1 / 3) > LEAK_SHARE_MIN


def test_a_leaking_file_inside_a_public_zip_is_refused(tmp_path):
    import zipfile

    public = tmp_path / "public"
    public.mkdir()
    with zipfile.ZipFile(public / "extra.zip", "w") as zf:
        zf.writestr("data/gold.csv", _csv([[it["id"], it["score"]] for it in SIM]))
    with pytest.raises(ConfigError) as caught:
        check_public_tree([public], _hidden("sim", SIM), tmp_path)
    assert "public/extra.zip:data/gold.csv" in str(caught.value)


# --- the gold in another encoding (issue 22, item 6) ---------------------------------------------
# Every transformation that keeps the track's metric perfect: affine maps (negation included) keep
# Pearson at 1, monotone maps keep Spearman at 1, relabellings keep accuracy at 1 for whoever knows
# the map. Refusals say how the gold was found ("transformed, ...").

PERMUTED = dict(zip(NLI, NLI[1:] + NLI[:1]))


@pytest.mark.parametrize(
    "encode",
    [
        lambda s: round(s * 20, 2),  # 0-100
        lambda s: round(5 - s, 2),  # negated
        lambda s: round(s / 5, 4),  # 0-1
        lambda s: round(2.718281828**s, 3),  # monotone, not affine
        lambda s: -round(s**3, 3),  # decreasing
    ],
    ids=["times_20", "negated", "over_5", "exponential", "minus_cube"],
)
def test_similarity_gold_under_a_perfect_map_is_refused_by_id_and_by_order(tmp_path, encode):
    hidden = _hidden("sim", SIM)
    rows = [["pair_id", "lang", "value"]] + [[it["id"], "en", encode(it["score"])] for it in SIM]
    found = _check(tmp_path, hidden, "scaled.csv", _csv(rows))
    assert (
        "hidden gold of track 'sim (test)'" in found and "100% of its items, transformed" in found
    )
    column = [encode(it["score"]) for k, it in enumerate(SIM) if k not in (17, 150)]
    found = _check(tmp_path, hidden, "scaled.txt", "".join(f"{v}\n" for v in column))
    assert "transformed, in their order" in found


def test_labels_as_indices_or_permuted_names_are_refused(tmp_path):
    hidden = _hidden("nli", NLI_ITEMS)
    indices = _csv([[it["id"], NLI.index(it["label"])] for it in NLI_ITEMS])
    assert "transformed, in the value just after their ids" in _check(
        tmp_path, hidden, "idx.csv", indices
    )
    permuted = "".join(
        json.dumps({"pair": it["id"], "texts": it["texts"], "y": PERMUTED[it["label"]]}) + "\n"
        for it in NLI_ITEMS
    )
    assert "100% of its items, transformed" in _check(tmp_path, hidden, "perm.jsonl", permuted)
    letters = "".join(f"{it['texts'][0]}\t{it['label'][0].upper()}\n" for it in NLI_ITEMS[3:])
    assert "transformed, in their order" in _check(tmp_path, hidden, "letters.tsv", letters)
    column = "\n".join(str(NLI.index(it["label"]) + 1) for it in NLI_ITEMS[:140] + NLI_ITEMS[141:])
    assert "transformed, in their order" in _check(tmp_path, hidden, "idx.txt", column)


def test_soft_labels_as_percentages_and_annotations_as_indices_are_refused(tmp_path):
    percent = "".join(
        " ".join(str(20 * it["annotations"].count(label)) for label in NLI) + "\n" for it in ANN
    )
    found = _check(tmp_path, _hidden("soft", ANN), "percent.txt", percent)
    assert "hidden gold of track 'soft (test)'" in found and "transformed" in found
    indices = _csv([[it["id"]] + [NLI.index(a) for a in it["annotations"]] for it in ANN])
    found = _check(tmp_path, _hidden("pe", ANN), "annotations.csv", indices)
    assert "hidden gold of track 'pe (test)'" in found and "transformed" in found


def test_test_items_copied_into_a_training_file_under_new_ids_are_refused(tmp_path):
    """A training file of the kit's format was only compared by id and texts, and its content was
    never read: test items renamed passed with their gold."""
    public = tmp_path / "public" / "input_data" / "evaluation"
    public.mkdir(parents=True)
    copies = [dict(it, id=f"train-{k}") for k, it in enumerate(SIM[::-1])]
    (public / "sim.train.jsonl").write_text("".join(json.dumps(it) + "\n" for it in copies))
    with pytest.raises(ConfigError) as caught:
        check_public_tree([tmp_path / "public"], _hidden("sim", SIM), tmp_path)
    text = str(caught.value)
    assert "input_data/evaluation/sim.train.jsonl" in text
    assert "public item file carries the hidden gold of track 'sim (test)'" in text


def test_hidden_pairs_swapped_in_a_public_item_file_are_the_same_items_only_to_similarity():
    """A similarity pair is its swap (STS is symmetric): test pairs copied with their texts swapped
    carry the test gold; NLI items swapped (hypothesis, then premise) are other items."""
    swapped = [dict(it, id=f"train-{k}", texts=it["texts"][::-1]) for k, it in enumerate(SIM)]
    [problem] = Scan(_hidden("sim", SIM)).item_file(swapped, "sim.train.jsonl")
    assert problem.message == "public item file carries the hidden gold of track 'sim (test)'"
    assert problem.found == "100% of items exact"
    swapped = [dict(it, id=f"train-{k}", texts=it["texts"][::-1]) for k, it in enumerate(NLI_ITEMS)]
    assert Scan(_hidden("nli", NLI_ITEMS)).item_file(swapped, "nli.train.jsonl") == []
    assert len(Scan(_hidden("nli", NLI_ITEMS)).item_file(NLI_ITEMS, "nli.train.jsonl")) == 1


def test_look_alikes_of_transformed_gold_are_not_refused(tmp_path):
    """Well-correlated public values (a strong system's scores), another split's values as indices,
    row numbers, sorted gold, a constant column, and constant gold pass."""
    rng = random.Random(12)
    sim, nli = _hidden("sim", SIM), _hidden("nli", NLI_ITEMS)
    system = [[it["id"], round(20 * it["score"] + rng.gauss(0, 10), 1)] for it in SIM]
    assert _check(tmp_path, sim, "system.csv", _csv(system)) == ""  # Pearson about 0.97
    noisy = "".join(f"{it['score'] + rng.gauss(0, 0.6):.2f}\n" for it in SIM)
    assert _check(tmp_path, sim, "system.txt", noisy) == ""
    other = _items("nli", 300, seed=5)  # the same ids, other items (as OCNLI's train and dev)
    assert (
        _check(tmp_path, nli, "o.csv", _csv([[it["id"], NLI.index(it["label"])] for it in other]))
        == ""
    )
    rows = _csv([[it["id"], k, "en"] for k, it in enumerate(SIM)])
    assert _check(tmp_path, sim, "rows.csv", rows) == ""
    ranked = "".join(f"{3 * s}\n" for s in sorted(it["score"] for it in SIM))
    assert _check(tmp_path, sim, "sorted.txt", ranked) == ""  # no order left to reveal
    constant = [dict(it, score=2.5) for it in SIM]
    assert (
        _check(
            tmp_path, _hidden("sim", constant), "c.csv", _csv([[it["id"], 5] for it in constant])
        )
        == ""
    )
    assert _check(tmp_path, _hidden("sim", constant), "c.txt", "1\n" * 300) == ""
    one_label = [dict(it, label="neutral") for it in NLI_ITEMS]
    hidden = _hidden("nli", one_label)
    assert _check(tmp_path, hidden, "c.csv", _csv([[it["id"], 1] for it in one_label])) == ""
    few = _hidden("sim", SIM[:12])  # too few items for a correlation to mean anything
    assert (
        _check(tmp_path, few, "few.csv", _csv([[it["id"], 2 * it["score"]] for it in SIM[:12]]))
        == ""
    )


# --- the by-id floor, and leaks an edition declares (issue 34, item 9) ---------------------------
# By id few hypotheses are tested in a file (4 columns, under each of the L! relabellings), so a
# column on items carrying B bits of the gold matches one of them by chance with probability about
# 4 * L! * 2**-B; the floor keeps that under 2**-20. The 40 bits of the order check (which scans
# every window of every file) refused small test sets written beside their ids.

HYPOTHESES_3_LABELS = 4 * 6  # after, before, first and last of the line x 3! maps
ID_FLOOR_3_LABELS = 20 + math.log2(HYPOTHESES_3_LABELS)


@pytest.mark.parametrize("n", [12, 24])
def test_labels_as_indices_beside_their_ids_are_refused_from_the_bits_they_carry(tmp_path, n):
    """12 three-way labels carry at most 12 * log2(3) = 19 bits, below the floor (24.6 bits): a
    match is not evidence. 24 (as in the default edition) carry about 35, below the order check's
    40 bits (which let them pass) and above the floor."""
    items = _items("nli", n, seed=23)
    indices = _csv([[it["id"], NLI.index(it["label"])] for it in items])
    found = _check(tmp_path, _hidden("nli", items), "idx.csv", indices)
    refused = n * math.log2(3) >= ID_FLOOR_3_LABELS
    assert ("transformed, in the value just after their ids" in found) is refused


def test_a_perfect_map_of_scores_is_refused_by_id_when_their_order_carries_the_floor(tmp_path):
    """24 scores with two values (12 each) have C(24, 12) orders, 21.4 bits: a column independent of
    them ranks the items alike with probability 2**-21.4, under the floor's 20 + log2(4 columns x
    2 directions) = 23 bits. 24 distinct scores have 24! orders (79 bits)."""
    rng = random.Random(31)
    two = [dict(it, score=float(v)) for it, v in zip(SIM, rng.sample([1, 4] * 12, 24))]
    assert math.log2(math.comb(24, 12)) < 20 + math.log2(4 * 2) < math.log2(math.factorial(24))
    for items, refused in ((two, False), (SIM[:24], True)):
        doubled = _csv([[it["id"], 2 * it["score"]] for it in items])
        found = _check(tmp_path, _hidden("sim", items), "doubled.csv", doubled)
        assert ("transformed, in the value just after their ids" in found) is refused


def _default_with_nli_answers(tmp_path: Path, encode, known=None) -> Path:
    """The default edition with a public file holding its NLI test gold, ``encode``d, beside each
    id (and ``known``: its ``known_leaks``)."""
    folder = copy_edition(tmp_path / "ed", with_data=True)
    items = [it for it in read_jsonl(folder / "data" / "nli_zh" / "test.jsonl") if it["label"]]
    (folder / "extra").mkdir()
    answers = "".join(f"{it['id']}\t{encode(it['label'])}\n" for it in items)
    (folder / "extra" / "answers.tsv").write_text(answers, encoding="utf-8")

    def change(config):
        _fast(config)
        config["public_files"] = ["extra/answers.tsv"]
        if known is not None:
            config["known_leaks"] = known

    edit_config(folder, change)
    return folder


@pytest.mark.parametrize(
    "encode", [NLI.index, str.capitalize], ids=["label_indices", "capitalised_labels"]
)
def test_the_default_edition_s_nli_test_gold_beside_its_ids_is_refused(tmp_path, encode):
    """Its 21 scored labels carry about 29 bits (red team two: under the 40 bits asked before)."""
    folder = _default_with_nli_answers(tmp_path, encode)
    with pytest.raises(ConfigError) as caught:
        build(load_edition(folder), folder, tmp_path / "out")
    text = str(caught.value)
    assert "starting_kit/extra/answers.tsv: public file reproduces the hidden gold" in text
    assert "track 'nli_zh (test)'" in text and "100% of its items, transformed" in text
    assert "declare its path with the reason in the edition's 'known_leaks'" in text


DECLARED_WHY = "the test gold as label indices, for a post-campaign analysis"


@pytest.fixture(scope="module")
def declared_leak(tmp_path_factory):
    """(the edition folder, its build summary, the output folder) of the default edition with its
    NLI test gold beside its ids in a public file declared in ``known_leaks``, built once."""
    work = tmp_path_factory.mktemp("declared")
    known = {"starting_kit/extra/answers.tsv": DECLARED_WHY}
    folder = _default_with_nli_answers(work, NLI.index, known)
    return folder, build(load_edition(folder), folder, work / "out"), work / "out"


def test_a_declared_leak_builds_and_the_build_summary_names_it(declared_leak, capsys):
    why = DECLARED_WHY
    folder, built, out = declared_leak
    summary = built.render()
    assert f"note: known leak starting_kit/extra/answers.tsv ({why}): public file reproduces" in (
        summary
    )
    assert "the hidden gold of track 'nli_zh (test)'" in summary
    assert (out / "default" / "starting_kit" / "extra" / "answers.tsv").is_file()
    assert build_main(["--edition", str(folder), "--dry-run"]) == 0
    assert f"note: known leak starting_kit/extra/answers.tsv ({why})" in capsys.readouterr().out


def test_a_declared_leak_naming_no_public_file_is_refused(tmp_path):
    folder = _default_with_nli_answers(tmp_path, NLI.index, {"extra/answers.tsv": "a typo"})
    with pytest.raises(ConfigError) as caught:
        build(load_edition(folder), folder, tmp_path / "out")
    text = str(caught.value)
    assert "known_leaks 'extra/answers.tsv': names no public file of the bundle" in text
    assert "starting_kit/extra/answers.tsv: public file reproduces the hidden gold" in text


@pytest.mark.parametrize(
    "why, message",
    [
        ("", "must not be empty"),
        ("  ", "must not be empty"),
        (True, "must be a string"),
        (3, "must be a string"),
    ],
)
def test_a_declared_leak_must_say_why(tmp_path, why, message):
    folder = _default_with_nli_answers(tmp_path, NLI.index, {"starting_kit/x.tsv": why})
    with pytest.raises(ConfigError) as caught:
        load_edition(folder)
    text = str(caught.value)
    assert "edition.yaml: " in text and "known_leaks" in text and "starting_kit/x.tsv" in text
    assert message in text


def test_a_declared_leak_is_excused_by_the_built_bundle_s_own_check(declared_leak, tmp_path):
    """The build records the edition's known_leaks at the bundle's root (known_leaks.json, which no
    participant sees), so that `codajudge check` of the bundle it wrote passes; without that record
    the same bundle's check names the file."""
    from codajudge.bundle.check import check_bundle

    _, built, out = declared_leak
    tree = Path(shutil.copytree(built.tree, tmp_path / "default"))
    assert json.loads((tree / "known_leaks.json").read_text()) == {
        "starting_kit/extra/answers.tsv": DECLARED_WHY
    }
    assert check_bundle(tree) == []  # a zip is opened as its folder is: test_check_bundle
    (tree / "known_leaks.json").unlink()
    found = "\n".join(check_bundle(tree))
    assert "starting_kit/extra/answers.tsv" in found and "reproduces the hidden gold" in found


def test_a_declared_leak_is_excused_by_the_legacy_bundle_s_own_check(declared_leak, tmp_path):
    """The legacy bundle carries the same record, each path as its leak check names the file (an
    entry of the zip its folder became), so that its check excuses the same files."""
    from codajudge.bundle.check import check_bundle, v2
    from codajudge.legacy import check as legacy_check
    from codajudge.legacy.build import build_legacy

    folder, _, _ = declared_leak
    built = build_legacy(load_edition(folder), folder, tmp_path / "out")
    assert json.loads((built.tree / "known_leaks.json").read_text()) == {
        "starting_kit.zip:extra/answers.tsv": DECLARED_WHY
    }
    assert check_bundle(built.zip_path, (v2, legacy_check)) == []


def test_a_declared_path_is_named_in_the_legacy_bundle_by_the_zip_its_folder_became():
    from codajudge.legacy.build import legacy_public_path

    assert legacy_public_path("starting_kit/extra/a.tsv") == "starting_kit.zip:extra/a.tsv"
    assert (
        legacy_public_path("input_data/evaluation/a/b.tsv") == "input_data_evaluation.zip:a/b.tsv"
    )


def test_a_bundle_without_declared_leaks_has_no_record_of_them(bundles):
    """The run's shared small bundle, whose edition declares no leak."""
    summary = bundles.small()
    assert not summary.edition.known_leaks
    assert (summary.tree / "competition.yaml").is_file()
    assert not (summary.tree / "known_leaks.json").exists()


def _relabelled(label: str) -> str:
    """A one-to-one relabelling of the NLI labels (each the next one's name)."""
    return NLI[(NLI.index(label) + 1) % len(NLI)]


def _lewidi_soft_labels(items) -> dict:
    """LeWiDi's own layout: ``{id: {"text": ..., "soft_label": {"0": p, "1": p, ...}}}``."""
    return {
        item["id"]: {
            "text": item["texts"][0],
            "soft_label": {
                str(k): round(item["annotations"].count(label) / 5, 2)
                for k, label in enumerate(NLI)
            },
        }
        for item in items
    }


SMALL_NLI = _items("nli", 24, seed=23)
#: The scores with two items left out, as a table without ids might be written.
MOST_SCORES = [item["score"] for k, item in enumerate(SIM) if k not in (40, 100)]
MOST_LABELS = [item["label"] for item in NLI_ITEMS][5:]

#: Layouts a participant's public file could plausibly use to carry the gold, which only some of
#: the check's readings see: by order, relabelled label names and a transformed middle column; by
#: id, the value just before the id, a soft label keyed by numbers, an id listed before its line.
REALISTIC_LEAKS = {
    "relabelled labels on one line": (
        "nli",
        NLI_ITEMS,
        "labels.txt",
        " ".join(_relabelled(item["label"]) for item in NLI_ITEMS[3:]),
    ),
    "relabelled label, then text, then id": (
        "nli",
        NLI_ITEMS,
        "labels.tsv",
        "".join(f"{_relabelled(i['label'])}\t{i['texts'][0]}\t{i['id']}\n" for i in NLI_ITEMS),
    ),
    "a small set: ids listed, then id and label": (
        "nli",
        SMALL_NLI,
        "answers.txt",
        " ".join(i["id"] for i in SMALL_NLI)
        + "\n"
        + "".join(f"{i['id']}\t{i['label']}\n" for i in SMALL_NLI),
    ),
    "a small set: label index just before the id": (
        "nli",
        SMALL_NLI,
        "answers.tsv",
        "".join(f"{NLI.index(i['label'])}\t{i['id']}\n" for i in SMALL_NLI),
    ),
    "a LeWiDi soft label keyed by numbers, as JSON": (
        "soft",
        ANN,
        "dev.json",
        json.dumps(_lewidi_soft_labels(ANN)),
    ),
    "pandas to_csv: row index, then score / 5": (
        "sim",
        SIM,
        "scores.csv",
        ",value\n" + "".join(f"{k},{round(s / 5, 4)}\n" for k, s in enumerate(MOST_SCORES)),
    ),
    "no ids: row, 20 x score, length (a middle column)": (
        "sim",
        SIM,
        "table.tsv",
        "".join(
            f"{k}\t{round(20 * s, 2)}\t{len(item['texts'][0])}\n"
            for k, (s, item) in enumerate(zip(MOST_SCORES, SIM))
        ),
    ),
    "no ids: row, label index, length (a middle column)": (
        "nli",
        NLI_ITEMS,
        "table.tsv",
        "".join(
            f"{k}\t{NLI.index(label)}\t{len(item['texts'][0])}\n"
            for k, (label, item) in enumerate(zip(MOST_LABELS, NLI_ITEMS))
        ),
    ),
}


@pytest.mark.parametrize("case", REALISTIC_LEAKS)
def test_realistic_layouts_of_the_gold_are_refused(case, tmp_path):
    """Each layout is caught by one of the check's readings; dropping that reading lets it pass
    (a review found each of these let through when scans were cut as 'no test needs them')."""
    track, items, name, text = REALISTIC_LEAKS[case]
    assert _check(tmp_path, _hidden(track, items), name, text), f"{case}: not refused"
