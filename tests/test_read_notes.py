"""The notes the readers leave on values accepted in another form (``formats.notes``): each a
``ReadNote`` of a registered kind, one warning per kind in the registry's order, and the words of
the extra leading bin written once (``kinds.soft_label``)."""

from pathlib import Path

import pytest

from codajudge.formats.annotators import RowFit
from codajudge.formats.notes import (
    ANNOTATOR_POOL,
    ANNOTATOR_POOL_FIRST,
    ANNOTATORS_LIST,
    ANNOTATORS_LIST_FIRST,
    CHOSEN_ONLY,
    EMPTY_LEADING_BIN,
    LAYOUT_NOTES,
    LEADING_BIN_WITH_MASS,
    LONGER_ROWS_FIRST,
    NOTE_KINDS,
    PYTHON_LITERAL,
    RENORMALISED,
    VALUE_NOTES,
    ReadNote,
    note_warnings,
    words,
)
from codajudge.formats.soft import soft_label, soft_label_by_name
from codajudge.formats.values import ValueProblem, parse_value, show_json
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
    assert len(set(NOTE_KINDS)) == len(NOTE_KINDS)
    assert [kind for kind in NOTE_KINDS if "{mass" in kind] == [LEADING_BIN_WITH_MASS]


def test_each_soft_label_read_another_way_leaves_one_note():
    rows = [
        [0.0, 0.1, 0.2, 0.3, 0.2, 0.1, 0.1],  # an empty leading bin
        [0.001, 0.1, 0.2, 0.3, 0.2, 0.1, 0.099],  # a bin holding a little probability
        [0.1, 0.2, 0.3, 0.2, 0.1, 0.11],  # sums to 1.01
        [0.1, 0.2, 0.3, 0.2, 0.1, 0.1],
    ]
    notes = [note for row in rows for note in soft_label(row, CSC)[1]]
    assert sorted(notes, key=lambda note: NOTE_KINDS.index(note.kind)) == [
        ReadNote(RENORMALISED),
        ReadNote(EMPTY_LEADING_BIN),
        ReadNote(LEADING_BIN_WITH_MASS, 0.001),
    ]


#: A multilabel soft-label track (lewidi2025's ven_soft).
VEN_SOFT = track_from_dict(
    {
        "id": "ven_soft",
        "kind": "soft_label",
        "scale": "multilabel",
        "dataset": "ven",
        "labels": ["contradiction", "entailment", "neutral"],
    }
)


def test_a_multilabel_soft_label_of_one_p_chosen_per_label_is_noted():
    """On a multilabel track a list of K numbers, or an object label -> number, is read as P(chosen)
    per label, the pairs [1 - p, p], with a note naming the form given (a list, an object); a list
    of another length names both forms it takes."""
    assert soft_label([0.25, 1, 0], VEN_SOFT) == (
        [[0.75, 0.25], [0.0, 1.0], [1.0, 0.0]],
        [ReadNote(CHOSEN_ONLY, alignment="given as a list")],
    )
    labels = ["contradiction", "entailment", "neutral"]
    pairs, notes = soft_label_by_name(dict(zip(labels, [0.25, 1, 0])), VEN_SOFT)
    assert notes == [ReadNote(CHOSEN_ONLY, alignment="given as an object label -> P(chosen)")]
    assert note_warnings(
        notes * 2 + [ReadNote(CHOSEN_ONLY, alignment="given as a list")], VALUE_NOTES
    ) == [
        "3 multilabel soft labels were one P(chosen) per label and were read as "
        "[1 - P(chosen), P(chosen)] pairs: given as an object label -> P(chosen) (2 items); "
        "given as a list (1 item)"
    ]
    with pytest.raises(ValueProblem) as problem:
        soft_label([0.5, 0.5], VEN_SOFT)
    assert problem.value.expected == (
        "a list of 3 [P(not chosen), P(chosen)] pairs, or of 3 P(chosen) values, one per label "
        "(contradiction, entailment, neutral)"
    )


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (True, "booleans are not accepted as numbers: write 1 for true and 0 for false"),
        ("0.3", "the number is in quotes: write it as a JSON number, without quotes"),
    ],
)
def test_a_p_chosen_list_holding_a_boolean_or_a_quoted_number_names_it(wrong, hint):
    """K values P(chosen) with ``true`` or ``"0.3"`` among them are refused for that value, with
    its fix, not as a pair of the wrong length ("wrong pair length, found 'true'"); so is a pair's."""
    for value, what in (
        ([wrong, 0.5, 0], "soft label"),
        ([[0.5, 0.5], [wrong, 1], [1, 0]], "pair for 'entailment'"),
    ):
        with pytest.raises(ValueProblem) as problem:
            soft_label(value, VEN_SOFT)
        assert problem.value.message == f"{what} holds a value that is not a finite number"
        assert problem.value.found == show_json(wrong)
        assert problem.value.hint.startswith(hint)


