"""The threads of a Pipeline's sessions, one per stage: started together, stopped together.

A stage thread that dies of an error nobody handled (a bug, a library's own exit; not a failed
utterance) is an Error naming the stage, then the session stops on that thread: a half-working
chain would leave nothing to drain its queues."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable

from app.pipeline.reporter import Reporter
from app.pipeline.session_state import SessionState
from app.pipeline.speech import SpeechStage
from app.shared.events import Stage, State, Status

StageLoop = Callable[[SessionState], None]


class StageThreads:
    """One session at a time: its threads started, stopped and joined. `control` is held while a
    session starts or stops, and by whatever must not overlap either (Pipeline.redo_stopped)."""

    def __init__(self, reporter: Reporter, speech: SpeechStage, on_failure: Callable[[], None] | None):
        """on_failure: called (on the dying thread) after a stage died and this stopped the session."""
        self.control = threading.Lock()
        self.session: SessionState | None = None  # the latest session
        self._reporter = reporter
        self._speech = speech
        self._on_failure = on_failure

    @property
    def running(self) -> bool:
        return self.session is not None and not self.session.closed

    def launch(self, session: SessionState, loops: Iterable[tuple[Stage, str, StageLoop]], announce: Status) -> None:
        """Start `session` (the caller holds `control`): `announce` is emitted, then each stage's
        loop runs on its own `pipeline-NAME` thread."""
        for stage, name, loop in loops:
            thread = threading.Thread(
                target=self._run_stage, args=(stage, loop, session), name=f"pipeline-{name}", daemon=True
            )
            session.threads.append(thread)
        self.session = session
        self._reporter.emit(announce)
        for thread in session.threads:
            thread.start()

    def stop(self, timeout: float) -> None:
        """End the session: in-flight work is cancelled, threads joined. Safe to call twice."""
        with self.control:
            session = self.session
            if session is not None and not session.closed:
                self._close(session, timeout)

    def end_input(self) -> None:
        """Stop listening, as if the input had ended; the session drains. Returns at once."""
        if self.session is not None:
            self.session.end_input.set()

    def wait_until_done(self, timeout: float | None) -> bool:
        session = self.session
        return True if session is None else session.done.wait(timeout)

    def _close(self, session: SessionState, timeout: float) -> None:
        """Stop `session` (the caller holds `control`); the calling thread, if a stage's, is not joined."""
        session.closed = True
        session.end_input.set()
        session.stop.set()
        session.board.close()  # cancels the decode in flight
        for thread in session.threads:
            if thread is not threading.current_thread():
                thread.join(timeout)
        self._speech.stop()
        session.done.set()
        self._reporter.emit(Status(state=State.STOPPED))
        self._reporter.close_transcript()

    def _run_stage(self, stage: Stage, loop: StageLoop, session: SessionState) -> None:
        """A stage's thread: its loop; if an error nobody handled ends it, an Error naming the
        stage, then the session stops."""
        try:
            loop(session)
        except BaseException as error:  # whatever it is, the thread is gone: say so, and stop
            self._reporter.stage_died(stage, error)
            if self._stop_after_failure(session) and self._on_failure is not None:
                self._on_failure()

    def _stop_after_failure(self, session: SessionState) -> bool:
        """stop(), from a stage thread, unless stop() is under way on another thread (which is
        then joining this one: waiting for its lock would hold it up). True if this one stopped it."""
        while not self.control.acquire(timeout=0.1):
            if session.closed:
                return False
        try:
            if session.closed:
                return False
            self._close(session, timeout=10.0)
            return True
        finally:
            self.control.release()
