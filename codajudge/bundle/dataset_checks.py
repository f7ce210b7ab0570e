"""The rules of a ``datasets`` entry that span several of its options, checked when the config is
loaded (before any file is read): the shares of ``split`` add up to 1, ``split`` and per-split
``splits`` are not both given, and a ``table`` dataset names its file(s)."""

from __future__ import annotations

from typing import Dict, List

from ..errors import Problem
from ..importers.cut import shares_problem


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
    for split, other in sorted((source.get("exclude") or {}).items()):
        if split == other:
            problems.append(
                Problem(
                    where,
                    f"'exclude' leaves the {split} split's own items out of it",
                    expected="another split, e.g. exclude: {test: dev}",
                    found=f"exclude: {{{split}: {other}}}",
                )
            )
    if source.get("importer") == "table" and "path" not in source and "splits" not in source:
        problems.append(
            Problem(
                where,
                "a table dataset needs 'path' (one file) or 'splits' (a file per split)",
                hint="e.g. path: data/items.csv",
            )
        )
    return problems


def dataset_problems(datasets: Dict[str, dict], display: str) -> List[Problem]:
    problems: List[Problem] = []
    for dataset_id, source in sorted(datasets.items()):
        if isinstance(source, dict):
            problems.extend(_one(dataset_id, source, display))
    return problems
