"""The reference readers' rules (``items.read_items`` and ``gold.build_gold``), one named case each:
an organiser's item file or gold with one thing wrong is a configuration error naming the file, the
line and item, what was expected and what was found. Then the layouts an item file may have, and a
property: any item list written by ``write_items`` reads back as written.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hostile import edition
from hostile.rules import Refusal, assert_refused
from codajudge.errors import ConfigError
from codajudge.formats import items as items_module
from codajudge.formats.items import read_items
from codajudge.gold import build_gold
from codajudge.spec import spec_from_dict

TRACKS = {t.id: t for t in spec_from_dict(edition.spec(), "task.json").tracks}
NLI = "entailment, neutral, contradiction"


def changed(items, index: int = 0, **fields):
    """A copy of ``items`` with ``fields`` set on item ``index``."""
    return [dict(it, **fields) if k == index else dict(it) for k, it in enumerate(items)]


def write_lines(path: Path, items, sep: str = "\n", bom: bool = False) -> Path:
    text = sep.join(json.dumps(it, ensure_ascii=False, allow_nan=True) for it in items) + sep
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))
    return path


# --- item files ----------------------------------------------------------------------------------

CSC = edition.GOLD["csc"]
#: name -> (the items an item file holds, the refusal).
ITEM_FILE_RULES = {
    "texts not a list": (
        changed(CSC, texts="one text"),
        Refusal("gold", "'texts' must be a list of strings", line=1, item="c01"),
    ),
    "a text not a string": (
        changed(CSC, texts=["a", 2]),
        Refusal("gold", "'texts' must be a list of strings", line=1, item="c01"),
    ),
    "id not a string": (
        changed(CSC, id=7),
        Refusal("gold", "each line must be a JSON object with a string 'id'", line=1),
    ),
    "duplicate id": (
        CSC + CSC[:1],
        Refusal(
            "gold",
            "duplicate id",
            line=len(CSC) + 1,
            item="c01",
            expected="each id on one line only",
            found="'c01' again (first seen on line 1)",
        ),
    ),
    "fewer annotators than annotations": (
        changed(CSC, annotators=["a", "b"]),
        Refusal(
            "gold",
            "'annotations' must have one entry per annotator",
            line=1,
            item="c01",
            expected="equally long lists",
            found="2 annotators and 7 annotations",
        ),
    ),
    "annotations not a list": (
        changed(CSC, annotations="3,4"),
        Refusal(
            "gold",
            "'annotations' must have one entry per annotator",
            line=1,
            item="c01",
            found="7 annotators and 'annotations' not a list",
        ),
    ),
    "annotators not a list": (
        changed(CSC, annotators="ab"),
        Refusal(
            "gold",
            "one entry per annotator",
            line=1,
            item="c01",
            found="'annotators' not a list and 7 annotations",
        ),
    ),
    "no annotators but annotations": (
        changed(CSC, annotators=[]),
        Refusal(
            "gold",
            "one entry per annotator",
            line=1,
            item="c01",
            found="0 annotators and 7 annotations",
        ),
    ),
    "many items with one problem": (
        changed(changed(CSC, 1, texts=7), 3, texts=7),
        Refusal("gold", "'texts' must be a list of strings, on 2 lines (lines 2, 4; items 'c02'"),
    ),
}


@pytest.mark.parametrize("name", sorted(ITEM_FILE_RULES))
def test_item_file_rule(name, tmp_path):
    items, refusal = ITEM_FILE_RULES[name]
    path = write_lines(tmp_path / "items.jsonl", items)
    for texts in (True, False):
        assert_refused(lambda: read_items(path, "gold", texts), refusal)


@pytest.mark.parametrize(
    "data, refusal",
    [
        (
            b'{"id": "a", "texts": []}\n{"id": \n',
            Refusal("gold", "not valid JSON (Expecting value)", line=2),
        ),
        (b'{"id": "b"} x\n', Refusal("gold", "not valid JSON (Extra data)", line=1)),
        (
            b'{"id": "a", "texts": ["x"]}\n[]\n"text"\n',
            Refusal("gold", "each line must be a JSON object with a string 'id', on 2 lines"),
        ),
        (
            b'{"id": "a"}\n{"id": "b\xff"}\n',
            Refusal("gold", "file is not UTF-8 text", line=2, found="byte 0xff at offset 21"),
        ),
        (
            "\u2028".join(json.dumps(it) for it in CSC[:2]).encode(),
            Refusal("gold", "not valid JSON (Extra data)", line=1),
        ),
        (
            b'{"id": "a"},{"id": "b"}\n{"id": "q", "x": [{"y": 1}\n{"z": 2}]}\n',
            Refusal("gold", "not valid JSON (Extra data), on 2 lines (lines 1, 3)"),
        ),
    ],
    ids=[
        "a broken line",
        "text after the object",
        "values that are not objects",
        "not UTF-8",
        "U+2028 is no line end",
        "lines that parse only together",
    ],
)
def test_item_file_syntax_rule(data, refusal, tmp_path):
    path = tmp_path / "items.jsonl"
    path.write_bytes(data)
    message = assert_refused(lambda: read_items(path, "gold", texts=False), refusal)
    if "only together" in refusal.phrase:
        assert "gold, line 2: not valid JSON (Expecting ',' delimiter)" in message


@pytest.mark.parametrize(
    "sep, bom",
    [("\r\n", True), ("\n\n", False), ("\r", False), ("\n\u3000\n", False), ("\n \t\n", False)],
    ids=["CRLF and BOM", "blank lines", "CR", "ideographic space line", "space-tab line"],
)
def test_item_file_layouts_read_as_written(sep, bom, tmp_path):
    items = edition.GOLD["nli"]
    assert read_items(write_lines(tmp_path / "items.jsonl", items, sep, bom), "gold") == items


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\u0085"])
def test_texts_with_unicode_line_separators_read_back_as_written(separator, tmp_path):
    items = [
        dict(it, texts=[f"a{separator}b", f"{separator}c{separator}"]) for it in edition.GOLD["nli"]
    ]
    path = tmp_path / "nli.jsonl"
    items_module.write_items(path, items)
    assert separator in path.read_text(encoding="utf-8")  # written as it is, not escaped
    assert read_items(path, "gold") == items


def test_padded_lines_and_no_final_line_end_are_read(tmp_path):
    path = tmp_path / "items.jsonl"
    path.write_bytes(b' \t{"id": "a", "texts": ["x"]} \t\n\n  \n{"id": "b", "texts": []}')
    assert read_items(path, "gold") == [{"id": "a", "texts": ["x"]}, {"id": "b", "texts": []}]
    path.write_text('{"id": "a", "texts": ["x},{y", "}, {"]}\n', encoding="utf-8")
    assert read_items(path, "gold") == [{"id": "a", "texts": ["x},{y", "}, {"]}]


# --- gold ----------------------------------------------------------------------------------------

#: name -> (track id, items, the refusal).
GOLD_RULES = {
    "a label given as a number": (
        "cls",
        changed(edition.items_of("cls"), label=1),
        Refusal("gold", "gold label outside the label set of track 'cls'", item="n01", found="1"),
    ),
    "a label outside the label set": (
        "cls",
        changed(edition.items_of("cls"), label="bogus"),
        Refusal(
            "gold",
            "gold label outside the label set of track 'cls'",
            item="n01",
            expected=NLI,
            found="'bogus'",
        ),
    ),
    "an annotation outside the label set": (
        "persp_cat",
        changed(edition.items_of("persp_cat"), annotations=["bogus"] * 7),
        Refusal(
            "gold",
            "annotation outside the label set of track 'persp_cat'",
            item="n01",
            expected=NLI,
            found="'bogus'",
        ),
    ),
    "an ordinal annotation outside the scale": (
        "persp_ord",
        changed(edition.items_of("persp_ord"), annotations=["bogus"] * 7),
        Refusal(
            "gold", "annotation outside", item="c01", expected="1, 2, 3, 4, 5, 6", found="'bogus'"
        ),
    ),
    "a multilabel annotation written as a list's text": (
        "persp_ml",
        changed(edition.items_of("persp_ml"), annotations=[" ['neutral']"] * 7),
        Refusal("gold", "annotation outside", item="v01", found="\"['neutral']\""),
    ),
    "a score as a string": (
        "sim",
        changed(edition.items_of("sim"), score="3.5"),
        Refusal("gold", "gold 'score' must be a finite number", item="s01", found="'3.5'"),
    ),
    "a score as a boolean": (
        "sim",
        changed(edition.items_of("sim"), score=True),
        Refusal("gold", "gold 'score' must be a finite number", item="s01", found="True"),
    ),
    "a NaN score": (
        "sim",
        changed(edition.items_of("sim"), score=float("nan")),
        Refusal("gold", "gold 'score' must be a finite number", item="s01", found="nan"),
    ),
    "an integer too large for a float": (
        "sim",
        changed(edition.items_of("sim"), 1, score=10**400),
        Refusal("gold", "gold 'score' must be a finite number", item="s02", found="1000000"),
    ),
    "a label as an integer too large for a float": (
        "cls",
        changed(edition.items_of("cls"), label=10**400),
        Refusal("gold", "gold label outside the label set", item="n01", found="1000000"),
    ),
    "an annotation as an integer too large for a float": (
        "persp_cat",
        changed(edition.items_of("persp_cat"), annotations=[10**400] * 7),
        Refusal("gold", "annotation outside the label set", item="n01", found="1000000"),
    ),
    "annotations of the wrong count": (
        "persp_cat",
        changed(edition.items_of("persp_cat"), annotations=["neutral"] * 8),
        Refusal(
            "gold",
            "'annotations' must have one entry per annotator",
            item="n01",
            expected="equally long lists",
            found="7 annotators and 8 annotations",
        ),
    ),
}


@pytest.mark.parametrize("name", sorted(GOLD_RULES))
def test_gold_rule(name):
    track_id, items, refusal = GOLD_RULES[name]
    assert_refused(lambda: build_gold(TRACKS[track_id], items, "gold"), refusal)


def test_annotations_outside_the_label_set_are_counted_by_item_each_named_once():
    """Many annotations of one item outside the label set are one problem of that item, which names
    each value once; the message names the track, whose label set it is."""
    items = changed(edition.items_of("persp_cat"), annotations=["bogus"] * 6 + ["neutral"])
    items = changed(items, 1, annotations=["x", "y", "x"] + ["neutral"] * 4)
    with pytest.raises(ConfigError) as error:
        build_gold(TRACKS["persp_cat"], items, "gold")
    assert str(error.value) == (
        "gold: annotation outside the label set of track 'persp_cat', on 2 items (items 'n01', "
        f"'n02'); expected {NLI}, found 'bogus' on item 'n01'. Correct the data, or add the label "
        "to the track's 'labels' (or name it in 'label_aliases')"
    )
    items = changed(edition.items_of("persp_ml"), annotations=[["bogus", "neutral"], ["x"]] * 3)
    items[0]["annotations"].append(["bogus"])
    with pytest.raises(ConfigError) as error:
        build_gold(TRACKS["persp_ml"], items, "gold")
    assert "gold, item 'v01': annotation outside the label set of track 'persp_ml'" in str(
        error.value
    )
    assert "found 'bogus', 'x'. Correct" in str(error.value)


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
    """The item reader and gold apply one rule and say it the same way."""
    items = changed(edition.items_of("persp_cat"), annotations=annotations)
    path = tmp_path / "d.jsonl"
    items_module.write_items(path, items)
    for read_or_build in (
        lambda: read_items(path, "gold"),
        lambda: build_gold(TRACKS["persp_cat"], items, "gold"),
    ):
        with pytest.raises(ConfigError) as error:
            read_or_build()
        assert (
            "item 'n01': 'annotations' must have one entry per annotator; expected equally long "
            f"lists, found {found}"
        ) in str(error.value)


@pytest.mark.parametrize("track_id", ["persp_ml", "persp_cat", "persp_ord"])
def test_a_perspectivist_item_without_annotators_is_not_scored(track_id):
    gold = build_gold(TRACKS[track_id], edition.items_of(track_id), "gold")
    assert not gold.scored[edition.EMPTY_INDEX] and gold.scored[: edition.EMPTY_INDEX].all()


# --- property: any item list reads back as written ----------------------------------------------

TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
ITEM = st.fixed_dictionaries(
    {"id": TEXT, "texts": st.lists(TEXT, max_size=3)},
    optional={"lang": TEXT, "score": st.floats(allow_nan=False, allow_infinity=False)},
)


@settings(
    max_examples=100,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
@given(items=st.lists(ITEM, max_size=6, unique_by=lambda it: it["id"]))
def test_written_items_read_back_as_written(items, tmp_path_factory):
    path = tmp_path_factory.getbasetemp() / "items.jsonl"
    items_module.write_items(path, items)
    assert read_items(path, "gold") == items


# --- a hand-edited task.json: the scoring program refuses it, naming the key -----------------------

TASK_TRACKS = [
    {"id": "sim", "kind": "similarity", "dataset": "sim"},
    {"id": "nli", "kind": "classification", "dataset": "nli", "labels": ["e", "n", "c"]},
]


def _edited_task(edit) -> dict:
    raw = {"edition": "t", "phase": "evaluation", "tracks": [dict(t) for t in TASK_TRACKS]}
    edit(raw)
    return raw


@pytest.mark.parametrize(
    "edit, named",
    [
        (lambda s: s["tracks"][0].update(kind="regression"), "unknown track kind"),
        (lambda s: s["tracks"][0].update(metrics="pearson"), "'metrics' must be a list"),
        (lambda s: s["tracks"][0].update(release_lines="500"), "'release_lines' must be a whole"),
        (lambda s: s["tracks"][1].update(results_layout="lewidi2021"), "'results_layout' has"),
        (lambda s: s["tracks"][0].update(colour="red"), "unknown key 'colour'"),
        (lambda s: s["tracks"].__setitem__(0, "sim"), "a track must be a mapping"),
        (lambda s: s.update(tracks={"sim": 1}), "'tracks' must be a non-empty list"),
        (lambda s: s.update(primary_score=[1]), "primary_score must be a mapping"),
        (
            lambda s: s.update(primary_score={"missing": "best"}),
            "expected 'worst', 'baseline NAME'",
        ),
        (
            lambda s: s.update(primary_score={"mean": "median"}),
            "'mean' has an unknown value; expected plain | normalised",
        ),
    ],
)
def test_a_hand_edited_task_json_is_refused_naming_its_key(edit, named):
    """task.json is the builder's, but an organiser may edit it in a bundle: the scoring program
    (and codajudge check, which reads it the same way) refuses a wrong key rather than scoring
    with it or failing with an internal error."""
    with pytest.raises(ConfigError) as caught:
        spec_from_dict(_edited_task(edit), "task.json")
    assert "task.json" in caught.value.render() and named in caught.value.render()
