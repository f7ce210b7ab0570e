"""The LeWiDi 2025 importer on the real release files (../shared/data/lewidi2025) and on small
malformed copies. Expected values come from the data README and from reading the raw JSON here."""

import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

from codajudge.bundle.schema import dataset_fields
from codajudge.errors import ConfigError
from codajudge.fields import Walk, check_object
from codajudge.formats.items import public_view, read_items, write_items
from codajudge.gold import build_gold
from codajudge.importers import load_split as load_any
from codajudge.importers.lewidi import DATASETS, load_split
from codajudge.tracks import track_from_dict

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
RELEASE = DATA / "lewidi2025"
ZIP_NAME = "data_practice_phase.zip"
pytestmark = pytest.mark.skipif(
    not RELEASE.is_dir(), reason="../shared/data/lewidi2025 is not present"
)

NAMES = ("CSC", "MP", "Paraphrase", "VariErrNLI")
# item counts from the README's file table (train of CSC and MP: the practice-phase zip)
COUNTS = {
    ("CSC", "dev"): 704,
    ("CSC", "test"): 704,
    ("CSC", "train"): 5628,
    ("MP", "dev"): 3005,
    ("MP", "test"): 3756,
    ("MP", "train"): 12017,
    ("Paraphrase", "train"): 400,
    ("Paraphrase", "dev"): 50,
    ("Paraphrase", "test"): 50,
    ("VariErrNLI", "train"): 388,
    ("VariErrNLI", "dev"): 50,
    ("VariErrNLI", "test"): 50,
}
TEXT_FIELDS = {
    "CSC": ("context", "response"),
    "MP": ("post", "reply"),
    "Paraphrase": ("Question1", "Question2"),
    "VariErrNLI": ("context", "statement"),
}
LABELS = {
    "CSC": [str(v) for v in range(1, 7)],
    "MP": ["0", "1"],
    "Paraphrase": [str(v) for v in range(-5, 6)],
    "VariErrNLI": ["contradiction", "entailment", "neutral"],
}

_cache = {}


def items_of(dataset, split, from_zip=False):
    key = (dataset, split, from_zip)
    if key not in _cache:
        path = f"lewidi2025/{ZIP_NAME}" if from_zip else "lewidi2025"
        _cache[key] = load_split({"path": path, "dataset": dataset}, DATA, split)
    return _cache[key]


def raw_of(dataset, split, from_zip=False):
    if from_zip:
        with zipfile.ZipFile(RELEASE / ZIP_NAME) as z:
            return json.loads(z.read(f"{dataset}/{dataset}_{split}.json"))
    return json.loads((RELEASE / dataset / f"{dataset}_{split}.json").read_text(encoding="utf-8"))


def soft_track(dataset):
    scale = DATASETS[dataset].scale
    return track_from_dict(
        {
            "id": f"{dataset.lower()}_soft",
            "kind": "soft_label",
            "dataset": dataset,
            "scale": scale,
            "labels": LABELS[dataset],
        }
    )


def released_soft(record, dataset):
    """The raw soft_label as an array in label order, read without the importer's helpers."""
    soft = record["soft_label"]
    if dataset == "VariErrNLI":
        return np.array([[soft[lab]["0"], soft[lab]["1"]] for lab in LABELS[dataset]])
    # MP dev keys are "0.0"/"1.0", test "0"/"1"; CSC practice has an extra "0" bin
    by_value = {float(k): v for k, v in soft.items()}
    return np.array([by_value[float(lab)] for lab in LABELS[dataset]])


@pytest.mark.parametrize("dataset,split", sorted(COUNTS))
def test_item_counts_match_the_readme(dataset, split):
    from_zip = split == "train" and dataset in ("CSC", "MP")
    items = items_of(dataset, split, from_zip)
    assert len(items) == COUNTS[dataset, split]
    assert len({it["id"] for it in items}) == len(items)


