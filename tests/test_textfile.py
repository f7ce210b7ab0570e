"""The text-file reader: one reader, each rule stated once, and the same outcomes as recorded.

``hostile/recorded/textfile.json`` holds the reader's outcomes (values digest or full message) over
the hostile corpus, seeded awkward inputs at several block sizes and bounds, and the bounds cases
(``hostile/textfile_outcomes.py``, recorded by ``hostile/recordings.py``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hostile import edition, recordings, textfile_outcomes
from codajudge.errors import SubmissionError
from codajudge.formats import textfile

BOM = b"\xef\xbb\xbf"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"


RECORDED = recordings.recorded("textfile")


def _comparable(outcome):
    """An outcome without whether the numbers were a ``range`` (the line path gave lists)."""
    return outcome[::2] if outcome[0] == "ok" else outcome


def _first_line(data: bytes) -> bytes:
    return data[len(BOM) :].split(b"\n", 1)[0]


@pytest.fixture(scope="module")
def outcomes():
    return textfile_outcomes.record()


def test_the_recording_has_every_case(outcomes):
    assert sorted(outcomes) == sorted(RECORDED)


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_a_text_file_reads_as_recorded(name, outcomes):
    assert outcomes[name] == RECORDED[name]


def test_a_bom_is_outside_the_first_line_s_budget():
    """A UTF-8 BOM does not count in the first line's length bound: a first line longer than the
    bound is refused as too long, and any other file with a BOM reads as it does without one (the
    offsets in messages still count the BOM's three bytes)."""
    cases = list(textfile_outcomes.inputs())
    limit = {case[0]: case[3][1] or textfile.MAX_LINE_BYTES for case in cases}
    with_bom = {
        case[0]: case
        for case in cases
        if case[1].startswith(BOM) and len(_first_line(case[1])) > limit[case[0]] - len(BOM)
    }
    assert len(with_bom) > 20
    now = textfile_outcomes.record(with_bom.values())
    long = {name for name, case in with_bom.items() if len(_first_line(case[1])) > limit[name]}
    assert "bounds/long_bom" in long
    for name in long:
        assert now[name][2].startswith("x.tsv, line 1: line is too long"), name
    without_bom = textfile_outcomes.record(
        (name, data[3:], n, s) for name, data, n, s in with_bom.values() if name not in long
    )
    for name, outcome in without_bom.items():
        shifted = [
            re.sub(r"offset (\d+)", lambda m: f"offset {int(m[1]) + 3}", str(x)) for x in outcome
        ]
        assert [str(x) for x in now[name]] == shifted, name


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
