"""The builder refuses bad editions before writing anything, with messages naming the key, the expected
and the found value (issue 4); per-split sources; what counts as a shared train/test item; the legacy
CodaLab v1.5 bundle.

Configs are the default edition's, copied to a temporary folder and edited; expected messages and
keys are derived here from the edited config, not from the builder.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml

from codajudge.bundle.build import BuildSummary, build, import_data
from codajudge.bundle.edition import load_edition
from codajudge.bundle.data_checks import empty_split_problems
from codajudge.legacy.build import legacy_yaml, markdown_to_html
from conftest import shared_checker
from codajudge.errors import ConfigError

REPO = Path(__file__).resolve().parents[1]
DEFAULT = REPO / "editions" / "default"


#: Metrics per kind and scale, and which are higher-is-better (README, "How scoring works").
METRICS = {
    ("similarity", None): ["pearson", "spearman"],
    ("classification", None): ["accuracy", "macro_f1"],
    ("soft_label", "categorical"): ["amd"],
    ("soft_label", "ordinal"): ["awd"],
    ("soft_label", "multilabel"): ["mamd"],
    ("perspectivist", "categorical"): ["error_rate"],
    ("perspectivist", "ordinal"): ["anad"],
    ("perspectivist", "multilabel"): ["mer"],
}
HIGHER_IS_BETTER = {"pearson", "spearman", "accuracy", "macro_f1"}


def needs_default_data():
    if not (DEFAULT / "data").is_dir():
        pytest.skip("editions/default/data is not there yet")


def copy_edition(target: Path, with_data: bool = False) -> Path:
    if with_data:
        needs_default_data()
    shutil.copytree(DEFAULT, target, ignore=None if with_data else shutil.ignore_patterns("data"))
    return target


def edit_config(folder: Path, change) -> dict:
    path = folder / "edition.yaml"
    config = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(config)
    path.write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return config


def refusal(folder: Path) -> str:
    with pytest.raises(ConfigError) as caught:
        load_edition(folder)
    return str(caught.value)


def read_jsonl(path: Path) -> list:
    """Split at "\n" only: U+2028 and U+0085 in a text are text, not line ends."""
    return [
        json.loads(line) for line in path.read_text(encoding="utf-8").split("\n") if line.strip()
    ]


def write_jsonl(path: Path, rows) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )


# --- what a build runs ------------------------------------------------------------------------------


def test_each_baseline_runs_once_per_split_and_the_sample_submission_is_the_scored_cosine_run(
    tmp_path, monkeypatch
):
    """The Baselines page scores each baseline once per split (evaluation and post-campaign share the
    test split); the starting kit's sample result submission is cosine_bow's predictions on the first
    phase, the very files the page scored, not a second run of the same baseline. A phase's
    datasets are read once for all its baselines."""
    from codajudge.bundle import baselines_run, build as build_module
    from codajudge.programs import child
    from codajudge.programs.ingest import main as ingest_main
    from small_edition import make_edition

    runs = []
    run_baseline = baselines_run.run_baseline

    def counting(name, input_dir, output_dir, seed, datasets=None):
        runs.append((name, input_dir.name))
        return run_baseline(name, input_dir, output_dir, seed, datasets)

    reads = []
    load_dataset = child.load_dataset

    def counting_reads(input_dir, dataset, say):
        reads.append((input_dir.name, dataset))
        return load_dataset(input_dir, dataset, say)

    monkeypatch.setattr(baselines_run, "run_baseline", counting)
    monkeypatch.setattr(build_module, "run_baseline", counting, raising=False)
    monkeypatch.setattr(child, "load_dataset", counting_reads)
    edition = load_edition(make_edition(tmp_path / "edition"))
    summary = build(edition, edition.folder, tmp_path / "dist")
    first_of_split = {}
    for phase in edition.phases:
        first_of_split.setdefault(phase.split, phase.id)
    assert sorted(runs) == sorted(
        (name, phase) for phase in first_of_split.values() for name in edition.baselines
    )
    scored_phases = set(first_of_split.values())
    scored_reads = [read for read in reads if read[0] in scored_phases]
    assert len(edition.baselines) > 1 and scored_reads
    assert len(scored_reads) == len(set(scored_reads)), "a phase's dataset read once per baseline"
    fresh = tmp_path / "fresh"
    first = edition.phases[0].id
    assert (
        ingest_main(
            [
                "--baseline",
                "cosine_bow",
                "--seed",
                str(edition.seed),
                str(summary.tree / "input_data" / first),
                str(fresh),
            ]
        )
        == 0
    )
    sample = summary.tree / "starting_kit" / "sample_submissions" / "result_submission.zip"
    with zipfile.ZipFile(sample) as archive:
        files = {name: archive.read(name) for name in archive.namelist()}
    assert files == {
        p.name: p.read_bytes() for p in fresh.iterdir() if p.name != "ingestion_status.json"
    }
    assert sorted(files) == sorted(f"{track.id}.tsv" for track in edition.tracks)
    kept = sample.read_bytes()
    build_module.write_samples(edition, summary.tree, {}, "cosine_bow")  # run when not kept
    assert runs[-1] == ("cosine_bow", first) and sample.read_bytes() == kept


def assert_local_sample_is_the_run_of(run_baseline, name: str, kit: Path, seed, tmp_path: Path):
    """The kit's local sample submission holds exactly the files baseline ``name`` writes when run
    afresh (by ``run_baseline``, the unpatched function) on the kit's local input data."""
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    run_baseline(name, kit / "input_data" / "local", fresh, seed)
    with zipfile.ZipFile(kit / "sample_submissions" / "local_result_submission.zip") as archive:
        files = {entry: archive.read(entry) for entry in archive.namelist()}
    assert files == {path.name: path.read_bytes() for path in fresh.iterdir()}


