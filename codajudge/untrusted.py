"""Reading what participant code left behind: regular files only, never through a link, bounded.

After a code submission ran, its folders may hold anything its processes could make: a symbolic
link to a host file or to ``/dev/zero``, a named pipe (FIFO) that blocks whoever opens it, a sparse
file of a terabyte, millions of entries, a process still writing. Whatever reads them (the
ingestion program, the local runner) first stops every process of the code (``stop_session``), then
opens a file only through ``open_regular`` (``O_NOFOLLOW | O_NONBLOCK``, then ``fstat`` must say
regular file), reads at most a given number of bytes, and copies a folder only with ``copy_tree``:
regular files and folders, never following a link, bounded in entries and bytes. Anything else
left there is the submission's problem (``SubmissionError``, exit 2).
"""

from __future__ import annotations

import collections
import contextlib
import errno
import os
import stat
import sys
import time
from collections.abc import Container
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, NamedTuple

from .errors import SubmissionError


def _flags(*names: str) -> int:
    """The os.open flags of these names that this system has (all of them on Linux and macOS)."""
    flags = os.O_RDONLY
    for name in names:
        flags |= getattr(os, name, 0)
    return flags


_OPEN_FILE = _flags("O_NOFOLLOW", "O_NONBLOCK", "O_NOCTTY", "O_CLOEXEC", "O_BINARY")
_OPEN_DIR = _flags("O_NOFOLLOW", "O_DIRECTORY", "O_CLOEXEC")
_CHUNK = 1024 * 1024
#: Seconds to wait for the killed processes of a session to be gone.
STOP_WAIT = 5.0


class TreeLimits(NamedTuple):
    """Bounds of a folder copied from what participant code left: entries (files and folders),
    bytes in all, bytes of one file, folder depth."""

    entries: int = 20_000
    total_bytes: int = 4 * 1024**3
    file_bytes: int = 4 * 1024**3
    depth: int = 32


#: A file's kind, by the first letter of ``stat.filemode``, in words for messages.
_KINDS = {
    "l": "a symbolic link",
    "p": "a named pipe (FIFO)",
    "s": "a socket",
    "c": "a character device",
    "b": "a block device",
    "d": "a folder",
    "-": "a regular file",
}


def kind_of(mode: int) -> str:
    """What a file mode is, in words, for messages."""
    return _KINDS.get(stat.filemode(mode)[0], "a special file")


def open_regular(path, dir_fd: int | None = None) -> int:
    """A read-only descriptor of ``path`` if it is a regular file and not a symbolic link; never
    blocks (a FIFO opens at once and is then refused). Raises OSError (EINVAL for a file of
    another kind, ELOOP for a link)."""
    if not hasattr(os, "O_NOFOLLOW") and os.path.islink(path):  # no such flag (Windows)
        raise OSError(errno.ELOOP, "a symbolic link", str(path))
    fd = os.open(path, _OPEN_FILE, dir_fd=dir_fd)
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise OSError(errno.EINVAL, f"{kind_of(mode)}, not a regular file", str(path))
    return fd


def read_head(path, limit: int) -> bytes | None:
    """At most the first ``limit`` bytes of a regular file; None when it is absent, a link or no
    regular file."""
    try:
        fd = open_regular(path)
        with open(fd, "rb") as file:  # closes fd
            return file.read(limit)
    except OSError:
        return None


# ---------------------------------------------------------------- copying


def _mib(size: int) -> str:
    return f"{size / 1024**2:g} MiB"


@dataclass
class _Budget:
    """What a copy from participant code has taken so far (entries and bytes) of its ``limits``;
    ``single``: the copy is of one file."""

    display: str
    limits: TreeLimits
    single: bool = False
    entries: int = 0
    total_bytes: int = 0

    def refuse(self, relative: str, found: str) -> SubmissionError:
        limits = self.limits
        expected = (
            f"a regular file of at most {_mib(limits.file_bytes)}"
            if self.single
            else f"regular files and folders only (at most {limits.entries} entries, "
            f"{_mib(limits.total_bytes)} in all, {_mib(limits.file_bytes)} per file)"
        )
        return SubmissionError.single(
            self.display,
            f"'{relative}' cannot be kept",
            expected=expected,
            found=found,
            hint="write plain files only: no symbolic links, named pipes or devices, and "
            "nothing larger than these bounds",
        )

    def take(self, relative: str, size: int) -> None:
        self.entries += 1
        self.total_bytes += size
        if self.entries > self.limits.entries:
            raise self.refuse(relative, f"more than {self.limits.entries} entries")
        if size > self.limits.file_bytes:
            raise self.refuse(relative, f"a file of {size} bytes")
        if self.total_bytes > self.limits.total_bytes:
            raise self.refuse(relative, f"{self.total_bytes} bytes in all, up to this file")