@pytest.mark.parametrize("dataset", NAMES)
@pytest.mark.parametrize("split", ["dev", "test"])
def test_items_follow_the_raw_records(dataset, split):
    raw = raw_of(dataset, split)
    items = items_of(dataset, split)
    assert [it["id"] for it in items] == list(raw)  # file order, ids are the JSON keys
    for item in items:
        record = raw[item["id"]]
        assert item["texts"] == [record["text"][f] for f in TEXT_FIELDS[dataset]]
        assert item["lang"] == record["lang"]
        listed = record["annotators"].split(",")
        unique = []
        for name in listed:
            if name not in unique:
                unique.append(name)
        assert item["annotators"] == unique
        assert sorted(item["annotators"]) == sorted(record["annotations"])
        for name, label in zip(item["annotators"], item["annotations"]):
            if dataset == "VariErrNLI":
                assert label == record["annotations"][name].split(",")
            else:
                assert label == record["annotations"][name]
        if dataset == "MP":
            assert item["genre"] == record["other_info"]["source"]
        else:
            assert "genre" not in item


def test_csc_practice_keys_are_stripped_and_match_the_release():
    raw = raw_of("CSC", "dev", from_zip=True)
    for record in raw.values():  # the quirk is really there: every key after the first
        keys = list(record["annotations"])
        assert not keys[0].startswith(" ") and all(k.startswith(" ") for k in keys[1:])
    assert items_of("CSC", "dev", from_zip=True) == items_of("CSC", "dev")
    train = items_of("CSC", "train", from_zip=True)
    assert all(not a.startswith(" ") for it in train for a in it["annotators"])


@pytest.mark.parametrize("dataset", NAMES)
def test_practice_dev_equals_released_dev_after_normalising(dataset):
    assert items_of(dataset, "dev", from_zip=True) == items_of(dataset, "dev")


def test_varierrnli_repeated_annotators_become_one_annotator_with_several_labels():
    raw = raw_of("VariErrNLI", "dev")
    item = next(it for it in items_of("VariErrNLI", "dev") if it["id"] == "49807")
    assert raw["49807"]["annotators"] == "Ann1,Ann2,Ann2,Ann3,Ann4"
    assert item["annotators"] == ["Ann1", "Ann2", "Ann3", "Ann4"]
    assert item["annotations"] == [
        ["neutral"],
        ["entailment", "neutral"],
        ["neutral"],
        ["entailment"],
    ]
    for split in ("train", "dev", "test"):
        raw = raw_of("VariErrNLI", split)
        repeated = 0
        for it in items_of("VariErrNLI", split):
            listed = raw[it["id"]]["annotators"].split(",")
            assert len(set(it["annotators"])) == len(it["annotators"])
            for name, labels in zip(it["annotators"], it["annotations"]):
                assert listed.count(name) == len(labels)  # one repeat per label given
            repeated += len(listed) != len(set(listed))
        assert repeated == {"train": 60, "dev": 5, "test": 6}[split]


@pytest.mark.parametrize("dataset", NAMES)
def test_rebuilt_soft_labels_match_the_released_dev_soft_labels(dataset):
    raw = raw_of(dataset, "dev")
    items = items_of(dataset, "dev")
    gold = build_gold(soft_track(dataset), items, "dev")
    released = np.array([released_soft(raw[i], dataset) for i in gold.ids])
    gap = np.abs(gold.gold - released).reshape(len(items), -1).max(axis=1)
    n_annotators = np.array([len(it["annotators"]) for it in items])
    # dev soft labels are exact, except 3-annotator VariErrNLI items (rounded to 3 decimals)
    rounded = (n_annotators == 3) if dataset == "VariErrNLI" else np.zeros(len(items), bool)
    assert gap[~rounded].max() <= 1e-9
    assert gap[rounded].max(initial=0.0) <= 0.0005 + 1e-12
    if dataset == "VariErrNLI":
        assert rounded.sum() == 7


@pytest.mark.parametrize("dataset", NAMES)
def test_rebuilt_soft_labels_are_within_rounding_of_released_test_soft_labels(dataset):
    raw = raw_of(dataset, "test")
    gold = build_gold(soft_track(dataset), items_of(dataset, "test"), "test")
    released = np.array([released_soft(raw[i], dataset) for i in gold.ids])
    assert np.abs(gold.gold - released).max() <= 0.005 + 1e-9  # rounded to 2 decimals
    assert np.allclose(gold.gold.sum(axis=-1), 1.0)  # rebuilt ones always sum to 1


