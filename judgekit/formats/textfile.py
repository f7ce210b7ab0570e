"""Decoding a submitted text file defensively: UTF-8 (with or without BOM), CRLF, no binary.

The file is read a block at a time (``BLOCK_BYTES``, whole lines), each block checked and decoded
at once; a block with anything to report (a NUL byte, invalid UTF-8, a stray CR, a line near the
length limit) sends the file to the precise reader, line by line with a bounded ``readline``, which
reports it with its line number. So a huge single line (a 1 GB file with no newline) is refused
after reading at most about two lines' budget, never loaded whole.
"""

from __future__ import annotations

import codecs
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

from ..errors import SubmissionError

#: Largest accepted prediction file and line. A million-item similarity track is about 20 MB; a
#: perspectivist line with a thousand annotators is about 20 kB.
MAX_FILE_BYTES = 512 * 1024 * 1024
MAX_LINE_BYTES = 1024 * 1024
#: Bytes the fast reader decodes at a time (rounded up to a line end).
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


def shorten(text: str, limit: int = 60) -> str:
    """Submitted text cut to ``limit`` characters for a message (an ellipsis marks the cut)."""
    return text if len(text) <= limit else text[:limit] + "..."


def safe_display(name: str) -> str:
    """A file name fit to print: control, bidi and other unprintable characters are escaped."""
    name = str(name)
    return name if name.isprintable() else repr(name)[1:-1]


def _refuse_other_encodings(head: bytes, display: str) -> None:
    """Name UTF-16 and UTF-32 files as such (their NUL bytes would otherwise read as 'binary')."""
    for bom, encoding in _OTHER_BOMS:
        if head.startswith(bom):
            raise SubmissionError.single(display, f"file is {encoding} text", expected="UTF-8 text",
                                         found=f"a {encoding} byte-order mark",
                                         hint="save the file as UTF-8")


def _decode_line(raw: bytes, number: int, offset: int, display: str) -> str:
    """One line (without its LF) as text; refuses NUL bytes, invalid UTF-8 and bare CRs."""
    nul = raw.find(b"\x00")
    if nul >= 0:
        raise SubmissionError.single(display, "file is binary, not text", line=number, expected="UTF-8 text",
                                     found=f"a NUL byte at offset {offset + nul}")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise SubmissionError.single(display, "file is not UTF-8 text", line=number, expected="UTF-8",
                                     found=f"byte 0x{raw[e.start]:02x} at offset {offset + e.start}",
                                     hint="save the file as UTF-8 (Latin-1 and other encodings are refused)")
    if text.endswith("\r"):
        text = text[:-1]
    if "\r" in text:
        raise SubmissionError.single(display, "line holds a carriage return (CR) in the middle", line=number,
                                     expected="lines ending in LF or CRLF",
                                     found="CR inside the line (old Mac line endings?)",
                                     hint="save the file with Unix (LF) or Windows (CRLF) line endings")
    return text


def read_lines(path: Path, display: str, n_items: Optional[int] = None) -> List[Tuple[int, str]]:
    """Non-blank lines with their 1-based numbers. Refuses binary, non-UTF-8, empty and huge files or lines."""
    return list(zip(*read_texts(path, display, n_items)))


def file_limits(n_items: Optional[int]) -> Tuple[Optional[int], int]:
    """(most lines, most bytes) of a file for a track of ``n_items`` items (None: no line bound)."""
    if n_items is None:
        return None, MAX_FILE_BYTES
    return LINES_PER_ITEM * n_items + LINE_SLACK, min(MAX_FILE_BYTES, BYTES_PER_ITEM * n_items + FILE_SLACK_BYTES)


