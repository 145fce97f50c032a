"""Slow work off the GUI thread: QObject workers moved to QThreads their widget owns.

The window stays responsive while a model loads, a download runs or the doctor reads a
folder; results come back as signals on the GUI thread. The owner keeps every thread it
started in a `WorkerPool` and joins them all when it closes.
"""

from __future__ import annotations

from typing import Any, Callable

from PySide6.QtCore import QObject, QThread, Signal, Slot


class Worker(QObject):
    """Runs `fn(*args, **kwargs)` once on its thread. With `with_progress`, `fn` also gets
    `progress=callback(done, total)`, re-emitted as the `progress` signal."""

    finished = Signal(object)
    failed = Signal(object)        # the exception (a LiveTranslatorError carries a hint)
    progress = Signal(object, object)

    def __init__(self, fn: Callable[..., Any], *args, with_progress: bool = False, **kwargs):
        super().__init__()
        self.fn, self.args, self.kwargs = fn, args, kwargs
        if with_progress:
            self.kwargs["progress"] = lambda done, total=None: self.progress.emit(done, total)

    @Slot()
    def run(self) -> None:
        try:
            result = self.fn(*self.args, **self.kwargs)
        except Exception as error:  # shown to the user by the owner; the window goes on
            self.failed.emit(error)
        else:
            self.finished.emit(result)


class WorkerPool(QObject):
    """The threads one widget started; `shutdown()` waits for all of them."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.threads: dict[QThread, Worker] = {}

    def start(self, worker: Worker) -> Worker:
        thread = QThread(self)
        worker.moveToThread(thread)
        thread.started.connect(worker.run)
        worker.finished.connect(thread.quit)
        worker.failed.connect(thread.quit)
        thread.finished.connect(lambda: self._forget(thread))
        self.threads[thread] = worker
        thread.start()
        return worker

    def _forget(self, thread: QThread) -> None:
        # Dropping the last reference deletes the worker; its queued results were already
        # posted to the GUI thread ahead of this call.
        self.threads.pop(thread, None)
        thread.deleteLater()

    def busy(self) -> bool:
        return any(t.isRunning() for t in self.threads)

    def shutdown(self, timeout_ms: int = 30000) -> bool:
        """Ask every thread to finish and wait; True when all have stopped."""
        done = True
        for thread in list(self.threads):
            thread.quit()
            done = thread.wait(timeout_ms) and done
        return done
