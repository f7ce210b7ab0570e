"""What only the kit can check: each phase's reference data scored as a perfect submission (its keys
must be the leaderboard's, every metric at its best), and no public file carrying hidden gold."""

from __future__ import annotations

import hashlib
import shutil
import tempfile
import zipfile
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Tuple

from ...errors import KitError
from ...formats.archive import safe_extract
from ...formats.items import read_items
from ...scoring import load_gold
from ...spec import read_spec
from ..build import imperfect_scores, score_gold
from ..leaks import HiddenSplit, check_public_tree, read_known_leaks
from . import legacy
from .findings import Findings
from .leaderboard import score_keys
from .opening import relative_path
from .programs import PROGRAMS
from .rescored import ScoredPhase, check_rescored, item_key, phase_dates


def _v2_scored_tasks(doc: dict) -> Iterator[Tuple[dict, dict]]:
    """(phase, task) of every task with reference data of a v2 bundle, in phase order."""
    tasks = {t.get("index"): t for t in doc.get("tasks") or [] if isinstance(t, dict)}
    for phase in sorted(doc.get("phases") or [], key=lambda p: p.get("index", 0)):
        for ref in phase.get("tasks") or []:
            if tasks.get(ref, {}).get("reference_data"):
                yield phase, tasks[ref]


def _phase_references(doc: dict) -> List[Tuple[str, str]]:
    """(phase name, reference_data path) of every scored phase, in phase order."""
    if str(doc.get("version", "1")) == "2":
        return [(str(p.get("name")), t["reference_data"]) for p, t in _v2_scored_tasks(doc)]
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
    work = Path(tempfile.mkdtemp(prefix="codajudge-check-content-"))
    try:
        folders = _reference_folders(doc, root, work, findings)
        expected = _expected_keys(doc)
        for where, folder in folders.items():
            _check_perfect_submission(where, folder, expected, findings)
        if not findings.problems:
            _check_leaks(doc, root, folders, work, findings)
        if not findings.problems and str(doc.get("version", "1")) == "2":
            check_rescored(_scored_phases(doc, root, folders, work), findings)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _reference_folders(doc: dict, root: Path, work: Path, findings: Findings) -> Dict[str, Path]:
    """reference_data path (as the yaml writes it) -> its folder (a zip extracted into ``work``)."""
    folders: Dict[str, Path] = {}
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
                hint="build the bundle with codajudge build",
            )
            continue
        folders[value] = path
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
    inputs = _inputs_of(doc)
    for where, folder in folders.items():
        digest = _gold_digest(folder)
        spec = read_spec(folder)
        if spec.hide_gold and digest in public_gold:
            _hidden_gold_in_kit(where, spec.phase, public_gold[digest], findings)
            continue
        if digest in public_gold or digest in seen:
            continue
        seen.add(digest)
        golds = load_gold(spec, folder)
        public = _input_folder(root, inputs.get(where), work)
        for track in spec.tracks:
            items = _reference_items(folder, public, track.dataset, where)
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
        check_public_tree(public, hidden, root, read_known_leaks(root), known_must_exist=False)
    except KitError as e:
        for problem in e.problems:
            findings.add(
                problem.file, problem.message, expected=problem.expected, found=problem.found
            )


def _scored_phases(doc: dict, root: Path, folders, work: Path) -> List[ScoredPhase]:
    """The v2 phases with reference data, in order, the items of the hidden-gold ones read."""
    inputs = _inputs_of(doc)
    scored = []
    for phase, task in _v2_scored_tasks(doc):
        where = task["reference_data"]
        if where not in folders:
            continue
        spec = read_spec(folders[where])
        keys = {}
        if spec.hide_gold:  # the public phases' items are not the rule's concern
            public = _input_folder(root, inputs.get(where), work)
            for track in spec.tracks:
                items = _reference_items(folders[where], public, track.dataset, where)
                keys[track.dataset] = {item_key(item) for item in items}
        start, end = phase_dates(phase)
        name = str(phase.get("name"))
        scored.append(ScoredPhase(spec.phase, name, where, start, end, spec.hide_gold, keys))
    return scored


def _inputs_of(doc: dict) -> Dict[str, str]:
    """reference_data -> the input_data of the same task (v2) or phase (v1.5)."""
    if str(doc.get("version", "1")) == "2":
        rows = [t for t in doc.get("tasks") or [] if isinstance(t, dict)]
    else:
        rows = [p for p in (doc.get("phases") or {}).values() if isinstance(p, dict)]
    pairs = [(row.get("reference_data"), row.get("input_data")) for row in rows]
    return {ref: inp for ref, inp in pairs if isinstance(ref, str) and isinstance(inp, str)}


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


def _reference_items(folder: Path, public: Optional[Path], dataset: str, where: str) -> List[dict]:
    """The reference items of ``dataset`` (which hold no texts) with the texts of the ``public``
    input items of the same ids, so that a public file holding them under new ids is found by its
    texts; the items as they are without them."""
    items = read_items(folder / f"{dataset}.jsonl", f"{where}/{dataset}.jsonl", texts=False)
    path = public / f"{dataset}.jsonl" if public is not None else None
    if path is None or not path.is_file():
        return items
    try:
        texts = {it["id"]: it["texts"] for it in read_items(path, str(path), texts=False)}
    except (KitError, UnicodeDecodeError, KeyError):
        return items
    return [dict(item, texts=texts[item["id"]]) if item["id"] in texts else item for item in items]


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
