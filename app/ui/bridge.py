"""Pipeline events -> the GUI thread.

The pipeline calls `on_event` on its own threads, hundreds of times a second while the
decoder runs (one event per step). Anything Qt does there (a queued signal per event, even a
lock) is time the translation worker spends on the window. So `on_event` only appends to a
deque (atomic in CPython, as cheap as the `run` command's own observer) and the GUI thread
collects the events on a 25 ms timer — faster than anyone reads — as one `events(list)` signal.
"""

from __future__ import annotations

import collections

from PySide6.QtCore import QObject, QTimer, Signal, Slot

POLL_MS = 25


class EventBridge(QObject):
    """`on_event(event)` may be called from any thread; `events(list)` fires on the GUI thread."""

    events = Signal(list)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._queue: collections.deque = collections.deque()
        self.on_event = self._queue.append  # called by pipeline threads: nothing else to do there
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self.drain)
        self._timer.start()

    @Slot()
    def drain(self) -> None:
        """Deliver everything queued so far (the timer calls it; tests may too)."""
        queue, batch = self._queue, []
        while queue:
            batch.append(queue.popleft())
        if batch:
            self.events.emit(batch)

    def stop(self) -> None:
        """No more deliveries (the window is closing)."""
        self._timer.stop()
