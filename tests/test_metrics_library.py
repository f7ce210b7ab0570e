"""The official metrics as a library (issue 39, point 1): ``codajudge.metrics.lewidi``, ``sts``,
``nli``, ``chaosnli`` on plain lists, and ``codajudge.leaderboard.score_predictions``.

The LeWiDi expectations come from ``tests/lewidi_official.py`` (the official definitions written out
as plain Python over the release JSON), never from the kit.
"""

from __future__ import annotations

import os

import doctest
import inspect
import json
import math
import re
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import lewidi_official as official
from codajudge import leaderboard
from codajudge.errors import SubmissionError, UsageError
from codajudge.metrics import REGISTRY, chaosnli, lewidi, nli, sts

REPO = Path(__file__).resolve().parents[1]
PARTICIPANT_MODULES = [lewidi, sts, nli, chaosnli, leaderboard]


def public_functions(module):
    return [
        function
        for name, function in inspect.getmembers(module, inspect.isfunction)
        if not name.startswith("_") and function.__module__ == module.__name__
    ]


@pytest.mark.parametrize("module", PARTICIPANT_MODULES, ids=lambda m: m.__name__)
def test_every_function_has_an_example_and_the_examples_run(module):
    functions = public_functions(module)
    assert functions
    without = [f.__name__ for f in functions if ">>> " not in (f.__doc__ or "")]
    assert not without, f"no example in the docstring of {without}"
    result = doctest.testmod(module, verbose=False)
    assert result.attempted >= len(functions) and result.failed == 0


def test_numpy_arrays_and_ragged_lists_score_as_plain_lists():
    gold = [[1, 0], [0, 0, 1]]
    assert lewidi.error_rate([np.array(g) for g in gold], [[1, 1], np.array([0, 0, 1])]) == 0.25
    soft = np.array([[0.5, 0.5], [1.0, 0.0]])
    assert lewidi.manhattan(soft, soft[::-1]) == lewidi.manhattan(
        soft.tolist(), [[1, 0], [0.5, 0.5]]
    )
    assert sts.pearson(np.arange(4.0), [0, 1, 2, 3]) == 1.0
    assert nli.accuracy(np.array([0, 1, 2]), [0, 1, 1]) == pytest.approx(2 / 3)


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: lewidi.error_rate([[1, 0], [0, 1, 1]], [[1, 0], [0, 1]]), "item 1: gold has 3"),
        (lambda: lewidi.manhattan([[0.5, 0.5]], [[0.5, 0.5], [1, 0]]), "gold has 1 item but"),
        (lambda: lewidi.manhattan([[0.5, 0.5]], [[0.2, 0.3, 0.5]]), "expected one distribution"),
        (
            lambda: lewidi.manhattan([[0.5, 0.5]], [["a", "b"]]),
            "predictions, item 0: expected numbers",
        ),
        (lambda: lewidi.wasserstein([], []), "no items"),
        (lambda: lewidi.manhattan([0.5, 0.5], [1.0, 0.0]), "expected one distribution for every"),
        (
            lambda: lewidi.multilabel_manhattan([[0.5, 0.5]], [[0.5, 0.5]]),
            "expected one [not chosen, chosen] per label for every item",
        ),
        (lambda: sts.pearson([[1.0, 2.0]], [[1.0, 2.0]]), "expected one score for every item"),
        (
            lambda: lewidi.manhattan([[0.5, 0.5], [1.0]], [[0.5, 0.5], [1, 0]]),
            "gold, item 1: expected 2",
        ),
        (
            lambda: sts.pearson([1.0, float("nan")], [1.0, 2.0]),
            "gold, item 1: expected finite numbers; found nan",
        ),
        (
            lambda: lewidi.multilabel_error_rate([[[1, 0], [0, 1], [0, 0]]], [[1, 0, 0, 1]]),
            "predictions, item 0: expected a 0/1 vector over the annotators per label",
        ),
    ],
)
def test_inputs_of_the_wrong_shape_are_refused_with_what_was_expected(call, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        call()


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: sts.pearson([1, 2, 3], [1, 2, 10**400]), "predictions, item 2: expected finite"),
        (lambda: sts.spearman(np.array([10**400, 1], dtype=object), [1, 2]), "gold, item 0:"),
        (
            lambda: lewidi.manhattan([[1, 0], [10**400, 0]], [[1, 0]] * 2),
            "gold, item 1, label 0: expected",
        ),
        (lambda: lewidi.error_rate([[1, 10**400]], [[1, 0]]), "gold, item 0, annotator 1:"),
        (lambda: lewidi.multilabel_error_rate([[[1, 0]]], [[[1, 10**400]]]), "predictions, item 0"),
    ],
)
def test_whole_numbers_too_large_for_a_float_are_refused_naming_the_item(call, words):
    with pytest.raises(ValueError, match=re.escape(words) + r".*; found .*10000"):
        call()


