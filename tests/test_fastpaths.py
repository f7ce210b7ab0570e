"""The readers read each input once, by one path, and a clean file never takes the message path.

The submission and text-file readers still have a whole-column fast path beside a precise path, and
both paths must read the same inputs (valid files, the hostile corpus, fuzzed contents) the same way.
The reference readers (``items.read_items``/``read_item_columns``, ``gold.build_gold``/``gold_from_columns``)
have one path each: clean files (the hostile edition's, the real LeWiDi releases) are read with the
message builders made to raise, and mutated items give the outcomes recorded in
``hostile/expected_gold.json`` (identical messages). ``outcome()`` fails on any crash.
"""

from __future__ import annotations

import io
import json
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hostile import corpus, edition, fuzz, gold_cases
from judgekit import gold as gold_module
from judgekit.errors import ConfigError, SubmissionError
from judgekit.formats import items as items_module
from judgekit.formats import submission, textfile
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


def same_outcome(fast, precise) -> bool:
    if fast[0] != precise[0]:
        return False
    if fast[0] == "error":
        return fast == precise
    a, b = fast[1], precise[1]
    return same_values(a.values, b.values) and a.warnings == b.warnings and a.format == b.format


# --- submissions ------------------------------------------------------------------------------

def read_both(path, track_id, monkeypatch):
    gold = GOLD[track_id]
    fast = outcome(lambda: submission.read_prediction(path, f"{track_id}.tsv", gold))
    with monkeypatch.context() as m:
        m.setattr(submission, "_read_clean", lambda *args: None)
        precise = outcome(lambda: submission.read_prediction(path, f"{track_id}.tsv", gold))
    return fast, precise


def _shuffled_valid(track_id: str, header: bool = False, crlf: bool = False) -> bytes:
    lines = edition.valid_lines(track_id)
    random.Random(track_id).shuffle(lines)
    if header:
        lines = ["id\tprediction"] + lines
    return ("\r\n" if crlf else "\n").join(lines).encode() + b"\n"


@pytest.mark.parametrize("track_id", sorted(TRACKS))
def test_clean_files_take_the_fast_path_and_read_the_same(track_id, tmp_path, monkeypatch):
    path = tmp_path / f"{track_id}.tsv"
    for content in (edition.valid_file(track_id), _shuffled_valid(track_id, header=True, crlf=True)):
        path.write_bytes(content)
        gold = GOLD[track_id]
        assert submission._read_clean(*textfile.read_texts(path, "x"), gold) is not None
        fast, precise = read_both(path, track_id, monkeypatch)
        assert fast[0] == "ok" and same_outcome(fast, precise), (fast, precise)


def test_positional_files_take_the_fast_path(tmp_path, monkeypatch):
    path = tmp_path / "sim.tsv"
    scores = [line.split("\t")[1] for line in edition.valid_lines("sim")]
    for content in ("\n".join(scores) + "\n", "\n".join(s + "\t80" for s in scores) + "\n",
                    "\n".join(f" {s} \t 9.5 " for s in scores) + "\n\n\n"):
        path.write_text(content)
        assert submission._read_clean(*textfile.read_texts(path, "x"), GOLD["sim"]).format == "positional"
        fast, precise = read_both(path, "sim", monkeypatch)
        assert fast[0] == "ok" and fast[1].format == "positional" and same_outcome(fast, precise)


def _corpus_files():
    for case in corpus.cases():
        if len(case.files) == 1 and not (case.links or case.fifos or case.sparse):
            (name, data), = case.files.items()
            track_id = name.rsplit(".", 1)[0].lower()
            if track_id in TRACKS:
                yield pytest.param(track_id, data, id=case.name)


@pytest.mark.parametrize("track_id,data", list(_corpus_files()))
def test_hostile_corpus_reads_the_same_on_both_paths(track_id, data, tmp_path, monkeypatch):
    path = tmp_path / f"{track_id}.tsv"
    path.write_bytes(data)
    fast, precise = read_both(path, track_id, monkeypatch)
    assert same_outcome(fast, precise), (fast, precise)