def _copy_fd(fd: int, target: Path, relative: str, budget: _Budget) -> None:
    """Copy an open regular file (``fd``, closed here), refusing it as soon as it passes the
    budget (its size is checked before reading, and the bytes read are counted again in case it
    grows); nothing of a refused file is left at ``target``."""
    with open(fd, "rb") as source:
        budget.take(relative, os.fstat(fd).st_size)
        left = budget.limits.file_bytes + 1
        with open(target, "xb") as out:
            while left > 0:
                chunk = source.read1(min(left, _CHUNK))
                if not chunk:
                    return
                out.write(chunk)
                left -= len(chunk)
    os.unlink(target)
    raise budget.refuse(relative, "a file that grew while it was copied")


def copy_regular(
    source: Path, target: Path, display: str, limits: TreeLimits = TreeLimits()
) -> None:
    """Copy one regular file left by participant code (not through a link, bounded by
    ``limits.file_bytes``); a file of another kind is the submission's problem."""
    budget = _Budget(display, limits, single=True)
    try:
        fd = open_regular(source)
    except OSError as error:
        raise budget.refuse(Path(source).name, _why(error)) from None
    _copy_fd(fd, Path(target), Path(source).name, budget)


def _why(error: OSError) -> str:
    return "a symbolic link" if error.errno == errno.ELOOP else (error.strerror or str(error))


def copy_tree(source: Path, target: Path, display: str, limits: TreeLimits = TreeLimits()) -> None:
    """Copy the folder ``source`` left by participant code to the new folder ``target``: regular
    files and folders only, never through a link, within ``limits``. Anything else is refused
    with a ``SubmissionError`` naming the entry."""
    budget = _Budget(display, limits)
    try:
        root = os.open(source, _OPEN_DIR)
    except OSError as error:
        raise budget.refuse(".", _why(error)) from None
    Path(target).mkdir(parents=True)
    _copy_folder(root, Path(target), "", 0, budget)


def _copy_folder(dir_fd: int, folder: Path, prefix: str, depth: int, budget: _Budget) -> None:
    """Copy the open folder ``dir_fd`` (closed here) into ``folder``: its files, then its
    sub-folders, the last one first."""
    below = []
    try:
        for name in sorted(os.listdir(dir_fd)):
            relative = prefix + name
            mode = os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode
            if stat.S_ISDIR(mode) and depth < budget.limits.depth:
                budget.take(relative + "/", 0)
                (folder / name).mkdir()
                below.append(name)
            elif stat.S_ISREG(mode):
                _copy_fd(open_regular(name, dir_fd=dir_fd), folder / name, relative, budget)
            else:
                found = "folders nested too deep" if stat.S_ISDIR(mode) else kind_of(mode)
                raise budget.refuse(relative, found)
        for name in reversed(below):
            sub_fd = os.open(name, _OPEN_DIR, dir_fd=dir_fd)
            _copy_folder(sub_fd, folder / name, f"{prefix}{name}/", depth + 1, budget)
    except OSError as error:  # changed under us: a link or FIFO put in place of what was listed
        raise budget.refuse(prefix or ".", _why(error)) from None
    finally:
        os.close(dir_fd)


# ---------------------------------------------------------------- pruning