@pytest.mark.parametrize(
    "call, words",
    [
        (
            lambda: chaosnli.kl([[1, 0, 0]] * 3, [[0, 0, 1]] * 2 + [[0.6, -0.1, 0.5]]),
            "predictions, item 2: distribution has a negative probability; expected "
            "probabilities >= 0, found -0.1",
        ),
        (lambda: lewidi.manhattan([[0.5, 0.5]], [[3, -2]]), "found -2"),
        (lambda: chaosnli.jsd([[0.5, 0.5, 0]], [[0, 0, 0]]), "item 0: distribution does not sum"),
        (lambda: lewidi.wasserstein([[0.2, 0.2, 0.2]], [[1, 0, 0]]), "gold, item 0:"),
        (lambda: lewidi.manhattan([[0.5, 0.5]], [[0.5, 0.53]]), "within 0.02 of 1, found sum 1.03"),
        (
            lambda: lewidi.manhattan([[0.5, 0.5]], [[0.5200001, 0.5]]),
            "within 0.02 of 1, found sum 1.0200001",
        ),
        (
            lambda: lewidi.error_rate([[1, 0]], [[1.0000001, 0]]),
            "not probabilities); found 1.0000001",
        ),
        (lambda: lewidi.manhattan([[]], [[]]), "expected one distribution for every item"),
        (
            lambda: lewidi.multilabel_manhattan([[[1, 0, 0]]], [[[1, 0, 0]]]),
            "gold, item 0: wrong pair 0 length; expected a list of 2 probabilities, found 3",
        ),
        (
            lambda: lewidi.multilabel_manhattan([[[1, 0], [1, 0]]], [[[1, 0], [0.5, 0.6]]]),
            "predictions, item 0: pair 1 does not sum to 1",
        ),
    ],
)
def test_soft_labels_that_are_not_distributions_are_refused_not_scored(call, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        call()


def test_soft_labels_within_the_tolerance_are_renormalised_as_the_scoring_program_reads_them():
    """Each row or pair divided by its sum (the readers' rule), so that the library's score is the
    scoring program's: [0.505, 0.505] is [0.5, 0.5]."""
    pred = [[0.505, 0.505], [0.5, 0.515]]
    assert lewidi.manhattan([[0.5, 0.5]] * 2, pred) == 0.00739
    assert lewidi.manhattan(pred, [[0.5, 0.5], [0.5 / 1.015, 0.515 / 1.015]]) == 0.0
    assert lewidi.multilabel_manhattan([[[0.5, 0.5]]], [[[0.49, 0.52]]]) == 0.0297
    assert lewidi.wasserstein([[0.0, 1.0, 0.0]], [[0.0, 0.505, 0.505]]) == 0.5


@pytest.mark.parametrize("n_values", [0, -3, 5.7, "six", None, float("nan"), True, 10**400])
def test_n_values_must_be_a_positive_whole_number(n_values):
    with pytest.raises(ValueError, match=r"n_values: expected .* a positive whole number"):
        lewidi.normalized_absolute_distance([[1, 2]], [[2, 1]], n_values=n_values)


@pytest.mark.parametrize(
    "gold, pred, words",
    [
        ([[1, 2]], [[20, 1]], "predictions, item 0: a label off the scale of n_values=6 values"),
        ([[1, 2], [0, 6]], [[1, 2], [1, 1]], "gold, item 1: a label off the scale"),
        ([[1, 2]], [[1.5, 2]], "predictions, item 0: expected whole numbers"),
        # of equal labels off the scale, the first is named
        ([[1, 1], [9, 1], [1, 1], [9, 1]], [[1, 1]] * 4, "gold, item 1: a label off the scale"),
        ([[9, 1]], [[9, 1]], "gold, item 0: a label off the scale"),
    ],
)
def test_labels_off_the_n_values_scale_are_refused(gold, pred, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        lewidi.normalized_absolute_distance(gold, pred, n_values=6)


def test_any_scale_of_n_values_consecutive_labels_is_taken():
    assert lewidi.normalized_absolute_distance([[-5, 5]], [[5, -5]], n_values=11) == 10 / 11
    assert lewidi.normalized_absolute_distance([[0, 5]], [[5, 0]], n_values=6.0) == 5 / 6


@pytest.mark.parametrize(
    "call, words",
    [
        (
            lambda: lewidi.multilabel_error_rate([[[1, 0]]], [[[2, 0]]]),
            "predictions, item 0: expected a 0/1 vector over the annotators per label (1: chosen",
        ),
        (lambda: lewidi.multilabel_error_rate([[[1, 0]]], [[[0.5, 0]]]), "found [[0.5, 0]]"),
        (
            lambda: lewidi.error_rate([[1, 0], []], [[1, 1], []]),
            "gold, item 1: expected a label per annotator, for at least one annotator; found []",
        ),
        (lambda: lewidi.multilabel_error_rate([[[], []]], [[[], []]]), "gold, item 0: expected"),
    ],
)
def test_perspectivist_items_without_annotators_or_with_other_choices_are_refused(call, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        call()


@pytest.mark.parametrize(
    "gold, pred, words",
    [
        (["e", "n"], ["e", None], "predictions, item 1: expected a name (a string) like the"),
        ([0, 1, float("nan")], [0, 1, 2], "gold, item 2: expected a finite number"),
        ([["e"], ["n"]], [["e"], ["n"]], "gold, item 0: expected a label: a name"),
        (["e", "n"], ["e", ["n", "c"]], "predictions, item 1: expected a name"),
        ([0, 1, 2], ["0", "1", "2"], "predictions, item 0: expected a finite number"),
        ([b"a", b"b"], [b"a", b"a"], "gold, item 0: expected a label: a name (a string) or a num"),
        ([float("nan"), 1], [1, 1], "gold, item 0: expected a finite number;"),
        (["a", b"b"], ["a", "b"], "gold, item 1: expected a name (a string) like the first gold"),
    ],
)
def test_classification_labels_that_are_not_labels_are_refused(gold, pred, words):
    """Naming the type found; the first gold label, which the others are like, by what it is not."""
    for metric in (nli.accuracy, nli.macro_f1, nli.balanced_accuracy):
        with pytest.raises(ValueError, match=re.escape(words) + r".*found .* \(\w+\)$"):
            metric(gold, pred)


def test_classification_labels_that_are_booleans_are_refused_with_their_conversion():
    """As sts and lewidi refuse a boolean: with the conversion (probs > 0.5 gives booleans)."""
    words = (
        f"gold, item 0: booleans are not accepted as labels or numbers; found {np.True_!r}. Write"
    )
    with pytest.raises(ValueError, match=re.escape(words)):
        nli.accuracy(np.array([True, False]), [True, True])
    with pytest.raises(ValueError, match=re.escape("predictions, item 1: booleans are not")):
        nli.macro_f1([0, 1], [0, True])


@pytest.mark.parametrize(
    "gold", [["e", "-", "n", "-"], ["e", None, "n", "-"], np.array(["e", "-", "n", "-"])]
)
def test_gold_items_without_a_gold_label_are_refused_not_scored_as_a_label(gold):
    """OCNLI's '-' (no majority), or None: the scoring program leaves them out; as a fourth label
    they would change the score (0.36767 for 0.3739 on OCNLI dev)."""
    words = "gold: 2 items of 4 without a gold label (no majority: '-', or None), the first item 1"
    for metric in (nli.accuracy, nli.macro_f1, nli.micro_f1, nli.balanced_accuracy):
        with pytest.raises(ValueError, match=re.escape(words) + ".*: leave them out"):
            metric(gold, ["e", "n", "n", "c"])
    assert nli.accuracy(["e", "n"], ["-", "n"]) == 0.5  # a prediction '-' is a wrong label


@pytest.mark.parametrize(
    "call, words",
    [
        (
            lambda: sts.pearson(["1", "2", "3.5"], [1, 2, 3]),
            "gold, item 0: expected finite numbers",
        ),
        (lambda: sts.pearson([1, 2, 3], [1.0, True, 3.0]), "predictions, item 1: booleans are not"),
        (lambda: sts.pearson(np.array([True, False]), [1, 2]), f"found {np.True_!r}"),
        (
            lambda: lewidi.manhattan([[0.5, 0.5]], [[True, False]]),
            "predictions, item 0, label 0: booleans are not accepted as labels or numbers; "
            "found True",
        ),
        (
            lambda: lewidi.manhattan([["0.5", "0.5"]], [[1, 0]]),
            "gold, item 0, label 0: expected finite numbers; found '0.5'",
        ),
        (lambda: lewidi.error_rate([[1, True]], [[1, 0]]), "gold, item 0, annotator 1: booleans"),
        (lambda: lewidi.multilabel_error_rate([[[1, 0]]], [[[True, 0]]]), "predictions, item 0,"),
        (lambda: lewidi.error_rate(["1"], [[1]]), "gold, item 0: expected a label per annotator"),
        (lambda: lewidi.error_rate([None], [[1]]), "gold, item 0: expected a label per annotator"),
        (lambda: nli.accuracy([1, 0], [True, 0]), "predictions, item 0: booleans are not"),
    ],
)
def test_strings_and_booleans_are_not_read_as_numbers(call, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        call()


#: The conversion a boolean's refusal names (``probs > 0.5`` gives numpy booleans).
CONVERSION = "Write 1 for True and 0 for False: int(x), or x.astype(int) for a numpy array"


@pytest.mark.parametrize(
    "call, words",
    [
        (
            lambda: lewidi.error_rate([[0, 1]], [[False, True]]),
            "predictions, item 0, annotator 0: booleans are not accepted as labels or numbers; "
            "found False",
        ),
        (
            lambda: lewidi.error_rate([[0, 1]], np.array([[0.2, 0.7]]) > 0.5),
            f"predictions, item 0, annotator 0: booleans are not accepted as labels or numbers; "
            f"found {np.False_!r}",
        ),
        (
            lambda: lewidi.multilabel_error_rate([[[True, False]]], [[[1, 0]]]),
            "gold, item 0, label 0, annotator 0: booleans are not accepted as labels or numbers; "
            "found True",
        ),
        (
            lambda: lewidi.multilabel_error_rate(
                [[[1, 0], [0, 1]]], np.array([[[0.6, 0.2], [0.1, 0.7]]]) > 0.5
            ),
            "predictions, item 0, label 0, annotator 0: booleans are not accepted as labels or "
            f"numbers; found {np.True_!r}",
        ),
    ],
)
def test_booleans_are_refused_by_position_with_their_conversion(call, words):
    """As the scoring program refuses them in files; a notebook's ``probs > 0.5`` gives numpy ones."""
    with pytest.raises(ValueError, match=re.escape(words) + r"\. " + re.escape(CONVERSION)):
        call()


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: lewidi.error_rate([[1, 0]], [[1.0, 0.5]]), "predictions, item 0: expected whole"),
        (lambda: lewidi.error_rate([[1], ["0.25"]], [[1], [0]]), "gold, item 1: expected whole"),
        (lambda: lewidi.error_rate(np.array([[0.7, 0.3]]), [[1, 0]]), "; found 0.7"),
    ],
)
def test_annotators_labels_that_are_not_whole_numbers_are_refused_not_counted_wrong(call, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        call()


def test_annotators_labels_may_be_strings_as_the_2025_files_write_them():
    assert lewidi.error_rate([["1", "0"]], [[1, 1]]) == 0.5
    assert lewidi.normalized_absolute_distance([["-4", "5"]], [["-4", "4"]], 11) == 1 / 22


def test_classification_numbers_compare_by_value():
    assert nli.accuracy([0, 1, 2], [0.0, 1.0, np.int64(2)]) == 1.0
    assert nli.macro_f1(np.array([0, 1]), [0.0, 1.0]) == 1.0
    assert nli.accuracy([1, 10**400], [1.0, 10**399]) == 0.5  # compared, not read as floats


@pytest.mark.parametrize("given", [3, None, (x for x in [1.0, 2.0]), "enc", {"a": 1.0}])
def test_arguments_that_are_not_sequences_are_refused_with_what_was_expected(given):
    expected = "gold: expected a list (or tuple, or numpy array) of one value per item; found "
    for metric in (sts.pearson, nli.accuracy, lewidi.manhattan, lewidi.error_rate):
        with pytest.raises(ValueError, match=re.escape(expected)):
            metric(given, [1.0, 2.0])


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: sts.pearson([1.0, None, 3.0], [1, 2, 3]), "gold, item 1: expected finite numbers"),
        (
            lambda: lewidi.manhattan([[1, 0]], [[float("nan"), 1]]),
            "predictions, item 0, label 0: expected",
        ),
        (lambda: lewidi.error_rate([[1, None]], [[1, 0]]), "gold, item 0, annotator 1: expected"),
        (
            lambda: lewidi.manhattan([[1.0, 0.0], [1.0, 0.0]], [[1.0, 0.0], [1.0, 0.0]][0]),
            "predictions has shape (2,); expected one distribution for every item (2 axes",
        ),
        (
            lambda: lewidi.multilabel_error_rate([[[1, 0], [0, 1]]], [[[1, 0], [0, 1], [1, 1]]]),
            "item 0: gold has 2 annotators x 2 labels but the prediction 2 annotators x 3 labels",
        ),
        (
            lambda: lewidi.multilabel_error_rate(
                [[[1, 0], [0, 1], [0, 0]], [[1], [1]]] * 2,
                [[[1, 0], [0, 1], [0, 0]], [[1], [1]]] * 2,
            ),
            "gold, item 1: expected 3 labels (as item 0), found 2; give every item a 0/1 vector",
        ),
        # a ragged list: its first item of another shape than item 0's, not the list's start
        (
            lambda: lewidi.manhattan([[0.5, 0.5]] * 9, [[0.5, 0.5]] * 5 + [[1.0]] + [[1, 0]] * 3),
            "predictions, item 5: expected 2 values (as item 0), found 1 value",
        ),
        (
            lambda: chaosnli.jsd([[0.5, 0.5]] * 3, [[0.5, 0.5], [0.5, 0.5], "ab"]),
            "predictions, item 2: expected numbers; found 'ab'",
        ),
        (
            lambda: lewidi.multilabel_manhattan(
                [[[1, 0]] * 3] * 4, [[[1, 0]] * 3] * 3 + [[[1, 0]]]
            ),
            "predictions, item 3: expected 3 x 2 values (as item 0), found 1 x 2 values",
        ),
        (
            lambda: sts.pearson([1, 2, 3], [1, [2, 3], 3]),
            "predictions, item 1: expected a single number (as item 0), found 2 values",
        ),
        (
            lambda: lewidi.error_rate([[1, 0]], [[1, [0, 1]]]),
            "predictions, item 0, annotator 1: expected a single number (as annotator 0)",
        ),
    ],
)
def test_messages_name_the_item_and_what_differs(call, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        call()


def test_score_predictions_gives_the_runners_scores(tmp_path, bundles):
    """A predictions folder (the track files the local runner scored), a result zip of it, and the
    prediction output itself all score what the runner's scores.json holds (the run is test_runner's
    of the practice phase, made once for both: ``bundles.run``)."""
    runner, output = bundles.run(REPO, "baseline:most_frequent", "practice")
    folder = tmp_path / "mine"
    folder.mkdir()
    for track_file in (output / "predictions").glob("*.tsv"):
        shutil.copyfile(track_file, folder / track_file.name)
    archive = shutil.make_archive(str(tmp_path / "mine"), "zip", folder)
    for predictions in (folder, archive, output / "predictions"):
        assert leaderboard.score_predictions(REPO, predictions, "practice") == runner


def test_score_predictions_refuses_a_file_as_the_scoring_program_does(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "en_en.tsv").write_text("no such id\t1.0\n", encoding="utf-8")
    with pytest.raises(SubmissionError, match="en_en.tsv"):
        leaderboard.score_predictions(REPO, folder, "practice")


def test_score_predictions_warns_each_note_of_the_scoring_program(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    items = (REPO / "input_data" / "practice" / "sts_en.jsonl").read_text(encoding="utf-8")
    ids = [json.loads(line)["id"] for line in items.splitlines()]
    (folder / "en_en.tsv").write_text("".join(f"{i}\t3.0\n" for i in ids), encoding="utf-8")
    (folder / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.warns(UserWarning) as warned:
        scores = leaderboard.score_predictions(REPO, folder, "practice")
    notes = "\n".join(str(warning.message) for warning in warned)
    assert "file 'notes.txt' matches no track and was ignored" in notes
    assert "primary tracks not submitted: es_es" in notes
    assert "en_en.tsv: Pearson r: correlation is undefined" in notes
    assert scores["en_en_pearson"] == 0.0 and "primary" in scores


def test_score_predictions_gives_a_hidden_gold_phase_the_leaderboards_four_decimals(tmp_path):
    """The root bundle's evaluation phase hides its gold: its scores are the leaderboard's, 4
    decimals (not the metrics' 5), and the docstring and the README say so, not that it raises."""
    folder = tmp_path / "mine"
    folder.mkdir()
    items = (REPO / "input_data" / "evaluation" / "sts_en.jsonl").read_text(encoding="utf-8")
    ids = [json.loads(line)["id"] for line in items.splitlines()]
    rows = (f"{item}\t{index * 7919 % 50 / 10}\n" for index, item in enumerate(ids))
    (folder / "en_en.tsv").write_text("".join(rows), encoding="utf-8")
    with pytest.warns(UserWarning):  # es_es, a primary track, is not submitted
        scores = leaderboard.score_predictions(REPO, folder, "evaluation")
    assert scores and all(value == round(value, 4) for value in scores.values())
    for text in (leaderboard.score_predictions.__doc__, readme_section()):
        words = " ".join(text.split())
        assert "4 decimals" in words and "hidden, or a refused file, raises" not in words


def test_score_predictions_names_the_bundle_as_given(tmp_path):
    """Not the temporary folder a zipped bundle is opened in."""
    from test_run_local_messages import zipped_bundle

    bundle = zipped_bundle(tmp_path / "ed.zip", ["Practice"])
    with pytest.raises(UsageError) as refused:
        leaderboard.score_predictions(bundle, tmp_path, "final")
    assert str(refused.value).startswith(f"phase: no such phase in {bundle}: final;")


def test_score_predictions_names_its_phase_argument_not_the_command_lines_option(tmp_path):
    """From Python there is no --phase: the argument is named as the function's, in a bundle and
    in a starting kit (whose gold of a phase may be hidden)."""
    from test_run_local_messages import fake_kit, zipped_bundle

    bundle = zipped_bundle(tmp_path / "ed.zip", ["Practice", "Final"])
    with pytest.raises(UsageError, match="; expected phase practice or final$"):
        leaderboard.score_predictions(bundle, tmp_path, "locall")
    kit = fake_kit(tmp_path / "kit", {"Local": True, "Practice": False})
    for phase, words in (("locall", "phase: no such phase: locall;"), ("practice", "phase prac")):
        with pytest.raises(UsageError) as refused:
            leaderboard.score_predictions(kit, tmp_path, phase)
        assert str(refused.value).startswith(words) and "--phase" not in str(refused.value)


# --- the README's section ----------------------------------------------------------------------

README_SECTION = "### Using the official metrics in your own code"


def readme_section() -> str:
    """The README's section on the library."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    return text.split(README_SECTION, 1)[1].split("\n## ", 1)[0].split("\n### ", 1)[0]


def test_the_readme_says_how_each_module_reads_labels_and_its_calls_give_what_it_says():
    """It said every module scores labels "as given", while lewidi's perspectivist functions read
    a string label as a number (" 1e0" matching "1"): each module's reading is said, with a call
    whose value it states, and each such call gives that value."""
    section = " ".join(readme_section().split())
    claims = re.findall(
        r"`((?:nli|lewidi|sts|chaosnli)\.\w+\(.*?\))` is (-?\d+(?:\.\d+)?)", section
    )
    assert {call.split("(")[0] for call, _ in claims} >= {"nli.accuracy", "lewidi.error_rate"}
    for call, value in claims:
        assert eval(call) == float(value), call  # noqa: S307 - the README's own calls
    assert "They score labels as given" not in section
    assert "read each annotator's label as a number" in section


def readme_examples(in_a_kit: bool) -> list[str]:
    """The Python blocks of the README's section on the library, in order: those that score a
    starting kit's folder (``in_a_kit``), or the others, which run anywhere."""
    blocks = re.findall(r"```python\n(.*?)```", readme_section(), re.S)
    return [code for code in blocks if ("score_predictions" in code) == in_a_kit]


def run_example(code: str, cwd: Path):
    """Run one block as a participant would (codajudge installed: here the checkout on the path)
    and pair each printed line with the value its ``print(...)  # value`` comment states."""
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO)},
    )
    assert done.returncode == 0, done.stderr
    stated = re.findall(r"^ *print\(.*\)  # (.*)$", code, re.M)
    assert stated and len(stated) == code.count("print(")
    return done.stdout.splitlines(), stated


