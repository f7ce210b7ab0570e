"""The submission reader's rules, one named case each, on valid files of the hostile edition edited
the ways participants write them; what is accepted (with its note); and a property over arbitrary
values (hypothesis, derandomized, bounded; arbitrary file contents are fuzzed in ``test_fuzz.py``).

Each case reads one track file through the scoring program's reader (``scoring.read_track_file``)
and pins where the refusal points (file, line, item) and the parts that state the rule. The hostile
corpus's cases (``hostile/corpus.py``) run through the scoring program itself in ``test_hostile.py``.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hostile import edition, reading
from hostile.reading import TRACKS
from hostile.rules import Refusal, assert_refused
from codajudge.errors import SubmissionError
from codajudge.formats.soft import _probabilities, _summing_to_one, soft_label
from codajudge.formats.values import ValueProblem
from codajudge.metrics import PerAnnotator
from codajudge.metrics import get as get_metric
from codajudge.tracks import track_from_dict


def read(tmp_path: Path, track_id: str, lines: list[str]):
    """The track file of ``lines`` read as the hostile edition's track ``track_id``."""
    path = tmp_path / f"{track_id}.tsv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return reading.read(path, track_id)


def valid(track_id: str) -> list[str]:
    return edition.valid_lines(track_id)


def values(track_id: str) -> list[tuple]:
    """(id, value read from JSON) of each valid line."""
    return [(i, json.loads(v)) for i, v in (line.split("\t") for line in valid(track_id))]


def with_values(track_id: str, change) -> list[str]:
    """The valid lines with each value replaced by ``change(value)``, written as JSON."""
    return [f"{i}\t{json.dumps(change(v))}" for i, v in values(track_id)]


def label_major(track_id: str) -> list[list]:
    """Each multilabel item's choices as one 0/1 vector per label over its annotators."""
    labels = TRACKS[track_id].labels
    return [
        [[int(label in c) for c in chosen] for label in labels] for _, chosen in values(track_id)
    ]


# --- refusals ------------------------------------------------------------------------------------


