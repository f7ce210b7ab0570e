"""Reference data holds what scoring needs (ids, gold, annotators, lang/genre), not the texts
except where the phase's gold is public (its worst-items table shows them), and the scorer reads
only the gold of the tracks a submission covers."""

from __future__ import annotations

import json
from pathlib import Path

from hostile import edition
from codajudge.formats.items import (
    PUBLIC_REFERENCE_FIELDS,
    REFERENCE_FIELDS,
    read_item_columns,
    read_items,
    reference_view,
    write_items,
)
from codajudge.gold import build_gold, gold_fields, gold_from_columns
from codajudge.scoring import score_folder
from codajudge.spec import read_spec, spec_from_dict
from codajudge.tracks import track_from_dict

ROOT = Path(__file__).resolve().parent.parent


def test_the_bundle_reference_data_has_texts_only_where_the_gold_is_public():
    files = sorted((ROOT / "reference_data").glob("*/*.jsonl"))
    assert files
    for path in files:
        public = not read_spec(path.parent).hide_gold
        fields = PUBLIC_REFERENCE_FIELDS if public else REFERENCE_FIELDS
        items = read_items(path, texts=False)
        assert all(set(item) <= set(fields) for item in items), path
        assert all(("texts" in item) == public for item in items), path


def test_the_scorer_reads_only_the_gold_of_the_tracks_it_scores(tmp_path):
    ref, res = tmp_path / "ref", tmp_path / "res"
    edition.write_reference(ref)
    res.mkdir()
    (res / "sim.tsv").write_bytes(edition.valid_file("sim"))
    (res / "cls.tsv").write_bytes(edition.valid_file("cls"))
    full = score_folder(read_spec(ref), ref, res)
    for dataset in ("csc", "ver"):  # no submitted track uses them: they are never opened
        (ref / f"{dataset}.jsonl").write_text("not json at all\n")
    for dataset in ("sts", "nli"):  # and the scored ones are read without their texts
        lines = (
            (ref / f"{dataset}.jsonl").read_text(encoding="utf-8").split("\n")
        )  # texts hold U+2028
        items = [reference_view(json.loads(line)) for line in lines if line]
        (ref / f"{dataset}.jsonl").write_text("".join(json.dumps(it) + "\n" for it in items))
    assert score_folder(read_spec(ref), ref, res).scores() == full.scores()


def test_a_null_or_missing_group_value_is_no_group(tmp_path):
    """A breakdown puts an item whose lang is null or left out in the group "" (shown as "(none)"),
    not in a group named "None"; any other value is its text."""
    track = next(t for t in spec_from_dict(edition.spec(), "task.json").tracks if t.id == "sim")
    items = [dict(it) for it in edition.items_of("sim")]
    items[0]["lang"], items[1]["lang"] = None, 3
    del items[2]["lang"]
    write_items(tmp_path / "d.jsonl", items)
    columns = read_item_columns(tmp_path / "d.jsonl", "d", gold_fields(track))
    for gold in (build_gold(track, items, "d"), gold_from_columns(track, columns, "d")):
        assert gold.groups["lang"][:4] == ["", "3", "", items[3]["lang"]] and items[3]["lang"]


def test_a_given_distribution_scores_an_item_only_for_the_soft_label_track():
    """An item with no annotations but a gold ``distribution`` is scored by a soft-label track, and
    not by a perspectivist track of the same dataset and labels, whichever is built first (the two
    share the annotations read once)."""
    labels = {"dataset": "d", "labels": ["a", "b"], "scale": "categorical"}
    soft = track_from_dict({"id": "s", "kind": "soft_label", **labels})
    persp = track_from_dict({"id": "p", "kind": "perspectivist", **labels})
    for order in ((soft, persp), (persp, soft)):
        columns = {
            "id": ["1", "2"],
            "annotators": [["x", "y"], []],
            "annotations": [["a", "b"], []],
            "distribution": [None, [0.25, 0.75]],
        }
        scored = {t.id: gold_from_columns(t, columns, "d").scored.tolist() for t in order}
        assert scored == {"s": [True, True], "p": [True, False]}


def test_an_item_file_pythons_json_cannot_read_is_a_located_problem(tmp_path):
    """A value nested too deeply or an integer of over 4,300 digits (json.loads raises
    RecursionError and ValueError, not JSONDecodeError) names its line, for every JSON-lines reader
    (kit item files, the table and OCNLI importers), not an internal error."""
    import pytest

    from codajudge.errors import ConfigError

    path = tmp_path / "test.jsonl"
    rows = [json.dumps({"id": "a", "texts": ["x", "y"]})]
    rows.append('{"id": "b", "texts": ' + "[" * 100_000 + "]" * 100_000 + "}")
    rows.append('{"id": "c", "texts": ["x", "y"], "n": ' + "9" * 5000 + "}")
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        read_items(path, "test.jsonl")
    text = str(caught.value)
    assert "test.jsonl, line 2: a JSON value nested too deeply to read" in text
    assert "test.jsonl, line 3: a JSON number too long to read" in text