@settings(max_examples=400, derandomize=True, database=None, deadline=None,
          suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_fuzzed_submissions_read_the_same_on_both_paths(data, tmp_path_factory):
    track_id = data.draw(st.sampled_from(sorted(TRACKS)), label="track")
    content = data.draw(fuzz.submission_bytes(track_id), label="content")
    path = tmp_path_factory.getbasetemp() / f"fast-{track_id}.tsv"
    path.write_bytes(content)
    with pytest.MonkeyPatch.context() as monkeypatch:
        fast, precise = read_both(path, track_id, monkeypatch)
    assert same_outcome(fast, precise), (fast, precise)


def _variants(track_id: str):
    """Valid files edited the ways participants write them, and the near-misses of each edit."""
    lines = edition.valid_lines(track_id)
    ids = [line.split("\t")[0] for line in lines]
    values = [json.loads(line.split("\t")[1]) if line.split("\t")[1][:1] in "[{" else line.split("\t")[1]
              for line in lines]
    yield [f"{i}\t{json.dumps(v)}" if not isinstance(v, str) else f"{i}\t {v} " for i, v in zip(ids, values)]
    yield [f"{i}\t{json.dumps(v, separators=(',', ':'))}" for i, v in zip(ids, values)]
    yield lines[:1] + lines  # a duplicate
    yield lines[1:]  # a missing item
    yield [line.replace("\t", "\t\t", 1) for line in lines]
    if TRACKS[track_id].kind == "soft_label" and TRACKS[track_id].scale != "multilabel":
        yield [f"{i}\t{json.dumps([x * 1.01 for x in v])}" for i, v in zip(ids, values)]  # renormalised
        yield [f"{i}\t{json.dumps([x * 1.03 for x in v])}" for i, v in zip(ids, values)]  # off by 3%
        yield [f"{i}\t{json.dumps([0] + v)}" for i, v in zip(ids, values)]  # the extra leading bin
        yield [f"{i}\t{json.dumps([-0.0] + v[1:])}" for i, v in zip(ids, values)]
    if TRACKS[track_id].kind == "soft_label" and TRACKS[track_id].scale == "multilabel":
        yield [f"{i}\t{json.dumps([p for _, p in v])}" for i, v in zip(ids, values)]  # P(chosen) only
        yield [f"{i}\t{json.dumps([[a * 1.01, b] for a, b in v])}" for i, v in zip(ids, values)]
        yield [f"{i}\t{json.dumps([[a, b] for a, b in v[:1]] + [p for _, p in v[1:]])}" for i, v in zip(ids, values)]
    if TRACKS[track_id].kind == "perspectivist":
        flat = TRACKS[track_id].scale != "multilabel"
        for convert in (int, float, str):  # ordinal labels given as numbers, or all as strings
            yield [f"{i}\t{json.dumps([convert(x) if flat and str(x).isdigit() else x for x in v])}"
                   for i, v in zip(ids, values)]
        yield [f"{i}\t{json.dumps(v[:-1])}" for i, v in zip(ids, values)]  # one label short
        if not flat:
            yield [f"{i}\t{json.dumps([','.join(x) for x in v])}" for i, v in zip(ids, values)]
            yield [f"{i}\t{json.dumps([[1, 0, 0] for _ in v])}" for i, v in zip(ids, values)]


@pytest.mark.parametrize("track_id", sorted(TRACKS))
def test_edited_files_read_the_same_on_both_paths(track_id, tmp_path, monkeypatch):
    path = tmp_path / f"{track_id}.tsv"
    for lines in _variants(track_id):
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        fast, precise = read_both(path, track_id, monkeypatch)
        assert same_outcome(fast, precise), (lines, fast, precise)


# --- text files -------------------------------------------------------------------------------

PIECES = [b"a", b"b\tc", b"\n", b"\r\n", b"\r", b" ", b"\x00", b"\xef\xbb\xbf", b"\xc3\xa9", b"\xe9", b"\xff\xfe",
          b"\t", b"\xe2\x80\xa8", b"1.5", b"\n\n", b"\x0b"]


@pytest.mark.parametrize("block_bytes", [textfile.BLOCK_BYTES, 5, 3])
def test_block_reader_agrees_with_the_line_reader(block_bytes, monkeypatch):
    monkeypatch.setattr(textfile, "BLOCK_BYTES", block_bytes)
    rng = random.Random(block_bytes)
    taken = 0
    for _ in range(20000):
        data = b"".join(rng.choice(PIECES) for _ in range(rng.randint(0, 24)))
        fast = outcome(lambda: textfile._read_blocks(io.BytesIO(data), "x"))
        if fast == ("ok", None):
            continue
        taken += 1
        if fast[0] == "ok":
            fast = ("ok", list(zip(*fast[1])))
        assert fast == outcome(lambda: textfile._read_bounded(io.BytesIO(data), "x")), data
    assert taken > 3000  # the fast path answered for many of them


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
    for sep, bom in (("\n", False), ("\r\n", True), ("\n\n", False), ("\r", False), ("\n \t\n", False)):
        gold_cases.write_item_file(path, items, sep, bom)
        assert read_items(path, "gold") == items
        columns = items_module.read_item_columns(path, "gold", {"annotators": [], "lang": ""})
        assert columns["id"] == [it["id"] for it in items] and len(columns["lang"]) == len(items)
    monkeypatch.setattr(items_module, "CHUNK_CHARS", 100)  # items spread over several chunks read the same
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
    assert gold_cases.gold_summary(gold_module.gold_from_columns(track, columns, "gold")) == expected


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


@pytest.mark.parametrize("track_id", ["persp_ml", "persp_cat", "persp_ord"])
def test_a_perspectivist_item_without_annotators_reads_the_same_on_both_paths(track_id, tmp_path, monkeypatch):
    track = TRACKS[track_id]
    items = edition.items_of(track_id)
    empty = next(k for k, it in enumerate(items) if not it["annotators"])  # the hostile edition has one
    gold = build_gold(track, items, "gold")
    assert not gold.scored[empty]
    path = tmp_path / f"{track_id}.tsv"
    path.write_bytes(edition.valid_file(track_id))
    assert edition.valid_lines(track_id)[empty].endswith("\t[]")
    fast, precise = read_both(path, track_id, monkeypatch)
    assert fast[0] == "ok" and same_outcome(fast, precise), (fast, precise)
    lines = edition.valid_lines(track_id)
    lines[empty] = lines[empty].replace("[]", '["entailment"]' if track_id != "persp_ml" else '[["neutral"]]')
    path.write_text("\n".join(lines) + "\n")
    fast, precise = read_both(path, track_id, monkeypatch)
    assert fast[0] == "error" and same_outcome(fast, precise)
    assert "wrong number of annotator entries; expected an empty list []: the item has no annotators, found 1 entries" in fast[2]


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
    path.write_text('{"id": "a"},{"id": "b"}\n{"id": "q", "x": [{"y": 1}\n{"z": 2}]}\n', encoding="utf-8")
    with pytest.raises(ConfigError) as error:
        read_items(path, "gold", texts=False)
    assert str(error.value).splitlines() == ["gold: not valid JSON (Extra data), on 2 lines (lines 1, 3)",
                                             "gold, line 2: not valid JSON (Expecting ',' delimiter)"]
    path.write_text('{"id": "a", "texts": ["x},{y", "}, {"]}\n', encoding="utf-8")
    assert read_items(path, "gold") == [{"id": "a", "texts": ["x},{y", "}, {"]}]