def test_the_readme_metrics_examples_run_as_written_and_print_what_they_say(tmp_path):
    """The metrics on plain lists and the registry's directions and ranges."""
    examples = readme_examples(in_a_kit=False)
    assert len(examples) == 2
    for code in examples:
        printed, stated = run_example(code, tmp_path)
        assert printed == stated


def test_the_readme_folder_example_runs_in_a_starting_kit_whose_readme_points_to_it(
    bundles, tmp_path
):
    if not (REPO / "editions" / "default" / "data").is_dir():
        pytest.skip("editions/default/data is not there yet")
    tree = bundles.shipped("default", REPO / "editions" / "default").tree
    examples = readme_examples(in_a_kit=True)
    assert len(examples) == 2  # a folder scored, a refused file's problems as data
    for number, code in enumerate(examples):
        kit = shutil.copytree(tree / "starting_kit", tmp_path / f"starting_kit_{number}")
        printed, stated = run_example(code, kit)
        assert printed == stated
    kit_readme = (tree / "starting_kit" / "README.md").read_text(encoding="utf-8")
    assert f'"{README_SECTION[4:]}" in its README' in " ".join(kit_readme.split())
    # the kit README's way to the library in the kit itself (a participant has no clone)
    assert 'PYTHONPATH=ingestion_program python -c "from codajudge.metrics import sts"' in " ".join(
        kit_readme.split()
    )
    found = subprocess.run(
        [
            sys.executable,
            "-c",
            "import codajudge.metrics.sts, codajudge; print(codajudge.__file__)",
        ],
        cwd=kit,
        env={**os.environ, "PYTHONPATH": "ingestion_program"},
        capture_output=True,
        text=True,
    )
    assert Path(found.stdout.strip()).is_relative_to(kit / "ingestion_program"), found.stderr


