"""Decoding a submitted text file defensively: UTF-8 (with or without BOM), CRLF, no binary.

The file is read a block of whole lines at a time and each block is checked at once, in C, by the
rules in ``_RULES`` (a line too long, a NUL byte, invalid UTF-8, a CR inside a line). A block that
breaks a rule is explained: each rule's first hit is an offset, whose line is the count of the
newlines before it, and the earliest line is reported with the first rule it breaks. A block holds
at most ``MAX_LINE_BYTES`` plus the rest of its last line, read with a bounded ``readline``: a
1 GB file with no newline is refused after reading about one line's budget, never loaded whole.
"""

from __future__ import annotations

import codecs
import re
from itertools import compress
from pathlib import Path
from typing import Iterator, List, Optional, Sequence, Tuple

from ..errors import SubmissionError

#: Largest accepted prediction file and line. A million-item similarity track is about 20 MB; a
#: perspectivist line with a thousand annotators is about 20 kB.
MAX_FILE_BYTES = 512 * 1024 * 1024
MAX_LINE_BYTES = 1024 * 1024
#: Bytes read at a time (at most MAX_LINE_BYTES), then rounded up to a line end.
BLOCK_BYTES = 1024 * 1024
#: Bounds relative to the track's size, so that memory grows with the track, not with the file: at
#: most LINES_PER_ITEM lines per item plus LINE_SLACK (blank lines count; counted in C before any
#: line is decoded), and at most BYTES_PER_ITEM bytes per item plus FILE_SLACK_BYTES.
LINES_PER_ITEM = 2
LINE_SLACK = 1000
BYTES_PER_ITEM = 64 * 1024
FILE_SLACK_BYTES = 1024 * 1024

_UTF8_BOM = codecs.BOM_UTF8
_OTHER_BOMS = ((codecs.BOM_UTF32_LE, "UTF-32"), (codecs.BOM_UTF32_BE, "UTF-32"),
               (codecs.BOM_UTF16_LE, "UTF-16"), (codecs.BOM_UTF16_BE, "UTF-16"))
_CR_INSIDE = re.compile(rb"\r(?!\n|\Z)")  # a CR that ends neither its line (before the LF) nor the file


def shorten(text: str, limit: int = 60) -> str:
    """Submitted text cut to ``limit`` characters for a message (an ellipsis marks the cut)."""
    return text if len(text) <= limit else text[:limit] + "..."


def safe_display(name: str) -> str:
    """A file name fit to print: control, bidi and other unprintable characters are escaped."""
    name = str(name)
    return name if name.isprintable() else repr(name)[1:-1]


def read_lines(path: Path, display: str, n_items: Optional[int] = None) -> List[Tuple[int, str]]:
    """Non-blank lines with their 1-based numbers. Refuses binary, non-UTF-8, empty and huge files or lines."""
    return list(zip(*read_texts(path, display, n_items)))


def file_limits(n_items: Optional[int]) -> Tuple[Optional[int], int]:
    """(most lines, most bytes) of a file for a track of ``n_items`` items (None: no line bound)."""
    if n_items is None:
        return None, MAX_FILE_BYTES
    return LINES_PER_ITEM * n_items + LINE_SLACK, min(MAX_FILE_BYTES, BYTES_PER_ITEM * n_items + FILE_SLACK_BYTES)


def read_texts(path: Path, display: str, n_items: Optional[int] = None) -> Tuple[Sequence[int], List[str]]:
    """``read_lines`` as two columns: the numbers (a ``range`` when no line is blank) and the texts.

    ``n_items``: the track's number of items, which bounds the file's lines and bytes (``file_limits``)."""
    display = safe_display(display)
    max_lines, max_bytes = file_limits(n_items)
    try:
        size = Path(path).stat().st_size
        if size > max_bytes:
            per_track = f" for a track of {n_items:,} items" if max_bytes < MAX_FILE_BYTES else ""
            raise SubmissionError.single(display, "file is too large", expected=f"at most {max_bytes} bytes{per_track}",
                                         found=f"{size} bytes")
        with open(path, "rb") as f:
            numbers, texts = _read_blocks(f, display, max_lines, n_items)
    except OSError as e:
        raise SubmissionError.single(display, "the file cannot be read", found=e.strerror or e.__class__.__name__)
    if not texts:
        raise SubmissionError.single(display, "file is empty", expected="one line per item",
                                     found="no content", hint="check that predictions were written")
    return numbers, texts


