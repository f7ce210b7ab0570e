"""The local prediction step in a sandbox: bubblewrap (``bwrap``) when the machine has a working one.

Organisers re-run participants' code on their own machines, where the audit hook of
``guard_site`` is only a guard against mistakes (``os.link`` + ``open``, ``ctypes`` or a child
program get round it). Inside the sandbox the code sees only what the step needs, at Codabench's paths:

- ``/app/program`` (the ingestion program), ``/app/input_data`` (the phase's public input) and
  ``/app/ingested_program`` (the submission), read-only; ``/app/output`` and ``/app/shared``
  writable, and a private ``/tmp``;
- the system's programs and libraries and the Python installation running the kit, read-only;
- no network, no other process (its own pid namespace and ``/proc``: bwrap's own process there,
  pid 1, holds none of the step's streams), no capabilities, a fresh session, an environment of
  its own; it dies with the runner.

The bundle (its scoring program and reference data), the runner's work folder and the rest of the
file system are absent. ``CODAJUDGE_BWRAP`` names the bwrap binary (default: ``bwrap`` on PATH);
``none`` turns the sandbox off.

``LIMITS`` bound what the code may take (memory, size of a file, /tmp, processes), each overridable
by its environment variable. The rlimits are set inside the sandbox, after bwrap made its user
namespace and before the step's command starts (``LIMITER``): the process count is then that of
the sandbox's namespace, not of the user's other processes. /tmp's size is bwrap's ``--size``.
Neither CPU nor the disk beyond single files is bounded (no cgroups): see docs/participant-checks.md.
"""

from __future__ import annotations

import errno
import functools
import os
import shutil
import site
import subprocess
import sys
from pathlib import Path
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..errors import UsageError

BWRAP_ENV = "CODAJUDGE_BWRAP"
#: System folders the interpreter and its libraries may need (mounted read-only when present).
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
#: The few files of /etc that programs read at start (dynamic linker, users, locale, time zone).
ETC_FILES = (
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/alternatives",
    "/etc/passwd",
    "/etc/group",
    "/etc/nsswitch.conf",
    "/etc/localtime",
    "/etc/locale.alias",
    "/etc/mime.types",
)
#: The step's folders inside the sandbox: those the code reads, and those it may write.
APP_READ_ONLY = ("/app/program", "/app/input_data", "/app/ingested_program")
APP_WRITABLE = ("/app/output", "/app/shared")
#: bwrap's options that isolate the step: no namespace shared with the host, no capabilities, a
#: session of its own, its own /proc, /dev and /tmp, and an empty /app for the step's folders.
ISOLATION = (
    "--unshare-all --die-with-parent --new-session --cap-drop ALL "
    "--proc /proc --dev /dev --tmpfs /app"
)
#: How to get the sandbox.
INSTALL_HINT = "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap)"
UNISOLATED_NOTE = (
    "the prediction step ran without isolation ({reason}): the submitted code could read and "
    f"change any file this user can. To run it in a sandbox, {INSTALL_HINT}."
)


#: How Python says a thread could not start (a stack past the memory limit, or the process limit).
THREAD_REFUSED = "can't start new thread"
#: The largest value a limit takes (in its unit): the kernel's rlimits are C longs of bytes.
LARGEST_LIMIT = 2**30


