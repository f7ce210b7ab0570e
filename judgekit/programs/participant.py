"""What a code submission printed, kept for the participant: ``participant_output.txt``.

The child process running the participant's code (``programs.child``) writes to pipes that the
ingestion program reads (never a file the code could have written or replaced): its stdout and
stderr, in the order their lines come, go into one ``CappedOutput`` (head and tail, the rest counted), are
echoed to the program's own log as they come (the head; then the tail at the end) and are saved
in the prediction output under PARTICIPANT_OUTPUT, which the scoring program ignores. A failure's
message (with the traceback of the participant's own frames) ends the file.
"""

from __future__ import annotations

import sys
from pathlib import Path
import threading
from typing import BinaryIO, Callable, List, Optional

from ..formats.archive import PARTICIPANT_OUTPUT
from ..report import atomic_write
from ..runner.capture import CappedOutput, drain

#: How each echoed line of the participant's output begins in the program's log.
ECHO_PREFIX = "[your code] "


def _echo_to(stream) -> Callable[[bytes], None]:
    """An echo of the participant's lines on ``stream`` (this program's stdout or stderr)."""

    def echo(line: bytes) -> None:
        text = line.decode("utf-8", errors="replace").rstrip("\n")
        stream.write(f"{ECHO_PREFIX}{text}\n")
        stream.flush()

    return echo


def _head_full() -> None:
    print(
        f"note: your code printed more than the log shows; its last lines follow when it ends, "
        f"and both are kept in {PARTICIPANT_OUTPUT} in the prediction output",
        flush=True,
    )


class ParticipantOutput:
    """The participant's output of one run of the ingestion program (empty until the child runs)."""

    def __init__(self, echo: bool = True):
        self.capture = CappedOutput(on_head_full=_head_full if echo else None)
        self.echo = echo
        self.started = False

    def drain(self, stdout: BinaryIO, stderr: BinaryIO) -> List[threading.Thread]:
        """Read the child's two pipes into the one capture, in the order the lines come, each
        echoed on this program's stream of the same name."""
        echoes = (_echo_to(sys.stdout), _echo_to(sys.stderr)) if self.echo else (None, None)
        return [drain(stdout, self.capture, echoes[0]), drain(stderr, self.capture, echoes[1])]

    def finish(self) -> None:
        """After the child ended: echo the note on what was cut and the tail."""
        if not self.echo or not self.capture.tail:
            return
        print(self.capture.cut_note(), end="", flush=True)
        self.capture.echo_tail()

    def save(self, output_dir: Path, failure: Optional[str] = None) -> Optional[Path]:
        """Write PARTICIPANT_OUTPUT into ``output_dir`` when the code printed anything or failed;
        ``failure``: the program's message, which ends the file. Returns its path, or None."""
        text = self.capture.text()
        if failure is not None and self.started:
            text += f"\n--- the ingestion program's message ---\n{failure}\n"
        if not text:
            return None
        path = Path(output_dir) / PARTICIPANT_OUTPUT
        atomic_write(path, text)
        return path
