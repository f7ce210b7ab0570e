"""Byte-for-byte reproducible zips: sorted entries, fixed timestamps and permissions."""

from __future__ import annotations

import hashlib
import os
import zipfile
import zlib
from pathlib import Path
from typing import Dict, Iterable, Tuple

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


class _Deflated:
    """Stands in for zipfile's compressor of the entry being written: the bytes ``write_zip`` made
    of the same content once (zipfile still writes the entry's header, sizes and CRC)."""

    def __init__(self, deflated: bytes):
        self.deflated = deflated

    def compress(self, data: bytes) -> bytes:
        return b""

    def flush(self) -> bytes:
        return self.deflated


def write_zip(root: Path, zip_path: Path) -> None:
    """Zip the contents of ``root`` (files at the zip root) deterministically. A content found
    again (a training split is in every phase and in the starting kit) is compressed once."""
    deflated: Dict[bytes, bytes] = {}
    with zipfile.ZipFile(zip_path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for full, arcname in tree_files(root):
            info = zipfile.ZipInfo(arcname, date_time=FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3
            executable = os.access(full, os.X_OK) and arcname.endswith((".py", ".sh"))
            info.external_attr = (0o100755 if executable else 0o100644) << 16
            data = full.read_bytes()
            info.file_size = len(data)  # as writestr sets it: the header's zip64 choice reads it
            digest = hashlib.sha256(data).digest()
            if digest not in deflated:  # raw deflate at level 9, as zipfile's compressor
                compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
                deflated[digest] = compressor.compress(data) + compressor.flush()
            with zf.open(info, "w") as entry:
                entry._compressor = _Deflated(deflated[digest])
                entry.write(data)
