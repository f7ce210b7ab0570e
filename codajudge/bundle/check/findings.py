"""The problems found in a bundle, one line each."""

from __future__ import annotations

from typing import List, Optional

from ...errors import HintLayout, Problem, problem_text


class Findings:
    def __init__(self):
        self.problems: List[str] = []
        self.checked: set = set()  # what was checked once already (a program shared by every task)

    def add(
        self,
        where: str,
        message: str,
        expected: Optional[str] = None,
        found: Optional[str] = None,
        hint: Optional[str] = None,
    ) -> None:
        line = problem_text(where, message, expected, found, hint, HintLayout.BRACKETS)
        self.problems.append(" ".join(line.split()))

    def add_problem(self, problem: Problem) -> None:
        """A problem stated as the kit's other rules state theirs (no line or item: a key's path)."""
        self.add(problem.file, problem.message, problem.expected, problem.found, problem.hint)

    def lines(self) -> List[str]:
        return list(self.problems)
