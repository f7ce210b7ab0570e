"""The notes the readers leave on values accepted in another form (``formats.notes``): each a
``ReadNote`` of a registered kind, one warning per kind in the registry's order, and the words of
the extra leading bin written once (``kinds.soft_label``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from codajudge.formats.annotators import RowFit, layout_warnings
from codajudge.formats.notes import (
    ANNOTATORS_LIST,
    EMPTY_LEADING_BIN,
    LAYOUT_NOTES,
    LEADING_BIN_WITH_MASS,
    NOTE_KINDS,
    PYTHON_LITERAL,
    RENORMALISED,
    VALUE_NOTES,
    ReadNote,
    note_warnings,
)
from codajudge.formats.soft import soft_label_rows
from codajudge.formats.values import parse_value, value_warnings
from codajudge.kinds.soft_label import LEADING_BIN_LAYOUT, PRACTICE_PHASE_LAYOUT
from codajudge.tracks import track_from_dict

PACKAGE = Path(__file__).resolve().parent.parent / "codajudge"
CSC = track_from_dict(
    {
        "id": "csc_soft",
        "kind": "soft_label",
        "scale": "ordinal",
        "dataset": "csc",
        "labels": [str(v) for v in range(1, 7)],
    }
)


def test_the_registry_holds_every_kind_once_value_kinds_first():
    assert NOTE_KINDS == VALUE_NOTES + LAYOUT_NOTES
    assert len({kind.name for kind in NOTE_KINDS}) == len(NOTE_KINDS)
    assert [kind for kind in NOTE_KINDS if kind.carries_mass] == [LEADING_BIN_WITH_MASS]


def test_a_soft_column_leaves_one_note_per_row_read_another_way():
    rows = [
        [0.0, 0.1, 0.2, 0.3, 0.2, 0.1, 0.1],  # an empty leading bin
        [0.001, 0.1, 0.2, 0.3, 0.2, 0.1, 0.099],  # a bin holding a little probability
        [0.1, 0.2, 0.3, 0.2, 0.1, 0.11],  # sums to 1.01
        [0.1, 0.2, 0.3, 0.2, 0.1, 0.1],
    ]
    column = soft_label_rows(CSC, rows)
    assert not column.broken.any()
    assert sorted(column.notes, key=lambda note: note.kind.name) == [
        ReadNote(EMPTY_LEADING_BIN),
        ReadNote(LEADING_BIN_WITH_MASS, 0.001),
        ReadNote(RENORMALISED),
    ]


def test_a_python_literal_is_noted():
    notes = []
    assert parse_value("[0.5, 0.5]", CSC, notes) == [0.5, 0.5] and notes == []
    assert parse_value("(0.5, 0.5)", CSC, notes) == [0.5, 0.5]
    assert notes == [ReadNote(PYTHON_LITERAL)]


def test_a_row_of_the_release_s_annotators_list_is_noted():
    notes = []
    fit = RowFit([["a", "b"]], [["a", "b", "b"]], {0: 3})
    assert fit.fit(0, [1, 2, 2], notes) == [1, 2]
    assert notes == [ReadNote(ANNOTATORS_LIST)]
    assert layout_warnings(notes) == [f"1 {ANNOTATORS_LIST.one}"]


def test_one_warning_per_kind_in_the_registry_s_order_the_largest_mass_named():
    notes = [
        ReadNote(PYTHON_LITERAL),
        ReadNote(LEADING_BIN_WITH_MASS, 0.004),
        ReadNote(ANNOTATORS_LIST),
        ReadNote(RENORMALISED),
        ReadNote(LEADING_BIN_WITH_MASS, 0.0123),
        ReadNote(RENORMALISED),
    ]
    warnings = note_warnings(notes)
    assert warnings == value_warnings(notes) + layout_warnings(notes)
    assert warnings == [
        "2 soft labels summed to within 0.02 of 1 and were renormalised",
        "1 value was not JSON but a Python literal (str() of a list: single quotes, tuples) "
        "and was read as such; json.dumps(x) writes JSON",
        "2 soft labels had an extra leading bin (one value more than the track's labels, the "
        "2025 practice-phase layout) holding a little probability, at most 0.012; it was "
        "dropped and the rows renormalised",
        f"1 {ANNOTATORS_LIST.one}",
    ]


def test_a_refused_bin_s_hint_names_the_layout_by_the_kind_s_words():
    column = soft_label_rows(CSC, [[0.3, 0.1, 0.1, 0.1, 0.1, 0.1, 0.2]])
    assert column.broken[0]
    assert f"looks like {PRACTICE_PHASE_LAYOUT}, which" in column.problem(0).hint
    assert f"({LEADING_BIN_LAYOUT})" in EMPTY_LEADING_BIN.one
    assert f"({LEADING_BIN_LAYOUT})" in EMPTY_LEADING_BIN.several


@pytest.mark.parametrize("words", ["practice-phase layout", "one value more than the track"])
def test_the_leading_bin_s_words_are_written_in_the_soft_label_kind_alone(words):
    found = sorted(
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if words in path.read_text("utf-8")
    )
    assert found == ["kinds/soft_label.py"]


def test_no_reader_appends_a_text_or_a_number_as_a_note():
    """Every note is a ``ReadNote``: no reader tests notes by their text."""
    for path in (PACKAGE / "formats").glob("*.py"):
        text = path.read_text("utf-8")
        assert 'notes.append("' not in text and "notes.count(" not in text, path.name
