"""Standard output and error for the commands. A command prints its results on stdout; when
stdout cannot take them (closed with `>&-`, a reader that went away as in `| head`, a full disk
as `>/dev/full`), the command ends with exit status 1 and at most one line on stderr, never a
traceback (app/cli.py catches OutputLost).

While a command runs, `sys.stdout` is a GuardedOutput: a failed write or flush raises OutputLost
(not an OSError, which library code might swallow), and points the file descriptor at the null
device so that Python's own flush at exit has nowhere left to fail.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from collections.abc import Iterator


class OutputLost(Exception):
    """What the command printed could not all reach standard output. `quiet` when the reader
    simply left (a broken pipe): nothing more needs saying."""

    def __init__(self, reason: str, quiet: bool = False):
        super().__init__(reason)
        self.reason = reason
        self.quiet = quiet


class GuardedOutput:
    """A text stream in front of the real stdout (None when it was closed at start)."""

    def __init__(self, stream):
        self.stream = stream

    @property
    def closed_at_start(self) -> bool:
        return self.stream is None

    def write(self, text: str) -> int:
        if self.stream is None:
            raise OutputLost("standard output is closed")
        try:
            return self.stream.write(text)
        except OSError as error:
            raise self._lost(error) from None

    def flush(self) -> None:
        if self.stream is None:
            return
        try:
            self.stream.flush()
        except OSError as error:
            raise self._lost(error) from None

    def __getattr__(self, name: str):  # encoding, isatty, fileno, buffer...: the real stream's
        return getattr(self.stream, name)

    def _lost(self, error: OSError) -> OutputLost:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            _point_at_null(self.stream.fileno())
        if error.errno == errno.EPIPE:
            return OutputLost("standard output was closed by its reader", quiet=True)
        if error.errno == errno.EBADF:
            return OutputLost("standard output is closed")
        return OutputLost(f"writing to standard output failed ({error.strerror or error})")


@contextlib.contextmanager
def guarded_streams() -> Iterator[GuardedOutput]:
    """sys.stdout guarded while the block runs (the real streams come back after). A descriptor
    closed at start (1 or 2) is taken by the null device first, so no file the command opens
    becomes its stdout or stderr; a closed stderr reads as the null device, so nothing meant for it
    lands in stdout (print(file=None) writes to stdout)."""
    stdout, stderr = sys.stdout, sys.stderr
    for fd, stream in ((1, stdout), (2, stderr)):
        if stream is None:
            _take_if_closed(fd)
    guard = GuardedOutput(stdout)
    null = open(os.devnull, "w", encoding="utf-8") if stderr is None else None  # noqa: SIM115 - closed below
    sys.stdout, sys.stderr = guard, stderr if null is None else null
    try:
        yield guard
    finally:
        sys.stdout, sys.stderr = stdout, stderr
        if null is not None:
            null.close()


def _take_if_closed(fd: int) -> None:
    try:
        os.fstat(fd)
    except OSError:
        _point_at_null(fd)


def _point_at_null(fd: int) -> None:
    null = os.open(os.devnull, os.O_WRONLY)
    if null != fd:
        os.dup2(null, fd)
        os.close(null)
