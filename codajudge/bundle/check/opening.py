"""Opening a bundle: a folder as it is, a zip extracted to a temporary folder (nothing outside it).
Reading its competition.yaml as Codabench does (a safe load), refusing duplicated keys it would hide.

A bundle comes from anybody: its YAML is composed into nodes first and only built when its aliases
expand to a bounded value (``config_yaml.bounded_document``), so an alias bomb is a finding, not a hang.
"""

from __future__ import annotations

import zipfile
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from collections.abc import Iterator

from ..config_yaml import bundle_yaml
from .findings import Findings, scratch_folder


def _unsafe(name: str) -> bool:
    path = PurePosixPath(name)
    return path.is_absolute() or ".." in path.parts or "\\" in name


@contextmanager
def opened_bundle(path: Path, findings: Findings) -> Iterator[Path | None]:
    """The bundle's root folder, or None (with the reason in ``findings``)."""
    if path.is_dir():
        yield _root(path.resolve(), str(path), findings)
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
    with scratch_folder("codajudge-check-") as tmp:
        with archive:
            extracted = _extract(archive, path.name, tmp, findings)
        yield _root(tmp, path.name, findings) if extracted else None


def _root(folder: Path, name: str, findings: Findings) -> Path | None:
    """``folder`` when it holds competition.yaml at its root, else None (with the reason in
    ``findings``)."""
    if (folder / "competition.yaml").is_file():
        return folder
    nested = sorted(p.relative_to(folder).as_posix() for p in folder.glob("*/competition.yaml"))
    findings.add(
        name,
        "no competition.yaml at the bundle's root",
        expected="competition.yaml",
        found=repr(nested[0]) if nested else "none",
        hint="the bundle's files at the root of its folder or zip, not in a folder of their own",
    )
    return None


#: A bundle zip's bounds, far above any built bundle's (under 1,000 members and 100 MiB): members,
#: and bytes once extracted (zipfile writes at most each member's declared size).
MAX_BUNDLE_MEMBERS = 20_000
MAX_BUNDLE_BYTES = 4 * 1024**3


def _extract(archive: zipfile.ZipFile, name: str, tmp: Path, findings: Findings) -> bool:
    """Extract a bundle zip into ``tmp``: True, or False (with the reason in ``findings``) when a
    member would land outside ``tmp``, the zip is beyond its bounds or a member cannot be read."""
    infos = archive.infolist()
    unsafe = [info.filename for info in infos if _unsafe(info.filename)]
    for member in unsafe:
        findings.add(name, "zip member escapes the bundle", found=repr(member))
    size = sum(info.file_size for info in infos)
    if len(infos) > MAX_BUNDLE_MEMBERS or size > MAX_BUNDLE_BYTES:
        findings.add(
            name,
            "zip too large for a bundle",
            expected=f"at most {MAX_BUNDLE_MEMBERS} members and {MAX_BUNDLE_BYTES} bytes extracted",
            found=f"{len(infos)} members declaring {size} bytes",
        )
    elif not unsafe:
        try:
            archive.extractall(tmp)
            return True
        except (zipfile.BadZipFile, OSError, EOFError) as e:
            findings.add(name, "a zip member cannot be read", found=str(e)[:120])
    return False


#: Where a CodaLab v1.5 starting kit keeps the phases its run_local.py scores (Codabench's form,
#: ``legacy.build``): a competition.yaml of version 2 there would be taken for the competition's.
KIT_PHASES_FILE = "run_local.yaml"


def load_competition_yaml(
    root: Path, findings: Findings, name: str = "competition.yaml"
) -> dict | None:
    """``root``'s competition.yaml (or the file ``name``: ``KIT_PHASES_FILE``), a mapping."""
    data = (root / name).read_bytes()
    read = findings.unless_refused(bundle_yaml, data, name, found_chars=200)
    if read is None:
        return None
    doc, duplicates = read
    for key, line in duplicates:
        findings.add(f"{name}, line {line}", f"key {key!r} given twice; only the last value counts")
    if not isinstance(doc, dict):
        findings.add(name, "the top level must be a mapping", found=type(doc).__name__)
        return None
    return doc