def test_the_local_sample_submission_is_the_scored_cosine_run_on_the_local_phase(
    tmp_path, monkeypatch
):
    """The kit's local phase scores each baseline once; its sample result submission is cosine_bow's
    predictions there, the very files scored, not a second run."""
    from codajudge.bundle import baselines_run
    from small_edition import make_edition

    runs = []
    run_baseline = baselines_run.run_baseline

    def counting(name, input_dir, output_dir, seed, datasets=None):
        runs.append((name, input_dir.name))
        return run_baseline(name, input_dir, output_dir, seed, datasets)

    monkeypatch.setattr(baselines_run, "run_baseline", counting)
    folder = make_edition(tmp_path / "edition")
    config = yaml.safe_load((folder / "edition.yaml").read_text())
    config["local"] = {"fraction": 0.25, "seed": 1}
    (folder / "edition.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    edition = load_edition(folder)
    kit = build(edition, edition.folder, tmp_path / "dist").tree / "starting_kit"
    assert sorted(name for name, phase in runs if phase == "local") == sorted(edition.baselines)
    assert_local_sample_is_the_run_of(run_baseline, "cosine_bow", kit, edition.seed, tmp_path)


def test_the_samples_are_the_predictions_of_a_baseline_the_edition_runs(tmp_path, monkeypatch):
    """lewidi2023 runs random and most_frequent: its samples were cosine_bow's, run for them alone,
    and its README said so. The samples are cosine_bow's where the edition runs it, else the first
    baseline it runs, and the README names that one."""
    from codajudge.bundle import baselines_run
    from small_edition import make_edition

    assert baselines_run.sample_baseline(["random", "most_frequent", "cosine_bow"]) == "cosine_bow"
    assert baselines_run.sample_baseline(["most_frequent", "random"]) == "most_frequent"
    assert baselines_run.sample_baseline([]) == "random"
    runs = []
    run_baseline = baselines_run.run_baseline

    def counting(name, input_dir, output_dir, seed, datasets=None):
        runs.append(name)
        return run_baseline(name, input_dir, output_dir, seed, datasets)

    monkeypatch.setattr(baselines_run, "run_baseline", counting)
    folder = make_edition(tmp_path / "edition")
    config = yaml.safe_load((folder / "edition.yaml").read_text())
    config.update(baselines=["random", "most_frequent"], local={"fraction": 0.25, "seed": 1})
    (folder / "edition.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    edition = load_edition(folder)
    kit = build(edition, edition.folder, tmp_path / "dist").tree / "starting_kit"
    assert "cosine_bow" not in runs
    readme = (kit / "README.md").read_text(encoding="utf-8")
    assert "cosine_bow baseline's" not in readme and "the random baseline's predictions" in readme
    assert_local_sample_is_the_run_of(run_baseline, "random", kit, edition.seed, tmp_path)


def test_a_baseline_failing_on_the_data_is_the_builds_located_refusal(bundles, tmp_path, capsys):
    """cosine_bow learns from the training split: on a phase without one it fails, and the build
    refuses naming the baseline and quoting its refusal (random, which learns nothing, runs). A
    baseline runs in the builder's process, which it leaves as it was: the working folder, the
    import path, the environment, the global random generators and the console."""
    import pickle
    import random

    import numpy as np

    from codajudge.bundle.baselines_run import run_baseline

    phase = Path(shutil.copytree(bundles.small().tree / "input_data" / "practice", tmp_path / "in"))
    for train in phase.glob("*.train.jsonl"):
        train.unlink()
    (tmp_path / "out").mkdir()

    def state():
        generators = pickle.dumps((random.getstate(), np.random.get_state()))
        return os.getcwd(), list(sys.path), dict(os.environ), generators

    before = state()
    run_baseline("random", phase, tmp_path / "out", seed=1)  # needs no training split
    assert state() == before and capsys.readouterr() == ("", "")
    with pytest.raises(ConfigError) as refused:
        run_baseline("cosine_bow", phase, tmp_path / "out", seed=1)
    message = str(refused.value)
    assert "baseline cosine_bow: the baseline failed on the edition's data" in message
    assert "the training split is empty, and the CosineBow baseline learns from it" in message
    assert state() == before
    assert capsys.readouterr() == ("", "")


# --- refusals at load time -------------------------------------------------------------------------


def test_overlapping_phase_dates_are_refused(tmp_path):
    folder = copy_edition(tmp_path / "ed")
    config = edit_config(folder, lambda c: c["phases"][1].update(start="2027-02-20 00:00:00"))
    text = refusal(folder)
    assert "phases (evaluation)" in text and "overlap" in text
    assert f"start after {config['phases'][0]['end']}" in text  # expected
    assert "2027-02-20 00:00:00" in text  # found


def test_a_phase_starting_exactly_when_the_previous_ends_is_refused(tmp_path):
    folder = copy_edition(tmp_path / "ed")
    edit_config(folder, lambda c: c["phases"][1].update(start=c["phases"][0]["end"]))
    assert "phases (evaluation)" in refusal(folder)


def test_an_unknown_track_kind_is_refused(tmp_path):
    folder = copy_edition(tmp_path / "ed")
    config = edit_config(folder, lambda c: c["tracks"][0].update(kind="regression"))
    text = refusal(folder)
    track_id = config["tracks"][0]["id"]
    assert f"'{track_id}'" in text and "unknown track kind" in text
    assert "similarity | classification | soft_label | perspectivist" in text  # expected
    assert "'regression'" in text  # found


def test_a_leaderboard_key_longer_than_36_characters_is_refused(tmp_path):
    folder = copy_edition(tmp_path / "ed")
    long_id = "semantic_similarity_english_en"  # + "_spearman" = 39 characters
    edit_config(folder, lambda c: c["tracks"][0].update(id=long_id))
    text = refusal(folder)
    key = f"{long_id}_spearman"
    assert len(key) > 36
    assert f"leaderboard key '{key}'" in text and "at most 36" in text and str(len(key)) in text


def test_a_public_file_outside_the_edition_folder_is_refused(tmp_path):
    folder = copy_edition(tmp_path / "ed")
    edit_config(folder, lambda c: c.update(public_files=["../secret.tsv", "missing.tsv"]))
    text = refusal(folder)
    assert "public_files[0]" in text and "'../secret.tsv'" in text
    assert "public_files[1]" in text and "file not found" in text


def test_the_command_line_refuses_before_writing_anything(tmp_path):
    folder = copy_edition(tmp_path / "ed")
    edit_config(folder, lambda c: c["tracks"][1].update(kind="ranking"))
    out = tmp_path / "out"
    done = subprocess.run(
        [
            sys.executable,
            str(REPO / "build_bundle.py"),
            "--edition",
            str(folder),
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode != 0
    assert "unknown track kind" in done.stderr and "'ranking'" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    assert not out.exists() or not any(out.iterdir())


# --- refusals that need the data: hidden gold in public files --------------------------------------


def _fast(config: dict) -> None:
    config["baselines"] = []  # the leak check does not need the baselines' scores


def _assert_nothing_written(out: Path, name: str = "default") -> None:
    assert not (out / name).exists() and not (out / f"{name}.zip").exists()
    assert not out.exists() or not [p for p in out.iterdir() if not p.name.startswith(".")]


def test_a_public_file_holding_the_test_gold_is_refused(tmp_path):
    folder = copy_edition(tmp_path / "ed", with_data=True)
    test_items = read_jsonl(folder / "data" / "sts_en" / "test.jsonl")
    answers = folder / "extra" / "answers.tsv"
    answers.parent.mkdir()
    answers.write_text(
        "".join(f"{it['id']}\t{it['score']}\n" for it in test_items), encoding="utf-8"
    )
    config = edit_config(folder, lambda c: (_fast(c), c.update(public_files=["extra/answers.tsv"])))
    track = next(t["id"] for t in config["tracks"] if t["dataset"] == "sts_en")
    out = tmp_path / "out"
    with pytest.raises(ConfigError) as caught:
        build(load_edition(folder), folder, out)
    text = str(caught.value)
    assert "starting_kit/extra/answers.tsv" in text
    assert f"hidden gold of track '{track} (test)'" in text and "100% of items exact" in text
    _assert_nothing_written(out)


def test_a_starting_kit_holding_the_test_gold_is_refused(tmp_path):
    """A dev split that is the test split, with the practice gold public: the starting kit's reference
    data would be the test gold."""
    folder = copy_edition(tmp_path / "ed", with_data=True)
    shutil.copyfile(
        folder / "data" / "sts_es" / "test.jsonl", folder / "data" / "sts_es" / "dev.jsonl"
    )
    n_test = len((folder / "data" / "sts_es" / "test.jsonl").read_text().splitlines())

    def declared(config):  # the repeats declared, so the public files' own check is what refuses
        _fast(config)
        config["datasets"]["sts_es"]["known_repeats"] = {"test": n_test}

    config = edit_config(folder, declared)
    assert config["phases"][0].get("public_gold", True)  # the default: practice gold is public
    track = next(t["id"] for t in config["tracks"] if t["dataset"] == "sts_es")
    out = tmp_path / "out"
    with pytest.raises(ConfigError) as caught:
        build(load_edition(folder), folder, out)
    text = str(caught.value)
    assert "starting_kit/reference_data/practice/sts_es.jsonl" in text
    assert f"hidden gold of track '{track} (test)'" in text and "public_gold: false" in text
    _assert_nothing_written(out)


# --- per-split sources and shared items ------------------------------------------------------------


def _kit_edition(tmp_path: Path, train, dev, test, source=None) -> Path:
    """The default edition reduced to one similarity track on one kit dataset."""
    folder = copy_edition(tmp_path / "ed")
    for split, rows in (("train", train), ("dev", dev), ("test", test)):
        write_jsonl(folder / "data" / "sim" / f"{split}.jsonl", rows)
    edit_config(
        folder,
        lambda c: c.update(
            datasets={"sim": source or {"importer": "kit", "path": "data/sim"}},
            tracks=[{"id": "sim", "kind": "similarity", "dataset": "sim"}],
        ),
    )
    return folder


def _pairs(prefix: str, n: int, texts: str = ""):
    """``n`` items; their texts start with ``texts`` (the prefix by default: other splits' are other)."""
    texts = texts or prefix
    return [
        {
            "id": f"{prefix}{i}",
            "texts": [f"{texts} {i}", f"b {i}"],
            "lang": "en",
            "score": float(i % 5),
        }
        for i in range(n)
    ]


def _repeats_refusal(folder: Path) -> str:
    with pytest.raises(ConfigError) as caught:
        import_data(load_edition(folder), folder)
    return str(caught.value)


def test_a_scored_split_without_items_is_refused_naming_its_file_and_dataset(tmp_path):
    """A phase's split needs items; the training split may be empty (no baseline then learns)."""
    folder = _kit_edition(tmp_path, [], _pairs("d", 6), [])
    text = _repeats_refusal(folder)
    test_file = folder / "data" / "sim"
    assert f"{test_file} (dataset 'sim', test split): the test split has no items" in text
    assert "train split has no items" not in text and "dev split has no items" not in text
    assert "found 6 items: train 0, dev 6, test 0. Give the test split items" in text


def test_a_cut_that_leaves_a_scored_split_empty_names_the_counts_shares_and_fix():
    """A release cut by shares (``split``) into an empty scored split: the items each split got,
    the shares, and the fixes docs/edition-config.md gives."""
    cut = {"train": 0.5, "dev": 0.25, "test": 0.25, "seed": 1}
    splits = {"train": {"sim": [{}]}, "dev": {"sim": [{}, {}]}, "test": {"sim": []}}
    [problem] = empty_split_problems(
        {"sim": {"split": cut}}, splits, ["dev", "test"], "{} {}".format
    )
    assert (problem.file, problem.message) == ("sim test", "the test split has no items")
    assert problem.found == (
        "3 items: train 1, dev 2, test 0 (split: {train: 0.5, dev: 0.25, test: 0.25, seed: 1})"
    )
    assert problem.hint.startswith(
        "give the dataset more items, other shares in 'split' or another"
    )


def test_a_training_item_that_is_a_test_item_is_refused(tmp_path):
    test = _pairs("t", 6)
    folder = _kit_edition(tmp_path, _pairs("r", 6) + [test[3]], _pairs("d", 6), test)
    text = _repeats_refusal(folder)
    assert (
        "(dataset 'sim', test split), item 't3'" in text
        and "test items with the texts of items of a public split (dev, train): 1," in text
    )
    assert "more than the 0 declared" in text and "test item 't3'" in text
    # the repeats were checked: what is left for the built bundle is the public files' leak check
    last = text.splitlines()[-1]
    assert last.startswith("not checked: the leaderboard's keys, the pages and the public files'")
    assert last.endswith(  # two plain sentences: what waits for the build, and what ran
        "starting kit file): they need the bundle built. All the data's checks ran, the repeats of "
        "public items in hidden splits among them"
    )
    assert "the leak checks" not in text


def test_test_items_copied_into_train_under_new_ids_are_refused(tmp_path):
    """Issue 22, item 6: ids renamed (and white space re-wrapped) do not make a copy another item."""
    test = _pairs("t", 6)
    copies = [
        dict(it, id=f"copy{k}", texts=[f"  {it['texts'][0]}", it["texts"][1].replace(" ", "\t")])
        for k, it in enumerate(test[:4])
    ]
    folder = _kit_edition(tmp_path, _pairs("r", 6) + copies, _pairs("d", 6), test)
    text = _repeats_refusal(folder)
    assert (
        "(dataset 'sim', test split), item 't0'" in text
        and "test items with the texts of items of a public split (dev, train): 4," in text
    )
    assert "test item 't0' has the texts of train item 'copy0'" in text
    assert "known_repeats: {test: 4}" in text


def test_a_public_dev_split_repeating_test_items_is_refused(tmp_path):
    """The practice phase's dev gold is public (the default edition's): a dev copy leaks too."""
    test = _pairs("t", 6)
    dev = _pairs("d", 6)[:3] + [dict(it, id=f"dev-copy{k}") for k, it in enumerate(test[:3])]
    text = _repeats_refusal(_kit_edition(tmp_path, _pairs("r", 6), dev, test))
    assert "public split (dev, train): 3," in text and "dev item 'dev-copy0'" in text


@pytest.mark.parametrize("kind, counted", [("similarity", 2), ("classification", 0)])
def test_a_swapped_pair_repeats_a_public_item_only_where_the_kind_ignores_the_order(
    tmp_path, kind, counted
):
    """sts2017's practice dev-145 is train-579 with its two sentences swapped: the same pair to a
    similarity track (STS is symmetric), another item to NLI (premise, then hypothesis)."""
    test = _pairs("t", 6)
    swapped = [dict(it, id=f"swap{k}", texts=it["texts"][::-1]) for k, it in enumerate(test[:2])]
    folder = _kit_edition(tmp_path, _pairs("r", 6) + swapped, _pairs("d", 6), test)
    labels = {"labels": ["0", "1", "2", "3", "4"]} if kind == "classification" else {}
    for split in ("train", "dev", "test"):  # labels for the classification track
        path = folder / "data" / "sim" / f"{split}.jsonl"
        rows = [dict(row, label=str(int(row["score"]))) for row in read_jsonl(path)]
        write_jsonl(path, rows)
    edit_config(folder, lambda c: c["tracks"][0].update(kind=kind, **labels))
    if not counted:
        assert import_data(load_edition(folder), folder).repeats == []
        return
    text = _repeats_refusal(folder)
    assert "test items with the texts of items of a public split (dev, train): 2," in text
    assert "test item 't0' has the texts of train item 'swap0'" in text


def _declare(folder: Path, value) -> None:
    edit_config(folder, lambda c: c["datasets"]["sim"].update(known_repeats=value))


def test_declared_repeats_are_reported_and_more_are_refused(tmp_path):
    test = _pairs("t", 6)
    folder = _kit_edition(
        tmp_path, _pairs("r", 6) + [dict(test[1], id="r-copy")], _pairs("d", 6), test
    )
    _declare(folder, {"test": 1})
    data = import_data(load_edition(folder), folder)
    assert [(r.dataset, r.split, r.found, r.declared) for r in data.repeats] == [
        ("sim", "test", 1, 1)
    ]
    assert data.repeats[0].example == ("t1", "train", "r-copy")
    assert "sim test: items with the texts of public items: 1 (known_repeats: 1)" in (
        data.repeats[0].render()
    )
    own = folder / "templates" / "builder" / "repeats.md"  # the edition's own words, in its summary
    own.parent.mkdir(parents=True)
    own.write_text("$dataset $split: $found repeated\n", encoding="utf-8")
    summary = BuildSummary(load_edition(folder), folder, folder, "0", {}, repeats=data.repeats)
    assert "  repeats sim test: 1 repeated" in summary.render()
    write_jsonl(
        folder / "data" / "sim" / "train.jsonl",
        _pairs("r", 6) + [dict(it, id=f"c{k}") for k, it in enumerate(test[1:3])],
    )
    text = _repeats_refusal(folder)
    assert "(dev, train): 2, more than the 1 declared" in text


@pytest.mark.parametrize("value", ["1", True, -1, 1.0, [1], {"test": "1"}, {"test": None}])
def test_known_repeats_must_map_splits_to_counts(tmp_path, value):
    folder = _kit_edition(tmp_path, _pairs("r", 6), _pairs("d", 6), _pairs("t", 6))
    _declare(folder, value if isinstance(value, dict) else {"test": value})
    text = _repeats_refusal(folder)
    # the edition schema refuses the shape before the builder reads it
    assert "datasets 'sim'" in text and "'known_repeats'" in text
    assert "whole number of at least 0" in text or "must be a mapping" in text


def test_known_repeats_of_a_split_no_phase_hides_are_refused(tmp_path):
    folder = _kit_edition(tmp_path, _pairs("r", 6), _pairs("d", 6), _pairs("t", 6))
    _declare(folder, {"dev": 2})  # the practice phase's dev gold is public
    text = _repeats_refusal(folder)
    assert "'known_repeats' names split 'dev', whose gold no phase hides" in text


def test_reused_ids_with_other_texts_are_different_items(tmp_path):
    """OCNLI train and dev share 1,036 numeric ids, VariErrNLI train and dev 4: different items."""
    folder = _kit_edition(
        tmp_path, _pairs("t", 6, texts="training"), _pairs("d", 6), _pairs("t", 6)
    )
    data = import_data(load_edition(folder), folder)
    assert [it["id"] for it in data.splits["train"]["sim"]] == [f"t{i}" for i in range(6)]


def test_a_split_can_come_from_another_source(tmp_path):
    other = _pairs("o", 7, texts="other")
    source = {"importer": "kit", "path": "data/sim", "splits": {"train": {"path": "data/other"}}}
    folder = _kit_edition(tmp_path, _pairs("r", 6), _pairs("d", 6), _pairs("t", 6), source)
    write_jsonl(folder / "data" / "other" / "train.jsonl", other)
    data = import_data(load_edition(folder), folder)
    assert [it["id"] for it in data.splits["train"]["sim"]] == [it["id"] for it in other]
    assert [it["id"] for it in data.splits["test"]["sim"]] == [f"t{i}" for i in range(6)]


def test_malformed_split_sources_are_refused(tmp_path):
    source = {"importer": "kit", "path": "data/sim", "splits": {"train": "data/other"}}
    folder = _kit_edition(tmp_path, _pairs("r", 6), _pairs("d", 6), _pairs("t", 6), source)
    with pytest.raises(ConfigError) as caught:
        import_data(load_edition(folder), folder)
    text = str(caught.value)
    assert "datasets 'sim'" in text and "'splits'" in text and "data/other" in text


# --- the legacy CodaLab v1.5 bundle ----------------------------------------------------------------


@pytest.fixture(scope="module")
def legacy(bundles):
    """The small edition's legacy bundle (a track of every kind and scale, the three baselines and
    the three phases): what a v1.5 bundle is made of does not depend on the release behind it."""
    return bundles.small(legacy=True)


@pytest.mark.slow
def test_the_legacy_bundle_passes_the_checker(legacy):
    # One warning on purpose: force_submission_to_leaderboard, which CodaLab v1.5 needs to put each
    # submission on the board (else participants push it by hand), is a key Codabench ignores.
    for target in (legacy.zip_path, legacy.tree):
        done = subprocess.run(
            [sys.executable, str(shared_checker()), str(target)], capture_output=True, text=True
        )
        assert done.returncode == 0, done.stdout[-3000:]
        assert "legacy CodaLab v1/v1.5 bundle" in done.stdout
        assert "0 error(s), 0 runtime problem(s), 1 warning(s)" in done.stdout
        warnings = [line for line in done.stdout.splitlines() if line.startswith("[WARN")]
        assert len(warnings) == 1 and "['force_submission_to_leaderboard']" in warnings[0]


@pytest.mark.slow
def test_the_legacy_build_summary_says_it_takes_result_submissions_only(legacy):
    text = legacy.render()
    assert text.startswith("edition small: ")
    assert "CodaLab v1.5: result submissions only. The bundle has no ingestion program" in text
    assert "code submissions need the Codabench bundle" in text


@pytest.mark.slow
def test_the_legacy_yaml_has_v15_phases_pages_and_the_same_column_keys(legacy):
    """Phases, pages and columns from the edition's own edition.yaml; the docker image, submission
    limits and board title, which the small edition leaves to their defaults, as loaded."""
    doc = yaml.safe_load((legacy.tree / "competition.yaml").read_text(encoding="utf-8"))
    edition = legacy.edition
    raw = yaml.safe_load((edition.folder / "edition.yaml").read_text(encoding="utf-8"))
    assert (
        "version" not in doc
        and "pages" not in doc
        and doc["competition_docker_image"] == edition.docker_image
    )
    assert {"overview", "evaluation", "terms", "data"} <= set(doc["html"])
    for page in doc["html"].values():
        assert (legacy.tree / page).read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    phases = [doc["phases"][k] for k in sorted(doc["phases"])]
    assert [p["phasenumber"] for p in phases] == [1, 2, 3]
    assert [p["start_date"] for p in phases] == [p["start"] for p in raw["phases"]]
    for phase, loaded in zip(phases, edition.phases):
        assert phase["reference_data"] == f"reference_data_{loaded.id}.zip"
        assert phase["max_submissions"] == loaded.max_submissions
    expected = {"primary": "desc"}  # the small edition's primary tracks are higher-is-better
    for track in raw["tracks"]:
        for metric in METRICS[track["kind"], track.get("scale")]:
            expected[f"{track['id']}_{metric}"] = "desc" if metric in HIGHER_IS_BETTER else "asc"
    columns = doc["leaderboard"]["columns"]
    assert {k: c["sort"] for k, c in columns.items()} == expected and list(columns) == list(
        expected
    )
    board = doc["leaderboard"]["leaderboards"][edition.leaderboard["title"]]
    assert all(c["leaderboard"] == board for c in columns.values())


@pytest.mark.slow
def test_every_legacy_zip_has_its_files_at_its_root(legacy):
    def names(name):
        with zipfile.ZipFile(legacy.tree / name) as zf:
            return set(zf.namelist())

    inside = names("scoring_program.zip")
    assert {"metadata", "score.py"} <= inside and any(n.startswith("codajudge/") for n in inside)
    assert not (legacy.tree / "ingestion_program.zip").exists()  # result submissions only
    for phase in ("practice", "evaluation", "post-campaign"):
        assert "task.json" in names(f"reference_data_{phase}.zip")
        assert "task.json" in names(f"input_data_{phase}.zip")
    with zipfile.ZipFile(legacy.tree / "scoring_program.zip") as zf:
        meta = yaml.safe_load(zf.read("metadata"))  # the only name the v1 compute worker reads
    assert meta["command"] == "python3 $program/score.py $input $output"


@pytest.mark.slow
def test_the_legacy_bundle_is_reproducible(legacy, tmp_path):
    """The command line, in a new process with another hash seed, builds the same bytes."""
    env = dict(os.environ, PYTHONHASHSEED="99")
    command = ["--legacy", "--edition", str(legacy.edition.folder), "--out", str(tmp_path)]
    done = subprocess.run(
        [sys.executable, str(REPO / "build_bundle.py"), *command],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    digest = hashlib.sha256((tmp_path / "small-legacy.zip").read_bytes()).hexdigest()
    assert digest == hashlib.sha256(legacy.zip_path.read_bytes()).hexdigest() == legacy.sha256


def test_markdown_pages_become_html():
    text = (
        "# Title\n\nSome *emphasis*, **bold** & `a<b>` and <https://example.org>.\n\n"
        "- one\n  continued\n- two\n\n| a | b \\| c |\n|---|---:|\n| 1 | x \\| y |\n"
    )
    page = markdown_to_html(text, "T")
    assert "<h1>Title</h1>" in page
    assert (
        "<p>Some <em>emphasis</em>, <strong>bold</strong> &amp; <code>a&lt;b&gt;</code> and "
        '<a href="https://example.org">https://example.org</a>.</p>' in page
    )
    assert "<ul><li>one continued</li><li>two</li></ul>" in page
    assert "<tr><th>a</th><th>b | c</th></tr>" in page
    assert "<tr><td>1</td><td>x | y</td></tr>" in page


def test_a_fenced_code_block_stays_verbatim_in_the_html_page():
    """The legacy pages' commands (the CodaLab note) are one block each, escaped, lines and
    indentation kept, never a paragraph with the backticks shown; an unclosed fence ends with the page."""
    text = "Run:\n\n```\npython3 a.py <in> && zip -r x .\n  next *line*\n```\n\nAfter.\n```\nopen"
    page = markdown_to_html(text, "T")
    assert (
        "<pre><code>python3 a.py &lt;in&gt; &amp;&amp; zip -r x .\n  next *line*</code></pre>"
        in page
    )
    assert "<p>Run:</p>" in page and "<p>After.</p>" in page and "```" not in page
    assert page.endswith("<pre><code>open</code></pre>\n</body></html>\n")


def test_a_line_separator_inside_a_page_line_is_text():
    """A page quoting an item's text (U+2028, U+0085) keeps the table row and the paragraph whole;
    only "\n" (with an optional "\r") ends a line."""
    text = "| id | text |\r\n|---|---|\r\n| t1 | one\u2028two\x85three |\r\n\r\nA para\u2028graph.\n- an item\n"
    page = markdown_to_html(text, "T")
    assert "<tr><td>t1</td><td>one\u2028two\x85three</td></tr>" in page
    assert "<p>A para\u2028graph.</p>" in page and "<ul><li>an item</li></ul>" in page


@pytest.mark.parametrize(
    "rule, competition, phase",
    [
        ("Force_Last", {"force_submission_to_leaderboard": True}, {}),
        ("Force_Latest_Multiple", {"force_submission_to_leaderboard": True}, {}),
        ("Force_Best", {}, {"force_best_submission_to_leaderboard": True}),
        ("Add", {}, {}),
        ("Add_And_Delete", {}, {}),
        ("Add_And_Delete_Multiple", {}, {}),
    ],
)
def test_the_legacy_yaml_places_submissions_as_the_rule_says(rule, competition, phase):
    """v1.5 keeps one board entry per participant: ``force_submission_to_leaderboard`` replaces it by
    each finished submission (CodaLab's tasks.py), a phase's ``force_best_submission_to_leaderboard``
    only by a better one (Force_Best); the Add rules write neither key (v1.5's default: by hand)."""
    default = load_edition(DEFAULT)
    edition = dataclasses.replace(
        default, leaderboard={**default.leaderboard, "submission_rule": rule}
    )
    doc = legacy_yaml(edition, {})
    keys = ("force_submission_to_leaderboard", "force_best_submission_to_leaderboard")
    assert {k: doc[k] for k in keys if k in doc} == competition
    assert all({k: p[k] for k in keys if k in p} == phase for p in doc["phases"].values())


# --- an edition folder reused under its old name ---------------------------------------------------


def test_a_config_naming_the_edition_otherwise_than_its_folder_is_noted_by_check(tmp_path, capsys):
    from codajudge.programs.check import check

    folder = copy_edition(tmp_path / "pairsim2029")  # its config still says name: default
    assert check(str(folder)) == 0
    out = capsys.readouterr().out
    assert f"note: {folder / 'edition.yaml'} names the edition 'default', not its folder's" in out
    assert "'pairsim2029': the bundle is written as <out>/default.zip" in out
    assert check(str(copy_edition(tmp_path / "default"))) == 0
    assert "not its folder's name" not in capsys.readouterr().out


def test_a_dataset_no_track_reads_is_noted_by_check(tmp_path, capsys):
    """A dataset whose tracks were removed (the dataset kept) was dropped from the bundle without a
    word: check and build name it, a leftover of an edit."""
    from codajudge.programs.check import check

    folder = copy_edition(tmp_path / "default")
    config = edit_config(folder, lambda c: c["datasets"].update(spare={**c["datasets"]["sts_en"]}))
    assert check(str(folder)) == 0
    out = capsys.readouterr().out
    declared = len(config["datasets"])
    assert (
        f"note: {folder / 'edition.yaml'}: 1 of the {declared} datasets no track reads ('spare'): "
        "checked but left out of the bundle; a leftover of an edit? remove it from 'datasets', "
        "or name it in a track's 'dataset'\n"
    ) in out
    assert check(str(copy_edition(tmp_path / "again" / "default"))) == 0
    assert "no track reads" not in capsys.readouterr().out


def _tree_of(edition):
    """A ``publish`` writer: a one-file tree, the edition returned as built."""

    def write(tree: Path):
        tree.mkdir()
        (tree / "competition.yaml").write_text(f"title: {edition.folder.name}\n", encoding="utf-8")
        return edition

    return write


def test_a_bundle_built_from_another_edition_folder_is_noted_when_replaced(tmp_path):
    from codajudge.bundle.build import publish

    last_year = load_edition(copy_edition(tmp_path / "myshared"))
    this_year = load_edition(copy_edition(tmp_path / "pairsim2029"))  # the same name: default
    out = tmp_path / "dist"
    assert publish(out, "default", _tree_of(last_year)).notes == []
    assert publish(out, "default", _tree_of(last_year)).notes == []  # rebuilt from its own folder
    (note,) = publish(out, "default", _tree_of(this_year)).notes
    previous = Path(last_year.config).resolve()
    assert f"{out / 'default'} replaced: it was built from {previous}" in note
    assert f"this bundle from {this_year.config}" in note
    assert (out / "default" / "competition.yaml").read_text(
        encoding="utf-8"
    ) == "title: pairsim2029\n"
    assert sorted(p.name for p in out.iterdir()) == [".default.source", "default", "default.zip"]