# --- the LeWiDi metrics against the official definitions ----------------------------------------

needs_lewidi = pytest.mark.skipif(
    not official.PRACTICE_ZIP.is_file(),
    reason="../shared/data/lewidi2025 not found: the release lives beside the repository",
)

#: dataset -> (soft-label function, perspectivist function), as the 2025 tasks scored them.
LIBRARY = {
    "CSC": (lewidi.wasserstein, lambda g, p: lewidi.normalized_absolute_distance(g, p, 6)),
    "MP": (lewidi.manhattan, lewidi.error_rate),
    "Paraphrase": (lewidi.wasserstein, lambda g, p: lewidi.normalized_absolute_distance(g, p, 11)),
    "VariErrNLI": (lewidi.multilabel_manhattan, lewidi.multilabel_error_rate),
}


@needs_lewidi
@pytest.mark.parametrize("dataset", sorted(LIBRARY))
def test_the_library_gives_the_official_values_of_the_starter_kit_baseline(dataset):
    """The 2025 starter kit's most-frequent baseline on dev, in the official layouts (plain nested
    lists, ragged rows of each item's own annotators), scores the official values exactly."""
    train, dev = official.load(dataset, "train"), official.load(dataset, "dev")
    soft = official.baseline_soft(train, dataset)
    per, fallback = official.baseline_pe(train, dataset)
    gold_soft = [official.soft_gold(r, dataset) for r in dev.values()]
    gold_pe = [official.pe_gold(r, dataset) for r in dev.values()]
    pred_pe = [official.pe_row(r, dataset, per, fallback) for r in dev.values()]
    soft_metric, pe_metric = LIBRARY[dataset]
    assert soft_metric(gold_soft, [soft] * len(dev)) == official.soft_score(
        gold_soft, [soft] * len(dev), dataset
    )
    assert pe_metric(gold_pe, pred_pe) == pytest.approx(
        official.pe_score(gold_pe, pred_pe, dataset), abs=1e-15
    )


