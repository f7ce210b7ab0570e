"""The floor: merely reading and parsing the scoring program's input files with the standard library.

No validation, no alignment, no numpy: split lines, ``json.loads`` each gold line, and convert each
submitted value (``float`` for scores, ``json.loads`` for lists, ``strip`` for labels). Whatever the
scoring program does beyond this is the kit's own work, which the floor ratio bounds.

The cyclic garbage collector is paused while the floor parses (``gc.disable``, standard library
too): its passes over millions of new objects would otherwise more than double the floor's time
and make the ratio look better than the kit's own work deserves.
"""

from __future__ import annotations

import gc
import json
from pathlib import Path
from typing import Callable, List


def read_gold(path: Path) -> list:
    """Every item of a ``.jsonl`` file, one ``json.loads`` per line."""
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _values(path: Path, convert: Callable[[str], object], positional: bool) -> List[object]:
    with open(path, encoding="utf-8") as f:
        if positional:
            return [convert(line) for line in f if line.strip()]
        return [convert(line.split("\t", 1)[1]) for line in f if line.strip()]


def read_submission(path: Path, kind: str, positional: bool = False) -> list:
    """The submitted values: numbers (similarity), labels (classification) or JSON (the rest)."""
    if kind == "similarity":
        return _values(path, float, positional)
    if kind == "classification":
        return _values(path, str.strip, positional)
    return _values(path, json.loads, positional)


def read_phase(ref: Path, res: Path, tracks) -> int:
    """Read task.json, every gold file and every submission file of a phase; returns the item count."""
    gc.disable()
    try:
        spec = json.loads((ref / "task.json").read_text(encoding="utf-8"))
        n = 0
        for dataset in sorted({t["dataset"] for t in spec["tracks"]}):
            n += len(read_gold(ref / f"{dataset}.jsonl"))
        for track in tracks:
            read_submission(
                res / f"{track.id}.tsv",
                track.kind,
                positional=track.positional and _is_positional(res, track),
            )
    finally:
        gc.enable()
    return n


def _is_positional(res: Path, track) -> bool:
    with open(res / f"{track.id}.tsv", encoding="utf-8") as f:
        return "\t" not in f.readline()