def _refusal_cases():
    """name -> (track id, lines, refusal)."""
    sim = valid("sim")
    scores = [line.split("\t")[1] for line in sim]
    for track_id in sorted(TRACKS):
        lines, first = valid(track_id), valid(track_id)[0].split("\t")[0]
        file = f"{track_id}.tsv"
        yield (
            f"{track_id}: duplicate id",
            track_id,
            lines[:1] + lines,
            Refusal(file, "duplicate id", line=2, item=first),
        )
        yield (
            f"{track_id}: an item without a prediction",
            track_id,
            lines[1:],
            Refusal(file, f"9 items has no prediction (the file has 8 of them): {first!r}"),
        )
        yield (
            f"{track_id}: an id not in the track",
            track_id,
            lines + ["zz99\t1"],
            Refusal(
                file, "unknown id: not an item of this track", line=len(lines) + 1, item="zz99"
            ),
        )
    yield (
        "sim: a score in quotes",
        "sim",
        [f"{i}\t{json.dumps(s)}" for i, s in (line.split("\t") for line in sim)],
        Refusal(
            "sim.tsv", "not a number", expected="a decimal number", found="'\"1.50\"' on line 1"
        ),
    )
    yield (
        "sim: line numbers in the first column",
        "sim",
        [f"{k}\t{s}" for k, s in enumerate(scores)],
        Refusal(
            "sim.tsv",
            "none of the ids in this file belong to the track",
            expected="lines such as 's01'<TAB>3.2",
            found="ids such as '0' on line 1",
        ),
    )
    yield (
        "sim: NaN",
        "sim",
        ["s01\tnan"] + sim[1:],
        Refusal("sim.tsv", "not a finite number", line=1, item="s01", found="'nan'"),
    )
    yield (
        "sim: infinity",
        "sim",
        ["s01\t1e999"] + sim[1:],
        Refusal(
            "sim.tsv",
            "number out of range",
            line=1,
            item="s01",
            expected="finite numbers",
            found="'1e999'",
        ),
    )
    yield (
        "cls: a label in JSON quotes",
        "cls",
        with_values_text("cls"),
        Refusal(
            "cls.tsv",
            "label outside the track's label set",
            expected="one of entailment, neutral, contradiction",
            found="'\"entailment\"' on line 1",
        ),
    )
    yield (
        "cls: an unknown label",
        "cls",
        ["n01\tmaybe"] + valid("cls")[1:],
        Refusal(
            "cls.tsv", "label outside the track's label set", line=1, item="n01", found="'maybe'"
        ),
    )
    for track_id, total in (("soft_cat", 1.03), ("soft_ord", 1.03)):
        yield (
            f"{track_id}: a soft label 3% off",
            track_id,
            with_values(track_id, lambda v: [x * 1.03 for x in v]),
            Refusal(
                f"{track_id}.tsv",
                "soft label does not sum to 1",
                expected="a sum within 0.02 of 1",
                found=f"sum {total} on line 1",
            ),
        )
    yield (
        "soft_cat: one probability too many",
        "soft_cat",
        with_values("soft_cat", lambda v: v + [0.0]),
        Refusal(
            "soft_cat.tsv",
            "wrong soft label length",
            expected="a list of 3 probabilities",
            found="4 values on line 1",
        ),
    )
    yield (
        "soft_cat: a negative probability",
        "soft_cat",
        ["n01\t[-0.2, 0.7, 0.5]"] + valid("soft_cat")[1:],
        Refusal(
            "soft_cat.tsv",
            "negative probability",
            line=1,
            item="n01",
            expected="probabilities >= 0",
            found="-0.2",
        ),
    )
    yield (
        "soft_ml: a multilabel pair given as one number",
        "soft_ml",
        with_values("soft_ml", lambda v: v[:1] + [p for _, p in v[1:]]),
        Refusal(
            "soft_ml.tsv",
            "wrong pair for 'neutral'",
            expected="a list of 2 probabilities",
            found="'0.3' on line 1",
        ),
    )
    for track_id in ("persp_cat", "persp_ord", "persp_ml"):
        yield (
            f"{track_id}: one annotator entry short",
            track_id,
            with_values(track_id, lambda v: v[:-1]),
            Refusal(
                f"{track_id}.tsv",
                "wrong number of annotator entries",
                expected="7 entries, one per annotator of the item in this order: ann1",
                found="6 entries on line 1",
            ),
        )
    yield (
        "persp_ml: label-major vectors of the wrong count",
        "persp_ml",
        [
            f"{i}\t{json.dumps(m[:-1])}"
            for (i, _), m in zip(values("persp_ml"), label_major("persp_ml"))
        ],
        Refusal(
            "persp_ml.tsv",
            "0/1 vectors are read label-major",
            expected="3 vectors of 0/1 (entailment, neutral, contradiction)",
            found="2 vectors of 7 entries on line 1",
        ),
    )
    yield (
        "persp_ml: a 2 in a label vector",
        "persp_ml",
        [
            f"{i}\t{json.dumps([row + [2] for row in m])}"
            for (i, _), m in zip(values("persp_ml"), label_major("persp_ml"))
        ],
        Refusal(
            "persp_ml.tsv",
            "a value other than 0 or 1",
            found="'2' in the vector of label 'entailment', entry 8 (the item has 7 annotators) "
            "on line 1",
        ),
    )
    empty = edition.EMPTY_INDEX
    lines = valid("persp_cat")
    lines[empty] = lines[empty].replace("[]", '["entailment"]')
    yield (
        "persp_cat: an entry for an item without annotators",
        "persp_cat",
        lines,
        Refusal(
            "persp_cat.tsv",
            "wrong number of annotator entries",
            line=empty + 1,
            item="n09",
            expected="an empty list []: the item has no annotators",
            found="1 entries",
        ),
    )


def with_values_text(track_id: str) -> list[str]:
    """The valid lines with each (text) value written as a JSON string."""
    return [f"{i}\t{json.dumps(v)}" for i, v in (line.split("\t") for line in valid(track_id))]


REFUSALS = {name: (track_id, lines, refusal) for name, track_id, lines, refusal in _refusal_cases()}


@pytest.mark.parametrize("name", sorted(REFUSALS))
def test_refusal(name, tmp_path):
    track_id, lines, refusal = REFUSALS[name]
    assert_refused(lambda: read(tmp_path, track_id, lines), refusal)


# --- accepted, with the note a participant sees --------------------------------------------------


