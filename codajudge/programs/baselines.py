"""``codajudge baselines``: build an edition, run every one of its baselines on a phase through the
local runner (exactly as Codabench would run them), and print their scores per track and metric.

    codajudge baselines [EDITION] [--data DIR] [--phase PHASE] [--out DIR]

EDITION is a name under editions/, a folder or its edition.yaml (default: default); --data the
folder its dataset paths are relative to (default: the edition folder); --phase defaults to
evaluation; the bundle is built in a temporary folder unless --out is given.
"""

from __future__ import annotations

import argparse
from typing import List, Optional

from .common import run_guarded, summary
from .demo import run


def main(argv: Optional[List[str]] = None, prog: str = "codajudge baselines") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=summary(__doc__))
    parser.add_argument("edition", nargs="?", default="default", help="edition name or folder")
    parser.add_argument("--data", help="folder the edition's dataset paths are relative to")
    parser.add_argument(
        "--phase", default="evaluation", help="the phase scored (default: evaluation)"
    )
    parser.add_argument("--out", help="keep the built bundle in this folder")
    args = parser.parse_args(argv)
    return run_guarded(lambda: run(args), prog)
