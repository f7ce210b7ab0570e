"""Rules of the readers stated on the hostile edition's items and files, and on real files: a gold
score that overflows, texts with Unicode line separators, an item without annotators, lines that
only parse together, the annotation count rule, and the STS 2017 gold files read as positional
submissions."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import shared_data
from hostile import edition
from hostile.reading import TRACKS, read
from codajudge.errors import ConfigError, SubmissionError
from codajudge.formats import items as items_module
from codajudge.formats import submission
from codajudge.formats.items import read_items
from codajudge.gold import build_gold


def outcome(action):
    """('ok', result) or ('error', error type, message) of calling ``action``."""
    try:
        return ("ok", action())
    except (SubmissionError, ConfigError) as e:
        return ("error", type(e).__name__, str(e))


def test_the_semeval_2017_gold_files_read_as_positional_submissions():
    """The real STS 2017 gold files are one score per line: clean positional files."""
    for gs in sorted(shared_data("sts2017").glob("STS.gs.track*.txt")):
        scores = np.loadtxt(gs, ndmin=1)
        keys = submission.ItemKeys([f"p{k}" for k in range(len(scores))])
        prediction = submission.read_prediction(gs, gs.name, TRACKS["sim"], keys)
        assert prediction.format == "positional" and np.array_equal(prediction.values, scores)


def test_a_gold_integer_too_large_for_a_float_is_a_configuration_error():
    items = [dict(it) for it in edition.items_of("sim")]
    items[1]["score"] = 10**400
    with pytest.raises(
        ConfigError, match=r"item 's02': gold 'score' must be a finite number, found 1000+\.\.\.$"
    ):
        build_gold(TRACKS["sim"], items, "gold")


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\u0085"])
def test_texts_with_unicode_line_separators_read_back_as_written(separator, tmp_path):
    items = [
        dict(it, texts=[f"a{separator}b", f"{separator}c{separator}"]) for it in edition.GOLD["nli"]
    ]
    path = tmp_path / "nli.jsonl"
    items_module.write_items(path, items)
    assert separator in path.read_text(encoding="utf-8")  # written as it is, not escaped
    assert read_items(path, "gold") == items


@pytest.mark.parametrize("track_id", ["persp_ml", "persp_cat", "persp_ord"])
def test_a_perspectivist_item_without_annotators_takes_an_empty_list(track_id, tmp_path):
    track = TRACKS[track_id]
    items = edition.items_of(track_id)
    empty = next(
        k for k, it in enumerate(items) if not it["annotators"]
    )  # the hostile edition has one
    gold = build_gold(track, items, "gold")
    assert not gold.scored[empty]
    path = tmp_path / f"{track_id}.tsv"
    path.write_bytes(edition.valid_file(track_id))
    assert edition.valid_lines(track_id)[empty].endswith("\t[]")
    assert outcome(lambda: read(path, track_id))[0] == "ok"
    lines = edition.valid_lines(track_id)
    lines[empty] = lines[empty].replace(
        "[]", '["entailment"]' if track_id != "persp_ml" else '[["neutral"]]'
    )
    path.write_text("\n".join(lines) + "\n")
    refused = outcome(lambda: read(path, track_id))
    assert refused[0] == "error"
    assert (
        "wrong number of annotator entries; expected an empty list []: the item has no annotators, found 1 entries"
        in refused[2]
    )


def test_lines_that_only_parse_together_are_still_refused(tmp_path):
    """The chunk's one-parse read accepts a chunk only when every line is one object of its own."""
    path = tmp_path / "d.jsonl"
    path.write_text(
        '{"id": "a"},{"id": "b"}\n{"id": "q", "x": [{"y": 1}\n{"z": 2}]}\n', encoding="utf-8"
    )
    with pytest.raises(ConfigError) as error:
        read_items(path, "gold", texts=False)
    assert str(error.value).splitlines() == [
        "gold: not valid JSON (Extra data), on 2 lines (lines 1, 3)",
        "gold, line 2: not valid JSON (Expecting ',' delimiter)",
    ]
    path.write_text('{"id": "a", "texts": ["x},{y", "}, {"]}\n', encoding="utf-8")
    assert read_items(path, "gold") == [{"id": "a", "texts": ["x},{y", "}, {"]}]


@pytest.mark.parametrize(
    "annotations, found",
    [
        (["neutral"] * 8, "7 annotators and 8 annotations"),
        ("neutral,neutral", "7 annotators and 'annotations' not a list"),
    ],
)
def test_both_readers_state_the_annotation_count_rule_with_one_message(
    annotations, found, tmp_path
):
    """The item reader and gold apply one rule (``items.annotation_counts``) and say it the same way."""
    items = [dict(it) for it in edition.items_of("persp_cat")]
    items[0]["annotations"] = annotations
    path = tmp_path / "d.jsonl"
    items_module.write_items(path, items)
    message = (
        "item 'n01': 'annotations' must have one entry per annotator; expected equally long lists, "
        f"found {found}"
    )
    for read_or_build in (
        lambda: read_items(path, "gold"),
        lambda: build_gold(TRACKS["persp_cat"], items, "gold"),
    ):
        with pytest.raises(ConfigError) as error:
            read_or_build()
        assert message in str(error.value)
