"""What only the kit can check: each phase's reference data scored as a perfect submission (its keys
must be the leaderboard's, every metric at its best), and no public file carrying hidden gold."""

from __future__ import annotations

import hashlib
import shutil
import tempfile
import zipfile
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from ...errors import KitError
from ...formats.archive import safe_extract
from ...formats.items import read_items
from ...scoring import load_gold
from ...spec import read_spec
from ..build import imperfect_scores, score_gold
from ..leaks import HiddenSplit, check_public_tree, read_known_leaks
from .findings import Findings
from .opening import relative_path
from .platform import Platform
from .v2 import scored_tasks
from .rescored import ScoredPhase, check_rescored, item_key, phase_dates


def _gold_digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(folder.glob("*.jsonl")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def check_content(doc: dict, root: Path, findings: Findings, platform: Platform) -> None:
    work = Path(tempfile.mkdtemp(prefix="codajudge-check-content-"))
    try:
        folders = _reference_folders(platform.phase_references(doc), root, work, findings)
        expected = platform.score_keys(doc)
        for name, (where, folder) in folders.items():
            _check_perfect_submission(where, folder, expected, findings)
        if not findings.problems:
            _check_leaks(doc, platform, root, folders, work, findings)
        if not findings.problems and platform.has_phase_ends:
            scored = _scored_phases(doc, platform.inputs_of(doc), root, folders, work)
            check_rescored(scored, findings)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _reference_folders(
    references: List[Tuple[str, str]], root: Path, work: Path, findings: Findings
) -> Dict[str, Tuple[str, Path]]:
    folders: Dict[str, Tuple[str, Path]] = {}
    for phase, value in references:
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
                hint="build the bundle with codajudge build",
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


def _check_leaks(
    doc: dict, platform: Platform, root: Path, folders, work: Path, findings: Findings
) -> None:
    public_gold = _public_gold_digests(root, work)
    hidden: Dict[str, HiddenSplit] = {}
    seen = set()
    inputs = platform.inputs_of(doc)
    for value, (where, folder) in folders.items():
        digest = _gold_digest(folder)
        spec = read_spec(folder)
        if spec.hide_gold and digest in public_gold:
            _hidden_gold_in_kit(where, spec.phase, public_gold[digest], findings)
            continue
        if digest in public_gold or digest in seen:
            continue
        seen.add(digest)
        golds = load_gold(spec, folder)
        public = _input_folder(root, inputs.get(value), work)
        for track in spec.tracks:
            items = _reference_items(folder, public, track.dataset, where)
            hidden[f"{track.id} ({where})"] = HiddenSplit(golds[track.id], items)
    if not hidden:
        return
    public = sorted(
        {
            path
            for path in (relative_path(root, v) for v in platform.published_paths(doc))
            if path is not None and path.exists()
        }
    )
    try:
        check_public_tree(public, hidden, root, read_known_leaks(root), known_must_exist=False)
    except KitError as e:
        for problem in e.problems:
            findings.add(
                problem.file, problem.message, expected=problem.expected, found=problem.found
            )


def _scored_phases(
    doc: dict, inputs: Dict[str, str], root: Path, folders, work: Path
) -> List[ScoredPhase]:
    """The v2 phases with reference data, in order, the items of the hidden-gold ones read."""
    scored = []
    for phase, task in scored_tasks(doc):
        value = task["reference_data"]
        if value not in folders:
            continue
        where, folder = folders[value]
        spec = read_spec(folder)
        keys = {}
        if spec.hide_gold:  # the public phases' items are not the rule's concern
            public = _input_folder(root, inputs.get(value), work)
            for dataset in {t.dataset for t in spec.tracks}:
                items = _reference_items(folder, public, dataset, where)
                keys[dataset] = {item_key(item) for item in items}
        start, end = phase_dates(phase)
        name = str(phase.get("name"))
        scored.append(ScoredPhase(spec.phase, name, where, start, end, spec.hide_gold, keys))
    return scored


def _reference_items(folder: Path, public: Optional[Path], dataset: str, where: str) -> List[dict]:
    """The items of ``dataset`` in a reference folder (which holds no texts), with their texts read
    from the ``public`` input folder when there is one."""
    items = read_items(folder / f"{dataset}.jsonl", f"{where}/{dataset}.jsonl", texts=False)
    return _with_texts(items, public, dataset)


def _input_folder(root: Path, value: Optional[str], work: Path) -> Optional[Path]:
    """The folder of a task's input data (a zip is extracted into ``work``), None without one."""
    path = relative_path(root, value) if value else None
    if path is None or not path.exists():
        return None
    if path.is_file():
        target = work / f"input{len(list(work.glob('input*')))}"
        try:
            safe_extract(path, target, str(value))
        except KitError:
            return None
        path = target
    return path


def _with_texts(items: List[dict], public: Optional[Path], dataset: str) -> List[dict]:
    """Reference items with the texts of the public input items of the same ids, so that a public
    file holding them under new ids is found by its texts; the items as they are without them."""
    path = public / f"{dataset}.jsonl" if public is not None else None
    if path is None or not path.is_file():
        return items
    try:
        texts = {it["id"]: it["texts"] for it in read_items(path, str(path), texts=False)}
    except (KitError, UnicodeDecodeError, KeyError):
        return items
    return [dict(item, texts=texts[item["id"]]) if item["id"] in texts else item for item in items]


def _public_gold_digests(root: Path, work: Path) -> Dict[str, str]:
    """Gold shipped on purpose in the starting kit (a public-gold phase's), by digest -> the kit's
    folder holding it."""
    kits = [(root / "starting_kit", "starting_kit")] if (root / "starting_kit").is_dir() else []
    if (root / "starting_kit.zip").is_file():
        target = work / "starting_kit"
        with zipfile.ZipFile(root / "starting_kit.zip") as archive:
            archive.extractall(target)
        kits.append((target, "starting_kit.zip"))
    return {
        _gold_digest(folder): f"{name}/reference_data/{folder.name}"
        for kit, name in kits
        for folder in sorted((kit / "reference_data").glob("*"))
        if folder.is_dir()
    }


def _hidden_gold_in_kit(where: str, phase: str, kit_folder: str, findings: Findings) -> None:
    """A phase that hides its gold (task.json) while the starting kit holds the same gold."""
    findings.add(
        where,
        f"phase {phase!r} hides its gold (task.json: hide_gold), but {kit_folder}, which "
        "participants have from day one, holds the same gold",
        expected=f"no public-gold phase on the split phase {phase!r} hides",
        found=f"{kit_folder} equal to {where}",
        hint="in the edition, set public_gold: false on the phase whose gold the kit holds (or "
        "give it another split) and rebuild",
    )


def check_reference_files(root: Path, findings: Findings) -> None:
    """Every reference file a phase's ``task.json`` names (each track's ``DATASET.jsonl``) is there,
    whatever else is wrong: a missing one is a located problem beside ``competition.yaml``'s."""
    for spec_path in sorted((root / "reference_data").glob("*/task.json")):
        folder = spec_path.parent
        where = f"reference_data/{folder.name}"
        try:
            spec = read_spec(folder)
        except KitError as e:
            for problem in e.problems:
                findings.add(where, problem.render())
            continue
        for dataset in sorted({track.dataset for track in spec.tracks}):
            if not (folder / f"{dataset}.jsonl").is_file():
                findings.add(
                    f"{where}/{dataset}.jsonl",
                    "the reference data file is missing",
                    expected=f"the gold of dataset '{dataset}', which {where}/task.json names",
                    hint="rebuild the bundle with codajudge build, or restore the file",
                )