class Frame:
    """A stand-in for a pandas DataFrame (the CI has no pandas): numpy reads it as its rows by
    ``__array__``; iterating it, or indexing it, gives its column names' way, not items."""

    def __init__(self, rows):
        self.rows = rows
        self.columns = list(range(len(rows[0])))

    def __array__(self, dtype=None, copy=None):
        return np.array(self.rows, dtype=dtype)

    def __len__(self):
        return len(self.rows)

    def __iter__(self):
        return iter(self.columns)

    def __getitem__(self, column):
        return [row[column] for row in self.rows]


def test_what_numpy_reads_as_an_array_is_read_as_that_array():
    assert lewidi.manhattan(Frame([[0.5, 0.5]]), Frame([[1.0, 0.0]])) == 1.0
    assert lewidi.error_rate(Frame([[1, 0], [0, 0]]), [[1, 1], [0, 0]]) == 0.25
    with pytest.raises(ValueError, match=re.escape("gold has shape (3, 1); expected one score")):
        sts.pearson(Frame([[1], [2], [3]]), Frame([[1], [3], [2]]))


class Series(Frame):
    """A stand-in for a pandas Series of one value per item, with its ``index`` (item labels)."""

    def __init__(self, values, index):
        super().__init__([[value] for value in values])
        self.values, self.index = values, index

    def __array__(self, dtype=None, copy=None):
        return np.array(self.values, dtype=dtype)

    def take(self, order):
        position = {label: i for i, label in enumerate(self.index)}
        return Series([self.values[position[label]] for label in order], order)

    reindex = take


