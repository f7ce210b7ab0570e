"""Opening submission archives defensively and finding each track's file.

A zip is extracted only after every entry is checked: no absolute paths or ``..``, no links, no
encrypted entries, no path given twice, names that are valid UTF-8, a bounded number of entries and
a bounded uncompressed size (zip bombs: per entry, in total, and by compression ratio, per entry and
over all entries, so that a bomb split into many small entries is caught too). When scoring, only
the tracks' files are extracted. Nested archives are skipped with a warning. Nothing is ever
written outside the target folder, and a corrupt entry is reported as the submission's problem.
"""

from __future__ import annotations

import fnmatch
import os
import re
import shutil
import stat
import zipfile
import zlib
from collections import defaultdict
from pathlib import Path, PurePosixPath
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

from ..errors import SubmissionError
from ..tracks import Track
from .textfile import MAX_FILE_BYTES, safe_display, shorten

MAX_ENTRIES = 1000
MAX_UNCOMPRESSED_BYTES = 1024 ** 3
MAX_ENTRY_BYTES = MAX_FILE_BYTES  # a larger prediction file would be refused anyway
MAX_RATIO = 200  # compressed -> uncompressed expansion beyond this on a large entry is a bomb
RATIO_CHECK_BYTES = 10 * 1024 ** 2
IGNORED_NAMES = {"metadata", "ingestion_status.json", "thumbs.db", "desktop.ini"}
ARCHIVE_SUFFIXES = (".zip", ".tar", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".rar")

#: What reading a damaged or unusual zip can raise (CRC errors, truncation, unknown compression,
#: encryption, names the file system refuses).
_READ_ERRORS = (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError, OSError, ValueError)


def is_ignored(relative: PurePosixPath) -> bool:
    """macOS resource forks, dotfiles and the platform's own files are not part of a submission."""
    parts = relative.parts
    return (any(p == "__MACOSX" or p.startswith(".") for p in parts)
            or (len(parts) == 1 and parts[0].lower() in IGNORED_NAMES))


def _entry(name: str) -> str:
    """An entry name fit for a message: unprintable characters escaped, long names cut."""
    return repr(shorten(safe_display(name), 80))


def _open_zip(archive: Path, display: str) -> zipfile.ZipFile:
    """The open archive; anything that is not a readable zip is the submission's problem."""
    try:
        return zipfile.ZipFile(archive)
    except UnicodeDecodeError:
        raise SubmissionError.single(display, "an entry name is not valid UTF-8", expected="UTF-8 file names",
                                     found="a name marked UTF-8 with invalid bytes",
                                     hint="rename the files with ASCII characters")
    except _READ_ERRORS as e:
        raise SubmissionError.single(display, "not a valid zip archive", found=str(e)[:200] or e.__class__.__name__,
                                     hint="create it with 'zip -r submission.zip FILES'")


def _entry_path(info: zipfile.ZipInfo, display: str) -> PurePosixPath:
    """The entry's relative path, after refusing names that are not UTF-8, escape or are links."""
    name = info.filename
    if info.flag_bits & 0x800 == 0:
        try:
            name = name.encode("cp437").decode("utf-8")
        except UnicodeError:
            raise SubmissionError.single(display, "an entry name is not valid UTF-8", found=_entry(name),
                                         hint="rename the file with ASCII characters")
    relative = PurePosixPath(name.replace("\\", "/"))
    for refused, problem, hint in (
            (relative.is_absolute() or ".." in relative.parts or name[1:2] == ":", "entry path escapes the archive",
             "archive entries must be relative paths without '..'"),
            (stat.S_ISLNK(info.external_attr >> 16), "archive contains a symbolic link",
             "put the file itself in the archive"),
            (info.flag_bits & 0x1, "archive entry is encrypted", "create the archive without a password")):
        if refused:
            raise SubmissionError.single(display, problem, found=_entry(name), hint=hint)
    return relative


def _check_size(info: zipfile.ZipInfo, total: int, compressed: int, display: str) -> None:
    """Refuse an entry by its declared sizes (bytes) before anything is extracted; ``total`` and
    ``compressed`` add up the entries so far (a bomb split into many small entries)."""
    name = _entry(info.filename)
    if info.file_size > MAX_ENTRY_BYTES:
        raise SubmissionError.single(display, "archive entry is too large", expected=f"at most {MAX_ENTRY_BYTES} bytes",
                                     found=f"{info.file_size} bytes declared by {name}")
    too_much = total > MAX_UNCOMPRESSED_BYTES
    if too_much or _bomb_like(info.file_size, info.compress_size) or _bomb_like(total, compressed):
        raise SubmissionError.single(display, "archive expands too much (a zip bomb?)",
                                     expected=f"at most {MAX_UNCOMPRESSED_BYTES} bytes uncompressed in all, and "
                                              f"at most {MAX_RATIO}:1 compression on an entry, or on all entries "
                                              f"together, over {RATIO_CHECK_BYTES} bytes",
                                     found=f"{total} bytes from {compressed} compressed in all, {info.file_size} "
                                           f"bytes from {info.compress_size} compressed in {name}")


