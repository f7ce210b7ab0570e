"""Issue 22, items 2 and 12: what a participant's line may cost the readers, and what they may print.

Every reader's work is linear in its input and bounded per line (docs/participant-checks.md, "What a
line may cost"): the cost is compared between two sizes (a ratio of the CPU time of the test's own
thread, not seconds of wall time, so a loaded machine does not decide), or the work itself is counted. No numpy warning reaches the participant's stderr
from a message built on their values.
"""

import json
import time
import warnings

import pytest

from codajudge.errors import SubmissionError
from codajudge.formats import values
from codajudge.formats.perspectivist import annotator_entries, annotator_values
from codajudge.formats.soft import soft_label
from codajudge.formats.submission import ItemKeys, read_prediction
from codajudge.formats.values import ValueProblem, outside_label_set, python_literal
from codajudge.gold import build_gold
from codajudge.labels import LabelSet
from codajudge.scoring import read_track_file
from codajudge.tracks import Track, track_from_dict

SOFT = track_from_dict(
    {"id": "soft", "kind": "soft_label", "scale": "categorical", "labels": ["0", "1"]}
)
ORDINAL = track_from_dict(
    {"id": "ord", "kind": "soft_label", "scale": "ordinal", "labels": ["0", "1", "2"]}
)
MULTI = ["a", "b", "c"]
MULTI_SOFT = track_from_dict(
    {"id": "ml", "kind": "soft_label", "scale": "multilabel", "labels": MULTI}
)
MULTI_PE = track_from_dict(
    {"id": "mlpe", "kind": "perspectivist", "scale": "multilabel", "labels": MULTI}
)
ITEMS = [
    {
        "id": f"i{k}",
        "texts": ["a", "b"],
        "annotators": ["A1", "A2"],
        "annotations": ["0", "1"] if k % 2 else ["1", "1"],
    }
    for k in range(3)
]
MULTI_ITEMS = [{**item, "annotations": [["a"], ["b", "c"]]} for item in ITEMS]


def _read(track: Track, items, rows, tmp_path):
    """The track's file of one line per item, ``rows[k]`` the value text of item k."""
    path = tmp_path / f"{track.id}.tsv"
    path.write_text("".join(f"{i['id']}\t{r}\n" for i, r in zip(items, rows)), encoding="utf-8")
    return read_track_file(path, path.name, build_gold(track, items, "gold"))


def _best_times(first, second, rounds: int = 7) -> tuple:
    """The least CPU time of this thread (seconds) each of two actions took over ``rounds`` rounds,
    run in turn. CPU time, not wall time: the time spent waiting for a core on a loaded machine is
    not counted; what load still changes (caches, clock speed) slows both actions of a round alike
    or is outlasted by the other rounds."""
    best = [float("inf"), float("inf")]
    for _ in range(rounds):
        for index, action in enumerate((first, second)):
            start = time.thread_time()
            action()
            best[index] = min(best[index], time.thread_time() - start)
    return best[0], best[1]


def _cost_ratio(large, small, rounds: int = 7) -> float:
    """How many times ``small``'s best time ``large``'s best time is."""
    large_time, small_time = _best_times(large, small, rounds)
    return large_time / small_time


def _literal_row(numbers: int) -> str:
    """A Python literal (a tuple, so not JSON) of ``numbers`` soft-label numbers."""
    return "(" + ", ".join(["0.5"] * numbers) + ")"


# --- item 2: linear readers, a bounded line --------------------------------------------------------


def test_a_python_literal_costs_linear_time_in_its_length():
    """The literal is read token by token in one pass, then as JSON once: 8 times the numbers cost
    about 8 times the time (a parser that rescans the line per number would cost 64)."""
    small, large = _literal_row(4000), _literal_row(32000)
    assert python_literal(large) == [0.5] * 32000
    ratio = _cost_ratio(lambda: python_literal(large), lambda: python_literal(small))
    assert ratio < 24, f"8 times the numbers cost {ratio:.0f} times the time (quadratic: 64)"


def test_a_python_literal_costs_linear_time_in_the_spaces_after_it():
    """Spaces after a literal (a value the JSON reader refuses) match no token: each was the start
    of a failed match that scanned the rest (8 times the spaces cost 64 times the time; a line of
    20,000 took 30 s)."""
    small, large = "(0.5, 0.5)" + " " * 1000, "(0.5, 0.5)" + " " * 8000
    assert python_literal(large) == [0.5, 0.5]
    ratio = _cost_ratio(lambda: python_literal(large), lambda: python_literal(small), rounds=3)
    assert ratio < 24, f"8 times the spaces cost {ratio:.0f} times the time (quadratic: 64)"


