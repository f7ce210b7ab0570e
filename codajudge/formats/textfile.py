"""Decoding a submitted text file defensively: UTF-8 (with or without BOM), CRLF, no binary.

The file is read a line at a time (a bounded ``readline``: a 1 GB line is refused after about one
line's budget), each line checked by the rules of ``_refuse_broken``; the first problem in the file
is reported. A file that opens as a pretty-printed JSON document is refused as such first
(``_PRETTY_JSON``): its line count would otherwise be the problem named.

``texts.utf8_text`` (layer 0: the templates' reader uses it) is the one UTF-8 refusal of every file the kit reads, a participant's or an
organiser's (releases, the edition config, templates, pages, a bundle's YAML, the teams file)."""

from __future__ import annotations

import codecs
import re
import unicodedata
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import BinaryIO, NamedTuple
from collections.abc import Iterator, Sequence

from ..errors import SubmissionError
from ..texts import SURROGATES_AS_TEXT, other_bom, utf8_text


class Rule(NamedTuple):
    """A refusal rule stated once: its message, what was expected and how to fix it."""

    message: str
    expected: str | None = None
    hint: str | None = None

    def error(self, display: str, found: str = None, line: int = None) -> SubmissionError:
        """This rule's refusal of the file ``display`` (at ``line``), having found ``found``."""
        return SubmissionError.single(display, line=line, found=found, **self._asdict())


#: Largest accepted prediction file and line. A million-item similarity track is about 20 MB; a
#: perspectivist line with a thousand annotators is about 20 kB.
MAX_FILE_BYTES = 512 * 1024 * 1024
MAX_LINE_BYTES = 1024 * 1024
#: Bounds that grow with the track (``n_items``), not with the file; blank lines count.
LINES_PER_ITEM = 2
LINE_SLACK = 1000
BYTES_PER_ITEM = 64 * 1024
FILE_SLACK_BYTES = 1024 * 1024

#: A file whose first line holds only '[' or '{': one JSON document over many lines (``json.dump(records,
#: indent=2)``, pandas' ``to_json(orient="records", indent=2)``), whatever its size, named before any bound.
_PRETTY_JSON = re.compile(rb"[ \t\r\n]*([\[{])[ \t]*\r?\n")
PRETTY_JSON = Rule(
    "the file is one JSON document over many lines (pretty-printed), not one prediction a line",
    'one line per item: JSON lines, one object {"id": ID, "label": VALUE} a line, or ID<TAB>VALUE lines',
    'write one object a line, without indent: to_json(orient="records", lines=True)',
)
EMPTY_FILE = Rule("file is empty", "one line per item", "check that predictions were written")
#: The rules a line may break after its length (``MAX_LINE_BYTES``), in the order ``_refuse_broken``
#: checks them.
BINARY = Rule("file is binary, not text", "UTF-8 text")
#: Binary files handed in under a text file's name, known by the bytes they start with.
BINARY_FORMATS = {
    b"PK\x03\x04": Rule(
        "file is a zip archive, not text",
        "UTF-8 text",
        "unzip it and submit the files inside (an .xlsx spreadsheet is a zip too: save it as "
        "tab-separated text)",
    ),
    b"\x1f\x8b": Rule(
        "file is gzip-compressed, not text",
        "UTF-8 text",
        "decompress it (gunzip) and submit the text",
    ),
    b"\x93NUMPY": Rule(
        "file is a NumPy .npy array, not text",
        "UTF-8 text",
        "write the predictions as text, one line per item",
    ),
}
INNER_CR = Rule(
    "line holds a carriage return (CR) in the middle",
    "lines ending in LF or CRLF",
    "save the file with Unix (LF) or Windows (CRLF) line endings",
)


def shorten(text: str, limit: int = 60) -> str:
    """Submitted text cut to ``limit`` characters for a message (an ellipsis marks the cut)."""
    return text if len(text) <= limit else text[:limit] + "..."


#: The fix of a value or id written in other digits than ASCII's.
ASCII_DIGITS_FIX = "write ASCII digits (str.translate, or int() and float(), which read them)"


def other_digits(text: str) -> str | None:
    """How ``text`` is written when it holds a Unicode decimal digit that is not ASCII: "written
    with Arabic-Indic digits (U+0660..U+0669)", the script named by the first such digit's
    character name, and the Arabic decimal separator where it is one (float() does not read it);
    else None."""
    digit = next(
        (c for c in text if not c.isascii() and unicodedata.decimal(c, None) is not None), None
    )
    if digit is None:
        return None
    zero = ord(digit) - unicodedata.decimal(digit)
    script = unicodedata.name(digit, "").rpartition(" DIGIT ")[0].title() or "non-ASCII"
    written = f"written with {script} digits (U+{zero:04X}..U+{zero + 9:04X})"
    return written + (" and the Arabic decimal separator (U+066B)" if "\u066b" in text else "")