def _too_many_lines(display: str, max_lines: int, n_items: Optional[int]) -> SubmissionError:
    return SubmissionError.single(display, "file has too many lines",
                                  expected=f"at most {max_lines:,} lines for a track of {n_items:,} items "
                                           f"({LINES_PER_ITEM} per item plus {LINE_SLACK:,}, blank lines included)",
                                  found=f"more than {max_lines:,} lines", hint="write one line per item")


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
            columns = _read_blocks(f, display, max_lines, n_items)
            if columns is None:
                f.seek(0)
                lines = _read_bounded(f, display, max_lines, n_items)
                columns = [number for number, _ in lines], [text for _, text in lines]
    except OSError as e:
        raise SubmissionError.single(display, "the file cannot be read", found=e.strerror or e.__class__.__name__)
    if not columns[1]:
        raise SubmissionError.single(display, "file is empty", expected="one line per item",
                                     found="no content", hint="check that predictions were written")
    return columns


def _read_blocks(f, display: str, max_lines: Optional[int] = None,
                 n_items: Optional[int] = None) -> Optional[Tuple[Sequence[int], List[str]]]:
    """What ``_read_bounded`` finds in a clean file, as (numbers, texts), a block of whole lines at a
    time; None as soon as a block holds something the precise reader must report (or a line near the
    length limit). The numbers stay a ``range`` until a blank line is met."""
    texts: List[str] = []
    numbers: Optional[List[int]] = None
    number = 0
    longest = MAX_LINE_BYTES // 4 - 1  # characters: at most 4 UTF-8 bytes each, plus a CR
    block = f.read(max(BLOCK_BYTES, 4))
    if block:
        _refuse_other_encodings(block[:4], display)
        if block.startswith(_UTF8_BOM):
            block = block[len(_UTF8_BOM):] or f.read(BLOCK_BYTES)
    while block:
        if not block.endswith(b"\n"):
            rest = f.readline(MAX_LINE_BYTES + 1)
            if len(rest) > MAX_LINE_BYTES:
                return None
            block += rest
        if max_lines is not None and number + block.count(b"\n") + (not block.endswith(b"\n")) > max_lines:
            raise _too_many_lines(display, max_lines, n_items)
        if b"\x00" in block:
            return None
        try:
            text = block.decode("utf-8")
        except UnicodeDecodeError:
            return None
        if "\r" in text:
            if text.count("\r") != text.count("\r\n"):
                return None
            text = text.replace("\r\n", "\n")
        parts = text.split("\n")
        if text.endswith("\n"):
            parts.pop()
        if max(map(len, parts), default=0) > longest:
            return None
        kept = [line for line in parts if line.strip()]
        if numbers is None and len(kept) != len(parts):
            numbers = list(range(1, len(texts) + 1))
        if numbers is not None:
            numbers.extend(number + k for k, line in enumerate(parts, start=1) if line.strip())
        texts.extend(kept)
        number += len(parts)
        block = f.read(BLOCK_BYTES)
    return (range(1, len(texts) + 1) if numbers is None else numbers), texts


def _read_bounded(f, display: str, max_lines: Optional[int] = None,
                  n_items: Optional[int] = None) -> List[Tuple[int, str]]:
    """Non-blank decoded lines of an open binary file, reading at most one line's budget at a time."""
    lines: List[Tuple[int, str]] = []
    offset, number = 0, 0
    while True:
        raw = f.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return lines
        number += 1
        if max_lines is not None and number > max_lines:
            raise _too_many_lines(display, max_lines, n_items)
        if number == 1:
            _refuse_other_encodings(raw[:4], display)
            if raw.startswith(_UTF8_BOM):
                raw, offset = raw[len(_UTF8_BOM):], len(_UTF8_BOM)
        body = raw[:-1] if raw.endswith(b"\n") else raw
        if len(body) > MAX_LINE_BYTES:
            raise SubmissionError.single(display, "line is too long", line=number,
                                         expected=f"at most {MAX_LINE_BYTES} bytes per line",
                                         found="a longer line", hint="write one item per line")
        line = _decode_line(body, number, offset, display)
        offset += len(raw)
        if line.strip():
            lines.append((number, line))
