"""Loaded by Python at start-up in the local runner's prediction step (see codajudge.runner.guard)."""

import importlib.util
import os

_spec = importlib.util.spec_from_file_location(
    "codajudge_guard",
    os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "guard.py"),
)
_guard = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_guard)
_guard.install()
