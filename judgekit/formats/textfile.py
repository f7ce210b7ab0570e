"""Decoding a submitted text file defensively: UTF-8 (with or without BOM), CRLF, no binary."""

from __future__ import annotations

from pathlib import Path
from typing import List, Tuple

from ..errors import SubmissionError

#: Largest accepted prediction file and line. A million-item similarity track is about 20 MB.
MAX_FILE_BYTES = 512 * 1024 * 1024
MAX_LINE_CHARS = 1024 * 1024


def read_lines(path: Path, display: str) -> List[Tuple[int, str]]:
    """Non-blank lines with their 1-based numbers. Refuses binary, non-UTF-8 and huge files or lines."""
    size = Path(path).stat().st_size
    if size > MAX_FILE_BYTES:
        raise SubmissionError.single(display, "file is too large", expected=f"at most {MAX_FILE_BYTES} bytes",
                                     found=f"{size} bytes")
    data = Path(path).read_bytes()
    if not data.strip():
        raise SubmissionError.single(display, "file is empty", expected="one line per item",
                                     found="no content", hint="check that predictions were written")
    if b"\x00" in data:
        offset = data.index(b"\x00")
        raise SubmissionError.single(display, "file is binary, not text", expected="UTF-8 text",
                                     found=f"a NUL byte at offset {offset}")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise SubmissionError.single(display, "file is not UTF-8 text", line=line, expected="UTF-8",
                                     found=f"byte 0x{data[e.start]:02x} at offset {e.start}",
                                     hint="save the file as UTF-8 (Latin-1 and other encodings are refused)")
    lines: List[Tuple[int, str]] = []
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.rstrip("\r")
        if len(line) > MAX_LINE_CHARS:
            raise SubmissionError.single(display, "line is too long", line=number,
                                         expected=f"at most {MAX_LINE_CHARS} characters",
                                         found=f"{len(line)} characters")
        if line.strip():
            lines.append((number, line))
    return lines
