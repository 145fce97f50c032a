"""PortAudio's and ALSA's own diagnostics kept off stderr.

Debian's PortAudio prints each failed internal check ("Expression 'PaAlsaStreamComponent_Initialize(
…)' failed in 'src/hostapi/alsa/pa_linux_alsa.c', line: 2171") and alsa-lib its configuration
complaints ("ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default") straight to file
descriptor 2, where Python cannot catch them: a failed open shows four such lines before the
app's own message saying what went wrong and what to do. While PortAudio starts, lists devices
or opens a stream, `quiet_portaudio()` points descriptor 2 at a temporary file; afterwards those
lines go to the log at DEBUG level and everything else written meanwhile (another thread's
warning) is written to stderr as it was: nothing is lost.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import sys
import tempfile
import threading
from collections.abc import Iterator

log = logging.getLogger(__name__)

NOISE = re.compile(
    rb"^(Expression '.*' failed in '.*', line: \d+|ALSA lib .*|Cannot connect to server .*|"
    rb"jack server is not running.*|JackShmReadWritePtr::.*)$"
)

_lock = threading.Lock()
_depth = 0  # nested or concurrent users share one redirection
_saved_fd: int | None = None
_capture = None


@contextlib.contextmanager
def quiet_portaudio() -> Iterator[None]:
    _enter()
    try:
        yield
    finally:
        _leave()


def _enter() -> None:
    global _depth, _saved_fd, _capture
    with _lock:
        _depth += 1
        if _depth > 1:
            return
        try:
            sys.stderr.flush()
            _capture = tempfile.TemporaryFile()
            _saved_fd = os.dup(2)
            os.dup2(_capture.fileno(), 2)
        except (OSError, ValueError, AttributeError):  # no descriptor 2 to move: nothing to quieten
            _saved_fd, _capture = None, None


def _leave() -> None:
    global _depth, _saved_fd, _capture
    with _lock:
        _depth -= 1
        if _depth > 0 or _saved_fd is None or _capture is None:
            return
        with contextlib.suppress(OSError, ValueError, AttributeError):
            sys.stderr.flush()
        os.dup2(_saved_fd, 2)
        os.close(_saved_fd)
        _capture.seek(0)
        written = _capture.read()
        _capture.close()
        _saved_fd, _capture = None, None
    _pass_on(written)


def _pass_on(written: bytes) -> None:
    kept = []
    for line in written.splitlines(keepends=True):
        if NOISE.match(line.rstrip(b"\r\n")):
            log.debug("portaudio: %s", line.rstrip().decode(errors="replace"))
        else:
            kept.append(line)
    if kept:
        with contextlib.suppress(OSError):
            os.write(2, b"".join(kept))