@dataclass(frozen=True)
class Limit:
    """A bound on what the step's code may take: ``env`` holds its value (MiB, or a count for
    processes) when the organiser sets one; ``rlimit``: the resource.RLIMIT_* name it sets (None:
    /tmp, bwrap's ``--size``); ``errors``: what the code sees past it (each an exception class with,
    for an OSError, its errno, or the start of its message); ``advice``: what a participant can do
    about it."""

    name: str
    env: str
    default: int
    unit: str
    rlimit: str | None
    errors: tuple[tuple[type, int | str | None], ...]
    advice: str

    def value(self) -> int:
        """The limit here: its environment variable's whole number > 0, else the default."""
        text = os.environ.get(self.env, "").strip()
        if not text:
            return self.default
        whole = text.isascii() and text.isdigit()  # "²" is a digit that int() refuses
        if not whole or not 0 < int(text) <= LARGEST_LIMIT:
            raise UsageError.single(
                self.env,
                f"not a limit of the sandbox's {self.name}",
                expected=f"a whole number of {self.unit} from 1 to {LARGEST_LIMIT}",
                found=repr(text[:40]),
                hint=f"unset it for the default ({self.default} {self.unit})",
            )
        return int(text)

    def amount(self) -> int:
        """The limit as the kernel takes it (bytes, or processes), refused where it is above this
        system's hard limit of its rlimit, which the sandbox cannot raise."""
        amount = self.value() * 1024**2 if self.unit == "MiB" else self.value()
        hard = _hard_limit(self.rlimit)
        if hard is not None and amount > hard:
            most = hard // 1024**2 if self.unit == "MiB" else hard
            raise UsageError.single(
                self.env,
                f"above this system's hard limit of the sandbox's {self.name}",
                expected=f"at most {most} {self.unit}",
                found=f"{self.value()} {self.unit}",
                hint=f"set it to {most} or less, or unset it (default {self.default} {self.unit})",
            )
        return amount

    def raised_by(self, error: BaseException) -> bool:
        return any(_is_error(error, kind, detail) for kind, detail in self.errors)


def _hard_limit(rlimit: str | None) -> int | None:
    """This system's hard limit of ``rlimit`` (a resource.RLIMIT_* name), None where it has none."""
    if rlimit is None:
        return None
    import resource  # here: not on every platform, and only the sandbox sets rlimits

    hard = resource.getrlimit(getattr(resource, rlimit))[1]
    return None if hard == resource.RLIM_INFINITY else hard


def _is_error(error: BaseException, kind: type, detail: int | str | None) -> bool:
    """Whether ``error`` is a ``kind`` with ``detail``: its errno, the start of its message, or any."""
    if not isinstance(error, kind):
        return False
    if isinstance(detail, str):
        return str(error).startswith(detail)
    return detail is None or getattr(error, "errno", 0) == detail


#: What the sandboxed step may take. Memory is RLIMIT_DATA (the heap and private writable
#: mappings), not RLIMIT_AS: numpy, BLAS and torch reserve address space they never use.
LIMITS = (
    Limit(
        "memory",
        "CODAJUDGE_LIMIT_MEMORY_MIB",
        8192,
        "MiB",
        "RLIMIT_DATA",
        ((MemoryError, None), (RuntimeError, THREAD_REFUSED)),
        "use less memory (a smaller model, smaller batches, fewer copies of the data)",
    ),
    Limit(
        "file size",
        "CODAJUDGE_LIMIT_FILE_MIB",
        1024,
        "MiB",
        "RLIMIT_FSIZE",
        ((OSError, errno.EFBIG),),
        "write smaller files: return the predictions, the kit writes them",
    ),
    Limit(
        "/tmp size",
        "CODAJUDGE_LIMIT_TMP_MIB",
        1024,
        "MiB",
        None,
        ((OSError, errno.ENOSPC),),
        "keep less under /tmp (it is held in memory): delete what you no longer need",
    ),
    Limit(
        "processes",
        "CODAJUDGE_LIMIT_PROCESSES",
        256,
        "processes",
        "RLIMIT_NPROC",
        ((OSError, errno.EAGAIN), (RuntimeError, THREAD_REFUSED)),
        "start fewer processes or threads (a smaller pool, or none)",
    ),
)
#: Run inside the sandbox before the step's command: set the rlimits the environment names, take
#: the step's streams (a pair of numbers: the descriptor passed through bwrap becomes the second),
#: then become the command. Standard library only, as nothing of the kit is imported yet.
LIMITER = """
import os, resource, sys
end = sys.argv.index("--")
for name, value in zip(sys.argv[1:end:2], sys.argv[2:end:2]):
    if name.isdigit():
        os.dup2(int(name), int(value))
        os.close(int(name))
    else:
        resource.setrlimit(getattr(resource, name), (int(value), int(value)))
os.execvp(sys.argv[end + 1], sys.argv[end + 1 :])
"""
#: How a line that reached bwrap's own stderr is shown in the step's stderr: bwrap's process in the
#: sandbox (its pid 1) holds that stream, which the code can open through /proc/1/fd/2.
BWRAP_PREFIX = "[bwrap or your code] "


