"""Slow work off the GUI thread: QObject workers moved to QThreads their widget owns.

The window stays responsive while a model is checked, a download runs or devices are listed;
results come back as signals on the GUI thread. The owner keeps every thread it started in a
`WorkerPool` and joins them all when it closes.

PySide runs a plain Python callable (a lambda) connected to a signal in the thread that
emits it. So a worker's own signals stay inside it, and what callers connect to —
`finished`, `failed`, `progress` — belong to a relay object that lives on the GUI thread:
its signals are re-emitted there, and whatever is connected to them runs there too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QEventLoop, QObject, QThread, QTimer, Signal, Slot


class _Relay(QObject):
    finished = Signal(object)
    failed = Signal(object)
    progress = Signal(object, object)


class Worker(QObject):
    """Runs `fn(*args, **kwargs)` once on its thread. With `with_progress`, `fn` also gets
    `progress=callback(done, total)`. Connect to `finished(result)`, `failed(exception)`
    (a LiveTranslatorError carries a hint) and `progress(done, total)`: they fire on the
    thread that created the worker (the GUI thread)."""

    _finished = Signal(object)
    _failed = Signal(object)
    _progress = Signal(object, object)

    def __init__(self, fn: Callable[..., Any], *args, with_progress: bool = False, **kwargs):
        super().__init__()
        self.fn, self.args, self.kwargs = fn, args, kwargs
        self.relay = _Relay()  # not a child: it must stay on this thread when the worker moves
        self.finished, self.failed, self.progress = self.relay.finished, self.relay.failed, self.relay.progress
        self._finished.connect(self.relay.finished)
        self._failed.connect(self.relay.failed)
        self._progress.connect(self.relay.progress)
        if with_progress:
            self.kwargs["progress"] = lambda done, total=None: self._progress.emit(done, total)

    @Slot()
    def run(self) -> None:
        try:
            result = self.fn(*self.args, **self.kwargs)
        except Exception as error:  # shown to the user by the owner; the window goes on
            outcome, value = self._failed, error
        else:
            outcome, value = self._finished, result
        # Done with the thread: drop the progress callback (a cycle back to this worker) and go
        # home to the GUI thread, so the worker is freed there, when its owner lets go of it,
        # never by a garbage collection on some thread while its own is winding down.
        self.fn, self.args, self.kwargs = None, (), {}
        self.moveToThread(QCoreApplication.instance().thread())
        outcome.emit(value)


class WorkerPool(QObject):
    """The threads one widget started; `wait_idle()` and `shutdown()` wait for all of them."""

    idle = Signal()  # the last thread running has finished and been let go of

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.threads: dict[QThread, Worker] = {}

    def start(self, worker: Worker) -> Worker:
        thread = QThread(self)
        worker.moveToThread(thread)
        thread.started.connect(worker.run)
        worker._finished.connect(thread.quit)
        worker._failed.connect(thread.quit)
        thread.finished.connect(self._forget)
        self.threads[thread] = worker
        thread.start()
        return worker

    @Slot()
    def _forget(self) -> None:
        # A queued call on this (GUI) thread, after the worker's results, which were posted
        # first; dropping the last reference deletes the worker.
        thread = self.sender()
        self.threads.pop(thread, None)
        thread.deleteLater()
        if not self.threads:
            self.idle.emit()

    def busy(self) -> bool:
        return any(t.isRunning() for t in self.threads)

    def wait_idle(self, timeout_s: float) -> bool:
        """Wait until every thread has finished, for at most `timeout_s`, in a local event
        loop: the GUI thread goes on handling events meanwhile (results arrive, windows draw).
        True when none is left."""
        if self.threads:
            loop = QEventLoop()
            self.idle.connect(loop.quit)
            QTimer.singleShot(int(timeout_s * 1000), loop, loop.quit)
            loop.exec()
            self.idle.disconnect(loop.quit)
        return not self.threads

    def shutdown(self, timeout_ms: int = 60000) -> bool:
        """Ask every thread to finish and wait; True when all have stopped. The stopped ones
        are let go of now, while their owner still exists."""
        done = True
        for thread in list(self.threads):
            thread.quit()
            if thread.wait(timeout_ms):
                self.threads.pop(thread, None)
            else:
                done = False
        return done
