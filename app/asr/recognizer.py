"""Streaming speech recognition: 16 kHz blocks in, partial and final source-text events out.

Silero VAD cuts the stream into utterances (app.asr.segmenter). While one is being spoken,
Whisper re-reads it every `partial_interval_s` of new audio (longer while decodes are slow),
through a window as long as the utterance rather than Whisper's 30 s (app.asr.window), taking
turns on a shared model with other recognizers (app.asr.turns); the longest prefix on which the
latest hypotheses agree (2 in English, 3 in Chinese) is committed (local agreement, as
whisper_streaming does) and never taken back while the utterance is live (app.asr.partials).
When the speaker pauses (or the utterance grows too long) a final decode over the whole
utterance (greedy in English, read again with a beam when Whisper was unsure of it; beam search
in Chinese: RecognizerOptions.final_beam, unsure_final_logprob) settles the text: it is the
truth, and may revise what partials committed (two agreeing greedy partials can both mishear a
word); the final event's `revised` then names the committed text it replaced. That decode starts
speculatively once the pause is `tail_pad_s` long, on exactly the audio the final keeps, so its
result is ready when the pause reaches `min_silence_s`; it is sent at once as the utterance's
last partial (its translation can start while the pause is timed); speech resuming first makes
it stale and it is not used. Whisper's inventions on near-silence and its repetition loops are
filtered (app.asr.guards), and every decode is bounded: one beam re-read at most, a token budget
proportional to the audio, earlier text only as a final's context (`context_chars`). This module
runs the stream; the decodes are app.asr.decoding's, the context kept between utterances
app.asr.context's.
"""

from __future__ import annotations

import itertools
import os
import threading
import time
from collections.abc import Iterator
from dataclasses import replace

import numpy as np

from app.asr.context import FinalContext
from app.asr.decoding import Hearing, window_margin
from app.asr.guards import Heard, word_spans
from app.asr.language import KeptUtterances, LanguageDecision, LanguageSides, decided_fields, read_language
from app.asr.options import RecognizerOptions
from app.asr.partials import PartialSchedule
from app.asr.segmenter import Ended, Segmenter, Utterance
from app.asr.turns import turns_for
from app.asr.units import units_of
from app.asr.whisper_models import check_language, load_whisper
from app.shared.audio import SAMPLE_RATE
from app.shared.chinese import ChineseScript
from app.shared.errors import QT_TRANSLATE_NOOP, Text
from app.shared.events import Error, SourceFinal, Stage
from app.shared.languages import Language

# A language named in a message (the glossary's words: translated once for both).
_LANGUAGE_WORDS = {
    Language.EN: QT_TRANSLATE_NOOP("Errors", "English"),
    Language.ZH: QT_TRANSLATE_NOOP("Errors", "Chinese"),
}


