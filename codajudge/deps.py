"""The runtime libraries every entry point needs, checked before anything imports them, so that a
missing one is one line saying what to install instead of a ModuleNotFoundError traceback."""

import importlib.util
import os
import sys

#: Import name -> the name to install it under.
RUNTIME = {"numpy": "numpy", "scipy": "scipy", "yaml": "PyYAML"}
EXIT_MISSING = 1


def require_runtime(program: str = "") -> None:
    """Exit with one line naming what to install when numpy, scipy or PyYAML cannot be imported."""
    # run before anything imports them: find_spec of a top-level name raises only for a module
    # already imported without a spec
    missing = [name for module, name in RUNTIME.items() if importlib.util.find_spec(module) is None]
    if missing:
        program = program or os.path.basename(sys.argv[0] or "codajudge") or "codajudge"
        print(
            f"{program}: missing Python package(s) {', '.join(missing)} for {sys.executable}; install them with "
            f"'{sys.executable} -m pip install numpy scipy pyyaml' (or run 'bash run.sh', which sets up .venv)",
            file=sys.stderr,
        )
        raise SystemExit(EXIT_MISSING)
