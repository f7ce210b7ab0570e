"""Byte-for-byte reproducible zips: sorted entries, fixed timestamps and permissions."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path
from typing import Iterable, Tuple

FIXED_TIME = (1980, 1, 1, 0, 0, 0)


def tree_files(root: Path) -> Iterable[Tuple[Path, str]]:
    """Every file below ``root`` with its POSIX path relative to it, sorted; caches skipped."""
    root = Path(root)
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in files:
            if name.endswith(".pyc"):
                continue
            full = Path(folder) / name
            found.append((full, full.relative_to(root).as_posix()))
    return sorted(found, key=lambda pair: pair[1])


def write_zip(root: Path, zip_path: Path) -> None:
    """Zip the contents of ``root`` (files at the zip root) deterministically."""
    with zipfile.ZipFile(zip_path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for full, arcname in tree_files(root):
            info = zipfile.ZipInfo(arcname, date_time=FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3
            executable = os.access(full, os.X_OK) and arcname.endswith((".py", ".sh"))
            info.external_attr = (0o100755 if executable else 0o100644) << 16
            zf.writestr(info, full.read_bytes(), compresslevel=9)
