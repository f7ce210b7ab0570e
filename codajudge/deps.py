"""The runtime libraries every entry point needs, checked before anything imports them, so that a
missing one is one line saying what to install instead of a ModuleNotFoundError traceback."""

import importlib.util
import os
import sys

#: Import name -> the name to install it under.
RUNTIME = {"numpy": "numpy", "scipy": "scipy", "yaml": "PyYAML"}
EXIT_MISSING = 1
#: The folder holding the running codajudge package: the organisers' repository, whose run.sh sets
#: up .venv, or a starting kit, a bundle's program or site-packages, which have no run.sh.
REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def venv_hint(root: str = "") -> str:
    """The clause naming ``ROOT/run.sh`` (which sets up .venv) where that script is beside the
    running package (``REPO_ROOT``); "" anywhere else, which has no run.sh to name."""
    script = os.path.join(root or REPO_ROOT, "run.sh")
    return f" (or run 'bash {script}', which sets up .venv)" if os.path.isfile(script) else ""


def require_runtime(program: str = "") -> None:
    """Exit with one line naming what to install when numpy, scipy or PyYAML cannot be imported."""
    # run before anything imports them: find_spec of a top-level name raises only for a module
    # already imported without a spec
    missing = [name for module, name in RUNTIME.items() if importlib.util.find_spec(module) is None]
    if missing:
        program = program or os.path.basename(sys.argv[0] or "codajudge") or "codajudge"
        print(
            f"{program}: missing Python package(s) {', '.join(missing)} for {sys.executable}; install them with "
            f"'{sys.executable} -m pip install numpy scipy pyyaml'{venv_hint()}",
            file=sys.stderr,
        )
        raise SystemExit(EXIT_MISSING)
