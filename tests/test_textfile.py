"""The text-file reader (``textfile.read_texts``): one named case per rule it refuses by, the layouts
it accepts, and properties over arbitrary bytes (hypothesis, derandomized, bounded).

Each refusal names the file and, for a rule about a line, the line; what was expected and what was
found. The rules of a line are checked in the order of ``textfile._refuse_broken`` and the first problem in
the file is reported.
"""

from __future__ import annotations

import codecs
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hostile import edition
from hostile.rules import Refusal, assert_refused
from codajudge.errors import ConfigError, SubmissionError
from codajudge.formats import textfile

BOM = codecs.BOM_UTF8
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"


@pytest.fixture
def write(tmp_path):
    """``write(data)`` -> the path of a file ``x.tsv`` holding ``data``."""
    path = tmp_path / "x.tsv"

    def written(data: bytes) -> Path:
        path.write_bytes(data)
        return path

    return written


def read(path: Path, n_items=None):
    """The file's lines for a track of ``n_items`` items (None: a million, whose bounds no case meets)."""
    return textfile.read_texts(path, "x.tsv", 10**6 if n_items is None else n_items)


# --- one case per rule ---------------------------------------------------------------------------

#: name -> (file content, the track's items (None: a bound no case meets), the refusal).
RULES = {
    "empty file": (b"", None, Refusal("x.tsv", "file is empty", found="no content")),
    "only blank lines": (b" \n\t\n\r\n\n", None, Refusal("x.tsv", "file is empty")),
    "only a BOM": (BOM, None, Refusal("x.tsv", "file is empty")),
    "only Unicode spaces": (
        "\u00a0\u3000\n\u2003\n".encode(),
        None,
        Refusal("x.tsv", "file is empty"),
    ),
    "UTF-16 byte-order mark": (
        "a\t1\n".encode("utf-16"),
        None,
        Refusal("x.tsv", "file is UTF-16 text", found="a UTF-16 byte-order mark (FF FE)"),
    ),
    "UTF-16 without a byte-order mark (little-endian)": (
        "a\t1\nb\t2\n".encode("utf-16-le"),
        None,
        Refusal(
            "x.tsv",
            "file looks like UTF-16 text",
            expected="UTF-8 text",
            found="a NUL byte every other byte, as in UTF-16LE without a byte-order mark",
        ),
    ),
    "UTF-16 without a byte-order mark (big-endian)": (
        "a\t1\n".encode("utf-16-be"),
        None,
        Refusal("x.tsv", "file looks like UTF-16 text", found="as in UTF-16BE without"),
    ),
    "UTF-32 byte-order mark": (
        "a\t1\n".encode("utf-32"),
        None,
        Refusal("x.tsv", "file is UTF-32 text", found="a UTF-32 byte-order mark (FF FE 00 00)"),
    ),
    "pretty-printed JSON document": (
        b'\n[\n  {"id": "a", "label": 1}\n]\n',
        None,
        Refusal("x.tsv", "one JSON document over many lines", line=2, found="only '['"),
    ),
    "pretty-printed JSON object": (
        b'{\n "a": 1\n}\n',
        None,
        Refusal("x.tsv", "one JSON document over many lines", line=1, found="only '{'"),
    ),
    "Latin-1 byte": (
        b"a\t1\nb\tcaf\xe9\n",
        None,
        Refusal("x.tsv", "file is not UTF-8 text", line=2, found="byte 0xe9 at offset 9"),
    ),
    "Latin-1 byte after a BOM (offsets count the BOM)": (
        BOM + b"a\t1\nb\tcaf\xe9\n",
        None,
        Refusal("x.tsv", "file is not UTF-8 text", line=2, found="byte 0xe9 at offset 12"),
    ),
    "UTF-8 sequence cut at the file's end": (
        b"a\t1\nb\t\xe2\x80",
        None,
        Refusal("x.tsv", "file is not UTF-8 text", line=2, found="byte 0xe2 at offset 6"),
    ),
    "NUL byte": (
        b"a\t1\nb\t2\nc\x00\t3\n",
        None,
        Refusal(
            "x.tsv",
            "file is binary, not text",
            line=3,
            expected="UTF-8 text",
            found="a NUL byte at offset 9",
        ),
    ),
    "a zip archive under a text file's name": (
        b"PK\x03\x04\x14\x00\x00\x00\x08\x00en_en.tsv",
        None,
        Refusal(
            "x.tsv",
            "file is a zip archive, not text",
            expected="UTF-8 text",
            found="the bytes b'PK\\x03\\x04' at its start",
        ),
    ),
    "a gzip-compressed file after a BOM": (
        BOM + b"\x1f\x8b\x08\x00",
        None,
        Refusal("x.tsv", "file is gzip-compressed, not text", found="the bytes"),
    ),
    "a NumPy array": (
        b"\x93NUMPY\x01\x00v\x00{'descr': '<f8'}\n",
        None,
        Refusal("x.tsv", "file is a NumPy .npy array, not text"),
    ),
    "carriage return inside a line": (
        b"a\t1\rb\t2\n",
        None,
        Refusal(
            "x.tsv",
            "carriage return (CR) in the middle",
            line=1,
            expected="lines ending in LF or CRLF",
            found="CR inside the line",
        ),
    ),
    "old Mac line ends (CR only)": (
        b"a\t1\rb\t2\rc\t3\r",
        None,
        Refusal("x.tsv", "carriage return (CR) in the middle", line=1),
    ),
    "too many lines for the track": (
        b"a\t1\n\n" * 10 + b"\n" * 1001,
        10,
        Refusal(
            "x.tsv",
            "file has too many lines",
            expected="at most 1,020 lines for a track of 10 items",
            found="more than 1,020 lines",
        ),
    ),
    "too large for the track": (
        b"a\t" + b"1" * (64 * 1024 * 10 + 1024 * 1024) + b"\n",
        10,
        Refusal(
            "x.tsv",
            "file is too large",
            expected="at most 1703936 bytes for a track of 10 items",
            found="1703939 bytes",
        ),
    ),
    "first line too long": (
        b"1" * (1024 * 1024 + 8),
        None,
        Refusal(
            "x.tsv",
            "line is too long",
            line=1,
            expected="at most 1048576 bytes per line",
            found="a longer line",
        ),
    ),
    "a later line too long": (
        b"a\n" * 5 + b"1" * (1024 * 1024 + 8),
        None,
        Refusal("x.tsv", "line is too long", line=6),
    ),
    "a line of one byte over the limit": (
        b"x" * (1024 * 1024 + 1) + b"\nb\n",
        None,
        Refusal("x.tsv", "line is too long", line=1),
    ),
    "a long line after a NUL byte on an earlier line": (
        b"a\x00\n" + b"1" * (1024 * 1024 + 8),
        None,
        Refusal("x.tsv", "file is binary, not text", line=1, found="offset 1"),
    ),
    "a long line past the first block": (
        b"a\n" * 300000 + b"1" * (1024 * 1024 + 8),
        None,
        Refusal("x.tsv", "line is too long", line=300001),
    ),
}


