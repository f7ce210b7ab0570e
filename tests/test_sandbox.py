"""The local runner's prediction step in a bubblewrap sandbox (issue 13, item 7).

Two attacks on an organiser who re-runs a code submission locally: reading the evaluation gold
around the audit hook (``os.link`` + ``open``, ``ctypes``), and finding the bundle through
``/proc/*/cmdline`` to rewrite ``scoring_program/score.py`` (rigging every later run). Both must fail
inside the sandbox. Without a sandbox the runner says so on stderr and on the results page; the
same attacks then succeed, which shows that the attack code works.
"""

import hashlib
import json
import os
import subprocess
import sys
import shutil
from pathlib import Path

import pytest

from codajudge.errors import SubmissionError, UsageError
from codajudge.formats.archive import PARTICIPANT_OUTPUT
from codajudge.programs import run_local
from codajudge.runner import sandbox
from codajudge.runner.local import phase_task
from codajudge.runner.local import run_submission

REPO = Path(__file__).resolve().parents[1]
SANDBOX_REASON = sandbox.probe()
needs_bwrap = pytest.mark.skipif(
    SANDBOX_REASON is not None, reason=f"no working sandbox here: {SANDBOX_REASON}"
)

#: A code submission that tries every way it knows to read the gold of its tracks; it predicts the
#: gold when it gets it (a perfect score) and prints READ-OK or READ-FAILED for each attempt.
READ_GOLD = r"""
import ctypes, ctypes.util, json, os, sys

REF = {ref!r}

def by_link(path):
    os.makedirs("/tmp/x", exist_ok=True)
    link = "/tmp/x/" + os.path.basename(path)
    if os.path.exists(link):
        os.unlink(link)
    os.link(path, link)
    return open(link, encoding="utf-8").read()

def by_ctypes(path):
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    fd = libc.open(path.encode(), 0)
    if fd < 0:
        raise OSError(ctypes.get_errno(), "open failed")
    buf = ctypes.create_string_buffer(1 << 22)
    n = libc.read(fd, buf, 1 << 22)
    return buf.raw[:n].decode("utf-8")

def by_proc():
    for pid in os.listdir("/proc"):
        try:
            args = open(f"/proc/{{pid}}/cmdline", "rb").read().split(b"\0")
        except OSError:
            continue
        for arg in args:
            arg = arg.decode(errors="replace")
            if "reference_data" in arg or os.path.isdir(os.path.join(arg, "reference_data")):
                raise RuntimeError("found " + arg)
    raise OSError("no bundle among the processes")

def steal(dataset):
    path = os.path.join(REF, dataset + ".jsonl")
    for how in (by_link, by_ctypes, lambda p: by_proc()):
        try:
            text = how(path)
            print("READ-OK", getattr(how, "__name__", "proc"), file=sys.stderr)
            return {{json.loads(l)["id"]: json.loads(l) for l in text.split("\n") if l.strip()}}
        except Exception as e:
            print("READ-FAILED", getattr(how, "__name__", "proc"), type(e).__name__, e, file=sys.stderr)
    return None

class Model:
    def __init__(self, track):
        self.track = track
        self.gold = steal(track["dataset"])
    def fit(self, items):
        from codajudge.baselines import MostFrequent
        self.fallback = MostFrequent(self.track)
        self.fallback.fit(items)
    def predict(self, items):
        if self.track["kind"] == "similarity":
            if self.gold:
                return [self.gold[it["id"]]["score"] for it in items]
            return [2.5 + (k % 3) for k, _ in enumerate(items)]
        return self.fallback.predict(items)
"""

