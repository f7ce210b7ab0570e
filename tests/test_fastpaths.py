"""The readers' whole-column paths: clean files never take the per-row ones, and what they read is right.

``items.read_items`` and ``gold.build_gold`` first try a fast path and fall
back to the precise one when anything is unusual: both paths read the same inputs and must agree.
``submission.read_prediction`` is one reader (bulk masks, messages only for flagged rows): clean
files must never reach its per-row message builder, and its outcomes over the hostile corpus,
fuzzed contents and edited files are the recorded ones (``hostile/record_submission.py``).
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
from hostile import edition, fuzz, record_submission
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
        return (isinstance(a, PerAnnotator) and isinstance(b, PerAnnotator) and a.item is b.item
                and a.offsets is b.offsets and (a.n_items, a.n_labels) == (b.n_items, b.n_labels)
                and same_values(a.values, b.values))
    return isinstance(a, np.ndarray) and a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b)


# --- submissions: one reader, messages only for flagged rows -------------------------------------

def read(path, track_id):
    gold = GOLD[track_id]
    return submission.read_prediction(path, f"{track_id}.tsv", gold.track,
                                      submission.ItemKeys(gold.ids, gold.annotators, gold.listed))


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
    for content in (edition.valid_file(track_id), _shuffled_valid(track_id, header=True, crlf=True)):
        path.write_bytes(content)
        prediction = read(path, track_id)
        values = prediction.values.values if isinstance(prediction.values, PerAnnotator) else prediction.values
        assert np.isfinite(values).all() and prediction.format == "id"


def test_label_major_multilabel_rows_are_read_a_column_at_a_time(tmp_path, rows_never_explained):
    track = TRACKS["persp_ml"]
    lines = []
    for line in edition.valid_lines("persp_ml"):
        item_id, value = line.split("\t")
        chosen = json.loads(value)
        lines.append(f"{item_id}\t{json.dumps([[int(label in c) for c in chosen] for label in track.labels])}")
    path = tmp_path / "persp_ml.tsv"
    path.write_text("\n".join(lines) + "\n")
    label_major = read(path, "persp_ml")
    path.write_bytes(edition.valid_file("persp_ml"))
    assert same_values(label_major.values.values, read(path, "persp_ml").values.values)


def test_positional_files_never_take_the_per_row_messages(tmp_path, rows_never_explained):
    path = tmp_path / "sim.tsv"
    scores = [line.split("\t")[1] for line in edition.valid_lines("sim")]
    for content in ("\n".join(scores) + "\n", "\n".join(s + "\t80" for s in scores) + "\n",
                    "\n".join(f" {s} \t 9.5 " for s in scores) + "\n\n\n"):
        path.write_text(content)
        prediction = read(path, "sim")
        assert prediction.format == "positional" and prediction.values.tolist() == list(map(float, scores))


def test_the_semeval_2017_gold_files_read_as_positional_submissions(tmp_path, rows_never_explained):
    """The real STS 2017 gold files are one score per line: clean positional files."""
    for gs in sorted(shared_data("sts2017").glob("STS.gs.track*.txt")):
        scores = np.loadtxt(gs, ndmin=1)
        keys = submission.ItemKeys([f"p{k}" for k in range(len(scores))])
        prediction = submission.read_prediction(gs, gs.name, TRACKS["sim"], keys)
        assert prediction.format == "positional" and np.array_equal(prediction.values, scores)


def test_every_recorded_outcome_is_unchanged(tmp_path):
    """The outcomes recorded before the readers became one (tests/hostile/record_submission.py):
    the hostile corpus, fuzzed contents and edited valid files give the same values, warnings and
    messages, word for word."""
    cases = json.loads(record_submission.EXPECTED.read_text(encoding="utf-8"))
    inputs = {name: content for name, _, content in record_submission.regenerated_inputs()}
    assert {name: record_submission.sha(data) for name, data in inputs.items()} == \
        {case["name"]: case["sha"] for case in cases if "data" not in case}
    inputs.update({case["name"]: base64.b64decode(case["data"]) for case in cases if "data" in case})
    changed = []
    for case in cases:
        path = tmp_path / f"{case['track']}.tsv"
        path.write_bytes(inputs[case["name"]])
        now = record_submission.outcome(lambda: read(path, case["track"]))
        if now != case["outcome"]:
            changed.append((case["name"], case["outcome"], now))
    assert not changed, changed[:3]


@settings(max_examples=400, derandomize=True, database=None, deadline=None,
          suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_fuzzed_submissions_are_read_or_refused_never_crash(data, tmp_path_factory):
    track_id = data.draw(st.sampled_from(sorted(TRACKS)), label="track")
    content = data.draw(fuzz.submission_bytes(track_id), label="content")
    path = tmp_path_factory.getbasetemp() / f"fast-{track_id}.tsv"
    path.write_bytes(content)
    assert outcome(lambda: read(path, track_id))[0] in ("ok", "error")


# --- item files and gold ------------------------------------------------------------------------

def _item_mutations(items):
    """Item lists with one change each: what the precise readers must explain, or quietly accept."""
    yield items
    first = dict(items[0])
    for key, value in (("annotations", [3] * len(first.get("annotators", [0]))), ("annotators", [1, 2]),
                       ("annotations", [" " + str(a) for a in first.get("annotations", ["x"])]),
                       ("annotations", ["bogus"] * len(first.get("annotators", [0]))),
                       ("annotations", ",".join(map(str, first.get("annotations", [])))),
                       ("annotators", "ab"), ("annotators", []), ("annotations", None),
                       ("score", "3.5"), ("score", True), ("score", float("nan")), ("score", 10 ** 400),
                       ("label", 1), ("label", "bogus"), ("label", None), ("texts", "one text"),
                       ("texts", ["a", 2]), ("id", 7)):
        changed = dict(first, **{key: value})
        yield [changed] + items[1:]
    yield items + [items[0]]  # a duplicate id


def _write_items(path, items, sep="\n", bom=False):
    text = sep.join(json.dumps(it, ensure_ascii=False, allow_nan=True) for it in items) + sep
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))


@pytest.mark.parametrize("dataset", sorted(edition.GOLD))
def test_item_files_read_the_same_on_both_paths(dataset, tmp_path):
    path = tmp_path / f"{dataset}.jsonl"
    items = edition.GOLD[dataset]
    cases = [(mutated, "\n", False) for mutated in _item_mutations(items)]
    cases += [(items, "\r\n", True), (items, "\n\n", False), (items, "\u2028", False), (items, "\r", False),
              (items, "\n\u3000\n", False), (items, "\n \t\n", False)]
    cases += [([dict(items[0], texts=["a\u2028b", "c"])] + items[1:], "\n", False)]
    taken = 0
    for mutated, sep, bom in cases:
        _write_items(path, mutated, sep, bom)
        fast = outcome(lambda: read_items(path, "gold"))
        precise = outcome(lambda: items_module._checked_items(items_module._item_lines(path, "gold"), "gold"))
        assert fast == precise, (mutated, sep)
        taken += items_module._clean_items(items_module._item_lines(path, "gold")) is not None
    assert taken >= 3


def _gold_both(track, items, monkeypatch):
    fast = outcome(lambda: build_gold(track, items, "gold"))
    with monkeypatch.context() as m:
        m.setattr(gold_module, "_clean_gold", lambda *args: None)
        precise = outcome(lambda: build_gold(track, items, "gold"))
    return fast, precise


def _same_gold(fast, precise) -> bool:
    if fast[0] != precise[0] or fast[0] == "error":
        return fast == precise
    a, b = fast[1], precise[1]
    gold_same = (same_values(a.gold, b.gold) if not isinstance(a.gold, PerAnnotator) else
                 same_values(a.gold.values, b.gold.values) and same_values(a.gold.item, b.gold.item)
                 and same_values(a.gold.offsets, b.gold.offsets)
                 and (a.gold.n_items, a.gold.n_labels) == (b.gold.n_items, b.gold.n_labels))
    return (gold_same and same_values(a.scored, b.scored) and a.ids == b.ids and a.annotators == b.annotators
            and a.groups == b.groups)


@pytest.mark.parametrize("track_id", sorted(TRACKS))
def test_gold_builds_the_same_on_both_paths(track_id, monkeypatch):
    track = TRACKS[track_id]
    items = edition.items_of(track_id)
    assert gold_module._clean_gold(track, items) is not None
    for mutated in _item_mutations(items):
        fast, precise = _gold_both(track, mutated, monkeypatch)
        assert _same_gold(fast, precise), (mutated[0], fast, precise)
    without = [dict(it, annotators=[], annotations=[]) if k % 3 == 0 and "annotators" in it else it
               for k, it in enumerate(items)]
    assert _same_gold(*_gold_both(track, without, monkeypatch))


# --- the three bugs the path comparison once counted as agreement (a crash on both paths) -------------

def test_a_gold_integer_too_large_for_a_float_is_a_configuration_error():
    items = [dict(it) for it in edition.items_of("sim")]
    items[1]["score"] = 10 ** 400
    with pytest.raises(ConfigError, match=r"item 's02': gold 'score' must be a finite number, found 1000+\.\.\.$"):
        build_gold(TRACKS["sim"], items, "gold")


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\u0085"])
def test_texts_with_unicode_line_separators_read_back_as_written(separator, tmp_path):
    items = [dict(it, texts=[f"a{separator}b", f"{separator}c{separator}"]) for it in edition.GOLD["nli"]]
    path = tmp_path / "nli.jsonl"
    items_module.write_items(path, items)
    assert separator in path.read_text(encoding="utf-8")  # written as it is, not escaped
    assert read_items(path, "gold") == items
    assert items_module._checked_items(items_module._item_lines(path, "gold"), "gold") == items


@pytest.mark.parametrize("track_id", ["persp_ml", "persp_cat", "persp_ord"])
def test_a_perspectivist_item_without_annotators_takes_an_empty_list(track_id, tmp_path):
    track = TRACKS[track_id]
    items = edition.items_of(track_id)
    empty = next(k for k, it in enumerate(items) if not it["annotators"])  # the hostile edition has one
    gold = build_gold(track, items, "gold")
    assert not gold.scored[empty]
    path = tmp_path / f"{track_id}.tsv"
    path.write_bytes(edition.valid_file(track_id))
    assert edition.valid_lines(track_id)[empty].endswith("\t[]")
    assert outcome(lambda: read(path, track_id))[0] == "ok"
    lines = edition.valid_lines(track_id)
    lines[empty] = lines[empty].replace("[]", '["entailment"]' if track_id != "persp_ml" else '[["neutral"]]')
    path.write_text("\n".join(lines) + "\n")
    refused = outcome(lambda: read(path, track_id))
    assert refused[0] == "error"
    assert "wrong number of annotator entries; expected an empty list []: the item has no annotators, found 1 entries" in refused[2]
