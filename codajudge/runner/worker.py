"""Running one program as Codabench's compute worker does: the ``command`` of its metadata.yaml,
legacy ``$`` variables substituted, split without a shell, working folder the program, a time limit
for the whole step. The worker's ``/app/...`` folders are mapped to temporary ones."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import yaml

from ..errors import ConfigError
from ..formats.textfile import utf8_text
from ..untrusted import wait_then_stop
from .capture import JOIN_SECONDS, CappedOutput, drain


@dataclass
class StepResult:
    exit_code: int
    stdout: str
    stderr: str
    timed_out: bool
    seconds: float
    #: The step's time limit in seconds.
    time_limit: float


def legacy_paths(is_scoring: bool) -> dict[str, str]:
    """The legacy ``$`` variables the worker substitutes in a command -> the /app folder each
    stands for, in the scoring step when ``is_scoring`` (else the ingestion step)."""
    return {
        "$input": "/app/input" if is_scoring else "/app/input_data",
        "$output": "/app/output",
        "$tmp": "/app/output",
        "$program": "/app/program",
        "$ingestion_program": "/app/program",
        "$hidden": "/app/input/ref",
        "$shared": "/app/shared",
        "$submission_program": "/app/ingested_program",
        "$predictions": "/app/input/res" if is_scoring else "/app/output",
    }


def program_command(program: Path, root: str, is_scoring: bool) -> list:
    """The program's command with legacy variables replaced and each ``/app/...`` path moved
    under ``root`` (the step's local folder holding its ``app``; '' in the sandbox, which mounts
    them at /app)."""
    meta_path = next(
        (program / n for n in ("metadata.yaml", "metadata") if (program / n).is_file()), None
    )
    if meta_path is None:
        raise ConfigError.single(
            str(program), "program has no metadata.yaml", hint="each program needs a command"
        )
    meta = yaml.safe_load(utf8_text(meta_path.read_bytes(), str(meta_path))) or {}
    command = meta.get("command")
    if not isinstance(command, str) or not command.strip():
        raise ConfigError.single(str(meta_path), "metadata has no 'command'")
    legacy = legacy_paths(is_scoring)
    for var in sorted(legacy, key=len, reverse=True):
        command = command.replace(var, legacy[var])
    args = [root + arg if arg.startswith("/app/") else arg for arg in shlex.split(command)]
    if args and args[0] in ("python", "python3"):
        args[0] = sys.executable
    return args


def run_step(
    args: list, cwd: Path, time_limit: int, env: dict[str, str] | None = None
) -> StepResult:
    """Run one step; at the limit every process descended from it is killed (sessions of their own
    included), and after it ends its process group is, as the worker removes containers. Its
    stdout and stderr are kept capped (``capture.CappedOutput``: head, tail, a note on the cut).
    ``env``: the step's whole environment (default: this process's, its output unbuffered)."""
    start = time.monotonic()
    process = subprocess.Popen(
        args,
        cwd=cwd,
        env=dict(os.environ, PYTHONUNBUFFERED="1") if env is None else env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    out, err = CappedOutput(), CappedOutput()
    readers = [drain(process.stdout, out.add), drain(process.stderr, err.add)]
    # as the worker removes the container: nothing of the step lives on
    timed_out = wait_then_stop(process, time_limit)
    for reader in readers:
        reader.join(JOIN_SECONDS)
    seconds = time.monotonic() - start
    stderr = err.text()
    if timed_out:
        stderr += f"\nExecution Time Limit exceeded. Limit was {time_limit} seconds\n"
    code = -9 if timed_out else process.returncode
    return StepResult(code, out.text(), stderr, timed_out, seconds, time_limit)
