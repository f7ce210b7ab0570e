"""User-facing errors: every problem names the file, the line or item id, what was expected,
what was found, and how to fix it. Only the command-line edges turn them into exit codes."""

from __future__ import annotations

import contextlib
import copyreg
import os
import sys
from bisect import bisect
from dataclasses import dataclass, field, replace
from typing import NamedTuple
from collections.abc import Sequence

#: Stop collecting problems in one file after this many; the rest are summarised as a count.
MAX_PROBLEMS_PER_FILE = 20

#: Exit codes of the command-line edges: the user's problem (the submission or the command line is
#: wrong: 2, argparse's code for a usage error) and the organisers' (the bundle, its config or its
#: reference data is wrong: 1).
EXIT_USER_ERROR = 2
EXIT_BUNDLE_ERROR = 1
#: The exit code of a program stopped by Ctrl-C (the shell's 128 + SIGINT).
EXIT_INTERRUPTED = 130
#: The exit code of a writer whose reader has gone before its work finished (``| head``): the
#: shell's 128 + SIGPIPE, what a program killed by that signal exits with; not an interrupt.
EXIT_BROKEN_PIPE = 141


def stdout_closed(code: int = EXIT_BROKEN_PIPE) -> int:
    """Stop quietly when the output's reader has gone (``| head``: a BrokenPipeError), as a pipe's
    writer does (the idiom of Python's signal docs): stdout is pointed at os.devnull, so that
    nothing more is flushed, nor fails again at exit. Returns ``code``: the work's own exit code
    when it had finished (only its log was lost), else EXIT_BROKEN_PIPE."""
    with contextlib.suppress(OSError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return code


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """``singular`` when ``count`` is 1, else ``plural_form`` (default: ``singular`` + "s"): the
    word, or verb, that agrees with a count in a message."""
    return singular if count == 1 else plural_form or singular + "s"


def counted(count: int, singular: str, plural_form: str | None = None) -> str:
    """``1 item``, ``3 items``: a count and the word agreeing with it (``plural``)."""
    return f"{count} {plural(count, singular, plural_form)}"


def shown_outside(value: float, allowed) -> str:
    """``value``, refused as outside a tolerance (``allowed(x)``: whether x is inside), to the
    fewest significant digits (6 at least) that read as a value outside it: 1.0200001, not 1.02,
    against a sum within 0.02 of 1."""
    for digits in range(6, 18):
        text = f"{value:.{digits}g}"
        if not allowed(float(text)):
            return text
    return repr(value)


#: A problem met on several lines is one message listing its first few lines and item ids.
MAX_PLACES_SHOWN = 5
#: The most kinds of fix the hint of one problem met on several values gives (``Problem.kinds``).
MAX_HINT_KINDS = 3


def first_few(texts: Sequence[str], shown: int = MAX_PLACES_SHOWN, sep: str = ", ") -> str:
    """The first ``shown`` of ``texts``, ``sep``-separated, then how many more there are
    (``a, b and 7 more``) when there are more: a cut list always says what it left out."""
    more = f" and {len(texts) - shown} more" if len(texts) > shown else ""
    return sep.join(texts[:shown]) + more


def problem_text(
    where: str,
    message: str,
    expected: str | None = None,
    found: str | None = None,
    hint: str | None = None,
) -> str:
    """The one layout of a problem: ``where: message; expected X, found Y`` then the hint as a
    sentence of its own (``. Hint``), each detail only when given. The bundle checker gives no
    hint here and puts it in brackets itself (``check.findings``)."""
    text = f"{where}: {message}" if where else message
    if expected is not None:
        text += f"; expected {expected}"
    if found is not None:
        text += f", found {found}"
    return text + (f". {hint[:1].upper()}{hint[1:]}" if hint else "")


@dataclass(frozen=True)
class Problem:
    """One precise problem in one file; ``count`` > 1 when the same problem (same message) hit
    several lines or items, of which ``lines`` and ``items`` hold the first few (``line``,
    ``item``, ``expected`` and ``found`` are those of the first)."""

    file: str
    message: str
    line: int | None = None
    item: str | None = None
    expected: str | None = None
    found: str | None = None
    hint: str | None = None
    count: int = 1
    lines: tuple[int, ...] = ()
    items: tuple[str, ...] = ()
    #: the kinds of fix its hint gives (a label's case, a class index): met on values of another
    #: kind too, the hint gives that kind's fix as well (``joined_hint``); () for a hint of no kind
    kinds: tuple[str, ...] = ()

    @property
    def place(self) -> str:
        """The file, then the line and the item where they are known."""
        where = self.file
        if self.line is not None:
            where += f", line {self.line}"
        if self.item is not None:
            where += f", item {self.item!r}"
        return where

    def render(self) -> str:
        """The problem in one line; one met several times names its count and first places."""
        if self.count == 1:
            return problem_text(self.place, self.message, self.expected, self.found, self.hint)
        # each line and id is listed once: the count is of lines when each time had its own line,
        # of items when each had its own item (several on one line: a JSON array of records)
        shown = min(self.count, MAX_PLACES_SHOWN)
        by_lines = len(self.lines) == shown
        unit = "lines" if by_lines else "items" if len(self.items) == shown else ""

        def cut(places: tuple, kind: str) -> str:
            """What follows a full list of places: how many more when the count is of them."""
            if len(places) < MAX_PLACES_SHOWN or self.count <= MAX_PLACES_SHOWN:
                return ""
            return f" and {self.count - shown} more" if kind == unit else ", ..."

        places = []
        if self.lines:  # fewer than shown are all the lines there are; the same for ids
            lines = ", ".join(map(str, self.lines))
            places.append(f"{plural(len(self.lines), 'line')} {lines}{cut(self.lines, 'lines')}")
        if self.items:
            items = ", ".join(repr(i) for i in self.items)
            places.append(f"items {items}{cut(self.items, 'items')}")
        counted_as = f"on {self.count} {unit}" if unit else f"{self.count} times"
        message = f"{self.message}, {counted_as}"
        if places:
            message += f" ({'; '.join(places)})"
        found = self.found
        if found is not None and self.expected is not None:
            by_line = self.line is not None and (by_lines or self.item is None)
            found += f" on line {self.line}" if by_line else f" on item {self.item!r}"
        return problem_text(self.file, message, self.expected, found, self.hint)

    def joined(self, other: Problem) -> Problem:
        """This problem, counted once more at ``other``'s line and item: its lines listed are the
        file's first ones in line order, each item beside its line's, and its first place (with
        its details) is the earliest line's; each line and item is listed once."""
        lines = tuple(self.lines) if self.line is None else (tuple(self.lines) or (self.line,))
        items = tuple(self.items) if self.item is None else (tuple(self.items) or (self.item,))
        # a reader may check its records in item order: the places are put in line order here
        at = len(items) if other.line is None else bisect(lines, other.line)
        if at and len(items) != len(lines):  # not an item a line: only the earliest line's moves
            at = len(items)
        if other.line is not None and other.line not in lines:
            lines = tuple(sorted((*lines, other.line)))[:MAX_PLACES_SHOWN]
        if other.item is not None and other.item not in items:
            items = (*items[:at], other.item, *items[at:])[:MAX_PLACES_SHOWN]
        earlier = None not in (self.line, other.line) and other.line < self.line
        first, later = (other, self) if earlier else (self, other)
        hint, kinds = first.joined_hint(later)
        count = self.count + other.count
        return replace(first, count=count, lines=lines, items=items, hint=hint, kinds=kinds)

    def joined_hint(self, later: Problem) -> tuple[str | None, tuple[str, ...]]:
        """This problem's hint and kinds, with ``later``'s hint (the same problem on another value)
        when it is of a kind not given yet, named with its value and place, up to
        ``MAX_HINT_KINDS`` kinds: labels 'Entailment' and 1 are told both fixes, the case's and
        the class index's, not the first value's only."""
        new = [kind for kind in later.kinds if kind not in self.kinds]
        if not new or not later.hint or len(self.kinds) >= MAX_HINT_KINDS:
            return self.hint, self.kinds
        place = f"line {later.line}" if later.line is not None else f"item {later.item!r}"
        added = f"for {later.found} on {place}, {later.hint}"
        return (f"{self.hint}; {added}" if self.hint else added), (*self.kinds, *new)


class KitError(Exception):
    """A failure with one or more user-facing problems. ``str()`` is the full message."""

    def __init__(self, problems: list[Problem], omitted: int = 0):
        self.problems = list(problems)
        self.omitted = omitted
        super().__init__(self.render())

    @classmethod
    def single(cls, file: str, message: str, **kw) -> KitError:
        return cls([Problem(file, message, **kw)])

    def render(self) -> str:
        # ``omitted`` counts one file's problems (``ProblemCollector``), named after the first's file
        return "\n".join(_capped(self.problems, len(self.problems), self.omitted))

    def __reduce__(self):
        # as it is, without running ``__init__`` again (whose arguments differ from ``args``): an
        # error raised in a worker process reaches the parent with its problems
        return copyreg.__newobj__, (type(self), *self.args), self.__dict__


class SubmissionError(KitError):
    """The submission (or the ingestion step's output) is not acceptable."""


class UsageError(KitError):
    """The command line names what is not there (a mistyped folder, a missing argument): the
    user's to fix, neither a refused submission nor the organisers' problem. Its exit code is
    EXIT_USER_ERROR, the code of argparse's own usage errors."""


class ConfigError(KitError):
    """An edition config, a bundle or reference data is not acceptable (an organiser's problem)."""


@dataclass
class ProblemCollector:
    """Collects problems for one file: the same problem (same message) on many lines becomes one
    Problem with a count; after ``MAX_PROBLEMS_PER_FILE`` different problems the rest are only
    counted."""

    file: str
    problems: list[Problem] = field(default_factory=list)
    omitted: int = 0
    _index: dict[str, int] = field(default_factory=dict, repr=False)

    def add(self, message: str, **kw) -> None:
        problem = Problem(self.file, message, **kw)
        position = self._index.get(message)
        if position is not None:
            self.problems[position] = self.problems[position].joined(problem)
        elif len(self.problems) < MAX_PROBLEMS_PER_FILE:
            self._index[message] = len(self.problems)
            self.problems.append(problem)
        else:
            self.omitted += 1

    def at(self, line: int | None = None, item: str | None = None) -> PlacedProblems:
        """This collector's problems at one ``line`` and ``item`` (one record of a file)."""
        return PlacedProblems(self, line, item)

    def __bool__(self) -> bool:
        return bool(self.problems)

    def raise_if_any(self, error_type=SubmissionError) -> None:
        if self.problems:
            raise error_type(self.problems, self.omitted)


class PlacedProblems(NamedTuple):
    """The problems of one record of a file: each added to ``collector`` at its ``line`` and
    ``item`` (None: the record has no such place)."""

    collector: ProblemCollector
    line: int | None = None
    item: str | None = None

    def add(self, message: str, **details) -> None:
        self.collector.add(message, line=self.line, item=self.item, **details)


def boolean_problem(where: str, label: str, value) -> Problem:
    """The one message for a value where a boolean is expected (``label`` names the key): the
    edition schema and a task.json's ``hide_gold`` (``spec.spec_from_dict``) both use it."""
    text = isinstance(value, str)
    found = f"the string {value!r}" if text else repr(value)
    hint = "write true or false without quotes"
    # YAML 1.1's other words for a boolean are read as words (``bundle.config_yaml.ConfigLoader``)
    if text and value.lower() in ("yes", "no", "on", "off"):
        hint = "write true or false: yes, no, on and off are read as words, not booleans"
    message = f"{label} must be a boolean"
    return Problem(where, message, expected="true or false", found=found[:80], hint=hint)


#: A refusal of several files shows each file's first problems and at most this many files.
MAX_PROBLEMS_SHOWN_PER_FILE = 3
MAX_FILES_SHOWN = 10


class SeveralFilesError(SubmissionError):
    """The refusals of several files (or, for a code submission, several tracks' predictions: the
    ``unit``) of one submission, grouped by file: each file's first ``MAX_PROBLEMS_SHOWN_PER_FILE``
    problems, at most ``MAX_FILES_SHOWN`` files, the rest counted."""

    def __init__(self, errors: list[KitError], unit: str = "file"):
        self.errors = list(errors)
        self.unit = unit
        firsts = (e.problems[:MAX_PROBLEMS_SHOWN_PER_FILE] for e in self.errors[:MAX_FILES_SHOWN])
        super().__init__([problem for problems in firsts for problem in problems])

    def render(self) -> str:
        unit = self.unit
        lines = [f"{len(self.errors)} {unit}s have problems; each {unit}'s first ones are shown:"]
        for error in self.errors[:MAX_FILES_SHOWN]:
            lines += _capped(error.problems, MAX_PROBLEMS_SHOWN_PER_FILE, error.omitted)
        if len(self.errors) > MAX_FILES_SHOWN:
            hidden = len(self.errors) - MAX_FILES_SHOWN
            lines.append(f"... and {counted(hidden, 'more ' + unit)} with problems not shown")
        return "\n".join(lines)


@dataclass
class FileRefusals:
    """Reads a submission's files one by one and keeps each file's refusal instead of stopping at the
    first, so that one run names every broken file (``raise_if_any``)."""

    errors: list[KitError] = field(default_factory=list)
    #: what each refusal is of, in the message: "file", or "track" for a code submission's tracks
    unit: str = "file"

    def attempt(self, read, *args, **kw):
        """``read(*args, **kw)``, or None with its ``SubmissionError`` kept (once: one file read for
        two tracks, as a LeWiDi 2023 results file is, is refused once for a problem of both)."""
        try:
            return read(*args, **kw)
        except SubmissionError as error:
            if all(str(error) != str(kept) for kept in self.errors):
                self.errors.append(error)
            return None

    def raise_if_any(self) -> None:
        """One file's refusal as it is; several files' as one ``SeveralFilesError``."""
        if len(self.errors) == 1:
            raise self.errors[0]
        if self.errors:
            raise SeveralFilesError(self.errors, self.unit)


def _capped(problems: list[Problem], shown: int, omitted: int = 0, file: str = "") -> list[str]:
    """The first ``shown`` of one file's ``problems``, rendered, and a line counting the others
    (and ``omitted`` more) in ``file``, by default the first problem's."""
    lines = [p.render() for p in problems[:shown]]
    more = max(len(problems) - shown, 0) + omitted
    if more:
        file = file or problems[0].file
        lines.append(f"... and {counted(more, 'more problem')} in {file} not shown")
    return lines


class BuildProblems(ConfigError):
    """Every problem an edition's check found, grouped by file in the order the files first appear:
    each file's first ``MAX_PROBLEMS_PER_FILE`` and the count of the rest; ``unchecked`` says what
    was not checked because of them (the checks they make meaningless)."""

    def __init__(self, problems: list[Problem], unchecked: str | None = None):
        self.unchecked = unchecked
        super().__init__(problems)

    def render(self) -> str:
        files: dict[str, list[Problem]] = {}
        for problem in self.problems:
            # the file without the key path or the dataset that follow it
            # (``edition.yaml: phases[1]``, ``data/items.csv (dataset 'pairs', dev split)``)
            file = problem.file.split(": ", 1)[0].split(" (", 1)[0]
            files.setdefault(file, []).append(problem)
        lines = []
        for file, group in files.items():
            lines += _capped(group, MAX_PROBLEMS_PER_FILE, file=file)
        if self.unchecked:
            lines.append(f"not checked: {self.unchecked}")
        return "\n".join(lines)
