"""The problems found in a bundle, one line each; small typed checks on its values, and dates read as Codabench reads them (UTC)."""

from __future__ import annotations

import datetime as dt
import os
import re
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Callable

from ...confine import resolved
from ...errors import ConfigError, Problem, problem_text
from ...formats.textfile import utf8_text


@contextmanager
def scratch_folder(prefix: str) -> Iterator[Path]:
    """A temporary folder, removed afterwards as far as it can be: what a bundle extracts there
    (a read-only folder, say) never turns a finished check into an error. (TemporaryDirectory's
    ignore_cleanup_errors does the same from Python 3.10 only.)"""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


class Findings:
    """The problems found in a bundle, in the order found, each shown as one line (``lines``)."""

    def __init__(self):
        self.problems: list[Problem] = []
        self.checked: set = set()  # what was checked once already (a program shared by every task)
        self.notes: list[str] = []  # what the check cannot tell and the organisers should know
        self.rule_breaks = 0  # how many of the problems are ``add_rule_break``'s

    def add(self, where: str, message: str, **details) -> None:
        """A problem at ``where`` (a file, or a key's path) with ``Problem``'s expected, found and
        hint."""
        self.problems.append(Problem(where, message, **details))

    def add_rule_break(self, where: str, message: str, **details) -> None:
        """A problem (as ``add``) that breaks a rule of the platform and leaves the bundle's layout
        sound: the later checks, which read the bundle's files, still run."""
        self.add(where, message, **details)
        self.rule_breaks += 1

    def layout_sound(self) -> bool:
        """Whether the later checks can read the bundle: every problem so far is a rule break."""
        return len(self.problems) == self.rule_breaks

    def unless_refused(self, read: Callable, *args, **options):
        """What ``read(*args, **options)`` returns (a reader of a bundle file: ``utf8_text``, ...),
        or None with its ConfigError's problems among these problems."""
        try:
            return read(*args, **options)
        except ConfigError as e:
            self.problems += e.problems
            return None

    def lines(self) -> list[str]:
        """Each problem as ``errors.problem_text`` lays it out, the hint in brackets, on one line."""
        texts = [problem_text(p.place, p.message, p.expected, p.found) for p in self.problems]
        hints = [f" ({p.hint})" if p.hint else "" for p in self.problems]
        return [" ".join((text + hint).split()) for text, hint in zip(texts, hints)]


def relative_path(root: Path, value) -> Path | None:
    """A path inside the bundle, or None when it is absolute, holds a NUL byte, leaves the bundle or
    cannot be resolved."""
    if not isinstance(value, str) or not value.strip() or "\0" in value or os.path.isabs(value):
        return None
    full = resolved(root / value)
    return full if full is not None and full.is_relative_to(root.resolve()) else None


_FORMATS = ("%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d")


def is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def as_int(value) -> int | None:
    """``value`` as the integer the platforms store, or None when it is none: an int, or digits as
    text ('3'), which Django's and REST framework's integer fields turn into 3 alike."""
    text = value.strip() if isinstance(value, str) else ""
    if text.isdecimal() and len(text) <= 18:
        return int(text)
    return value if is_int(value) else None


def check_bool(mapping: dict, key: str, where: str, findings: Findings) -> None:
    if key in mapping and not isinstance(mapping[key], bool):
        findings.add(where, f"'{key}' must be true or false", found=repr(mapping[key]))


def check_count(
    mapping: dict, key: str, where: str, findings: Findings, positive: bool = False
) -> None:
    value = mapping.get(key)
    number = as_int(value)
    if value is not None and (number is None or number < (1 if positive else 0)):
        findings.add(
            where, f"'{key}' must be an integer {'> 0' if positive else '>= 0'}", found=repr(value)
        )


def check_text(
    mapping: dict, key: str, where: str, findings: Findings, limit: int, required: bool = True
) -> None:
    value = mapping.get(key)
    if value is None or value == "":
        if required:
            findings.add(where, f"'{key}' is required")
    elif isinstance(value, (list, dict, bool)):
        findings.add(where, f"'{key}' must be text", found=type(value).__name__)
    elif len(str(value)) > limit:
        findings.add(
            where,
            f"'{key}' is longer than {limit} characters",
            found=f"{len(str(value))} characters",
        )


def check_choice(mapping: dict, key: str, where: str, findings: Findings, allowed) -> None:
    value = mapping.get(key)
    if value is not None and value not in allowed:
        findings.add(where, f"unknown {key}", expected=" | ".join(allowed), found=repr(value))