#: The process limit as the kernel applies it: never to the host's root, whose processes the
#: sandbox's are (its user namespace maps root to root).
ROOT_NOTE = (
    "the prediction step runs as root: the sandbox's process limit (CODAJUDGE_LIMIT_PROCESSES) "
    "does not hold for root; run the kit as another user for it to hold"
)


def limit_hint(error: BaseException) -> str | None:
    """What to do about ``error`` when a limit of the sandbox raised it: which one, how an organiser
    raises it, what a participant can do. None outside the sandbox (on Codabench, the platform's
    container is the limit), where its environment variables are not set."""
    hints = [
        f"the local sandbox's {limit.name} limit is {limit.value()} {limit.unit}, which "
        f"this may have passed: {limit.advice}; an organiser raises it with {limit.env}=N"
        for limit in LIMITS
        if limit.env in os.environ and limit.raised_by(error)
    ]
    return "; or ".join(hints) or None


def limits_in_force() -> str | None:
    """The sandbox's limits as the step's environment holds them, for a step that stopped without
    saying why; None outside the sandbox (on Codabench)."""
    held = [limit for limit in LIMITS if os.environ.get(limit.env, "").strip()]
    said = [f"{limit.name}: {limit.value()} {limit.unit} ({limit.env})" for limit in held]
    if not said:
        return None
    return "the local sandbox's limits, which an organiser raises with these variables: " + (
        ", ".join(said)
    )


#: CODAJUDGE_BWRAP's values that turn the sandbox off.
TURNED_OFF = ("", "none", "off", "0")


def bwrap_binary() -> str | None:
    """The bwrap CODAJUDGE_BWRAP names (default ``bwrap``) as PATH finds it, or None when it is
    not installed (whether it turns the sandbox off is ``probe``'s)."""
    return shutil.which(os.environ.get(BWRAP_ENV, "bwrap"))


def interpreter() -> str:
    """The running Python as the sandbox starts it: its folder's links resolved, as that folder is
    mounted (a project's ``.venv`` that links to an environment elsewhere), its own name kept (a
    virtual environment's python finds its ``pyvenv.cfg`` from there)."""
    folder = os.path.realpath(os.path.dirname(sys.executable))
    return os.path.join(folder, os.path.basename(sys.executable))


def _system_mounts() -> list[tuple[str, str, str]]:
    """(bwrap option, source, target) of the read-only mounts: the system's folders and files
    (links such as /bin -> usr/bin stay links), then the folders of the running Python
    installation (interpreter, standard library, site-packages)."""
    mounts = []
    for path in SYSTEM_DIRS + ETC_FILES:
        if os.path.islink(path):
            mounts.append(("--symlink", os.readlink(path), path))
        elif os.path.exists(path):
            mounts.append(("--ro-bind", path, path))
    prefixes = (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix)
    python = {*prefixes, os.path.dirname(os.path.realpath(sys.executable)), *site.getsitepackages()}
    if site.ENABLE_USER_SITE:
        python.add(site.getusersitepackages())
    folders = sorted(os.path.realpath(p) for p in python if p and os.path.isdir(p))
    return mounts + [("--ro-bind", folder, folder) for folder in folders]


def exposed_secret(secrets: Iterable[Path]) -> str | None:
    """A reason not to sandbox: a mount the sandbox needs would contain one of ``secrets``."""
    secrets = [Path(os.path.realpath(s)) for s in secrets]
    for _, source, _target in (m for m in _system_mounts() if m[0] == "--ro-bind"):
        for secret in secrets:
            if secret.is_relative_to(os.path.realpath(source)):
                return f"the bundle's {secret.name} lies inside {source}, which the sandbox would expose"
    return None