def _read_blocks(f, display: str, max_lines: Optional[int], n_items: Optional[int]) -> Tuple[Sequence[int], List[str]]:
    """The non-blank lines of an open binary file as (numbers, texts), a block at a time; the numbers
    stay a ``range`` until a blank line is met."""
    texts: List[str] = []
    numbers: Optional[List[int]] = None
    number = 0
    for block, offset in _blocks(f, display):
        lines = number + block.count(b"\n") + (not block.endswith(b"\n"))
        if max_lines is not None and lines > max_lines:
            raise SubmissionError.single(display, "file has too many lines", hint="write one line per item",
                                         expected=f"at most {max_lines:,} lines for a track of {n_items:,} items "
                                         f"({LINES_PER_ITEM} per item plus {LINE_SLACK:,}, blank lines included)",
                                         found=f"more than {max_lines:,} lines")
        _refuse_breach(block, number, offset, display)
        parts = _lines(block.decode("utf-8"))
        kept = list(filter(str.strip, parts))
        if numbers is None and len(kept) != len(parts):
            numbers = list(range(1, len(texts) + 1))
        if numbers is not None:
            numbers.extend(compress(range(number + 1, lines + 1), map(str.strip, parts)))
        texts.extend(kept)
        number = lines
    return (range(1, len(texts) + 1) if numbers is None else numbers), texts


def _blocks(f, display: str) -> Iterator[Tuple[bytes, int]]:
    """The file's bytes after any UTF-8 BOM, in blocks of whole lines, each with its offset in the file.

    A block is at most ``MAX_LINE_BYTES`` and the rest of its last line, read with a bounded
    ``readline``: only its last line can be longer than ``MAX_LINE_BYTES``."""
    size = min(BLOCK_BYTES, MAX_LINE_BYTES)
    block = f.read(max(size, 4))
    for bom, encoding in _OTHER_BOMS:  # named as such: their NUL bytes would read as 'binary'
        if block.startswith(bom):
            raise SubmissionError.single(display, f"file is {encoding} text", expected="UTF-8 text",
                                         found=f"a {encoding} byte-order mark", hint="save the file as UTF-8")
    offset = 0
    if block.startswith(_UTF8_BOM):
        block, offset = block[len(_UTF8_BOM):] or f.read(size), len(_UTF8_BOM)
    while block:
        if not block.endswith(b"\n"):
            block += f.readline(MAX_LINE_BYTES + 1)
        yield block, offset
        offset += len(block)
        block = f.read(size)


def _lines(text: str) -> List[str]:
    """A checked block's lines, without their LF or CRLF (or the CR that ends the file)."""
    parts = (text.replace("\r\n", "\n") if "\r" in text else text).split("\n")
    if text.endswith("\n"):
        parts.pop()
    elif parts[-1].endswith("\r"):
        parts[-1] = parts[-1][:-1]
    return parts


def _long_line(block: bytes) -> int:
    """Where the block's last line starts if it is longer than ``MAX_LINE_BYTES`` (before its LF)."""
    end = len(block) - block.endswith(b"\n")
    start = block.rfind(b"\n", 0, end) + 1
    return start if end - start > MAX_LINE_BYTES else -1


def _not_utf8(block: bytes) -> int:
    try:
        block.isascii() or block.decode("utf-8")
    except UnicodeDecodeError as e:
        return e.start
    return -1


#: The rules of a line, in the order a line is checked: where a block first breaks it (-1: nowhere),
#: the problem, what was expected and found (with the hit's ``offset`` in the file and ``byte``), the hint.
_RULES = (
    (_long_line, "line is too long", "at most {limit} bytes per line", "a longer line", "write one item per line"),
    (lambda block: block.find(b"\x00"), "file is binary, not text", "UTF-8 text", "a NUL byte at offset {offset}",
     None),
    (_not_utf8, "file is not UTF-8 text", "UTF-8", "byte 0x{byte:02x} at offset {offset}",
     "save the file as UTF-8 (Latin-1 and other encodings are refused)"),
    (lambda block: next((m.start() for m in _CR_INSIDE.finditer(block)), -1) if b"\r" in block else -1,
     "line holds a carriage return (CR) in the middle", "lines ending in LF or CRLF",
     "CR inside the line (old Mac line endings?)", "save the file with Unix (LF) or Windows (CRLF) line endings"),
)


def _refuse_breach(block: bytes, number: int, offset: int, display: str) -> None:
    """Refuse the block's earliest line that breaks a rule, naming the first rule it breaks; the
    block follows ``number`` lines and starts ``offset`` bytes into the file."""
    hits = [(block.count(b"\n", 0, at), rank, at) for rank, at in enumerate(r[0](block) for r in _RULES) if at >= 0]
    if hits:
        line, rank, at = min(hits)
        _, problem, expected, found, hint = _RULES[rank]
        where = {"limit": MAX_LINE_BYTES, "offset": offset + at, "byte": block[at]}
        raise SubmissionError.single(display, problem, line=number + line + 1, expected=expected.format(**where),
                                     found=found.format(**where), hint=hint)
