"""Outcomes of the archive and folder readers (``formats/archive.py``) over the hostile corpus.

For every corpus case with a zip or a folder layout: each zip extracted with and without the
tracks (warnings and the extracted files, or the full message), and the laid-out folder read as
the scoring program reads it (``locate_track_files`` with the notes and hint about unclaimed files,
and ``submission_files``). ``tests/test_archive.py`` compares them with ``recorded/archive.json``,
which ``python3 tests/hostile/recordings.py`` rewrites.
"""

from __future__ import annotations

import hashlib
import sys
import tempfile
from pathlib import Path
from typing import Callable, Dict

ROOT = Path(__file__).resolve().parents[2]
if __package__ in (None, ""):  # run as a script: make the repository and tests/ importable
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "tests"))

from hostile import corpus, edition  # noqa: E402
from hostile.recording import recorded_outcome  # noqa: E402
from codajudge.formats import archive  # noqa: E402
from codajudge.spec import spec_from_dict  # noqa: E402

TRACKS = spec_from_dict(edition.spec(), "task.json").tracks


def _outcome(action: Callable[[], object]) -> list:
    return recorded_outcome(action, lambda result: [result])


def _files(folder: Path) -> list:
    return sorted(
        [p.relative_to(folder).as_posix(), hashlib.sha256(p.read_bytes()).hexdigest()[:12]]
        for p in folder.rglob("*")
        if p.is_file() and not p.is_symlink()
    )


def _extracted(zip_path: Path, target: Path, tracks) -> list:
    target.mkdir()
    warnings = archive.safe_extract(zip_path, target, zip_path.name, tracks)
    return [warnings, _files(target)]


def _folder(res: Path) -> list:
    files, unclaimed = archive.locate_track_files(res, TRACKS)
    notes = archive.ignored_file_notes(unclaimed, TRACKS)
    hint = archive.naming_hint(unclaimed, TRACKS)
    return [
        {k: str(v) for k, v in sorted(files.items())},
        unclaimed,
        notes,
        hint,
        [str(p) for p in archive.submission_files(res)],
    ]


def record() -> Dict[str, list]:
    out: Dict[str, list] = {}
    for case in corpus.cases():
        zips = [name for name in case.files if name.endswith(".zip")]
        if not (zips or case.group == "folder") or case.without_res:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            input_dir, _ = corpus.materialise(case, Path(tmp))
            res = input_dir / "res"
            for name in zips:
                for label, tracks in (("all", None), ("tracks", TRACKS)):
                    target = Path(tmp) / f"x-{label}"
                    out[f"{case.name}/{name}/{label}"] = _outcome(
                        lambda: _extracted(res / name, target, tracks)
                    )
            out[f"{case.name}/folder"] = _outcome(lambda: _folder(res))
    return out
