"""What only the kit can check: each phase's reference data scored as a perfect submission (its keys
must be the leaderboard's, every metric at its best), and no public file carrying hidden gold."""

from __future__ import annotations

import hashlib
import shutil
import tempfile
import zipfile
from pathlib import Path
from typing import Dict, List, Tuple

from ...errors import KitError
from ...formats.items import read_items
from ...scoring import load_gold
from ...spec import read_spec
from ..build import imperfect_scores, score_gold
from ..leaks import HiddenSplit, check_public_tree
from . import legacy
from .findings import Findings
from .leaderboard import score_keys
from .opening import relative_path
from .programs import PROGRAMS


def _phase_references(doc: dict) -> List[Tuple[str, str]]:
    """(phase name, reference_data path) of every scored phase, in phase order."""
    if str(doc.get("version", "1")) == "2":
        tasks = {t.get("index"): t for t in doc.get("tasks") or [] if isinstance(t, dict)}
        refs = []
        for phase in sorted(doc.get("phases") or [], key=lambda p: p.get("index", 0)):
            for ref in phase.get("tasks") or []:
                if tasks.get(ref, {}).get("reference_data"):
                    refs.append((str(phase.get("name")), tasks[ref]["reference_data"]))
        return refs
    phases = sorted((doc.get("phases") or {}).values(), key=lambda p: p["phasenumber"])
    return [(str(p.get("label")), p["reference_data"]) for p in phases if p.get("reference_data")]


def _expected_keys(doc: dict) -> List[str]:
    if str(doc.get("version", "1")) == "2":
        return score_keys((doc.get("leaderboards") or [{}])[0])
    return legacy.score_keys(doc)


def _gold_digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(folder.glob("*.jsonl")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def check_content(doc: dict, root: Path, findings: Findings) -> None:
    work = Path(tempfile.mkdtemp(prefix="judgekit-check-content-"))
    try:
        folders = _reference_folders(doc, root, work, findings)
        expected = _expected_keys(doc)
        for name, (where, folder) in folders.items():
            _check_perfect_submission(where, folder, expected, findings)
        if not findings.problems:
            _check_leaks(doc, root, folders, work, findings)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _reference_folders(
    doc: dict, root: Path, work: Path, findings: Findings
) -> Dict[str, Tuple[str, Path]]:
    folders: Dict[str, Tuple[str, Path]] = {}
    for phase, value in _phase_references(doc):
        path = relative_path(root, value)
        if value in folders or path is None:
            continue
        if path.is_file():
            target = work / f"ref{len(folders)}"
            with zipfile.ZipFile(path) as archive:
                archive.extractall(target)
            path = target
        if not (path / "task.json").is_file():
            findings.add(
                str(value),
                f"reference data of phase {phase!r} has no task.json, which the scoring "
                "program reads",
                hint="build the bundle with judgekit build",
            )
            continue
        folders[value] = (str(value), path)
    return folders


def _check_perfect_submission(
    where: str, folder: Path, expected: List[str], findings: Findings
) -> None:
    try:
        result = score_gold(folder)
    except KitError as e:
        for problem in e.problems:
            findings.add(where, problem.render())
        return
    written = list(result.scores())
    for key in expected:
        if key not in written:
            findings.add(
                "leaderboards",
                f"column key {key!r} is never written by the scoring program",
                expected="one of the keys a perfect submission gets: " + ", ".join(written),
                hint=f"checked on {where}",
            )
    for key in written:
        if key not in expected:
            findings.add(
                "leaderboards",
                f"the scoring program writes {key!r}, which no leaderboard column shows",
                hint=f"checked on {where}",
            )
    for problem in imperfect_scores(result, where):
        findings.add(where, problem.message, expected=problem.expected, found=problem.found)


def _check_leaks(doc: dict, root: Path, folders, work: Path, findings: Findings) -> None:
    public_gold = _public_gold_digests(root, work)
    hidden: Dict[str, HiddenSplit] = {}
    seen = set()
    for where, folder in folders.values():
        digest = _gold_digest(folder)
        if digest in public_gold or digest in seen:
            continue
        seen.add(digest)
        spec = read_spec(folder)
        golds = load_gold(spec, folder)
        for track in spec.tracks:
            items = read_items(
                folder / f"{track.dataset}.jsonl", f"{where}/{track.dataset}.jsonl", texts=False
            )  # reference data holds no texts
            hidden[f"{track.id} ({where})"] = HiddenSplit(golds[track.id], items)
    if not hidden:
        return
    public = sorted(
        {
            path
            for path in (relative_path(root, v) for v in _published_paths(doc))
            if path is not None and path.exists()
        }
    )
    try:
        check_public_tree(public, hidden, root)
    except KitError as e:
        for problem in e.problems:
            findings.add(
                problem.file, problem.message, expected=problem.expected, found=problem.found
            )


def _published_paths(doc: dict) -> List[str]:
    """What participants can see or their code can read: pages, starting kits, public data, the input
    data their code runs on, solutions, and the programs when the bundle makes them available."""
    values: List[str] = []
    if str(doc.get("version", "1")) == "2":
        values += [p.get("file") for p in doc.get("pages") or [] if isinstance(p, dict)] + [
            doc.get("terms")
        ]
        for phase in doc.get("phases") or []:
            values += [phase.get("starting_kit"), phase.get("public_data")]
        for task in doc.get("tasks") or []:
            values.append(task.get("input_data"))
            if doc.get("make_programs_available"):
                values += [task.get(kind) for kind in PROGRAMS]
        values += [s.get("path") for s in doc.get("solutions") or [] if isinstance(s, dict)]
    else:
        values += list((doc.get("html") or {}).values())
        for phase in (doc.get("phases") or {}).values():
            values += [phase.get(kind) for kind in ("starting_kit", "public_data", "input_data")]
    return [v for v in values if isinstance(v, str) and v]


def _public_gold_digests(root: Path, work: Path) -> set:
    """Gold shipped on purpose in the starting kit (the practice phase's public dev gold)."""
    kits = [root / "starting_kit"] if (root / "starting_kit").is_dir() else []
    if (root / "starting_kit.zip").is_file():
        target = work / "starting_kit"
        with zipfile.ZipFile(root / "starting_kit.zip") as archive:
            archive.extractall(target)
        kits.append(target)
    return {
        _gold_digest(folder)
        for kit in kits
        for folder in (kit / "reference_data").glob("*")
        if folder.is_dir()
    }
