"""Reading a process's output from a pipe, bounded: its head and its tail, what lies between counted.

Code that prints without end (a progress bar per item, a debug line per row) must neither fill the
memory of the program reading it nor the log or the output folder it ends in; the output is read
line by line (a line of at most LINE_BYTES) by a thread per pipe, so that the pipe never blocks
the writer, and only the first ``head_bytes`` and the last ``tail_bytes`` are kept.
"""

from __future__ import annotations

import functools
import threading
from collections import deque
from typing import BinaryIO, Callable

#: Bytes of output kept from the start and from the end (the rest is counted, not kept).
HEAD_BYTES = 512 * 1024
TAIL_BYTES = 512 * 1024
#: A longer line is read (and cut) in pieces of this many bytes.
LINE_BYTES = 64 * 1024
#: Seconds to wait for a pipe's reader to finish once every writer has been stopped.
JOIN_SECONDS = 5.0


Echo = Callable[[bytes], None]


class CappedOutput:
    """The head and the tail of a stream of lines (bytes; several pipes may feed one, line by
    line), and the count of the lines and bytes cut between them. Each line kept in the head is
    echoed as it arrives (with the echo its pipe was drained with), and ``head_full`` is called
    once, when the head is full; ``echo_tail`` echoes the tail."""

    def __init__(self, head_bytes: int = HEAD_BYTES, tail_bytes: int = TAIL_BYTES):
        self.head_bytes, self.tail_bytes = head_bytes, tail_bytes
        self.head: list[bytes] = []
        self.tail: deque[tuple[bytes, Echo]] = deque()
        self.kept_tail = 0
        self.lines = self.bytes = 0
        self._lock = threading.Lock()

    def add(self, line: bytes, echo: Echo = lambda line: None) -> None:
        with self._lock:
            self.lines, self.bytes = self.lines + 1, self.bytes + len(line)
            # while the tail is empty, every line so far is in the head
            if not self.tail and self.bytes <= self.head_bytes:
                self.head.append(line)
                echo(line)
                return
            if not self.tail:
                self.head_full()
            self.tail.append((line, echo))
            self.kept_tail += len(line)
            while self.kept_tail > self.tail_bytes and len(self.tail) > 1:
                self.kept_tail -= len(self.tail.popleft()[0])

    def head_full(self) -> None:
        """Called once, when the first line that does not fit in the head comes: nothing here (the
        participant's output says so in the log)."""

    def cut_note(self) -> str:
        """``... 12,345 lines (1,234,567 bytes) cut ...`` or '' when nothing was cut."""
        cut_lines = self.lines - len(self.head) - len(self.tail)
        if not cut_lines:
            return ""
        cut_bytes = self.bytes - sum(map(len, self.head)) - self.kept_tail
        return f"... {cut_lines:,} lines ({cut_bytes:,} bytes) cut ...\n"

    def text(self) -> str:
        """The head, the note on what was cut, and the tail (undecodable bytes replaced)."""
        with self._lock:
            head = b"".join(self.head).decode("utf-8", errors="replace")
            tail = b"".join(line for line, _ in self.tail).decode("utf-8", errors="replace")
            note = self.cut_note()
            if note and head and not head.endswith("\n"):
                head += "\n"  # the note on the cut begins a line
            return head + note + tail

    def echo_tail(self) -> None:
        """After the writers ended: print the note on what was cut, then echo the tail's lines,
        each with the echo of its pipe."""
        with self._lock:
            print(self.cut_note(), end="", flush=True)
            for line, echo in self.tail:
                echo(line)


def drain(stream: BinaryIO, add: Callable[[bytes], None]) -> threading.Thread:
    """Start a thread giving each line of ``stream`` (of at most LINE_BYTES) to ``add`` until every
    writer closed it; join it once the writers are stopped."""

    def read_lines() -> None:
        with stream:
            for line in iter(functools.partial(stream.readline, LINE_BYTES), b""):
                add(line)

    thread = threading.Thread(target=read_lines, daemon=True)
    thread.start()
    return thread
