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
platform's unit of a team), and a submission is found by its id, its file name, or that name without
``.zip``. Every ranked submission must be found, and a name may not be given two teams.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Dict, Iterator, List, Sequence, Tuple

from ..errors import ConfigError, counted, plural

#: Codabench's CSV header labels (codabench src/apps/api/views/submissions.py).
CODABENCH_ID, CODABENCH_FILE, CODABENCH_OWNER = "Submission ID", "File Name", "Owner"
#: Codabench's JSON fields (codabench src/apps/api/serializers/submissions.py).
CODABENCH_JSON_KEYS = ("id", "name", "filename")

EXPECTED = (
    "a CSV with the columns 'submission' and 'team', or Codabench's export of submissions "
    "(CSV with 'Submission ID', 'File Name' and 'Owner', or its JSON list with 'id', 'filename' "
    "and 'owner')"
)


def read_teams(path: Path) -> Dict[str, str]:
    """Submission name -> team from ``path`` (the module docstring's formats); ConfigError naming
    the file and line when it is none of them or gives one name two teams."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError.single(
            str(path), f"the teams file cannot be read ({e})", expected=EXPECTED
        ) from None
    pairs = (
        _json_pairs(path, text) if text.lstrip().startswith(("[", "{")) else _csv_pairs(path, text)
    )
    mapping: Dict[str, str] = {}
    for where, name, team in pairs:
        if mapping.get(name, team) != team:
            raise ConfigError.single(
                str(path),
                f"submission {name!r} is given two teams",
                **where,
                found=f"{mapping[name]!r} and {team!r}",
                hint="give each submission one team",
            )
        mapping[name] = team
    return mapping


def _names(*keys: str) -> List[str]:
    """The names a submission may go by: each key, and a file name without ``.zip``."""
    names = []
    for key in keys:
        key = key.strip()
        if key:
            names.append(key)
            if key.lower().endswith(".zip"):
                names.append(key[:-4])
    return names


def _csv_pairs(path: Path, text: str) -> Iterator[Tuple[Dict[str, object], str, str]]:
    """({"line": n}, name, team) of every name of every row of a CSV teams file."""
    reader = csv.reader(io.StringIO(text))
    header = next(reader, [])
    columns = {name.strip(): k for k, name in enumerate(header)}
    lowered = {name.lower(): k for name, k in columns.items()}
    if "submission" in lowered and "team" in lowered:
        keys, team = [lowered["submission"]], lowered["team"]
    elif CODABENCH_OWNER in columns and (CODABENCH_ID in columns or CODABENCH_FILE in columns):
        keys = [columns[c] for c in (CODABENCH_ID, CODABENCH_FILE) if c in columns]
        team = columns[CODABENCH_OWNER]
    else:
        raise ConfigError.single(
            str(path),
            "the teams file has no known columns",
            line=1,
            expected=EXPECTED,
            found=", ".join(repr(h) for h in header) or "an empty file",
        )
    for row in reader:
        if not any(cell.strip() for cell in row):
            continue
        cells = row + [""] * (max(keys + [team]) + 1 - len(row))
        if not cells[team].strip():
            raise ConfigError.single(
                str(path), "a row has no team", line=reader.line_num, found=",".join(row)
            )
        for name in _names(*(cells[k] for k in keys)):
            yield {"line": reader.line_num}, name, cells[team].strip()


def _json_pairs(path: Path, text: str) -> Iterator[Tuple[Dict[str, object], str, str]]:
    """({"item": "#n"}, name, team) of every name of every submission of Codabench's JSON list."""
    try:
        data = json.loads(text)
    except ValueError as e:
        raise ConfigError.single(
            str(path), f"the teams file is not valid JSON ({e})", expected=EXPECTED
        ) from None
    items = data.get("results") if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise ConfigError.single(
            str(path), "the teams file holds no list of submissions", expected=EXPECTED
        )
    for number, item in enumerate(items, start=1):
        owner = item.get("owner") if isinstance(item, dict) else None
        if not isinstance(owner, str) or not owner.strip():
            raise ConfigError.single(
                str(path), f"submission {number} of the list has no 'owner'", expected=EXPECTED
            )
        keys = [str(item[k]) for k in CODABENCH_JSON_KEYS if item.get(k) is not None]
        for name in _names(*keys):
            yield {"item": f"#{number}"}, name, owner.strip()


def teams_of(systems: Sequence[str], mapping: Dict[str, str], path: Path) -> Dict[str, str]:
    """System name -> team for every ranked system; ConfigError listing those not in ``mapping``."""
    unknown = [name for name in systems if name not in mapping]
    if unknown:
        shown = ", ".join(repr(n) for n in unknown[:5]) + (" ..." if len(unknown) > 5 else "")
        raise ConfigError.single(
            str(path),
            f"{counted(len(unknown), 'ranked submission')} {plural(len(unknown), 'has', 'have')} "
            f"no team: {shown}",
            hint="add a row for each (its zip or folder name, or its Codabench id or file name)",
        )
    return {name: mapping[name] for name in systems}
