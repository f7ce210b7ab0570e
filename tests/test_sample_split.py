"""A dataset without a training split (``train: none``) and a split that is a seeded sample of
another's items (``sample``, ``codajudge/bundle/sample.py``), as editions/chaosnli declares them."""

import hashlib
import json

import pytest
import yaml

from small_edition import make_edition
from codajudge.bundle.build import build, import_data
from codajudge.bundle.data_checks import dataset_problems
from codajudge.bundle.edition import load_edition
from codajudge.bundle.sample import sampled_items
from codajudge.errors import ConfigError

SAMPLE = {"dev": {"of": "test", "items": 5, "seed": 3}}
#: The sample held out of the test split, as editions/chaosnli does: a hidden practice phase may not
#: score the evaluation's items (tests/test_phase_gold.py).
HELD_OUT = {"test": "dev"}


def one_dataset_edition(tmp_path, **nli_options):
    """The small edition cut to its NLI dataset (a soft-label track scored by jsd and kl, and the
    labels), with ``nli_options`` added to the dataset's config."""
    folder = make_edition(tmp_path / "edition")
    config = yaml.safe_load((folder / "edition.yaml").read_text())
    config["datasets"] = {"nli": dict(config["datasets"]["nli"], **nli_options)}
    config["tracks"] = [t for t in config["tracks"] if t["dataset"] == "nli"]
    config["tracks"][1]["metrics"] = ["jsd", "kl"]
    for phase in config["phases"]:  # as editions/chaosnli: every phase's gold hidden
        phase["public_gold"] = False
    (folder / "edition.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    return folder


def test_the_sample_is_the_smallest_sha256_of_seed_and_id_in_release_order(tmp_path):
    items = [{"id": f"item-{i}"} for i in range(40)]
    chosen = sampled_items(items, "dev", {"of": "test", "items": 7, "seed": 2020}, "here")
    digest = {it["id"]: hashlib.sha256(f"2020:{it['id']}".encode()).hexdigest() for it in items}
    expected = sorted(sorted(digest, key=digest.get)[:7], key=lambda i: int(i.split("-")[1]))
    assert [it["id"] for it in chosen] == expected
    other = sampled_items(items, "dev", {"of": "test", "items": 7, "seed": 2021}, "here")
    assert [it["id"] for it in other] != expected
    # recorded: the choice must never change with numpy, Python or the platform
    assert [it["id"] for it in chosen] == [
        "item-0", "item-6", "item-19", "item-25", "item-27", "item-34", "item-35",
    ]  # fmt: skip


@pytest.mark.parametrize(
    "sample, message",
    [
        ([1], "'sample' must be a mapping"),
        ({"dev": {"of": "test", "items": 5}}, "'seed' is required"),
        ({"dev": {"of": "dev", "items": 5, "seed": 1}}, "'sample.dev.of' must name another split"),
        ({"dev": {"of": "test", "items": 0, "seed": 1}}, "'items' must be a whole number"),
        ({"dev": {"of": "test", "items": 5, "seed": True}}, "'seed' must be a whole number"),
        (
            {
                "dev": {"of": "test", "items": 5, "seed": 1},
                "test": {"of": "dev", "items": 2, "seed": 1},
            },
            "'sample.dev.of' names a split that is itself a sample",
        ),
    ],
)
def test_a_wrong_sample_is_refused_before_any_file_is_read(tmp_path, sample, message):
    folder = one_dataset_edition(tmp_path, sample=sample, exclude=HELD_OUT)
    with pytest.raises(ConfigError) as e:
        load_edition(folder)
    assert message in str(e.value) and "datasets 'nli'" in str(e.value)


@pytest.mark.parametrize(
    "key, value, found",
    [
        ("split", {"train": 0.6, "dev": 0.2, "test": 0.2}, "split: {train: 0.6}"),
        ("splits", {"train": {"path": "nli/train.jsonl"}}, "splits: {train: {'path'"),
    ],
)
def test_train_none_with_a_train_in_split_or_splits_is_refused(tmp_path, key, value, found):
    """The train items of ``split`` or ``splits`` would be dropped without a word."""
    folder = one_dataset_edition(tmp_path, train="none", **{key: value})
    with pytest.raises(ConfigError) as e:
        load_edition(folder)
    assert "datasets 'nli': 'train: none' (no training split) and a train " in str(e.value)
    assert f"in '{key}' contradict each other, found train: none, {found}" in str(e.value)
    assert f"or drop 'train' from '{key}'" in str(e.value)


@pytest.mark.parametrize(
    "source, found",
    [
        ({"importer": "ocnli", "files": {"train": "t.json", "test": "d.json"}}, "files.train"),
        ({"importer": "stsb", "files": {"dev": "d.csv"}, "from_": "train"}, "files.dev"),
        ({"importer": "semeval_sts", "fallback": {"train": {"path": "b"}}}, "fallback.train"),
    ],
)
def test_a_per_split_source_that_split_never_reads_is_refused(source, found):
    """``split`` cuts only its ``from`` split: another split's file would be dropped without a word."""
    cut = source.pop("from_", "test")
    source |= {"path": "r", "split": {"dev": 0.3, "test": 0.7, "from": cut}}
    problems = [p.render() for p in dataset_problems({"nli": source}, "edition.yaml")]
    assert len(problems) == 1 and "edition.yaml: datasets 'nli'" in problems[0]
    assert f"names a {found.split('.')[1]} source that 'split' never reads" in problems[0]
    assert f"cuts only the {cut} source" in problems[0] and f"found {found}: " in problems[0]
    assert "share in 'split'" in problems[0] and "'sample' + 'exclude'" in problems[0]
    read = {k: v for k, v in source.items() if k not in ("files", "fallback")} | {
        "files": {cut: "x"}
    }
    assert not list(dataset_problems({"nli": read}, "edition.yaml"))  # the file 'split' cuts


def test_a_sample_larger_than_its_split_is_refused(tmp_path):
    folder = one_dataset_edition(
        tmp_path, sample={"dev": {"of": "test", "items": 15, "seed": 3}}, exclude=HELD_OUT
    )
    with pytest.raises(ConfigError, match="the dev sample asks for more items than the test split"):
        import_data(load_edition(folder), folder)


def test_train_none_reads_no_training_file_and_the_sample_is_held_out_of_the_test_items(tmp_path):
    folder = one_dataset_edition(tmp_path, train="none", sample=SAMPLE, exclude=HELD_OUT)
    (folder / "data" / "nli" / "train.jsonl").unlink()  # never read
    data = import_data(load_edition(folder), folder)
    assert "nli" not in data.splits["train"]
    release = [json.loads(line) for line in (folder / "data" / "nli" / "test.jsonl").open()]
    test, dev = data.splits["test"]["nli"], data.splits["dev"]["nli"]
    assert len(dev) == 5 and all(item in release for item in dev)
    assert test == [item for item in release if item not in dev]


def test_without_train_the_baselines_that_learn_are_not_run_and_the_page_says_so(tmp_path):
    folder = one_dataset_edition(tmp_path, train="none", sample=SAMPLE, exclude=HELD_OUT)
    summary = build(load_edition(folder), folder, tmp_path / "dist")
    tree = summary.tree
    assert (tree / "input_data" / "practice" / "nli.train.jsonl").read_text() == ""
    assert sorted(p.name for p in (tree / "solutions").iterdir()) == ["random"]
    page = (tree / "pages" / "baselines.md").read_text(encoding="utf-8")
    for name in ("most_frequent", "cosine_bow"):
        assert f"- **{name}** is not run in this edition: it learns from the training split" in page
    assert "| nli_soft Jensen-Shannon distance |" in page and "| score | random |" in page
    kit = tree / "starting_kit" / "sample_submissions" / "result_submission.zip"
    assert kit.is_file()  # the random baseline's predictions, cosine_bow being unable to run
    practice = [
        json.loads(line) for line in (tree / "input_data" / "practice" / "nli.jsonl").open()
    ]
    assert len(practice) == 5