def test_csc_practice_soft_label_has_an_empty_extra_bin_and_still_passes_the_check():
    raw = raw_of("CSC", "train", from_zip=True)
    assert all(list(r["soft_label"])[0] == "0" and r["soft_label"]["0"] == 0 for r in raw.values())
    assert len(items_of("CSC", "train", from_zip=True)) == 5628


def test_items_are_valid_kit_items_and_public_view_strips_gold(tmp_path):
    items = items_of("VariErrNLI", "test") + items_of("MP", "test")[:50]
    write_items(tmp_path / "x.jsonl", items)
    assert read_items(tmp_path / "x.jsonl") == items
    public = [public_view(it) for it in items]
    assert all("annotations" not in p and p["annotators"] for p in public)


def test_the_importer_registry_dispatches_to_lewidi():
    items = load_any(
        {"importer": "lewidi", "path": "lewidi2025", "dataset": "Paraphrase"}, DATA, "dev"
    )
    assert items == items_of("Paraphrase", "dev")


# --- problems are reported, not crashed on ----------------------------------------------------


def write_release(folder: Path, name: str, records) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(records if isinstance(records, str) else json.dumps(records), encoding="utf-8")
    return path


def mp_record(**changes):
    record = {
        "text": {"post": "p", "reply": "r"},
        "annotators": "Ann1,Ann2",
        "annotations": {"Ann1": "0", "Ann2": "1"},
        "soft_label": {"0.0": 0.5, "1.0": 0.5},
        "lang": "en",
        "other_info": {"source": "twitter"},
    }
    record.update(changes)
    return record


def error_text(source, root, split="dev"):
    with pytest.raises(ConfigError) as info:
        load_split(source, root, split)
    return str(info.value)


def test_unknown_dataset_and_missing_release_are_config_errors(tmp_path):
    """An unknown dataset is the edition schema's refusal, naming the dataset's key."""
    source = {"importer": "lewidi", "path": ".", "dataset": "SNLI"}
    walk = Walk("edition.yaml")
    check_object(walk, "datasets 'x'", source, dataset_fields(source))
    assert [p.render() for p in walk.problems] == [
        "edition.yaml: datasets 'x': unknown LeWiDi dataset; expected CSC | MP | Paraphrase | "
        "VariErrNLI | ArMIS | ConvAbuse | HS-Brexit | MD-Agreement, found 'SNLI'"
    ]
    assert "nothing at this path" in error_text({"path": "nowhere", "dataset": "MP"}, tmp_path)


def test_missing_train_split_points_to_the_practice_zip():
    text = error_text({"path": "lewidi2025", "dataset": "MP"}, DATA, "train")
    assert "MP_train.json" in text and ZIP_NAME in text


def test_files_mapping_and_folder_layouts(tmp_path):
    write_release(tmp_path / "rel", "mine.json", {"7": mp_record()})
    items = load_split(
        {"path": "rel", "dataset": "MP", "files": {"dev": "mine.json"}}, tmp_path, "dev"
    )
    assert items == [
        {
            "id": "7",
            "texts": ["p", "r"],
            "lang": "en",
            "annotators": ["Ann1", "Ann2"],
            "annotations": ["0", "1"],
            "genre": "twitter",
        }
    ]
    write_release(tmp_path / "rel" / "MP", "MP_dev.json", {"8": mp_record()})
    assert [it["id"] for it in load_split({"path": "rel", "dataset": "MP"}, tmp_path, "dev")] == [
        "8"
    ]


