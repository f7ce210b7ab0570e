"""Which gold a configuration may publish, and which phases may score the same items (issue 34,
items 1, 2 and 7; ``codajudge/bundle/phase_gold.py``, docs/participant-checks.md).

1. A public-gold phase on a split another phase hides would ship the hidden gold in the starting
   kit: refused whatever the phases' order, by the builder and ``codajudge check``.
2. A hidden-gold phase scoring items that a later hidden-gold phase scores leaks them through its
   scores, one submission after another: refused before the evaluation ends (by split, by
   ``sample`` and by texts); a post-campaign phase is exempt.
7. A ``sample`` of a hidden split is never public, whatever ``known_repeats`` declares.

Configs are the default edition's or the small generated one's, edited here.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import re
import shutil
from pathlib import Path

import pytest
import yaml

from codajudge.bundle.build import hidden_gold, import_data
from codajudge.bundle.check import check_bundle
from codajudge.bundle.edition import Phase, load_edition
from codajudge.bundle.phase_gold import post_campaign
from codajudge.errors import ConfigError
from codajudge.programs.check import main as check_main
from small_edition import make_edition
from test_builder import copy_edition, edit_config, refusal, write_jsonl

PHASES = {"practice": 0, "evaluation": 1, "post-campaign": 2}


def _phase(config: dict, phase_id: str) -> dict:
    return config["phases"][PHASES[phase_id]]


def _default_with(tmp_path: Path, change) -> Path:
    folder = copy_edition(tmp_path / "ed")
    edit_config(folder, change)
    return folder


# --- item 1: public gold on a split another phase hides ---------------------------------------------


@pytest.mark.parametrize(
    "publisher, hider, change",
    [
        ("practice", "evaluation", lambda c: _phase(c, "practice").update(split="test")),
        (
            "post-campaign",
            "evaluation",
            lambda c: _phase(c, "post-campaign").update(public_gold=True),
        ),
        ("evaluation", "post-campaign", lambda c: _phase(c, "evaluation").update(public_gold=True)),
        (
            "practice",
            "evaluation",
            lambda c: (
                _phase(c, "practice").update(split="test"),
                _phase(c, "post-campaign").update(public_gold=True),
            ),
        ),
    ],
)
def test_public_gold_on_a_split_another_phase_hides_is_refused(tmp_path, publisher, hider, change):
    text = refusal(_default_with(tmp_path, change))
    assert f"phases ({publisher}): phase {publisher!r} publishes the gold of the test split" in text
    assert re.search(rf"which phases? [^:]*{hider!r}[^:]* hides?: the starting kit would", text)
    assert f"expected public_gold: false on phase {publisher!r}, or another split" in text
    assert "rebuild then with the evaluation phase's gold public" in text


def test_every_phase_on_the_test_split_public_is_accepted(tmp_path):
    """What an organiser uploads after the evaluation to publish the test gold (README)."""
    folder = _default_with(
        tmp_path,
        lambda c: [_phase(c, p).update(public_gold=True) for p in ("evaluation", "post-campaign")],
    )
    assert all(phase.public_gold for phase in load_edition(folder).phases)


def test_codajudge_check_refuses_it_in_the_edition_config(tmp_path, capsys):
    folder = _default_with(tmp_path, lambda c: _phase(c, "practice").update(split="test"))
    assert check_main([str(folder / "edition.yaml")]) == 1
    err = capsys.readouterr().err
    assert "phase 'practice' publishes the gold of the test split" in err
    assert "Traceback" not in err


def test_a_split_is_hidden_when_any_phase_hides_it_whatever_the_order(tmp_path):
    """The builder's own leak check looks for every hidden split's gold, even one a public phase
    also scores (a config load_edition refuses; here the edition is edited after loading)."""
    folder = copy_edition(tmp_path / "ed", with_data=True)
    edition = load_edition(folder)
    practice = dataclasses.replace(edition.phases[0], split="test")
    edition = dataclasses.replace(edition, phases=[practice] + edition.phases[1:])
    data = import_data(load_edition(folder), folder)
    hidden = hidden_gold(edition, data)
    assert {name.split(" ")[-1] for name in hidden} == {"(test)"}
    assert len(hidden) == len(edition.tracks)


# --- item 7: a sample of a hidden split is never public ---------------------------------------------


def _small(tmp_path: Path, change) -> Path:
    folder = make_edition(tmp_path / "small")
    config = yaml.safe_load((folder / "edition.yaml").read_text())
    change(config)
    (folder / "edition.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    return folder


SAMPLE = {"of": "test", "items": 5, "seed": 3}


@pytest.mark.parametrize("declared", [None, {"test": 5}])
def test_a_public_sample_of_a_hidden_split_is_refused_whatever_known_repeats_says(
    tmp_path, declared
):
    def change(config):
        config["datasets"]["nli"]["sample"] = {"dev": SAMPLE}  # practice gold public: the default
        if declared:
            config["datasets"]["nli"]["known_repeats"] = declared

    text = refusal(_small(tmp_path, change))
    assert (
        "datasets 'nli': its dev split is a sample of its test split; phases 'evaluation'" in text
    )
    assert "phase 'practice' publishes the dev gold (public_gold: true)" in text
    assert "a split sharing items with a hidden split is never public" in text
    assert "Set public_gold: false on phase 'practice'" in text
    assert "known_repeats" not in text.replace("known_repeats: {test: 5}", "")


def test_a_training_split_sampled_from_a_hidden_split_is_refused(tmp_path):
    text = refusal(
        _small(tmp_path, lambda c: c["datasets"]["sim"].update(sample={"train": SAMPLE}))
    )
    assert "datasets 'sim': its train split is a sample of its test split" in text
    assert "the training split is public" in text


def test_a_public_sample_held_out_of_the_hidden_split_is_accepted(tmp_path):
    folder = _small(
        tmp_path,
        lambda c: c["datasets"]["nli"].update(sample={"dev": SAMPLE}, exclude={"test": "dev"}),
    )
    data = import_data(load_edition(folder), folder)
    dev, test = data.splits["dev"]["nli"], data.splits["test"]["nli"]
    assert len(dev) == 5 and len(test) == 14 - 5
    assert not {it["id"] for it in dev} & {it["id"] for it in test}


# --- item 2: hidden-gold phases scoring the same items ----------------------------------------------


def _all_hidden(config: dict) -> None:
    for phase in config["phases"]:
        phase["public_gold"] = False


def test_a_hidden_practice_sample_of_the_evaluation_items_is_refused_naming_both_phases(tmp_path):
    folder = _small(
        tmp_path, lambda c: (_all_hidden(c), c["datasets"]["nli"].update(sample={"dev": SAMPLE}))
    )
    text = refusal(folder)
    assert (
        "datasets 'nli': phase 'practice' scores items that the later phase 'evaluation' scores, "
        "both with gold hidden (its dev split is a sample of its test split)"
    ) in text
    assert "exclude: {test: dev} leaves the dev items out of the test split" in text


def test_a_hidden_practice_on_the_evaluation_split_is_refused(tmp_path):
    folder = _small(tmp_path, lambda c: (_all_hidden(c), c["phases"][0].update(split="test")))
    text = refusal(folder)
    assert (
        "phases (practice): phase 'practice' scores items that the later phase 'evaluation'" in text
    )
    assert "(both score the test split)" in text
    assert "post-campaign" not in text.split("; expected")[0]


def test_the_same_items_read_from_two_files_are_refused_by_their_texts(tmp_path):
    """What the config cannot tell: dev.jsonl holds test items under other ids (OCNLI read its
    dev.json as both splits)."""
    folder = _small(tmp_path, _all_hidden)
    test = [
        yaml.safe_load(line)
        for line in (folder / "data/sim/test.jsonl").read_text().split("\n")
        if line
    ]
    dev = [dict(it, id=f"copy-{it['id']}") for it in test[:3]]
    write_jsonl(folder / "data" / "sim" / "dev.jsonl", dev)
    edition = load_edition(folder)
    with pytest.raises(ConfigError) as caught:
        import_data(edition, folder)
    text = str(caught.value)
    assert "datasets 'sim': phase 'practice' scores items that the later phase 'evaluation'" in text
    assert "found 3 such dev items ('copy-sim-test-000', 'copy-sim-test-001', " in text
    assert "dev item 'copy-sim-test-000' has the texts of test item 'sim-test-000'" in text


def _read(folder: Path, dataset: str, split: str) -> list[dict]:
    path = folder / "data" / dataset / f"{split}.jsonl"
    return [json.loads(line) for line in path.read_text().split("\n") if line]


def test_another_dataset_s_test_texts_in_a_hidden_practice_are_refused_and_exclude_leaves_them_out(
    tmp_path,
):
    """STS 2017: every track practised on STS Benchmark dev, which holds the en-en track's test
    pairs; only the en-en dataset excluded them. The rule spans datasets, and so does ``exclude``."""
    folder = _small(tmp_path, _all_hidden)
    var_dev = _read(folder, "var", "dev")
    copied = [
        dict(item, texts=test["texts"])
        for item, test in zip(var_dev, _read(folder, "sim", "test")[:2])
    ]
    write_jsonl(folder / "data" / "var" / "dev.jsonl", copied + var_dev[2:])
    with pytest.raises(ConfigError) as caught:
        import_data(load_edition(folder), folder)
    text = str(caught.value)
    assert (
        "datasets 'var': phase 'practice' scores items that the later phase 'evaluation' scores, "
        "both with gold hidden (its dev split holds items with the texts of the test split of "
        "dataset 'sim')"
    ) in text
    assert f"found 2 such dev items ({var_dev[0]['id']!r}, {var_dev[1]['id']!r})" in text
    assert "has the texts of test item 'sim-test-000' of 'sim'" in text
    assert "exclude: {dev: test} on dataset 'var'" in text
    edit_config(folder, lambda c: c["datasets"]["var"].update(exclude={"dev": "test"}))
    data = import_data(load_edition(folder), folder)
    assert [item["id"] for item in data.splits["dev"]["var"]] == [it["id"] for it in var_dev[2:]]


def test_a_post_campaign_phase_may_score_the_evaluation_items_again(tmp_path):
    folder = _small(tmp_path, _all_hidden)  # evaluation and post-campaign both score test, hidden
    edition = load_edition(folder)
    assert [p.split for p in edition.phases[1:]] == ["test", "test"]
    import_data(edition, folder)


def _phases(*spans):
    return [
        Phase(
            pid,
            pid,
            dt.datetime(2027, 1, start),
            dt.datetime(2027, 1, end) if end else None,
            "test",
        )
        for pid, start, end in spans
    ]


def test_post_campaign_phases_are_those_starting_after_the_evaluation_ends():
    three = _phases(("practice", 1, 9), ("evaluation", 10, 19), ("post-campaign", 20, None))
    assert post_campaign(three) == {"post-campaign"}
    # without an evaluation phase, the campaign ends with the last phase that has an end
    assert post_campaign(_phases(("practice", 1, 9), ("post-campaign", 10, None))) == {
        "post-campaign"
    }
    assert post_campaign(_phases(("evaluation", 1, None))) == set()


# --- the bundle checker ------------------------------------------------------------------------------


def test_the_bundle_checker_refuses_a_starting_kit_holding_a_hidden_phase_s_gold(bundles, tmp_path):
    """A bundle built by a kit without the config rule: the practice phase's public gold is the
    evaluation's. Its gold digest was read as 'public on purpose' and the leak check skipped it."""
    tree = Path(shutil.copytree(bundles.small().tree, tmp_path / "small"))
    kit = tree / "starting_kit" / "reference_data" / "practice"
    for path in (tree / "reference_data" / "evaluation").glob("*.jsonl"):
        shutil.copyfile(path, kit / path.name)
    problems = check_bundle(tree)
    assert any(
        line.startswith("reference_data/evaluation: phase 'evaluation' hides its gold")
        and "starting_kit/reference_data/practice, which participants have from day one" in line
        for line in problems
    ), "\n".join(problems) or "no problem found"