def _accepted_cases():
    """name -> (track id, lines, format, the warning's key phrase or '')."""
    for track_id in sorted(TRACKS):
        lines = valid(track_id)
        yield f"{track_id}: as written", track_id, lines, "id", ""
        shuffled = list(reversed(lines))
        yield (
            f"{track_id}: a header, any order",
            track_id,
            ["id\tprediction"] + shuffled,
            "id",
            ("read as a header and skipped"),
        )
        yield (
            f"{track_id}: two tabs",
            track_id,
            [line.replace("\t", "\t\t", 1) for line in lines],
            "id",
            "",
        )
    scores = [line.split("\t")[1] for line in valid("sim")]
    yield "sim: one score a line", "sim", scores, "positional", ""
    yield "sim: a second column ignored", "sim", [s + "\t80" for s in scores], "positional", ""
    yield (
        "sim: padded scores and blank lines",
        "sim",
        [f" {s} \t 9.5 " for s in scores]
        + [
            "",
            "",
        ],
        "positional",
        "",
    )
    for track_id in ("soft_cat", "soft_ord"):
        yield (
            f"{track_id}: renormalised",
            track_id,
            with_values(track_id, lambda v: [x * 1.01 for x in v]),
            "id",
            "summed to within 0.02 of 1 and were renormalised",
        )
        yield (
            f"{track_id}: labels as keys",
            track_id,
            [
                f"{i}\t{json.dumps(dict(zip(TRACKS[track_id].labels, v)))}"
                for i, v in values(track_id)
            ],
            "id",
            "",
        )
    yield (
        "soft_ord: an extra empty leading bin",
        "soft_ord",
        with_values("soft_ord", lambda v: [0] + v),
        "id",
        "extra, empty leading bin",
    )
    yield (
        "soft_ml: P(chosen) only",
        "soft_ml",
        with_values("soft_ml", lambda v: [p for _, p in v]),
        "id",
        "were one P(chosen) per label and were read as [1 - P(chosen), P(chosen)] pairs: given "
        "as a list",
    )
    yield (
        "persp_ml: label-major 0/1 vectors",
        "persp_ml",
        [f"{i}\t{json.dumps(m)}" for (i, _), m in zip(values("persp_ml"), label_major("persp_ml"))],
        "id",
        "",
    )
    for convert in (int, float, str):
        yield (
            f"persp_ord: labels as {convert.__name__}",
            "persp_ord",
            with_values("persp_ord", lambda v: [convert(int(x)) for x in v]),
            "id",
            "",
        )


ACCEPTED = {name: case for name, *case in _accepted_cases()}


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_accepted(name, tmp_path):
    track_id, lines, layout, warning = ACCEPTED[name]
    prediction = read(tmp_path, track_id, lines)
    assert prediction.format == layout
    assert any(warning in w for w in prediction.warnings) if warning else not prediction.warnings
    reference = read(tmp_path, track_id, valid(track_id))
    if isinstance(reference.values, PerAnnotator):
        assert np.array_equal(prediction.values.values, reference.values.values)
    elif "renormalised" not in warning:
        assert np.allclose(prediction.values, reference.values)


def test_the_semeval_2017_gold_files_read_as_positional_submissions(tmp_path):
    """The real STS 2017 gold files are one score per line."""
    from conftest import shared_data
    from codajudge.formats import submission

    for gs in sorted(shared_data("sts2017").glob("STS.gs.track*.txt")):
        scores = np.loadtxt(gs, ndmin=1)
        keys = submission.ItemKeys([f"p{k}" for k in range(len(scores))])
        prediction = submission.read_prediction(gs, gs.name, TRACKS["sim"], keys)
        assert prediction.format == "positional" and np.array_equal(prediction.values, scores)


# --- property: any value in any track --------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=8)
    | st.sampled_from(edition.NLI + edition.ORDINAL),
    lambda inner: (
        st.lists(inner, max_size=8) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=20,
)