CHAOSNLI = track_from_dict(
    {"id": "snli_soft", "kind": "soft_label", "scale": "categorical", "dataset": "snli",
     "labels": ["entailment", "neutral", "contradiction"], "files": ["snli*.json"]}
)  # fmt: skip
#: ChaosNLI documents of ``n`` escaped quotes in a string, each a regex scan's worst case: left
#: unterminated in a document of too many entries (its models are looked for), or before a NaN
#: (its record is looked for).
CHAOSNLI_QUOTES = {
    "document holds more entries than": lambda n: '{"m": {"u1": {"x": [' + "0," * 300 + '0], "y": "'
    + '\\"' * n,
    "item 'u0': not a finite number": lambda n: '{"m": {"u0": {"pad": "' + '\\"' * n
    + '", "predicted_probabilities": [NaN, 0, 0]}}}',
}  # fmt: skip


@pytest.mark.parametrize("refused", CHAOSNLI_QUOTES)
def test_a_chaosnli_documents_escaped_quotes_cost_linear_time(tmp_path, refused):
    """A string's escaped quotes are scanned once: a scan that retried from each of them cost the
    square of the document's size (8 times the quotes: 64 times the time; 20,000 took 28 s)."""
    paths = []
    for n in (1000, 8000):
        paths.append(tmp_path / f"snli_{n}.json")
        paths[-1].write_text(CHAOSNLI_QUOTES[refused](n), encoding="utf-8")

    def refusal(path):
        with pytest.raises(SubmissionError) as e:
            read_prediction(path, path.name, CHAOSNLI, ItemKeys(["u1", "u2"]))
        assert refused in str(e.value)

    ratio = _cost_ratio(lambda: refusal(paths[1]), lambda: refusal(paths[0]), rounds=3)
    assert ratio < 24, f"8 times the quotes cost {ratio:.0f} times the time (quadratic: 64)"


@pytest.mark.parametrize(
    "text, value",
    [
        ("['é', -1.5, (2, 3)]", ["é", -1.5, [2, 3]]),
        ("['日本語', ('x', -0.0), 1e3]", ["日本語", ["x", -0.0], 1000.0]),
        ("[1,\n -2,\r\n 3]", [1, -2, 3]),  # a value over lines (a JSON string holding line ends)
        ("((0.75, 0.25),)", [[0.75, 0.25]]),
        ("['a\\'b', \"c\\td\", '\\x41\\u00e9\\U0001f600']", ["a'b", "c\td", "Aé\U0001f600"]),
        ("[[], (), [()]]", [[], [], [[]]]),
    ],
)
def test_python_literals_keep_their_values(text, value):
    got = python_literal(text)
    assert got == value and json.dumps(got) == json.dumps(value)


@pytest.mark.parametrize(
    "text",
    [
        *("[1_000]", "[0x10]", "[True]", "[- 1]", "[1e999]", "[.5]", "[1.]", "[1j]", "[-(1)]"),
        *("[b'1']", "['a' 'b']", "[1 2]", "(0.5)", "[1, 2)", "(,)", "[1], [2]", "[true]"),
    ],
)
def test_what_no_python_repr_of_lists_and_numbers_writes_is_refused(text):
    assert python_literal(text) is None


class _CountedNames(list):
    """An item's annotators, counting the passes over them."""

    passes = 0

    def __iter__(self):
        type(self).passes += 1
        return super().__iter__()


def test_an_object_row_costs_one_pass_over_the_items_annotators(monkeypatch):
    """``{annotator: label}`` rows: a set of the item's annotators was built again for every key."""
    names = _CountedNames(f"A{k}" for k in range(500))
    row = json.dumps({name: ["a"] for name in names})
    monkeypatch.setattr(_CountedNames, "passes", 0)
    assert len(annotator_entries(row, MULTI_PE, names, [], len(names))) == 500
    assert _CountedNames.passes <= 3  # a few passes, never one per key


def test_a_long_label_is_compared_once_with_the_labels(monkeypatch):
    """The label outside the set is loosened once, not once per label of the track."""
    track = track_from_dict(
        {"id": "many", "kind": "classification", "labels": [f"l{k}" for k in range(50)]}
    )
    long_label = "x" * 100_000
    seen = []
    loose = values._loose_label
    monkeypatch.setattr(values, "_loose_label", lambda text: seen.append(text) or loose(text))
    outside_label_set(long_label, track, "shown")
    assert seen.count(long_label) == 1


def test_an_annotators_labels_are_looked_up_in_one_label_table(monkeypatch):
    """A multilabel entry listing many labels builds the track's label table (its ``LabelSet``)
    once, not per label."""
    calls = []
    build = LabelSet.__post_init__
    monkeypatch.setattr(LabelSet, "__post_init__", lambda self: calls.append(1) or build(self))
    track = track_from_dict(MULTI_PE.to_dict())  # a fresh track: its LabelSet not yet built
    with pytest.raises(values.ValueProblem):
        annotator_values([["a"] * 1000 + ["z"]], track)
    assert len(calls) == 1