def tree_entries(folder: Path) -> set[tuple[str, int, int]]:
    """(relative path, inode, modification time in ns) of every entry below ``folder`` (links
    listed, never followed); none when ``folder`` is no folder. An entry rewritten or replaced
    since has another inode or time: ``prune_tree`` keeps only the entries given unchanged. At
    most ``TreeLimits().entries`` are listed: a folder beyond that is refused by ``prune_tree``."""
    found = set()
    for current, folders, files in os.walk(folder):
        for name in folders + files:
            if len(found) >= TreeLimits().entries:
                return found
            path = os.path.join(current, name)
            with contextlib.suppress(OSError):  # gone meanwhile
                info = os.lstat(path)
                found.add((os.path.relpath(path, folder), info.st_ino, info.st_mtime_ns))
    return found


def prune_tree(
    folder: Path, unwanted: Callable[[str], bool], display: str, kept: Container = frozenset()
) -> list[tuple[str, str]]:
    """Remove from ``folder`` every entry that is neither a regular file nor a folder (links,
    FIFOs, sockets, devices: never followed) and every regular file whose name ``unwanted``
    accepts, but the entries ``kept`` lists as they are (``tree_entries``); more than
    ``TreeLimits().entries`` entries is the submission's problem (named ``display``), refused as
    ``copy_tree`` refuses it. Returns (relative path, what it was) of each removed entry."""
    removed, budget = [], _Budget(display, TreeLimits())
    for current, folders, files in os.walk(folder):  # links are listed, never followed
        for name in folders + files:
            path = os.path.join(current, name)
            relative = os.path.relpath(path, folder)
            budget.take(relative, 0)
            try:
                info = os.lstat(path)
            except OSError:  # gone, or in a folder that can be listed but not searched
                continue
            mode = info.st_mode
            if stat.S_ISDIR(mode) or (stat.S_ISREG(mode) and not unwanted(name)):
                continue
            if (relative, info.st_ino, info.st_mtime_ns) in kept:
                continue
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)
                removed.append((relative, kind_of(mode)))
    return removed


def remove_entry(path: Path) -> str | None:
    """Remove whatever is at ``path`` (a folder with its contents, a link itself, a file);
    returns what it was, or None when nothing was there."""
    import shutil

    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    (shutil.rmtree if stat.S_ISDIR(mode) else os.unlink)(path)
    return kind_of(mode)


# ---------------------------------------------------------------- processes


#: A process as /proc/PID/stat tells it: its id, its parent's, its group's and its session's.
_Process = collections.namedtuple("_Process", "pid parent group session")


def _processes() -> list[_Process]:
    """Every live process (zombies aside) this user can see, from /proc (Linux; none elsewhere)."""
    found = []
    listed = os.listdir("/proc") if os.path.isdir("/proc") else []
    for name in filter(str.isdigit, listed):  # one folder per process id
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                fields = f.read(4096).rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[0] != b"Z":
            found.append(_Process(int(name), int(fields[1]), int(fields[2]), int(fields[3])))
    return found


def stop_tree(root: int, spared: frozenset[int] = frozenset()) -> None:
    """Kill ``root``, every process descended from it (but ``spared`` children of ``root`` and
    theirs) and the sessions and process groups they lead or belong to (a child that runs
    participant code in a session of its own included), while ``root`` still lives, so that the
    line of descent can still be followed."""
    children: dict = {}
    for process in _processes():
        children.setdefault(process.parent, []).append(process)
    groups, pending = {root}, [root]
    while pending:
        for process in children.get(pending.pop(), []):
            if process.pid not in groups and process.pid not in spared:
                groups.update((process.pid, process.group, process.session))
                pending.append(process.pid)
    for leader in sorted(groups - {os.getpid(), os.getpgrp(), os.getsid(0)}):
        stop_session(leader)


def stop_session(leader: int) -> None:
    """Kill every process of the session (and process group) that ``leader`` started with
    ``setsid``, and wait until they are gone, so that nothing writes while its files are read.
    A process that left the session with its own ``setsid`` is out of reach here: ``adopting``
    reaches it (on Linux), and the sandbox (or the platform's container) ends it with the step."""
    if not hasattr(os, "killpg"):  # no process groups (Windows): nothing more to stop
        return
    import signal  # here, not above: the scoring program reads files through this module only

    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(leader, signal.SIGKILL)
    deadline = time.monotonic() + STOP_WAIT
    own = os.getpid()  # this process is never one to kill
    while time.monotonic() < deadline:
        members = [p.pid for p in _processes() if leader in (p.group, p.session) and p.pid != own]
        if not members:
            return
        for pid in members:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.02)


