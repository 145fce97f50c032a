"""Ctrl-C in the window's terminal (SIGINT) and a logout's SIGTERM close the window as its Close
does: the session stops, the transcript is closed, the crash trace ends cleanly (so the next
start does not report an unexpected end).

Qt's event loop runs in C++, where Python's signal handlers never get a turn; the signal's
number is written to a socket (`signal.set_wakeup_fd`) that a QSocketNotifier watches, so the
handler's work runs on the GUI thread. A second signal while the window is closing ends the
process at once, as the signal would have without us.
"""

from __future__ import annotations

import contextlib
import signal
import socket
from collections.abc import Callable

from PySide6.QtCore import QObject, QSocketNotifier

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class QuitOnSignals(QObject):
    def __init__(self, close: Callable[[], None], parent=None):
        super().__init__(parent)
        self._close = close
        self._closing = False
        self._reader, self._writer = socket.socketpair()
        for end in (self._reader, self._writer):
            end.setblocking(False)
        self._previous_fd = signal.set_wakeup_fd(self._writer.fileno())
        self._previous = {number: signal.signal(number, _wake_only) for number in SIGNALS}
        self._notifier = QSocketNotifier(self._reader.fileno(), QSocketNotifier.Type.Read, self)
        self._notifier.activated.connect(self._signalled)

    def _signalled(self) -> None:
        numbers = b""
        with contextlib.suppress(OSError):
            numbers = self._reader.recv(64)
        for number in numbers:
            if number not in SIGNALS:
                continue
            if self._closing:  # asked again while closing: the signal's default way, at once
                self.restore()
                signal.signal(number, signal.SIG_DFL)
                signal.raise_signal(number)
                return
            self._closing = True
            self._close()

    def restore(self) -> None:
        """The handlers there were before."""
        self._notifier.setEnabled(False)
        for number, previous in self._previous.items():
            signal.signal(number, previous)
        signal.set_wakeup_fd(self._previous_fd)


def _wake_only(number, frame) -> None:
    """The work is done on the GUI thread (the wake-up byte): nothing here."""
