"""Outcomes of the text-file reader (``textfile.read_texts``) over fixed inputs, recorded once.

The inputs: every file of the hostile corpus (``corpus.py``), read with and without the track's
line and byte bounds; seeded random strings of awkward pieces (NUL, CR, BOMs, invalid UTF-8, blank
and Unicode-space lines), read with several block sizes, with and without a small line bound and a
small line-length limit; and the bounds cases of ``test_bounds.py``. Each outcome is 'ok' with a
digest of the numbers and texts (and whether the numbers are a ``range``), or the error's type and
full message. ``tests/test_textfile.py`` compares the reader with ``recorded/textfile.json``,
which ``python3 tests/hostile/recordings.py`` rewrites.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Dict, Iterable, Iterator, Optional, Tuple

ROOT = Path(__file__).resolve().parents[2]
if __package__ in (None, ""):  # run as a script: make the repository and tests/ importable
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "tests"))

from hostile import corpus  # noqa: E402
from hostile.recording import recorded_outcome  # noqa: E402
from codajudge.formats import textfile  # noqa: E402

PIECES = [
    b"a",
    b"b\tc",
    b"\n",
    b"\r\n",
    b"\r",
    b" ",
    b"\x00",
    b"\xef\xbb\xbf",
    b"\xc3\xa9",
    b"\xe9",
    b"\xff\xfe",
    b"\t",
    b"\xe2\x80\xa8",
    b"1.5",
    b"\n\n",
    b"\x0b",
    b"\xc2\x85",
    b"xxxxxxxxxx",
    b"\xe2\x80",
    b"\r\r",
]
#: (block bytes, max line bytes, line slack) settings; None keeps the module's value.
SETTINGS = [(None, None, None), (5, None, None), (3, None, None), (4, 12, 3), (7, 16, 5)]

#: One input: (case id, bytes, n_items, setting).
Input = Tuple[str, bytes, Optional[int], Tuple[Optional[int], Optional[int], Optional[int]]]


def inputs() -> Iterator[Input]:
    for case in corpus.cases():
        for name, data in sorted(case.files.items()):
            for n_items in (None, 12):
                yield f"corpus/{case.name}/{name}/{n_items}", data, n_items, SETTINGS[0]
    rng = random.Random(14)
    for k in range(800):
        data = b"".join(rng.choice(PIECES) for _ in range(rng.randint(0, 30)))
        for s, setting in enumerate(SETTINGS):
            yield f"pieces/{k}/{s}", data, (1 if k % 3 == 0 else None), setting
    yield from _bounds_inputs()


def _bounds_inputs() -> Iterator[Input]:
    yield "bounds/exact", b"a\t1\n\n" * 10 + b"\n" * 1000, 10, SETTINGS[0]
    yield "bounds/one_more", b"a\t1\n\n" * 10 + b"\n" * 1001, 10, SETTINGS[0]
    yield "bounds/bad_byte_then_blanks", b"a\t1\n" * 10 + b"\xff\n" + b"\n" * 1010, 10, SETTINGS[0]
    yield (
        "bounds/too_large",
        b"a\t" + b"1" * (64 * 1024 * 10 + 1024 * 1024) + b"\n",
        10,
        SETTINGS[0],
    )
    long = b"1" * (1024 * 1024 + 8)
    for where, data in (
        ("first", long),
        ("first_lf", long + b"\n"),
        ("after", b"a\n" * 5 + long),
        ("bom", corpus.BOM + long),
        ("nul_before", b"a\x00\n" + long),
        ("exact", b"x" * (1024 * 1024) + b"\nb\n"),
        ("exact_crlf", b"x" * (1024 * 1024) + b"\r\nb\n"),
        ("one_over", b"x" * (1024 * 1024 + 1) + b"\nb\n"),
        ("mid_block", b"a\n" * 300000 + long),
    ):
        yield f"bounds/long_{where}", data, None, SETTINGS[0]


def outcome(path: Path, n_items: Optional[int]):
    """['ok', range?, digest] or ['error', type, message]; any other exception propagates (a crash)."""

    def summary(columns) -> list:
        numbers, texts = columns
        return [
            isinstance(numbers, range),
            hashlib.sha256(json.dumps([list(numbers), texts]).encode()).hexdigest()[:16],
        ]

    return recorded_outcome(lambda: textfile.read_texts(path, "x.tsv", n_items), summary)


def record(cases: Iterable[Input] = ()) -> Dict[str, list]:
    """The outcome of each of ``cases`` (default: ``inputs()``), by case id."""
    out: Dict[str, list] = {}
    defaults = (textfile.BLOCK_BYTES, textfile.MAX_LINE_BYTES, textfile.LINE_SLACK)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "x.tsv"
        try:
            for case_id, data, n_items, setting in cases or inputs():
                for name, value, default in zip(
                    ("BLOCK_BYTES", "MAX_LINE_BYTES", "LINE_SLACK"), setting, defaults
                ):
                    setattr(textfile, name, default if value is None else value)
                path.write_bytes(data)
                out[case_id] = outcome(path, n_items)
        finally:
            textfile.BLOCK_BYTES, textfile.MAX_LINE_BYTES, textfile.LINE_SLACK = defaults
    return out
