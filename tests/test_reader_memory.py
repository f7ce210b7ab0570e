"""What a submitted file may cost in memory (issue 34, items 3, 4 and 12).

A value is bounded by what its track can hold before it is parsed (``values.entry_count`` against
``values.most_entries``; a ChaosNLI document against ``chaosnli.ENTRIES_PER_ITEM`` per item), so a
reader's peak memory stays under ten times its input's size plus 300 MB
(``docs/participant-checks.md``, "What a line may cost"). The crafted files are the shapes that cost
the most per byte: empty objects (``[{},{},...]``), 64 bytes each once parsed for 3 bytes written.
Each reader runs in a child process with ``-W error``, which reports its own peak resident memory.
"""

import json
import subprocess
import sys
import warnings
from pathlib import Path, PurePosixPath

import numpy as np
import pytest

from codajudge import kinds
from codajudge.errors import SubmissionError
from codajudge.formats import archive, chaosnli, textfile
from codajudge.formats.archive import UNREAD_DOCUMENT as UNREAD
from codajudge.formats.submission import ItemKeys, read_prediction
from codajudge.formats.values import entry_count
from codajudge.tracks import track_from_dict, tracks_from_list

REPO = Path(__file__).resolve().parents[1]
MB = 1024 * 1024
#: The bound stated in docs/participant-checks.md: peak <= MEMORY_FACTOR * input + MEMORY_SLACK.
MEMORY_FACTOR, MEMORY_SLACK = 10, 300 * MB

NLI = ["entailment", "neutral", "contradiction"]
SOFT = {"id": "snli_soft", "kind": "soft_label", "scale": "categorical", "dataset": "snli",
        "labels": NLI, "metrics": ["jsd"], "files": ["snli*.json"]}  # fmt: skip
MP_SOFT = {"id": "mp_soft", "kind": "soft_label", "scale": "categorical", "dataset": "mp",
           "labels": ["0", "1"], "metrics": ["jsd"]}  # fmt: skip
MP_PE = {"id": "mp_pe", "kind": "perspectivist", "scale": "categorical", "dataset": "mp",
         "labels": ["0", "1"], "metrics": ["error_rate"]}  # fmt: skip
MULTI_PE = {"id": "ml_pe", "kind": "perspectivist", "scale": "multilabel", "dataset": "ml",
            "labels": NLI, "metrics": ["mer"]}  # fmt: skip
#: LeWiDi 2025's MP test split: 3,756 items over a pool of 506 annotators.
MP_ITEMS, MP_POOL = 3756, 506
#: ChaosNLI's SNLI part.
SNLI_ITEMS = 1514

_CHILD = """
import json, resource, sys
from pathlib import Path
from codajudge import kinds
from codajudge.errors import SubmissionError
from codajudge.formats import archive
from codajudge.formats.submission import ItemKeys, read_prediction
from codajudge.tracks import track_from_dict, tracks_from_list

track, ids, annotators, path = json.loads(Path(sys.argv[1]).read_text())
try:
    if annotators is None:  # a folder of unclaimed files, matched by uids
        folder = Path(path)
        found = archive.find_track_files(folder, tracks_from_list([track]), lambda dataset: ids)
        outcome = f"left {found.unclaimed}, notes {found.unread}"
    else:
        keys = ItemKeys(ids, annotators)
        read_prediction(Path(path), Path(path).name, track_from_dict(track), keys)
        outcome = "accepted"
except SubmissionError as e:
    outcome = str(e)
# VmHWM is this process's own peak: ru_maxrss would keep the RSS of the process it was forked
# from (Linux carries it across exec), a pytest worker that may have grown past the bound itself.
status = Path("/proc/self/status")
lines = status.read_text().splitlines() if status.exists() else []
hwm = [int(line.split()[1]) for line in lines if line.startswith("VmHWM:")]
peak_kib = hwm[0] if hwm else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps([outcome, peak_kib * 1024]))
"""