#: A code submission that looks for the bundle (its path given outright, as the strongest attacker
#: would know it, and through /proc/*/cmdline) and rewrites the scoring program so that every later
#: run writes a perfect score.
RIG_SCORER = r"""
import os, sys

KNOWN = [{score!r}]
RIGGED = "import json, sys; open(sys.argv[2] + '/scores.json', 'w').write('{{}}'); print('RIGGED')\n"

def candidates():
    yield from KNOWN
    for pid in os.listdir("/proc"):
        try:
            args = open(f"/proc/{{pid}}/cmdline", "rb").read().split(b"\0")
        except OSError:
            continue
        for arg in args:
            path = os.path.join(arg.decode(errors="replace"), "scoring_program", "score.py")
            if os.path.isfile(path):
                yield path

def rig():
    for path in candidates():
        for how in ("write", "link"):
            try:
                if how == "write":
                    open(path, "w").write(RIGGED)
                else:
                    os.makedirs("/tmp/r", exist_ok=True)
                    os.link(path, "/tmp/r/score.py")
                    open("/tmp/r/score.py", "w").write(RIGGED)
                print("RIG-OK", how, path, file=sys.stderr)
            except Exception as e:
                print("RIG-FAILED", how, type(e).__name__, e, file=sys.stderr)

class Model:
    def __init__(self, track):
        self.track = track
        rig()
    def fit(self, items):
        from codajudge.baselines import MostFrequent
        self.fallback = MostFrequent(self.track)
        self.fallback.fit(items)
    def predict(self, items):
        return self.fallback.predict(items)
"""


@pytest.fixture(scope="module")
def pristine(bundles):
    """The small edition's bundle, built once for the run (a build runs every baseline)."""
    return bundles.small().tree


@pytest.fixture()
def bundle(pristine, tmp_path):
    """A fresh copy of that bundle per test: the rigging attack may change it."""
    return Path(shutil.copytree(pristine, tmp_path / "dist" / pristine.name, symlinks=True))


def _submission(folder: Path, code: str) -> str:
    folder.mkdir()
    (folder / "model.py").write_text(code, encoding="utf-8")
    return str(folder)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _run(bundle: Path, submission: str, work: Path):
    task = phase_task(bundle, "evaluation")
    return run_submission(task, submission, work)


@needs_bwrap
def test_reading_the_evaluation_gold_fails_inside_the_sandbox(bundle, tmp_path, monkeypatch):
    monkeypatch.delenv(sandbox.BWRAP_ENV, raising=False)
    code = READ_GOLD.format(ref=str((bundle / "reference_data" / "evaluation").resolve()))
    result = _run(bundle, _submission(tmp_path / "thief", code), tmp_path / "work")
    err = result.prediction.stderr
    assert "ran without isolation" not in (result.output / "detailed_results.html").read_text()
    assert "READ-OK" not in err, err
    assert err.count("READ-FAILED by_link") >= 1 and err.count("READ-FAILED by_ctypes") >= 1, err
    scores = json.loads((result.output / "scores.json").read_text())
    assert scores["sim_pearson"] < 0.99


@needs_bwrap
def test_rewriting_the_bundle_s_scoring_program_fails_inside_the_sandbox(
    bundle, tmp_path, monkeypatch
):
    monkeypatch.delenv(sandbox.BWRAP_ENV, raising=False)
    score_py = (bundle / "scoring_program" / "score.py").resolve()
    before = _digest(score_py)
    result = _run(
        bundle,
        _submission(tmp_path / "rigger", RIG_SCORER.format(score=str(score_py))),
        tmp_path / "work",
    )
    err = result.prediction.stderr
    assert "RIG-OK" not in err and "RIG-FAILED" in err, err
    assert _digest(score_py) == before
    honest = run_local.run_once(bundle, "baseline:most_frequent", "evaluation")
    assert "sim_pearson" in honest and len(honest) > 1