@settings(
    max_examples=300,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
@given(
    track_id=st.sampled_from(sorted(TRACKS)),
    value=JSON_VALUES,
    as_text=st.booleans(),
)
def test_any_value_is_read_as_finite_numbers_or_refused_at_its_line(
    track_id, value, as_text, tmp_path_factory
):
    """One item's value replaced by any JSON value (or its text unquoted): the file is accepted with
    finite values, or refused at that item's line and id."""
    text = value if as_text and isinstance(value, str) else json.dumps(value)
    lines = valid(track_id)
    item_id = lines[edition.BAD_INDEX].split("\t")[0]
    lines[edition.BAD_INDEX] = f"{item_id}\t{text}"
    try:
        prediction = read(tmp_path_factory.getbasetemp(), track_id, lines)
    except SubmissionError as e:
        located = [p for p in e.problems if p.line == edition.BAD_INDEX + 1 or item_id in p.items]
        assert located and all(p.file == f"{track_id}.tsv" for p in e.problems), str(e)
        return
    values = prediction.values
    array = values.values if isinstance(values, PerAnnotator) else values
    assert np.all(np.isfinite(np.asarray(array, dtype=float)))


FOUR_LABELS = track_from_dict(
    {"id": "four", "kind": "soft_label", "scale": "categorical", "labels": ["a", "b", "c", "d"]}
)


@settings(max_examples=300, derandomize=True, database=None, deadline=None)
@given(raw=st.lists(st.floats(0.001, 1), min_size=4, max_size=4))
def test_a_soft_label_is_divided_by_its_sum_as_numpy_adds_it(raw):
    """A row is renormalised by numpy's sum of it (``p / p.sum()``, as the official scripts do), to
    the last bit, whatever the Python: from 3.12 ``sum`` compensates for rounding, and
    [0.7, 0.1, 0.1, 0.1] adds up to 1.0 there but to 0.9999999999999999 in numpy."""
    row = [x / sum(raw) for x in raw]  # a sum within rounding of 1
    probabilities, _ = soft_label(row, FOUR_LABELS)
    array = np.asarray(row)
    assert probabilities == (array / array.sum()).tolist()


def test_a_row_python_3_12_adds_up_to_1_is_divided_by_numpy_s_sum():
    probabilities, _ = soft_label([0.7, 0.1, 0.1, 0.1], FOUR_LABELS)
    assert probabilities == (np.asarray([0.7, 0.1, 0.1, 0.1]) / 0.9999999999999999).tolist()


@pytest.mark.parametrize("row", [[0.48, 0.5, 0, 0], [0.52, 0.5, 0, 0], [0.3, 0.3, 0.3, 0.08]])
def test_a_sum_at_the_documented_bound_is_renormalised_despite_rounding(row):
    """A sum of exactly 0.98 or 1.02 is within 0.02 of 1, though ``abs(0.98 - 1)`` is
    0.020000000000000018 in floating point."""
    probabilities, notes = soft_label(row, FOUR_LABELS)
    assert sum(probabilities) == pytest.approx(1) and notes


def test_an_empty_row_is_refused_as_not_summing_to_1():
    """No reader passes an empty row (a track has at least two labels, the metrics refuse an empty
    axis), but the rule itself refuses one as any row off its sum, never by ``max()`` of nothing;
    an empty list of P(chosen) values has none above 1."""
    with pytest.raises(ValueProblem) as refused:
        _summing_to_one([], 0, "soft label")
    assert vars(refused.value) == {
        "message": "soft label does not sum to 1",
        "expected": "a sum within 0.02 of 1",
        "found": "sum 0",
        "hint": "give each label's probability, the row summing to 1 (all zeros gives none)",
        "kinds": (),
    }
    assert _probabilities([], 0, "soft label", chosen=True) == []


#: A multilabel soft-label track (lewidi2025's ven_soft): each label's pair sums to 1.
MULTILABEL = track_from_dict(
    {
        "id": "ven_soft",
        "kind": "soft_label",
        "dataset": "ven",
        "scale": "multilabel",
        "labels": ["e", "n", "c"],
    }
)


def test_a_negative_probability_of_a_multilabel_pair_is_told_the_pair_sums_to_1():
    """On a multilabel track each label's pair [P(not), P(chosen)] sums to 1, not the row: the hint
    said "the row summing to 1", which done literally gives an invalid file (a trial's ven_soft)."""
    with pytest.raises(ValueProblem) as caught:
        soft_label([[1.1, -0.1], [0.5, 0.5], [1, 0]], MULTILABEL)
    assert caught.value.message == "pair for 'e' has a negative probability"
    assert "give each label's probability, the pair for 'e' summing to 1" in caught.value.hint


def test_a_multilabel_pair_not_summing_to_1_is_told_to_divide_by_the_pairs_sum():
    """The fix said "divide each value by the row's sum": on a multilabel track the pair sums to 1,
    and dividing by the row's sum was refused again (a trial's ven_soft)."""
    with pytest.raises(ValueProblem) as caught:
        soft_label([[0.7, 0.2], [0.6, 0.4], [0.5, 0.5]], MULTILABEL)
    assert caught.value.hint == "divide each value by the pair's sum"


@pytest.mark.parametrize(
    "row", [[6.89, 7.26, 6.35, 0.5], [40, 30, 20, 10]], ids=["logits", "percent"]
)
def test_values_above_1_are_told_of_logits_and_counts_not_only_to_divide(row):
    """Positive logits (a trial's ChaosNLI [6.89, 7.26, 6.35]) were told only "divide each value by
    the row's sum", which gives a wrong distribution: the hint names the softmax too, and the
    division for counts or percentages."""
    with pytest.raises(ValueProblem) as caught:
        soft_label(row, FOUR_LABELS)
    assert "logits), apply a softmax" in caught.value.hint
    assert caught.value.hint.endswith(
        "if counts or percentages, divide each value by the row's sum"
    )


def test_a_soft_label_object_lacking_a_label_is_read_with_a_note_naming_it_and_its_lines(tmp_path):
    """{"a": 0.5, "b": 0.5} on a track of four labels was scored with c and d at 0 and no note (a
    trial's ChaosNLI file without "c": KL 7.0); the note names the missing labels and the lines."""
    from codajudge.formats.submission import ItemKeys, read_prediction

    path = tmp_path / "four.tsv"
    lines = ['i0\t{"a": 0.5, "b": 0.5}', 'i1\t{"a": 0.2, "b": 0.3, "c": 0.1, "d": 0.4}']
    lines += [f'i{i}\t{{"a": 0.5, "b": 0.5}}' for i in range(2, 9)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    read = read_prediction(path, "four.tsv", FOUR_LABELS, ItemKeys([f"i{i}" for i in range(9)]))
    assert read.values[0].tolist() == [0.5, 0.5, 0, 0]
    assert read.warnings == [
        "8 soft label objects lacked labels, each read as probability 0 (a forgotten label can "
        f"worsen this track's {TITLES}: give every label, 0 where meant): no 'c', 'd' (8 items); "
        "on lines 1, 3, 4, 5, 6 and 3 more"
    ]


#: The titles of FOUR_LABELS's metrics (the kind's defaults), as the note names them.
TITLES = " and ".join(get_metric(metric).title for metric in FOUR_LABELS.metrics)


@pytest.mark.parametrize(
    ("metrics", "titles"),
    [(["amd"], "Avg Manhattan dist"), (["jsd", "kl"], "Jensen-Shannon distance and KL divergence")],
)
def test_the_missing_label_note_names_the_tracks_own_metrics(tmp_path, metrics, titles):
    """t61 OCNLI softmissingkey.zip: the note said "a forgotten label costs much KL divergence" on
    a track scored by Manhattan distance only; it names the track's metrics by their titles."""
    from codajudge.formats.submission import ItemKeys, read_prediction

    track = replace(FOUR_LABELS, metrics=tuple(metrics))
    path = tmp_path / "four.tsv"
    path.write_text('i0\t{"a": 0.5, "b": 0.5}\n', encoding="utf-8")
    warnings = read_prediction(path, "four.tsv", track, ItemKeys(["i0"])).warnings
    assert f"(a forgotten label can worsen this track's {titles}: give" in warnings[0]
    assert ("KL" in warnings[0]) == ("kl" in metrics)


def test_a_pair_of_zeros_is_not_told_to_divide_by_its_sum():
    """A ven_soft pair [0, 0] was told "divide each value by the pair's sum", which is 0."""
    with pytest.raises(ValueProblem) as caught:
        soft_label([[0, 0], [0.5, 0.5], [1, 0]], MULTILABEL)
    assert caught.value.hint == (
        "give each label's probability, the pair summing to 1 (all zeros gives none)"
    )


def test_an_empty_track_file_is_told_it_may_be_removed_to_leave_the_track_out(tmp_path):
    """An empty placeholder en_en.tsv, for a track not taken part in, refused the submission with
    only "check that predictions were written": the hint names the track the file may be removed
    to leave out."""
    track_id = next(iter(TRACKS))
    path = tmp_path / f"{track_id}.tsv"
    path.write_bytes(b"")
    with pytest.raises(SubmissionError) as refused:
        reading.read(path, track_id)
    assert str(refused.value).endswith(
        f"Check that predictions were written, or remove the file to leave track "
        f"'{TRACKS[track_id].id}' out"
    ), str(refused.value)
