"""Which team each ranked submission belongs to (``rank_submissions.py --teams FILE``), read from
the organiser's CSV or from Codabench's export of a phase's submissions.

Accepted files (UTF-8; a BOM is allowed):

- a CSV with a header holding ``submission`` and ``team`` (any case, other columns ignored): one
  row per submission, ``submission`` the name of its zip (with or without ``.zip``) or folder;
- Codabench's CSV export of submissions (the submissions list's CSV, ``/api/submissions/?format=csv``,
  whose header is ``Submission ID,File Name,Owner,Created When,Status,Phase``: the labels that
  codabench ``src/apps/api/views/submissions.py`` ``get_renderer_context`` gives its fields);
- Codabench's JSON of the same list (``/api/submissions/?phase=N``: a list of objects, serialised by
  ``SubmissionSerializer`` in ``src/apps/api/serializers/submissions.py`` with ``id``, ``name``,
  ``filename`` and ``owner`` among their fields), or an object whose ``results`` is that list.

In a Codabench export the team is the submission's ``Owner`` (the participant's user name, the
platform's unit of a team). A submission is found by its id first, then by its file name or that
name without ``.zip``: a file name is the participant's choice, so it never overrides an id (an
upload named after a rival's submission id cannot take that id), and a file name that several
owners uploaded (the starting kit's ``result_submission.zip``) is ambiguous: it is ignored, with a
note, and refused only when it is the one way to find a ranked submission (name the zips by their
submission ids). In the organiser's CSV every name is exact, and a name given two teams is refused.
Every submission of the folder must be found (checked before any is scored; the refusal names
the rows that find none, an export's by its id and file name, with the submission name closest to
any of the row's names); a team none of whose rows finds a
ranked submission is not ranked: with its submissions refused when scored and the first reason,
or, where none of its rows names a submission of the folder, with its rows; a ranked team's row
that names no submission of the folder is listed too, naming the run and its team.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Iterator, Sequence

from ..errors import UsageError, counted, first_few, plural
from ..fields import closest, did_you_mean
from ..formats.textfile import utf8_text
from ..texts import kit_text

#: Codabench's CSV header labels (codabench src/apps/api/views/submissions.py).
CODABENCH_ID, CODABENCH_FILE, CODABENCH_OWNER = "Submission ID", "File Name", "Owner"
#: Codabench's JSON fields naming a submission besides its ``id``
#: (codabench src/apps/api/serializers/submissions.py).
CODABENCH_JSON_FILES = ("name", "filename")


def _not_a_teams_file(path: Path, problem: str, **details: object) -> UsageError:
    """The refusal of a file none of the accepted kinds (template ``ranking/teams_expected``)."""
    expected = kit_text("ranking/teams_expected")
    return UsageError.single(str(path), problem, expected=expected, **details)


#: (where, exact keys, file names, team) of one row: where is {"line": n} or {"item": "#n"}.
Row = tuple[dict[str, object], list[str], list[str], str]
#: Places listed in a note or an error about a name given by several rows.
PLACES_SHOWN = 3


@dataclass
class Teams:
    """What a teams file says: ``exact`` names (Codabench ids, the organiser's names) -> team,
    ``files`` (file names given by participants, with and without ``.zip``) -> each team giving
    the name -> the first place (``line 3``, ``item #3``) that does, and each team's ``rows``
    (``line 3: 'run1'``) -> the names the row gives."""

    path: Path
    exact: dict[str, str] = field(default_factory=dict)
    files: dict[str, dict[str, str]] = field(default_factory=dict)
    rows: dict[str, dict[str, list[str]]] = field(default_factory=dict)


def _unused_file_names(teams: Teams) -> list[str]:
    """A note per file name left unused: given by several teams, or an exact name's (an id's)
    with another team. A name and the same name without ``.zip``, given by the same rows, get
    one note."""
    notes, seen = [], set()
    for name, owners in teams.files.items():
        shadowed = name in teams.exact and set(owners) != {teams.exact[name]}
        rows = (shadowed, tuple(owners.items()))
        if (len(owners) == 1 and not shadowed) or rows in seen:
            continue
        seen.add(rows)
        template = "ranking/teams_name_is_an_id" if shadowed else "ranking/teams_name_shared"
        fields = dict(name=repr(name), places=_places(owners), teams=counted(len(owners), "team"))
        notes.append(kit_text(template, owner=repr(teams.exact.get(name)), **fields))
    return notes


def _places(owners: dict[str, str]) -> str:
    """``'alpha' on line 2, 'beta' on line 5``: the first ``PLACES_SHOWN`` of them, then how
    many more there are (``first_few``)."""
    return first_few([f"{team!r} on {place}" for team, place in owners.items()], PLACES_SHOWN)


def read_teams(path: Path) -> Teams:
    """What ``path`` says (the module docstring's formats); UsageError naming the file and line
    when it is none of them or gives one exact name two teams."""
    try:
        data = path.read_bytes()
    except OSError as e:
        raise _not_a_teams_file(path, f"the teams file cannot be read ({e})") from None
    text = utf8_text(data, str(path), UsageError)
    rows = _json_rows(path, text) if text.lstrip().startswith(("[", "{")) else _csv_rows(path, text)
    teams = Teams(path)
    for where, exact, files, team in rows:
        for name in exact:
            if teams.exact.setdefault(name, team) != team:
                raise UsageError.single(
                    str(path),
                    f"submission {name!r} is given two teams",
                    **where,
                    found=f"{teams.exact[name]!r} and {team!r}",
                    hint="give each submission one team",
                )
        place = f"line {where['line']}" if "line" in where else f"item {where['item']}"
        label = repr((exact or files or [""])[0]) + (f" ({files[0]!r})" if exact and files else "")
        teams.rows.setdefault(team, {})[f"{place}: {label}"] = exact + files
        for name in files:
            teams.files.setdefault(name, {}).setdefault(team, place)
    return teams


def _names(*keys: str) -> list[str]:
    """The names a submission may go by: each key, and a file name without ``.zip``."""
    names = []
    for key in filter(None, (key.strip() for key in keys)):
        names += [key, key[:-4]] if key.lower().endswith(".zip") else [key]
    return names


def _csv_rows(path: Path, text: str) -> Iterator[Row]:
    """Every row of a CSV teams file: the organiser's names are exact; Codabench's ids are exact
    and its file names are file names."""
    reader = csv.reader(io.StringIO(text, newline=None))  # CR, LF or CRLF line ends
    header = next(reader, [])
    columns = {name.strip(): k for k, name in enumerate(header)}
    lowered = {name.lower(): k for name, k in columns.items()}
    if "submission" in lowered and "team" in lowered:
        exact, files, team = lowered["submission"], None, lowered["team"]
    elif CODABENCH_OWNER in columns and (CODABENCH_ID in columns or CODABENCH_FILE in columns):
        exact, files = columns.get(CODABENCH_ID), columns.get(CODABENCH_FILE)
        team = columns[CODABENCH_OWNER]
    else:
        found = ", ".join(repr(h) for h in header) or "an empty file"
        raise _not_a_teams_file(path, "the teams file has no known columns", line=1, found=found)
    for row in reader:
        if not any(cell.strip() for cell in row):
            continue
        owner = _cell(row, team)
        if not owner:
            raise UsageError.single(
                str(path), "a row has no team", line=reader.line_num, found=",".join(row)
            )
        yield {"line": reader.line_num}, _names(_cell(row, exact)), _names(_cell(row, files)), owner


def _cell(row: list[str], column: int | None) -> str:
    """The cell of ``column``, stripped; '' when there is no such column or the row is short."""
    return row[column].strip() if column is not None and column < len(row) else ""


def _json_rows(path: Path, text: str) -> Iterator[Row]:
    """Every submission of Codabench's JSON list: its id exact, its name and file name file names."""
    try:
        data = json.loads(text)
    except ValueError as e:
        raise _not_a_teams_file(path, f"the teams file is not valid JSON ({e})") from None
    items = data.get("results") if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise _not_a_teams_file(path, "the teams file holds no list of submissions")
    for number, item in enumerate(items, start=1):
        owner = item.get("owner") if isinstance(item, dict) else None
        if not isinstance(owner, str) or not owner.strip():
            raise _not_a_teams_file(path, f"submission {number} of the list has no 'owner'")
        exact = [str(item["id"])] if item.get("id") is not None else []
        files = [str(item[k]) for k in CODABENCH_JSON_FILES if item.get(k) is not None]
        yield {"item": f"#{number}"}, _names(*exact), _names(*files), owner.strip()


def teams_of(
    systems: Sequence[str], teams: Teams, refused: dict[str, str] | None = None
) -> tuple[dict[str, str], list[str], list[tuple[str, str]]]:
    """System name -> team for every ranked system, the notes on file names left unused, and
    (team, why) of each team none of whose rows names a ranked system (so it is not ranked; why
    names its submissions ``refused`` when scored, name -> reason, where it has any), then (run,
    why) of each ranked team's row that names no zip or folder of the submissions folder;
    UsageError listing the systems found by no name (and the rows that name no system, with the
    closest system name), or only by an ambiguous file name."""
    found = {name: _team_of(name, teams) for name in systems}
    ambiguous = [n for n in systems if found[n] is None and len(teams.files.get(n, {})) > 1]
    if ambiguous:
        raise UsageError.single(
            str(teams.path),
            f"{counted(len(ambiguous), 'submission')} can be found only by a file name "
            f"that several teams gave: "
            + first_few([f"{n!r} ({_places(teams.files[n])})" for n in ambiguous], sep="; "),
            hint="name each zip by its submission id (Codabench's 'Submission ID', or 'id')",
        )
    unknown = [name for name in systems if found[name] is None]
    if unknown:
        unmatched = [
            f"{row} ({_closest_hint(names, systems)})"
            for rows in teams.rows.values()
            for row, names in rows.items()
            if not set(names) & set(systems)
        ]
        raise UsageError.single(
            str(teams.path),
            f"{counted(len(unknown), 'submission')} {plural(len(unknown), 'has', 'have')} "
            f"no team: {first_few([repr(n) for n in unknown])}",
            expected="a row naming each zip or folder of the submissions folder",
            found=f"rows that name none: {first_few(unmatched)}" if unmatched else None,
            hint="correct those rows, or add a row for each submission (its zip or folder name, "
            "or its Codabench id or file name)",
        )
    refused_of: dict[str | None, list[str]] = {}
    for name in refused or {}:
        refused_of.setdefault(_team_of(name, teams), []).append(name)
    not_ranked = [
        (team, _why_not_ranked(rows, refused_of.get(team, []), refused or {}))
        for team, rows in teams.rows.items()
        if team not in found.values()
    ]
    in_folder = set(systems) | set(refused or {})
    return found, _unused_file_names(teams), not_ranked + _runs_not_found(teams, found, in_folder)


def _closest_hint(names: list[str], systems: Sequence[str]) -> str:
    """The hint naming the submission closest to any name of a row (its id, its file name with
    and without ``.zip``): the closest of each name's closest (``fields.closest``, in any case)."""
    import difflib  # imported here: only a refusal needs it

    found = {name: match for name in names if (match := closest(name, systems)) is not None}
    if not found:
        return "no submission is close"

    def likeness(name: str) -> float:
        return difflib.SequenceMatcher(None, name.lower(), found[name].lower()).ratio()

    return did_you_mean(max(found, key=likeness), systems)


def _runs_not_found(teams: Teams, found: dict[str, str], in_folder: set) -> list[tuple[str, str]]:
    """(run, why) of each row of a ranked team (``found``: system -> team) that names no
    submission of the folder (``in_folder``) of its team: every row is accounted for."""
    return [
        ((names or [row])[0], kit_text("ranking/teams_run_not_found", team=repr(team), row=row))
        for team, rows in teams.rows.items()
        if team in found.values()
        for row, names in rows.items()
        if not any(_team_of(name, teams) == team for name in set(names) & in_folder)
    ]


def _team_of(name: str, teams: Teams) -> str | None:
    """The team of a submission: by its exact name first, then by a file name one team gave."""
    owners = teams.files.get(name, {})
    return teams.exact.get(name, next(iter(owners)) if len(owners) == 1 else None)


def _why_not_ranked(rows: dict, names: list[str], refused: dict[str, str]) -> str:
    """Why a team is not ranked: its submissions ``names`` were refused when scored (the first
    one's first problem, ``refused``: a refusal of several files opens with a header ending in a
    colon, which is no reason), or none of its ``rows`` names a submission of the folder."""
    if names:
        lines = refused[names[0]].split(" / ")
        first_reason = next((line for line in lines if not line.endswith(":")), lines[0])
        quoted = first_few([repr(name) for name in names])
        return kit_text("ranking/teams_refused", names=quoted, reason=first_reason)
    return kit_text("ranking/teams_not_ranked", rows=first_few(list(rows), PLACES_SHOWN))
