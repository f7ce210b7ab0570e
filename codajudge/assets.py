"""Where the builder finds what it copies into bundles: the program entry scripts
(``scoring_program/``, ``ingestion_program/``), the participants' ``starting_kit/`` and the shipped
``editions/``.

In a source checkout they sit beside the ``codajudge`` package; ``pip install .`` copies them into the
package as ``codajudge/_kit/`` (see setup.py), so ``codajudge build`` works from any folder.
"""

import fnmatch
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
