"""Many runs of the scoring program in one interpreter: ``python3 tests/score_batch.py JOBS.json``.

JOBS.json lists ``[input, output, work]`` folders; each run gets what ``hostile.checks.run_program``
gives a fresh process -- its own working folder and TMPDIR, stdout and stderr as the platform's
C.UTF-8 streams (stdout strict, stderr backslashreplace), the exit code ``score.py`` would return, and
any uncaught exception printed as the interpreter would -- without starting Python and numpy again
for every case. Writes ``[code, stdout, stderr]`` per job to JOBS.json's ``.out`` file. The hostile
tests still start real processes where the process itself is under test (test_hostile.py).
"""

import io
import json
import os
import sys
import tempfile
import traceback
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def run_one(main, input_dir: str, output_dir: str, work: str):
    tmp = Path(work) / "tmp"
    tmp.mkdir(parents=True, exist_ok=True)
    os.chdir(work)
    os.environ["TMPDIR"] = str(tmp)
    tempfile.tempdir = None  # read TMPDIR again
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict", write_through=True)
    err = io.TextIOWrapper(
        io.BytesIO(), encoding="utf-8", errors="backslashreplace", write_through=True
    )
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = exit_code(main([input_dir, output_dir]))
        except SystemExit as e:
            code = exit_code(e.code)
        except BaseException:  # noqa: BLE001 - the interpreter prints it and exits 1
            traceback.print_exc()
            code = 1
    return [code] + [s.buffer.getvalue().decode("utf-8", "replace") for s in (out, err)]


def exit_code(value) -> int:
    """The exit status of ``sys.exit(value)``: None is 0, an int itself, anything else is printed and 1."""
    if value is None or isinstance(value, int):
        return value or 0
    print(value, file=sys.stderr)
    return 1


def main(argv) -> int:
    jobs_file = Path(argv[0]).resolve()
    sys.path.insert(0, str(REPO))
    sys.argv[0] = str(REPO / "scoring_program" / "score.py")
    from codajudge.programs.score import main as score_main

    results = [
        run_one(score_main, *job) for job in json.loads(jobs_file.read_text(encoding="utf-8"))
    ]
    jobs_file.with_suffix(".out").write_text(json.dumps(results), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
