"""The rules of a ``datasets`` entry that span several of its options, checked when the config is
loaded (before any file is read): the shares of ``split`` add up to 1, ``split`` and per-split
``splits`` are not both given, and a ``table`` dataset names its file(s) and each annotator once."""

from __future__ import annotations

from collections import Counter
from typing import Dict, List

from ..errors import Problem
from ..importers.cut import shares_problem
from ..importers.table import list_column_problems


def _one(dataset_id: str, source: dict, display: str) -> List[Problem]:
    where = f"{display}: datasets '{dataset_id}'"
    problems = []
    if isinstance(source.get("split"), dict):
        problem = shares_problem(source["split"])
        if problem:
            problems.append(
                Problem(where, problem, expected="e.g. split: {train: 0.8, dev: 0.1, test: 0.1}")
            )
        if "splits" in source:
            problems.append(
                Problem(
                    where,
                    "'split' (cut one release) and 'splits' (one source per split) exclude each other",
                    hint="keep one of them",
                )
            )
    problems.extend(_exclude_problems(source, where))
    if source.get("importer") == "table":
        problems.extend(_table_problems(source, where))
    return problems


def _exclude_problems(source: dict, where: str) -> List[Problem]:
    """``exclude: {SPLIT: OTHER}`` names another split than SPLIT itself."""
    return [
        Problem(
            where,
            f"'exclude' leaves the {split} split's own items out of it",
            expected="another split, e.g. exclude: {test: dev}",
            found=f"exclude: {{{split}: {other}}}",
        )
        for split, other in sorted((source.get("exclude") or {}).items())
        if split == other
    ]


def _table_problems(source: dict, where: str) -> List[Problem]:
    """A table names its file(s), and each annotator (an ``annotations`` column) once."""
    problems = []
    if "path" not in source and "splits" not in source:
        problems.append(
            Problem(
                where,
                "a table dataset needs 'path' (one file) or 'splits' (a file per split)",
                hint="e.g. path: data/items.csv",
            )
        )
    columns = source.get("columns")
    annotations = columns.get("annotations") if isinstance(columns, dict) else None
    names = annotations if isinstance(annotations, list) else []
    repeated = repeated_names([name for name in names if isinstance(name, str)])
    if repeated:
        problems.append(
            Problem(
                where,
                "'columns.annotations' names an annotator twice",
                expected="one column per annotator",
                found=", ".join(map(repr, repeated)),
                hint="remove the repeated column (one annotator's labels are one column)",
            )
        )
    if isinstance(columns, dict):
        problems.extend(list_column_problems(columns, where))
    return problems


def repeated_names(names: list) -> List[str]:
    """The names that ``names`` holds more than once, in the order first seen."""
    return [name for name, count in Counter(names).items() if count > 1]


def dataset_problems(datasets: Dict[str, dict], display: str) -> List[Problem]:
    problems: List[Problem] = []
    for dataset_id, source in sorted(datasets.items()):
        if isinstance(source, dict):
            problems.extend(_one(dataset_id, source, display))
    return problems
