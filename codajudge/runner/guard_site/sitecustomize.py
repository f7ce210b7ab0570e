"""Keeping submitted code away from the reference data during the local prediction step.

The prediction step's folders never contain the reference data (as on Codabench). As a second
line, where there is no sandbox, the local runner puts this folder first on PYTHONPATH, so that
Python loads this module at start-up in the step's processes: it installs an audit hook that refuses
Python-level file access (open, listing, stat-free walks) below the path in ``CODAJUDGE_FORBIDDEN``.
It guards against mistakes and casual peeking; it is not an OS sandbox (code that starts another
program can still read files the user can read).
"""

import os
import sys

_EVENTS = {
    "open",
    "os.listdir",
    "os.scandir",
    "shutil.copytree",
    "shutil.copyfile",
    "os.chdir",
    "glob.glob",
}
_FORBIDDEN = os.environ.get("CODAJUDGE_FORBIDDEN")


def _hook(event, args):
    if event not in _EVENTS or not args:
        return
    target = args[0]
    try:  # TypeError: a file descriptor or None, no path
        path = os.path.realpath(os.fsdecode(target))
    except (TypeError, ValueError):
        return
    if path == _FORBIDDEN or path.startswith(_FORBIDDEN + os.sep):
        raise PermissionError(
            f"the reference data is not readable during the prediction step: {target}"
        )


if _FORBIDDEN:
    _FORBIDDEN = os.path.realpath(_FORBIDDEN)
    sys.addaudithook(_hook)
