"""Where the builder finds what it copies into bundles: the program entry scripts
(``scoring_program/``, ``ingestion_program/``), the participants' ``starting_kit/`` and the shipped
``editions/``.

In a source checkout they sit beside the ``codajudge`` package; ``pip install .`` copies them into the
package as ``codajudge/_kit/`` (see setup.py), so ``codajudge build`` works from any folder.
"""

import fnmatch
import shlex
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
SOURCE_CHECKOUT = PACKAGE.parent
INSTALLED = PACKAGE / "_kit"
#: The folders the builder reads, relative to the kit root.
KIT_FOLDERS = ("scoring_program", "ingestion_program", "starting_kit", "editions")
#: What a copy of the kit's source folders leaves out: Python's caches.
CACHES = ("__pycache__", "*.pyc")


def is_cache(name: str) -> bool:
    """Whether a file or folder name is one of ``CACHES``."""
    return any(fnmatch.fnmatchcase(name, pattern) for pattern in CACHES)


def is_source_checkout() -> bool:
    return all((SOURCE_CHECKOUT / name).is_dir() for name in KIT_FOLDERS)


def kit_root() -> Path:
    """The folder holding KIT_FOLDERS: the repository, or the installed package's copy."""
    return SOURCE_CHECKOUT if is_source_checkout() or not INSTALLED.is_dir() else INSTALLED


#: The checkout's scripts that run a kit command, each with the option that selects it.
SCRIPTS = {
    "rank_submissions.py": {"rank": ""},
    "build_bundle.py": {"build": "", "check": " --check"},
}


def kit_command(command: str) -> str:
    """``codajudge COMMAND`` in the form this process was started with, so that a printed command runs
    where this one ran: ``python -m codajudge COMMAND`` in a checkout's environment (where no
    ``codajudge`` script may be installed) or a starting kit, ``python SCRIPT`` for the checkout's
    script that ran (``python build_bundle.py --check`` for ``check``), else the installed script."""
    started = Path(sys.argv[0] if sys.argv else "")
    option = SCRIPTS.get(started.name, {}).get(command)
    if option is not None:
        return f"python {shlex.quote(sys.argv[0])}{option}"
    module = started.name in SCRIPTS or started.parts[-2:] == ("codajudge", "__main__.py")
    return f"{'python -m ' if module else ''}codajudge {command}"
