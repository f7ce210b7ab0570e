"""Opening a bundle: a folder as it is, a zip extracted to a temporary folder (nothing outside it)."""

from __future__ import annotations

import os
import shutil
import tempfile
import zipfile
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from typing import Iterator, Optional

from .findings import Findings


def _unsafe(name: str) -> bool:
    path = PurePosixPath(name)
    return path.is_absolute() or ".." in path.parts or "\\" in name


@contextmanager
def opened_bundle(path: Path, findings: Findings) -> Iterator[Optional[Path]]:
    """The bundle's root folder, or None (with the reason in ``findings``)."""
    if path.is_dir():
        if not (path / "competition.yaml").is_file():
            findings.add(
                str(path),
                "no competition.yaml at the bundle's root",
                expected="BUNDLE/competition.yaml",
            )
            yield None
        else:
            yield path.resolve()
        return
    if not path.is_file():
        findings.add(str(path), "no such file or folder", expected="a bundle folder or zip")
        yield None
        return
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as e:
        findings.add(path.name, "not a readable zip", found=str(e)[:120])
        yield None
        return
    tmp = Path(tempfile.mkdtemp(prefix="codajudge-check-"))
    try:
        with archive:
            extracted = _extract(archive, path.name, tmp, findings)
        yield tmp if extracted else None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _extract(archive: zipfile.ZipFile, name: str, tmp: Path, findings: Findings) -> bool:
    """Extract a bundle zip into ``tmp``: True, or False (with the reason in ``findings``) when it has no
    competition.yaml at its root, a member would land outside ``tmp`` or a member cannot be read."""
    names = archive.namelist()
    if "competition.yaml" not in names:
        nested = sorted(n for n in names if n.endswith("/competition.yaml"))
        findings.add(
            name,
            "no competition.yaml at the zip's root",
            expected="competition.yaml",
            found=repr(nested[0]) if nested else "none",
            hint="zip the bundle folder's contents, not the folder",
        )
        return False
    unsafe = [n for n in names if _unsafe(n)]
    for member in unsafe:
        findings.add(name, "zip member escapes the bundle", found=repr(member))
    if unsafe:
        return False
    try:
        archive.extractall(tmp)
    except (zipfile.BadZipFile, OSError, EOFError) as e:
        findings.add(name, "a zip member cannot be read", found=str(e)[:120])
        return False
    return True


def relative_path(root: Path, value) -> Optional[Path]:
    """A path inside the bundle, or None when it is absolute or leaves the bundle."""
    if not isinstance(value, str) or not value.strip() or os.path.isabs(value):
        return None
    full = (root / value).resolve()
    base = root.resolve()
    return full if full == base or base in full.parents else None
