"""The readers read each input once, by one path, and a clean file never takes the message path.

``submission.read_prediction`` is one reader (bulk masks, messages only for flagged rows): clean
files must never reach its per-row message builder, and its outcomes over the hostile corpus,
fuzzed contents and edited files are the recorded ones (``hostile/record_submission.py``).
The reference readers (``items.read_items``/``read_item_columns``, ``gold.build_gold``/``gold_from_columns``)
have one path each: clean files (the hostile edition's, the real LeWiDi releases) are read with the
message builders made to raise, and mutated items give the outcomes recorded in
``hostile/expected_gold.json`` (identical messages). The text-file reader's own tests are in
``test_textfile.py``. ``outcome()`` fails on any crash.
"""

from __future__ import annotations

import base64
import json
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import shared_data
from hostile import edition, fuzz, gold_cases, record_submission
from judgekit import gold as gold_module
from judgekit.errors import ConfigError, SubmissionError
from judgekit.formats import items as items_module
from judgekit.formats import submission
from judgekit.formats.items import read_items
from judgekit.gold import build_gold
from judgekit.metrics import PerAnnotator
from judgekit.spec import spec_from_dict

SPEC = spec_from_dict(edition.spec(), "task.json")
TRACKS = {t.id: t for t in SPEC.tracks}
GOLD = {t.id: build_gold(t, edition.items_of(t.id), "gold") for t in SPEC.tracks}


def outcome(action):
    """('ok', result) or ('error', error type, message) of calling ``action``. Any other exception is a
    crash, a bug of the kit on either path, and fails the test (two equal crashes are no agreement)."""
    try:
        return ("ok", action())
    except (SubmissionError, ConfigError) as e:
        return ("error", type(e).__name__, str(e))


def same_values(a, b) -> bool:
    if isinstance(a, PerAnnotator) or isinstance(b, PerAnnotator):
        return (
            isinstance(a, PerAnnotator)
            and isinstance(b, PerAnnotator)
            and a.item is b.item
            and a.offsets is b.offsets
            and (a.n_items, a.n_labels) == (b.n_items, b.n_labels)
            and same_values(a.values, b.values)
        )
    return (
        isinstance(a, np.ndarray)
        and a.dtype == b.dtype
        and a.shape == b.shape
        and np.array_equal(a, b)
    )


# --- submissions: one reader, messages only for flagged rows -------------------------------------

read = (
    record_submission.read
)  # read_prediction as the hostile edition's track, the way the recording read it


def _refuse_per_row(*args, **kwargs):
    raise AssertionError("a clean file took the per-row message builder")


@pytest.fixture
def rows_never_explained(monkeypatch):
    """The per-row rules (``_explain``) and the id messages (``_id_problems``) made to fail: a clean
    file must be read a whole column at a time."""
    monkeypatch.setattr(submission, "_explain", _refuse_per_row)
    monkeypatch.setattr(submission, "_id_problems", _refuse_per_row)


def _shuffled_valid(track_id: str, header: bool = False, crlf: bool = False) -> bytes:
    lines = edition.valid_lines(track_id)
    random.Random(track_id).shuffle(lines)
    if header:
        lines = ["id\tprediction"] + lines
    return ("\r\n" if crlf else "\n").join(lines).encode() + b"\n"


@pytest.mark.parametrize("track_id", sorted(TRACKS))
def test_clean_files_never_take_the_per_row_messages(track_id, tmp_path, rows_never_explained):
    path = tmp_path / f"{track_id}.tsv"
    for content in (
        edition.valid_file(track_id),
        _shuffled_valid(track_id, header=True, crlf=True),
    ):
        path.write_bytes(content)
        prediction = read(path, track_id)
        values = (
            prediction.values.values
            if isinstance(prediction.values, PerAnnotator)
            else prediction.values
        )
        assert np.isfinite(values).all() and prediction.format == "id"


def test_label_major_multilabel_rows_are_read_a_column_at_a_time(tmp_path, rows_never_explained):
    track = TRACKS["persp_ml"]
    lines = []
    for line in edition.valid_lines("persp_ml"):
        item_id, value = line.split("\t")
        chosen = json.loads(value)
        lines.append(
            f"{item_id}\t{json.dumps([[int(label in c) for c in chosen] for label in track.labels])}"
        )
    path = tmp_path / "persp_ml.tsv"
    path.write_text("\n".join(lines) + "\n")
    label_major = read(path, "persp_ml")
    path.write_bytes(edition.valid_file("persp_ml"))
    assert same_values(label_major.values.values, read(path, "persp_ml").values.values)