def test_inputs_with_different_indexes_are_refused_not_paired_by_position():
    """pred.loc[["d", "c", "a", "b"]] scored -0.88 against gold (0.97 aligned); equal indexes, or
    one input without an index, are paired by position as before."""
    gold = Series([0.0, 2.5, 5.0, 4.0], list("abcd"))
    pred = Series([0.1, 0.4, 0.9, 0.9], list("abcd"))
    assert (
        sts.pearson(gold, pred) == sts.pearson(gold, pred.values) == sts.pearson(gold.values, pred)
    )
    words = (
        "gold and predictions carry different indexes (pandas): 4 positions of 4 differ, the first "
        "position 0 (gold 'a', predictions 'd'); items are paired by position, not by index: "
        "align them first: pred.reindex(gold.index)"
    )
    shuffled = pred.take(list("dcab"))
    for call in (sts.pearson, sts.spearman):
        with pytest.raises(ValueError, match=re.escape(words)):
            call(gold, shuffled)
    with pytest.raises(ValueError, match=re.escape("1 position of 2 differ, the first position 1")):
        nli.accuracy(Series(["e", "n"], [0, 1]), Series(["e", "n"], [0, 2]))


class Ranged(list):
    """A list whose ``.index`` is a range of its own length, or of ``Ranged.size`` items."""

    size = None

    @property
    def index(self):
        return range(self.size or len(self))


class Huge(Ranged):
    size = 10**12


def test_an_index_of_another_length_than_the_values_is_not_theirs_and_never_copied():
    """lib.py: two lists whose ``.index`` is range(10**12) raised MemoryError (the index was
    copied); an ``.index`` whose length is not the values' is ignored (paired by position)."""
    plain = sts.pearson([1, 2, 3, 4], [1, 3, 2, 4])
    assert sts.pearson(Huge([1, 2, 3, 4]), Huge([1, 3, 2, 4])) == plain
    assert sts.pearson(Huge([1, 2, 3, 4]), Ranged([1, 3, 2, 4])) == plain
    assert sts.pearson(Series([1, 2, 3, 4], "ab"), Series([1, 3, 2, 4], "xy")) == plain
    with pytest.raises(
        ValueError, match=re.escape("2 positions of 4 differ, the first position 2")
    ):
        sts.pearson(Ranged([1, 2, 3, 4]), Series([1, 3, 2, 4], np.array([0, 1, 3, 2])))


class Unreadable(list):
    """A list whose ``.index`` raises."""

    @property
    def index(self):
        raise RuntimeError("boom")


class Endless(Ranged):
    size = 10**20  # len() raises OverflowError


def test_an_index_that_cannot_be_read_is_not_theirs():
    """lib.py: an ``.index`` property raising RuntimeError escaped as the user's exception; an
    index that cannot be read is ignored (paired by position, as before the check)."""
    plain = sts.pearson([1, 2, 3, 4], [1, 3, 2, 4])
    assert sts.pearson(Unreadable([1, 2, 3, 4]), Unreadable([1, 3, 2, 4])) == plain
    assert sts.pearson(Unreadable([1, 2, 3, 4]), Ranged([1, 3, 2, 4])) == plain
    assert sts.pearson(Endless([1, 2, 3, 4]), Endless([1, 3, 2, 4])) == plain


class Index(list):
    """A stand-in for a pandas Index: its labels, and ``astype``."""

    def astype(self, kind):
        return Index(map(np.dtype(kind).type if isinstance(kind, str) else kind, self))


def _follow_the_fix(error, gold, pred):
    """``pred`` after the code the message ends with (``pred.index = ...``)."""
    names = {"gold": gold, "pred": pred}
    exec(str(error.value).rsplit(": ", 1)[1], {}, names)
    return names["pred"]


