"""Byte-for-byte reproducible zips: sorted entries, fixed timestamps and permissions."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

from ..assets import is_cache

FIXED_TIME = (1980, 1, 1, 0, 0, 0)


def tree_files(root: Path) -> dict[str, Path]:
    """Every file below ``root`` by its POSIX path relative to it, sorted; caches skipped."""
    found = {path.relative_to(root).as_posix(): path for path in root.rglob("*") if path.is_file()}
    return {name: found[name] for name in sorted(found) if not any(map(is_cache, name.split("/")))}


def write_zip(files: dict[str, Path | bytes], zip_path: Path) -> None:
    """Zip ``files`` (name in the zip -> a file, or its bytes: ``tree_files`` of a folder zips its
    contents at the zip root) deterministically, in name order; a .py or .sh file keeps its
    executable bit."""
    with zipfile.ZipFile(zip_path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for arcname, source in sorted(files.items()):
            info = zipfile.ZipInfo(arcname, date_time=FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3
            is_file = isinstance(source, Path)
            executable = is_file and os.access(source, os.X_OK) and arcname.endswith((".py", ".sh"))
            info.external_attr = (0o100755 if executable else 0o100644) << 16
            zf.writestr(info, source.read_bytes() if is_file else source, compresslevel=9)
