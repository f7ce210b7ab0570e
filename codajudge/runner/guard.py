"""Keeping submitted code away from the reference data during the local prediction step.

The prediction step's folders never contain the reference data (as on Codabench). As a second
line, the runner puts this module's folder first on PYTHONPATH as ``sitecustomize``: it installs an
audit hook that refuses Python-level file access (open, listing, stat-free walks) below the paths in
``CODAJUDGE_FORBIDDEN``. It guards against mistakes and casual peeking; it is not an OS sandbox
(code that starts another program can still read files the user can read).
"""

import os
import sys

FORBIDDEN_ENV = "CODAJUDGE_FORBIDDEN"
_EVENTS = {
    "open",
    "os.listdir",
    "os.scandir",
    "shutil.copytree",
    "shutil.copyfile",
    "os.chdir",
    "glob.glob",
}


def install() -> None:
    roots = [os.path.realpath(p) for p in os.environ.get(FORBIDDEN_ENV, "").split(os.pathsep) if p]
    if not roots:
        return

    def hook(event, args):
        if event not in _EVENTS or not args:
            return
        target = args[0]
        try:  # TypeError: a file descriptor or None, no path
            path = os.path.realpath(os.fsdecode(target))
        except (TypeError, ValueError):
            return
        for root in roots:
            if path == root or path.startswith(root + os.sep):
                raise PermissionError(
                    f"the reference data is not readable during the prediction step: {target}"
                )

    sys.addaudithook(hook)
