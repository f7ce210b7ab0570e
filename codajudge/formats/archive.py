"""Opening submission archives defensively and finding each track's file.

Every entry of a zip is checked (``_plan``: paths, links, encryption, names, count, sizes and zip
bombs) before anything is written, and a corrupt entry is the submission's problem.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import stat
import zipfile
import zlib
from collections import Counter
from difflib import SequenceMatcher
from fnmatch import fnmatchcase
from pathlib import Path, PurePosixPath
from typing import Callable, NamedTuple
from collections.abc import Iterator, Mapping, Sequence

from ..errors import FileRefusals, Problem, SubmissionError, counted, first_few, plural
from ..spec import MODEL_FILE
from ..tracks import Track
from ..untrusted import kind_of, read_head
from .chaosnli import document_uids
from .coverage import part_items, test_set_words
from .notes import words
from .submission import tracks_reading
from .textfile import MAX_FILE_BYTES, Rule, max_file_bytes, name_as_read, safe_display, shorten

MAX_ENTRIES = 1000
MAX_UNCOMPRESSED_BYTES = 1024**3
MAX_RATIO = 200  # compressed -> uncompressed expansion beyond this on a large entry is a bomb
RATIO_CHECK_BYTES = 10 * 1024**2
#: The status file the ingestion program writes beside its predictions and the scoring program reads.
INGESTION_STATUS = "ingestion_status.json"
#: What a code submission printed, saved by the ingestion program beside its predictions.
PARTICIPANT_OUTPUT = "participant_output.txt"
IGNORED_NAMES = {"metadata", INGESTION_STATUS, PARTICIPANT_OUTPUT, "thumbs.db", "desktop.ini"}
ARCHIVE_SUFFIXES = (".zip", ".tar", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".rar")
#: The note of a file no track claims, its name as shown (``safe_display``, escaped once).
UNUSED_FILE = "file '{}' matches no track and was ignored"
#: A file named as the file of tracks given none but for its suffix (``_shared_name``): plainly
#: meant for them, so refused rather than ignored, which would score the submission without it.
MEANT_FILE = (
    "the file matches no track only by {}: {} {} no file, and this one would be ignored: the "
    "submission would be scored without {}"
)
#: The note on a file read for a track by its number whose language part is another track's.
OTHER_LANGUAGE = (
    "file {!r} was read for track '{}', as its number says ({}), but its language part {!r} is "
    "that of track '{}' ({}): if two files' names are swapped, each is scored against the other "
    "track's gold; check that it holds the predictions of track '{}'"
)
#: The note of the track files read from folders below a folder holding other track files ({0}:
#: how many tracks, {1}: how many the files of the folders above give, {2}: each file and its
#: tracks).
OTHER_FOLDERS = (
    "the files of {0} were read from folders below one holding other track files (which give "
    "{1}): {2}; if they are older files, remove them to leave those tracks out"
)
#: The note of a file named as the task's input, not as predictions: ``input`` in its name where
#: the names of the tracks it is like say ``output`` (STS 2017's ``STS.input.track5.en-en.txt``).
INPUT_NAMED = (
    "{0}: it is named as the task's input ('input' where the names of {1} say 'output'), not "
    "as predictions; leave it out of the submission"
)
IGNORED_WHY = "ignored: the platform's own files, dotfiles and __MACOSX are never read"
#: LeWiDi 2023's file name, one file per dataset (``results_tsv``).
RESULTS_NAME = re.compile(r".+_results\.tsv", re.IGNORECASE)
NAMELESS_ENTRY = "archive entry {} has no file name and was ignored"
NESTED_ARCHIVE = "nested archive {} ignored: put the prediction files in the zip itself"
#: A nested zip that CodaLab v1.5's worker extracted into a folder beside it (worker.py
#: ``get_bundle``: every top-level ``*.zip`` into a folder named as the zip without ``.zip``).
EXTRACTED_ARCHIVE = (
    "nested archive {!r} was not opened: the platform extracted it into the folder {!r}, whose "
    "files were read"
)
UNREAD_DOCUMENT = (
    "file {!r} was not read to look for a ChaosNLI document: it holds {:,} bytes, more than a "
    "document of this edition's tracks may ({:,})"
)

NOTHING_AT_PATH = Rule("nothing is at this path", hint="check the path")
#: The rules a zip or one of its entries may break, each stated once.
NOT_A_ZIP = Rule("not a valid zip archive", hint="create it with 'zip -r submission.zip FILES'")
#: The archives sent named .zip, each by its first bytes (its name, offset and magic bytes).
OTHER_ARCHIVES = (
    ("gzip", 0, b"\x1f\x8b"),
    ("7z", 0, b"7z\xbc\xaf\x27\x1c"),
    ("RAR", 0, b"Rar!"),
    ("tar", 257, b"ustar"),
)
OTHER_ARCHIVE = NOT_A_ZIP._replace(
    hint="only zip is read: unpack it, then zip the files with 'zip -r submission.zip FILES'"
)
#: A zip's first bytes (its first entry's header): a file that has them but does not open is a
#: zip cut short (an upload, download or copy that stopped early) or damaged.
ZIP_MAGIC = b"PK\x03\x04"
CUT_SHORT_ZIP = NOT_A_ZIP._replace(
    hint="it was probably cut short by an upload, download or copy that stopped early, and cannot "
    "be repaired: create the zip again with 'zip -r submission.zip FILES' and submit the new file"
)
TOO_MANY_ENTRIES = Rule("archive has too many entries", f"at most {MAX_ENTRIES}")
NAME_NOT_UTF8 = Rule(
    "an entry name is not valid UTF-8", "UTF-8 file names", "rename the files with ASCII characters"
)
ESCAPES = Rule(
    "entry path escapes the archive", hint="archive entries must be relative paths without '..'"
)
LINK = Rule("archive contains a symbolic link", hint="put the file itself in the archive")
ENCRYPTED = Rule("archive entry is encrypted", hint="create the archive without a password")
SAME_PATH_TWICE = Rule("archive holds the same path twice", hint="keep one copy of each file")
#: A larger prediction file would be refused anyway.
ENTRY_TOO_LARGE = Rule("archive entry is too large", f"at most {MAX_FILE_BYTES} bytes")
ZIP_BOMB = Rule(
    "archive expands too much (a zip bomb?)",
    f"at most {MAX_UNCOMPRESSED_BYTES} bytes uncompressed in all, and at most {MAX_RATIO}:1 "
    f"compression on an entry, or on all entries together, over {RATIO_CHECK_BYTES} bytes",
)
ONLY_NESTED = Rule(
    "the zip holds no file but an archive inside it",
    hint="put the files themselves in the zip: an archive inside a zip is not opened",
)
NO_PREDICTION_FILE = Rule(
    "archive holds no prediction file", hint="zip the prediction files themselves"
)

#: Track id -> the one file read for it, relative to the submission's folder.
TrackFiles = dict[str, PurePosixPath]
#: Track id -> its files, of the tracks given by more than one (``_give``), the first one first.
Twice = dict[str, list[PurePosixPath]]
#: The zip entries to extract, each with its relative path.
Entries = list[tuple[zipfile.ZipInfo, PurePosixPath]]

#: What reading a damaged or unusual zip raises (CRC, truncation, compression, encryption, names the
#: OS refuses); an unsupported compression's NotImplementedError is a RuntimeError.
READ_ERRORS = (zipfile.BadZipFile, zlib.error, EOFError, RuntimeError, OSError, ValueError)


def is_ignored(relative: PurePosixPath) -> bool:
    """macOS resource forks, dotfiles and the platform's own files are not part of a submission."""
    parts = relative.parts
    platform = len(parts) == 1 and parts[0].lower() in IGNORED_NAMES
    return platform or any(p == "__MACOSX" or p.startswith(".") for p in parts)