@pytest.mark.parametrize(
    "gold_index, pred_index, words, fix",
    [
        ([0, 1, 2, 3], list("0123"), "another type (gold int, predictions str)", "astype(int)"),
        (list("0123"), [0, 1, 2, 3], "another type (gold str, predictions int)", "astype(str)"),
        ([0.5, 1, 2, 3], ["0.5", 1, 2, 3], "another type (gold float, ", "astype(float)"),
        (np.arange(4, dtype="int32"), list("0123"), "another type (gold int32, ", "('int32')"),
        ([0, 1, 2, 3], list("1230"), "another type (gold int, ", "astype(int)"),
    ],
)
def test_indexes_whose_labels_differ_in_type_are_told_to_convert_it(
    gold_index, pred_index, words, fix
):
    """lib.py: gold indexed 0..3 and predictions '0'..'3' were told pred.reindex(gold.index),
    which gives all NaN; the labels differ only in type: the fix given converts the index (and
    reindexes it, where the labels are in another order too)."""
    gold = Series([0.0, 2.5, 5.0, 4.0], Index(gold_index))
    by_text = dict(zip(map(str, gold_index), [0.1, 0.4, 0.9, 0.8]))
    pred = Series([by_text[str(label)] for label in pred_index], Index(pred_index))
    changed = sum(g != p for g, p in zip(gold_index, pred_index))
    with pytest.raises(ValueError, match=f"{changed} positions? of 4 differ") as error:
        sts.pearson(gold, pred)
    assert words in str(error.value) and f"{fix}; pred = pred.reindex(gold.index)" in str(
        error.value
    )
    pred = _follow_the_fix(error, gold, pred)
    assert sts.pearson(gold, pred) == sts.pearson(gold.values, list(by_text.values()))


def test_the_fix_for_an_index_of_another_type_works_in_pandas():
    """Followed with pandas: the labels written the same are converted; labels in another order
    too are converted, then reindexed (reindex alone gives all NaN)."""
    pd = pytest.importorskip("pandas")
    gold = pd.Series([0.0, 2.5, 5.0, 4.0], index=[0, 1, 2, 3])
    aligned = sts.pearson(gold.values, [0.1, 0.4, 0.9, 0.8])
    for index, words in (
        ("0123", "are of another type (gold int, predictions str), which pred.reindex"),
        ("1230", "are of another type (gold int, predictions str), which pred.reindex"),
    ):
        pred = pd.Series([0.1, 0.4, 0.9, 0.8], index=list("0123")).loc[list(index)]
        with pytest.raises(ValueError, match=re.escape(words)) as error:
            sts.pearson(gold, pred)
        assert sts.pearson(gold, _follow_the_fix(error, gold, pred)) == aligned


