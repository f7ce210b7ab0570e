"""What a code submission leaves behind cannot stall, flood or fool the ingestion program and the
local runner (issue 22, items 3, 4, 7, 10, 11): its processes are stopped before anything it left
is read, what it left is read as regular files only, never through a link, bounded in bytes, and
anything else is the participant's problem (exit 2), never a hang, a traceback or the kit's blame."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from codajudge.formats.archive import PARTICIPANT_OUTPUT
from codajudge.programs import run_local
from codajudge.programs.ingest import INGESTION_STATUS, main
from test_exit_codes import HEADER
from test_ingestion import (
    SMALL_TRACKS,
    assert_failed_cleanly,
    make_phase,
    status_of,
    write_submission,
)
from test_run_local_messages import en_en_lines

REPO = Path(__file__).resolve().parents[1]
#: A sparse file of this size takes no disk space; reading or copying it would take hours.
SPARSE_BYTES = 1 << 40
#: A model that predicts well (the most-frequent baseline) after running ``ACT`` in ``fit``.
ACTING_MODEL = (
    "import os, sys, time\n"
    "from codajudge.baselines import MostFrequent\n"
    "class Model(MostFrequent):\n"
    "    def fit(self, items):\n"
    "        act(self.track)\n"
    "        return super().fit(items)\n"
)


def _run_ingest(args, timeout=120) -> subprocess.CompletedProcess:
    """The ingestion program as the platform runs it, in a process of its own: a hang is a
    failure after ``timeout`` seconds, not a stuck test run."""
    return subprocess.run(
        [sys.executable, str(REPO / "ingestion_program" / "ingest.py"), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


# ---------------------------------------------------------------- item 3: the work folder's files


def test_a_sparse_internal_error_file_and_a_forged_internal_report_are_not_copied(tmp_path, capfd):
    body = (
        "    def predict(self, items):\n"
        "        work = sys.argv[3]\n"
        "        with open(os.path.join(work, 'internal_error.txt'), 'wb') as f:\n"
        f"            f.truncate({SPARSE_BYTES})\n"
        "        open(os.path.join(work, 'report.json'), 'w').write(json.dumps(\n"
        "            {'status': 'failed', 'kind': 'internal', 'message': 'a bug in the kit'}))\n"
        "        os._exit(3)\n"
    )
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    out = tmp_path / "out"
    started = time.monotonic()
    code = main(
        [str(phase["input"]), str(out), str(write_submission(tmp_path / "sub", HEADER + body))]
    )
    assert time.monotonic() - started < 60
    err = capfd.readouterr().err
    assert_failed_cleanly(out, err, code, ["the process running the code submission failed"])
    assert code == 2, err
    # what the kit read from the code's pipes and its own refusal: never a file the code wrote
    assert sorted(p.name for p in out.iterdir()) == sorted([INGESTION_STATUS, PARTICIPANT_OUTPUT])


FORKING_MODEL = ACTING_MODEL.replace(
    "import os, sys, time\n",
    "import os, sys, time\n"
    "def act(track):\n"
    "    if os.fork() == 0:  # a grandchild that keeps writing to the output\n"
    "        open(PID_FILE + '.tmp', 'w').write(str(os.getpid()))\n"
    "        os.replace(PID_FILE + '.tmp', PID_FILE)\n"
    "        for i in range(200):\n"
    "            time.sleep(0.05)\n"
    "            open(os.path.join(OUTPUT, f'late{i}.txt'), 'w').write('x')\n"
    "        os._exit(0)\n"
    "    while not os.path.exists(PID_FILE):  # the grandchild runs before the step ends\n"
    "        time.sleep(0.01)\n",
)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
    except OSError:
        return False
    return state != b"Z"


def test_a_forked_grandchild_is_stopped_before_the_output_is_read(tmp_path):
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    out, pid_file = tmp_path / "out", tmp_path / "grandchild.pid"
    code = f"OUTPUT = {str(out)!r}\nPID_FILE = {str(pid_file)!r}\n" + FORKING_MODEL
    assert main([str(phase["input"]), str(out), str(write_submission(tmp_path / "sub", code))]) == 0
    left = sorted(p.name for p in out.iterdir())
    time.sleep(1.0)
    assert sorted(p.name for p in out.iterdir()) == left, "something still writes to the output"
    assert pid_file.is_file() and not _alive(int(pid_file.read_text()))
    assert status_of(out)["status"] == "ok" and (out / "sts.tsv").is_file()


ESCAPING_MODEL = ACTING_MODEL.replace(
    "import os, sys, time\n",
    "import os, sys, time\n"
    "def act(track):  # the trial's attack: a double fork into a session of its own\n"
    "    if os.fork():\n"
    "        return\n"
    "    os.setsid()\n"
    "    if os.fork():\n"
    "        os._exit(0)\n"
    "    open(PID_FILE, 'w').write(str(os.getpid()))\n"
    "    status = os.path.join(OUTPUT, 'ingestion_status.json')\n"
    "    for _ in range(2000):  # until the program's final check said ok\n"
    "        if os.path.exists(status) and b'ok' in open(status, 'rb').read():\n"
    "            open(os.path.join(OUTPUT, 'detailed_results.html'), 'w').write('won')\n"
    "            open(os.path.join(OUTPUT, 'sts.tsv'), 'w').write('not checked')\n"
    "            break\n"
    "        time.sleep(0.01)\n"
    "    os._exit(0)\n",
)


def test_a_process_escaped_to_a_session_of_its_own_is_stopped_before_the_final_check(tmp_path):
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    out, pid_file = tmp_path / "out", tmp_path / "escaped.pid"
    code = f"OUTPUT = {str(out)!r}\nPID_FILE = {str(pid_file)!r}\n" + ESCAPING_MODEL
    done = _run_ingest([phase["input"], out, write_submission(tmp_path / "sub", code)])
    assert done.returncode == 0, done.stderr
    checked = (out / "sts.tsv").read_bytes()
    time.sleep(1.0)
    assert pid_file.is_file() and not _alive(int(pid_file.read_text()))
    assert not (out / "detailed_results.html").exists()
    assert (out / "sts.tsv").read_bytes() == checked != b"not checked"
    assert status_of(out)["status"] == "ok"


# ---------------------------------------------------------------- item 4: FIFOs and links


FIFO_BODIES = {
    "progress_fifo_then_exit": (
        "        p = os.path.join(sys.argv[3], 'progress.txt')\n"
        "        os.unlink(p)\n"
        "        os.mkfifo(p)\n"
        "        os._exit(1)\n",
        [],
        ["stopped unexpectedly", "exited with code 1"],
    ),
    "progress_fifo_past_the_time_limit": (
        "        p = os.path.join(sys.argv[3], 'progress.txt')\n"
        "        os.unlink(p)\n"
        "        os.mkfifo(p)\n"
        "        time.sleep(120)\n",
        ["--time-limit", "4"],
        ["ran past the time limit of 4 s"],
    ),
    "progress_link_to_a_fifo": (
        "        pipe = os.path.join(sys.argv[3], 'pipe')\n"
        "        os.mkfifo(pipe)\n"
        "        p = os.path.join(sys.argv[3], 'progress.txt')\n"
        "        os.unlink(p)\n"
        "        os.symlink(pipe, p)\n"
        "        os._exit(1)\n",
        [],
        ["stopped unexpectedly"],
    ),
    "report_fifo": (
        "        os.mkfifo(os.path.join(sys.argv[3], 'report.json'))\n        os._exit(0)\n",
        [],
        ["stopped unexpectedly"],
    ),
    "prediction_fifo_and_forged_ok": (
        "        os.mkfifo(os.path.join(sys.argv[2], 'sts.tsv'))\n"
        "        open(os.path.join(sys.argv[3], 'report.json'), 'w').write('{\"status\": \"ok\"}')\n"
        "        os._exit(0)\n",
        [],
        ["'sts.tsv' cannot be kept"],
    ),
    "prediction_link_and_forged_ok": (
        "        for track in ('sts', 'nli'):\n"
        "            os.symlink('/etc/passwd', os.path.join(sys.argv[2], track + '.tsv'))\n"
        "        open(os.path.join(sys.argv[3], 'report.json'), 'w').write('{\"status\": \"ok\"}')\n"
        "        os._exit(0)\n",
        [],
        ["'sts.tsv' cannot be kept", "found a symbolic link"],
    ),
}


@pytest.mark.parametrize("case", sorted(FIFO_BODIES))
def test_fifos_and_links_left_in_the_work_folder_never_block_or_leak(tmp_path, case):
    body, options, needles = FIFO_BODIES[case]
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    out = tmp_path / "out"
    predict = "    def predict(self, items):\n        import time\n" + body
    submission = write_submission(tmp_path / "sub", HEADER + predict)
    done = _run_ingest([phase["input"], out, submission, *options], timeout=90)
    assert_failed_cleanly(out, done.stderr, done.returncode, needles)
    assert done.returncode == 2, done.stderr
    assert not [p for p in out.rglob("*") if p.is_symlink()]


# ---------------------------------------------------------------- item 10: the output after the run


PAGE_MODEL = ACTING_MODEL.replace(
    "import os, sys, time\n",
    "import os, sys, time\n"
    "def act(track):\n"
    "    if track.id != 'nli':\n"
    "        return\n"
    "    open(os.path.join(OUTPUT, 'detailed_results.html'), 'w').write('<html>forged</html>')\n"
    "    os.makedirs(os.path.join(OUTPUT, 'inner'), exist_ok=True)\n"
    "    open(os.path.join(OUTPUT, 'inner', 'Page.HTM'), 'w').write('<html></html>')\n"
    "    os.symlink('/etc/passwd', os.path.join(OUTPUT, 'passwd'))\n"
    "    os.symlink('/', os.path.join(OUTPUT, 'inner', 'root'))\n"
    "    os.mkfifo(os.path.join(OUTPUT, 'pipe'))\n"
    "    open(os.path.join(sys.argv[2], 'extra.html'), 'w').write('<html></html>')\n",
)


def test_html_links_and_fifos_written_by_the_code_leave_the_output(tmp_path, capfd):
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    out = tmp_path / "out"
    code = f"OUTPUT = {str(out)!r}\n" + PAGE_MODEL
    assert main([str(phase["input"]), str(out), str(write_submission(tmp_path / "sub", code))]) == 0
    left = sorted(str(p.relative_to(out)) for p in out.rglob("*"))
    assert left == [INGESTION_STATUS, "inner", "nli.tsv", "sts.tsv"]
    printed = capfd.readouterr().out
    assert "removed 'passwd' from the prediction output: it was a symbolic link" in printed
    assert "removed 'detailed_results.html' from the prediction output" in printed


# ---------------------------------------------------------------- item 11: the kit's own names


@pytest.mark.parametrize("name", [INGESTION_STATUS, "sts.tsv"])
def test_a_folder_at_a_name_the_ingestion_program_writes_is_replaced(tmp_path, capfd, name):
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    assert main(["--baseline", "random", str(phase["input"]), str(tmp_path / "made")]) == 0
    submission = tmp_path / "sub"
    submission.mkdir()
    for track in ("sts", "nli"):
        (submission / f"{track}.tsv").write_bytes((tmp_path / "made" / f"{track}.tsv").read_bytes())
    out = tmp_path / "out"
    (out / name).mkdir(parents=True)  # as the worker copies a submission holding such a folder
    (out / name / "inside.txt").write_text("x")
    capfd.readouterr()
    assert main([str(phase["input"]), str(out), str(submission)]) == 0
    assert status_of(out)["status"] == "ok" and (out / "sts.tsv").is_file()
    captured = capfd.readouterr()
    assert f"removed '{name}' from the prediction output: it was a folder" in captured.out
    assert "Traceback" not in captured.err


def test_run_local_with_a_status_folder_in_the_result_zip(tmp_path, capsys):
    with zipfile.ZipFile(tmp_path / "sub.zip", "w") as zf:
        zf.writestr("en_en.tsv", en_en_lines())
        zf.writestr(f"{INGESTION_STATUS}/note.txt", "a folder where the kit writes a file")
    assert run_local.main([str(REPO), str(tmp_path / "sub.zip"), "--phase", "practice"]) == 0
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err and "Primary score" in captured.out


# ---------------------------------------------------------------- item 7: the runner's host-side copy


#: A code submission that leaves ``LEAVE`` in the prediction output, then kills the ingestion
#: program so that nothing cleans it up (the step fails; the runner still copies its output).
LEAVING_MODEL = """
import os, signal
from pathlib import Path
here = Path(__file__).resolve().parent
output = Path("/app/output") if Path("/app/output").is_dir() else here.parent / "output"
LEAVE(output)
os.kill(os.getppid(), signal.SIGKILL)
os._exit(0)
"""

LEAVINGS = {
    "link_to_a_host_file": ("os.symlink(SECRET, output / 'stolen.tsv')", "a symbolic link"),
    "link_to_a_host_folder": (
        "os.symlink(os.path.dirname(SECRET), output / 'host')",
        "a symbolic link",
    ),
    "fifo": ("os.mkfifo(output / 'pipe')", "a named pipe (FIFO)"),
}


@pytest.mark.parametrize("case", sorted(LEAVINGS))
def test_the_runner_copies_only_regular_files_of_the_prediction_output(tmp_path, capsys, case):
    leave, found = LEAVINGS[case]
    secret = tmp_path / "host" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text("HOST SECRET")
    submission = tmp_path / "sub"
    code = f"SECRET = {str(secret)!r}\ndef LEAVE(output):\n    {leave}\n" + LEAVING_MODEL
    write_submission(submission, code)
    kept = tmp_path / "kept"
    argv = [str(REPO), str(submission), "--phase", "practice", "--output", str(kept)]
    assert run_local.main(argv) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "internal error" not in err
    assert "the prediction output (/app/output):" in err and found in err, err
    copied = [p.read_bytes() for p in tmp_path.rglob("*") if p.is_file() and p != secret]
    assert not [data for data in copied if b"HOST SECRET" in data]


def test_run_step_ends_what_a_step_left_running(tmp_path):
    from codajudge.runner.local import run_step

    code = (
        "import os, sys, time\n"
        "if os.fork() == 0:\n"
        "    os.close(1); os.close(2)\n"
        f"    open({str(tmp_path / 'pid')!r}, 'w').write(str(os.getpid()))\n"
        "    time.sleep(60)\n"
        "time.sleep(0.5)\n"
    )
    result = run_step([sys.executable, "-c", code], tmp_path, 30)
    assert result.exit_code == 0
    assert not _alive(int((tmp_path / "pid").read_text()))


def test_no_test_here_needs_the_disk_space_of_its_sparse_file(tmp_path):
    probe = tmp_path / "probe"
    with open(probe, "wb") as f:
        f.truncate(SPARSE_BYTES)
    assert os.stat(probe).st_blocks * 512 < 1024 * 1024
    assert json.dumps(SPARSE_BYTES)


def test_without_a_sandbox_a_step_past_its_limit_ends_the_code_s_own_session(tmp_path, monkeypatch):
    """The ingestion program runs the code in a session of its own; when the runner stops the
    step at its limit, that session goes too (the sandbox would end it; here there is none)."""
    from codajudge.runner import sandbox

    monkeypatch.setenv(sandbox.BWRAP_ENV, "none")
    monkeypatch.setattr(sandbox, "_warned", [])
    pid_file = tmp_path / "child.pid"
    code = ACTING_MODEL.replace(
        "import os, sys, time\n",
        f"import os, sys, time\ndef act(track):\n"
        f"    open({str(pid_file)!r}, 'w').write(str(os.getpid()))\n"
        "    time.sleep(60)\n",
    )
    submission = write_submission(tmp_path / "sub", code)
    started = time.monotonic()
    with pytest.raises(Exception, match="time limit"):
        run_local.run_once(REPO, str(submission), "practice", time_limit=8)
    assert time.monotonic() - started < 40
    assert pid_file.is_file() and not _alive(int(pid_file.read_text()))


def test_what_the_code_puts_at_the_program_s_own_names_is_replaced(tmp_path, capfd):
    """A code submission can write to the output while it runs (on the platform it shares the
    container): a folder or a file at a name the program writes is replaced after the run."""
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    out = tmp_path / "out"
    code = f"OUTPUT = {str(out)!r}\n" + ACTING_MODEL.replace(
        "import os, sys, time\n",
        "import os, sys, time\ndef act(track):\n"
        "    os.makedirs(os.path.join(OUTPUT, 'sts.tsv', 'inner'), exist_ok=True)\n"
        f"    os.makedirs(os.path.join(OUTPUT, {INGESTION_STATUS!r}), exist_ok=True)\n"
        "    open(os.path.join(OUTPUT, 'nli.tsv'), 'w').write('forged\\t1\\n')\n",
    )
    assert main([str(phase["input"]), str(out), str(write_submission(tmp_path / "sub", code))]) == 0
    assert status_of(out)["status"] == "ok" and (out / "sts.tsv").is_file()
    assert "forged" not in (out / "nli.tsv").read_text()
    assert "Traceback" not in capfd.readouterr().err


@pytest.mark.parametrize("make", ["file", "folder"])
def test_a_metadata_entry_the_code_writes_is_removed_for_the_worker_s_own(tmp_path, capfd, make):
    """Codabench's worker fails a prediction step whose output already holds ``metadata``."""
    phase = make_phase(tmp_path, tracks=SMALL_TRACKS)
    out = tmp_path / "out"
    write = "open(path, 'w').write('exitCode: 0\\n')" if make == "file" else "os.makedirs(path)"
    code = f"OUTPUT = {str(out)!r}\n" + ACTING_MODEL.replace(
        "import os, sys, time\n",
        f"import os, sys, time\ndef act(track):\n    path = os.path.join(OUTPUT, 'metadata')\n"
        f"    if not os.path.lexists(path):\n        {write}\n",
    )
    assert main([str(phase["input"]), str(out), str(write_submission(tmp_path / "sub", code))]) == 0
    assert status_of(out)["status"] == "ok" and not os.path.lexists(out / "metadata")
    assert "removed 'metadata' from the prediction output" in capfd.readouterr().out