def test_positional_files_never_take_the_per_row_messages(tmp_path, rows_never_explained):
    path = tmp_path / "sim.tsv"
    scores = [line.split("\t")[1] for line in edition.valid_lines("sim")]
    for content in (
        "\n".join(scores) + "\n",
        "\n".join(s + "\t80" for s in scores) + "\n",
        "\n".join(f" {s} \t 9.5 " for s in scores) + "\n\n\n",
    ):
        path.write_text(content)
        prediction = read(path, "sim")
        assert prediction.format == "positional" and prediction.values.tolist() == list(
            map(float, scores)
        )


def test_the_semeval_2017_gold_files_read_as_positional_submissions(tmp_path, rows_never_explained):
    """The real STS 2017 gold files are one score per line: clean positional files."""
    for gs in sorted(shared_data("sts2017").glob("STS.gs.track*.txt")):
        scores = np.loadtxt(gs, ndmin=1)
        keys = submission.ItemKeys([f"p{k}" for k in range(len(scores))])
        prediction = submission.read_prediction(gs, gs.name, TRACKS["sim"], keys)
        assert prediction.format == "positional" and np.array_equal(prediction.values, scores)


#: Recorded outcomes changed on purpose, each with its reason: case name -> the outcome now.
CHANGED = {
    # Row numbers (enumerate) and a tab before each score, on a track whose ids are not row numbers: it
    # was read positionally, the row numbers taken for scores and the scores for confidences (a silent
    # mis-score: Pearson r 0.08 for a 0.91 system on the 2017 practice data). Now refused.
    "variant-sim-10": [
        "error",
        "SubmissionError",
        "sim.tsv: the first column holds whole numbers, each once, up to "
        "8: item ids or line numbers, not scores; expected ID<TAB>SCORE lines with the track's ids "
        "(such as 's01'<TAB>3.2) or one score per line in input order, found lines such as '0\\t1.50'. "
        "Write each item's id (the 'id' field of the input file) and a tab before its score",
    ],
}


def _example_of(example: str):
    """The recorded outcome with the example of the "not valid JSON" message replaced by ``example``."""
    return lambda outcome: (
        outcome[:2]
        + [outcome[2].replace("a JSON list such as [0.2, 0.8]", f"a JSON list such as {example}")]
    )


