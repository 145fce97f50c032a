"""The recognition stage: the `pipeline-recognition` thread runs VAD + streaming Whisper
(app.asr.StreamingRecognizer) over the audio queue, emits partial and final source text (the
glossary's corrections of heard text applied), and hands each to the job board
(app/pipeline/jobs.py) tagged with the direction it was heard in. Face to face
(config.auto_direction) that direction follows the language decided for each utterance
(app.asr.language.LanguageSides, which this stage owns), and a wrongly decided utterance can
be heard again the other way (`redo`)."""

from __future__ import annotations

import dataclasses
import functools
import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

from app.pipeline.jobs import Job
from app.pipeline.session_state import END, FLUSH, Block, SessionState
from app.shared.chinese import ChineseScript
from app.shared.errors import QT_TRANSLATE_NOOP
from app.shared.events import Event, SourceFinal, SourcePartial, Stage, State, Status
from app.shared.languages import AUTO_DIRECTION, Direction, Language

if TYPE_CHECKING:
    from app.asr import StreamingRecognizer
    from app.pipeline.config import PipelineConfig
    from app.pipeline.reporter import Reporter

log = logging.getLogger(__name__)


class RecognitionStage:
    """Speech to text: the recognizer given, or one loaded on the first start and kept."""

    def __init__(
        self,
        config: PipelineConfig,
        reporter: Reporter,
        direction: Callable[[], Direction],
        recognizer: StreamingRecognizer | None,
        utterance_ids: Iterator[int] | None,
    ):
        """direction: the session's direction now (set_direction changes it on another thread)."""
        self.config = config
        self.reporter = reporter
        self.direction = direction
        self.recognizer = recognizer
        self._utterance_ids = utterance_ids
        self.sides = None  # face to face: whose turn it is (app.asr.language.LanguageSides)
        if config.auto_direction:
            from app.asr.language import LanguageSides  # lazy: app.asr (and app.audio) stay off `import app.pipeline`

            self.sides = LanguageSides(config.direction.source)
        self._redo: queue.SimpleQueue[int] = queue.SimpleQueue()  # utterances to hear again the other way
        # Utterances asked to be heard again and not yet done: one redo at a time per utterance,
        # asked again meanwhile (a button pressed 20 times, a key held) is ignored.
        self._redoing: set[int] = set()
        self._redoing_lock = threading.Lock()
        self._heard_in: Direction | None = None  # face to face: the direction of the latest text handed on
        self._again = False  # the texts being handed on are an utterance heard again (redo)

    def next_is(self, language: Language | str | None) -> None:
        """Face to face: the next utterance (or the one being spoken) is in `language`."""
        if self.sides is not None:
            self.sides.next_is(language)

    def redo(self, utterance_id: int) -> None:
        """Face to face: hear a finished utterance again in the other language (on this stage's
        thread, between blocks); its new final and translation replace the old ones."""
        if self.sides is not None and self._begin_redo(utterance_id):
            self._redo.put(utterance_id)

    def _begin_redo(self, utterance_id: int) -> bool:
        """Whether a redo of `utterance_id` may start now (none is asked or running for it)."""
        with self._redoing_lock:
            if utterance_id in self._redoing:
                return False
            self._redoing.add(utterance_id)
            return True

    def _drop_redos(self) -> None:
        while True:
            try:
                self._end_redo(self._redo.get_nowait())
            except queue.Empty:
                return

    def _end_redo(self, utterance_id: int) -> None:
        with self._redoing_lock:
            self._redoing.discard(utterance_id)

    def set_chinese(self, script: ChineseScript) -> None:
        if self.recognizer is not None:
            self.recognizer.set_chinese(script)

    def use_glossary(self) -> None:
        """The config's glossary as Whisper's hotwords, from its next pass on."""
        if self.recognizer is not None:
            self.recognizer.use_hotwords(self.options().hotwords)

    def options(self):
        from app.asr.options import RecognizerOptions  # lazy: app.asr stays off `import app.pipeline`

        glossary = self.config.glossary
        hotwords = {lang: glossary.terms(lang) for lang in ("en", "zh")} if glossary else {}
        return RecognizerOptions(hotwords=hotwords).paced(self.config.live_text)

    # -- the recognition thread --------------------------------------------------------------
    def run(self, session: SessionState) -> None:
        direction = self.direction()
        try:
            recognizer = self._load(direction.source)
        except Exception as error:  # an Error takes RUNNING's place; the session waits for stop()
            self.reporter.error(
                Stage.ASR, error, prefix=QT_TRANSLATE_NOOP("Errors", "Speech recognition could not start: {reason}")
            )
            session.stop.set()
            session.board.end_input()
            return
        session.ready.set()
        heard = AUTO_DIRECTION if self.sides is not None else direction
        self.reporter.emit(Status(state=State.RUNNING, detail=f"direction {heard}"))
        while not session.stop.is_set():
            self._redo_asked(session, recognizer)
            if self.sides is None and self.direction() != direction:  # finish what was said in the old language
                self._recognize(session, recognizer.flush, direction)
                direction = self.direction()
                recognizer.set_language(direction.source)
            blocks, marker = self._take_audio(session)
            if blocks:
                if blocks[0].captured_at is not None:  # how long the oldest audio waited: the backlog
                    session.board.behind_s = time.monotonic() - blocks[0].captured_at
                self._recognize(session, functools.partial(self._feed, recognizer, blocks), direction)
            if marker is END or marker is FLUSH:
                self._recognize(session, recognizer.flush, direction)
            if marker is END:
                break
        self._drop_redos()  # asked too late for this session: not heard again, and may be asked again
        session.board.end_input()

    def _load(self, language: str) -> StreamingRecognizer:
        if self.recognizer is None:
            from app.asr import StreamingRecognizer, load_whisper  # lazy: app.asr stays off `import app.pipeline`

            self.reporter.emit(Status(state=State.LOADING, detail=f"speech recognition ({self.config.asr_model})"))
            model = load_whisper(self.config.asr_model)  # loaded on app.asr's process-long thread
            self.recognizer = StreamingRecognizer(
                model=model, language=language, options=self.options(), ids=self._utterance_ids
            )
        if self.sides is not None:
            self.sides.side = Language(language)  # a new session starts from the first side
        self._heard_in = None
        self.recognizer.start_session(
            language, sides=self.sides, chinese=self.config.chinese, word_confidence=self.config.source_confidence
        )
        return self.recognizer

    @staticmethod
    def _take_audio(session: SessionState) -> tuple[list[Block], str | None]:
        """The audio waiting (live audio: the whole backlog at once, see _feed; a recording read
        flat out: block by block, as `transcribe` does), and the marker after it, if any."""
        try:
            item = session.audio.get(timeout=0.1)
        except queue.Empty:
            return [], None
        blocks = []
        while isinstance(item, Block):
            blocks.append(item)
            if item.captured_at is None:
                return blocks, None
            try:
                item = session.audio.get_nowait()
            except queue.Empty:
                return blocks, None
        return blocks, item

    @staticmethod
    def _feed(recognizer: StreamingRecognizer, blocks: list[Block]) -> list:
        """One feed for all the audio waiting: when live recognition falls behind, Whisper
        re-reads the utterance once for the whole backlog instead of once per block, so it
        catches up instead of falling further behind."""
        audio = blocks[0].samples if len(blocks) == 1 else np.concatenate([b.samples for b in blocks])
        return recognizer.feed(audio, captured_at=blocks[-1].captured_at or None)

    def _recognize(self, session: SessionState, step: Callable[[], list], direction: Direction) -> None:
        try:
            events = step()
        except Exception as error:  # a failing recognizer loses this utterance, not the session
            self.reporter.error(
                Stage.ASR, error, prefix=QT_TRANSLATE_NOOP("Errors", "Speech recognition failed: {reason}")
            )
            try:
                self.recognizer.reset()
            except Exception:  # the next utterance starts from whatever state it is in
                log.exception("asr: the recognizer could not be reset after a failure")
            return
        for event in events:
            event = self._rewrite_heard(event)
            self.reporter.emit(event)
            direction = self._heard_direction(session, event, direction)
            if isinstance(event, SourceFinal):
                session.board.submit_final(Job(event, direction, again=self._again))
            elif isinstance(event, SourcePartial):
                session.board.offer_partial(Job(event, direction))  # only the latest is kept

    def _heard_direction(self, session: SessionState, event: Event, direction: Direction) -> Direction:
        """The direction to translate `event` in: face to face, its decided language's; a change
        of side drops provisional work of the other side (the job board's switch)."""
        language = getattr(event, "language", None)
        if self.sides is None or language is None:
            return direction
        heard_in = Direction.spoken(language)
        if heard_in != self._heard_in:
            self._heard_in = heard_in
            session.board.switch_direction(heard_in)
        return heard_in

    def _redo_asked(self, session: SessionState, recognizer: StreamingRecognizer) -> None:
        """Hear again, the other way, the utterances asked for since the last block."""
        while True:
            try:
                utterance_id = self._redo.get_nowait()
            except queue.Empty:
                return
            self._again = True
            try:
                self._recognize(session, functools.partial(recognizer.redo, utterance_id), self.direction())
            finally:
                self._again = False
                self._end_redo(utterance_id)

    def hear_again(self, utterance_id: int) -> list[Job]:
        """Face to face, after the session has stopped (no recognition thread): `redo` on the
        calling thread. The new final is reported; returned, the jobs that translate it."""
        if self.sides is None or self.recognizer is None or not self._begin_redo(utterance_id):
            return []
        jobs = []
        try:
            for event in self.recognizer.redo(utterance_id):
                event = self._rewrite_heard(event)
                self.reporter.emit(event)
                if isinstance(event, SourceFinal):
                    jobs.append(Job(event, Direction.spoken(event.language), again=True))
        finally:
            self._end_redo(utterance_id)
        return jobs

    def _rewrite_heard(self, event: Event) -> Event:
        """Recognised text with the glossary's corrections of heard text applied."""
        glossary = self.config.glossary
        if not isinstance(event, (SourcePartial, SourceFinal)) or not glossary or not glossary.corrections():
            return event
        text = glossary.rewrite_heard(event.text)
        if text == event.text:
            return event
        changes: dict[str, Any] = {"text": text}
        if len(text) != len(event.text):
            changes["low_confidence"] = ()  # its spans no longer line up with the words
        if isinstance(event, SourcePartial):  # the committed text stays a prefix of the text
            changes["committed"] = os.path.commonprefix([glossary.rewrite_heard(event.committed), text])
        return dataclasses.replace(event, **changes)
