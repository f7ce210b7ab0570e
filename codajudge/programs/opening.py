"""Opening a submission as a folder, for the ingestion program and the scoring program alike.

A submission reaches a program as a folder (what the platform extracted), as a zip (given on the
command line), or as a folder holding nothing but one zip (a submission copied as is). The zip is
extracted safely (``formats.archive.safe_extract``); another kind of archive (a lone ``.tar``) is
refused with the same message by both programs, and a path at which nothing exists is named.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from collections.abc import Sequence

from ..errors import SubmissionError
from ..formats.archive import ARCHIVE_SUFFIXES, NOTHING_AT_PATH, safe_extract, submission_files
from ..formats.textfile import safe_display
from ..tracks import Track

#: The folder of the work folder into which a zip is extracted.
EXTRACTED = "submission"


def open_submission(
    path: Path, work: Path, tracks: Sequence[Track] | None = None
) -> tuple[Path, list[str]]:
    """``path`` as a folder, and the extraction's warnings (entries skipped): a zip, or a folder
    holding only a zip, is extracted into ``work/submission`` (only the ``tracks``' files when
    given, else every file), the folder's zip with a note; any other folder is used as it is (a zip
    in it is not opened). Raises SubmissionError when nothing is at ``path`` or its one file is an
    archive of another kind."""
    if not (path.exists() or path.is_symlink()):
        raise NOTHING_AT_PATH.error(safe_display(str(path)))
    given_file = path.is_file()
    if given_file:
        archive, name = path, PurePosixPath(path.name)
    else:
        files = submission_files(path)
        if len(files) != 1 or files[0].suffix.lower() not in ARCHIVE_SUFFIXES:
            return path, []  # a folder of its own files
        archive, name = path / files[0], files[0]
    suffix, shown = name.suffix.lower(), safe_display(str(name))
    if suffix in ARCHIVE_SUFFIXES and suffix != ".zip":
        raise SubmissionError.single(
            shown,
            "only zip archives are read",
            expected="a .zip file or the submission's files themselves",
            found=f"a {name.suffix} file",
            hint="zip the files with 'zip -r submission.zip FILES'",
        )
    target = work / EXTRACTED
    target.mkdir()
    warnings = safe_extract(archive, target, str(name), tracks)
    if not given_file:  # the platform extracted a zip that held this one
        warnings.insert(0, f"the submission holds only the zip {shown!r}: its files were read")
    return target, warnings