class Requests:
    """What other threads ask of a recognizer (another language, a reset), taken at the start of
    its next feed() or flush()."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._language: str | None = None
        self._reset = False

    def ask(self, *, language: str | None = None, reset: bool = False) -> None:
        with self._lock:
            self._language = language if language is not None else self._language
            self._reset = self._reset or reset

    def take(self) -> tuple[str | None, bool]:
        """(the language asked for last or None, whether a reset was asked), and forgets them."""
        with self._lock:
            asked = self._language, self._reset
            self._language, self._reset = None, False
        return asked


class StreamingRecognizer:
    """Feed 16 kHz mono float32 blocks; get SourcePartial / SourceFinal events back.

    feed() and flush() run Whisper on the calling thread and must be called from one thread, as
    start_session(). set_language() and reset() may be called from any thread: they take effect
    at the start of the next feed() or flush(); set_chinese() and use_hotwords() too, from the
    next decode. Audio times in events count the samples fed since creation.
    """

    def __init__(
        self,
        model=None,
        language: str = "en",
        options: RecognizerOptions | None = None,
        *,
        compute_type: str = "int8",
        chinese: ChineseScript | str = ChineseScript.SIMPLIFIED,
        ids: Iterator[int] | None = None,
        sides: LanguageSides | None = None,
    ):
        """ids: the utterance numbers to use (default 1, 2, ...); two recognizers given one
        counter never number two utterances alike (a conversation's two sides). sides: face to
        face, each utterance's language is decided (app.asr.language) and `language` follows it."""
        if model is None or isinstance(model, (str, os.PathLike)):
            model = load_whisper(model, compute_type=compute_type)
        self.model = model
        self.options = options or RecognizerOptions()
        check_language(self.model, language)
        self.language = Language(language)
        self.chinese = ChineseScript.parse(chinese)  # the script recognised Chinese is written in
        self._last_heard: Heard | None = None  # the latest decode's words, for the final that asked
        self._turns = turns_for(self.model)  # Whisper's turns, shared with other recognizers on this model
        self._segments = Segmenter(self.options, ids if ids is not None else itertools.count(1))
        self.partials = PartialSchedule(self.options, self._segments)  # when partials are read; how finals settle them
        self._requests = Requests()  # set_language/reset may come from other threads
        self.finals_before = FinalContext()  # the context of the next final decode
        self.sides = sides
        self._kept = KeptUtterances()  # face to face: the latest utterances' audio, for redo()

    # -- what a session sets ----------------------------------------------------------------------
    def start_session(
        self, language: str, *, sides: LanguageSides | None, chinese: ChineseScript | str, word_confidence: bool
    ) -> None:
        """A new session on this recognizer (on the thread that feeds it, before it feeds): face to
        face or not (`sides`), the script Chinese is written in, whether a final marks its unsure
        words (RecognizerOptions.word_confidence); the utterance in progress is dropped and
        `language` heard from the next feed()."""
        self.sides = sides
        self.chinese = ChineseScript.parse(chinese)
        self.options.word_confidence = word_confidence
        self.reset()
        self.set_language(language)

    def set_chinese(self, script: ChineseScript) -> None:
        """Chinese heard from the next decode on is written in `script`."""
        self.chinese = script

    def use_hotwords(self, hotwords: dict) -> None:
        """Terms per language (a glossary's) for Whisper to hear as written, from the next final decode on."""
        self.options.hotwords = hotwords

    # -- requests from any thread ---------------------------------------------------------------
    def set_language(self, language: str) -> None:
        """Recognise `language` from now on; a changed language drops the utterance in progress."""
        check_language(self.model, language)
        self._requests.ask(language=language)

    def reset(self) -> None:
        """Drop the utterance in progress (the session clock keeps counting)."""
        self._requests.ask(reset=True)

    def _apply_requests(self) -> None:
        language, reset = self._requests.take()
        if language is not None and language != self.language:
            self.language = Language(language)
            reset = True
        if reset:
            self._segments.reset()
            self.finals_before.forget()

    # -- the stream -----------------------------------------------------------------------------
    def feed(self, block: np.ndarray, captured_at: float | None = None) -> list:
        """Take the next audio; `captured_at` = monotonic time its last sample was recorded."""
        self._apply_requests()
        block = np.asarray(block, np.float32).reshape(-1)
        now = time.monotonic() if captured_at is None else captured_at
        events: list = []
        for ended in self._segments.add(block, now):
            events += self._finish(ended)
        u = self._segments.utterance
        if u is None:
            return events
        if self.partials.partial_due(u, captured_at):
            events += self._partial(u)
        elif (end := self.partials.speculation_end(u, captured_at)) is not None:
            u.early = (end, self._hear_final(self._segments.audio(u.start, end), u))
            events += self.partials.show_early(u, self.language, decided_fields(u.decision, final=False))
        return events

    def flush(self) -> list:
        """End of input: finalize the utterance in progress."""
        self._apply_requests()
        ended = self._segments.flush()
        return self._finish(ended) if ended is not None else []

    def partial_interval_s(self) -> float:
        """New audio between two live partials: the option, stretched while decodes are slow."""
        return self.partials.interval_s()

    def _partial(self, u: Utterance) -> list:
        """A greedy reading of `u` so far, when Whisper is free for it."""
        samples = self._segments.samples
        with self._turns.partial(id(self)) as granted:
            if not granted:
                return []  # Whisper is busy with a final or the other side: ask again on the next block
            u.decoded_until = samples
            began = time.monotonic()
            audio = self._segments.audio(u.start, samples)
            self._decide_language(u, audio, final=False)
            heard = self.transcribe(audio, final=False)
            cost = time.monotonic() - began
        self.partials.note_cost(cost)
        return self.partials.read(u, heard, self.language, decided_fields(u.decision, final=False))

    # -- finals ---------------------------------------------------------------------------------
    def _finish(self, ended: Ended) -> list:
        """The final of an utterance that ended (the speculative decode's, when it read the same audio)."""
        u, end = ended.utterance, ended.end
        if u.speech_s < self.options.min_speech_s:
            return []  # too short to be speech
        heard = u.early[1] if u.early is not None and u.early[0] == end else self._hear_final(ended.audio, u)
        text, revised = self.partials.settle(u.committed, units_of(heard.text))
        if text and self.sides is not None and u.decision is not None:
            self.sides.settle(u.decision)
        self.finals_before.remember(ended.audio, text, self.options.context_chars.get(self.language, 0))
        if not text and u.shown is None:
            return []
        # An empty final after partials tells observers that utterance came to nothing.
        final = SourceFinal(
            utterance_id=u.id,
            text=text,
            start=u.start / SAMPLE_RATE,
            end=end / SAMPLE_RATE,
            speech_end_at=u.speech_end_at,
            low_confidence=word_spans(text, heard.unsure),
            revised=revised,
            **decided_fields(u.decision, final=True),
        )
        if self.sides is not None and text:
            self._kept.keep(final, ended.audio)
        return [final]

    def redo(self, utterance_id: int) -> list:
        """Face to face: hear a finished utterance again in the other language than decided (its
        final, again, with `revised` the text it replaces); the side moves with it. Nothing when
        the utterance is no longer kept (only the latest few are). When the other language hears
        nothing, the utterance keeps its text, language and side: an Error says so instead."""
        kept = self._kept.get(utterance_id) if self.sides is not None else None
        if kept is None or kept[1].language is None:
            return []
        audio, before = kept
        decision = LanguageDecision(before.language.other, 1.0, by_hand=True)
        language, self.language = self.language, decision.language
        heard = self._hear_final(audio)
        text, _ = self.partials.settle([], units_of(heard.text))
        if not text:
            self.language = language
            return [_nothing_heard_again(before)]
        self.sides.settle(decision)
        again = replace(
            before,
            text=text,
            low_confidence=word_spans(text, heard.unsure),
            revised=before.text,
            language=decision.language,
            language_confidence=decision.confidence,
            emitted_at=time.monotonic(),
        )
        self._kept.keep(again, audio)
        return [again]

    def _decide_language(self, u: Utterance, audio: np.ndarray, final: bool) -> None:
        """Face to face: the language this decode of `u` hears in (app.asr.language), read from
        the window the decode reads. Partials that were heard in the other language are not
        agreed with: the utterance's live text starts again in the new one."""
        if self.sides is None:
            return
        margin = window_margin(self.options, final)
        reading = read_language(
            self.model, audio, margin_s=3.0 if margin is None else margin, min_s=self.options.min_window_s
        )
        decision = self.sides.decide(reading, u.speech_s)
        if u.decision is not None and decision.language != u.decision.language:
            u.committed, u.history, u.shown = [], [], None
        u.decision = decision
        self.language = decision.language

    # -- decodes --------------------------------------------------------------------------------
    def transcribe(self, audio: np.ndarray, final: bool = True) -> str:
        """Whisper on one stretch of 16 kHz audio with every guard applied: the forced language,
        a token budget, hallucination and loop filters, Chinese in the chosen script. A final decode uses
        RecognizerOptions.final_beam (a beam again when unsure); a partial one is greedy."""
        heard = self.hear(audio, final)
        self._last_heard = heard
        return heard.text

    def _hear_final(self, audio: np.ndarray, u: Utterance | None = None) -> Heard:
        """A final decode through transcribe() (the one entry point), with its unsure words;
        before any partial waiting for the shared Whisper."""
        with self._turns.final(id(self)):
            if u is not None:
                self._decide_language(u, audio, final=True)
            text = self.transcribe(audio, final=True)
        heard = self._last_heard
        return heard if heard is not None and heard.text == text else Heard(text)

    def hear(self, audio: np.ndarray, final: bool = True) -> Heard:
        """transcribe(), with the words Whisper was unsure of (finals, with options.word_confidence)."""
        # Face to face, the utterance before is often in the other language, and the decision reads
        # the utterance alone: no context, so the final decode reuses the decision's encoder output.
        context = self.finals_before if self.sides is None else None
        return Hearing(self.model, self.options, self.language, self.chinese, final, context).heard(audio)


def _nothing_heard_again(before: SourceFinal) -> Error:
    """What a redo that heard nothing in the other language says: the sentence stays as it was."""
    return Error.of(
        Stage.ASR,
        Text(
            QT_TRANSLATE_NOOP("Errors", "Nothing was heard in {language} in that sentence; it stays as it was."),
            {"language": Text(_LANGUAGE_WORDS[before.language.other])},
        ),
        Text(QT_TRANSLATE_NOOP("Errors", "Use Other way only for a sentence heard in the wrong language.")),
        before.utterance_id,
    )
