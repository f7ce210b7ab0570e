"""Timing and peak memory: the scoring program as a subprocess, in-process work with a reset peak.

Peak memory is the resident set's high-water mark (``VmHWM``). For the scoring program it is read by
the child itself as it exits (``PEAK_WRAPPER``), because a child's ``ru_maxrss`` from ``os.wait4``
also counts the memory of the process it was forked from, before ``exec`` (Linux keeps the old
image's high-water mark), and the benchmark's worker holds the generated files' data; ``ru_maxrss``
remains the fallback where ``/proc`` is missing. For in-process work, ``VmHWM`` after resetting it
through ``/proc/self/clear_refs``; where the reset is not possible, the process's whole-life
``ru_maxrss`` (an upper bound).
"""

import gc
import os
import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from operator import attrgetter
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parents[1]
SCORER = REPO / "scoring_program" / "score.py"
#: Runs a script as ``python3 SCRIPT ARGS`` would (``sys.argv``, ``sys.path[0]``, ``__main__``) and,
#: as the interpreter exits, writes its own VmHWM (kB) to the file named by ``argv[1]``.
PEAK_WRAPPER = """
import atexit, runpy, sys
out, script = sys.argv[1], sys.argv[2]
def _write_peak():
    try:
        with open("/proc/self/status") as f:
            peak = next(line.split()[1] for line in f if line.startswith("VmHWM:"))
    except (OSError, StopIteration):
        return
    with open(out, "w") as f:
        f.write(peak)
atexit.register(_write_peak)
sys.argv = sys.argv[2:]
sys.path[0] = script.rsplit("/", 1)[0]
runpy.run_path(script, run_name="__main__")
"""


@dataclass(frozen=True)
class Run:
    """One subprocess run: wall and CPU (user + system) seconds, peak resident memory in MB, exit
    code and stderr's end."""

    seconds: float
    cpu_seconds: float
    peak_mb: float
    returncode: int
    stderr: str


def run_program(argv: list[str], scratch: Path) -> Run:
    """``python3 ARGV...`` in a fresh interpreter, as the platform starts a program (the garbage
    collector in its default state); ``scratch`` names the files its stderr and peak go to."""
    err_path = scratch.parent / f".{scratch.name}.stderr"
    peak_path = scratch.parent / f".{scratch.name}.peak"
    peak_path.unlink(missing_ok=True)
    with open(os.devnull, "wb") as out, open(err_path, "wb") as err:
        started = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-c", PEAK_WRAPPER, str(peak_path), *argv],
            stdout=out,
            stderr=err,
            cwd=str(REPO),
        )
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - started
    stderr = err_path.read_text(encoding="utf-8", errors="replace")[-2000:]
    peak_kb = int(peak_path.read_text()) if peak_path.is_file() else usage.ru_maxrss
    cpu_seconds = usage.ru_utime + usage.ru_stime
    return Run(seconds, cpu_seconds, peak_kb / 1024.0, os.waitstatus_to_exitcode(status), stderr)


def run_scorer(input_dir: Path, output_dir: Path) -> Run:
    """``python3 scoring_program/score.py INPUT OUTPUT`` as the platform runs it, with the real interpreter."""
    return run_program([str(SCORER), str(input_dir), str(output_dir)], output_dir)


def run_imports(modules: list[str], scratch: Path) -> Run:
    """``python3 -c "import MODULES"``: the start-up a program importing them cannot avoid, with the
    one BLAS thread the scoring program sets for itself before numpy is imported (OpenBLAS's
    default of a thread per core costs about half as much CPU again on two cores)."""
    script = scratch.parent / f".{scratch.name}.py"
    blas = 'import os\nos.environ.setdefault("OPENBLAS_NUM_THREADS", "1")\n'
    script.write_text(blas + f"import {', '.join(modules)}\n")
    return run_program([str(script)], scratch)


def interleaved(first: Callable[[], Run], second: Callable[[], Run]) -> tuple[Run, Run]:
    """The run of least CPU time of each, measured in turns so that both see the same load;
    as many turns as ``repeats_for`` the first's time. Raises if a run fails."""
    firsts: list[Run] = []
    seconds: list[Run] = []
    while len(firsts) < repeats_for(firsts[0].seconds if firsts else 0.0):
        firsts.append(first())
        seconds.append(second())
        failed = [r for r in (firsts[-1], seconds[-1]) if r.returncode != 0]
        if failed:
            raise RuntimeError(
                f"a measured program failed (exit {failed[0].returncode}): {failed[0].stderr}"
            )
    by_cpu = attrgetter("cpu_seconds")
    return min(firsts, key=by_cpu), min(seconds, key=by_cpu)


def best_of(repeat: int, action: Callable[[], object]) -> tuple[float, object]:
    """The shortest wall time of ``repeat`` runs of ``action`` (seconds) and the last result.

    As ``timeit`` does, the garbage collector is off while ``action`` runs (its passes would land
    at random in one run or another), and no collection is forced between runs.
    """
    best, result = float("inf"), None
    enabled = gc.isenabled()
    for _ in range(max(1, repeat)):
        result = None
        gc.disable()
        try:
            started = time.perf_counter()
            result = action()
            best = min(best, time.perf_counter() - started)
        finally:
            if enabled:
                gc.enable()
    return best, result


def repeats_for(seconds: float) -> int:
    """How many times to measure something that took ``seconds`` once: short measurements are
    noisy (the shortest of several is kept), long ones are steady and costly."""
    return 9 if seconds < 1.5 else 3 if seconds < 4.0 else 2


def reset_peak() -> bool:
    """Reset this process's peak resident set to its current size; False where Linux does not allow it."""
    gc.collect()
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def peak_mb() -> float:
    """This process's peak resident set since the last ``reset_peak`` (MB)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
