"""The readers read each input once, by one path, and a clean file never takes the message path.

``submission.read_prediction`` is one reader (bulk masks, messages only for flagged rows): clean
files must never reach its per-row message builder, and its outcomes over the hostile corpus,
fuzzed contents and edited files are the recorded ones (``hostile/recordings.py``).
The reference readers (``items.read_items``/``read_item_columns``, ``gold.build_gold``/``gold_from_columns``)
have one path each: clean files (the hostile edition's, the real LeWiDi releases) are read with the
message builders made to raise, and mutated items give the outcomes recorded in
``hostile/recorded/gold.json`` (identical messages). The text-file reader's own tests are in
``test_textfile.py``. ``outcome()`` fails on any crash.
"""

from __future__ import annotations

import json
import random
from functools import lru_cache

import numpy as np
import pytest

from conftest import shared_data
from hostile import edition, gold_cases, record_submission, recordings
from codajudge import gold as gold_module
from codajudge.errors import ConfigError, SubmissionError
from codajudge.formats import items as items_module
from codajudge.formats import submission
from codajudge.formats.items import read_items
from codajudge.gold import build_gold
from codajudge.metrics import PerAnnotator
from codajudge.spec import spec_from_dict

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


SUBMISSION_CONCERNS = ("submission-corpus", "submission-variants", "submission-fuzz")
SUBMISSION_CASES = {
    name: case
    for concern in SUBMISSION_CONCERNS
    for name, case in recordings.recorded(concern).items()
}


@lru_cache(maxsize=1)
def _regenerated_inputs() -> dict:
    """The corpus's and the variants' inputs, which their code rebuilds byte for byte."""
    return {name: data for name, _, data in record_submission.regenerated_inputs()}


def test_the_recorded_inputs_are_the_ones_the_corpus_and_variants_build():
    """A recording of the corpus and the variants keeps each input's digest, not its bytes."""
    regenerated = {
        name: record_submission.sha(data) for name, data in _regenerated_inputs().items()
    }
    stored = {
        name: case["sha"]
        for name, case in SUBMISSION_CASES.items()
        if recordings.submission_concern_of(name) != "fuzz"
    }
    assert regenerated == stored


@pytest.mark.parametrize("name", sorted(SUBMISSION_CASES))
def test_a_submission_reads_as_recorded(name, tmp_path):
    """``read_prediction`` gives each recorded case's values, warnings and message, word for word
    (re-record with ``python3 tests/hostile/recordings.py`` when a message changes on purpose)."""
    case = SUBMISSION_CASES[name]
    if recordings.submission_concern_of(name) == "fuzz":
        data = record_submission.stored_bytes(case)
    else:
        data = _regenerated_inputs()[name]
    path = tmp_path / f"{case['track']}.tsv"
    path.write_bytes(data)
    assert record_submission.outcome(lambda: read(path, case["track"])) == case["outcome"]


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

GOLD_CASES = recordings.recorded("gold")


@pytest.fixture(scope="module")
def gold_outcomes():
    return gold_cases.outcomes()


def test_the_gold_recording_has_every_case(gold_outcomes):
    assert sorted(gold_outcomes) == sorted(GOLD_CASES)


@pytest.mark.parametrize("name", sorted(GOLD_CASES))
def test_a_reference_reader_case_reads_as_recorded(name, gold_outcomes):
    """Every item-file and gold case of ``hostile/gold_cases.py`` reads as recorded."""
    assert gold_outcomes[name] == GOLD_CASES[name]


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