def other_digits_hint(text: str, what: str = "the value") -> str | None:
    """The hint for ``text`` written in other digits than ASCII's (``other_digits``), else None."""
    written = other_digits(text)
    comma = " and a dot for U+066B" if written and "U+066B" in written else ""
    return written and f"{what} is {written}: {ASCII_DIGITS_FIX}{comma}"


#: How to write a field without quotes, with Python's csv or pandas' to_csv: csv.QUOTE_NONE
#: alone raises "need to escape" on a value holding '"' (a JSON list of strings); quotechar=None
#: writes it as it is, as the kit reads it. A bare escapechar would write backslashes into it.
NO_QUOTES = "quoting=csv.QUOTE_NONE, quotechar=None"


def unquoted(text: str) -> str | None:
    """``text`` without the double or single quotes around it (as CSV quoting, ``json.dumps`` or
    ``repr`` writes a string), else None."""
    text = text.strip()
    return text[1:-1] if len(text) > 1 and text[0] == text[-1] and text[0] in "\"'" else None


def safe_display(name: object) -> str:
    """A name (a file's, a submission's; a string or a path) fit to print or write anywhere, the one
    way the kit shows names: the bytes of a name that are not UTF-8 as their values (``caf\\xe9``,
    ``SURROGATES_AS_TEXT``) and each control, bidi, invisible (a zero-width space) or other
    unprintable character escaped alone (``\\x1b``, ``\\u200b``; quotes and backslashes stay as
    they are), and so is a space at either end (``\\x20``), so that no name moves the terminal's
    cursor, forges a line or hides a character."""
    text = str(name).translate(SURROGATES_AS_TEXT)
    inner = range(len(text) - len(text.lstrip()), len(text.rstrip()))
    return "".join(
        ch if ch.isprintable() and k in inner else _escaped(ch) for k, ch in enumerate(text)
    )


def name_as_read(name: str) -> str:
    """A name (a system's, a file's) as a reader takes it: NFKC-normalised, case-folded, without
    invisible (format, Cf) characters and whitespace at either end; two names equal by it look
    alike."""
    visible = "".join(ch for ch in name if unicodedata.category(ch) != "Cf")
    return unicodedata.normalize("NFKC", visible).casefold().strip()


def _escaped(ch: str) -> str:
    """One character as its escape: ``\\x1b``, ``\\u200b``, a space as ``\\x20``."""
    return "\\x20" if ch == " " else repr(ch)[1:-1]


def safe_lines(text: str) -> str:
    """A message of several lines fit to print: its line breaks kept, each other control, bidi or
    unprintable character escaped alone (quotes stay as they are)."""
    return "".join(ch if ch.isprintable() or ch == "\n" else repr(ch)[1:-1] for ch in str(text))


class Lines(NamedTuple):
    """A file's non-blank lines as two columns: their 1-based ``numbers`` (a ``range`` when no line
    is blank) and their ``texts``."""

    numbers: Sequence[int]
    texts: list[str]


def max_file_bytes(n_items: int) -> int:
    """The largest file read for a track of ``n_items`` items, in bytes."""
    return min(MAX_FILE_BYTES, BYTES_PER_ITEM * n_items + FILE_SLACK_BYTES)


def refuse_blank_line(display: str, numbers: Sequence[int], layout: str) -> None:
    """Refuse a blank line in a file of the ``layout`` whose rows are matched to items by their
    position: ``numbers``, the 1-based numbers of its lines that are not blank, skip one."""
    if numbers and numbers[-1] != len(numbers):
        # the first line whose number is not among the first ranks: the first of a run of blanks
        blank = next(k for k, n in enumerate(numbers, start=1) if n != k)
        hint = f"{layout} files are matched to items by line number"
        rule = Rule(f"blank line in a {layout} file", "one row on every line", hint)
        raise rule.error(display, "a line that is empty or only spaces", blank)


@contextmanager
def opened(path: Path, display: str, n_items: int) -> Iterator[BinaryIO]:
    """The file open for reading bytes, after refusing one larger than ``max_file_bytes(n_items)``;
    an OSError opening or reading it is the refusal of a file the system cannot read."""
    try:
        size, max_bytes = Path(path).stat().st_size, max_file_bytes(n_items)
        if size > max_bytes:
            per_track = f" for a track of {n_items:,} items" if max_bytes < MAX_FILE_BYTES else ""
            rule = Rule("file is too large", f"at most {max_bytes} bytes{per_track}")
            raise rule.error(display, f"{size} bytes")
        with open(path, "rb") as f:
            yield f
    except OSError as e:
        found = e.strerror or e.__class__.__name__
        raise SubmissionError.single(display, "the file cannot be read", found=found) from None