#: The "not valid JSON" message said "expected a JSON list such as [0.2, 0.8]" on every track, a soft label
#: of two values even where a row is a list of labels (perspectivist) or of pairs (multilabel): it now gives
#: the track's own example (``values.describe_value``). Nothing else in these outcomes changed.
TRACK_EXAMPLES = {
    "soft_cat": "[0.3333, 0.3333, 0.3334]",
    "soft_ord": "[0.1667, 0.1667, 0.1667, 0.1667, 0.1667, 0.1665]",
    "soft_ml": "[[0.5, 0.5], [0.5, 0.5], [0.5, 0.5]]",
    "persp_cat": '["entailment", "contradiction"]',
    "persp_ord": '["1", "6"]',
    "persp_ml": "[[1, 0], [0, 0], [0, 1]]",
}
CHANGED.update(
    {
        name: _example_of(TRACK_EXAMPLES[track])
        for track, names in {
            "soft_cat": [
                "empty_value",
                "value_01_nan",
                "value_07_0x1p3",
                "value_08_uff11",
                "value_09_",
                "value_10_0.5_0.5",
                "value_11_single_quotes",
                "value_18_0x1p3_0_0",
                "value_19_uff11_0_0",
                "value_30_0.5_0.5_0_trailing",
            ],
            "soft_ord": [
                "empty_value",
                "value_09_0x1p3_0_0_0_0_0",
                "value_10_uff11_0_0_0_0_0",
                "value_21_0.5_0.5_0_0_0_0_trailin",
            ],
            "soft_ml": ["empty_value", "value_09_0x1p3_0_0", "value_10_uff11_0_0"],
            "persp_cat": [
                "empty_value",
                "value_01_nan",
                "value_07_0x1p3",
                "value_08_uff11",
                "value_09_",
                "value_10_0.5_0.5",
                "value_11_single_quotes",
            ],
            "persp_ord": ["empty_value"],
            "persp_ml": ["empty_value"],
        }.items()
        for name in (f"{track}/{n}" for n in names)
    }
)
CHANGED.update(
    {
        name: _example_of(TRACK_EXAMPLES["soft_ml"])
        for name in (
            "fuzz-78",
            "fuzz-79",
            "fuzz-80",
            "fuzz-81",
            "fuzz-82",
            "fuzz-83",
            "fuzz-102",
            "fuzz-103",
            "fuzz-104",
        )
    }
)
CHANGED.update(
    {name: _example_of(TRACK_EXAMPLES["soft_cat"]) for name in ("fuzz-88", "fuzz-89", "fuzz-90")}
)
#: A whole number where the labels are names (CLUE's {"id": 0, "label": 1} written from a class index) is
#: still refused, now with the hint that labels are names, naming the label that index would be.
NAMES_HINT = (
    ". Labels are names, not class indices: write the name itself (if 0 is an index from 0 in the order "
    "entailment, neutral, contradiction, that is 'entailment'; your model's own label order may differ)"
)
CHANGED.update(
    {
        name: (lambda outcome: outcome[:2] + [outcome[2] + NAMES_HINT])
        for name in ("cls/value_13_0", "persp_cat/value_24_0_entailment_entailment")
    }
)
#: The leading-bin warning named "the 7-bin practice-phase format" on any ordinal track; K+1 is 7 only on CSC.
LEADING_BIN = (
    "(the 7-bin practice-phase format)",
    "(one value more than the track's labels, the 2025 practice-phase layout)",
)
CHANGED.update(
    {
        name: (
            lambda outcome: (
                outcome[:2] + [[w.replace(*LEADING_BIN) for w in outcome[2]]] + outcome[3:]
            )
        )
        for name in ("soft_ord/soft_extra_leading_bin", "variant-soft_ord-9")
    }
)
#: A file none of whose lines named an item (every line refused) also said "N of the track's N items have no
#: prediction (the file has 0 of them)": its lines' problems already say why. That line is gone.
NONE_GIVEN = "items have no prediction (the file has 0 of them)"
CHANGED.update(
    {
        name: (
            lambda outcome: (
                outcome[:2]
                + ["\n".join(line for line in outcome[2].split("\n") if NONE_GIVEN not in line)]
            )
        )
        for name in (
            "fuzz-32",
            "fuzz-134",
            "fuzz-160",
            "fuzz-186",
            "fuzz-93",
            "fuzz-244",
            "fuzz-156",
            "fuzz-201",
            "fuzz-204",
            "fuzz-242",
            "fuzz-205",
            "fuzz-255",
            "fuzz-239",
        )
    }
)
#: "line has no tab" now names the separator written instead, when the line starts with a field and then
#: spaces (``s03 2.24``, ``c07\u3000[...]``) or a comma (``s04,2.61``: CSV).
SPACES = ". The id and the value look separated by spaces: write one tab between them"
CSV = ". The line looks comma-separated (CSV): write a tab between the id and the value (df.to_csv(path, sep='\\t', index=False))"


def _no_tab_hint(hint: str, before=lambda outcome: outcome):
    """The outcome (after an earlier change ``before``, if any) with ``hint`` after its "line has no tab" problem."""

    def changed(outcome):
        outcome = before(outcome)
        return outcome[:2] + [
            "\n".join(
                line + hint if "line has no tab" in line else line
                for line in outcome[2].split("\n")
            )
        ]

    return changed


CHANGED.update({name: _no_tab_hint(CSV) for name in ("fuzz-105", "fuzz-106")})
CHANGED.update(
    {
        name: _no_tab_hint(SPACES, CHANGED.get(name, lambda outcome: outcome))
        for name in (
            "sim/no_tab",
            "persp_ml/no_tab",
            "fuzz-44",
            "fuzz-45",
            "fuzz-46",
            "fuzz-66",
            "fuzz-67",
            "fuzz-68",
            "fuzz-78",
            "fuzz-79",
            "fuzz-80",
            "fuzz-81",
            "fuzz-82",
            "fuzz-83",
            "fuzz-99",
            "fuzz-100",
            "fuzz-168",
            "fuzz-170",
            "fuzz-171",
            "fuzz-172",
            "fuzz-200",
            "fuzz-288",
            "fuzz-289",
            "fuzz-290",
            "fuzz-291",
            "fuzz-292",
        )
    }
)


def test_every_recorded_outcome_is_unchanged(tmp_path):
    """The outcomes recorded before the readers became one (tests/hostile/record_submission.py):
    the hostile corpus, fuzzed contents and edited valid files give the same values, warnings and
    messages, word for word, except the deliberate changes in ``CHANGED``."""
    cases = json.loads(record_submission.EXPECTED.read_text(encoding="utf-8"))
    inputs = {name: content for name, _, content in record_submission.regenerated_inputs()}
    assert {name: record_submission.sha(data) for name, data in inputs.items()} == {
        case["name"]: case["sha"] for case in cases if "data" not in case
    }
    inputs.update(
        {case["name"]: base64.b64decode(case["data"]) for case in cases if "data" in case}
    )
    changed = []
    for case in cases:
        path = tmp_path / f"{case['track']}.tsv"
        path.write_bytes(inputs[case["name"]])
        now = record_submission.outcome(lambda: read(path, case["track"]))
        expected = CHANGED.get(case["name"], case["outcome"])
        if now != (expected(case["outcome"]) if callable(expected) else expected):
            changed.append((case["name"], case["outcome"], now))
    assert not changed, changed[:3]
    assert set(CHANGED) <= {case["name"] for case in cases}


