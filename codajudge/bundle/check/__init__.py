"""``codajudge check BUNDLE``: what Codabench's unpacker and compute worker need, checked offline.

A bundle (a folder or a zip) is opened read-only; every problem becomes one line ``where: what is
wrong; expected ...; found ...``. The checks, one module each:

- ``opening``: the zip's root holds ``competition.yaml``, no member escapes it, the yaml loads;
- ``v2``: the Codabench v2 yaml (keys and types, pages, tasks, solutions, phases and their dates);
- ``leaderboard``: the leaderboard and its columns, as Codabench's serializers validate them;
- ``programs``: every program folder or zip has ``metadata.yaml``/``metadata`` with a command whose
  script exists, passing the worker's input folder before its output folder;
- ``findings``: the problems found, and the typed checks on values;
- ``content``: the leaderboard's keys against what the scorer writes for a perfect submission (a
  column no key fills; a key with no column is not shown, which Codabench allows), and
  each column's sorting against its metric's direction; each dataset's gold with the item ids of
  its input data; no
  public file carries a phase's hidden gold (the builder's own check), and no hidden phase's gold
  is in the starting kit; no hidden-gold phase scores items a later hidden-gold phase scores before
  the evaluation ends (``phase_gold``'s third rule, on Codabench v2 bundles).

A form of ``competition.yaml`` is a module (``v2``; the CodaLab v1.5 form is
``codajudge.legacy.check``, which the command line adds), chosen by the yaml's ``version`` (a
missing one reads "1"), with:

- ``VERSIONS``, the ``version`` values it reads, and ``VERSION_TEXT``, the one a message asks for;
- ``check(doc, root, findings)``: the form's own rules (keys, pages, phases, programs, leaderboard);
- ``score_keys(doc)``: the keys the scoring program must write (the leaderboard's columns it does
  not compute);
- ``column_sortings(doc)``: each leaderboard column's key -> (its place, the name of its sorting
  key, its sorting), which must rank the column's metric in its direction;
- ``references(doc)``: (phase name, reference_data path, the input_data path of the same task or
  phase, None without one, the phase's mapping) of every scored phase, in phase order;
- ``PHASE_DATA_KEYS``: the keys that choose a phase's data, as a message names them;
- ``DEFAULT_TIME_LIMIT``: a phase's execution_time_limit when its yaml gives none (None: not
  known, and then not compared with its task.json's);
- ``published_paths(doc)``: what participants can see or their code can read (pages, kits, public
  and input data);
- ``HAS_PHASE_ENDS``: whether phases have end dates, so that phase_gold's rule on rescored items
  applies.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from collections.abc import Sequence

from . import v2
from .findings import Findings
from .opening import load_competition_yaml, opened_bundle


def check_bundle(
    path: Path, platforms: Sequence[ModuleType] = (v2,), notes: list[str] | None = None
) -> list[str]:
    """Every problem of the bundle at ``path`` (folder or zip), one line each; [] when it is fine.
    ``platforms`` are the forms of ``competition.yaml`` it may take, chosen by its ``version`` (a
    missing one reads "1"). What the check cannot tell (an image it does not know) is added to
    ``notes``."""
    findings = Findings()
    with opened_bundle(Path(path), findings) as root:
        doc = None if root is None else load_competition_yaml(root, findings)
        version = None if doc is None else str(doc.get("version", "1"))
        platform = next((p for p in platforms if version in p.VERSIONS), None)
        if doc is not None and platform is None:
            others = "".join(f" (or {p.VERSION_TEXT})" for p in platforms[1:])
            findings.add(
                "competition.yaml",
                "unsupported 'version'",
                expected=platforms[0].VERSION_TEXT + others,
                found=repr(doc.get("version")),
            )
        elif platform is not None:
            platform.check(doc, root, findings)
            from .content import check_content, check_data_files

            check_data_files(root, findings)
            if findings.layout_sound():  # the content checks need a sound layout
                check_content(doc, root, findings, platform)
    (notes if notes is not None else []).extend(findings.notes)
    return findings.lines()
