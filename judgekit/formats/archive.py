"""Opening submission archives defensively and finding each track's file.

A zip is extracted only after every entry is checked: no absolute paths or ``..``, no links, no
nested archives, a bounded number of entries and a bounded uncompressed size (zip bombs), names
that are valid UTF-8. Nothing is ever written outside the target folder.
"""

from __future__ import annotations

import fnmatch
import os
import stat
import zipfile
from pathlib import Path, PurePosixPath
from typing import Dict, List, Sequence, Tuple

from ..errors import SubmissionError
from ..tracks import Track

MAX_ENTRIES = 1000
MAX_UNCOMPRESSED_BYTES = 2 * 1024 ** 3
MAX_RATIO = 200  # compressed -> uncompressed expansion beyond this on a large entry is a bomb
IGNORED_NAMES = {"metadata", "ingestion_status.json", "thumbs.db", "desktop.ini"}
ARCHIVE_SUFFIXES = (".zip", ".tar", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".rar")


def is_ignored(relative: PurePosixPath) -> bool:
    """macOS resource forks, dotfiles and the platform's own files are not part of a submission."""
    parts = relative.parts
    return (any(p == "__MACOSX" or p.startswith(".") for p in parts)
            or (len(parts) == 1 and parts[0].lower() in IGNORED_NAMES))


def safe_extract(archive: Path, target: Path, display: str = None) -> List[str]:
    """Extract a zip into ``target``; returns warnings about entries skipped. Refuses dangerous zips."""
    display = display or Path(archive).name
    try:
        zf = zipfile.ZipFile(archive)
    except (zipfile.BadZipFile, OSError) as e:
        raise SubmissionError.single(display, "not a valid zip archive", found=str(e),
                                     hint="create it with 'zip -r submission.zip FILES'")
    warnings: List[str] = []
    with zf:
        infos = zf.infolist()
        if len(infos) > MAX_ENTRIES:
            raise SubmissionError.single(display, "archive has too many entries",
                                         expected=f"at most {MAX_ENTRIES}", found=str(len(infos)))
        total = 0
        plan: List[Tuple[zipfile.ZipInfo, PurePosixPath]] = []
        for info in infos:
            name = info.filename
            if info.flag_bits & 0x800 == 0:
                try:
                    name.encode("cp437").decode("utf-8")
                except UnicodeError:
                    raise SubmissionError.single(display, "an entry name is not valid UTF-8",
                                                 found=repr(name), hint="rename the file with ASCII characters")
            relative = PurePosixPath(name.replace("\\", "/"))
            if relative.is_absolute() or ".." in relative.parts or (name[1:2] == ":"):
                raise SubmissionError.single(display, "entry path escapes the archive", found=repr(name),
                                             hint="archive entries must be relative paths without '..'")
            mode = info.external_attr >> 16
            if stat.S_ISLNK(mode):
                raise SubmissionError.single(display, "archive contains a symbolic link", found=repr(name),
                                             hint="put the file itself in the archive")
            if info.is_dir() or is_ignored(relative):
                continue
            if relative.suffix.lower() in ARCHIVE_SUFFIXES:
                warnings.append(f"nested archive {name!r} ignored: put the prediction files in the zip itself")
                continue
            total += info.file_size
            if total > MAX_UNCOMPRESSED_BYTES or (
                    info.file_size > 10 * 1024 ** 2 and info.file_size > MAX_RATIO * max(info.compress_size, 1)):
                raise SubmissionError.single(display, "archive expands too much (a zip bomb?)",
                                             expected=f"at most {MAX_UNCOMPRESSED_BYTES} bytes uncompressed",
                                             found=f"{total} bytes declared by {name!r}")
            plan.append((info, relative))
        target = Path(target).resolve()
        for info, relative in plan:
            destination = target.joinpath(*relative.parts).resolve()
            if target not in destination.parents:
                raise SubmissionError.single(display, "entry path escapes the archive", found=repr(info.filename))
            destination.parent.mkdir(parents=True, exist_ok=True)
            written = 0
            with zf.open(info) as source, open(destination, "wb") as sink:
                while True:
                    chunk = source.read(1 << 20)
                    if not chunk:
                        break
                    written += len(chunk)
                    if written > info.file_size or written > MAX_UNCOMPRESSED_BYTES:
                        raise SubmissionError.single(display, "archive entry is larger than it declares",
                                                     found=repr(info.filename))
                    sink.write(chunk)
    return warnings


def submission_files(folder: Path) -> List[PurePosixPath]:
    """Every regular file of a submission folder, relative, skipping ignored entries and links."""
    folder = Path(folder)
    found: List[PurePosixPath] = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not os.path.islink(os.path.join(root, d)))
        for name in sorted(files):
            full = Path(root) / name
            relative = PurePosixPath(full.relative_to(folder).as_posix())
            if is_ignored(relative) or full.is_symlink() or not full.is_file():
                continue
            found.append(relative)
    return found


def _matches(track: Track, name: str) -> bool:
    lowered = name.lower()
    return any(fnmatch.fnmatchcase(lowered, pattern.lower()) for pattern in track.file_names)


def locate_track_files(folder: Path, tracks: Sequence[Track]) -> Tuple[Dict[str, PurePosixPath], List[str]]:
    """Map track id -> the one file for it; returns it and the names of files no track claims.

    A file may sit at the root or inside folders; a track with two candidate files is refused.
    """
    by_track: Dict[str, List[PurePosixPath]] = {}
    unclaimed: List[str] = []
    for relative in submission_files(folder):
        owners = [t for t in tracks if _matches(t, relative.name)]
        if not owners:
            unclaimed.append(str(relative))
            continue
        for t in owners:
            by_track.setdefault(t.id, []).append(relative)
    doubles = {tid: paths for tid, paths in by_track.items() if len(paths) > 1}
    if doubles:
        tid, paths = sorted(doubles.items())[0]
        raise SubmissionError.single(", ".join(map(str, paths)), f"track '{tid}' is given by more than one file",
                                     expected="exactly one file per track",
                                     found=f"{len(paths)} files", hint="remove all but one of them")
    return {tid: paths[0] for tid, paths in by_track.items()}, unclaimed