@settings(
    max_examples=400,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
@given(data=st.data())
def test_fuzzed_submissions_are_read_or_refused_never_crash(data, tmp_path_factory):
    track_id = data.draw(st.sampled_from(sorted(TRACKS)), label="track")
    content = data.draw(fuzz.submission_bytes(track_id), label="content")
    path = tmp_path_factory.getbasetemp() / f"fast-{track_id}.tsv"
    path.write_bytes(content)
    assert outcome(lambda: read(path, track_id))[0] in ("ok", "error")


# --- item files and gold: one path each ----------------------------------------------------------


def _no_messages(monkeypatch):
    """Make the readers' message builders raise: a clean file must never reach them."""

    def refuse(*args, **kwargs):
        raise AssertionError("a clean file reached the per-line message path")

    monkeypatch.setattr(items_module.Located, "add", refuse)
    monkeypatch.setattr(items_module, "parsed_json_lines", refuse)


@pytest.mark.parametrize("dataset", sorted(edition.GOLD))
def test_clean_item_files_never_take_the_message_path(dataset, tmp_path, monkeypatch):
    items = edition.GOLD[dataset]
    path = tmp_path / f"{dataset}.jsonl"
    _no_messages(monkeypatch)
    for sep, bom in (
        ("\n", False),
        ("\r\n", True),
        ("\n\n", False),
        ("\r", False),
        ("\n \t\n", False),
    ):
        gold_cases.write_item_file(path, items, sep, bom)
        assert read_items(path, "gold") == items
        columns = items_module.read_item_columns(path, "gold", {"annotators": [], "lang": ""})
        assert columns["id"] == [it["id"] for it in items] and len(columns["lang"]) == len(items)
    monkeypatch.setattr(
        items_module, "CHUNK_CHARS", 100
    )  # items spread over several chunks read the same
    assert read_items(path, "gold") == items


@pytest.mark.parametrize("track_id", sorted(TRACKS))
def test_clean_gold_never_takes_the_message_path(track_id, tmp_path, monkeypatch):
    track = TRACKS[track_id]
    items = edition.items_of(track_id)
    expected = gold_cases.gold_summary(build_gold(track, items, "gold"))
    path = tmp_path / "d.jsonl"
    items_module.write_items(path, items)
    _no_messages(monkeypatch)
    assert gold_cases.gold_summary(build_gold(track, items, "gold")) == expected
    columns = items_module.read_item_columns(path, "gold", gold_module.gold_fields(track))
    assert (
        gold_cases.gold_summary(gold_module.gold_from_columns(track, columns, "gold")) == expected
    )


def test_real_releases_never_take_the_message_path(tmp_path, monkeypatch):
    """The LeWiDi 2025 dev items (every kind and scale) read and build without the message path."""
    import test_lewidi_files as real

    if not real.official.PRACTICE_ZIP.is_file() or real.EDITION is None:
        pytest.skip("../shared/data/lewidi2025 not found: the release lives beside the repository")
    for track in real.EDITION.tracks:
        items = real.items(track.dataset, "dev")
        path = tmp_path / f"{track.dataset}.jsonl"
        items_module.write_items(path, items)
        with monkeypatch.context() as m:
            _no_messages(m)
            assert read_items(path, "dev") == items
            build_gold(track, items, "dev")
            columns = items_module.read_item_columns(path, "dev", gold_module.gold_fields(track))
            gold_module.gold_from_columns(track, columns, "dev")


# --- the three bugs the path comparison once counted as agreement (a crash on both paths) -------------


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


# --- recorded outcomes of the reference readers ------------------------------------------------


def test_reference_readers_give_the_recorded_outcomes():
    """Every item-file and gold case of ``hostile/gold_cases.py`` reads as recorded (messages identical)."""
    expected = json.loads(gold_cases.EXPECTED.read_text(encoding="utf-8"))
    actual = gold_cases.outcomes()
    assert actual.keys() == expected.keys()
    assert [k for k in expected if actual[k] != expected[k]] == []


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