def test_zip_junk_entries_are_skipped(tmp_path):
    with zipfile.ZipFile(tmp_path / "r.zip", "w") as z:
        z.writestr("__MACOSX/MP/._MP_dev.json", b"\x00\x05\x16\x07 not json")
        z.writestr("MP/._MP_dev.json", b"\x00\x05\x16\x07 not json")
        z.writestr("MP/.DS_Store", b"\x00")
        z.writestr("MP/MP_dev.json", json.dumps({"1": mp_record()}))
    assert [it["id"] for it in load_split({"path": "r.zip", "dataset": "MP"}, tmp_path, "dev")] == [
        "1"
    ]


def test_bad_json_and_duplicate_ids_name_the_file(tmp_path):
    write_release(tmp_path, "MP_dev.json", '{"1": {"text": }')
    text = error_text({"path": ".", "dataset": "MP"}, tmp_path)
    assert "MP_dev.json" in text and "not valid JSON" in text and "line 1" in text
    write_release(
        tmp_path,
        "MP_dev.json",
        '{"1": %s, "1": %s}' % (json.dumps(mp_record()), json.dumps(mp_record())),
    )
    text = error_text({"path": ".", "dataset": "MP"}, tmp_path)
    assert "the same key twice" in text and "found '1'" in text
    assert "every annotator within an item, must be unique" in text
    (tmp_path / "MP_dev.json").write_bytes(b'{\n"1": "caf\xe9"}')
    text = error_text({"path": ".", "dataset": "MP"}, tmp_path)
    assert "file is not UTF-8 text" in text and "line 2" in text and "0xe9" in text


@pytest.mark.parametrize(
    "record,expected",
    [
        (mp_record(annotations={"Ann1": "0", "Ann2": "2"}), "outside the MP label set"),
        (mp_record(annotators="Ann1,Ann3"), "name different annotators"),
        (mp_record(annotators="Ann1,Ann1,Ann2"), "listed twice"),
        (mp_record(annotations={}), "non-empty object"),
        (mp_record(text={"post": "p"}), "text.reply"),
        (mp_record(soft_label={"0": 0.9, "1": 0.1}), "disagrees with the annotations"),
        (mp_record(soft_label={"0": 0.5, "2": 0.5}), "does not fit the dataset"),
    ],
)
def test_bad_records_are_located_and_explained(tmp_path, record, expected):
    write_release(tmp_path, "MP_dev.json", {"42": record})
    text = error_text({"path": ".", "dataset": "MP"}, tmp_path)
    assert expected in text and "item '42'" in text


@pytest.mark.parametrize("option", [{"hard_gold": "majority"}, {"soft_gold": "release"}])
def test_release_gold_of_a_multilabel_dataset_is_refused_once_naming_the_option(tmp_path, option):
    """VariErrNLI items take several labels: a hard or a released soft gold is refused before any
    file is read, once for the dataset (not once per item)."""
    with pytest.raises(ConfigError) as info:
        load_split({"path": ".", "dataset": "VariErrNLI", **option}, tmp_path, "dev")
    [problem] = info.value.problems
    assert "soft_gold: release and hard_gold" in problem.message
    assert problem.file.startswith("datasets") and "VariErrNLI" in problem.hint


def test_soft_label_check_can_be_switched_off(tmp_path):
    write_release(tmp_path, "MP_dev.json", {"42": mp_record(soft_label={"0": 0.9, "1": 0.1})})
    items = load_split({"path": ".", "dataset": "MP", "check_soft_label": False}, tmp_path, "dev")
    assert items[0]["annotations"] == ["0", "1"]


def test_csc_s_empty_extra_bin_is_dropped_however_its_key_is_written():
    """CSC's soft labels carry a 7th, always-empty "0" bin; written "0.0" it is the same bin."""
    from codajudge.importers.lewidi import DATASETS, released_soft_label

    csc = DATASETS["CSC"]
    shares = {"1": 0.5, "2": 0.25, "3": 0.25, "4": 0.0, "5": 0.0, "6": 0.0}
    for empty in ("0", "0.0"):
        record = {"soft_label": {empty: 0.0, **shares}}
        assert released_soft_label(record, csc) == list(shares.values())
    with pytest.raises(ValueError, match="do not match the labels"):
        released_soft_label({"soft_label": {"0.0": 0.1, **shares}}, csc)