@needs_bwrap
def test_the_sandbox_holds_only_the_step_s_folders(bundle, tmp_path, monkeypatch):
    monkeypatch.delenv(sandbox.BWRAP_ENV, raising=False)
    code = r"""
import os, sys, socket
def report():
    print("ROOT", sorted(os.listdir("/")), file=sys.stderr)
    print("APP", sorted(os.listdir("/app")), file=sys.stderr)
    for name in ("/app/ingested_program/model.py", "/app/input_data/task.json"):
        try:
            open(name, "a").write("x")
            print("WRITABLE", name, file=sys.stderr)
        except OSError:
            print("READONLY", name, file=sys.stderr)
    try:
        socket.create_connection(("1.1.1.1", 80), timeout=2)
        print("NETWORK", file=sys.stderr)
    except OSError:
        print("NO-NETWORK", file=sys.stderr)
report()
from codajudge.baselines import MostFrequent as Model
"""
    result = _run(bundle, _submission(tmp_path / "looker", code), tmp_path / "work")
    err = result.prediction.stderr
    assert "APP ['ingested_program', 'input_data', 'output', 'program', 'shared']" in err, err
    assert "WRITABLE" not in err and err.count("READONLY") == 2 and "NO-NETWORK" in err
    assert "reference_data" not in err and str(tmp_path) not in err


#: Code that tries to write a file in its working folder, beside its model.py and under /tmp, says
#: which it could, then predicts; with ``{strict}`` it writes in its working folder unguarded.
WRITER = r"""
import os, sys
from codajudge.baselines import MostFrequent as Model
here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "beside.txt")
for name in ("cache.pkl", here, "/tmp/mine/cache.pkl"):
    try:
        os.makedirs(os.path.dirname(name) or ".", exist_ok=True)
        open(name, "w").write("x")
        print("WRITABLE", name, file=sys.stderr)
    except OSError:
        print("READONLY", name, file=sys.stderr)
if {strict}:
    open("cache.pkl", "w").write("x")
"""


@needs_bwrap
def test_code_may_write_under_tmp_only_as_the_readmes_say(bundle, tmp_path, monkeypatch):
    """The rule the README's participant part and the kit's README state, against the sandbox's
    folders: a file under /tmp is written; one in the working folder or beside model.py is not,
    and code that needs it is refused as on a read-only file system, told to write under /tmp."""
    readme = (REPO / "README.md").read_text(encoding="utf-8").split("\n## For participants\n")[1]
    kit = (REPO / "codajudge" / "templates" / "kit_readme.md").read_text(encoding="utf-8")
    for text in (readme.split("\n## ")[0], kit):
        words = " ".join(text.split())
        assert "under `/tmp`" in words and '"Read-only file system"' in words
        assert all(f"`{folder}`" in words for folder in sandbox.APP_READ_ONLY)
    monkeypatch.delenv(sandbox.BWRAP_ENV, raising=False)
    code = WRITER.format(strict=False)
    result = _run(bundle, _submission(tmp_path / "tries", code), tmp_path / "work")
    err = result.prediction.stderr
    assert result.prediction.exit_code == 0 and "WRITABLE /tmp/mine/cache.pkl" in err, err
    assert err.count("READONLY") == 2 and err.count("WRITABLE") == 1, err
    strict = _submission(tmp_path / "needs", WRITER.format(strict=True))
    with pytest.raises(SubmissionError) as refused:
        run_local.run_once(bundle, strict, "evaluation")
    assert "Read-only file system: 'cache.pkl'" in str(refused.value)
    assert "write any file of your own under /tmp" in str(refused.value)


def test_without_a_sandbox_the_runner_says_so_and_the_attack_works(
    bundle, tmp_path, monkeypatch, capsys
):
    """The fallback path: one note on stderr and on the results page. The gold attack then
    succeeds (the audit hook is no sandbox), which shows the attack above is a real one."""
    monkeypatch.setenv(sandbox.BWRAP_ENV, "none")
    monkeypatch.setattr(sandbox, "_warned", [])
    code = READ_GOLD.format(ref=str((bundle / "reference_data" / "evaluation").resolve()))
    result = _run(bundle, _submission(tmp_path / "thief", code), tmp_path / "work")
    assert "READ-OK by_link" in result.prediction.stderr
    assert json.loads((result.output / "scores.json").read_text())["sim_pearson"] == pytest.approx(
        1.0
    )
    page = (result.output / "detailed_results.html").read_text(encoding="utf-8")
    assert "ran without isolation (turned off by CODAJUDGE_BWRAP)" in page
    run_local.run_once(bundle, "baseline:random", "evaluation")
    assert capsys.readouterr().err.count("ran without isolation") == 1


