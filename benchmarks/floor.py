#!/usr/bin/env python3
"""The parse floor: ``python3 benchmarks/floor.py INPUT/ref INPUT/res`` reads and parses the scoring
program's input files with the standard library alone, and nothing more.

No validation, no alignment, no numpy: split lines, ``json.loads`` each gold line, and convert each
submitted value (``float`` for scores, ``json.loads`` for lists, ``strip`` for labels). Whatever the
scoring program does beyond this is the kit's own work, which the floor ratio bounds.

It runs as the scoring program does, in a fresh interpreter whose garbage collector is in its
default state (enabled, default thresholds): the scoring program sets no collector state of its
own, so both pay the collector's passes over the objects they create.
"""

import json
import sys
from pathlib import Path
from typing import Callable

FLOOR_SCRIPT = Path(__file__).resolve()


def read_gold(path: Path) -> list:
    """Every item of a ``.jsonl`` file, one ``json.loads`` per line."""
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _values(path: Path, convert: Callable[[str], object]) -> list[object]:
    with open(path, encoding="utf-8") as f:
        positional = "\t" not in f.readline()
        f.seek(0)
        if positional:
            return [convert(line) for line in f if line.strip()]
        return [convert(line.split("\t", 1)[1]) for line in f if line.strip()]


def read_submission(path: Path, kind: str) -> list:
    """The submitted values: numbers (similarity), labels (classification) or JSON (the rest);
    a file without a tab on its first line is read as one value per line (SemEval positional)."""
    if kind == "similarity":
        return _values(path, float)
    if kind == "classification":
        return _values(path, str.strip)
    return _values(path, json.loads)


def read_phase(ref: Path, res: Path) -> int:
    """Read task.json, every gold file and each track's ``res/<id>.tsv``; returns the gold item count."""
    spec = json.loads((ref / "task.json").read_text(encoding="utf-8"))
    n = 0
    for dataset in sorted({t["dataset"] for t in spec["tracks"]}):
        n += len(read_gold(ref / f"{dataset}.jsonl"))
    for track in spec["tracks"]:
        read_submission(res / f"{track['id']}.tsv", track["kind"])
    return n


if __name__ == "__main__":
    print(read_phase(Path(sys.argv[1]), Path(sys.argv[2])))