def read_texts(path: Path, display: str, n_items: int, track: str = "") -> Lines:
    """A file's non-blank lines, in order, each checked by ``_refuse_broken`` (a bounded
    ``readline``: a 1 GB line is refused after about one line's budget). ``n_items``, the track's
    size, bounds the file's lines and bytes; an empty file of ``track`` (its id) is told it may be
    removed to leave the track out (a placeholder for a track not taken part in)."""
    display = safe_display(display)
    max_lines = LINES_PER_ITEM * n_items + LINE_SLACK
    texts: list[str] = []
    numbers: list[int] | None = None  # a list once a blank line is met, else 1..len(texts)
    with opened(path, display, n_items) as f:
        offset = _text_start(f.read(max(MAX_LINE_BYTES, 4)), display)
        f.seek(offset)
        for number, line in enumerate(iter(partial(f.readline, MAX_LINE_BYTES + 1), b""), start=1):
            if number > max_lines:
                expected = (
                    f"at most {max_lines:,} lines for a track of {n_items:,} items "
                    f"({LINES_PER_ITEM} per item plus {LINE_SLACK:,}, blank lines included)"
                )
                rule = Rule("file has too many lines", expected, "write one line per item")
                raise rule.error(display, f"more than {max_lines:,} lines")
            text = _refuse_broken(line, number, offset, display)
            if text.strip():
                texts.append(text)
                if numbers is not None:
                    numbers.append(number)
            elif numbers is None:
                numbers = list(range(1, len(texts) + 1))
            offset += len(line)
    if not texts:
        leave = f", or remove the file to leave track '{track}' out" if track else ""
        raise EMPTY_FILE._replace(hint=EMPTY_FILE.hint + leave).error(display, "no content")
    return Lines(range(1, len(texts) + 1) if numbers is None else numbers, texts)


def _text_start(head: bytes, display: str) -> int:
    """The offset of a file's text after its UTF-8 BOM, if any, given its first bytes (``head``);
    a file of another Unicode encoding (by its BOM, or UTF-16 without one: ``_utf16_without_bom``),
    a binary file of a known format (``BINARY_FORMATS``) or one that opens as a JSON document over
    many lines (``_PRETTY_JSON``) is refused by its layout."""
    if bom := other_bom(head):  # named as such: their NUL bytes would read as 'binary'
        rule = Rule(f"file is {bom[0]} text", "UTF-8 text", "save the file as UTF-8")
        raise rule.error(display, bom[1])
    offset = len(codecs.BOM_UTF8) if head.startswith(codecs.BOM_UTF8) else 0
    for signature, rule in BINARY_FORMATS.items():
        if head.startswith(signature, offset):
            raise rule.error(display, f"the bytes {signature!r} at its start")
    if nul_bytes := _utf16_without_bom(head[offset : offset + UTF16_SAMPLE_BYTES]):
        rule = Rule("file looks like UTF-16 text", "UTF-8 text", "save the file as UTF-8")
        raise rule.error(display, nul_bytes)
    if start := _PRETTY_JSON.match(head, offset):
        found = f"a line holding only {chr(head[start.start(1)])!r}"
        raise PRETTY_JSON.error(display, found, head.count(b"\n", offset, start.start(1)) + 1)
    return offset


#: How much of a file's start is looked at for UTF-16 text without a byte-order mark.
UTF16_SAMPLE_BYTES = 4096


def _utf16_without_bom(sample: bytes) -> str | None:
    """What the refusal found when ``sample`` (a file's first bytes) looks written in UTF-16LE or
    UTF-16BE without a byte-order mark, naming which: a NUL byte in at least half of its pairs of
    bytes, always on the same side (the high byte of a Latin character's code), never on the other;
    else None."""
    even, odd = sample[0::2], sample[1::2]
    for order, nul_side, other_side in (("UTF-16LE", odd, even), ("UTF-16BE", even, odd)):
        if other_side and nul_side.count(0) * 2 >= len(nul_side) and 0 not in other_side:
            return f"a NUL byte every other byte, as in {order} without a byte-order mark"
    return None


def _refuse_broken(line: bytes, number: int, offset: int, display: str) -> str:
    """The text of line ``number`` (``line``, as read, starting ``offset`` bytes into the file)
    without its line end, after refusing it by the first rule it breaks, in this order: too long,
    a NUL byte, not UTF-8, a CR inside."""
    if len(line.removesuffix(b"\n")) > MAX_LINE_BYTES:
        expected = f"at most {MAX_LINE_BYTES} bytes per line"
        rule = Rule("line is too long", expected, "write one item per line")
        raise rule.error(display, "a longer line", number)
    at = line.find(b"\x00")
    if at >= 0:
        raise BINARY.error(display, f"a NUL byte at offset {offset + at}", number)
    try:  # the line's own decoding first: a call a line would cost the scoring time
        text = line.decode("utf-8").removesuffix("\n").removesuffix("\r")
    except UnicodeDecodeError:
        utf8_text(line, display, SubmissionError, number, offset)  # raises, naming the byte
    if "\r" in text:
        raise INNER_CR.error(display, "CR inside the line (old Mac line endings?)", number)
    return text
