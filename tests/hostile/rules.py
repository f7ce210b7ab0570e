"""What a refusal rule's named case pins: where the problem is and the parts of the message that state
the rule, not the whole sentence.

A ``Refusal`` names the file, the line and item when the rule has them, a key phrase of the rule,
and fragments of what was expected and what was found. ``Refusal.check(message)`` lists what the
rendered message lacks: one of its lines must contain the phrase, start with the location
(``file, line N, item 'id': ``) and hold the expected and found fragments.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from codajudge.errors import ConfigError, SubmissionError


@dataclass(frozen=True)
class Refusal:
    """The rule a refusal must state and where it must point."""

    file: str
    phrase: str
    line: int | None = None
    item: str | None = None
    expected: str = ""
    found: str = ""

    @property
    def where(self) -> str:
        """The location prefix of the problem's line."""
        text = self.file
        if self.line is not None:
            text += f", line {self.line}"
        if self.item is not None:
            text += f", item {self.item!r}"
        return text + ": "

    def check(self, message: str) -> list[str]:
        """What ``message`` lacks of this refusal (empty when it states the rule where it should)."""
        stated = [line for line in message.split("\n") if self.phrase in line]
        if not stated:
            return [f"no line states {self.phrase!r}"]
        line = stated[0]
        problems = []
        if not line.startswith(self.where):
            problems.append(f"the problem is not at {self.where!r}")
        if self.expected and "expected " not in line.split(self.phrase, 1)[-1]:
            problems.append("no 'expected' part")
        for part, fragment in (("expected", self.expected), ("found", self.found)):
            if fragment and fragment not in line:
                problems.append(f"{part} {fragment!r} is not stated")
        return problems


def refusal_of(action: Callable[[], object]) -> str:
    """The rendered message of the refusal ``action`` raises; fails when it accepts."""
    try:
        result = action()
    except (SubmissionError, ConfigError) as e:
        return str(e)
    raise AssertionError(f"accepted, expected a refusal: {result!r}")


def assert_refused(action: Callable[[], object], refusal: Refusal) -> str:
    """Run ``action``, which must be refused as ``refusal`` states; returns the message."""
    message = refusal_of(action)
    problems = refusal.check(message)
    assert not problems, f"{problems} in:\n{message}"
    return message