@pytest.mark.parametrize("name", sorted(RULES))
def test_rule(name, write):
    data, n_items, refusal = RULES[name]
    assert_refused(lambda: read(write(data), n_items), refusal)


def test_a_file_too_large_for_any_track_is_refused_unread(write, monkeypatch):
    monkeypatch.setattr(textfile, "MAX_FILE_BYTES", 100)
    refusal = Refusal("x.tsv", "file is too large", expected="at most 100 bytes", found="101 bytes")
    message = assert_refused(lambda: read(write(b"a\t1\n" * 25 + b"x")), refusal)
    assert "for a track" not in message


def test_a_file_that_cannot_be_read_is_refused_with_the_reason(tmp_path):
    folder = tmp_path / "x.tsv"
    folder.mkdir()
    assert_refused(
        lambda: read(folder), Refusal("x.tsv", "the file cannot be read", found="Is a directory")
    )


def test_an_unprintable_file_name_is_escaped_in_the_message(tmp_path):
    path = tmp_path / "x.tsv"
    path.write_bytes(b"")
    with pytest.raises(SubmissionError) as error:
        textfile.read_texts(path, "evil\x1b[2J.tsv", 10)
    assert str(error.value).startswith("evil\\x1b[2J.tsv: file is empty")


@pytest.mark.parametrize(
    "encoding, found",
    [
        ("utf-16-le", "a UTF-16 byte-order mark (FF FE)"),
        ("utf-16-be", "a UTF-16 byte-order mark (FE FF)"),
        ("utf-32-le", "a UTF-32 byte-order mark (FF FE 00 00)"),
        ("utf-32-be", "a UTF-32 byte-order mark (00 00 FE FF)"),
    ],
)
def test_the_shared_utf8_check_names_another_encoding_s_byte_order_mark(encoding, found):
    """``utf8_text``, the UTF-8 check of every file but a participant's predictions (an organiser's
    data, config and pages, the teams file, a ChaosNLI document), names the encoding of a file that
    opens with its byte-order mark rather than the mark's first byte; a mark later in the file
    (read from an offset) is only a byte."""
    data = "\ufeffid,score\na,1\n".encode(encoding)
    with pytest.raises(ConfigError) as caught:
        textfile.utf8_text(data, "data/sim.csv")
    assert str(caught.value) == (
        f"data/sim.csv, line 1: file is not UTF-8 text; expected UTF-8, found {found}. Save the "
        "file as UTF-8 (Latin-1 and other encodings are refused)"
    )
    with pytest.raises(SubmissionError, match="found byte 0x"):
        textfile.utf8_text(data, "x.tsv", SubmissionError, 2, 10)


