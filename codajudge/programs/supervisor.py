"""The supervisor of the child process that runs a code submission (or a built-in baseline).

The ingestion program (``programs.ingest``) calls ``run_child``, which starts the child
(``programs.child.child_main``) in a new interpreter, kills it and every process it started at the
time limit, and turns its report, which participant code could have written, into a located error.
The child's stdout and stderr (the participant's prints) reach the supervisor through pipes, the
kit's progress lines through a third one, so that neither can be confused with the other nor grow
without bound. The two sides share ``child.ChildPaths``.

What the code prints, kept for the participant (``ParticipantOutput``): its stdout and stderr, in
the order their lines come, go into one ``CappedOutput`` (head and tail, the rest counted), are
echoed to the program's own log as they come (the head; then the tail at the end) and are saved in
the prediction output under PARTICIPANT_OUTPUT, which the scoring program ignores. A failure's
message (with the traceback of the participant's own frames) ends the file. While the code runs,
the file is saved again every SAVE_SECONDS when new lines came: a step killed from outside (the
worker's time limit, which kills the whole step; on Codabench, the container removed) leaves what
the code printed until then, and no signal needs to be caught for it.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import subprocess
import sys
import threading
from pathlib import Path
from typing import BinaryIO

from ..assets import PACKAGE
from ..errors import ConfigError, SubmissionError
from ..formats.archive import PARTICIPANT_OUTPUT
from ..formats.textfile import safe_display, safe_lines, shorten
from ..report import atomic_write
from ..runner.capture import JOIN_SECONDS, CappedOutput, drain
from ..runner.sandbox import limits_in_force
from ..untrusted import adopting, read_head, wait_then_stop
from .child import BASELINE_PREFIX, INTERNAL_ERROR, PROGRESS, REPORT, ChildPaths
from .status import read_json_object

MAX_REPORT_BYTES = 1024 * 1024
MAX_TRACEBACK_BYTES = 64 * 1024
#: The kit's lines from the child other than progress (notes) printed at most: bytes in all;
#: characters in each of the kit's lines.
KIT_LINES_BYTES = 256 * 1024
KIT_LINE_CHARS = 1000
#: The kit's progress lines are capped apart (the code can write to their pipe too, so other
#: lines must never crowd them out): bytes printed as they come, then bytes of the latest ones
#: printed when the child ended (a flood loses its middle, never its end).
PROGRESS_HEAD_BYTES = 64 * 1024
PROGRESS_TAIL_BYTES = 16 * 1024
#: The kit's progress lines (``child._run_track``): "track ID: what it does" and "track ID done in
#: ...".
_PROGRESS_LINE = re.compile(r"^track (\S+?)(?:: (fitting|predicting)| done) ")
#: The forms of the lines the child writes on the kit's pipe (``child.py``: progress and notes).
_CHILD_LINE = re.compile(r"track \S+[: ]|note: ")
#: The child's program. Once its report is written it ends at once (os._exit, its output flushed):
#: a thread the code left running would hold it until the time limit, as a process would not
#: (``untrusted.adopting`` kills those).
_CHILD_BOOT = (
    "import os, sys; sys.path.insert(0, sys.argv.pop(1)); "
    "from codajudge.programs.child import child_main; code = child_main(sys.argv[1:]); "
    "sys.stdout.flush(); sys.stderr.flush(); os._exit(code)"
)


# ---------------------------------------------------------------- what the code printed


#: Seconds between two saves of PARTICIPANT_OUTPUT while the code runs (at most this much of
#: its last output is missing from the file when the step is killed from outside).
SAVE_SECONDS = 0.5
#: How each echoed line of the participant's output begins in the program's log.
ECHO_PREFIX = "[your code] "
#: The note in the program's log once it shows no more of what the code printed.
HEAD_FULL_NOTE = (
    "note: your code printed more than the log shows; its last lines follow when it ends, and "
    f"both are kept in {PARTICIPANT_OUTPUT} in the prediction output"
)
#: The line before the program's message, which ends PARTICIPANT_OUTPUT when the step failed.
MESSAGE_HEADER = "--- the ingestion program's message ---"


def code_printed(path: Path) -> bool:
    """Whether the PARTICIPANT_OUTPUT at ``path`` holds what the code printed, not only the
    program's message (a file of that message alone begins with MESSAGE_HEADER's line)."""
    start = read_head(path, len(MESSAGE_HEADER) + 2)
    return bool(start) and start != f"\n{MESSAGE_HEADER}\n".encode()


#: Held while a line is written: the pipes' reader threads print at once, and print() writes a
#: line and its end apart, so that two threads' lines could run into one.
_WRITING = threading.Lock()


def _say(stream, text: str) -> None:
    """Write ``text`` as one whole line on ``stream`` (this program's stdout or stderr)."""
    with _WRITING:
        stream.write(text + "\n")
        stream.flush()


def _echo(stream, line: bytes) -> None:
    """Echo one of the participant's lines on ``stream`` (this program's stdout or stderr), its
    control characters but tabs and its invalid bytes escaped, so no line hides ECHO_PREFIX."""
    text = line.decode("utf-8", errors="backslashreplace").rstrip("\r\n")
    _say(stream, ECHO_PREFIX + "\t".join(map(safe_lines, text.split("\t"))))


class ParticipantOutput(CappedOutput):
    """The participant's output of one run of the ingestion program (empty until the child runs),
    capped as every process's output is. ``saved_in``: the folder where PARTICIPANT_OUTPUT is kept
    up to date while the code runs."""

    def __init__(self, saved_in: Path):
        super().__init__()
        self.saved_in = saved_in
        self._saver: threading.Thread | None = None
        self._stop_saving = threading.Event()

    def head_full(self) -> None:
        _say(sys.stdout, HEAD_FULL_NOTE)

    def drain(self, stdout: BinaryIO, stderr: BinaryIO) -> list[threading.Thread]:
        """Read the child's two pipes into this one output, in the order the lines come, each
        echoed on this program's stream of the same name; keep the file saved meanwhile. Called
        once, when the child started."""
        readers = []
        for pipe, stream in ((stdout, sys.stdout), (stderr, sys.stderr)):
            echo = functools.partial(_echo, stream)
            readers.append(drain(pipe, functools.partial(self.add, echo=echo)))
        self._saver = threading.Thread(target=self._keep_saved, daemon=True)
        self._saver.start()
        return readers

    def _keep_saved(self) -> None:
        """Save the output every SAVE_SECONDS when it holds new lines, until ``finish``."""
        saved_lines = 0
        while not self._stop_saving.wait(SAVE_SECONDS):
            if self.lines != saved_lines:
                saved_lines = self.lines
                # OSError: the code put a folder at that name; the final save replaces it
                with contextlib.suppress(OSError):
                    self.save()

    def finish(self) -> None:
        """After the child ended: stop saving while it runs, echo the note on what was cut and
        the tail."""
        self._stop_saving.set()
        if self._saver is not None:
            self._saver.join()
        self.echo_tail()

    def save(self, failure: str | None = None) -> None:
        """Write PARTICIPANT_OUTPUT into ``saved_in`` when the code printed anything or failed
        after it started; ``failure``: the program's message, which ends the file."""
        text = self.text()
        if failure is not None and self._saver is not None:  # the child was started
            text += f"\n{MESSAGE_HEADER}\n{failure}\n"
        if text:
            atomic_write(self.saved_in / PARTICIPANT_OUTPUT, text)

    def keep(self, failure: str | None = None) -> None:
        """``save``, then say where the file is when the code printed anything."""
        self.save(failure)
        if self.bytes > 0:
            print(f"what your code printed is in {PARTICIPANT_OUTPUT} in the prediction output")


# ---------------------------------------------------------------- the child


class KitLines:
    """The kit's lines from the child, each printed as it comes while its cap holds: the progress
    lines (``_PROGRESS_LINE``) and the others are capped apart, and the latest progress lines past
    their cap are printed by ``progress.echo_tail``."""

    def __init__(self):
        self.progress = CappedOutput(PROGRESS_HEAD_BYTES, PROGRESS_TAIL_BYTES)
        self.others = CappedOutput(KIT_LINES_BYTES, 0)

    def add(self, line: bytes) -> None:
        """Keep ``line`` and print it while its cap holds."""
        is_progress = _PROGRESS_LINE.match(line.decode("utf-8", "replace")) is not None
        (self.progress if is_progress else self.others).add(line, _print_kit_line)


def run_child(
    paths: ChildPaths, source: str, seed: int, time_limit: float | None, output: ParticipantOutput
) -> list[str]:
    """Run the models in a child process under ``time_limit``; raise its failure as a KitError.
    Returns the tracks the model skipped (its report's word: skipping gains nothing, so a forged
    list only withdraws tracks).

    ``source`` is ``baseline:NAME`` (the kit's own code) or the absolute path of a code submission.
    What the child prints on stdout and stderr (the participant's code) is read from pipes into
    ``output`` (capped, echoed; a baseline's internal error is kept in its folder, ``saved_in``);
    the kit's own lines (progress, notes) come through a third pipe and are printed here, capped
    too (``KitLines``: no flood of other lines drops a progress line)."""
    folders = [str(folder.resolve()) for folder in (paths.input_dir, paths.out_dir, paths.work)]
    command = [sys.executable, "-c", _CHILD_BOOT, str(PACKAGE.parent), *folders, source, str(seed)]
    # unbuffered: the participant's lines reach the log as printed; a hash seed unless one is set:
    # set iteration order in participant code is reproducible
    env = {"PYTHONHASHSEED": "0", **os.environ, "PYTHONUNBUFFERED": "1"}
    kit_read, kit_write = os.pipe()
    readers, kit_lines = [], KitLines()
    try:
        # the child's forks may live on after it exited, in its session or one of their own:
        # none outlives this block, before the pipes are read to their end and the files checked
        with adopting():
            try:
                process = subprocess.Popen(
                    [*command, str(kit_write)],
                    env=env,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    pass_fds=(kit_write,),
                    start_new_session=True,
                )
            finally:
                os.close(kit_write)
            readers += output.drain(process.stdout, process.stderr)
            readers.append(drain(os.fdopen(kit_read, "rb"), kit_lines.add))
            timed_out = wait_then_stop(process, time_limit)
    finally:
        for reader in readers:
            reader.join(JOIN_SECONDS)
        output.finish()
        kit_lines.progress.echo_tail()  # the note on the progress lines cut, and the latest ones
    if timed_out:
        limit_note = (
            "code gets the phase's time limit minus up to 60 s kept for checking its predictions"
        )
        raise past_time_limit(time_limit, _during(paths), limit_note)
    trusted = source.startswith(BASELINE_PREFIX)
    skipped = _child_report(paths, process.returncode, output.saved_in, trusted).get("skipped")
    return [t for t in skipped if isinstance(t, str)] if isinstance(skipped, list) else []


def _print_kit_line(line: bytes) -> None:
    """Print a line of the child's pipe as the kit's when it has the form of the child's own lines
    (``_CHILD_LINE``), else as the participant's code's (``_echo``): the code runs in the child and
    can write to that pipe too."""
    text = line.decode("utf-8", "replace").rstrip("\n")
    if _CHILD_LINE.match(text):
        _say(sys.stdout, safe_display(text)[:KIT_LINE_CHARS])
    else:
        _echo(sys.stdout, line)


def past_time_limit(limit: float, during: str, limit_note: str) -> SubmissionError:
    """The refusal of a code submission stopped at its time limit of ``limit`` seconds, ``during``
    a step (``_while_running``); ``limit_note`` says where the limit comes from."""
    return SubmissionError.single(
        "code submission",
        f"the code submission ran past the time limit of {limit:g} s{during}",
        hint="make fit() and predict() faster, or train offline and load the model's parameters "
        f"from files in the submission ({limit_note})",
    )


def _during(paths: ChildPaths) -> str:
    """ " (while running track 'T': Model.fit)" from the child's progress file (track id, then the
    step), which participant code may have replaced (by a FIFO, a link, a huge file): read only as
    a regular file, 200 bytes at most."""
    data = read_head(paths.work / PROGRESS, 200)
    if data is None:
        return ""
    track, _, step = data.decode("utf-8", "replace").partition("\n")
    return _while_running(track, step)


def _while_running(track: str, step: str) -> str:
    """ " (while running track 'T': step)", the step left out when empty."""
    shown = f"track '{shorten(safe_display(track), 80)}'"
    if step:
        shown += f": {shorten(safe_display(step), 40)}"
    return f" (while running {shown})"


def last_progress(log: str) -> str:
    """ " (while running track 'T': fitting)" from the last of the kit's progress lines in the
    ingestion program's ``log`` (its stdout), '' when there is none or the track was done."""
    found = [match for match in map(_PROGRESS_LINE.match, log.splitlines()) if match]
    if not found or not found[-1].group(2):
        return ""
    return _while_running(*found[-1].groups())


#: What a participant can look for when the child stopped without a report.
CRASH_HINT = "look for os._exit(), crashes in native libraries or memory use"


def _child_report(paths: ChildPaths, returncode: int, details_dir: Path, trusted: bool) -> dict:
    """The child's report when it says "ok"; otherwise its failure is raised.

    What the kit trusts: a child's report is the kit's own word only when the child ran no
    participant code (``trusted``: a built-in baseline). Otherwise every file in the work folder
    could have been written by that code, so its report may say "ok" (the prediction files are
    checked anyway) or describe the submission's own failure, but never blame the bundle or the
    kit (exit 1 or 3; the input data was checked by this process before the child started), and
    its traceback file is not kept (it is no kit's traceback, and could be of any size)."""
    report = read_json_object(paths.work / REPORT, MAX_REPORT_BYTES)
    if report is not None and report.get("status") == "ok":
        return report  # the files were written and checked; a later exit code (atexit) is moot
    if report is None:
        how = f"exited with code {returncode}"
        if returncode < 0:
            how = f"was killed by signal {-returncode} (out of memory?)"
        raise SubmissionError.single(
            "code submission",
            f"the code submission stopped unexpectedly: the process {how}{_during(paths)}",
            hint="; ".join(filter(None, [CRASH_HINT, limits_in_force()])),
        )
    if trusted and report.get("kind") == "internal":  # the head of the kit's own traceback
        text = read_head(paths.work / INTERNAL_ERROR, MAX_TRACEBACK_BYTES)
        if text is not None:
            details_dir.mkdir(parents=True, exist_ok=True)
            (details_dir / "internal_error_child.txt").write_bytes(text)
    kind, message = report.get("kind"), report.get("message")
    if not trusted and (kind != "submission" or not isinstance(message, str) or not message):
        raise SubmissionError.single(
            "code submission",
            f"the process running the code submission failed{_during(paths)}",
            found=shorten(safe_display(str(message or "no message")), 400),
            hint="the input data passed the kit's checks before your code ran, so a "
            "failure in that process is counted as the submission's; if you believe "
            "it is the kit's, send the ingestion log to the organisers",
        )
    refusal = {"config": ConfigError, "submission": SubmissionError}.get(kind)
    if refusal is not None:
        raise refusal.single("", str(message))
    raise RuntimeError(str(message or "the ingestion child process failed"))
