"""Refusing public files that contain hidden gold, by item id and value.

Two checks: public item files may hold only public fields (training files aside, whose gold is
public by design and whose ids may not be evaluation ids); and no public text file, read as a
submission, may reproduce hidden gold (at least ``LEAK_SHARE`` of a track's items exactly right).
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Dict, List

import numpy as np

from ..errors import ConfigError, KitError, Problem
from ..formats.archive import safe_extract
from ..formats.items import PUBLIC_FIELDS, read_items
from ..formats.submission import read_prediction
from ..gold import GoldTrack, build_gold

LEAK_SHARE = 0.9
LEAK_MIN_ITEMS = 5
TEXT_SUFFIXES = (".tsv", ".txt", ".csv", ".json", ".jsonl", ".md", ".pred", "")
MAX_SCANNED_BYTES = 64 * 1024 * 1024


def exact_share(gold: GoldTrack, values) -> float:
    """Share of scored items whose prediction equals the gold exactly (within float noise)."""
    kind = gold.track.kind
    if kind == "similarity":
        hits = np.isclose(values, gold.gold, atol=1e-6)
    elif kind == "classification":
        hits = (values == gold.gold)[gold.scored]
    elif kind == "soft_label":
        diff = np.abs(values - gold.gold).reshape(len(gold.ids), -1).max(axis=1)
        hits = diff < 1e-3
    else:
        wrong = (values.values != gold.gold.values).reshape(len(values.item), -1).any(axis=1)
        hits = np.bincount(values.item, weights=wrong.astype(float), minlength=values.n_items) == 0
    return float(np.mean(hits)) if len(hits) else 0.0


def _candidates(root: Path) -> List[Path]:
    return sorted(p for p in Path(root).rglob("*") if p.is_file() and not p.is_symlink()
                  and p.stat().st_size <= MAX_SCANNED_BYTES and "judgekit" not in p.parts
                  and (p.suffix.lower() in TEXT_SUFFIXES or p.suffix.lower() == ".zip"))


def _check_item_file(path: Path, display: str, problems: List[Problem]) -> None:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        record = json.loads(line)
        extra = sorted(set(record) - set(PUBLIC_FIELDS))
        if extra:
            problems.append(Problem(display, "public input item carries non-public fields", line=number,
                                    item=str(record.get("id")), expected=", ".join(PUBLIC_FIELDS),
                                    found=", ".join(extra)))
            return


def _scan_text(path: Path, display: str, hidden: Dict[str, GoldTrack], problems: List[Problem]) -> None:
    for track_id, gold in hidden.items():
        if len(gold.ids) < LEAK_MIN_ITEMS:
            continue
        try:
            prediction = read_prediction(path, display, gold)
        except (KitError, ValueError, OSError):
            continue
        share = exact_share(gold, prediction.values)
        if share >= LEAK_SHARE:
            problems.append(Problem(display, f"public file reproduces the hidden gold of track '{track_id}'",
                                    expected="no hidden gold in public files", found=f"{share:.0%} of items exact",
                                    hint="remove the file, or mark the phase's gold public on purpose"))


def _scan_items(path: Path, display: str, hidden: Dict[str, GoldTrack], problems: List[Problem]) -> None:
    """A public item file with gold fields (a starting kit's reference data, a training file, a public
    file) must not carry the hidden gold of every item of a track (e.g. dev and test are one file)."""
    try:
        by_id = {item["id"]: item for item in read_items(path, display)}
    except ConfigError:
        return
    for track_id, gold in hidden.items():
        if len(gold.ids) < LEAK_MIN_ITEMS or not all(i in by_id for i in gold.ids):
            continue
        try:
            public = build_gold(gold.track, [by_id[i] for i in gold.ids], display)
            share = exact_share(gold, public.gold)
        except (KitError, ValueError, IndexError, KeyError):
            continue  # not this track's items (other fields or annotators): nothing of its gold
        if share >= LEAK_SHARE:
            problems.append(Problem(display, f"public item file carries the hidden gold of track '{track_id}'",
                                    expected="no hidden gold in public files", found=f"{share:.0%} of items exact",
                                    hint="dev and test may not share items when the dev gold is public; "
                                         "set 'public_gold: false' on the practice phase"))


def check_public_tree(public_roots: List[Path], hidden: Dict[str, GoldTrack], base: Path) -> None:
    """Raise ConfigError if any public file leaks hidden gold. ``hidden``: track id -> hidden gold."""
    problems: List[Problem] = []
    for root in public_roots:
        for path in _candidates(root):
            display = path.relative_to(base).as_posix()
            if path.suffix == ".jsonl" and not path.name.endswith(".train.jsonl") and "input_data" in path.parts:
                _check_item_file(path, display, problems)
            elif path.suffix == ".jsonl":
                _scan_items(path, display, hidden, problems)
            elif path.suffix.lower() == ".zip":
                with tempfile.TemporaryDirectory(prefix="judgekit-leak-") as tmp:
                    try:
                        safe_extract(path, Path(tmp), display)
                    except KitError:
                        continue
                    for inner in _candidates(Path(tmp)):
                        _scan_text(inner, f"{display}:{inner.relative_to(tmp).as_posix()}", hidden, problems)
            else:
                _scan_text(path, display, hidden, problems)
    if problems:
        raise ConfigError(problems)
