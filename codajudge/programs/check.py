"""``codajudge check BUNDLE``: check a bundle (folder or zip) before uploading it to Codabench.

Given an edition's ``edition.yaml`` (or its folder) instead, it checks the config against the
schema without reading any data, reporting every problem at once.

Prints one line per problem and exits 1 when there is any; prints a one-line summary otherwise.
The same check runs as ``python3 build_bundle.py --check BUNDLE``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import List, Optional

from ..errors import counted
from .common import run_guarded


def is_edition_config(path: Path) -> bool:
    """An ``edition.yaml`` (or a folder holding one and no ``competition.yaml``), not a bundle."""
    if path.is_dir():
        return (path / "edition.yaml").is_file() and not (path / "competition.yaml").exists()
    return path.suffix in (".yaml", ".yml") and path.name != "competition.yaml"


def check_edition(path: Path) -> int:
    """The edition config against the schema and the cross-field rules, as the builder reads it."""
    from ..bundle.edition import load_edition

    edition = load_edition(path)
    print(f"{path}: edition {edition.name} ok, no problems found in its config")
    return 0


def check(bundle: str) -> int:
    from ..bundle.check import check_bundle

    if is_edition_config(Path(bundle)):
        return check_edition(Path(bundle))
    problems = check_bundle(Path(bundle))
    for line in problems:
        print(line)
    if problems:
        found = counted(len(problems), "problem")
        print(f"{bundle}: {found}; fix them before uploading", file=sys.stderr)
        return 1
    print(f"{bundle}: ok, no problems found")
    return 0


def main(argv: Optional[List[str]] = None, prog: str = "codajudge check") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    parser.add_argument(
        "bundle",
        help="a bundle folder (with competition.yaml) or its zip, or an edition's edition.yaml",
    )
    args = parser.parse_args(argv)
    return run_guarded(lambda: check(args.bundle), prog)
