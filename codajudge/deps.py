"""The runtime libraries every entry point needs, checked before anything imports them, so that a
missing one is one line saying what to install instead of a ModuleNotFoundError traceback."""

from __future__ import annotations

import importlib.util
import os
import sys

#: Import name -> the name to install it under.
RUNTIME = {"numpy": "numpy", "scipy": "scipy", "yaml": "PyYAML"}
EXIT_MISSING = 1


def _importable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def require_runtime(program: str = "") -> None:
    """Exit with one line naming what to install when numpy, scipy or PyYAML cannot be imported."""
    missing = [package for module, package in RUNTIME.items() if not _importable(module)]
    if missing:
        program = program or os.path.basename(sys.argv[0] or "codajudge") or "codajudge"
        print(
            f"{program}: missing Python package(s) {', '.join(missing)} for {sys.executable}; install them with "
            f"'{sys.executable} -m pip install numpy scipy pyyaml' (or run 'bash run.sh', which sets up .venv)",
            file=sys.stderr,
        )
        raise SystemExit(EXIT_MISSING)
