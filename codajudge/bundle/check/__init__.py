"""``codajudge check BUNDLE``: what Codabench's unpacker and compute worker need, checked offline.

A bundle (a folder or a zip) is opened read-only; every problem becomes one line ``where: what is
wrong; expected ...; found ...``. The checks, one module each:

- ``opening``: the zip's root holds ``competition.yaml``, no member escapes it;
- ``v2``: the Codabench v2 yaml (keys and types, pages, tasks, solutions, phases and their dates);
- ``leaderboard``: the leaderboard and its columns, as Codabench's serializers validate them;
- ``programs``: every program folder or zip has ``metadata.yaml``/``metadata`` with a command whose
  script exists;
- ``legacy``: the CodaLab v1.5 rules (``html`` pages, numbered phases, zips whose ``metadata`` file
  holds the command);
- ``scores``: the leaderboard's keys against what the scorer writes for a perfect submission;
- ``gold_leaks``: no public file carries a phase's hidden gold (the builder's own check), and no
  hidden phase's gold is in the starting kit;
- ``rescored``: no hidden-gold phase scores items a later hidden-gold phase scores before the
  evaluation ends (``phase_gold``'s third rule, on Codabench v2 bundles).
"""

from __future__ import annotations

from pathlib import Path
from typing import List

from .findings import Findings
from .opening import opened_bundle
from .yamlfile import load_competition_yaml


def check_bundle(path: Path) -> List[str]:
    """Every problem of the bundle at ``path`` (folder or zip), one line each; [] when it is fine."""
    findings = Findings()
    with opened_bundle(Path(path), findings) as root:
        if root is None:
            return findings.lines()
        doc = load_competition_yaml(root, findings)
        if doc is None:
            return findings.lines()
        version = str(doc.get("version", "1"))
        if version == "2":
            from . import v2

            v2.check(doc, root, findings)
        elif version in ("1", "1.5"):
            from . import legacy

            legacy.check(doc, root, findings)
        else:
            findings.add(
                "competition.yaml",
                "unsupported 'version'",
                expected="2 (or none for a CodaLab v1.5 bundle)",
                found=repr(doc.get("version")),
            )
            return findings.lines()
        from .content import check_content, check_reference_files

        check_reference_files(root, findings)
        if not findings.problems:  # the content checks need a sound layout
            check_content(doc, root, findings)
    return findings.lines()
