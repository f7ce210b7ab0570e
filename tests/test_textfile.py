"""The text-file reader: one reader, each rule stated once, and the same outcomes as recorded.

``hostile/expected_textfile.json`` holds the reader's outcomes (values digest or full message) over
the hostile corpus, seeded awkward inputs at several block sizes and bounds, and the bounds cases,
recorded before the reader's fast block path and precise line path became one reader
(``hostile/textfile_outcomes.py``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hostile import edition, textfile_outcomes
from judgekit.errors import SubmissionError
from judgekit.formats import textfile

BOM = b"\xef\xbb\xbf"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"


#: Outcomes changed on purpose since the recording: a file past its line bound reports its first
#: problem in file order (a bad byte on line 11 comes before line 1,021), whatever the block size.
CHANGED = {
    "bounds/bad_byte_then_blanks": "x.tsv, line 11: file is not UTF-8 text; expected UTF-8, found byte 0xff "
    "at offset 40. Save the file as UTF-8 (Latin-1 and other encodings are refused)"
}


def _comparable(outcome):
    """An outcome without whether the numbers were a ``range`` (the line path gave lists)."""
    return outcome[::2] if outcome[0] == "ok" else outcome


def _first_line(data: bytes) -> bytes:
    return data[len(BOM) :].split(b"\n", 1)[0]


def test_outcomes_are_the_recorded_ones():
    """The same outcomes as recorded, but for one bug fixed: the recorded line path counted a UTF-8
    BOM in the budget of the first line it read, so it read a first line longer than
    ``MAX_LINE_BYTES`` - 3 bytes as two lines (and accepted one of 1 MB and 8 bytes). Such a line
    is now refused as too long when it is, and otherwise read as if there were no BOM (the offsets
    in messages still count it)."""
    cases = list(textfile_outcomes.inputs())
    now = textfile_outcomes.record(cases)
    recorded = textfile_outcomes.expected()
    assert now.keys() == recorded.keys()
    limit = {case[0]: case[3][1] or textfile.MAX_LINE_BYTES for case in cases}
    split = {
        case[0]: case
        for case in cases
        if case[1].startswith(BOM) and len(_first_line(case[1])) > limit[case[0]] - len(BOM)
    }
    assert len(split) > 20
    differ = {
        case_id: (recorded[case_id], now[case_id])
        for case_id in now
        if case_id not in split
        and case_id not in CHANGED
        and _comparable(now[case_id]) != _comparable(recorded[case_id])
    }
    assert not differ, differ
    assert {case_id: now[case_id][2] for case_id in CHANGED} == CHANGED
    long = {
        case_id for case_id, case in split.items() if len(_first_line(case[1])) > limit[case_id]
    }
    assert "bounds/long_bom" in long
    for case_id in long:
        assert now[case_id][2].startswith("x.tsv, line 1: line is too long"), case_id
    without_bom = textfile_outcomes.record(
        (case_id, data[3:], n, s) for case_id, data, n, s in split.values() if case_id not in long
    )
    for case_id, outcome in without_bom.items():
        shifted = [
            re.sub(r"offset (\d+)", lambda m: f"offset {int(m[1]) + 3}", str(x)) for x in outcome
        ]
        assert [str(x) for x in now[case_id]] == shifted, case_id


class _NoMessage:
    """Stands for SubmissionError: building any message fails the test."""

    @staticmethod
    def single(*args, **kwargs):
        raise AssertionError(f"a message was built for a clean file: {args}")


def _clean_files():
    """The hostile edition's valid files (LF and CRLF, with a BOM and blank lines) and the real STS
    releases' text files when ../shared/data is present."""
    for track_id in sorted(edition.TRACK_BY_ID):
        yield edition.valid_file(track_id)
        yield BOM + edition.valid_file(track_id).replace(b"\n", b"\r\n\r\n")
    yield from (
        path.read_bytes()
        for path in sorted(SHARED.glob("sts*/*.txt")) + sorted(SHARED.glob("sts*/*.csv"))
    )
    yield b"a\t1\n" * 400000 + b"x\r"  # several blocks, and a CR ending the file


@pytest.mark.parametrize("block_bytes", [textfile.BLOCK_BYTES, 7])
def test_clean_files_never_build_a_message(block_bytes, tmp_path, monkeypatch):
    """A clean file is read without building any message: the rules' offsets are all that runs."""
    monkeypatch.setattr(textfile, "SubmissionError", _NoMessage)
    monkeypatch.setattr(textfile, "BLOCK_BYTES", block_bytes)
    path = tmp_path / "x.tsv"
    read = 0
    for data in _clean_files():
        if block_bytes < 1000 and len(data) > 200000:
            continue
        path.write_bytes(data)
        numbers, texts = textfile.read_texts(path, "x.tsv")
        assert len(texts) == len(numbers) > 0
        read += 1
    assert read >= 2 * len(edition.TRACK_BY_ID)


@pytest.mark.parametrize("block_bytes", [3, 5, 64])
def test_outcomes_do_not_depend_on_the_block_size(block_bytes):
    """Where the blocks end changes no line number, offset or text, nor which problem comes first:
    with no line bound, and with a small one (5 or 7 lines) and a small line-length limit."""
    cases = [
        case
        for case in textfile_outcomes.inputs()
        if case[0].startswith("pieces/")
        and (
            case[3] == (None, None, None) and case[2] is None or case[3][2] is not None and case[2]
        )
    ]
    default = textfile_outcomes.record(cases)
    blocks = textfile_outcomes.record(
        (case_id, data, n, (block_bytes, *s[1:])) for case_id, data, n, s in cases
    )
    assert {k: _comparable(v) for k, v in blocks.items()} == {
        k: _comparable(v) for k, v in default.items()
    }
    assert sum("too many lines" in str(v) for v in default.values()) >= 3


def test_the_first_problem_in_the_file_is_reported_past_the_line_bound(tmp_path, monkeypatch):
    """A bad line before the bound is reported, not 'too many lines', also when the block that goes
    past the bound ends in a line longer than ``MAX_LINE_BYTES`` (5 lines allowed for 1 item here)."""
    monkeypatch.setattr(textfile, "MAX_LINE_BYTES", 16)
    monkeypatch.setattr(textfile, "LINE_SLACK", 3)
    path = tmp_path / "x.tsv"
    for tail in (b"", b"x" * 40):
        path.write_bytes(b"a\t1\n\xff\n" + b"\n" * 6 + tail)
        with pytest.raises(SubmissionError, match=r"^x.tsv, line 2: file is not UTF-8 text"):
            textfile.read_texts(path, "x.tsv", 1)
    path.write_bytes(b"a\t1\n" * 5 + b"\xff" + b"x" * 40)
    with pytest.raises(SubmissionError, match=r"^x.tsv: file has too many lines"):
        textfile.read_texts(path, "x.tsv", 1)


def test_a_line_of_exactly_the_limit_is_read_and_one_byte_more_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(textfile, "MAX_LINE_BYTES", 8)
    path = tmp_path / "x.tsv"
    path.write_bytes(b"a\t345678\nb\t34567\r\n")
    assert list(zip(*textfile.read_texts(path, "x.tsv"))) == [(1, "a\t345678"), (2, "b\t34567")]
    path.write_bytes(b"a\t3456789\n")
    with pytest.raises(
        SubmissionError, match=r"x.tsv, line 1: line is too long; expected at most 8 bytes"
    ):
        textfile.read_texts(path, "x.tsv")
