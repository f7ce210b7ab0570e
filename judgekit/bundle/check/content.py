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
from ...gold import GoldTrack
from ...scoring import load_gold
from ...spec import read_spec
from ..build import imperfect_scores, score_gold
from ..leaks import check_public_tree
from . import legacy
from .findings import Findings
from .leaderboard import score_keys
from .opening import relative_path

PROGRAMS = ("scoring_program", "ingestion_program")


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


def _reference_folders(doc: dict, root: Path, work: Path, findings: Findings) -> Dict[str, Tuple[str, Path]]:
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
            findings.add(str(value), f"reference data of phase {phase!r} has no task.json, which the scoring "
                         "program reads", hint="build the bundle with judgekit build")
            continue
        folders[value] = (str(value), path)
    return folders


def _check_perfect_submission(where: str, folder: Path, expected: List[str], findings: Findings) -> None:
    try:
        result = score_gold(folder)
    except KitError as e:
        for problem in e.problems:
            findings.add(where, problem.render())
        return
    written = list(result.scores())
    for key in expected:
        if key not in written:
            findings.add("leaderboards", f"column key {key!r} is never written by the scoring program",
                         expected="one of the keys a perfect submission gets: " + ", ".join(written),
                         hint=f"checked on {where}")
    for key in written:
        if key not in expected:
            findings.add("leaderboards", f"the scoring program writes {key!r}, which no leaderboard column shows",
                         hint=f"checked on {where}")
    for problem in imperfect_scores(result, where):
        findings.add(where, problem.message, expected=problem.expected, found=problem.found)


def _check_leaks(doc: dict, root: Path, folders, work: Path, findings: Findings) -> None:
    public_gold = _public_gold_digests(root, work)
    hidden: Dict[str, GoldTrack] = {}
    seen = set()
    for where, folder in folders.values():
        digest = _gold_digest(folder)
        if digest in public_gold or digest in seen:
            continue
        seen.add(digest)
        spec = read_spec(folder)
        for track_id, gold in load_gold(spec, folder).items():
            hidden[f"{track_id} ({where})"] = gold
    if not hidden:
        return
    private = {str(v) for _, v in _phase_references(doc)}
    private |= {str(doc_value) for doc_value in _program_paths(doc)}
    public = _public_roots(root, root, {s.strip("/") for s in private} | {"competition.yaml"})
    try:
        check_public_tree(public, hidden, root)
    except KitError as e:
        for problem in e.problems:
            findings.add(problem.file, problem.message, expected=problem.expected, found=problem.found)


def _public_roots(root: Path, folder: Path, private: set) -> List[Path]:
    """Everything under ``folder`` except the private paths (reference data, programs)."""
    roots = []
    for path in sorted(folder.iterdir()):
        relative = path.relative_to(root).as_posix()
        if relative in private:
            continue
        if path.is_dir() and any(p.startswith(relative + "/") for p in private):
            roots += _public_roots(root, path, private)
        else:
            roots.append(path)
    return roots


def _program_paths(doc: dict) -> List[str]:
    if str(doc.get("version", "1")) == "2":
        return [t[k] for t in doc.get("tasks") or [] if isinstance(t, dict) for k in PROGRAMS if t.get(k)]
    return [p[k] for p in (doc.get("phases") or {}).values() for k in PROGRAMS if p.get(k)]


def _public_gold_digests(root: Path, work: Path) -> set:
    """Gold shipped on purpose in the starting kit (the practice phase's public dev gold)."""
    kits = [root / "starting_kit"] if (root / "starting_kit").is_dir() else []
    if (root / "starting_kit.zip").is_file():
        target = work / "starting_kit"
        with zipfile.ZipFile(root / "starting_kit.zip") as archive:
            archive.extractall(target)
        kits.append(target)
    return {_gold_digest(folder) for kit in kits for folder in (kit / "reference_data").glob("*") if folder.is_dir()}
