"""Where a pipeline's events go: labelled with its speaker, saved in the transcript, then handed
to the observer, one event at a time, from whichever stage thread emits them."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from app.pipeline.transcript import Transcript
from app.shared.errors import QT_TRANSLATE_NOOP, Text, texts_of
from app.shared.events import Error, Event, Stage, Status

if TYPE_CHECKING:
    from app.pipeline.config import PipelineConfig

log = logging.getLogger(__name__)

# What a stage thread that died of an error nobody handled says, by stage; the session then stops.
DIED = {
    Stage.CAPTURE: QT_TRANSLATE_NOOP("Errors", "Audio capture stopped unexpectedly: {reason}"),
    Stage.ASR: QT_TRANSLATE_NOOP("Errors", "Speech recognition stopped unexpectedly: {reason}"),
    Stage.TRANSLATION: QT_TRANSLATE_NOOP("Errors", "Translation stopped unexpectedly: {reason}"),
}
SESSION_STOPPED = QT_TRANSLATE_NOOP(
    "Errors",
    "The session has stopped; what was translated is saved. Start again, "
    "and if this happens again, please report it with the app's log.",
)


def deliver(event: Event, transcript: Transcript | None, on_event: Callable[[Event], None] | None) -> None:
    """A session of several lanes (a conversation's two sides, a host and its guests): `event`
    saved in the session's one transcript, then handed to its observer. Neither a transcript that
    cannot be written nor an observer's bug stops the session. Callers hold their lock: one event
    at a time from every lane, in order."""
    if transcript is not None:
        try:
            transcript.record(event)
        except OSError as error:
            log.warning("transcript: could not save: %s", error)
    if on_event is not None:
        try:
            on_event(event)
        except Exception:  # an observer's bug must not stop the session
            log.exception("an event observer failed on %s", event.type)


class Reporter:
    """A pipeline's events, in order; the transcript's saving problems told once."""

    def __init__(self, config: PipelineConfig, on_event: Callable[[Event], None] | None):
        self.config = config
        self.on_event = on_event
        self.transcript: Transcript | None = None
        self._transcript_told = False  # observers know saving the transcript fails
        self._lock = threading.Lock()

    def open_transcript(self) -> None:
        """A new transcript for a new session (when the config saves one)."""
        if self.config.save_transcript:
            self.transcript = Transcript(self.config.transcript_path)  # never raises: see `problem`
            self._transcript_told = False

    def reopen_transcript(self) -> None:
        """The closed transcript takes records again (an utterance heard again after the session)."""
        if self.transcript is not None:
            self.transcript.reopen()

    def close_transcript(self) -> None:
        if self.transcript is not None:
            self.transcript.close()

    def emit(self, event: Event) -> None:
        event = event.said_by(self.config.speaker)
        if isinstance(event, (Status, Error)):
            log.info("%s", event)
        with self._lock:  # observers see one event at a time, in order
            for item in [event, *self._record(event)]:
                if self.on_event is not None:
                    try:
                        self.on_event(item)
                    except Exception:  # an observer's bug must not stop the pipeline
                        log.exception("an event observer failed on %s", item.type)

    def error(
        self, stage: Stage, error: BaseException, utterance_id: int | None = None, prefix: str = "", **values
    ) -> None:
        """Report `error`; `prefix` is a marked template that holds it as {reason} ("Translation failed: {reason}")."""
        message, hint = texts_of(error)
        if prefix:
            message = Text(prefix, {**values, "reason": message})
        self.emit(
            Error.of(
                stage,
                message,
                hint or Text(QT_TRANSLATE_NOOP("Errors", "The pipeline goes on with the next utterance.")),
                utterance_id,
            )
        )

    def stage_died(self, stage: Stage, error: BaseException) -> None:
        """A stage's thread met an error nobody handled: say which stage, and that the session stops."""
        log.error("the %s stage died", stage, exc_info=error)
        # An error nobody expected: its type says more than its words (KeyError: 'x').
        reason = f"{type(error).__name__}: {error}".removesuffix(": ")
        try:
            self.emit(Error.of(stage, Text(DIED[stage], {"reason": reason}), Text(SESSION_STOPPED)))
        except BaseException:  # an observer that kills threads: the stop must happen all the same
            log.exception("the %s stage's death could not be reported", stage)

    def _record(self, event: Event) -> list[Error]:
        """Save `event` in the transcript; the first time saving fails (and again after it has
        worked since), the Error to tell observers. Saving never stops the chain."""
        transcript = self.transcript
        if transcript is None:
            return []
        try:
            transcript.record(event)
        except Exception:  # a bug in saving must not stop translation either
            log.exception("transcript: could not record %s", event.type)
            return []
        if transcript.problem is None:
            self._transcript_told = False
            return []
        if self._transcript_told:
            return []
        self._transcript_told = True
        error = Error.of(
            Stage.TRANSCRIPT,
            Text(
                QT_TRANSLATE_NOOP(
                    "Errors",
                    "The transcript cannot be saved to {path} ({reason}). "
                    "Translation goes on; what is not saved yet is kept in memory.",
                ),
                {"path": transcript.path, "reason": transcript.problem},
            ),
            Text(
                QT_TRANSLATE_NOOP(
                    "Errors",
                    "Free some disk space or make the folder writable: saving resumes by itself. "
                    "Or choose another folder with LIVE_TRANSLATOR_TRANSCRIPTS.",
                )
            ),
        )
        transcript.record(error)
        return [error]
