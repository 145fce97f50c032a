"""The live chain: audio -> recognition -> translation -> speech, each stage on its own thread.

    CaptureStage ──audio queue (bounded)──▶ RecognitionStage ──▶ JobBoard ──▶ TranslationStage ──▶ SpeechStage
    capture.py                              recognition.py       jobs.py      translation.py       speech.py
    pipeline-capture                        pipeline-recognition              pipeline-translation speech-output

Pipeline wires the stages for each start() .. stop() (session_state.py) and is the API the
window and `run` use (app/pipeline/session.py). Every stage reports through one Reporter
(reporter.py): the transcript, then `on_event`. When a recognised text is translated is
decided in one place, the job board (jobs.py). A failure in an utterance is an Error and the
chain goes on with the next; a stage thread that dies of an error nobody handled is an Error
naming the stage, then the session stops (STOPPED). Direction changes are tagged onto the
source text: a text recognised as English is only ever translated en->zh, so no English
reaches the Chinese stream after a switch.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING

from app.pipeline.calm import RULES, CalmText
from app.pipeline.capture import CaptureStage
from app.pipeline.config import PipelineConfig, PipelineTranslator, TokenCodec
from app.pipeline.glossary_builder import GlossaryBuilder
from app.pipeline.jobs import JobBoard
from app.pipeline.recognition import RecognitionStage
from app.pipeline.reporter import Reporter
from app.pipeline.session_state import SessionState
from app.pipeline.speech import SpeechStage
from app.pipeline.transcript import Transcript
from app.pipeline.translation import TranslationStage
from app.shared.audio import AudioSource
from app.shared.chinese import ChineseScript
from app.shared.events import CaptionCorrected, Event, Speaker, Stage, State, Status
from app.shared.glossary import Glossary
from app.shared.languages import AUTO_DIRECTION, Direction, Language
from app.shared.live_text import LiveText

if TYPE_CHECKING:
    from app.asr import StreamingRecognizer
    from app.tts import SpeechOutput

__all__ = ["Pipeline", "PipelineConfig", "PipelineTranslator", "TokenCodec"]

log = logging.getLogger(__name__)


class Pipeline:
    """Runs the live chain; observers get every event through `on_event` (on pipeline threads)."""

    def __init__(
        self,
        config: PipelineConfig,
        on_event: Callable[[Event], None] | None = None,
        audio_source: AudioSource | None = None,
        speech_output: SpeechOutput | None = None,
        recognizer: StreamingRecognizer | None = None,
        translators: Mapping[Direction | str, PipelineTranslator] | None = None,
        shared_speech_output: bool = False,
        utterance_ids: Iterator[int] | None = None,
        on_failure: Callable[[], None] | None = None,
    ):
        """config: copied, so this session's switches (verify, chinese, speech) stay its own.
        audio_source: an app.shared.audio.AudioSource; speech_output: an app.tts.SpeechOutput;
        recognizer: a StreamingRecognizer; translators: direction -> Translator. Each defaults
        to one built from `config`. shared_speech_output: the speech output belongs to someone
        else (a conversation's two pipelines share one): this pipeline only queues texts on it.
        utterance_ids: the utterance numbers its recognizer gives (shared by a conversation's
        two pipelines, so no two utterances have the same id). on_failure: called (on the dying
        thread) after a stage died and this pipeline stopped itself (a conversation stops its
        other side)."""
        self.config = config = config.copy()
        self._reporter = Reporter(config, on_event)
        self._direction = config.direction
        self._speech = SpeechStage(config, speech_output, shared=shared_speech_output)
        if self._speech.owned:
            self._speech.output.on_event = self._reporter.emit
        self._capture = CaptureStage(config, self._reporter, self._speech, audio_source)
        self._recognition = RecognitionStage(config, self._reporter, self._current_direction, recognizer, utterance_ids)
        self._glossaries = GlossaryBuilder(self._use_glossary)
        self._translation = TranslationStage(
            config,
            self._reporter,
            self._speech,
            translators,
            self._current_direction,
            lambda: self._new_calm_text(),  # looked up each session (bench/live_text.py replaces it)
        )
        self._on_failure = on_failure
        self._session: SessionState | None = None
        self._control = threading.Lock()

    # -- what the stages hold, as the API has always named it ------------------------------
    @property
    def on_event(self) -> Callable[[Event], None] | None:
        return self._reporter.on_event

    @on_event.setter
    def on_event(self, observer: Callable[[Event], None] | None) -> None:
        self._reporter.on_event = observer

    @property
    def transcript(self) -> Transcript | None:
        """The JSONL transcript of the latest session (None: not saving, or not started)."""
        return self._reporter.transcript

    @property
    def speech_output(self) -> SpeechOutput:
        return self._speech.output

    @property
    def audio_source(self) -> AudioSource | None:
        return self._capture.audio_source

    @property
    def _translators(self) -> dict[Direction, PipelineTranslator]:  # what a window test checks
        return self._translation.translators

    def _current_direction(self) -> Direction:
        return self._direction

    def _new_calm_text(self) -> CalmText:
        """Memory of live translations, showing what the live-text choice's rule trusts (calm.RULES)."""
        return CalmText(self.config.calm, RULES[LiveText(self.config.live_text)])

    # -- control --------------------------------------------------------------------------
    @property
    def direction(self) -> Direction:
        return self._direction

    @property
    def running(self) -> bool:
        return self._session is not None and not self._session.closed

    def start(self) -> None:
        """Begin a session (returns at once; models load on the stage threads)."""
        with self._control:
            if self.running:
                return
            self._check_config()
            wanted, self.config.glossary = self.config.glossary, None  # a large one: in use once built
            board = JobBoard(
                self._direction,
                max_finals=self.config.max_pending_finals,
                translate_partials=self.config.translate_partials,
                same_decode=self._translation.decodes_alike,
            )
            session = SessionState(board, self.config.audio_queue_blocks)
            # A large glossary is built once the models have loaded: built meanwhile, it slowed
            # their loading, and the first final with it (by 1-2 s at 500,000 entries).
            self._glossaries.offer(wanted, after=(session.ready, session.translator_loaded))
            self._translation.load_errors.clear()  # a folder fixed since the last session gets another try
            self._reporter.open_transcript()
            self._speech.start()
            for stage, name, loop in (
                (Stage.CAPTURE, "capture", self._capture.run),
                (Stage.ASR, "recognition", self._recognition.run),
                (Stage.TRANSLATION, "translation", self._translation.run),
            ):
                thread = threading.Thread(
                    target=self._run_stage, args=(stage, loop, session), name=f"pipeline-{name}", daemon=True
                )
                session.threads.append(thread)
            self._session = session
            heard = AUTO_DIRECTION if self.config.auto_direction else self._direction
            self._reporter.emit(Status(state=State.LOADING, detail=f"direction {heard}"))
            for thread in session.threads:
                thread.start()

    def _check_config(self) -> None:
        """Bad input said before any thread starts or cache is allocated."""
        if self.config.input_path is not None:  # as `transcribe` checks its file
            from app.audio import FileSource

            FileSource(self.config.input_path, realtime=False).check()
        self._check_speech_model()
        from app.translation.generation_settings import check_setting

        for key, value in {"num_beams": self.config.num_beams, **self.config.decode_overrides}.items():
            if value is not None:
                check_setting(key, value, "the pipeline's settings")

    def _check_speech_model(self) -> None:
        """An English-only Whisper where Chinese is heard: refused now (the window and `run` alike),
        not by every decode once the model has loaded."""
        if self._recognition.recognizer is not None:
            return  # given ready-made: its language was checked when it was made
        if self.config.auto_direction or self.config.direction.source == Language.ZH:
            from app.asr.whisper_models import check_hears_chinese

            heard = AUTO_DIRECTION if self.config.auto_direction else self.config.direction
            check_hears_chinese(self.config.asr_model, f"direction {heard}")

    def stop(self, timeout: float = 10.0) -> None:
        """End the session: in-flight work is cancelled, threads joined. Safe to call twice."""
        with self._control:
            session = self._session
            if session is not None and not session.closed:
                self._close(session, timeout)

    def _close(self, session: SessionState, timeout: float) -> None:
        """Stop `session` (the caller holds _control); the calling thread, if a stage's, is not joined."""
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

    def _run_stage(self, stage: Stage, loop: Callable[[SessionState], None], session: SessionState) -> None:
        """A stage's thread: its loop; if an error nobody handled ends it, an Error naming the
        stage, then the session stops (no half-working chain: nothing would drain the queues)."""
        try:
            loop(session)
        except BaseException as error:  # whatever it is, the thread is gone: say so, and stop
            self._reporter.stage_died(stage, error)
            if self._stop_after_failure(session) and self._on_failure is not None:
                self._on_failure()

    def _stop_after_failure(self, session: SessionState) -> bool:
        """stop(), from a stage thread, unless stop() is under way on another thread (which is
        then joining this one: waiting for its lock would hold it up). True if this one stopped it."""
        while not self._control.acquire(timeout=0.1):
            if session.closed:
                return False
        try:
            if session.closed:
                return False
            self._close(session, timeout=10.0)
            return True
        finally:
            self._control.release()

    def end_input(self) -> None:
        """Stop listening, as if the input had ended: the utterance in progress is finalised and
        translated, and the session drains (wait_until_done, then stop()). Returns at once."""
        session = self._session
        if session is not None:
            session.end_input.set()

    def finish(self, timeout: float = 30.0) -> None:
        """End a live session cleanly (Ctrl-C, --duration): what was heard is finalised,
        translated and saved, then the session stops."""
        self.end_input()
        self.wait_until_done(timeout)
        self.stop()

    def wait_until_done(self, timeout: float | None = None) -> bool:
        """Wait until a recording has been fully processed and spoken (or the session stopped)."""
        session = self._session
        return True if session is None else session.done.wait(timeout)

    def set_direction(self, direction: Direction | str) -> None:
        """Switch mid-session: the utterance in progress is finished in the old direction,
        provisional work is dropped, and the recognizer listens for the new language. Face to
        face (config.auto_direction), the next utterance is heard in `direction`'s source language
        (next_language), then deciding goes on."""
        direction = Direction.parse(direction)
        if self.config.auto_direction:
            self.next_language(direction.source)
            return
        if direction == self._direction:
            return
        self._direction = direction
        session = self._session
        if session is not None:
            session.board.switch_direction(direction)
        self._reporter.emit(Status(state=State.DIRECTION, detail=direction))

    def next_language(self, language: Language | str | None) -> None:
        """Face to face: "the next sentence is English / 中文" (or the one being spoken), whatever
        the detector says; None takes the choice back. Ignored with a fixed direction."""
        self._recognition.next_is(language)

    def redo_utterance(self, utterance_id: int) -> None:
        """Face to face: an utterance was decided wrongly: hear it again in the other language and
        translate it the other way (a new final and translation for the same utterance id; only
        the latest 8 utterances are kept; once the session has stopped: redo_stopped). Returns at once."""
        self._recognition.redo(utterance_id)

    def redo_stopped(self, utterance_id: int) -> list[Event]:
        """Face to face, after the session has stopped: redo_utterance on the calling thread (a
        Whisper pass and a translation: seconds), with the models the session loaded. The new
        final, translation and corrected caption are appended to the session's transcript and
        returned, not sent to `on_event` (the session's observers stopped with it), nor spoken.
        Nothing while the session runs (use redo_utterance) or once the utterance is not kept."""
        with self._control:
            if self.running:
                return []
            heard: list[Event] = []
            observer, self._reporter.on_event = self._reporter.on_event, heard.append
            self._reporter.reopen_transcript()
            try:
                for job in self._recognition.hear_again(utterance_id):
                    self._translation.translate_alone(job)
            finally:
                self._reporter.close_transcript()
                self._reporter.on_event = observer
            return heard

    @property
    def speakers(self) -> frozenset[Speaker]:
        """Who this pipeline hears: its speaker in a conversation, else no one in particular."""
        return frozenset() if self.config.speaker is None else frozenset({self.config.speaker})

    def set_chinese(self, script: ChineseScript | str) -> None:
        """Write Chinese in `script` from the next recognised text and translation on."""
        self.config.chinese = ChineseScript.parse(script).value
        self._recognition.set_chinese(ChineseScript.parse(script))

    def apply_glossary(self, glossary: Glossary) -> None:
        """Use `glossary` (an app.shared.glossary.Glossary) from the next utterance on, without a
        restart: its terms in translations, as Whisper hotwords, and its corrections of heard text.
        A large one is built on a thread of its own first; the glossary in use stays meanwhile."""
        self._glossaries.offer(glossary)

    def _use_glossary(self, glossary: Glossary | None) -> None:
        self.config.glossary = glossary
        self._recognition.use_glossary()  # read by each Whisper pass

    def publish_correction(self, event: CaptionCorrected) -> None:
        """An utterance's corrected caption, to every observer and the transcript."""
        self._reporter.emit(event)

    def set_tts_enabled(self, enabled: bool) -> None:
        self._speech.set_enabled(enabled)

    def set_spoken(self, spoken: frozenset[Speaker]) -> None:
        """A single source speaks all it translates (set_tts_enabled); sides are a conversation's."""

    def set_verify(self, enabled: bool) -> None:
        """Read for each new final translation (the check is slow: provisional ones never run it)."""
        self.config.verify = enabled
