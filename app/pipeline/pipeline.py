"""The live chain: audio -> recognition -> translation -> speech, each stage on its own thread.

    CaptureStage ──audio queue (bounded)──▶ RecognitionStage ──▶ JobBoard ──▶ TranslationStage ──▶ SpeechStage
    capture.py                              recognition.py       jobs.py      translation.py       speech.py
    pipeline-capture                        pipeline-recognition              pipeline-translation speech-output

Pipeline wires the stages for each start() .. stop() (session_state.py) and is the API the
window and `run` use (app/pipeline/session.py); its settings are refused before anything starts
(preflight.py). Every stage reports through one Reporter (reporter.py): the transcript, then
`on_event`. When a recognised text is translated is decided in one place, the job board
(jobs.py). A failure in an utterance is an Error and the chain goes on with the next; a stage
thread that dies of an error nobody handled is an Error naming the stage, then the session stops
(STOPPED; stage_threads.py starts, stops and watches the threads). Direction changes are tagged onto the
source text: a text recognised as English is only ever translated en->zh, so no English
reaches the Chinese stream after a switch.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING

from app.pipeline.calm import RULES, CalmText
from app.pipeline.capture import CaptureStage
from app.pipeline.config import PipelineConfig, PipelineTranslator, TokenCodec
from app.pipeline.glossary_builder import GlossaryBuilder
from app.pipeline.jobs import JobBoard
from app.pipeline.preflight import check_before_start
from app.pipeline.recognition import RecognitionStage
from app.pipeline.reporter import Reporter
from app.pipeline.session_state import SessionState
from app.pipeline.speech import SpeechStage
from app.pipeline.stage_threads import StageThreads
from app.pipeline.transcript import Transcript
from app.pipeline.translation import TranslationStage
from app.shared.audio import AudioSource
from app.shared.chinese import ChineseScript
from app.shared.events import CaptionCorrected, Event, Speaker, Stage, State, Status
from app.shared.glossary import Glossary
from app.shared.languages import AUTO_DIRECTION, Direction, Language

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
            lambda: CalmText(config.calm, config.show_rule or RULES[config.live_text]),  # a fresh one per session
        )
        self._threads = StageThreads(self._reporter, self._speech, on_failure)

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

    def _current_direction(self) -> Direction:
        return self._direction

    # -- control --------------------------------------------------------------------------
    @property
    def direction(self) -> Direction:
        return self._direction

    @property
    def running(self) -> bool:
        return self._threads.running

    def start(self) -> None:
        """Begin a session (returns at once; models load on the stage threads)."""
        with self._threads.control:
            if self.running:
                return
            check_before_start(self.config, recognizer_given=self._recognition.recognizer is not None)
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
            stages = (
                (Stage.CAPTURE, "capture", self._capture.run),
                (Stage.ASR, "recognition", self._recognition.run),
                (Stage.TRANSLATION, "translation", self._translation.run),
            )
            heard = AUTO_DIRECTION if self.config.auto_direction else self._direction
            self._threads.launch(session, stages, announce=Status(state=State.LOADING, detail=f"direction {heard}"))

    def stop(self, timeout: float = 10.0) -> None:
        """End the session: in-flight work is cancelled, threads joined. Safe to call twice."""
        self._threads.stop(timeout)

    def end_input(self) -> None:
        """Stop listening, as if the input had ended: the utterance in progress is finalised and
        translated, and the session drains (wait_until_done, then stop()). Returns at once."""
        self._threads.end_input()

    def finish(self, timeout: float = 30.0) -> None:
        """End a live session cleanly (Ctrl-C, --duration): what was heard is finalised,
        translated and saved, then the session stops."""
        self.end_input()
        self.wait_until_done(timeout)
        self.stop()

    def wait_until_done(self, timeout: float | None = None) -> bool:
        """Wait until a recording has been fully processed and spoken (or the session stopped)."""
        return self._threads.wait_until_done(timeout)

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
        session = self._threads.session
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
        with self._threads.control:
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
        self.config.chinese = ChineseScript.parse(script)
        self._recognition.set_chinese(self.config.chinese)

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
