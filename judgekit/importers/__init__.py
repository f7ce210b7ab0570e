"""Release importers: each turns one official release format into the kit's items (``formats.items``).

An edition's ``datasets`` section names an importer and its options per dataset; ``load_split``
returns the items of one split (``train``, ``dev`` or ``test``). An importer knows its release's
quirks and nothing about Codabench. Register a new one in ``IMPORTERS``.

Contract of every importer module: ``load_split(source: dict, root: Path, split: str) -> List[dict]``
where ``source`` is the dataset's mapping from the edition config (``path`` relative to ``root``,
plus the importer's own options), raising ``ConfigError`` with the file and the problem.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Dict, List

from ..confine import lexical_escapes, require_inside
from ..errors import ConfigError

#: importer name -> module (imported lazily, so one broken importer cannot break the others)
IMPORTERS: Dict[str, str] = {
    "kit": "judgekit.importers.kit",
    "semeval_sts": "judgekit.importers.semeval_sts",
    "stsb": "judgekit.importers.stsb",
    "ocnli": "judgekit.importers.ocnli",
    "chaosnli": "judgekit.importers.chaosnli",
    "lewidi": "judgekit.importers.lewidi",
}

SPLITS = ("train", "dev", "test")


def load_split(source: dict, root: Path, split: str, where: str = "datasets") -> List[dict]:
    name = source.get("importer", "kit") if isinstance(source, dict) else None
    if name not in IMPORTERS:
        raise ConfigError.single(where, "unknown importer", expected=" | ".join(sorted(IMPORTERS)),
                                 found=repr(name))
    check_source_paths(source, Path(root), where)
    module = importlib.import_module(IMPORTERS[name])
    return module.load_split(source, Path(root), split)


def check_source_paths(source: dict, root: Path, where: str) -> None:
    """Everything an importer reads must lie inside ``root`` (``--data``, or the edition folder):
    no option may be absolute or climb with '..', and the release ``path`` (with every file below it)
    must stay inside ``root`` once symbolic links are resolved. Nested sources (``fallback``) are
    checked when their own turn comes."""
    problems = list(lexical_escapes(source, where, "the data folder"))
    if problems:
        raise ConfigError(problems)
    if "path" in source:
        require_inside(source["path"], root, where, "path", f"the data folder ({root})")
