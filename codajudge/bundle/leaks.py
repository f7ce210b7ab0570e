"""Refusing public files that contain hidden gold.

Three checks on every public file (and every file inside a public zip):

- public input item files may hold only public fields (training files aside, whose gold is public by
  design and whose items may not be evaluation items);
- an item file of the kit's format that holds hidden items (same id and texts) with their gold, for
  a large share of a hidden track's items, is refused, even with items left out;
- any other text file is read as a submission of each hidden track (``scoring.read_track_file``) and by its
  content in any layout (``content_leaks``); reproducing most of a track's hidden gold refuses it.

Binary files (a NUL byte in their first 8 KiB) and the engine's own code are not read.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import tempfile
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import numpy as np

from .. import kinds
from ..errors import ConfigError, KitError, Problem
from ..formats.archive import safe_extract
from ..formats.items import PUBLIC_FIELDS, read_items
from ..scoring import read_track_file
from ..gold import GoldTrack, build_gold
from .content_leaks import (
    LEAK_SHARE_MIN,
    MIN_ITEMS,
    TextValues,
    content_leaks,
    hidden_ids,
    probe_for,
    text_key,
)
from .encoded_leaks import encoded_leaks

LEAK_SHARE = 0.9  # a file read as a submission: share of items exactly right
LEAK_MIN_ITEMS = MIN_ITEMS
MAX_SCANNED_BYTES = 64 * 1024 * 1024
HINT = (
    "remove the file, or mark the phase's gold public on purpose, or (a file published on "
    "purpose) declare its path with the reason in the edition's 'known_leaks'"
)


@dataclass
class HiddenSplit:
    """A track's gold on a split no public file may reveal, with the items it was built from."""

    gold: GoldTrack
    items: List[dict] = field(default_factory=list)

    @cached_property
    def text_keys(self) -> List[tuple]:
        """``text_key`` of each item (empty for items without texts)."""
        return [text_key(item) for item in self.items]


def exact_share(gold: GoldTrack, values) -> float:
    """Share of scored items whose prediction equals the gold exactly (within float noise)."""
    hits = kinds.of(gold.track).exact_hits(gold, values)
    return float(np.mean(hits)) if len(hits) else 0.0


def _is_text(path: Path) -> bool:
    with open(path, "rb") as f:
        return b"\0" not in f.read(8192)


def _candidates(root: Path) -> List[Path]:
    return sorted(
        p
        for p in Path(root).rglob("*")
        if p.is_file()
        and not p.is_symlink()
        and p.stat().st_size <= MAX_SCANNED_BYTES
        and "codajudge" not in p.parts
        and (p.suffix.lower() == ".zip" or _is_text(p))
    )


def _check_item_file(path: Path, display: str, problems: List[Problem]) -> None:
    for number, line in enumerate(
        path.read_text(encoding="utf-8").split("\n"), start=1
    ):  # not splitlines: U+2028 is text
        if not line.strip():
            continue
        record = json.loads(line)
        extra = sorted(set(record) - set(PUBLIC_FIELDS))
        if extra:
            problems.append(
                Problem(
                    display,
                    "public input item carries non-public fields",
                    line=number,
                    item=str(record.get("id")),
                    expected=", ".join(PUBLIC_FIELDS),
                    found=", ".join(extra),
                )
            )
            return


def _scan_text(
    path: Path, display: str, hidden: Dict[str, HiddenSplit], problems: List[Problem]
) -> set:
    """The file read as a submission of each hidden track. Returns the tracks it leaks."""
    leaked = set()
    for track_id, split in hidden.items():
        gold = split.gold
        if len(gold.ids) < LEAK_MIN_ITEMS:
            continue
        try:
            prediction = read_track_file(path, display, gold)
        except (KitError, ValueError, OSError):
            continue
        share = exact_share(gold, prediction.values)
        if share >= LEAK_SHARE:
            problems.append(
                Problem(
                    display,
                    f"public file reproduces the hidden gold of track '{track_id}'",
                    expected="no hidden gold in public files",
                    found=f"{share:.0%} of items exact",
                    hint=HINT,
                )
            )
            leaked.add(track_id)
    return leaked