def _bomb_like(size: int, compressed: int) -> bool:
    return size > RATIO_CHECK_BYTES and size > MAX_RATIO * max(compressed, 1)


def _plan(infos: List[zipfile.ZipInfo], display: str, tracks: Optional[Sequence[Track]] = None
          ) -> Tuple[List[Tuple[zipfile.ZipInfo, PurePosixPath]], List[str]]:
    """The entries to extract, after every check; raises before anything is written.

    With ``tracks``, only entries named after a track are extracted (the others get the note that
    an unused file gets), and a track given by two entries is refused here, before any byte is
    written: what is written is then bounded by the tracks' files, whatever else the zip holds."""
    if len(infos) > MAX_ENTRIES:
        raise SubmissionError.single(display, "archive has too many entries",
                                     expected=f"at most {MAX_ENTRIES}", found=str(len(infos)))
    warnings: List[str] = []
    plan, files = [], {}  # files: relative path -> entry name, of every file that is neither skipped nor nested
    by_track: Dict[str, List[PurePosixPath]] = defaultdict(list)
    total = compressed = nested = 0
    for info in infos:
        relative = _entry_path(info, display)
        if not relative.parts:  # checked first: ZipInfo.is_dir() fails on an empty name
            warnings.append(f"archive entry {_entry(info.filename)} has no file name and was ignored")
        elif info.is_dir() or is_ignored(relative):
            continue
        elif relative.suffix.lower() in ARCHIVE_SUFFIXES:
            warnings.append(f"nested archive {_entry(info.filename)} ignored: put the prediction files "
                            "in the zip itself")
            nested += 1
        elif relative in files:
            raise SubmissionError.single(display, "archive holds the same path twice", found=_entry(info.filename),
                                         hint="keep one copy of each file")
        else:
            files[relative] = info.filename
            total, compressed = total + info.file_size, compressed + info.compress_size
            _check_size(info, total, compressed, display)
            if tracks is None or _claim(by_track, relative, tracks):
                refuse_doubles(by_track)
                plan.append((info, relative))
            else:
                warnings.append(unused_file_note(safe_display(str(relative))))
    if not plan and (warnings or tracks is not None):
        _refuse_no_plan(display, tracks, warnings, nested or not files, list(files.values()))
    return plan, warnings


def _refuse_no_plan(display: str, tracks: Optional[Sequence[Track]], warnings: List[str], nothing_usable: bool,
                    names: List[str]) -> None:
    """Refuse an archive with nothing to extract: naming what was skipped when nothing was usable
    (only nested archives, or no file), else the files that match no track."""
    if warnings and (nothing_usable or tracks is None):
        raise SubmissionError.single(display, "archive holds no prediction file", found="; ".join(warnings),
                                     hint="zip the prediction files themselves")
    expected = "; ".join(f"{t.id}: {t.file_names[0]}" for t in tracks)
    raise SubmissionError.single(display, "no prediction file for any track was found",
                                 expected=f"files named {expected}",
                                 found=", ".join(_entry(name) for name in names[:10]) or "no files",
                                 hint="name each file after its track (see the starting kit)")


def safe_extract(archive: Path, target: Path, display: str = None, tracks: Optional[Sequence[Track]] = None
                 ) -> List[str]:
    """Extract a zip into ``target``; returns warnings about entries skipped. Refuses dangerous zips.

    ``tracks``: extract only the files of these tracks (a result submission being scored)."""
    display = safe_display(display or Path(archive).name)
    with _open_zip(archive, display) as zf:
        plan, warnings = _plan(zf.infolist(), display, tracks)
        target = Path(target).resolve()
        for info, relative in plan:
            destination = target.joinpath(*relative.parts).resolve()
            if target not in destination.parents:
                raise SubmissionError.single(display, "entry path escapes the archive", found=_entry(info.filename))
            try:  # zipfile yields at most the declared size (checked above), then checks the CRC
                destination.parent.mkdir(parents=True, exist_ok=True)
                with zf.open(info) as source, open(destination, "wb") as sink:
                    shutil.copyfileobj(source, sink, 1 << 20)
            except _READ_ERRORS as e:
                detail = e.strerror if isinstance(e, OSError) and e.strerror else str(e)  # no temp paths
                raise SubmissionError.single(display, "archive entry cannot be extracted", found=_entry(info.filename),
                                             hint=f"the archive is damaged or unusual ({e.__class__.__name__}: "
                                                  f"{detail[:120]}); create it again with 'zip -r'")
    return warnings


def _walk(folder: Path) -> Iterator[Tuple[PurePosixPath, Path]]:
    """Every non-directory entry of a folder (links and special files included), relative, skipping
    ignored ones; links to folders are not followed."""
    for root, dirs, files in os.walk(folder):
        dirs.sort()  # links to folders are listed here, never followed (os.walk's default)
        for name in sorted(files):
            full = Path(root) / name
            relative = PurePosixPath(full.relative_to(folder).as_posix())
            if not is_ignored(relative):
                yield relative, full