def command(
    bwrap: str,
    args: Sequence[str],
    root: Path | None,
    limited: bool = True,
    streams: Sequence[int] = (),
) -> list[str]:
    """The bwrap command running ``args`` (with /app paths) in a sandbox that mounts the
    ``APP_READ_ONLY`` and ``APP_WRITABLE`` folders found in the step's folder ``root`` (its
    ``app/...``; None: none), in an environment of its own, under the ``LIMITS`` unless not
    ``limited`` (``probe``: whether bwrap works is not a question of the step's limits).
    ``streams``: the descriptors (passed to bwrap, not its own stdio) the command takes as its
    stdout and stderr when ``limited``: bwrap's process in the sandbox, whose descriptors the code
    can open through /proc/1/fd, keeps only its stdio, so it holds neither (``local.run_step``)."""
    out = [bwrap, *ISOLATION.split(), *_tmp_size(bwrap), "--tmpfs", "/tmp"]
    out += [part for mount in _system_mounts() for part in mount]
    for target in APP_READ_ONLY + APP_WRITABLE if root is not None else ():
        if os.path.isdir(f"{root}{target}"):
            bind = "--bind" if target in APP_WRITABLE else "--ro-bind"
            out += [bind, f"{root}{target}", target]
    out += ["--chdir", "/app/program" if root is not None else "/", "--clearenv"]
    # the step's whole environment: nothing of the runner's but the locale
    locale = {key: os.environ[key] for key in ("LANG", "LC_ALL", "LC_CTYPE") if os.environ.get(key)}
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": "/tmp",
        "TMPDIR": "/tmp",
        "PYTHONUNBUFFERED": "1",
        **locale,
        **{limit.env: str(limit.value()) for limit in LIMITS if limited},
    }
    for key, value in sorted(env.items()):
        out += ["--setenv", key, value]
    program = [interpreter() if args[0] == sys.executable else args[0]]
    if not limited:
        return out + ["--"] + program + list(args[1:])
    if os.geteuid() == 0:
        warn_once(ROOT_NOTE)
    # LIMITER's pairs: an rlimit's name and amount, or a descriptor and the number it becomes
    rlimits = [(limit.rlimit, str(limit.amount())) for limit in LIMITS if limit.rlimit]
    moved_streams = [(str(fd), str(number)) for number, fd in enumerate(streams, start=1)]
    pairs = [part for pair in rlimits + moved_streams for part in pair]
    limiter = [interpreter(), "-c", LIMITER, *pairs, "--"]
    return out + ["--"] + limiter + program + list(args[1:])


def _tmp_size(bwrap: str) -> list[str]:
    """bwrap's options bounding the next tmpfs to the /tmp limit, where this bwrap has ``--size``
    (0.8.0 on); else none, said once on stderr."""
    if not _has_size_option(bwrap):
        warn_once(
            "this bubblewrap has no --size option (0.8.0 and later have it): the sandbox's /tmp "
            "is bounded only by the machine's memory"
        )
        return []
    tmp = next(limit for limit in LIMITS if limit.rlimit is None)
    return ["--size", str(tmp.amount())]


@functools.lru_cache(maxsize=4)
def _has_size_option(bwrap: str) -> bool:
    try:
        done = subprocess.run([bwrap, "--help"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return "--size" in done.stdout + done.stderr


def probe() -> str | None:
    """None if bwrap can run the kit's Python in a sandbox here, else the reason it cannot
    (turned off or not installed, as the environment says now; user namespaces refused, ...)."""
    if os.environ.get(BWRAP_ENV, "bwrap").lower() in TURNED_OFF:
        return "turned off by CODAJUDGE_BWRAP"
    bwrap = bwrap_binary()
    return "bubblewrap (bwrap) is not installed" if bwrap is None else _probe_binary(bwrap)


@functools.lru_cache(maxsize=4)
def _probe_binary(bwrap: str) -> str | None:
    """``probe`` of an installed bwrap: it runs the kit's Python once per process."""
    args = command(bwrap, [sys.executable, "-c", "import numpy"], None, limited=False)
    try:
        done = subprocess.run(args, capture_output=True, text=True, errors="replace", timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"bwrap cannot start: {e}"
    if done.returncode != 0:
        detail = (done.stderr.strip().splitlines() or ["no message"])[-1][:200]
        return f"bwrap does not work on this machine: {detail}"
    return None


_warned: list[str] = []


def warn_once(note: str) -> None:
    """Say ``note`` on stderr, once per process."""
    if note not in _warned:
        print(f"note: {note}", file=sys.stderr)
        _warned.append(note)


def make_read_only(folder: Path) -> None:
    """Remove write permission from a copied tree (files and folders), so that nothing left running
    by the prediction step changes it by accident. (It stops no process of the same user that
    means to: that is what the sandbox is for.)"""
    for root, dirs, files in os.walk(folder):
        for name in files:
            path = os.path.join(root, name)
            if not os.path.islink(path):
                os.chmod(path, 0o444)
        os.chmod(root, 0o555)
