"""``codajudge.untrusted``: what participant code left is read as regular files only, never through
a link, never blocking, bounded in entries and bytes; its processes are stopped first (issue 22,
items 3, 4, 7)."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from codajudge.errors import SubmissionError
from codajudge.programs.status import read_small_text
from codajudge import untrusted
from codajudge.untrusted import (
    TreeLimits,
    copy_regular,
    copy_tree,
    open_regular,
    prune_tree,
    read_head,
    adopting,
    remove_entry,
    stop_session,
)

TIB = 1 << 40


def sparse(path: Path, size: int = TIB) -> Path:
    """A file of ``size`` bytes that takes no disk space (``truncate``)."""
    with open(path, "wb") as f:
        f.truncate(size)
    return path


def test_a_regular_file_is_read_within_its_bound(tmp_path):
    (tmp_path / "a.txt").write_bytes(b"x" * 300)
    assert read_head(tmp_path / "a.txt", 200) == b"x" * 200
    assert read_small_text(tmp_path / "a.txt", 300) == "x" * 300
    assert read_small_text(tmp_path / "a.txt", 299) is None
    assert read_head(tmp_path / "absent", 10) is None


def test_a_fifo_is_refused_at_once_without_blocking(tmp_path):
    os.mkfifo(tmp_path / "pipe")
    started = time.monotonic()
    assert (
        read_head(tmp_path / "pipe", 10) is None and read_small_text(tmp_path / "pipe", 10) is None
    )
    with pytest.raises(OSError, match="named pipe"):
        open_regular(tmp_path / "pipe")
    assert time.monotonic() - started < 2


@pytest.mark.parametrize("target", ["/dev/zero", "/etc/hostname", "file"])
def test_a_link_is_never_followed(tmp_path, target):
    (tmp_path / "file").write_text("secret")
    (tmp_path / "link").symlink_to(target if target.startswith("/") else tmp_path / target)
    assert read_head(tmp_path / "link", 10) is None


def test_a_sparse_terabyte_is_not_read(tmp_path):
    big = sparse(tmp_path / "big")
    started = time.monotonic()
    assert read_small_text(big, 1024 * 1024) is None
    assert read_head(big, 100) == b"\0" * 100
    with pytest.raises(SubmissionError, match="a file of 1099511627776 bytes"):
        copy_regular(big, tmp_path / "copy", "code submission")
    assert time.monotonic() - started < 5 and not (tmp_path / "copy").exists()


def _tree(root: Path) -> Path:
    (root / "inner" / "deeper").mkdir(parents=True)
    (root / "a.tsv").write_text("a\t1\n")
    (root / "inner" / "deeper" / "b.txt").write_text("b")
    return root


def test_a_tree_of_regular_files_is_copied_as_it_is(tmp_path):
    source = _tree(tmp_path / "source")
    copy_tree(source, tmp_path / "copy", "the output")
    copied = sorted(str(p.relative_to(tmp_path / "copy")) for p in (tmp_path / "copy").rglob("*"))
    assert copied == ["a.tsv", "inner", "inner/deeper", "inner/deeper/b.txt"]
    assert (tmp_path / "copy" / "inner" / "deeper" / "b.txt").read_text() == "b"


def _host_secret(tmp_path: Path) -> Path:
    secret = tmp_path / "host" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text("HOST SECRET")
    return secret


@pytest.mark.parametrize(
    "make, found",
    [
        (lambda p, s: (p / "inner" / "stolen.tsv").symlink_to(s), "a symbolic link"),
        (lambda p, s: (p / "stolen").symlink_to(s.parent), "a symbolic link"),
        (lambda p, s: (p / "root").symlink_to("/"), "a symbolic link"),
        (lambda p, s: (p / "zero.tsv").symlink_to("/dev/zero"), "a symbolic link"),
        (lambda p, s: os.mkfifo(p / "inner" / "pipe"), "a named pipe (FIFO)"),
        (lambda p, s: sparse(p / "huge.tsv"), "a file of 1099511627776 bytes"),
    ],
)
def test_anything_but_regular_files_and_folders_is_refused_by_name(tmp_path, make, found):
    source = _tree(tmp_path / "source")
    make(source, _host_secret(tmp_path))
    started = time.monotonic()
    with pytest.raises(SubmissionError) as caught:
        copy_tree(source, tmp_path / "copy", "the prediction output (/app/output)")
    message = caught.value.render()
    assert message.startswith("the prediction output (/app/output): '") and found in message
    assert "expected regular files and folders only (at most 20000 entries" in message
    assert time.monotonic() - started < 5
    copied = [p.read_bytes() for p in (tmp_path / "copy").rglob("*") if p.is_file()]
    assert all(b"HOST SECRET" not in data and len(data) < 100 for data in copied)


def test_a_linked_root_is_refused(tmp_path):
    (tmp_path / "link").symlink_to(_tree(tmp_path / "source"))
    with pytest.raises(SubmissionError, match="'.' cannot be kept"):
        copy_tree(tmp_path / "link", tmp_path / "copy", "the output")


@pytest.mark.parametrize(
    "limits, found",
    [
        (TreeLimits(entries=3), "more than 3 entries"),
        (TreeLimits(total_bytes=4), "5 bytes in all"),
        (TreeLimits(file_bytes=3), "a file of 4 bytes"),
        (TreeLimits(depth=1), "folders nested too deep"),
    ],
)
def test_a_tree_beyond_its_bounds_is_refused(tmp_path, limits, found):
    source = _tree(tmp_path / "source")
    with pytest.raises(SubmissionError, match=found):
        copy_tree(source, tmp_path / "copy", "the output", limits)


def test_pruning_removes_links_fifos_and_unwanted_names_and_keeps_the_rest(tmp_path):
    root = _tree(tmp_path / "out")
    (root / "inner" / "page.HTM").write_text("<html>")
    (root / "kept.html").mkdir()  # a folder of that name is no page
    (root / "link").symlink_to("/etc")
    os.mkfifo(root / "inner" / "pipe")
    removed = prune_tree(root, lambda name: name.lower().endswith((".html", ".htm")), "the output")
    assert sorted(removed) == [
        ("inner/page.HTM", "a regular file"),
        ("inner/pipe", "a named pipe (FIFO)"),
        ("link", "a symbolic link"),
    ]
    assert os.path.exists("/etc") and (root / "kept.html").is_dir() and (root / "a.tsv").is_file()


def test_remove_entry_removes_a_folder_a_link_and_a_file(tmp_path):
    (tmp_path / "dir" / "sub").mkdir(parents=True)
    (tmp_path / "target").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "target")
    assert remove_entry(tmp_path / "dir") == "a folder"
    assert remove_entry(tmp_path / "link") == "a symbolic link" and (tmp_path / "target").is_dir()
    assert remove_entry(tmp_path / "absent") is None


def test_stopping_a_session_ends_its_forks(tmp_path):
    code = (
        "import os, time\n"
        "if os.fork() == 0:\n"
        f"    open({str(tmp_path / 'pid')!r}, 'w').write(str(os.getpid()))\n"
        "    time.sleep(60)\n"
        "os._exit(0)\n"
    )
    child = subprocess.Popen([sys.executable, "-c", code], start_new_session=True)
    child.wait(timeout=30)
    for _ in range(200):
        if (tmp_path / "pid").is_file() and (tmp_path / "pid").read_text():
            break
        time.sleep(0.05)
    fork = int((tmp_path / "pid").read_text())
    stop_session(child.pid)
    assert not _alive(fork)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
    except OSError:
        return False
    return state != b"Z"


def _start_fork_chain(until: float, marker: Path) -> None:
    """Start a line of processes, each forking the next into a session of its own and ending at
    once (faster than a scan of /proc), until the time ``until`` (``time.time()``); its last one
    then writes ``marker`` (appends a line)."""
    code = (
        "import os, sys, time\n"
        "while time.time() < float(sys.argv[1]):\n"
        "    if os.fork():\n"
        "        os._exit(0)\n"
        "    os.setsid()\n"
        "open(sys.argv[2], 'a').write('escaped\\n')\n"
    )
    subprocess.run([sys.executable, "-c", code, str(until), str(marker)], check=True)
    time.sleep(0.1)  # the chain is well under way


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="adoption needs Linux's /proc")
def test_a_chain_of_forks_into_new_sessions_does_not_outlive_adopting(tmp_path):
    marker = tmp_path / "marker"
    until = time.time() + 3.0  # the chains' end, whenever each starts
    with adopting():
        for _ in range(3):  # each may slip through a round that kills too slowly
            _start_fork_chain(until, marker)
    stopped = time.time()
    assert not untrusted._children()
    if stopped >= until:  # the chains ended on their own before they were stopped
        pytest.skip("starting the chains took their whole life on this loaded machine")
    time.sleep(until - stopped + 0.5)
    assert not marker.exists()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="adoption needs Linux's /proc")
def test_a_chain_of_forks_still_moving_at_the_deadline_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(untrusted, "STOP_WAIT", 0.0)
    with pytest.raises(SubmissionError, match="kept starting new ones; they could not be stopped"):
        with adopting():
            _start_fork_chain(time.time() + 0.5, tmp_path / "marker")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="prctl and /proc are Linux's")
def test_code_run_inside_adopting_cannot_open_the_programs_own_stdout():
    """Inside ``adopting`` the program is not dumpable: its child, of the same user and as
    capable (without CAP_SYS_PTRACE, as in Docker's default capabilities; dropped here for both
    when run as root), cannot open /proc/PPID/fd/1 to write unprefixed lines into the program's
    log, or truncate it."""
    attack = "import os; open(f'/proc/{os.getppid()}/fd/1', 'w').write('FORGED')"
    program = (
        "import subprocess, sys\nfrom codajudge.untrusted import adopting\n"
        f"with adopting():\n    subprocess.run([sys.executable, '-c', {attack!r}])\n"
    )
    no_ptrace = ["setpriv", "--inh-caps=-sys_ptrace", "--bounding-set=-sys_ptrace"]
    if os.geteuid() == 0 and subprocess.run([*no_ptrace, "true"]).returncode != 0:
        pytest.skip("running as root, and setpriv cannot drop CAP_SYS_PTRACE")
    command = (no_ptrace if os.geteuid() == 0 else []) + [sys.executable, "-c", program]
    ran = subprocess.run(command, capture_output=True, text=True, cwd=Path(__file__).parents[1])
    assert "FORGED" not in ran.stdout
    assert "PermissionError" in ran.stderr


def test_tree_entries_lists_at_most_the_tree_limit(tmp_path, monkeypatch):
    """What was in an output folder before a run is listed up to the entries a pruned tree may
    hold (a folder past it is refused by prune_tree), not without end."""
    for k in range(5):
        (tmp_path / f"f{k}").write_text("x")
    small = untrusted.TreeLimits(entries=2)
    monkeypatch.setattr(untrusted, "TreeLimits", lambda: small)
    assert len(untrusted.tree_entries(tmp_path)) < 5