def _is_ignored_file(info: zipfile.ZipInfo) -> bool:
    """Whether a zip's entry (its path checked) is a file never read (``is_ignored``)."""
    return not info.is_dir() and is_ignored(PurePosixPath(info.filename))


def _entry(name: str) -> str:
    """An entry name fit for a message, in quotes: each unprintable character escaped alone, the
    bytes of a name that are not UTF-8 (lone surrogates) as their values (``caf\\xe9``, as the
    ranking tables show them), long names cut."""
    return f"'{shorten(safe_display(name), 80)}'"


def _entry_path(info: zipfile.ZipInfo, display: str) -> PurePosixPath:
    """The entry's relative path, after refusing names that are not UTF-8, escape or are links."""
    name = info.filename
    try:  # zipfile decodes a name not flagged UTF-8 as cp437, which gives back its bytes
        name = name if info.flag_bits & 0x800 else name.encode("cp437").decode("utf-8")
    except UnicodeError:
        raw = name.encode("cp437").decode("utf-8", "surrogateescape")
        raise NAME_NOT_UTF8.error(display, _entry(raw))
    relative = PurePosixPath(name.replace("\\", "/"))
    escapes = relative.is_absolute() or ".." in relative.parts or name[1:2] == ":"
    link = stat.S_ISLNK(info.external_attr >> 16)
    for broken, rule in ((escapes, ESCAPES), (link, LINK), (info.flag_bits & 0x1, ENCRYPTED)):
        if broken:
            raise rule.error(display, _entry(name))
    return relative


def _check_file(
    info: zipfile.ZipInfo, twice: bool, total: int, compressed: int, display: str
) -> None:
    """Refuse a file entry given twice, or by its declared sizes (bytes) before anything is extracted;
    ``total`` and ``compressed`` add up the files so far (a bomb split into many small entries)."""
    name, size = _entry(info.filename), info.file_size
    if twice:
        raise SAME_PATH_TWICE.error(display, name)
    if size > MAX_FILE_BYTES:
        raise ENTRY_TOO_LARGE.error(display, f"{size} bytes declared by {name}")
    # this entry's, and all files' so far
    ratios = ((size, info.compress_size), (total, compressed))
    expands = any(n > RATIO_CHECK_BYTES and n > MAX_RATIO * max(c, 1) for n, c in ratios)
    if total > MAX_UNCOMPRESSED_BYTES or expands:
        raise ZIP_BOMB.error(
            display,
            f"{total} bytes from {compressed} compressed in all, {size} bytes from "
            f"{info.compress_size} compressed in {name}",
        )


def _plan(
    infos: list[zipfile.ZipInfo], display: str, tracks: Sequence[Track] | None = None
) -> tuple[Entries, list[str]]:
    """The entries to extract and the warnings; raises before anything is written. With ``tracks``, only
    each track's one file is extracted: what is written is bounded by them, whatever else the zip holds."""
    if len(infos) > MAX_ENTRIES:
        raise TOO_MANY_ENTRIES.error(display, str(len(infos)))
    warnings: list[str] = []
    plan: Entries = []
    #: relative path -> entry name, of every file neither skipped nor nested
    files: dict[PurePosixPath, str] = {}
    claimed: TrackFiles = {}
    twice: Twice = {}
    nested: list[str] = []  # the archives inside, as shown
    skipped: list[str] = []  # the files no track claims, left in the zip
    total = compressed = 0
    # an ignored root ``metadata`` is kept in a zip extracted whole (a code submission's): its
    # ``command`` tells a submission written for another platform
    metadata = PurePosixPath("metadata") if tracks is None else None
    # an entry no track's name claims may still be a ChaosNLI document, claimed by its ids
    # (``find_track_files``): extracted to be read when some track takes JSON documents
    documents = tracks is not None and bool(document_tracks(tracks))
    for info in infos:
        relative = _entry_path(info, display)
        if not relative.parts:  # checked first: ZipInfo.is_dir() fails on an empty name
            warnings.append(NAMELESS_ENTRY.format(_entry(info.filename)))
        elif info.is_dir() or (is_ignored(relative) and relative != metadata):
            continue
        elif relative.suffix.lower() in ARCHIVE_SUFFIXES:
            nested.append(_entry(info.filename))
            warnings.append(NESTED_ARCHIVE.format(nested[-1]))
        else:
            total, compressed = total + info.file_size, compressed + info.compress_size
            _check_file(info, relative in files, total, compressed, display)
            files[relative] = info.filename
            wanted = tracks is None or _claim(claimed, relative, tracks, twice)
            if wanted or (documents and relative.suffix.lower() == ".json"):
                plan.append((info, relative))
            else:
                skipped.append(str(relative))
                warnings.append(UNUSED_FILE.format(safe_display(relative)))
    if tracks is not None:  # as the scoring program refuses it in the folder the worker extracts
        refuse_twice(twice)
        refuse_look_alikes([p for p in files if p not in claimed.values()], claimed, tracks)
        given = {track: str(relative) for track, relative in claimed.items()}
        FoundFiles(tracks, claimed, skipped, []).refuse_meant(given)
        warnings += models_not_run(list(files), tracks)
    if not plan:
        _refuse_nothing_to_extract(infos, display, tracks, files, nested, warnings)
    return plan, warnings


def _refuse_nothing_to_extract(
    infos: list[zipfile.ZipInfo],
    display: str,
    tracks: Sequence[Track] | None,
    files: dict[PurePosixPath, str],
    nested: list[str],
    warnings: list[str],
) -> None:
    """Refuse a zip of which ``_plan`` extracts nothing (``files``: the entries neither skipped
    nor nested, ``nested``: the archives inside, as shown), when that leaves nothing to score or
    to name later: only archives, only unwanted files, no track's file, or only ignored files."""
    if nested and not files:
        raise ONLY_NESTED.error(display, ", ".join(nested[:5]))
    if warnings and (nested or not files):
        raise NO_PREDICTION_FILE.error(display, "; ".join(warnings))
    ignored = [_entry(i.filename) for i in infos if _is_ignored_file(i)]
    if tracks is not None:
        found = FoundFiles(tracks, {}, list(map(safe_display, files)), [], ignored)
        found.refuse_if_none(display, list(map(_entry, files.values())))
    elif ignored and not files:  # extracted whole, nothing would be left to name them
        raise NO_PREDICTION_FILE.error(display, only_ignored(ignored))


def accepted_file_names(tracks: Sequence[Track], by_track: bool = False) -> str:
    """The tracks' accepted file names for a message, each track's canonical one first, then the others
    (``mp_soft.tsv or mp_*_soft.tsv``), each list after its track's id when ``by_track``; how names are
    matched is said once after them when some track has other names."""
    names = [" or ".join(t.file_names) for t in tracks]
    if by_track:
        names = [f"{t.id}: {n}" for t, n in zip(tracks, names)]
    how = " (any case; * stands for any text)" if any(len(t.file_names) > 1 for t in tracks) else ""
    return ("; " if by_track else ", ").join(names) + how


