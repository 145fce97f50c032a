"""The window's sessions: starting and stopping them, numbering them, their event bridges.

A session is a `Pipeline`, or a `Conversation` of two; both follow app.pipeline.session.Session,
and nothing here asks which. One runs at a time (`running_session`). `start()` returns at once:
the session loads its models on its own threads and says so in Status events. `stop()` joins
its threads on a worker (a Whisper pass in progress cannot be interrupted), so a stop can still
be under way when the next session starts: each session has its own number and EventBridge,
and the window keys its rows by (session number, utterance id), since every session numbers
its utterances from the start again.

SessionControl draws nothing: it reads the window's settings, direction, model states and call
output when a session starts, keeps the switches it passes on (speech, verify, voice, spoken
side) in those settings, and its signals tell the window what to show. Its bridges live on the
GUI thread and are let go of there, with deleteLater; its stop workers run on the window's
WorkerPool and come home to the GUI thread when done (see app/ui/workers.py).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from app.pipeline.glossary_watch import READ_AT_ONCE_BYTES
from app.shared.collector import background_build
from app.shared.events import CaptionCorrected
from app.shared.glossary import Glossary
from app.shared.languages import Direction, Language
from app.tts import SpeechOutput
from app.ui import model_state
from app.ui.bridge import EventBridge
from app.ui.glossary_editor import load_user_glossary, user_glossary_path
from app.ui.sources import CONVERSATION, chosen, make_session, spoken_side
from app.ui.workers import Worker

if TYPE_CHECKING:
    from app.pipeline.session import Session
    from app.pipeline.transcript import Transcript

# Joining the stage threads waits for a Whisper pass in progress (it cannot be interrupted);
# on a loaded 2-core machine that has taken over 10 s. Each thread's join waits at most this,
# and a closing window as long for its workers.
STOP_TIMEOUT_S = 60.0


class SessionControl(QObject):
    events = Signal(list, int)  # a batch of one session's events (GUI thread), and the session's number
    session_begins = Signal(int)  # a new session's number, before it starts
    session_started = Signal(object)  # the Session now running; its models are still loading
    start_failed = Signal(object)  # the error that kept a session from starting
    session_stopping = Signal()  # a stop began: its threads are joined on a worker
    session_stopped = Signal(str, object)  # a stop ended: the stop's `after`, and its error or None

    def __init__(self, window):
        super().__init__(window)
        self.window = window  # a MainWindow: read when a session starts, never drawn on
        self.running_session: Session | None = None  # a Pipeline, or a Conversation
        self.session_number = 0  # each start is a new session
        self.session_transcript: Transcript | None = None  # the latest session's file, kept after it stops
        self.latest_session: Session | None = None  # face to face, kept after it stops (Other way)
        self.bridges: dict[int, EventBridge] = {}  # by session number, until its stop has ended
        self.stopping = 0  # stops still joining threads on workers
        self.input_path: str | None = None  # a recording played in place of the microphone
        self.audio_source = None  # any AudioSource (tests, demos) instead of the microphone
        self.realtime = True  # play recordings at speaking speed

    def running(self) -> bool:
        return self.running_session is not None

    # --- start and stop ---------------------------------------------------------------------
    def toggle(self) -> None:
        if self.running():
            self.stop()
        elif not self.stopping:
            self.start()

    def start(self) -> None:
        """Start a session. Returns at once: the session loads its models on its own threads
        and reports progress as Status events, so the window keeps drawing meanwhile."""
        window = self.window
        config = model_state.pipeline_config(
            window.settings,
            window.direction(),
            window.models_bar.states,
            input_path=self.input_path,
            realtime=self.realtime,
        )
        config.auto_direction = window.face_to_face.on  # face to face: each sentence's language decided
        self.latest_session = None  # its models go before the next session loads its own
        large = _user_glossary_is_large()  # read on a thread, not here: 500,000 entries took 9-17 s
        if not large:
            config.glossary = load_user_glossary()  # the user's terms: heard as hotwords, translated as written
        bridge = self.new_session()
        try:
            session = self._make_session(config, bridge)
            session.start()
        except Exception as error:
            self.start_failed.emit(error)
            self.end_session(self.session_number)
            return
        if large:
            threading.Thread(target=_read_user_glossary, args=(session,), name="glossary-reader", daemon=True).start()
        self.running_session = session
        self.latest_session = session if config.auto_direction else None
        self.session_transcript = session.transcript
        if window.crash_trace is not None and session.transcript is not None:
            window.crash_trace.note_transcript(session.transcript.path)  # named in the notice after a crash
        self.session_started.emit(session)

    def _make_session(self, config, bridge: EventBridge) -> Session:
        """A Pipeline, or a Conversation of two (me: microphone, them: system audio)."""
        settings = self.window.settings
        speech = SpeechOutput(
            voices={language: settings.voice(language) for language in Language},
            enabled=config.tts_enabled,
            rate=config.tts_rate,
            out_path=config.tts_out,
        )
        if chosen(settings).kind == CONVERSATION and self.input_path is None and self.audio_source is None:
            self.window.call_output.apply_to(speech)  # my translation into the call, when chosen
        return make_session(
            settings,
            config,
            on_event=bridge.on_event,
            audio_source=self.audio_source,
            speech_output=speech,
            guest_places=self.window.captions.guests.places_for_session(),  # guests speaking through the page
        )

    def new_session(self) -> EventBridge:
        """Number a new session and give it a bridge for its events."""
        self.session_number += 1
        number = self.session_number
        bridge = self.bridges[number] = EventBridge(self)
        bridge.events.connect(lambda batch: self.events.emit(batch, number))
        self.session_begins.emit(number)
        return bridge

    def end_session(self, number: int) -> None:
        """After its session has stopped: deliver what is left, then let the bridge go."""
        bridge = self.bridges.pop(number, None)
        if bridge is not None:
            bridge.drain()
            bridge.stop()
            bridge.deleteLater()

    def stop(self, after: str = "") -> None:
        """Stop the running session on a worker: joining its threads can wait for a Whisper
        pass to end. `after`: what the window says once it has stopped ("" = that it stopped)."""
        session, self.running_session = self.running_session, None
        if session is None:
            return
        self.stopping += 1
        self.session_stopping.emit()
        worker = Worker(session.stop, timeout=STOP_TIMEOUT_S)
        number = self.session_number
        worker.finished.connect(lambda _result: self._stopped(number, after, None))
        worker.failed.connect(lambda error: self._stopped(number, after, error))
        self.window.pool.start(worker)

    def _stopped(self, number: int, after: str, error: Exception | None) -> None:
        self.end_session(number)
        self.stopping -= 1
        self.session_stopped.emit(after, error)

    def input_finished(self, after: str) -> None:
        """The running session's input ended and all of it was translated (Status FINISHED):
        stop it; the next start listens to the microphone again."""
        self.input_path = None
        self.stop(after)

    def play_recording(self, path: str) -> None:
        """Translate a recording in place of the microphone, at speaking speed unless `realtime` is off."""
        if self.running():
            self.stop()
        self.input_path = path
        self.start()

    def end_sessions(self) -> None:
        """The window closes, its workers joined: deliver what every session left and let its bridge go."""
        for number in list(self.bridges):
            self.end_session(number)

    # --- switches, passed on to the running session (and remembered for the next) ----------
    def set_direction(self, direction: str) -> None:
        if self.running_session is not None:
            self.running_session.set_direction(direction)

    def set_tts_enabled(self, enabled: bool) -> None:
        self.window.settings.tts_enabled = enabled
        if self.running_session is not None:
            self.running_session.set_tts_enabled(enabled)

    def set_verify(self, enabled: bool) -> None:
        self.window.settings.verify = enabled
        if self.running_session is not None:  # from the next translation on
            self.running_session.set_verify(enabled)

    def set_voice(self, voice_id: str) -> None:
        """The voice for the chosen direction's target language."""
        language = Direction(self.window.direction()).target
        self.window.settings.set_voice(language, voice_id)
        if self.running_session is not None:
            self.running_session.speech_output.set_voice(language, voice_id)

    def set_spoken(self, side: str) -> None:
        """A conversation's spoken side: their words (default), mine, or both."""
        self.window.settings.spoken = side
        if self.running_session is not None:
            self.running_session.set_spoken(spoken_side(side).speakers)

    def set_chinese(self, script: str) -> None:
        if self.running_session is not None:
            self.running_session.set_chinese(script)

    def apply_glossary(self, glossary: Glossary) -> None:
        """The user's glossary changed: the running session uses it from its next utterance on."""
        if self.running_session is not None:
            self.running_session.apply_glossary(glossary)

    def publish_correction(self, event: CaptionCorrected, number: int) -> bool:
        """Send a corrected caption of session `number` through that session, to every observer
        and its transcript; False when that session is no longer running."""
        if self.running_session is None or number != self.session_number:
            return False
        self.running_session.publish_correction(event)
        return True


def _user_glossary_is_large() -> bool:
    try:
        return user_glossary_path().stat().st_size > READ_AT_ONCE_BYTES
    except OSError:  # none yet, or unreadable: load_user_glossary says so
        return False


def _read_user_glossary(session: Session) -> None:
    """A large user glossary, read on its own thread; the session uses it once built."""
    with background_build():
        glossary = load_user_glossary()
    session.apply_glossary(glossary)