def check_keys(value, rules: dict, where: str, what: str, findings: Findings) -> bool:
    """``value`` a mapping of ``rules``' keys only, each checked by its rule (None: by the caller),
    called with the mapping, the key, ``where`` and ``findings``. False (after saying so) when it
    is not a mapping, so that nothing more is checked."""
    if not isinstance(value, dict):
        findings.add(where, f"a {what} must be a mapping", found=type(value).__name__)
        return False
    for key in sorted(set(value) - set(rules), key=str):
        findings.add(
            where, f"unknown {what} key {key!r}", hint="Codabench ignores it; check its spelling"
        )
    for key, rule in rules.items():
        if rule is not None:
            rule(value, key, where, findings)
    return True


def parse_date(value, where: str, findings: Findings) -> dt.datetime | None:
    """A quoted 'YYYY-MM-DD HH:MM:SS' (UTC); None, and no finding, for an absent date (None or '').
    An unquoted YAML timestamp loses its time of day on Codabench (it keeps only the date) and a
    UTC offset is ignored, so both are refused."""
    if value in (None, ""):
        return None
    if isinstance(value, dt.datetime):
        findings.add(
            where,
            "unquoted date and time: Codabench keeps only its date (midnight UTC)",
            expected=f"a quoted string such as '{value:%Y-%m-%d %H:%M:%S}'",
            found=str(value),
        )
        return None
    if isinstance(value, dt.date):
        return dt.datetime.combine(value, dt.time(), tzinfo=dt.timezone.utc)
    text = str(value).strip()
    for fmt in _FORMATS:
        with suppress(ValueError):
            return dt.datetime.strptime(text, fmt).replace(tzinfo=dt.timezone.utc)
    zoned = re.search(r"\d\d:\d\d(:\d\d(\.\d+)?)?\s*(Z|[+-]\d\d:?\d\d)$", text)  # after a time
    message = "date with a time zone: Codabench ignores the offset" if zoned else "not a date"
    expected = "'YYYY-MM-DD HH:MM:SS' (UTC)"
    month_first = _month_first(text)
    if month_first is not None:
        message = (
            "a date with its day and month in an ambiguous order (Codabench reads the first number "
            "as the month when it can be one)"
        )
        expected = f"'{month_first:%Y-%m-%d %H:%M:%S}', the same date as {expected}"
    findings.add(where, message, expected=expected, found=repr(text))
    return None


#: A date written day and month first: '3-15-2027', '15/3/2027 18:00'.
_DAY_AND_MONTH_FIRST = re.compile(
    r"(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})(?:[ T](\d{1,2}):(\d\d)(?::(\d\d))?)?"
)


def _month_first(text: str) -> dt.datetime | None:
    """The date ``text`` written day and month first, read month first (day first when the first
    number is no month) as Codabench's date parser reads it; None for another form or no such day."""
    match = _DAY_AND_MONTH_FIRST.fullmatch(text)
    if match is None:
        return None
    first, second, year, *time = (int(number or 0) for number in match.groups())
    for month, day in ((first, second), (second, first)):
        with suppress(ValueError):
            return dt.datetime(year, month, day, *time)
    return None


def _bundle_file(root: Path, value, where: str, findings: Findings, missing: str) -> bytes | None:
    """The bytes of the bundle's file ``value``, or None with the finding ``missing``."""
    path = relative_path(root, value)
    if path is None or not path.is_file():
        findings.add(where, missing, found=repr(value))
        return None
    return path.read_bytes()


def check_page_file(root: Path, value, where: str, findings: Findings) -> None:
    data = _bundle_file(root, value, where, findings, "page file not found")
    if data is not None and not data.strip():
        findings.add(where, "page file is empty", found=repr(value))
    elif data is not None:
        findings.unless_refused(utf8_text, data, value)


#: The first bytes of a PNG, a JPEG and a GIF file.
IMAGE_SIGNATURES = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF87a", b"GIF89a")


def check_image(root: Path, value, where: str, findings: Findings) -> None:
    missing = "the competition logo is required and must be in the bundle"
    data = _bundle_file(root, value, where, findings, missing)
    if data is not None and not data.startswith(IMAGE_SIGNATURES):
        findings.add(
            where, "the logo is not an image", expected="PNG, JPEG or GIF", found=repr(value)
        )


#: An address Django's EmailValidator (Codabench's EmailField) takes, read loosely: a local part,
#: '@', and a domain with a dot, or localhost; an address this refuses, Codabench refuses too.
EMAIL = re.compile(r"[^@\s]+@(?:(?:[^@\s.]+\.)+[^@\s.]+|localhost)")


def is_email(value) -> bool:
    return isinstance(value, str) and EMAIL.fullmatch(value.strip()) is not None


def is_uuid(value) -> bool:
    """Whether ``value`` is a UUID as text (a Codabench queue's vhost)."""
    try:
        uuid.UUID(value.strip() if isinstance(value, str) else "")
    except ValueError:
        return False
    return True