# --- which problem is named when a file has several ----------------------------------------------


@pytest.mark.parametrize(
    "data, refusal",
    [
        (b"a\x00\xe9\rb\n", Refusal("x.tsv", "file is binary, not text", line=1)),
        (b"a\xe9\rb\n", Refusal("x.tsv", "file is not UTF-8 text", line=1)),
        (b"a\rb\n\xe9\n", Refusal("x.tsv", "carriage return (CR) in the middle", line=1)),
        (b"a\n\xe9\n\x00\n", Refusal("x.tsv", "file is not UTF-8 text", line=2)),
    ],
    ids=["NUL before not-UTF-8", "not-UTF-8 before CR", "earlier line first", "earlier line only"],
)
def test_the_first_problem_of_the_file_is_named(data, refusal, write):
    """On one line the rules are checked in order (long, NUL, UTF-8, CR); the earliest line wins."""
    assert_refused(lambda: read(write(data)), refusal)


def test_a_bad_line_before_the_line_bound_is_named_not_the_bound(write, monkeypatch):
    """5 lines are allowed for 1 item here: the bad line 2 is reported, also when the block that goes
    past the bound ends in a line longer than ``MAX_LINE_BYTES``."""
    monkeypatch.setattr(textfile, "MAX_LINE_BYTES", 16)
    monkeypatch.setattr(textfile, "LINE_SLACK", 3)
    for tail in (b"", b"x" * 40):
        data = b"a\t1\n\xff\n" + b"\n" * 6 + tail
        assert_refused(lambda: read(write(data), 1), Refusal("x.tsv", "not UTF-8 text", line=2))
    data = b"a\t1\n" * 5 + b"\xff" + b"x" * 40
    assert_refused(lambda: read(write(data), 1), Refusal("x.tsv", "file has too many lines"))


def test_exactly_the_line_bound_is_read_and_one_line_more_is_refused(write):
    lines = read(write(b"a\t1\n\n" * 10 + b"\n" * 1000), 10)
    assert list(lines.numbers) == list(range(1, 20, 2))
    data = b"a\t1\n" * 10 + b"\xff\n" + b"\n" * 1010
    assert_refused(lambda: read(write(data), 10), Refusal("x.tsv", "not UTF-8 text", line=11))


def test_a_line_of_exactly_the_limit_is_read_and_one_byte_more_is_refused(write, monkeypatch):
    monkeypatch.setattr(textfile, "MAX_LINE_BYTES", 8)
    assert list(zip(*read(write(b"a\t345678\nb\t34567\r\n")))) == [
        (1, "a\t345678"),
        (2, "b\t34567"),
    ]
    refusal = Refusal("x.tsv", "line is too long", line=1, expected="at most 8 bytes")
    assert_refused(lambda: read(write(b"a\t3456789\n")), refusal)


def test_a_bom_is_outside_the_first_line_s_budget(write, monkeypatch):
    """A first line of exactly the limit after a BOM is read; one byte more is too long."""
    monkeypatch.setattr(textfile, "MAX_LINE_BYTES", 8)
    assert read(write(BOM + b"a\t345678\n")).texts == ["a\t345678"]
    refusal = Refusal("x.tsv", "line is too long", line=1)
    assert_refused(lambda: read(write(BOM + b"a\t3456789\n")), refusal)


# --- what is accepted ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data, numbers, texts",
    [
        (b"a\t1\nb\t2\n", [1, 2], ["a\t1", "b\t2"]),
        (b"a\t1\r\nb\t2", [1, 2], ["a\t1", "b\t2"]),
        (BOM + b"a\t1\n\n \t\nb\t2\n\n", [1, 4], ["a\t1", "b\t2"]),
        (b"a\t1\nb\t2\r", [1, 2], ["a\t1", "b\t2"]),
        ("x\u2028y\t1\n\u00a0\nz\u0085\t2\n".encode(), [1, 3], ["x\u2028y\t1", "z\u0085\t2"]),
    ],
    ids=[
        "LF",
        "CRLF without a last line end",
        "BOM and blank lines",
        "CR ending the file",
        "U+2028",
    ],
)
def test_accepted_layouts(data, numbers, texts, write):
    """Lines keep their numbers in the file (blank lines count); U+2028 and U+0085 are text."""
    lines = read(write(data))
    assert (list(lines.numbers), lines.texts) == (numbers, texts)