def _not_a_zip(archive: Path, display: str, error: Exception) -> SubmissionError:
    """The refusal of a file that does not open as a zip, saying what it is by its first bytes:
    another archive (``OTHER_ARCHIVES``), a zip cut short or damaged (``ZIP_MAGIC``), an empty
    file or no zip at all; the system's reason only when the file could not be read."""
    if isinstance(error, OSError):
        return NOT_A_ZIP.error(
            display, f"a file that cannot be read ({error.strerror or error.__class__.__name__})"
        )
    head = read_head(archive, 262) or b""
    kind = next((name for name, at, magic in OTHER_ARCHIVES if head[at:].startswith(magic)), None)
    if kind is not None:
        return OTHER_ARCHIVE.error(display, f"a {kind} archive (by its first bytes)")
    if head.startswith(ZIP_MAGIC):
        found = (
            "a zip cut short or damaged: it begins as a zip, but its list of files, at its end, "
            "is missing or unreadable"
        )
        return CUT_SHORT_ZIP.error(display, found)
    return NOT_A_ZIP.error(
        display, "an empty file" if not head else "a file that does not begin as a zip"
    )


def _damaged_entry(display: str, entry: str, error: Exception) -> SubmissionError:
    """The refusal of the zip entry ``entry`` that cannot be extracted, saying what it is in words,
    not Python's (``error``): a file encrypted or compressed in a way zip readers do not all read
    (RuntimeError, NotImplementedError), one that cannot be written here (an OSError: its reason,
    without the temporary paths), else a damaged file (a CRC or its compressed data)."""
    again = "create the zip again from the files themselves ('zip -r')"
    if isinstance(error, OSError):  # a path this system cannot write, or a full disk
        what = f"it cannot be written here ({error.strerror or error.__class__.__name__})"
        hint = f"a path in it may be a file and a folder at once, or too long: {again}"
    elif isinstance(error, RuntimeError):  # a password, or a compression method not supported
        what = "a file encrypted or compressed by a method not supported"
        hint = "create the zip again without a password, with plain 'zip -r' (deflate)"
    else:
        what = "a damaged file inside the zip (its data does not match what the zip recorded)"
        hint = f"{again}; a damaged zip cannot be trusted to be repaired"
    reason = f"archive entry cannot be extracted: {what}"
    return SubmissionError.single(display, reason, found=entry, hint=hint)


def safe_extract(
    archive: Path, target: Path, display: str, tracks: Sequence[Track] | None = None
) -> list[str]:
    """Extract a zip into ``target`` (only the ``tracks``' files if given); returns warnings on skipped entries."""
    display = safe_display(display)
    try:
        zf = zipfile.ZipFile(archive)
    except UnicodeDecodeError as e:  # zipfile decodes a name flagged UTF-8 as it opens the zip
        name = bytes(e.object).decode("utf-8", "surrogateescape")
        raise NAME_NOT_UTF8.error(display, f"{_entry(name)}, marked UTF-8")
    except READ_ERRORS as e:  # anything that is not a readable zip is the submission's problem
        raise _not_a_zip(archive, display, e) from None
    with zf:
        plan, warnings = _plan(zf.infolist(), display, tracks)
        target = Path(target).resolve()
        for info, relative in plan:
            destination = target.joinpath(*relative.parts).resolve()
            if target not in destination.parents:
                raise ESCAPES.error(display, _entry(info.filename))
            try:  # zipfile yields at most the declared size (checked above), then checks the CRC
                destination.parent.mkdir(parents=True, exist_ok=True)
                with zf.open(info) as source, open(destination, "wb") as sink:
                    shutil.copyfileobj(source, sink, 1 << 20)
                    # a compressed stream ending before the declared size passes the CRC
                    if sink.tell() != info.file_size:
                        raise zipfile.BadZipFile("fewer bytes than declared")
            except READ_ERRORS as e:
                raise _damaged_entry(display, _entry(info.filename), e) from None
    return warnings


def walk_entries(folder: Path) -> Iterator[tuple[PurePosixPath, str]]:
    """Every non-directory entry of a folder (relative, ignored ones skipped) and what it is if
    not a regular file ('' for a regular file)."""
    for root, dirs, files in os.walk(folder):  # links to folders are listed in dirs, never followed
        dirs.sort()
        for name in sorted(files):
            full = Path(root) / name
            relative = PurePosixPath(full.relative_to(folder).as_posix())
            if is_ignored(relative):
                continue
            yield relative, entry_kind(full)


def entry_kind(path: Path) -> str:
    """What the entry at ``path`` is if not a regular file ('' for a regular file), by ``lstat``:
    a link (even to a file), a FIFO, ... is never followed or opened."""
    mode = os.lstat(path).st_mode
    return "" if stat.S_ISREG(mode) else kind_of(mode)


def refuse_irregular(relative: PurePosixPath, irregular: str) -> None:
    """Refuse a track's file ``relative`` that is not a regular file (``irregular``: what it is,
    as ``entry_kind`` says; '' lets it pass)."""
    if irregular:
        hint = "write the predictions into the file itself"
        rule = Rule(f"the prediction file is {irregular}", "a regular file", hint)
        raise rule.error(safe_display(relative))


def only_ignored(ignored: Sequence[str]) -> str:
    """What a submission holding no file but the ``ignored`` ones (as shown) holds, in a
    refusal's words."""
    if not ignored:
        return "no files"
    return f"only {first_few(ignored, 10)} ({IGNORED_WHY})"


def ignored_entries(folder: Path) -> list[str]:
    """The entries of a folder that ``walk_entries`` skips (``is_ignored``), as shown: an ignored
    folder once, with a trailing '/', and nothing inside it."""
    shown: list[str] = []
    for root, dirs, files in os.walk(folder):  # links to folders are listed, never followed
        base = PurePosixPath(Path(root).relative_to(folder).as_posix())
        skipped = {name for name in dirs if is_ignored(base / name)}
        dirs[:] = sorted(set(dirs) - skipped)
        shown += [_entry(f"{base / name}/") for name in sorted(skipped)]
        shown += [_entry(str(base / name)) for name in sorted(files) if is_ignored(base / name)]
    return shown


def submission_files(folder: Path) -> list[PurePosixPath]:
    """Every regular file of a submission folder, relative, skipping ignored entries and links."""
    return [relative for relative, irregular in walk_entries(Path(folder)) if not irregular]


def code_model(relatives: Sequence[PurePosixPath], tracks: Sequence[Track]) -> tuple[list, list]:
    """The submission's shallowest ``model.py`` entries among ``relatives`` (ignored ones left
    out) and the files the tracks claim by name in a shallower folder: with any, the submission is
    results, not code (a repository zipped with its predictions at the top); ``model.py`` beside
    the track files, as in the starting kit's code submission, is code."""
    models = [r for r in relatives if r.name == MODEL_FILE and not is_ignored(r)]
    depth = min((len(r.parts) for r in models), default=0)
    above = [r for r in track_named(relatives, tracks) if len(r.parts) < depth]
    return [r for r in models if len(r.parts) == depth], above