def _peak(track: dict, ids, annotators, path: Path):
    """(outcome, peak resident bytes) of reading ``path`` in a child process, warnings as errors."""
    arguments = path.parent / "arguments.json"
    arguments.write_text(json.dumps([track, ids, annotators, str(path)]), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-W", "error", "-c", _CHILD, str(arguments)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=300,
    )
    arguments.unlink()
    assert done.returncode == 0 and not done.stderr, done.stderr[-3000:]
    outcome, peak = json.loads(done.stdout)
    return outcome, peak


def _assert_within_bound(peak: int, size: int) -> None:
    bound = MEMORY_FACTOR * size + MEMORY_SLACK
    assert peak <= bound, f"peak {peak / MB:.0f} MB for {size / MB:.0f} MB (bound {bound / MB:.0f})"


def _empty_objects(n_bytes: int) -> str:
    """A JSON list of ``n_bytes`` bytes of empty objects: 3 bytes each written, 64 parsed."""
    return "[" + ",".join(["{}"] * (n_bytes // 3)) + "]"


def _rows_file(path: Path, ids, size: int) -> Path:
    """One row of empty objects per item, ``size`` bytes in all."""
    row = _empty_objects(size // len(ids))
    path.write_text("".join(f"{item}\t{row}\n" for item in ids), encoding="utf-8")
    return path


# --- the count ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, count",
    [
        ("[0.2, 0.8]", 2),
        ("[{}, {}, {}]", 6),
        ('{"a": [1, 2], "b": 3}', 4),
        ('["a, b", "c[{(", "d\\", e"]', 3),  # nothing inside a string opens an entry
        ("[('x, y', 1), (2, 3)]", 6),  # a Python literal's tuples and quotes
        ("3.5", 0),
        ("[" * 50, 50),
        ('["a\\\\", {}]', 3),  # an escaped backslash, then the closing quote
        (
            '["a\\", {}]',
            1,
        ),  # an escaped quote: the string runs on, unclosed, as the parser reads it
        ("[\"it's\", 'it\\'s', 1]", 3),
    ],
)
def test_entry_count_counts_what_opens_an_entry_outside_strings(text, count):
    assert entry_count(text) == count


def test_entry_count_is_linear_in_the_text_whatever_its_quotes_and_escapes():
    """A pattern for strings that could fail and be retried from each quote made ``"\\`` repeated
    quadratic (a 16 KB text took 2 s); every text is now counted in one pass."""
    from test_reader_cost import _cost_ratio

    for unit in ['"\\', '"\\"', "'", "\\\\", '"\\\\']:
        small, large = unit * 20_000, unit * 160_000
        assert entry_count(large) >= 0
        ratio = _cost_ratio(lambda: entry_count(large), lambda: entry_count(small), rounds=3)
        assert ratio < 24, f"{unit!r}: 8 times the text cost {ratio:.0f} times the time"


# --- item 4: a value bounded by what its track can hold ----------------------------------------


def test_a_soft_label_of_many_entries_is_refused_by_its_entries(tmp_path):
    ids = ["a", "b"]
    path = tmp_path / "mp_soft.tsv"
    path.write_text(f"a\t[0.5, 0.5]\nb\t{_empty_objects(3000)}\n", encoding="utf-8")
    with pytest.raises(SubmissionError) as error:
        read_prediction(path, "mp_soft.tsv", track_from_dict(MP_SOFT), ItemKeys(ids))
    assert str(error.value) == (
        "mp_soft.tsv, line 2, item 'b': the value holds more entries than a value of this track "
        "can; expected at most 25 list entries and object members, found 2,000 (commas and "
        "opening brackets outside strings). Write the item's own value, such as [0.5, 0.5]"
    )


def test_a_perspectivist_row_may_be_as_long_as_the_annotator_pool(tmp_path):
    """The pool layout is read (``annotators.RowFit``): a row of the pool's length is within the
    bound, and one a few entries longer is named by its length; only past that by its entries."""
    pool = [f"ann{k}" for k in range(40)]
    ids = [f"i{k}" for k in range(20)]
    keys = ItemKeys(ids, [pool[2 * k : 2 * k + 2] for k in range(20)])
    path = tmp_path / "mp_pe.tsv"
    rest = "".join(f'{item}\t["0", "1"]\n' for item in ids[1:])

    def read(entries: int):
        path.write_text(f"i0\t{json.dumps(['1'] + ['0'] * (entries - 1))}\n{rest}")
        return read_prediction(path, "mp_pe.tsv", track_from_dict(MP_PE), keys)

    assert read(40).values.values.tolist()[:4] == [1, 0, 0, 1]  # by pool position
    with pytest.raises(SubmissionError, match="item 'i0': wrong number of annotator entries"):
        read(57)  # 40 + 1 + ENTRY_SLACK
    with pytest.raises(
        SubmissionError, match="item 'i0': the value holds more entries.* at most 57"
    ):
        read(58)


def _widest_rows(labels, annotators):
    """The valid values of most entries for a perspectivist track of these labels and annotators."""
    k, m = len(labels), len(annotators)
    every = [labels] * m  # annotator-major: each annotator every label
    return [
        every,
        dict(zip(annotators, every)),
        [[1] * m] * k,  # label-major
        [",".join(labels)] * m,  # commas inside strings
    ]


@pytest.mark.parametrize("scale", ["categorical", "multilabel"])
def test_the_widest_valid_values_are_within_what_the_kind_declares(scale):
    """``Kind.most_value_entries`` holds every valid value without ``ENTRY_SLACK``."""
    labels = ["l0", "l1", "l2", "l3"]
    for kind, track in [("perspectivist", MULTI_PE), ("soft_label", MP_SOFT)]:
        track = {key: value for key, value in track.items() if key != "metrics"}
        track = track_from_dict(dict(track, labels=labels, scale=scale))
        names = [f"a{k}" for k in range(8)]
        if kind == "perspectivist":
            one_each = [[labels[0]] * 8, dict.fromkeys(names, labels[0])]
            rows = _widest_rows(labels, names) if scale == "multilabel" else one_each
        else:
            pairs = [[0.5, 0.5]] * 4
            rows = [pairs, dict(zip(labels, ({"0": 0.5, "1": 0.5},) * 4)), [0.2] * 5]
        most = kinds.REGISTRY[kind].most_value_entries(track, len(names))
        assert max(entry_count(json.dumps(row)) for row in rows) <= most, (kind, scale)


@pytest.mark.slow
@pytest.mark.parametrize("track", [MP_SOFT, MP_PE], ids=["soft_label", "perspectivist"])
def test_rows_of_empty_objects_cost_at_most_ten_times_their_bytes(tmp_path, track):
    """A lewidi2025 ``mp_soft.tsv`` of such rows at its byte bound (246 MB) peaked at 6.3 GB; at
    30 MB, 780 MB. Now refused before a row is parsed."""
    ids = [f"mp{k}" for k in range(MP_ITEMS)]
    pool = [f"ann{k}" for k in range(MP_POOL)]
    annotators = [pool[k % 500 : k % 500 + 5] for k in range(MP_ITEMS)]
    path = _rows_file(tmp_path / f"{track['id']}.tsv", ids, 30 * MB)
    outcome, peak = _peak(track, ids, annotators, path)
    assert "the value holds more entries than a value of this track can" in outcome
    _assert_within_bound(peak, path.stat().st_size)


def _emoji_rows(path: Path, ids, size: int) -> Path:
    """One row per item of one label, ``size`` bytes in all: one emoji (a character outside the Basic
    Multilingual Plane), then ASCII letters. Python holds each character of such a line in 4 bytes,
    so the line costs 4 times its bytes once read."""
    label = "\U0001f600" + "a" * (size // len(ids))
    path.parent.mkdir(exist_ok=True)
    path.write_text("".join(f'{item}\t["{label}"]\n' for item in ids), encoding="utf-8")
    return path


@pytest.mark.slow
def test_long_lines_outside_the_bmp_cost_at_most_ten_times_their_bytes(tmp_path):
    """Such a line costs 4 times its bytes each time it is held: as read, and parsed (its label);
    its value is read in place, not sliced out of it, and the index hint looks at the parsed rows
    without their texts. What a 30 MB file adds to the peak of reading a file of short rows stays
    under ten times its size, so the bound holds at any size (once about 11.5 times)."""
    ids = [f"mp{k}" for k in range(MP_ITEMS)]
    annotators = [[f"ann{k % MP_POOL}"] for k in range(MP_ITEMS)]
    small = _emoji_rows(tmp_path / "small" / "mp_pe.tsv", ids, 0)
    base_outcome, base = _peak(MP_PE, ids, annotators, small)
    path = _emoji_rows(tmp_path / "mp_pe.tsv", ids, 30 * MB)
    outcome, peak = _peak(MP_PE, ids, annotators, path)
    assert "label outside the track's label set" in outcome and "label outside" in base_outcome
    size = path.stat().st_size
    assert peak - base <= MEMORY_FACTOR * size, f"{(peak - base) / size:.1f} times the file"


# --- a ChaosNLI document, read for a track or to match its uids (items 3 and 4) ----------------


def _document(path: Path, size: int) -> Path:
    """A document that opens as ChaosNLI's layout, then ``size`` bytes of empty objects."""
    body = _empty_objects(size)
    path.write_text('{"m": {"u0": {"x": ' + body + "}}}", encoding="utf-8")
    return path


def test_a_document_of_more_entries_than_its_items_hold_is_refused_unparsed(tmp_path):
    path = _document(tmp_path / "snli.json", 3000)
    with pytest.raises(SubmissionError) as error:
        chaosnli.read_chaosnli(path, "snli.json", track_from_dict(SOFT), ["u0", "u1"])
    assert str(error.value) == (
        "snli.json: the document holds more entries than the predictions for the 2 items of the "
        "track's dataset (those of every phase) can; expected at most 128 list entries and object members, found 2,003 (commas and opening brackets outside strings). Write one record per "
        'item: {uid: {"predicted_probabilities": [pE, pN, pC], "predicted_label": "e"}}'
    )
    assert chaosnli.document_uids(path, "snli.json", 2) is None


@pytest.mark.slow
@pytest.mark.parametrize("read_as", ["track_file", "unclaimed"])
def test_a_document_of_empty_objects_costs_at_most_ten_times_its_bytes(tmp_path, read_as):
    """A 100 MB ``snli.json`` peaked at 5.0 GB, a ``notes.json`` matched by its uids at 2.7 GB; at
    30 MB, about 800 MB. Now refused (as a track's file) or left unclaimed before it is parsed."""
    ids = [f"u{k}" for k in range(SNLI_ITEMS)]
    name = "snli.json" if read_as == "track_file" else "notes.json"
    folder = tmp_path / "res"
    folder.mkdir()
    path = _document(folder / name, 30 * MB)
    target = path if read_as == "track_file" else folder
    outcome, peak = _peak(SOFT, ids, [] if read_as == "track_file" else None, target)
    if read_as == "track_file":
        assert "the document holds more entries than the predictions" in outcome
    else:
        assert outcome == "left ['notes.json'], notes []"
    _assert_within_bound(peak, path.stat().st_size)


TRACKS = tracks_from_list([SOFT])
IDS = ["u0", "u1"]


def _claim(folder: Path, tracks=TRACKS):
    found = archive.find_track_files(folder, tracks, lambda dataset: IDS)
    return found.unclaimed, found.unread


def test_a_json_file_larger_than_any_document_is_not_read_and_a_note_says_so(tmp_path, monkeypatch):
    limit = textfile.max_file_bytes(len(IDS))
    path = tmp_path / "notes.json"
    with open(path, "wb") as f:  # sparse: nothing is really stored
        f.write(b'{"m": {"u0": {')
        f.truncate(limit + 1)
    monkeypatch.setattr(archive, "document_uids", lambda *a: pytest.fail("the file was read"))
    assert _claim(tmp_path) == (
        ["notes.json"],
        [
            f"file 'notes.json' was not read to look for a ChaosNLI document: it holds "
            f"{limit + 1:,} bytes, more than a document of this edition's tracks may ({limit:,})"
        ],
    )


def test_without_a_document_track_no_json_file_is_opened(tmp_path, monkeypatch):
    (tmp_path / "notes.json").write_text('{"m": {"u0": {}}}', encoding="utf-8")
    monkeypatch.setattr(archive, "document_uids", lambda *a: pytest.fail("the file was read"))
    no_documents = tracks_from_list([dict(SOFT, files=["snli.tsv"])])
    assert _claim(tmp_path, no_documents) == (["notes.json"], [])


def test_a_document_within_the_bounds_is_still_claimed_by_its_uids(tmp_path):
    record = {"predicted_probabilities": [0.2, 0.3, 0.5], "predicted_label": "c"}
    (tmp_path / "preds.json").write_text(json.dumps({"m": {u: record for u in IDS}}))
    found = archive.find_track_files(tmp_path, TRACKS, lambda d: IDS)
    assert found.unclaimed == [] and found.files == {"snli_soft": PurePosixPath("preds.json")}


# --- item 12: logits near the largest floats ---------------------------------------------------


@pytest.mark.parametrize(
    "logits, expected",
    [
        ([1e308, -1e308, 0.0], [1.0, 0.0, 0.0]),
        ([-1.7e308, 1.7e308, 1.7e308], [0.0, 0.5, 0.5]),
        ([1e308, 1e308, 1e308], [1 / 3] * 3),
    ],
)
def test_logits_near_the_largest_floats_give_probabilities_without_a_warning(
    tmp_path, logits, expected
):
    path = tmp_path / "snli.json"
    path.write_text(json.dumps({"m": {"u0": {"logits": logits}}}), encoding="utf-8")
    track = track_from_dict(SOFT)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        values, _ = chaosnli.read_chaosnli(path, "snli.json", track, ["u0"])
    order = [NLI.index(label) for label in track.labels]
    assert np.allclose(values[0], np.array(expected)[order])


def test_both_programs_note_a_json_file_too_large_to_be_a_document(tmp_path):
    """The ingestion program's notes and the scoring program's warnings say why it was not read."""
    from test_ingestion import NLI as NLI_LABELS, main, make_phase, status_of

    from codajudge.scoring import score_folder
    from codajudge.spec import read_spec

    track = {"id": "nli", "kind": "classification", "dataset": "nli", "labels": NLI_LABELS,
             "files": ["nli.tsv", "nli*.json"]}  # fmt: skip
    phase = make_phase(tmp_path, tracks=[track], n_test=14)
    assert main(["--baseline", "random", str(phase["input"]), str(tmp_path / "made")]) == 0
    submission = tmp_path / "sub"
    submission.mkdir()
    (submission / "nli.tsv").write_bytes((tmp_path / "made" / "nli.tsv").read_bytes())
    limit = textfile.max_file_bytes(14)
    with open(submission / "notes.json", "wb") as f:  # sparse: nothing is really stored
        f.write(b'{"m": {"u0": {')
        f.truncate(limit + 1)
    note = UNREAD.format("notes.json", limit + 1, limit)
    assert main([str(phase["input"]), str(tmp_path / "out"), str(submission)]) == 0
    assert note in status_of(tmp_path / "out")["notes"]
    result = score_folder(read_spec(phase["ref"]), phase["ref"], submission)
    assert note in result.warnings and "file 'notes.json' matches no track" in str(result.warnings)