def _clean_files():
    """The hostile edition's valid files (LF, and CRLF with a BOM and blank lines) and the real STS
    releases' text files when ../shared/data is present."""
    for track_id in sorted(edition.TRACK_BY_ID):
        yield edition.valid_file(track_id)
        yield BOM + edition.valid_file(track_id).replace(b"\n", b"\r\n\r\n")
    yield from (path.read_bytes() for path in sorted(SHARED.glob("sts*/*.txt"))[:6])


def test_clean_files_are_read_whole(write):
    for data in _clean_files():
        lines = read(write(data))
        expected = [line for line in data.decode("utf-8-sig").splitlines() if line.strip()]
        assert lines.texts == expected and len(lines.numbers) == len(expected)


# --- properties over arbitrary bytes ------------------------------------------------------------

#: Pieces that meet the rules: line ends, NUL, BOMs, invalid and cut UTF-8, Unicode spaces.
PIECES = [
    b"a",
    b"b\tc",
    b"\n",
    b"\r\n",
    b"\r",
    b" ",
    b"\x00",
    BOM,
    b"\xc3\xa9",
    b"\xe9",
    b"\xff\xfe",
    b"\t",
    b"\xe2\x80\xa8",
    b"1.5",
    b"\x0b",
    b"\xc2\x85",
    b"x" * 10,
    b"\xe2\x80",
    b"[",
]
FILES = st.one_of(
    st.lists(st.sampled_from(PIECES), max_size=30).map(b"".join), st.binary(max_size=60)
)
FUZZ = settings(
    max_examples=150,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)


def _outcome(path: Path, n_items):
    """(numbers, texts) or the refusal's message; any other exception propagates (a crash)."""
    try:
        lines = read(path, n_items)
    except SubmissionError as e:
        return str(e)
    return list(lines.numbers), lines.texts


def _model(data: bytes):
    """The lines an accepted file must give: after a BOM, split at LF (a CR before it or at the
    file's end dropped), blank lines skipped but counted."""
    text = data.decode("utf-8").removeprefix("\ufeff").replace("\r\n", "\n")
    parts = text.removesuffix("\n").removesuffix("\r").split("\n")
    kept = [(k, part) for k, part in enumerate(parts, 1) if part.strip()]
    return [k for k, _ in kept], [part for _, part in kept]


@FUZZ
@given(data=FILES, n_items=st.sampled_from([None, 1, 3]))
def test_any_bytes_give_their_lines_or_one_located_refusal(data, n_items, tmp_path_factory):
    """Accepted: exactly the file's non-blank lines, by their numbers. Refused: one problem that
    names the file, and the line when the rule is about a line no later than the file's last."""
    path = tmp_path_factory.getbasetemp() / "x.tsv"
    path.write_bytes(data)
    outcome = _outcome(path, n_items)
    if isinstance(outcome, tuple):
        assert outcome == _model(data)
        return
    assert "\n" not in outcome and outcome.startswith("x.tsv")
    line = re.match(r"x\.tsv, line (\d+): ", outcome)
    if line:
        assert 1 <= int(line[1]) <= data.count(b"\n") + 1
    else:
        assert re.match(
            r"x\.tsv: file (is empty|has too many lines|is UTF-|looks like UTF-16|is .*, not text;)",
            outcome,
        )


@FUZZ
@given(data=FILES)
def test_a_bom_changes_nothing_but_the_offsets(data, tmp_path_factory):
    """A file read with a UTF-8 BOM before it gives what it gives without (offsets 3 bytes on),
    unless the bytes already start with a BOM or the first line is about the length limit."""
    if data.startswith((BOM, b"\xff\xfe", b"\xfe\xff", b"\x00\x00")):
        return
    path = tmp_path_factory.getbasetemp() / "x.tsv"
    path.write_bytes(data)
    without = _outcome(path, None)
    path.write_bytes(BOM + data)
    shifted = (
        re.sub(r"offset (\d+)", lambda m: f"offset {int(m[1]) + 3}", without)
        if isinstance(without, str)
        else without
    )
    assert _outcome(path, None) == shifted
