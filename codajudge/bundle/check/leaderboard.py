"""The leaderboard and its columns, as Codabench's leaderboard serializer and models validate them."""

from __future__ import annotations

from typing import List

from .findings import Findings, check_bool, check_text, is_int

LEADERBOARD_KEYS = {
    "title",
    "key",
    "columns",
    "hidden",
    "submission_rule",
    "primary_index",
    "index",
}
COLUMN_KEYS = {
    "title",
    "key",
    "index",
    "sorting",
    "precision",
    "hidden",
    "computation",
    "computation_indexes",
}
#: Codabench's leaderboard submission rules (also what an edition's ``leaderboard.submission_rule`` may be).
SUBMISSION_RULES = (
    "Add",
    "Add_And_Delete",
    "Add_And_Delete_Multiple",
    "Force_Last",
    "Force_Latest_Multiple",
    "Force_Best",
)
SORTINGS = ("desc", "asc")
COMPUTATIONS = ("avg", "sum", "min", "max")


def check_leaderboards(value, findings: Findings) -> None:
    if not isinstance(value, list) or not value:
        findings.add(
            "leaderboards", "a non-empty list of leaderboards is required", found=repr(value)[:60]
        )
        return
    if len(value) > 1:
        findings.add(
            "leaderboards",
            "more than one leaderboard: every phase shows only the first",
            expected="1 leaderboard",
            found=str(len(value)),
        )
    for number, board in enumerate(value):
        check_leaderboard(board, f"leaderboards[{number}]", findings)


def check_leaderboard(board, where: str, findings: Findings, rules: bool = True) -> None:
    if not _known_mapping(board, "leaderboard", LEADERBOARD_KEYS, where, findings, title_limit=64):
        return
    if rules and board.get("submission_rule", "Add") not in SUBMISSION_RULES:
        findings.add(
            where,
            "unknown submission_rule",
            expected=" | ".join(SUBMISSION_RULES),
            found=repr(board.get("submission_rule")),
        )
    columns = board.get("columns")
    if not isinstance(columns, list) or not columns:
        findings.add(where, "'columns' must be a non-empty list", found=repr(columns)[:60])
        return
    indexes: List[int] = []
    keys: List[str] = []
    for number, column in enumerate(columns):
        _check_column(column, f"{where}.columns[{number}]", findings, indexes, keys)
    if len(set(indexes)) != len(indexes):
        findings.add(where, "column indexes must be unique", found=str(indexes))
    if len(set(keys)) != len(keys):
        duplicated = sorted({k for k in keys if keys.count(k) > 1})
        findings.add(
            where, "column keys must be unique", found=f"{', '.join(duplicated)} more than once"
        )
    _check_computation_indexes(columns, indexes, where, findings)
    primary = board.get("primary_index", 0)
    if not is_int(primary) or primary not in indexes:
        findings.add(
            where,
            "primary_index names no column's index",
            expected=f"one of {indexes}",
            found=repr(primary),
        )


def _check_computation_indexes(columns, indexes: List[int], where: str, findings: Findings):
    """Every computed column's indexes name columns of the leaderboard."""
    for number, column in enumerate(columns):
        for index in (column.get("computation_indexes") or []) if isinstance(column, dict) else []:
            if index not in indexes:
                findings.add(
                    f"{where}.columns[{number}]",
                    "computation index of no column",
                    found=repr(index),
                )


def _known_mapping(
    value, what: str, allowed, where: str, findings: Findings, title_limit: int
) -> bool:
    """A leaderboard or column: a mapping of known keys with a text title and key and a bool hidden.
    False (after saying so) when it is not a mapping, so that nothing more is checked."""
    if not isinstance(value, dict):
        findings.add(where, f"a {what} must be a mapping", found=type(value).__name__)
        return False
    for key in sorted(set(value) - allowed, key=str):
        findings.add(where, f"unknown {what} key {key!r}", expected=", ".join(sorted(allowed)))
    check_text(value, "title", where, findings, title_limit)
    check_text(value, "key", where, findings, 36)
    check_bool(value, "hidden", where, findings)
    return True


def _check_column(
    column, where: str, findings: Findings, indexes: List[int], keys: List[str]
) -> None:
    if not _known_mapping(column, "column", COLUMN_KEYS, where, findings, title_limit=36):
        return
    index = column.get("index")
    if not is_int(index) or index < 0:
        findings.add(where, "column 'index' must be an integer >= 0", found=repr(index))
    else:
        indexes.append(index)
    if column.get("key") not in (None, ""):
        keys.append(str(column["key"]))
    if column.get("sorting", "desc") not in SORTINGS:
        findings.add(
            where,
            "column 'sorting' must be desc (higher is better) or asc",
            found=repr(column["sorting"]),
        )
    if column.get("precision") is not None and not is_int(column["precision"]):
        findings.add(
            where, "column 'precision' must be an integer", found=repr(column["precision"])
        )
    computation, computed_from = column.get("computation"), column.get("computation_indexes")
    if computation is not None and computation not in COMPUTATIONS:
        findings.add(
            where, "unknown computation", expected=" | ".join(COMPUTATIONS), found=repr(computation)
        )
    if (computation is None) != (computed_from in (None, [])):
        findings.add(where, "'computation' and 'computation_indexes' go together")
    if computed_from not in (None, []) and not isinstance(computed_from, list):
        findings.add(where, "'computation_indexes' must be a list", found=repr(computed_from))


def score_keys(board: dict) -> List[str]:
    """The keys the scoring program must write: the columns the platform does not compute (of a
    leaderboard the checks found sound)."""
    columns = board["columns"]
    return [str(c["key"]) for c in columns if c.get("key") and not c.get("computation")]