def track_named(relatives: Sequence[PurePosixPath], tracks: Sequence[Track]) -> list:
    """The files of ``relatives`` that a track claims by name (any case), ignored ones left out;
    two of one track both, as nothing is refused here."""
    return [r for r in relatives if not is_ignored(r) and any(t.reads_name(r.name) for t in tracks)]


def model_not_run(models: Sequence[PurePosixPath], above: Sequence[PurePosixPath]) -> str:
    """The note on a result submission that also holds ``models`` (``code_model``: model.py, not
    run as the track files ``above`` sit in a shallower folder); "" where none is so."""
    if not models or not above:
        return ""
    return (
        f"{first_few([_entry(str(f)) for f in models])} not run: the submission's track files are "
        f"read as results, as {len(above)} of them ({first_few([_entry(str(f)) for f in above])}) "
        f"{plural(len(above), 'sits', 'sit')} in a shallower folder; {MODEL_FILE} makes a code "
        "submission only where no track file sits in a shallower folder than it (the starting "
        f"kit's is at the root): to run it, move it up to the root, or remove the track files"
    )


def models_not_run(relatives: Sequence[PurePosixPath], tracks: Sequence[Track]) -> list[str]:
    """``model_not_run``'s note on a submission of the files ``relatives`` read as results, in a
    list ([]: none)."""
    return list(filter(None, [model_not_run(*code_model(relatives, tracks))]))


def _claim(
    claimed: TrackFiles,
    relative: PurePosixPath,
    tracks: Sequence[Track],
    twice: Twice | None = None,
) -> bool:
    """Record the file for each track whose file patterns (any case) match it, a second file of a
    track in ``twice`` (else refused at once: ``_give``); False if none."""
    owners = [t.id for t in tracks if t.reads_name(relative.name)]
    _give(claimed, relative, sorted(owners), twice=twice)
    return bool(owners)


def _give(
    claimed: TrackFiles,
    relative: PurePosixPath,
    track_ids: Sequence[str],
    why: str = "",
    twice: Twice | None = None,
) -> None:
    """Record ``relative`` as the file of each of ``track_ids``; a track given a file already is
    recorded in ``twice``, to refuse them all at once (``refuse_twice``), else refused now (``why``:
    why ``relative`` is theirs, when its name does not say it)."""
    again = {tid: [claimed[tid], relative] for tid in track_ids if tid in claimed}
    if twice is None:
        refuse_twice(again, why)
    for tid, files in again.items():
        twice.setdefault(tid, files[:1]).append(relative)
    claimed.update(dict.fromkeys([tid for tid in track_ids if tid not in again], relative))


def refuse_twice(twice: Twice, why: str = "") -> None:
    """Refuse the tracks given by more than one file (``twice``: each with its files), every one in
    one message, a file given to several tracks at once named once (``why``: as for ``_give``)."""
    if not twice:
        return
    groups: dict[tuple[PurePosixPath, ...], list[str]] = {}
    for tid, files in twice.items():
        groups.setdefault(tuple(dict.fromkeys(files)), []).append(tid)
    files = list(dict.fromkeys(f for group in groups for f in group))
    shown = list(map(safe_display, files))
    hint = "remove all but one of them" + (f" ({why})" if why else "")
    if len(groups) == 1:
        named = ", ".join(f"'{tid}'" for tid in twice)
        are = f"tracks {named} ({len(twice)}) are" if len(twice) > 1 else f"track {named} is"
        rule = Rule(f"{are} given by more than one file", "exactly one file per track", hint)
        raise rule.error(", ".join(shown), counted(len(files), "file"))
    each = [
        plural(len(tids), "track ", "tracks ")
        + " and ".join(f"'{tid}'" for tid in tids)
        + f" by {', '.join(sorted(map(safe_display, group)))}"
        for group, tids in sorted(groups.items(), key=lambda item: sorted(item[0]))
    ]
    message = f"{counted(len(twice), 'track')} are given by more than one file"
    rule = Rule(message, "exactly one file per track", f"for each track, {hint}")
    raise rule.error("; ".join(each), counted(len(files), "file"))


def locate_track_files(folder: Path, tracks: Sequence[Track]) -> tuple[TrackFiles, list[str]]:
    """Map track id -> the one file for it (at the root or inside folders); returns it and the names
    of files no track claims. A track file that is not a regular file is refused (never opened)."""
    claimed: TrackFiles = {}
    unmatched: list[PurePosixPath] = []
    twice: Twice = {}
    for relative, irregular in walk_entries(Path(folder)):
        if not _claim(claimed, relative, tracks, twice):
            unmatched.append(relative)
        else:
            refuse_irregular(relative, irregular)
    refuse_twice(twice)
    refuse_look_alikes(unmatched, claimed, tracks)
    return claimed, list(map(safe_display, unmatched))


def refuse_look_alikes(
    unmatched: Sequence[PurePosixPath], claimed: TrackFiles, tracks: Sequence[Track]
) -> None:
    """Refuse the files no track claims whose name, read as ``codajudge rank`` reads a system name
    (``name_as_read``: case, Unicode NFKC, invisible characters, spaces at either end), is the file
    of tracks given none (``en_en\\u200b.tsv``, ``ｅn_en.tsv``): plainly meant for them, as a name
    but for its suffix (``FoundFiles.refuse_meant``), and ignoring it would score without it."""
    problems = []
    for relative in unmatched:
        read = name_as_read(relative.name)
        meant = [t for t in tracks if t.reads_name(read)]
        if not meant or any(t.id in claimed for t in meant):
            continue
        odd = sorted(
            {safe_display(ch) for ch in relative.name if name_as_read(ch) != ch.casefold()}
        )
        why = "characters invisible or look-alike, or spaces at either end"
        found = f"{counted(len(odd), 'such character')}: {', '.join(odd)}"
        problems.append(_meant_refusal(safe_display(relative), meant, why, found, read))
    if problems:
        raise SubmissionError(problems)


#: Why a document is the file of a part's tracks whatever its name ({0}: the file, {1}: the part).
WHOLE_PART = "{0} holds every item of part '{1}', so it is that part's file too"


def document_tracks(tracks: Sequence[Track]) -> dict[str, list[Track]]:
    """dataset -> its tracks that take a JSON document by name (a ``*.json`` file pattern, as
    ``snli*.json``): a document named otherwise is theirs when its ids are the dataset's."""
    out: dict[str, list[Track]] = {}
    for track in tracks:
        if any(pattern.lower().endswith(".json") for pattern in track.files):
            out.setdefault(track.dataset, []).append(track)
    return out


def phase_parts(tracks: Sequence[Track], given: dict[str, str], ids_of) -> dict[str, tuple]:
    """dataset -> (a function giving the phase's ids of it, its file, or None where none is
    given) of every track's dataset (``given``: track id -> file), so that an id of another part is
    told that part's track and file, given or not; ``ids_of`` is called only where they are read
    (``coverage.OtherPhases.parts``), so a dataset no file gives is not read to score the others."""
    ordered = sorted(tracks, key=lambda t: t.id in given)  # a track's file over its part's none
    return {t.dataset: (functools.partial(ids_of, t.dataset), given.get(t.id)) for t in ordered}