def test_scoring_uses_a_read_only_copy(bundle, tmp_path):
    result = _run(bundle, "baseline:random", tmp_path / "work")
    ref = tmp_path / "work" / "score" / "app" / "input" / "ref"
    assert result.scoring.exit_code == 0
    assert all(not (p.stat().st_mode & 0o222) for p in [ref, *ref.rglob("*")])


#: A code submission that takes too much of one thing (``what``: a limit's name), then predicts.
HOG = r"""
import subprocess
from codajudge.baselines import MostFrequent

WHAT = {what!r}
CHUNK = b"\0" * (1 << 24)


def fill(path):
    with open(path, "wb") as out:
        for _ in range(64):
            out.write(CHUNK)


class Model:
    def __init__(self, track):
        self.track = track

    def fit(self, items):
        if WHAT == "memory":
            self.held = bytearray(3 * 1024**3)
        elif WHAT == "file size":
            fill("/app/output/junk.bin")
        elif WHAT == "/tmp size":
            fill("/tmp/junk.bin")
        elif WHAT == "processes":
            self.children = [subprocess.Popen(["sleep", "30"]) for _ in range(100)]
        self.fallback = MostFrequent(self.track)
        self.fallback.fit(items)

    def predict(self, items):
        return self.fallback.predict(items)
"""


@needs_bwrap
@pytest.mark.parametrize("limit", sandbox.LIMITS, ids=lambda limit: limit.env)
def test_each_limit_stops_a_submission_that_passes_it(bundle, tmp_path, monkeypatch, limit):
    """Each limit of the sandbox, lowered below what the code takes (3 GiB of memory, a file of
    1 GiB, 1 GiB under /tmp, 100 processes), stops it with a message naming the limit and its
    variable; the starting kit's code submission passes under the same lowered limits."""
    if limit.rlimit == "RLIMIT_NPROC" and os.geteuid() == 0:
        pytest.skip("RLIMIT_NPROC does not hold for root (see the test below)")
    monkeypatch.delenv(sandbox.BWRAP_ENV, raising=False)
    monkeypatch.setenv(limit.env, "64" if limit.unit == "processes" else "256")
    hog = _submission(tmp_path / "hog", HOG.format(what=limit.name))
    with pytest.raises(SubmissionError) as stopped:
        run_local.run_once(bundle, hog, "evaluation", output=tmp_path / "out")
    message = str(stopped.value)
    assert limit.env in message and limit.name in message, message
    junk = tmp_path / "out" / "predictions" / "junk.bin"
    assert not junk.exists() or junk.stat().st_size <= 256 * 1024**2
    kit = bundle / "starting_kit"
    code = str(kit / "sample_submissions" / "code_submission")
    assert "sim_pearson" in run_local.run_once(kit, code, "practice")


@pytest.mark.parametrize("value", ["8G", "0", "²", str(2**30 + 1), "99999999999999"])
def test_a_limit_that_is_no_whole_number_in_range_is_refused(monkeypatch, value):
    """ "²" is a digit that int() refuses; a value past the kernel's C long overflowed."""
    monkeypatch.setenv("CODAJUDGE_LIMIT_MEMORY_MIB", value)
    with pytest.raises(UsageError, match=f"a whole number of MiB from 1 to {2**30}"):
        sandbox.command("bwrap", ["python", "x"], None)


