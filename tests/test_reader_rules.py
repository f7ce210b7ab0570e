"""Rules of the readers on the hostile edition's items and files that the rule tables of
test_submission_rules and test_reference_rules do not state: an item without annotators takes an
empty row in every perspectivist track, and lines that only parse together are refused line by
line while braces inside texts are read as written."""

from __future__ import annotations

import pytest

from hostile import edition
from hostile.reading import TRACKS, read
from codajudge.errors import ConfigError, SubmissionError
from codajudge.formats.items import read_items
from codajudge.gold import build_gold


def outcome(action):
    """('ok', result) or ('error', error type, message) of calling ``action``."""
    try:
        return ("ok", action())
    except (SubmissionError, ConfigError) as e:
        return ("error", type(e).__name__, str(e))


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