# --- item 12: no numpy warning from a message ------------------------------------------------------


@pytest.mark.parametrize(
    "track, items, row, message",
    [
        (SOFT, ITEMS, "[1e308, 1e308]", "soft label does not sum to 1"),
        (SOFT, ITEMS, '{"0": 1e308, "1": 1e308}', "soft label does not sum to 1"),
        (ORDINAL, ITEMS, "[1e308, 1e308, 1e308]", "soft label does not sum to 1"),
        (ORDINAL, ITEMS, "[0.01, 1e308, 1e308, 1e308]", "soft label does not sum to 1"),
        (
            MULTI_SOFT,
            MULTI_ITEMS,
            "[[0.5, 0.5], [1e308, 1e308], [0.5, 0.5]]",
            "pair for 'b' does not sum to 1",
        ),
    ],
)
def test_a_sum_that_overflows_is_named_without_a_numpy_warning(
    track, items, row, message, tmp_path
):
    """The message's ``row.sum()`` overflowed: numpy's RuntimeWarning, with its internal path, reached
    the participant's stderr, and the message said "found sum inf" of finite values."""
    good = json.dumps([[0.5, 0.5]] * 3) if track is MULTI_SOFT else json.dumps([0.5, 0.5])
    good = json.dumps([0.25, 0.5, 0.25]) if track is ORDINAL else good
    with warnings.catch_warnings(record=True) as caught, pytest.raises(SubmissionError) as error:
        warnings.simplefilter("always")
        _read(track, items, [good, row, good], tmp_path)
    assert [str(w.message) for w in caught] == []
    whole = "pair" if track is MULTI_SOFT else "row"  # what sums to 1
    assert str(error.value) == (
        f"{track.id}.tsv, line 2, item 'i1': {message}; expected a sum within 0.02 of 1, found "
        "values too large to add up (the sum overflows; the largest value is 1e+308). Values "
        "above 1 are no probabilities: if they are a model's raw scores (logits), apply a "
        f"softmax (scipy.special.softmax); if counts or percentages, divide each value by the "
        f"{whole}'s sum"
    )


HUGE = "1" + "0" * 400  # an integer JSON reads as a float, infinite, in the column read


@pytest.mark.parametrize(
    "track, items, row, good",
    [
        (SOFT, ITEMS, f"[{HUGE}, -{HUGE}]", "[0.5, 0.5]"),
        (ORDINAL, ITEMS, f"[{HUGE}, -{HUGE}, 0]", "[0.25, 0.5, 0.25]"),
        (ORDINAL, ITEMS, f"[0.01, {HUGE}, -{HUGE}, 0]", "[0.25, 0.5, 0.25]"),
        (MULTI_SOFT, MULTI_ITEMS, f"[{HUGE}, -{HUGE}, 0]", "[0.5, 0.5, 0.5]"),
        (MULTI_SOFT, MULTI_ITEMS, f"[[{HUGE}, -{HUGE}], [1, 0], [1, 0]]", "[0.5, 0.5, 0.5]"),
    ],
)
def test_both_infinities_in_a_row_are_refused_without_a_numpy_warning(
    track, items, row, good, tmp_path
):
    """The column's rules summed inf and -inf (integers of over 300 digits): numpy's "invalid value"
    warning reached stderr before the row was refused as out of range."""
    with warnings.catch_warnings(record=True) as caught, pytest.raises(SubmissionError) as error:
        warnings.simplefilter("always")
        _read(track, items, [good, row, good], tmp_path)
    assert [str(w.message) for w in caught] == []
    assert str(error.value).startswith(
        f"{track.id}.tsv, line 2, item 'i1': number out of range; expected finite numbers, found"
    )


def test_no_numpy_operation_of_the_soft_rules_warns_on_extreme_values():
    """Every rule's message, on the extremes of a float: numpy is silent, and no message says inf."""
    extreme = [1e308, -1e308, 5e-324, 0.0, 1.7976931348623157e308]
    rows = [[a, b] for a in extreme for b in extreme]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        shown = [_found(row) for row in rows]
    shown = [found for found in shown if found is not None]
    assert shown
    assert not any("inf" in found for found in shown)


def _found(row):
    """What the soft label rules' problem with ``row`` found, None when they accept it."""
    try:
        soft_label(row, SOFT)
    except ValueProblem as problem:
        return problem.found
    return None


@pytest.mark.parametrize("text", ["['\\d', 1]", "('\\q', 0.5)", "[['\\w'], [1]]"])
def test_python_s_own_syntax_warnings_on_a_literal_never_reach_stderr(text):
    """Parsing a participant's literal can make Python warn (an invalid escape: a SyntaxWarning
    printed on Python 3.12); the reader silences it, so no warning reaches the scoring log."""
    read = python_literal(text)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning shown would now be an error, and refuse the text
        assert python_literal(text) == read
