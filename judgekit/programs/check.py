"""``judgekit check BUNDLE``: check a bundle (folder or zip) before uploading it to Codabench.

Prints one line per problem and exits 1 when there is any; prints a one-line summary otherwise.
The same check runs as ``python3 build_bundle.py --check BUNDLE``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import List, Optional

from .common import run_guarded


def check(bundle: str) -> int:
    from ..bundle.check import check_bundle

    problems = check_bundle(Path(bundle))
    for line in problems:
        print(line)
    if problems:
        print(f"{bundle}: {len(problems)} problem(s); fix them before uploading", file=sys.stderr)
        return 1
    print(f"{bundle}: ok, no problems found")
    return 0


def main(argv: Optional[List[str]] = None, prog: str = "judgekit check") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    parser.add_argument("bundle", help="a bundle folder (with competition.yaml) or its zip")
    args = parser.parse_args(argv)
    return run_guarded(lambda: check(args.bundle), prog)
