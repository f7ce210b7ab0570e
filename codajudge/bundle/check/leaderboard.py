"""The leaderboard and its columns, as Codabench's leaderboard serializer and models validate them."""

from functools import partial

from .findings import Findings, check_bool, check_choice, check_keys, check_text, is_int

#: Codabench's leaderboard submission rules (also what an edition's ``leaderboard.submission_rule`` may be).
SUBMISSION_RULES = tuple(
    "Add Add_And_Delete Add_And_Delete_Multiple Force_Last Force_Latest_Multiple Force_Best".split()
)
#: Each key of a leaderboard or a column and its check (None: checked with the others, below); a
#: text's character limit is Codabench's.
LEADERBOARD_KEYS = {
    "title": partial(check_text, limit=64),
    "key": partial(check_text, limit=36),
    "hidden": check_bool,
    "submission_rule": partial(check_choice, allowed=SUBMISSION_RULES),
    **dict.fromkeys(("columns", "primary_index", "index")),
}
COLUMN_KEYS = {
    "title": partial(check_text, limit=36),
    "key": partial(check_text, limit=36),
    "hidden": check_bool,
    "sorting": partial(check_choice, allowed=("desc", "asc")),
    "computation": partial(check_choice, allowed=("avg", "sum", "min", "max")),
    **dict.fromkeys(("index", "precision", "computation_indexes")),
}


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


#: A CodaLab v1.5 column's keys as Codabench's v1 unpacker converts them (title = ``label``,
#: sorting = ``sort``), so that a message names them as the v1.5 file writes them.
V1_NAMES = {"label": "title", "key": "key", "sort": "sorting", "index": "index"}
V1_COLUMN_KEYS = {v1: COLUMN_KEYS[v2] for v1, v2 in V1_NAMES.items()}


def check_leaderboard(
    board, where: str, findings: Findings, column_keys: dict = COLUMN_KEYS, places=None
) -> None:
    """The leaderboard ``board`` at ``where``, each column by ``column_keys`` at its place in
    ``places`` (by default ``where.columns[N]``)."""
    if not check_keys(board, LEADERBOARD_KEYS, where, "leaderboard", findings):
        return
    columns = board.get("columns")
    if not isinstance(columns, list) or not columns:
        findings.add(where, "'columns' must be a non-empty list", found=repr(columns)[:60])
        return
    places = places or [f"{where}.columns[{number}]" for number in range(len(columns))]
    for place, column in zip(places, columns):
        _check_column(column, place, findings, column_keys)
    columns = [column for column in columns if isinstance(column, dict)]
    indexes = [c["index"] for c in columns if is_int(c.get("index")) and c["index"] >= 0]
    keys = [str(c["key"]) for c in columns if c.get("key") not in (None, "")]
    for what, values in (("indexes", indexes), ("keys", keys)):
        duplicated = sorted({value for value in values if values.count(value) > 1})
        if duplicated:
            found = f"{', '.join(map(str, duplicated))} more than once"
            findings.add(where, f"column {what} must be unique", found=found)
    computed = [column.get("computation_indexes") for column in columns]
    named = [("primary_index", board.get("primary_index", 0))]
    named += [("a computation index", i) for c in computed if isinstance(c, list) for i in c]
    for what, index in named:
        if not is_int(index) or index not in indexes:
            findings.add(
                where,
                f"{what} names no column's index",
                expected=f"one of {indexes}",
                found=repr(index),
            )


def _check_column(column, where: str, findings: Findings, column_keys: dict) -> None:
    if not check_keys(column, column_keys, where, "column", findings):
        return
    index = column.get("index")
    if not is_int(index) or index < 0:
        findings.add(where, "column 'index' must be an integer >= 0", found=repr(index))
    precision = column.get("precision")  # Codabench's IntegerField reads '4' as 4
    digits = str(precision).strip() if isinstance(precision, (int, str)) else ""
    if precision is not None and (isinstance(precision, bool) or not digits.isdecimal()):
        message = "column 'precision' (decimal places shown) must be an integer >= 0"
        findings.add(where, message, found=repr(precision))
    computed_from = column.get("computation_indexes")
    if (column.get("computation") is None) != (computed_from in (None, [])):
        findings.add(where, "'computation' and 'computation_indexes' go together")
    if computed_from not in (None, []) and not isinstance(computed_from, list):
        findings.add(where, "'computation_indexes' must be a list", found=repr(computed_from))