def wait_then_stop(process, time_limit: float | None) -> bool:
    """Wait for ``process`` (a ``subprocess.Popen`` started in a session of its own) for at most
    ``time_limit`` seconds (None: no limit), then kill it and every process of its session
    (``stop_session``; past the limit, its descendants in other sessions too: ``stop_tree``) and
    reap it, so that nothing it started still writes when its files are read. True when it ran past
    the limit."""
    import subprocess  # here, not above: the scoring program reads files through this module only

    try:
        process.wait(timeout=time_limit)
        timed_out = False
    except subprocess.TimeoutExpired:
        stop_tree(process.pid)  # while it lives: a reaped pid may be another process's
        timed_out = True
    stop_session(process.pid)
    if process.poll() is None:  # no process groups to kill (Windows)
        process.kill()
    process.wait()
    return timed_out


def _children() -> frozenset[int]:
    """The child processes of this one, zombies included, from the kernel's list of each of its
    threads (one small read each: fast enough to catch a chain of forks in flight); from a scan of
    /proc (live ones only) where the kernel has no such list."""
    if not os.path.exists(f"/proc/self/task/{os.getpid()}/children"):
        return frozenset(p.pid for p in _processes() if p.parent == os.getpid())
    found = set()
    for task in os.listdir("/proc/self/task"):
        # a thread that ended meanwhile has no list to read
        with contextlib.suppress(OSError), open(f"/proc/self/task/{task}/children", "rb") as listed:
            found.update(map(int, listed.read().split()))
    return frozenset(found)


def _prctl(option: int, value: int) -> bool:
    """Linux's ``prctl(option, value)`` for this process: whether it succeeded (False where there
    is none: not Linux)."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes  # here, not above: the scoring program reads files through this module only

    try:
        return ctypes.CDLL(None).prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):  # no C library to load, or no prctl in it
        return False


def _stop_adopted(spared: frozenset[int]) -> None:
    """While this process is a child subreaper: kill and reap its children but ``spared`` until
    none is left (a descendant whose parent was killed is adopted, and the next round kills it);
    a line of processes still starting new ones after STOP_WAIT seconds is the submission's
    problem (SubmissionError)."""
    import signal  # here, not above: the scoring program reads files through this module only

    deadline = time.monotonic() + STOP_WAIT
    while left := _children() - spared:
        if time.monotonic() > deadline:
            raise SubmissionError.single(
                "code submission",
                "your code left processes that kept starting new ones; they could not be stopped",
                expected="every process your code starts ended with it, or ended when killed",
                found=f"processes still forking {STOP_WAIT:g} s after the kit began to kill them",
                hint="wait for (join) every process your code starts before predict() returns; "
                "no predictions are kept from such a run",
            )
        for pid in left:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, os.WNOHANG)  # killed or ended: reaped, not left as a zombie


@contextlib.contextmanager
def adopting():
    """While inside, this process adopts the orphans among its descendants (it is Linux's child
    subreaper: a descendant whose parent ends is re-parented to it, not to init, whatever session
    or group it moved to); on leaving, it kills every process descended from it but its children
    from before and theirs, until none is left (``_stop_adopted``; a chain of forks, each into a
    session of its own, included), so that nothing started inside outlives it, and only then stops
    adopting. Where adoption is unavailable, it kills the descendants it can find (``stop_tree``);
    a process that left its parent and session is then out of reach (only a sandbox or container
    ends it).
    On entering, this process also makes itself non-dumpable (Linux): a process of the same user
    without CAP_SYS_PTRACE, such as a descendant running participant code, can then no more open
    its /proc/PID entries (its stdout, its memory); a descendant is dumpable again once it runs a
    new program (exec)."""
    before = _children()
    _prctl(4, 0)  # PR_SET_DUMPABLE of <linux/prctl.h>, for good: see the docstring
    adopted = _prctl(36, 1)  # PR_SET_CHILD_SUBREAPER of <linux/prctl.h> (False: not Linux)
    try:
        yield
    finally:
        if adopted:
            try:
                _stop_adopted(before)
            finally:
                _prctl(36, 0)  # no longer the child subreaper
        else:
            stop_tree(os.getpid(), spared=before)