def _scan_content(path: Path, display: str, probes: list, problems: List[Problem]) -> None:
    """The file's content in any layout: each probe's gold as it is (``content_leaks``), else
    transformed as its metric allows (``encoded_leaks``)."""
    text = TextValues(path.read_bytes().decode("utf-8", errors="replace"), hidden_ids(probes))
    found = content_leaks(text, probes)
    leaked = {name for name, _, _ in found}
    found += encoded_leaks(text, [probe for probe in probes if probe.name not in leaked])
    for name, share, how in found:
        problems.append(
            Problem(
                display,
                f"public file reproduces the hidden gold of track '{name}'",
                expected="no hidden gold in public files",
                found=f"the gold of {share:.0%} of its items, {how}",
                hint=HINT,
            )
        )


@dataclass
class PublicItems:
    """A public item file's items by texts (``text_key``) and, for items without texts (reference data
    has none), by id."""

    by_texts: Dict[tuple, dict]
    by_id: Dict[str, dict]

    @classmethod
    def of(cls, items: List[dict]) -> "PublicItems":
        by_texts: Dict[tuple, dict] = {}
        for item in items:
            if item.get("texts"):
                by_texts.setdefault(text_key(item), item)
        return cls(by_texts, {item["id"]: item for item in items if "texts" not in item})


def _same_items(split: HiddenSplit, public: PublicItems) -> List[Tuple[dict, dict]]:
    """(hidden item, public item) pairs that are the same item: the same texts, whatever the ids (a
    copy under a new id is the same item), or the same id when the public item has no texts."""
    shared = []
    for item, key in zip(split.items, split.text_keys):
        other = public.by_texts.get(key) if any(key) else None
        other = other or public.by_id.get(item["id"])
        if other is not None:
            shared.append((item, other))
    return shared


def _scan_items(
    items: List[dict], display: str, hidden: Dict[str, HiddenSplit], problems: List[Problem]
) -> None:
    """A public item file with gold fields (a starting kit's reference data, a training file, a public
    file) must not carry the hidden gold of most items of a track (e.g. dev and test share items, or
    test items copied under new ids), even with some items left out (``_same_items``)."""
    public = PublicItems.of(items)
    for track_id, split in hidden.items():
        shared = _same_items(split, public)
        if len(shared) < LEAK_MIN_ITEMS:
            continue
        try:
            theirs = build_gold(split.gold.track, [p for _, p in shared], display)
            ours = build_gold(split.gold.track, [h for h, _ in shared], display)
            share = exact_share(ours, theirs.gold) * len(shared) / len(split.items)
        except (KitError, ValueError, IndexError, KeyError):
            continue  # not this track's items (other fields or annotators): nothing of its gold
        if share >= LEAK_SHARE_MIN:
            problems.append(
                Problem(
                    display,
                    f"public item file carries the hidden gold of track '{track_id}'",
                    expected="no hidden gold in public files",
                    found=f"{share:.0%} of items exact",
                    hint="dev and test may not share items when the dev gold is public; "
                    "set 'public_gold: false' on the practice phase",
                )
            )


@dataclass
class Scan:
    """One check of public files: the hidden gold, its probes, the problems found, and the problems
    of each content already read (the same training file ships in every phase and the starting kit:
    it is read once)."""

    hidden: Dict[str, HiddenSplit]
    probes: list
    problems: List[Problem] = field(default_factory=list)
    seen: Dict[tuple, List[Problem]] = field(default_factory=dict)


def _scan_file(path: Path, display: str, scan: Scan, in_input_data: bool) -> None:
    if path.suffix.lower() == ".zip":
        _scan_zip(path, display, scan)
        return
    key = (hashlib.sha256(path.read_bytes()).hexdigest(), path.name, in_input_data)
    if key not in scan.seen:
        found: List[Problem] = []
        _scan_contents(path, display, scan, found, in_input_data)
        scan.seen[key] = found
    scan.problems.extend(dataclasses.replace(p, file=display) for p in scan.seen[key])