def find_track_files(
    folder: Path, tracks: Sequence[Track], ids_of: Callable[[str], Sequence[str]], phases=None
) -> FoundFiles:
    """``locate_track_files``, then, for the tracks that take a JSON document (``document_tracks``),
    each file no name claims that is a ChaosNLI document (``formats.chaosnli``) whose ids are most of
    all a dataset's (``ids_of(dataset)``, called only then), read within the bounds of the
    dataset's whole part (``coverage.part_items`` of ``phases``); and each document a name claims,
    as the file of every dataset whose items it all holds when they are several, else of one no
    file gives; returns what it found. A track already given by another file is refused
    (``_give``). A ``.json`` file larger than a document of the largest such dataset is not read,
    with a note; without such tracks no file is read."""
    claimed, unclaimed = locate_track_files(folder, tracks)
    wanted = document_tracks(tracks)
    notes: list[str] = []
    named = {str(f) for t, f in claimed.items() if str(f).lower().endswith(".json")}
    if not ((unclaimed or named) and wanted):
        ignored = [] if claimed or unclaimed else ignored_entries(Path(folder))
        return FoundFiles(tracks, claimed, unclaimed, notes, ignored, Path(folder))
    n_items = max(part_items(len(ids_of(dataset)), phases or {}, dataset) for dataset in wanted)
    limit = max_file_bytes(n_items)
    left: list[str] = []
    refusals = FileRefusals()  # every document of several models is named, not the first alone
    for name in unclaimed:
        path = Path(folder) / name  # a link is never opened
        document = name.lower().endswith(".json") and path.is_file() and not path.is_symlink()
        size = path.stat().st_size if document else 0
        if size > limit:
            notes.append(UNREAD_DOCUMENT.format(name, size, limit))
        readable = document and size <= limit
        uids = refusals.attempt(document_uids, path, name, n_items) if readable else None
        datasets = _datasets_of_ids(uids, wanted, ids_of) if uids else []
        if not datasets:
            left.append(name)
        for dataset in datasets:
            why = WHOLE_PART.format(name, dataset)
            _give(claimed, PurePosixPath(name), [track.id for track in wanted[dataset]], why)
    unsubmitted = {d for d, ts in wanted.items() if not any(t.id in claimed for t in ts)}
    for name in sorted(named):  # a part's document may hold another part whole, or several
        relative = PurePosixPath(name)
        uids = refusals.attempt(document_uids, Path(folder) / name, name, n_items) or set()
        whole = [d for d in wanted if uids.issuperset(ids_of(d))]
        for dataset in whole if len(whole) > 1 else unsubmitted.intersection(whole):
            others = [t.id for t in wanted[dataset] if claimed.get(t.id) != relative]
            _give(claimed, relative, others, WHOLE_PART.format(name, dataset))
    refusals.raise_if_any()
    return FoundFiles(tracks, claimed, left, notes, (), Path(folder))


def _datasets_of_ids(uids: set, wanted: dict[str, list[Track]], ids_of) -> list[str]:
    """The datasets each of whose items ``uids`` holds, when there are several (ChaosNLI's one
    document of both parts), else the one dataset holding the most of ``uids`` (at least one), else
    none."""
    whole = [dataset for dataset in wanted if uids.issuperset(ids_of(dataset))]
    overlap = Counter({dataset: len(uids.intersection(ids_of(dataset))) for dataset in wanted})
    ranked = overlap.most_common(2) + [(None, 0)]  # a runner-up of 0 beside a lone dataset
    (dataset, best), (_, second) = ranked[0], ranked[1]
    return whole if len(whole) > 1 else [dataset] if best > second else []


#: Language codes the field writes for others: SemEval STS 2017's instructions wrote ``sp`` for
#: Spanish (``sp-sp``, ``sp-en``), which track names write ``es``.
LANGUAGE_ALIASES = {"sp": "es"}


def _language_note(track: Track, name: str, tracks: Sequence[Track]) -> str | None:
    """The note on ``name``, the file read for ``track`` by a pattern of its number with a ``*``
    for any language part (sts2017's ``STS.sys.track5.*.txt``), whose language part (loosely, with
    ``LANGUAGE_ALIASES``) is another track's own name (``es_es.tsv``) that this track's own name
    does not start with (``STS.sys.track4b.es-en.txt`` is es_en_mt's): a likely swap; else None."""
    loose = _loose(PurePosixPath(name).name)
    own = _loose(track.file_names[0])
    for pattern in track.file_names[1:]:
        head, star, tail = _loose(pattern).partition("*")
        if not (star and fnmatchcase(loose, _loose(pattern))):
            continue
        part = loose[len(head) : len(loose) - len(tail)]
        words = "_".join(LANGUAGE_ALIASES.get(w, w) for w in part.split("_"))
        other = next((t for t in tracks if _loose(t.file_names[0]) == words), None)
        if other is not None and other is not track and not own.startswith(words):
            shown = part.replace("_", "-")
            tid, named = track.id, other.file_names[0]
            return OTHER_LANGUAGE.format(name, tid, pattern, shown, other.id, named, tid)
    return None


def _loose(name: str) -> str:
    """A file name without extension, lower case, with '-', '.' and spaces as '_'."""
    return re.sub(r"[-.\s]+", "_", name.rsplit(".", 1)[0].lower())


def _meant_track(name: str, tracks: Sequence[Track]) -> Track | None:
    """The track a file no track claims was probably meant for, else None: the same name loosely
    (``en-en.tsv``) or, failing that, the words of one track's name or pattern mistyped
    (``_typo_of``: ``irony_sfot.tsv``) or, failing that, a name holding every word of one track's
    name or pattern (``VEN_test_pe_teamX.tsv`` for ``ven_*_pe.tsv``, ``STS.out.track5.en-en.txt``
    for ``en_en.tsv``), the words of a pattern's ``*`` parts aside; one track only, never a guess
    between two."""
    parts = _loose(PurePosixPath(name).name).split("_")
    loose = "_".join(LANGUAGE_ALIASES.get(part, part) for part in parts)
    found = [t for t in tracks if loose == _loose(t.file_names[0])]  # its id, another suffix
    if len(found) == 1:
        return found[0]
    found = [t for t in tracks if any(fnmatchcase(loose, _loose(p)) for p in t.file_names)]
    words = loose.split("_")
    if not found:
        found = [t for t in tracks if any(_typo_of(words, pattern) for pattern in t.file_names)]
    if not found:
        found = [t for t in tracks if any(_holds_words(words, pattern) for pattern in t.file_names)]
        if len(found) == 1 and _names_another(words, found[0], tracks):
            return None
    return found[0] if len(found) == 1 else None


def _name_words(tracks: Sequence[Track]) -> set[str]:
    """The words of the ``tracks``' file names and patterns, read loosely (``_loose``; a pattern's
    ``*`` is a word)."""
    return {word for t in tracks for name in t.file_names for word in _loose(name).split("_")}


def _names_another(words: list[str], track: Track, tracks: Sequence[Track]) -> bool:
    """Whether ``words`` (of a loose file name) hold a word that none of ``track``'s names has and
    that may name another track: a word of another track's names (``Track4b_es-en.tsv`` holds
    es_en's words, but ``track4b`` is es_en_mt's) or, where other tracks' names are numbered, any
    word with a digit (``es_en_4b.tsv``, ``tr_en_1.tsv``)."""

    own = _name_words([track])
    others = _name_words([t for t in tracks if t is not track])

    def has_digit(word: str) -> bool:
        return any(map(str.isdigit, word))

    # where other tracks' names are numbered, a number may be theirs whichever way it is written
    numbered = {word for word in words if has_digit(word)} if any(map(has_digit, others)) else set()
    return any(word in others | numbered and word not in own for word in words)


