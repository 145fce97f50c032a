"""Pipeline events -> the GUI thread.

The pipeline calls `on_event` on its own threads, sometimes hundreds of times a second
(one decoder step each). Emitting a queued Qt signal per event would make the pipeline pay
for the window, so events go into a deque (thread-safe append) and only the first event of
a batch wakes the GUI thread; the GUI thread then takes everything queued at once.
"""

from __future__ import annotations

import collections
import threading

from PySide6.QtCore import QObject, Qt, Signal, Slot


class EventBridge(QObject):
    """`on_event(event)` may be called from any thread; `events(list)` fires on the GUI thread."""

    events = Signal(list)
    _wake = Signal()

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._queue: collections.deque = collections.deque()
        self._lock = threading.Lock()
        self._woken = False
        self._wake.connect(self._drain, Qt.ConnectionType.QueuedConnection)

    def on_event(self, event) -> None:
        with self._lock:
            self._queue.append(event)
            if self._woken:
                return
            self._woken = True
        self._wake.emit()

    @Slot()
    def _drain(self) -> None:
        with self._lock:
            batch = list(self._queue)
            self._queue.clear()
            self._woken = False
        if batch:
            self.events.emit(batch)
