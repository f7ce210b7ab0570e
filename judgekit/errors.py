"""User-facing errors: every problem names the file, the line or item id, what was expected,
what was found, and how to fix it. Only the command-line edges turn them into exit codes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional

#: Stop collecting problems in one file after this many; the rest are summarised as a count.
MAX_PROBLEMS_PER_FILE = 20

#: Exit codes of the command-line edges: a data problem (the submission or the data is wrong) and a
#: usage or configuration problem (the command or the bundle is wrong), as sacrebleu separates them.
EXIT_DATA_ERROR = 2
EXIT_USAGE_ERROR = 1


@dataclass(frozen=True)
class Problem:
    """One precise problem in one file."""

    file: str
    message: str
    line: Optional[int] = None
    item: Optional[str] = None
    expected: Optional[str] = None
    found: Optional[str] = None
    hint: Optional[str] = None

    def render(self) -> str:
        where = self.file
        if self.line is not None:
            where += f", line {self.line}"
        if self.item is not None:
            where += f", item {self.item!r}"
        text = f"{where}: {self.message}"
        if self.expected is not None:
            text += f"; expected {self.expected}"
        if self.found is not None:
            text += f", found {self.found}"
        if self.hint:
            text += f". {self.hint[:1].upper()}{self.hint[1:]}"
        return text


class KitError(Exception):
    """A failure with one or more user-facing problems. ``str()`` is the full message."""

    def __init__(self, problems: List[Problem], omitted: int = 0):
        self.problems = list(problems)
        self.omitted = omitted
        super().__init__(self.render())

    @classmethod
    def single(cls, file: str, message: str, **kw) -> "KitError":
        return cls([Problem(file, message, **kw)])

    def render(self) -> str:
        lines = [p.render() for p in self.problems]
        if self.omitted:
            lines.append(f"... and {self.omitted} more problem(s) of the same kind not shown")
        return "\n".join(lines)


class SubmissionError(KitError):
    """The submission (or the ingestion step's output) is not acceptable."""


class ConfigError(KitError):
    """An edition config, a bundle or reference data is not acceptable (an organiser's problem)."""


@dataclass
class ProblemCollector:
    """Collects problems for one file and stops after ``limit`` so messages stay readable."""

    file: str
    limit: int = MAX_PROBLEMS_PER_FILE
    problems: List[Problem] = field(default_factory=list)
    omitted: int = 0

    def add(self, message: str, **kw) -> None:
        if len(self.problems) < self.limit:
            self.problems.append(Problem(self.file, message, **kw))
        else:
            self.omitted += 1

    def __bool__(self) -> bool:
        return bool(self.problems)

    def raise_if_any(self, error_type=SubmissionError) -> None:
        if self.problems:
            raise error_type(self.problems, self.omitted)