def test_the_bundle_checker_refuses_a_hidden_phase_scoring_a_later_hidden_phase_s_items(
    bundles, tmp_path
):
    """Rule 3 on a built bundle (one built before the rule, or edited): the hidden-gold practice
    scores the evaluation's items. The post-campaign phase scoring them again is not reported."""
    tree = Path(shutil.copytree(bundles.small().tree, tmp_path / "small"))
    assert check_bundle(tree) == []
    for kind in ("reference_data", "input_data"):
        for path in (tree / kind / "evaluation").glob("*.jsonl"):
            shutil.copyfile(path, tree / kind / "practice" / path.name)
    task = tree / "reference_data" / "practice" / "task.json"
    task.write_text(json.dumps(dict(json.loads(task.read_text()), hide_gold=True)))
    problems = check_bundle(tree)
    assert [line.split(":")[0] for line in problems] == ["reference_data/practice"], problems
    assert (
        "phase 'Practice' scores items that the later phase 'Evaluation' scores, both with gold "
        "hidden (reference_data/evaluation holds 56 of its items)"
    ) in problems[0]


def test_the_bundle_checker_compares_a_hidden_phase_s_texts_across_datasets(bundles, tmp_path):
    """Two datasets may read one release (STS 2017's tracks all practised on STS Benchmark dev):
    the practice's var items with the texts of the evaluation's sim items are rescored items."""
    tree = Path(shutil.copytree(bundles.small().tree, tmp_path / "small"))
    practice, evaluation = tree / "input_data" / "practice", tree / "input_data" / "evaluation"
    var = [json.loads(line) for line in (practice / "var.jsonl").read_text().splitlines()]
    sim = [json.loads(line) for line in (evaluation / "sim.jsonl").read_text().splitlines()]
    var[:2] = [dict(item, texts=other["texts"]) for item, other in zip(var[:2], sim)]
    write_jsonl(practice / "var.jsonl", var)
    task = tree / "reference_data" / "practice" / "task.json"
    task.write_text(json.dumps(dict(json.loads(task.read_text()), hide_gold=True)))
    # what a hidden practice's bundle has not: its gold in the kit and in a perfect sample
    shutil.rmtree(tree / "starting_kit" / "reference_data" / "practice")
    (tree / "starting_kit" / "sample_submissions" / "result_submission.zip").unlink()
    problems = check_bundle(tree)
    assert [line.split(":")[0] for line in problems] == ["reference_data/practice"], problems
    assert "(reference_data/evaluation holds 2 of its items)" in problems[0]