#: How alike (difflib's ratio) a word of a file name must be to a word of a track's name to be
#: read as it mistyped: two letters of four swapped (sfot for soft), one letter of seven changed
#: or left out; never a word of three letters or fewer changed (pred is not pe).
WORD_LIKENESS = 0.75


def _typo_of(words: list[str], pattern: str) -> bool:
    """Whether ``words`` (of a loose file name) are those of ``pattern`` (a track's file name or
    pattern, ``*`` a word of any text) in order, each as written, shortened or lengthened to at
    least two letters (``persp`` for ``pe``) or mistyped (``WORD_LIKENESS``: ``sfot`` for ``soft``)."""
    wanted = _loose(pattern).split("_")
    return len(words) == len(wanted) and all(map(_alike, words, wanted))


def _alike(word: str, wanted: str) -> bool:
    """Whether ``word`` is ``wanted`` (a pattern's word), as ``_typo_of`` reads it."""
    short, long = sorted((word, wanted), key=len)
    if fnmatchcase(word, wanted) or (len(short) >= 2 and long.startswith(short)):
        return True
    return SequenceMatcher(None, word, wanted).ratio() >= WORD_LIKENESS


def _meant_tracks(
    name: str, tracks: Sequence[Track], without: Sequence[Track], folder: Path | None = None
) -> list[Track]:
    """The tracks a file no track claims was probably meant for: ``_meant_track``'s, else those of
    ``without`` (the tracks given no file) of the dataset its name starts with
    (``_dataset_tracks``), of several those whose values its first line holds (``tracks_reading``:
    labels, a label track's), where the file is in ``folder``."""
    track = _meant_track(name, tracks)
    meant = [track] if track else _dataset_tracks(name, without)
    path = _readable(folder, name)
    if len(meant) > 1 and path is not None:
        return tracks_reading(path, meant)
    return meant


def _readable(folder: Path | None, name: str) -> Path | None:
    """The file ``name`` in ``folder``, to read its first lines, where it is a regular file there
    (never a link); None without a folder or such a file."""
    path = Path(folder, name) if folder is not None else None
    return path if path is not None and path.is_file() and not path.is_symlink() else None


def _content_tracks(
    name: str, track: Track, without: Sequence[Track], folder: Path | None
) -> list[Track]:
    """The tracks of ``without`` (given no file) of ``track``'s dataset whose values a file named
    like ``track``'s (another file is read for it) holds where ``track`` does not read them
    (``tracks_reading``: nli_zh_probs.tsv of probabilities beside nli_zh.tsv is nli_zh_soft's),
    where the file is in ``folder``; else none."""
    free = [t for t in without if t.dataset == track.dataset]
    path = _readable(folder, name)
    if not free or path is None:
        return []
    reading = tracks_reading(path, [track, *free])
    return [] if track in reading else reading


def _dataset_tracks(name: str, tracks: Sequence[Track]) -> list[Track]:
    """The tracks of the one dataset whose name (``_dataset_names``) a file name starts with, in
    any case (``MP_results.tsv``: mp's; ``VariErrNLI_results.tsv``: ven's), else none."""
    first = _first_word(name)
    datasets = {t.dataset for t in tracks}
    named = {d for d in datasets if any(map(first.startswith, _dataset_names(d, tracks)))}
    return [t for t in tracks if t.dataset in named] if len(named) == 1 else []


def _dataset_names(dataset: str, tracks: Sequence[Track]) -> set[str]:
    """The names of ``dataset`` among ``tracks``, two letters at least, lower case: its id and the
    first word of a name or pattern of each of its tracks' ``files`` (``varierrnli`` of lewidi2025's
    ``varierrnli_*_soft.tsv`` and ``varierrnli_*_pe.tsv``), not of its own ``<id>.tsv`` (sts2017's
    ``tr_en.tsv`` would make ``track1.tsv`` tr_en's)."""
    of_dataset = [t for t in tracks if t.dataset == dataset]
    words = [{_first_word(pattern) for pattern in t.file_names[1:]} for t in of_dataset]
    names = {dataset.lower(), *set.intersection(*words)}
    return {name for name in names if len(name) > 1 and "*" not in name}


def _first_word(name: str) -> str:
    """The first word of a file name or pattern, as ``_loose`` reads it."""
    return _loose(PurePosixPath(name).name).split("_")[0]


def _input_named(name: str, meant: Sequence[Track]) -> bool:
    """Whether file ``name``, like the names of the tracks ``meant``, is named as the task's input
    (``INPUT_NAMED``): the word ``input`` in it where their names hold ``output`` and never
    ``input``; such a file is never offered their name."""
    theirs = _name_words(meant)
    words = _loose(PurePosixPath(name).name).split("_")
    return "input" in words and "output" in theirs and "input" not in theirs


def _tracks_named(meant: Sequence[Track]) -> str:
    """The tracks by id: "track 'x'", "tracks 'x' and 'y'"."""
    return plural(len(meant), "track ", "tracks ") + " and ".join(f"'{t.id}'" for t in meant)


def _meant_for(name: str, meant: Sequence[Track], tracks: Sequence[Track]) -> str:
    """The tracks a file was probably meant for, after "probably meant for", and the names to give
    their files, saying when the file has LeWiDi 2023's name (``RESULTS_NAME``); ``tracks``: all,
    as a name one of the others reads is never offered."""
    old = " (<Dataset>_results.tsv is the LeWiDi 2023 name, one file per dataset)"
    old = old if RESULTS_NAME.fullmatch(PurePosixPath(name).name) else ""
    same = _renamed(name, meant, tracks)
    if same:  # one file for them all, only its suffix wrong: renaming it is the whole fix
        return f"probably meant for {_tracks_named(meant)}: rename it {same}"
    names = _scheme_names(name, meant, tracks)
    shared = len(names) == 1 and len(meant) > 1  # one file for them all (LeWiDi 2023's)
    rename = "rename it" if shared else plural(len(meant), "name it", "name their files")
    return f"probably meant for {_tracks_named(meant)}{old}: {rename} {' and '.join(names)}"


#: What a JSON-lines file (.jsonl) renamed .json must become: the .json files read are one document.
_ONE_DOCUMENT = ", written as one JSON document, not one record a line"


def _renamed(name: str, meant: Sequence[Track], tracks: Sequence[Track]) -> str | None:
    """The name to give file ``name``, meant for ``meant`` (of ``tracks``), where that is its
    name but for its suffix (``_shared_name``), saying when it must become one JSON document;
    else None."""
    same = _shared_name(name, meant, [t for t in tracks if t not in meant])
    from_lines = same and name.lower().endswith(".jsonl") and same.lower().endswith(".json")
    return same and same + (_ONE_DOCUMENT if from_lines else "")