def _is_regular(full: Path) -> bool:
    """A real file: not a link (even to a file), not a FIFO, device or socket (never opened)."""
    return not full.is_symlink() and full.is_file()


def submission_files(folder: Path) -> List[PurePosixPath]:
    """Every regular file of a submission folder, relative, skipping ignored entries and links."""
    return [relative for relative, full in _walk(Path(folder)) if _is_regular(full)]


def _claim(by_track: Dict[str, List[PurePosixPath]], relative: PurePosixPath, tracks: Sequence[Track]) -> bool:
    """Add the file to each track whose file-name patterns (any case) match its name; False if none does."""
    owners = [t.id for t in tracks if any(fnmatch.fnmatchcase(relative.name.lower(), pattern.lower())
                                          for pattern in t.file_names)]
    for owner in owners:
        by_track[owner].append(relative)
    return bool(owners)


def _loose(name: str) -> str:
    """A file name without extension, lower case, with '-', '.' and spaces as '_'."""
    stem = name.rsplit(".", 1)[0] if "." in name else name
    return re.sub(r"[-.\s]+", "_", stem.lower())


def _meant_for(name: str, tracks: Sequence[Track]) -> str:
    """"track 'en_en': name it en_en.tsv" for a file no track claims but one probably was meant to
    (``en-en.tsv``: the same name loosely), else ''."""
    loose = _loose(PurePosixPath(name).name)
    found = [t for t in tracks if any(fnmatch.fnmatchcase(loose, _loose(pattern)) for pattern in t.file_names)]
    return f"track '{found[0].id}': name it {found[0].file_names[0]}" if len(found) == 1 else ""


def ignored_file_note(name: str, tracks: Sequence[Track]) -> str:
    """What a participant reads about a file no track claims."""
    meant = _meant_for(name, tracks)
    return unused_file_note(name) + (f"; it was probably meant for {meant}" if meant else "")


def ignored_file_notes(unclaimed: Sequence[str], tracks: Sequence[Track], shown: int = 5) -> List[str]:
    """The notes about files no track claims: one per near miss (at most ``shown``), one for the rest."""
    meant = {name: _meant_for(name, tracks) for name in unclaimed}
    near, other = [name for name in unclaimed if meant[name]], [name for name in unclaimed if not meant[name]]
    notes = [ignored_file_note(name, tracks) for name in near[:shown]]
    if len(near) > shown:
        notes.append(f"{len(near) - shown} more files named like a track's file were ignored")
    if len(other) == 1:
        notes.append(unused_file_note(other[0]))
    elif other:
        listed = ", ".join(repr(name) for name in other[:shown]) + (", ..." if len(other) > shown else "")
        notes.append(f"{len(other)} files match no track and were ignored: {listed}")
    return notes


def naming_hint(unclaimed: Sequence[str], tracks: Sequence[Track]) -> str:
    """How to name the files of a submission in which no file matched a track."""
    for name in unclaimed:
        meant = _meant_for(name, tracks)
        if meant:
            return f"file {name!r} was probably meant for {meant}"
    return "name each file after its track (see the starting kit)"


def locate_track_files(folder: Path, tracks: Sequence[Track]) -> Tuple[Dict[str, PurePosixPath], List[str]]:
    """Map track id -> the one file for it; returns it and the names of files no track claims.

    A file may sit at the root or inside folders; a track with two candidate files is refused, and
    so is a track file that is a symbolic link or not a regular file (it is never opened).
    """
    by_track: Dict[str, List[PurePosixPath]] = defaultdict(list)
    unclaimed: List[str] = []
    for relative, full in _walk(Path(folder)):
        if not _claim(by_track, relative, tracks):
            unclaimed.append(safe_display(str(relative)))
        elif not _is_regular(full):
            what = "a symbolic link" if full.is_symlink() else "not a regular file"
            raise SubmissionError.single(safe_display(str(relative)), f"the prediction file is {what}",
                                         expected="a regular file", hint="write the predictions into the file itself")
    refuse_doubles(by_track)
    return {tid: paths[0] for tid, paths in by_track.items()}, unclaimed


def refuse_doubles(by_track: Dict[str, List[PurePosixPath]]) -> None:
    """Refuse a track given by more than one file."""
    doubles = {tid: paths for tid, paths in by_track.items() if len(paths) > 1}
    if doubles:
        tid, paths = sorted(doubles.items())[0]
        raise SubmissionError.single(", ".join(safe_display(str(p)) for p in paths),
                                     f"track '{tid}' is given by more than one file",
                                     expected="exactly one file per track",
                                     found=f"{len(paths)} files", hint="remove all but one of them")


def unused_file_note(name: str) -> str:
    """The note on a submitted file that no track claims (it is neither read nor extracted)."""
    return f"file {name!r} matches no track and was ignored"
