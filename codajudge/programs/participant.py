"""What a code submission printed, kept for the participant: ``participant_output.txt``.

The child process running the participant's code (``programs.child``) writes to pipes that the
ingestion program reads (never a file the code could have written or replaced): its stdout and
stderr, in the order their lines come, go into one ``CappedOutput`` (head and tail, the rest counted), are
echoed to the program's own log as they come (the head; then the tail at the end) and are saved
in the prediction output under PARTICIPANT_OUTPUT, which the scoring program ignores. A failure's
message (with the traceback of the participant's own frames) ends the file.

While the code runs, the file is saved again every SAVE_SECONDS when new lines came: a step killed
from outside (the worker's time limit, which kills the whole step; on Codabench, the container
removed) leaves what the code printed until then, and no signal needs to be caught for it.
"""

from __future__ import annotations

import contextlib
import functools
import sys
from pathlib import Path
import threading
from typing import BinaryIO, List, Optional

from ..formats.archive import PARTICIPANT_OUTPUT
from ..report import atomic_write
from ..runner.capture import CappedOutput, drain

#: Seconds between two saves of PARTICIPANT_OUTPUT while the code runs (at most this much of
#: its last output is missing from the file when the step is killed from outside).
SAVE_SECONDS = 0.5
#: How each echoed line of the participant's output begins in the program's log.
ECHO_PREFIX = "[your code] "
#: The line before the program's message, which ends PARTICIPANT_OUTPUT when the step failed.
MESSAGE_HEADER = "--- the ingestion program's message ---"


def code_printed(path: Path) -> bool:
    """Whether the PARTICIPANT_OUTPUT at ``path`` holds what the code printed, not only the
    program's message (a file of that message alone begins with MESSAGE_HEADER's line)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            start = f.read(len(MESSAGE_HEADER) + 2)
    except OSError:
        return False
    return bool(start) and start != f"\n{MESSAGE_HEADER}\n"


def _echo(stream, line: bytes) -> None:
    """Echo one of the participant's lines on ``stream`` (this program's stdout or stderr)."""
    text = line.decode("utf-8", errors="replace").rstrip("\n")
    print(f"{ECHO_PREFIX}{text}", file=stream, flush=True)


def _head_full() -> None:
    print(
        f"note: your code printed more than the log shows; its last lines follow when it ends, "
        f"and both are kept in {PARTICIPANT_OUTPUT} in the prediction output",
        flush=True,
    )


class ParticipantOutput:
    """The participant's output of one run of the ingestion program (empty until the child runs).
    ``saved_in``: the folder where PARTICIPANT_OUTPUT is kept up to date while the code runs."""

    def __init__(self, saved_in: Path):
        self.capture = CappedOutput(on_head_full=_head_full)
        self.saved_in = saved_in
        self._saver: Optional[threading.Thread] = None
        self._stop_saving = threading.Event()

    def drain(self, stdout: BinaryIO, stderr: BinaryIO) -> List[threading.Thread]:
        """Read the child's two pipes into the one capture, in the order the lines come, each
        echoed on this program's stream of the same name; keep the file saved meanwhile. Called
        once, when the child started."""
        readers = []
        for pipe, stream in ((stdout, sys.stdout), (stderr, sys.stderr)):
            echo = functools.partial(_echo, stream)
            readers.append(drain(pipe, functools.partial(self.capture.add, echo=echo)))
        self._saver = threading.Thread(target=self._keep_saved, daemon=True)
        self._saver.start()
        return readers

    def _keep_saved(self) -> None:
        """Save the capture every SAVE_SECONDS when it holds new lines, until ``finish``."""
        saved_lines = 0
        while not self._stop_saving.wait(SAVE_SECONDS):
            if self.capture.lines == saved_lines:
                continue
            saved_lines = self.capture.lines
            # OSError: the code put a folder at that name; the final save replaces it
            with contextlib.suppress(OSError):
                self.save()

    def finish(self) -> None:
        """After the child ended: stop saving while it runs, echo the note on what was cut and
        the tail."""
        self._stop_saving.set()
        if self._saver is not None:
            self._saver.join()
        self.capture.echo_tail()

    def save(self, failure: Optional[str] = None) -> None:
        """Write PARTICIPANT_OUTPUT into ``saved_in`` when the code printed anything or failed
        after it started; ``failure``: the program's message, which ends the file."""
        text = self.capture.text()
        if failure is not None and self._saver is not None:  # the child was started
            text += f"\n{MESSAGE_HEADER}\n{failure}\n"
        if text:
            atomic_write(self.saved_in / PARTICIPANT_OUTPUT, text)

    def keep(self, failure: Optional[str] = None) -> None:
        """``save``, then say where the file is when the code printed anything."""
        self.save(failure)
        if self.capture.bytes > 0:
            print(f"what your code printed is in {PARTICIPANT_OUTPUT} in the prediction output")