def test_a_python_literal_is_noted():
    notes = []
    assert parse_value("[0.5, 0.5]", CSC, notes) == [0.5, 0.5] and notes == []
    assert parse_value("(0.5, 0.5)", CSC, notes) == [0.5, 0.5]
    assert notes == [ReadNote(PYTHON_LITERAL)]


def test_a_row_of_the_release_s_annotators_list_is_noted():
    notes = []
    fit = RowFit([["a", "b"]], [["a", "b", "b"]], {0: 3})
    assert fit.fit(0, [1, 2, 2], notes) == [1, 2]
    assert notes == [ReadNote(ANNOTATORS_LIST, alignment="columns 1, 2 against a, b")]
    assert note_warnings(notes, LAYOUT_NOTES) == [
        f"1 {words(ANNOTATORS_LIST, 1)}: columns 1, 2 against a, b (1 item)"
    ]


#: Four items over the pool a, b, c, d; the last two rows are written over the whole pool.
POOL_ITEMS = [["a", "b", "c", "d"], ["a", "b", "c", "d"], ["a", "c", "d"], ["b", "d"]]


@pytest.mark.parametrize(
    "first_entries, kind, read, alignments",
    [
        (
            False,
            ANNOTATOR_POOL,
            ([1, 3, 4], [2, 4]),
            "columns 1, 3, 4 against a, c, d (1 item); columns 2, 4 against b, d (1 item)",
        ),
        (
            True,
            ANNOTATOR_POOL_FIRST,
            ([1, 2, 3], [1, 2]),
            "columns 1, 2, 3 against a, c, d (1 item); columns 1, 2 against b, d (1 item)",
        ),
    ],
)
def test_a_pool_row_is_read_by_name_or_by_its_first_entries(first_entries, kind, read, alignments):
    """By name each entry is its pool annotator's; as the 2025 scorer (``zip``) the first k entries
    are the item's k annotators'. One warning says which columns were scored against whom."""
    notes = []
    fit = RowFit(POOL_ITEMS, lengths={2: 4, 3: 4}, first_entries=first_entries)
    assert (fit.fit(2, [1, 2, 3, 4], notes), fit.fit(3, [1, 2, 3, 4], notes)) == read
    assert fit.fit(0, [1, 2, 3, 4], notes) == [1, 2, 3, 4]  # the item's own annotators: as written
    assert note_warnings(notes, LAYOUT_NOTES) == [f"2 {words(kind, 2)}: {alignments}"]


def test_a_pool_row_out_of_the_pool_s_order_is_read_by_its_first_entries_only():
    """By name a pool row needs the item's annotators in the pool's order; the 2025 scorer's
    pairing by position needs no order, so it reads the row as that scorer did."""
    items, row = [["a", "b", "c"], ["c", "a"]], ["x", "y", "z"]
    with pytest.raises(ValueProblem):
        RowFit(items, lengths={1: 3}).fit(1, row, [])
    assert RowFit(items, lengths={1: 3}, first_entries=True).fit(1, row, []) == ["x", "y"]