def _shared_name(name: str, meant: Sequence[Track], others: Sequence[Track]) -> str | None:
    """The file name every track of ``meant`` accepts and none of ``others`` does that is ``name``
    but for its suffix, in any case: a name they share (``ArMIS_results.tsv`` for
    ``ArMIS_results.txt``), or ``name``'s stem with the suffix of a pattern they share where it then
    fits (``snli.json`` for a ChaosNLI document ``snli.jsonl``, by ``snli*.json``); else None
    (``snli_soft.jsonl``, snli_soft's alone, is not told ``snli_soft.json``, which snli_nli reads
    too, but ``snli_soft.tsv``, which reads JSON lines)."""
    stem = PurePosixPath(name).stem
    shared = set.intersection(*(set(t.file_names) for t in meant))
    for accepted in sorted(shared):
        renamed = stem + PurePosixPath(accepted).suffix if "*" in accepted else accepted
        same_stem = PurePosixPath(renamed).stem.lower() == stem.lower()
        other_suffix = renamed.lower() != PurePosixPath(name).name.lower()
        fits = fnmatchcase(renamed.lower(), accepted.lower())
        theirs = any(t.reads_name(renamed) for t in others)
        if same_stem and other_suffix and fits and not theirs:
            return renamed
    return None


def _holds_words(words: list[str], pattern: str) -> bool:
    """Whether ``words`` (of a loose name) hold every word of ``pattern`` without a ``*``, each as
    often, as written or shortened to two letters or more: ``track4`` holds both ``track4a`` and
    ``track4b``, so that a name fitting two tracks' patterns is no guess between them."""
    wanted = Counter(word for word in _loose(pattern).split("_") if word and "*" not in word)
    # each word read as the shortest of the pattern's it begins (itself, if it is one)
    by_length = sorted(wanted, key=len)
    read = [
        next((w for w in by_length if w.startswith(word) and len(word) > 1), word) for word in words
    ]
    return bool(wanted) and not wanted - Counter(read)


#: How many files named like a track's file (``_meant_track``) a note or a hint names one by one.
NEAR_MISSES_SHOWN = 5


def _first_shown(texts: list[str], near: list[tuple[str, list[Track]]], more: str) -> list[str]:
    """The first ``NEAR_MISSES_SHOWN`` of ``texts`` (one per near miss of ``near``: each file with
    the tracks it was probably meant for), then, for the others, their number, ``more``
    (``notes.words`` of that number) and the first few of them, each named shortly with its track."""
    rest = [f"{name!r} for {_tracks_named(meant)}" for name, meant in near[NEAR_MISSES_SHOWN:]]
    if not rest:
        return texts
    return texts[:NEAR_MISSES_SHOWN] + [f"{len(rest)} {words(more, len(rest))}: {first_few(rest)}"]


def _meant_problem(name: str, meant: Sequence[Track], tracks: Sequence[Track]) -> Problem | None:
    """The refusal of file ``name``, no track's, meant for ``meant`` (of ``tracks``), given no
    file: named as theirs but for its suffix (``_renamed``), or read as one track's by its name
    (``_meant_track``: mistyped, or in another form of the track's names), with the name to give
    it in the naming scheme it used (``_scheme_names``); None where it is meant for several tracks
    given different names (the kit cannot tie it to one file) or, but for its suffix, its name
    holds a word of its own (``_only_their_words``): a note."""
    same, names = _renamed(name, meant, tracks), _scheme_names(name, meant, tracks)
    if not same and (len(names) > 1 or not _only_their_words(name, meant)):
        return None
    suffix = PurePosixPath(name).suffix
    found = (f"suffix {suffix!r}" if suffix else "no suffix") if same else f"the name {name!r}"
    why = "its suffix" if same else "the form of its name"
    return _meant_refusal(name, meant, why, found, same or names[0])


def _only_their_words(name: str, meant: Sequence[Track]) -> bool:
    """Whether every word of file ``name``, read loosely, is a word of ``meant``'s names as
    ``_alike`` reads it (shortened, lengthened or mistyped; a pattern's ``*`` stands for none):
    ``STS.output.track1.txt`` is, but a name with a word of its own (``mp_soft_dev.tsv``,
    ``mp_soft.tsv.bak``) may be a file left out on purpose."""
    parts = _loose(PurePosixPath(name).name).split("_")
    words = [LANGUAGE_ALIASES.get(part, part) for part in parts]
    theirs = _name_words(meant) - {"*"}
    return all(any(_alike(word, their) for their in theirs) for word in words)


def _meant_refusal(name: str, meant: Sequence[Track], why: str, found: str, rename: str) -> Problem:
    """The refusal of file ``name`` (as shown) plainly meant for ``meant``, given no file, which
    matches no track only by ``why`` (``MEANT_FILE``), having ``found``; the fix: ``rename``."""
    n, named = len(meant), _tracks_named(meant)
    message = MEANT_FILE.format(why, named, plural(n, "has", "have"), named)
    names = dict.fromkeys(file for track in meant for file in track.file_names)  # a shared once
    how = "any case; * stands for any text" if "*" in "".join(names) else "any case"
    expected = f"a name that {named} {plural(n, 'reads', 'read')}: {' or '.join(names)} ({how})"
    return Problem(name, message, expected=expected, found=found, hint=f"rename it {rename}")


def _scheme_names(name: str, meant: Sequence[Track], tracks: Sequence[Track]) -> list[str]:
    """The names to give file ``name`` for ``meant`` (of ``tracks``), each track's in the scheme
    ``name`` used (``_scheme_name``), a name they share once (``HS-Brexit_results.tsv``, LeWiDi
    2023's one file per dataset, for ``HS-Brexit_result.tsv``)."""
    others = [t for t in tracks if t not in meant]
    return list(dict.fromkeys(_scheme_name(name, track, others) for track in meant))


def _scheme_name(name: str, track: Track, others: Sequence[Track]) -> str:
    """The name to give file ``name``, meant for ``track``, in the naming scheme it used: of
    ``track``'s names, the most like ``name`` (``STS.output.track1.*.txt`` for
    ``STS.output.track1.txt``), its ``*`` the word of ``name`` in its place where their words
    align, else ``track``'s own name's words where the pattern holds none of them
    (``STS.output.track1.ar-ar.txt``); else, or where that name would be read for one of
    ``others`` too, ``track``'s own name."""
    loose = _loose(PurePosixPath(name).name)
    pattern = max(track.file_names, key=lambda p: SequenceMatcher(None, loose, _loose(p)).ratio())
    words, wanted = loose.split("_"), _loose(pattern).split("_")
    own = _loose(track.file_names[0]).split("_")
    # the ``*`` of a pattern holding none of the track's own words is the track's own name
    star = "-".join(own) if "*" not in wanted or not set(own) & set(wanted) else None
    if len(words) == len(wanted) and "*" in wanted:
        star = words[wanted.index("*")]
    renamed = track.file_names[0] if star is None else pattern.replace("*", star, 1)
    return track.file_names[0] if any(t.reads_name(renamed) for t in others) else renamed