@pytest.mark.parametrize(
    "call, words",
    [
        (
            lambda: sts.pearson(np.ma.array([1, 2, 3, 4], mask=[0, 0, 0, 1]), [1, 3, 2, 100]),
            "gold: a masked array with 1 masked value of 4 (the first at index 3)",
        ),
        (
            lambda: nli.accuracy(["a", "b"], np.ma.array(["a", "b"], mask=[1, 1])),
            "predictions: a masked array with 2 masked values of 2 (the first at index 0)",
        ),
        (
            lambda: lewidi.error_rate([np.ma.array([1, 0], mask=[0, 1])], [[1, 0]]),
            "gold, item 0: a masked array with 1 masked value of 2 (the first at index 1)",
        ),
        (
            lambda: sts.pearson(np.array([1, 2, 3j]), [1, 3, 2]),
            "gold: expected real numbers; found complex numbers (complex128), 1 value of 3 with "
            "an imaginary part (the first at index 2): give real values",
        ),
        (
            lambda: lewidi.manhattan([[0.5, 0.5]], np.array([[0.5, 0.5]], dtype=complex)),
            "predictions: expected real numbers; found complex numbers (complex128), 0 values",
        ),
        (lambda: sts.pearson([1, 2, 3j], [1, 3, 2]), "found 3j, a complex number: give real"),
    ],
)
def test_masked_values_and_complex_numbers_are_refused_not_read_as_numpy_casts_them(call, words):
    """A masked value was scored as the value under its mask, a complex number as its real part
    (with numpy's ComplexWarning)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match=re.escape(words)):
            call()
    assert sts.pearson(np.ma.array([1.0, 2.0, 3.0]), [1, 3, 2]) == sts.pearson([1, 2, 3], [1, 3, 2])


def test_an_array_of_lists_is_read_as_the_rows_it_holds():
    gold = np.empty(2, dtype=object)  # pandas' df.gold.values: one list per row
    gold[:] = [[0.5, 0.5], [1.0, 0.0]]
    pred = [[0.6, 0.4], [0.9, 0.1]]
    assert lewidi.manhattan(gold, pred) == lewidi.manhattan(gold.tolist(), pred)
    assert chaosnli.jsd(gold, np.array(pred)) == chaosnli.jsd(gold.tolist(), pred)
    ragged = np.empty(2, dtype=object)
    ragged[:] = [[1, 0], [0, 0, 1]]
    assert lewidi.error_rate(ragged, [[1, 1], [0, 0, 1]]) == 0.25
    gold[1] = [1.0]
    with pytest.raises(ValueError, match=re.escape("gold, item 1: expected 2 values (as item 0)")):
        lewidi.manhattan(gold, pred)
    with pytest.raises(ValueError, match=re.escape("found array([[1., 0.], [0., 1.]]) (ndarray)")):
        nli.accuracy([np.eye(2)], ["a"])  # a repr of lines, given on one


@pytest.mark.parametrize("name", ["awd", "anad"])
@pytest.mark.parametrize("n_labels", [0, -1, 2.5, True])
def test_a_scale_dependent_range_without_its_scale_is_refused_naming_n_labels(name, n_labels):
    expected = "expected n_labels, a positive whole number (6 for CSC's 6 bins), found"
    with pytest.raises(
        ValueError,
        match=re.escape(f"metric {name!r}: its range grows") + ".*" + re.escape(expected),
    ):
        REGISTRY[name].bounds(n_labels)
    with pytest.raises(ValueError, match=re.escape("found none given: call bounds(n_labels=...)")):
        REGISTRY[name].bounds()  # not "found 0": nothing was given
    assert REGISTRY["awd"].bounds(n_labels=6) == (0.0, 5.0)
    assert REGISTRY["amd"].bounds() == (0.0, 2.0)  # a range of any scale needs none


def test_every_registered_metric_has_a_library_function():
    called = "".join(inspect.getsource(module) for module in PARTICIPANT_MODULES[:4])
    without = [name for name in REGISTRY if f'"{name}"' not in called]
    assert not without, f"no library function scores {without}"


def test_lewidi_2023_metrics_are_validated_as_the_others_are():
    assert lewidi.cross_entropy([[0.5, 0.5]], [[0.5, 0.5]]) == pytest.approx(math.log(2), abs=1e-8)
    with pytest.raises(ValueError, match=re.escape("predictions, item 0: distribution has a neg")):
        lewidi.cross_entropy([[0.5, 0.5]], [[1.2, -0.2]])
    assert nli.micro_f1(["1", "0", "0"], ["1", "1", "0"]) == pytest.approx(2 / 3)
    with pytest.raises(ValueError, match=re.escape("predictions, item 1: expected a name")):
        nli.micro_f1(["1", "0"], ["1", 0])


def test_the_readme_says_the_library_scores_labels_as_given_not_as_a_file_is_read():
    section = " ".join(readme_section().split())
    assert "The scoring program's reading of a file" in section
    assert "`nli` scores labels as given" in section
    assert 'so `nli.accuracy(["1"], ["1.0"])` is 0.0' in section
    assert nli.accuracy(["1"], ["1.0"]) == 0.0 and nli.accuracy(["entailment"], ["e"]) == 0.0


def test_score_predictions_says_a_code_submission_is_to_be_run_first(tmp_path):
    from codajudge.spec import CODE_NOT_RUN

    folder = tmp_path / "code_submission"
    folder.mkdir()
    (folder / "model.py").write_text("class Model:\n    pass\n", encoding="utf-8")
    with pytest.raises(SubmissionError) as refused:
        leaderboard.score_predictions(REPO, folder, "practice")
    assert "found model.py" in str(refused.value)
    assert "run_local.py . SUBMISSION --phase local --output out" in refused.value.problems[0].hint
    assert CODE_NOT_RUN[1:] in str(refused.value)


@pytest.mark.parametrize(
    "call, words",
    [
        (
            lambda: lewidi.error_rate(["[0, 1]"], [[0, 1]]),
            "gold, item 0: expected numbers, a label per annotator; found '[0, 1]', a list "
            "written as text: read it first (json.loads)",
        ),
        (
            lambda: lewidi.manhattan(["[0.5, 0.5]"], [[1, 0]]),
            "gold, item 0: expected numbers; found '[0.5, 0.5]', a list written as text",
        ),
        (
            lambda: nli.accuracy(np.array([0, 1])[:, None], np.array([0, 0])[:, None]),
            "a number, one per item (a column of labels: flatten it first, np.ravel); found "
            "array([0]) (ndarray)",
        ),
        (
            lambda: sts.pearson(np.arange(3.0)[:, None], [1, 2, 3]),
            "(1 axis, items first); a column of one value per item: flatten it first (np.ravel)",
        ),
    ],
)
def test_messages_say_how_to_give_a_list_written_as_text_or_a_column(call, words):
    with pytest.raises(ValueError, match=re.escape(words)) as refused:
        call()
    assert "all of one length" not in str(refused.value)


@pytest.mark.parametrize(
    "call, words",
    [
        (
            lambda: lewidi.multilabel_manhattan([[[0.5, 0.5]] * 3], [[0.2, 0.5, 0.9]]),
            "predictions has shape (1, 3); expected one [not chosen, chosen] per label for every "
            "item (3 axes, items first); for one P(chosen) per label (p, as a sigmoid gives), "
            "give np.stack([1 - p, p], -1)",
        ),
        (
            lambda: lewidi.wasserstein([[0, 0, 0, 0, 0, 1]] * 2, [[0, 0, 0, 0, 0, 0, 1]] * 2),
            "gold has shape (2, 6) but the predictions (2, 7); expected one distribution for "
            "every item, of one length in both; 7 bins against the gold's 6: a leading bin",
        ),
    ],
)
def test_messages_say_how_to_give_one_p_chosen_per_label_or_an_extra_leading_bin(call, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        call()


def test_an_undefined_correlation_warns_as_score_predictions_does():
    with pytest.warns(UserWarning, match=re.escape("Pearson r: ")) as caught:
        assert sts.pearson([1.0, 2.0, 3.0], [2.0, 2.0, 2.0]) == 0.0
    assert len(caught) == 1 and caught[0].filename == __file__  # the caller's line
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert sts.spearman([1.0, 2.0, 3.0], [1.0, 3.0, 2.0]) == pytest.approx(0.5)


def test_a_distribution_of_one_bin_more_with_mass_in_the_first_gets_no_leading_bin_hint():
    """Binary gold and 3-class predictions (a trial's cross_entropy call) were told to drop a CSC
    practice-phase bin: the hint is only for a first bin nearly empty in every row."""
    with pytest.raises(ValueError) as refused:
        lewidi.cross_entropy([[0.5, 0.5]], [[0.3, 0.3, 0.4]])
    assert "leading bin" not in str(refused.value)
    assert "gold has shape (1, 2) but the predictions (1, 3)" in str(refused.value)


def test_equal_indexes_holding_nan_are_one_index():
    """regress-c: two Series of the index [0, 1, nan, 3] (equal as pandas' Index.equals takes
    them) were refused as different at position 2, and the fix given repeated the refusal; a NaN
    label against another is told to reindex, not to convert a type."""
    plain = sts.pearson([1, 2, 3, 4], [1, 3, 2, 4])
    index = [0.0, 1.0, float("nan"), 3.0]
    assert sts.pearson(Series([1, 2, 3, 4], index), Series([1, 3, 2, 4], list(index))) == plain
    with pytest.raises(ValueError, match="the first position 2") as error:
        sts.pearson(Series([1, 2, 3, 4], index), Series([1, 3, 2, 4], [0, 1, 2, 3]))
    assert str(error.value).endswith("align them first: pred.reindex(gold.index)")