def test_a_longer_row_of_any_length_is_read_by_its_first_entries_as_the_2025_scorer_did():
    """A row of 5 for an item of 4 (CSC's pool is 840) was refused "wrong number of annotator
    entries" under official_2025, whose scorer's zip() scored its first 4; by name it stays refused,
    naming the lengths that fit (the item's annotators, the pool), and a shorter row stays refused."""
    notes = []
    fit = RowFit(POOL_ITEMS, lengths={0: 5, 2: 6}, first_entries=True)
    assert fit.fit(0, [1, 2, 3, 4, 5], notes) == [1, 2, 3, 4]
    assert fit.fit(2, [1, 2, 3, 4, 5, 6], notes) == [1, 2, 3]
    assert note_warnings(notes, LAYOUT_NOTES) == [
        f"2 {words(LONGER_ROWS_FIRST, 2)}: columns 1, 2, 3, 4 against a, b, c, d (1 item); "
        "columns 1, 2, 3 against a, c, d (1 item)"
    ]
    with pytest.raises(ValueProblem, match="wrong number"):
        fit.fit(2, [1, 2], [])
    with pytest.raises(ValueProblem) as problem:
        RowFit(POOL_ITEMS, lengths={2: 5}).fit(2, [1, 2, 3, 4, 5], [])
    assert problem.value.expected == (
        "3 entries, one per annotator of the item in this order: a, c, d (or 4, one per annotator "
        "of the dataset's pool)"
    )


def test_a_listed_row_by_its_first_entries_is_not_merged():
    """The 2025 scorer paired a row of the release's annotators list (b repeated) by position too."""
    notes = []
    fit = RowFit([["a", "b", "c"]], [["a", "b", "b", "c"]], {0: 4}, first_entries=True)
    assert fit.fit(0, [1, 2, 5, 3], notes) == [1, 2, 5]
    assert note_warnings(notes, LAYOUT_NOTES) == [
        f"1 {words(ANNOTATORS_LIST_FIRST, 1)}: columns 1, 2, 3 against a, b, c (1 item)"
    ]


def test_a_warning_names_a_few_alignments_and_counts_the_others():
    notes = [ReadNote(ANNOTATOR_POOL, alignment=f"columns {k}") for k in (1, 2, 2, 3, 4, 5, 6, 6)]
    assert note_warnings(notes, LAYOUT_NOTES) == [
        f"8 {words(ANNOTATOR_POOL, 2)}: columns 2 (2 items); columns 6 (2 items); columns 1 (1 item); "
        "columns 3 (1 item); other alignments (2 items)"
    ]


def test_one_warning_per_kind_in_the_registry_s_order_the_largest_mass_named():
    notes = [
        ReadNote(PYTHON_LITERAL),
        ReadNote(LEADING_BIN_WITH_MASS, 0.004),
        ReadNote(ANNOTATORS_LIST, alignment="columns 1, 2 against a, b"),
        ReadNote(RENORMALISED),
        ReadNote(LEADING_BIN_WITH_MASS, 0.0123),
        ReadNote(RENORMALISED),
    ]
    warnings = note_warnings(notes)
    assert warnings == note_warnings(notes, VALUE_NOTES) + note_warnings(notes, LAYOUT_NOTES)
    assert warnings == [
        "2 soft labels summed to within 0.02 of 1 and were renormalised",
        "1 value was not JSON but a Python literal (str() of a list: single quotes, tuples) "
        "and was read as such; json.dumps(x) writes JSON",
        "2 soft labels had an extra leading bin (one value more than the track's labels, the "
        "2025 practice-phase layout) holding a little probability, at most 0.012; it was "
        "dropped and the rows renormalised",
        f"1 {words(ANNOTATORS_LIST, 1)}: columns 1, 2 against a, b (1 item)",
    ]


def test_a_refused_bin_s_hint_names_the_layout_by_the_kind_s_words():
    with pytest.raises(ValueProblem) as problem:
        soft_label([0.3, 0.1, 0.1, 0.1, 0.1, 0.1, 0.2], CSC)
    assert f"looks like {PRACTICE_PHASE_LAYOUT}, which" in problem.value.hint
    assert f"({LEADING_BIN_LAYOUT})" in words(EMPTY_LEADING_BIN, 1)
    assert f"({LEADING_BIN_LAYOUT})" in words(EMPTY_LEADING_BIN, 2)


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