def _scan_zip(path: Path, display: str, scan: Scan) -> None:
    with tempfile.TemporaryDirectory(prefix="codajudge-leak-") as tmp:
        try:
            safe_extract(path, Path(tmp), display)
        except KitError:
            return
        for inner in _candidates(Path(tmp)):
            if inner.suffix.lower() != ".zip":  # one level of archives
                inner_display = f"{display}:{inner.relative_to(tmp).as_posix()}"
                _scan_file(inner, inner_display, scan, in_input_data=False)


def _scan_contents(
    path: Path, display: str, scan: Scan, problems: List[Problem], in_input_data: bool
) -> None:
    if path.suffix == ".jsonl" and in_input_data and not path.name.endswith(".train.jsonl"):
        _check_item_file(path, display, problems)
        return
    if path.suffix == ".jsonl":
        try:
            items = read_items(path, display, texts=False)  # reference data holds no texts
        except (ConfigError, UnicodeDecodeError):
            items = None
        if items is not None:  # and its content too: gold in other fields, or transformed
            _scan_items(items, display, scan.hidden, problems)
    leaked = _scan_text(path, display, scan.hidden, problems)
    rest = [probe for probe in scan.probes if probe.name not in leaked]
    _scan_content(path, display, rest, problems)


KNOWN_LEAKS_KEY = "known_leaks"

#: A built bundle's record of its edition's ``known_leaks`` (public path -> why), at the bundle's
#: root (no participant sees it), so that ``codajudge check BUNDLE`` excuses what the build did.
KNOWN_LEAKS_FILE = "known_leaks.json"


def write_known_leaks(root: Path, known: Dict[str, str]) -> None:
    """``root/known_leaks.json`` when the edition declares leaks; nothing otherwise."""
    if known:
        text = json.dumps(known, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
        (root / KNOWN_LEAKS_FILE).write_text(text, encoding="utf-8")


def read_known_leaks(root: Path) -> Dict[str, str]:
    """The leaks a bundle's build declared (``write_known_leaks``); empty without the file or when
    it is not a JSON object of strings."""
    path = root / KNOWN_LEAKS_FILE
    if not path.is_file() or path.is_symlink():
        return {}
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, ValueError):
        return {}
    if not isinstance(doc, dict):
        return {}
    return {k: v for k, v in doc.items() if isinstance(k, str) and isinstance(v, str)}


def concerns_file(problem: Problem, name: str) -> bool:
    """``problem`` is about the public file ``name`` (or a file inside it, when it is a zip)."""
    return problem.file == name or problem.file.startswith(f"{name}:")


def _unknown_exceptions(known: Dict[str, str], scanned: set) -> List[Problem]:
    return [
        Problem(
            f"{KNOWN_LEAKS_KEY} {name!r}",
            "names no public file of the bundle",
            expected="a public file's path in the bundle, as the leak check names it "
            "(e.g. starting_kit/extra/labels.tsv for public_files: [extra/labels.tsv])",
            found=name,
            hint="correct the path, or remove the entry",
        )
        for name in sorted(set(known) - scanned)
    ]


def check_public_tree(
    public_roots: List[Path],
    hidden: Dict[str, HiddenSplit],
    base: Path,
    known: Optional[Dict[str, str]] = None,
    known_must_exist: bool = True,
) -> List[Problem]:
    """Raise ConfigError if any public file leaks hidden gold (``hidden``: track (split) -> its
    gold). ``known``: the edition's declared exceptions (a public file's path relative to ``base``
    -> why it holds hidden gold on purpose); their files' leaks are returned, for the build
    summary, and an exception naming no public file is refused (unless ``known_must_exist`` is
    false: a built bundle's check, whose record the build already held to it)."""
    probes = [
        probe
        for name, split in hidden.items()
        if (probe := probe_for(name, split.gold, split.items)) is not None
    ]
    scan = Scan(hidden, probes)
    scanned = set()
    for root in public_roots:
        for path in _candidates(root):
            relative = path.relative_to(base)
            scanned.add(relative.as_posix())
            _scan_file(
                path, relative.as_posix(), scan, in_input_data="input_data" in relative.parts
            )
    known = known or {}
    excused = [p for p in scan.problems if any(concerns_file(p, name) for name in known)]
    problems = [p for p in scan.problems if p not in excused]
    if known_must_exist:
        problems += _unknown_exceptions(known, scanned)
    if problems:
        raise ConfigError(problems)
    return excused
