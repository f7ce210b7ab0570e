"""Keeping an edition config's names and paths inside the folders they belong to.

An edition config is code-adjacent input: a name becomes a folder the builder replaces, a page path
a file copied into the public pages, a dataset path a release the importers read. None of them may
reach outside its folder, by an absolute path, a ``..`` component or a symbolic link (links are
resolved before the check). These helpers return a ``Problem`` (or raise ``ConfigError``) that names
the key, what was found and what is allowed.
"""

from __future__ import annotations

import os
import re
from pathlib import Path, PureWindowsPath
from collections.abc import Iterator

from .errors import ConfigError, Problem
from .fields import did_you_mean

#: Edition names and dataset ids: they become file and folder names, so no separators, no dot-only names.
SLUG_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
RELATIVE = "a relative path: no absolute path and no '..'"
SLUG_RULE = (
    "letters, digits, '_', '-' and '.', starting with a letter or digit, at most 64 characters"
)


def slug(text) -> str:
    """``text`` as a plain name: its runs of ASCII letters and digits, lowercased, joined by '-'
    ("Post-campaign" and "post campaign" -> "post-campaign"); '' when it has none. Phase names are
    matched and shown by it, and a legacy bundle's pages are named by it."""
    return "-".join(re.findall(r"[a-z0-9]+", str(text).lower()))


def slug_problem(value, where: str, key: str) -> Problem | None:
    """A Problem if ``value`` is not a safe slug (usable as one file or folder name), else None."""
    if isinstance(value, str) and SLUG_PATTERN.match(value):
        return None
    return Problem(
        where,
        f"'{key}' must be a plain name ({SLUG_RULE})",
        found=repr(value)[:80],
        hint="it becomes a file or folder name in the bundle",
    )


def _escapes_lexically(value: str) -> bool:
    """Absolute (POSIX or Windows) or with a '..' component, whatever the separator: a Windows
    path reads both separators, so its parts and drive cover the POSIX reading too."""
    windows = PureWindowsPath(value)
    return value.startswith(("\\", "/")) or bool(windows.drive) or ".." in windows.parts


def _not_relative(where: str, message: str, value) -> Problem:
    """The refusal of a path or option that is absolute or climbs with '..'."""
    return Problem(where, message, expected=RELATIVE, found=repr(value)[:80])


def resolved(path: Path) -> Path | None:
    """``path`` with its symbolic links resolved; None when it cannot be (a loop of links)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # RuntimeError: a symlink loop (Python < 3.13)
        return None


def path_problem(value, base: Path, where: str, key: str, base_name: str) -> Problem | None:
    """A Problem unless ``value`` is a relative path that stays inside ``base`` once symlinks are resolved."""
    if not isinstance(value, str) or not value or "\0" in value or _escapes_lexically(value):
        return _not_relative(where, f"'{key}' must be a relative path inside {base_name}", value)
    target = resolved(Path(base) / value)
    if target is None or not target.is_relative_to(Path(base).resolve()):
        return Problem(
            where,
            f"'{key}' leads outside {base_name} through a symbolic link",
            expected=f"a file inside {base}",
            found=f"{value} -> {target or 'a loop of symbolic links'}",
            hint="copy the file into the folder instead of linking to it",
        )
    return None


def missing_file_problem(value: str, base: Path, where: str, key: str, what: str) -> Problem:
    """The Problem of ``key``'s file ``value`` (a ``what``) not found in ``base``: the path tried,
    and the closest name of the files of the same suffix in its folder."""
    tried = Path(base) / value
    near = [path.relative_to(base).as_posix() for path in tried.parent.glob(f"*{tried.suffix}")]
    hint = did_you_mean(value, near) or "correct the path or add the file there"
    found = "a folder" if tried.is_dir() else "no such file"
    wanted = f"a {what} at {tried}"
    return Problem(where, f"'{key}' file not found", expected=wanted, found=found, hint=hint)


def require_inside(value, base: Path, where: str, key: str, base_name: str) -> Path:
    """``base / value`` after checking it and every link below it (``path_problem``: a link below
    is named by its path in ``base``) stays inside ``base``; ConfigError if not."""
    problem = path_problem(value, base, where, key, base_name)
    # os.walk does not descend into linked folders; they are checked here (nothing is walked when
    # the target is outside or no folder)
    for current, dirs, files in os.walk(Path(base) / value) if problem is None else ():
        for link in filter(Path.is_symlink, (Path(current, name) for name in dirs + files)):
            inside = link.relative_to(base).as_posix()
            problem = problem or path_problem(inside, base, where, key, base_name)
    if problem is not None:
        raise ConfigError([problem])
    return Path(base) / value


def string_leaves(value, key: str = "") -> Iterator[tuple]:
    """(dotted key, string) for every string inside nested mappings and lists."""
    if isinstance(value, str):
        yield key, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from string_leaves(v, f"{key}.{k}" if key else str(k))
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            yield from string_leaves(v, f"{key}[{i}]")


def lexical_escapes(source, where: str, base_name: str) -> Iterator[Problem]:
    """Problems for every string option of ``source`` that is absolute or climbs with '..' (importers
    join options such as file names and track names to the release folder)."""
    for key, value in string_leaves(source):
        if "\0" in value or (
            ("/" in value or "\\" in value or value == "..") and _escapes_lexically(value)
        ):
            yield _not_relative(where, f"option '{key}' must stay inside {base_name}", value)