def test_a_limit_above_the_systems_hard_limit_is_refused_before_running(monkeypatch):
    """The sandbox cannot raise an rlimit past the hard limit it inherits (a traceback inside the
    step, blamed on the submission): such a value is refused with the most it can be."""
    import resource

    real = resource.getrlimit

    def hard_100_processes(which):
        return (100, 100) if which == resource.RLIMIT_NPROC else real(which)

    monkeypatch.setattr(resource, "getrlimit", hard_100_processes)
    monkeypatch.setenv("CODAJUDGE_LIMIT_PROCESSES", "200")
    with pytest.raises(UsageError, match="at most 100 processes"):
        sandbox.command("bwrap", ["python", "x"], None)
    monkeypatch.setenv("CODAJUDGE_LIMIT_PROCESSES", "100")
    assert "100" in sandbox.command("bwrap", ["python", "x"], None)


def test_the_probe_of_bwrap_runs_under_no_limit(monkeypatch):
    """A limit too small for Python to start fails the step, naming the limits; it never makes
    the probe fail, which would run the step without isolation and without any limit."""
    monkeypatch.setenv("CODAJUDGE_LIMIT_MEMORY_MIB", "16")
    probe = sandbox.command("bwrap", ["python", "-c", "import numpy"], None, limited=False)
    step = sandbox.command("bwrap", ["python", "-c", "import numpy"], None)
    assert "RLIMIT_DATA" not in probe and "CODAJUDGE_LIMIT_MEMORY_MIB" not in probe
    assert "RLIMIT_DATA" in step and str(16 * 1024**2) in step


def test_a_thread_the_limits_refuse_names_them_in_the_code_and_in_the_kit(monkeypatch):
    """Python's "can't start new thread" (a stack past the memory limit, or the process limit)
    names both limits; in the kit's own code it is the limits', not "a bug in the kit"."""
    from codajudge.programs.common import EXIT_INTERNAL_ERROR, unexpected_failure

    refused = RuntimeError("can't start new thread")
    assert sandbox.limit_hint(refused) is None  # outside the sandbox: no limit is set
    monkeypatch.setenv("CODAJUDGE_LIMIT_MEMORY_MIB", "100")
    monkeypatch.setenv("CODAJUDGE_LIMIT_PROCESSES", "4")
    hint = sandbox.limit_hint(refused)
    assert "memory limit is 100 MiB" in hint and "processes limit is 4 processes" in hint
    assert sandbox.limit_hint(RuntimeError("another failure")) is None
    message, code = unexpected_failure(refused, "ingestion program", None)
    assert code != EXIT_INTERNAL_ERROR and "bug in the kit" not in message
    assert "CODAJUDGE_LIMIT_MEMORY_MIB=N" in message