class FoundFiles(NamedTuple):
    """A submission's track files (``find_track_files``): track id -> its file, the files no track
    claims (as shown) and the notes of the files not read, among the files of ``tracks``."""

    tracks: Sequence[Track]
    files: TrackFiles
    unclaimed: list[str]
    unread: list[str]
    #: the files present that are never read (``is_ignored``: the platform's, dotfiles), as shown;
    #: listed only where the submission holds no other file
    ignored: Sequence[str] = ()
    #: the folder the files are in, to read a file meant for one of several tracks
    #: (``_meant_tracks``)
    folder: Path | None = None

    def refuse_if_none(
        self, display: str, shown: Sequence[str] = (), code_file: str = "", hint: str = ""
    ) -> None:
        """Refuse a submission without any track's file (nor ``code_file``, where code is accepted
        too); ``shown``: its files as shown (default: the unclaimed ones); ``hint`` (default: how
        to name the files)."""
        if self.files:
            return
        expected = f"files named {accepted_file_names(self.tracks, by_track=True)}"
        expected = f"{code_file} (a code submission) or {expected}" if code_file else expected
        hint = hint or naming_hint(self.unclaimed, self.tracks, self.folder)
        rule = Rule("no prediction file for any track was found", expected, hint)
        raise rule.error(
            display, ", ".join((shown or self.unclaimed)[:10]) or only_ignored(self.ignored)
        )

    def ignored_notes(self, given: Mapping[str, str]) -> list[str]:
        """The notes of the files not read, then of the files read whose language part is another
        track's (``_language_note``), then of the archives (never opened), then those of the files
        no track claims: one per near miss (``_meant_track``), one for the rest.
        ``given``: track id -> the file read for it, as shown; a near miss of such a track is not
        told to take that file's name (sts2017's ``es_es.tsv`` renamed ``sp-en.tsv`` beside
        ``es_en.tsv``): the names of the tracks without a file are offered instead."""
        without = [t for t in self.tracks if t.id not in given]
        read = "every track has its file"
        if without:
            read = f"the tracks without a file read {accepted_file_names(without)}"
        texts: list[str] = []  # one per near miss
        near: list[tuple[str, list[Track]]] = []
        other: list[str] = []
        archives: list[str] = []  # the platform extracted the zip: these were inside it
        for name in self.unclaimed:
            if PurePosixPath(name).suffix.lower() in ARCHIVE_SUFFIXES:
                archives.append(self._archive_note(name))
                continue
            meant = self._meant(name, given, without)
            unused = UNUSED_FILE.format(name)
            if meant and _input_named(name, meant):
                archives.append(INPUT_NAMED.format(unused, _tracks_named(meant)))
                continue
            if not meant:
                other.append(name)
                continue
            track = meant[0]
            near.append((name, meant))
            if track.id not in given:
                test_set = test_set_words(name)  # before the name it is told to take
                unused += f"; {test_set}" if test_set else ""
                texts.append(f"{unused}; it was {_meant_for(name, meant, self.tracks)}")
            else:
                texts.append(
                    f"{unused}; its name is like that of track '{track.id}', which is read from "
                    f"{given[track.id]}; {read}"
                )
        notes = _first_shown(texts, near, "more file{s} named like a track's file {was} ignored")
        if len(other) == 1:
            notes.append(UNUSED_FILE.format(other[0]))
        elif other:
            listed = first_few([f"'{name}'" for name in other])
            notes.append(f"{len(other)} files match no track and were ignored: {listed}")
        given_files = [(t, safe_display(f)) for t in self.tracks if (f := self.files.get(t.id))]
        language = [_language_note(track, name, self.tracks) for track, name in given_files]
        folders = self._folders_note()
        return self.unread + folders + list(filter(None, language)) + archives + notes

    def _folders_note(self) -> list[str]:
        """The note of the track files read from folders below a folder holding other track files
        (``OTHER_FOLDERS``), each with its tracks: a team sending some tracks beside older files
        of the others in a sub-folder (``old/``) would have them all scored without a word; none
        where no such folder is below another (one folder, or folders side by side, ``sts/`` and
        ``nli/``, as the Data page allows)."""
        by_file: dict[PurePosixPath, list[Track]] = {}
        for track in (t for t in self.tracks if t.id in self.files):
            by_file.setdefault(PurePosixPath(self.files[track.id]), []).append(track)
        folders = {f.parent for f in by_file}
        outside = [(f, ts) for f, ts in by_file.items() if folders & set(f.parent.parents)]
        if not outside:
            return []
        listed = [f"{safe_display(f)} for {_tracks_named(ts)}" for f, ts in outside]
        n_out = sum(len(ts) for _, ts in outside)
        n_top = sum(map(len, by_file.values())) - n_out
        top, out = counted(n_top, "track"), counted(n_out, "track")
        return [OTHER_FOLDERS.format(out, top, first_few(listed, 10))]

    def _meant(self, name: str, given: Mapping[str, str], without: Sequence[Track]) -> list[Track]:
        """The tracks file ``name``, no track's, was probably meant for (``_meant_tracks``); where
        that is a track given a file (``given``), those given none (``without``) whose values it
        holds (``_content_tracks``: soft beside labels), if any."""
        meant = _meant_tracks(name, self.tracks, without, self.folder)
        if meant and meant[0].id in given:
            meant = _content_tracks(name, meant[0], without, self.folder) or meant
        return meant

    def refuse_meant(self, given: Mapping[str, str]) -> None:
        """Refuse a submission holding a file no track claims that was plainly meant for tracks
        given no file (``_meant_problem``): named as theirs but for its suffix (``_renamed``:
        ``CSC_test_soft.jsonl`` for csc_soft's ``csc_*_soft.tsv``), or made of their names' words
        alone (``STS.output.track1.txt``); ignoring it (a note, which the platform keeps in a log)
        would score the submission without it. The looser near misses (by dataset, a name with a
        word of its own) stay notes (``ignored_notes``). ``given``: as there."""
        without = [t for t in self.tracks if t.id not in given]
        problems = []
        for name in self.unclaimed:
            if PurePosixPath(name).suffix.lower() in ARCHIVE_SUFFIXES:
                continue
            meant = self._meant(name, given, without)
            if meant and meant[0].id not in given and not _input_named(name, meant):
                problems += filter(None, [_meant_problem(name, meant, self.tracks)])
        if problems:
            raise SubmissionError(problems)

    def _archive_note(self, name: str) -> str:
        """The note of an archive in the submission folder (``name``, as shown): never opened, and
        its files read when the platform's worker extracted it into a folder beside it, the zip's
        path without its suffix (CodaLab v1.5's, ``EXTRACTED_ARCHIVE``), which holds a file."""
        extracted = PurePosixPath(name).with_suffix("")
        paths = [*self.files.values(), *map(PurePosixPath, self.unclaimed)]
        if any(extracted in path.parents for path in paths):
            return EXTRACTED_ARCHIVE.format(name, f"{extracted}/")
        return NESTED_ARCHIVE.format(repr(name))


def naming_hint(
    unclaimed: Sequence[str], tracks: Sequence[Track], folder: Path | None = None
) -> str:
    """How to name the files of a submission in which no file matched a track: each near miss
    (``_meant_track``, else a dataset's tracks: ``_dataset_tracks``) and the tracks it was
    probably meant for, of several those whose values it holds where it is in ``folder``."""
    meant_of = {n: _meant_tracks(n, tracks, tracks, folder) for n in unclaimed}
    near = [(n, meant) for n, meant in meant_of.items() if meant and not _input_named(n, meant)]
    hints = [f"file {name!r} was {_meant_for(name, meant, tracks)}" for name, meant in near]
    hints = _first_shown(hints, near, "more file{s} named like a track's file")
    test_sets = list(filter(None, map(test_set_words, unclaimed)))  # renamed, scored at chance
    return "; ".join(test_sets + hints) or "name each file after its track (see the starting kit)"