@needs_bwrap
def test_the_rlimits_are_set_inside_and_root_is_told_the_process_limit_does_not_hold(
    monkeypatch, capsys
):
    """The sandboxed command starts with the rlimits of the environment; as root, the runner says
    that the process limit does not hold (the kernel exempts root from RLIMIT_NPROC)."""
    monkeypatch.setenv("CODAJUDGE_LIMIT_PROCESSES", "77")
    monkeypatch.setenv("CODAJUDGE_LIMIT_MEMORY_MIB", "5000")
    monkeypatch.setattr(sandbox, "_warned", [])
    names = ("RLIMIT_NPROC", "RLIMIT_DATA", "RLIMIT_FSIZE")
    script = f"import resource; print([resource.getrlimit(getattr(resource, n)) for n in {names}])"
    args = sandbox.command(sandbox.bwrap_binary(), [sys.executable, "-c", script], None)
    done = subprocess.run(args, capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == str([(77, 77), (5000 * 1024**2,) * 2, (1024**3, 1024**3)])
    assert ("does not hold for root" in capsys.readouterr().err) == (os.geteuid() == 0)


def test_the_docs_state_each_limit_as_the_sandbox_sets_it():
    readme = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    checks = (REPO / "docs" / "participant-checks.md").read_text(encoding="utf-8")
    for limit in sandbox.LIMITS:
        assert f"{limit.default} {limit.unit}" in readme and f"`{limit.env}`" in readme
        assert f"| {limit.default}" in checks and f"`{limit.env}`" in checks


#: Code that writes a line to bwrap's stderr (pid 1's in the sandbox), then predicts, or fails.
BWRAP_WRITER = r"""
with open("/proc/1/fd/2", "w") as stream:
    stream.write("LINE TO BWRAP\n")
{then}
"""


@needs_bwrap
@pytest.mark.parametrize("fails", [False, True])
def test_a_line_to_bwrap_s_stderr_is_shown_where_the_step_s_stderr_is_as_the_docs_say(
    fails, bundle, tmp_path, monkeypatch
):
    """It joins the step's own stderr with bwrap's prefix: in the message of a failed step, and
    nowhere a successful run shows (neither in what the code printed)."""
    monkeypatch.delenv(sandbox.BWRAP_ENV, raising=False)
    then = (
        "raise SystemExit(3)" if fails else "from codajudge.baselines import MostFrequent as Model"
    )
    code = BWRAP_WRITER.format(then=then)
    result = _run(bundle, _submission(tmp_path / "writer", code), tmp_path / "work")
    shown = f"{sandbox.BWRAP_PREFIX}LINE TO BWRAP"
    assert shown in result.prediction.stderr.splitlines(), result.prediction.stderr
    if fails:
        with pytest.raises(SubmissionError) as failed:
            run_local.read_scores(result)
        assert shown in failed.value.render()
    else:
        assert run_local.read_scores(result)
        printed = result.predictions / PARTICIPANT_OUTPUT
        assert not printed.exists() or "LINE TO BWRAP" not in printed.read_text()
    checks = " ".join((REPO / "docs" / "participant-checks.md").read_text(encoding="utf-8").split())
    assert (
        "with the `[bwrap or your code] ` prefix, and is shown only where that stderr is: in the "
        "message of a step that fails (a step that succeeds shows neither)" in checks
    )


#: Code that writes a line to every stream of every other process it can open in the sandbox
#: (/proc/PID/fd/N: bwrap's, the ingestion program's), then predicts; says which it opened.
FD_WRITER = r"""
import os, sys
for pid in [p for p in os.listdir("/proc") if p.isdigit() and int(p) != os.getpid()]:
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        continue
    for fd in fds:
        path = f"/proc/{pid}/fd/{fd}"
        try:
            with open(path, "w") as stream:
                stream.write(f"note: FAKENOTE via {path}\n")
            print("OPENED", path, file=sys.stderr)
        except OSError:
            pass
from codajudge.baselines import MostFrequent as Model
"""


@needs_bwrap
def test_no_stream_the_code_can_open_reaches_the_program_s_output_unprefixed(
    bundle, tmp_path, monkeypatch
):
    """bwrap's own process (pid 1 in the sandbox) holds no stream of the program's: a line the
    code writes through /proc/PID/fd reaches its log with a prefix (``[your code] ``, or bwrap's
    for bwrap's stderr) or not at all (docs/participant-checks.md, "Not the program's own stdout")."""
    monkeypatch.delenv(sandbox.BWRAP_ENV, raising=False)
    result = _run(bundle, _submission(tmp_path / "faker", FD_WRITER), tmp_path / "work")
    assert result.prediction.exit_code == 0, result.prediction.stderr
    assert "OPENED /proc/1/fd/2" in result.prediction.stderr  # bwrap's, which the code can open
    prefixes = ("[your code] ", "[bwrap or your code] ")
    for text in (result.prediction.stdout, result.prediction.stderr):
        faked = [line for line in text.splitlines() if "FAKENOTE" in line]
        assert all(line.startswith(prefixes) for line in faked), text
