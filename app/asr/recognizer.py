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
runs the stream and the decodes.
"""

from __future__ import annotations

import functools
import itertools
import os
import threading
import time
from collections.abc import Iterator
from dataclasses import replace

import numpy as np

from app.asr.guards import (
    Heard,
    collapse_loops,
    drop_repeated_sentences,
    heard_in,
    is_hallucination,
    undouble,
    window_heard_no_speech,
    word_spans,
)
from app.asr.hotwords import decoded_with_glossary, hotwords_text
from app.asr.language import KeptUtterances, LanguageDecision, LanguageSides, read_language
from app.asr.options import RecognizerOptions
from app.asr.partials import PartialSchedule
from app.asr.script_reread import read_in_characters
from app.asr.segmenter import Ended, Segmenter, Utterance
from app.asr.turns import turns_for
from app.asr.units import common_prefix, drop_prefix, extend_committed, join_units, units_of
from app.asr.vad import FRAME
from app.asr.window import decode_window
from app.shared.audio import SAMPLE_RATE
from app.shared.chinese import ChineseScript
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError, Text
from app.shared.events import Error, SourceFinal, Stage
from app.shared.languages import Language

# What other modules and tests import from here (each lives in its own module now).
__all__ = [
    "Heard",
    "RecognizerOptions",
    "StreamingRecognizer",
    "collapse_loops",
    "common_prefix",
    "drop_prefix",
    "extend_committed",
    "hotwords_text",
    "is_hallucination",
    "join_units",
    "undouble",
    "units_of",
    "word_spans",
]

_CONTEXT_WINDOW = 28 * SAMPLE_RATE  # the previous utterance + this one, within Whisper's 30 s
_CONTEXT_GAP = int(0.3 * SAMPLE_RATE)  # silence between them

LANGUAGES = tuple(Language)
# A language named in a message (the glossary's words: translated once for both).
_LANGUAGE_WORDS = {
    Language.EN: QT_TRANSLATE_NOOP("Errors", "English"),
    Language.ZH: QT_TRANSLATE_NOOP("Errors", "Chinese"),
}


def check_language(model, language: str) -> None:
    """A language `model` can be asked to hear, or a LiveTranslatorError saying what to do."""
    if language not in LANGUAGES:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "Speech language {language} is not supported."),
            QT_TRANSLATE_NOOP("Errors", "Use one of: {choices}."),
            language=repr(language),
            choices=", ".join(LANGUAGES),
        )
    if language != Language.EN and not model.model.is_multilingual:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP(
                "Errors", "This Whisper model (an English-only one such as tiny.en) cannot hear Chinese."
            ),
            QT_TRANSLATE_NOOP("Errors", "Use a multilingual model, e.g. --model base."),
        )


class StreamingRecognizer:
    """Feed 16 kHz mono float32 blocks; get SourcePartial / SourceFinal events back.

    feed() and flush() run Whisper on the calling thread and must be called from one thread.
    set_language() and reset() may be called from any thread: they take effect at the start of
    the next feed() or flush(). Audio times in events count the samples fed since creation.
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
            from app.asr.whisper_models import load_whisper

            model = load_whisper(model, compute_type=compute_type)
        self.model = model
        self.options = options or RecognizerOptions()
        check_language(self.model, language)
        self.language = Language(language)
        self.chinese = ChineseScript.parse(chinese)  # the script recognised Chinese is written in
        self._last_heard: Heard | None = None  # the latest decode's words, for the final that asked
        self._turns = turns_for(self.model)  # Whisper's turns, shared with other recognizers on this model
        self._segments = Segmenter(self.options, ids if ids is not None else itertools.count(1))
        self._partials = PartialSchedule(self.options, self._segments)
        self._requests = threading.Lock()  # set_language/reset may come from other threads
        self._pending_language: str | None = None
        self._reset_requested = False
        self._context = ""  # final text before the previous utterance: the prompt of the next final decode
        self._previous: tuple[np.ndarray, str] | None = None  # the last utterance's audio and final text
        self.sides = sides
        self._kept = KeptUtterances()  # face to face: the latest utterances' audio, for redo()

    # -- requests from any thread ---------------------------------------------------------------
    def set_language(self, language: str) -> None:
        """Recognise `language` from now on; a changed language drops the utterance in progress."""
        check_language(self.model, language)
        with self._requests:
            self._pending_language = language

    def reset(self) -> None:
        """Drop the utterance in progress (the session clock keeps counting)."""
        with self._requests:
            self._reset_requested = True

    def _apply_requests(self) -> None:
        with self._requests:
            language, self._pending_language = self._pending_language, None
            reset, self._reset_requested = self._reset_requested, False
        if language is not None and language != self.language:
            self.language = Language(language)
            reset = True
        if reset:
            self._segments.reset()
            self._context, self._previous = "", None

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
        if self._partials.partial_due(u, captured_at):
            events += self._partial(u)
        elif (end := self._partials.speculation_end(u, captured_at)) is not None:
            u.early = (end, self._hear_final(self._segments.audio(u.start, end), u))
            events += self._partials.show_early(u, self.language, self._language_fields(u, final=False))
        return events

    def flush(self) -> list:
        """End of input: finalize the utterance in progress."""
        self._apply_requests()
        ended = self._segments.flush()
        return self._finish(ended) if ended is not None else []

    def partial_interval_s(self) -> float:
        """New audio between two live partials: the option, stretched while decodes are slow."""
        return self._partials.interval_s()

    @property
    def _partial_cost(self) -> float:
        """Seconds a partial decode takes lately (tests read and set it)."""
        return self._partials.cost

    @_partial_cost.setter
    def _partial_cost(self, seconds: float) -> None:
        self._partials.cost = seconds

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
        self._partials.note_cost(cost)
        return self._partials.read(u, heard, self.language, self._language_fields(u, final=False))

    # -- finals ---------------------------------------------------------------------------------
    def _finish(self, ended: Ended) -> list:
        """The final of an utterance that ended (the speculative decode's, when it read the same audio)."""
        u, end = ended.utterance, ended.end
        if u.speech_frames * FRAME < self.options.min_speech_s * SAMPLE_RATE:
            return []  # too short to be speech
        heard = u.early[1] if u.early is not None and u.early[0] == end else self._hear_final(ended.audio, u)
        text, revised = self._settle(u.committed, units_of(heard.text))
        if text and self.sides is not None and u.decision is not None:
            self.sides.settle(u.decision)
        self._remember(ended.audio, text)
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
            **self._language_fields(u, final=True),
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
        text, _ = self._settle([], units_of(heard.text))
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
        margin = self.window_margin(final)
        reading = read_language(
            self.model, audio, margin_s=3.0 if margin is None else margin, min_s=self.options.min_window_s
        )
        decision = self.sides.decide(reading, u.speech_frames * FRAME / SAMPLE_RATE)
        if u.decision is not None and decision.language != u.decision.language:
            u.committed, u.history, u.shown = [], [], None
        u.decision = decision
        self.language = decision.language

    def _language_fields(self, u: Utterance, final: bool) -> dict:
        """The decided language on a face-to-face event (and, on a final, how sure it is)."""
        if self.sides is None or u.decision is None:
            return {}
        fields = {"language": u.decision.language}
        if final:
            fields["language_confidence"] = u.decision.confidence
        return fields

    def _settle(self, committed: list[str], heard: list[str]) -> tuple[str, str]:
        """(final text, the committed text it revised or ""). The final decode reads the whole utterance
        (beam search where `_beam` and `_reread_beam` say): it wins over the partials' agreement. An
        empty final decode (filtered as an invention) keeps what was committed rather than erase it. The
        final as assembled is guarded against a sentence said twice too (committed text +
        continuation)."""
        if not self.options.revise_committed or not heard or common_prefix(committed, heard) == len(committed):
            return drop_repeated_sentences(join_units(extend_committed(committed, heard))), ""
        return drop_repeated_sentences(join_units(heard)), join_units(committed)

    def _remember(self, audio: np.ndarray, text: str) -> None:
        """A final as the next final decode's context (`context_chars`)."""
        keep = self.options.context_chars.get(self.language, 0)
        if text and keep > 0:
            if self._previous is not None:
                self._context = (self._context + " " + self._previous[1]).strip()[-keep:]
            self._previous = (audio, text)

    def _with_context(self, audio: np.ndarray) -> tuple[np.ndarray, str | None, str | None]:
        """A final decode's (audio, prompt, forced prefix), as a whole-file pass has them: the
        previous utterance's audio goes first and its text is forced, the finals before are the prompt."""
        prompt, prefix = self._context or None, None
        if self._previous is not None:
            before, said = self._previous
            if len(before) + len(audio) <= _CONTEXT_WINDOW - _CONTEXT_GAP:  # Whisper reads 30 s at most
                audio = np.concatenate([before, np.zeros(_CONTEXT_GAP, np.float32), audio])
                prefix = said  # forced: the decoder goes on from there, and returns only what follows
            else:
                prompt = f"{self._context} {said}".strip()[-self.options.context_chars[self.language] :]
        return audio, prompt, prefix

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
        margin = self.window_margin(final)
        heard, again = self._hear(audio, final, margin), functools.partial(self._hear, audio, final, margin)
        if beam := _reread_beam(self.options, self.language, final, margin, heard):
            heard = again(beam=beam)  # an unsure final, read again
        heard = read_in_characters(self.options, self.language, final, heard, again)  # Chinese in Latin letters
        if final and margin is not None and not heard.text:
            # On a short window Whisper now and then writes nothing after a forced prefix, or loses
            # a short phrase the 30 s window hears (tiny.en, "Good morning."): a final that came to
            # nothing is read again through the 30 s window (a noise burst costs one more decode).
            heard = self._hear(audio, final, None)
        return heard

    def _hear(self, audio: np.ndarray, final: bool, margin: float | None, beam: int = 0, prompt: str = "") -> Heard:
        """One decode, without hotwords; a final's glossary terms then only where Whisper, told of the
        few that sound like something it heard, hears them (app.asr.hotwords). Read again: with a `beam`
        (`_reread_beam`), or a `prompt` instead of its context's (app.asr.script_reread)."""
        decode = functools.partial(
            decoded,
            self.model,
            language=self.language,
            chinese=self.chinese,
            options=self.options,
            final=final,
            beam=beam,
        )
        whole, context, prefix = audio, None, None
        # Face to face, the utterance before is often in the other language, and the decision reads
        # the utterance alone: no context, so the final decode reuses the decision's encoder output.
        if final and self.options.context_chars.get(self.language, 0) > 0 and self.sides is None:
            whole, context, prefix = self._with_context(audio)
        if final and not prompt:
            prompt = context or self.options.language_prompt.get(self.language)  # e.g. Mandarin in characters
        heard = decode(whole, margin=margin, prompt=prompt or None, prefix=prefix, hotwords=None)

        def hinted(terms: list[str]) -> str:  # the utterance alone: Whisper ignores hotwords after a prefix
            return decode(
                audio, margin=margin, prompt=None, prefix=None, hotwords=hotwords_text(terms, self.language)
            ).text

        return decoded_with_glossary(heard, self.options.hotwords.get(self.language, ()) if final else (), hinted)

    def window_margin(self, final: bool) -> float | None:
        """Seconds of padding after the audio in a decode's window; None: Whisper's whole 30 s."""
        opts = self.options
        if final and opts.word_confidence:
            return None  # word probabilities come from transcribe's alignment pass
        return opts.final_window_margin_s if final else opts.partial_window_margin_s


def decoded(
    model,
    audio: np.ndarray,
    *,
    language: Language,
    chinese: ChineseScript,
    options: RecognizerOptions,
    final: bool,
    margin: float | None,
    prompt: str | None,
    prefix: str | None,
    hotwords: str | None,
    beam: int | None = None,
) -> Heard:
    """What one Whisper decode of `audio` heard, through every guard (app.asr.guards); `beam`
    overrides the options' beam (an unsure final read again)."""
    budget = min(400, int(10 + options.tokens_per_s * len(audio) / SAMPLE_RATE))
    segments = whisper_segments(
        model,
        audio,
        language,
        options,
        final=final,
        margin=margin,
        budget=budget,
        prompt=prompt,
        prefix=prefix,
        hotwords=hotwords,
        beam=beam,
    )
    return heard_in(
        segments,
        language,
        chinese,
        sure_logprob=options.sure_logprob,
        unsure_word_p=options.unsure_word_p,
        hotwords=hotwords,
        prefix=prefix,
        audio_s=len(audio) / SAMPLE_RATE,
        hit_budget=any(_ran_to(budget, s) for s in segments),
    )


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


def _ran_to(budget: int, segment) -> bool:
    """Whether the decoder wrote its whole token budget for `segment` (a window's Decoded says so;
    transcribe's segments carry their tokens)."""
    return getattr(segment, "hit_budget", False) or len(getattr(segment, "tokens", None) or ()) >= budget


def _beam(options: RecognizerOptions, language: str, final: bool, margin: float | None) -> int:
    if not final:
        return 1
    if margin is None:
        return 5  # greedy over 30 s, Whisper ran a phrase on into two more it made up (word confidence)
    return options.final_beam.get(language, 5)


def _reread_beam(options: RecognizerOptions, language: str, final: bool, margin: float | None, heard: Heard) -> int:
    """The beam to read a final again with, or 0. A final Whisper was unsure of (a noisy room, an
    echo, a call's codec) is read again with a beam, as faster-whisper falls back when a decode's
    log-prob is bad; sure finals (most of clean speech) keep their one cheaper decode."""
    if not final or margin is None or not heard.text or heard.logprob >= options.unsure_final_logprob:
        return 0
    beam = options.unsure_final_beam
    return beam if beam > _beam(options, language, final, margin) else 0


def whisper_segments(
    model,
    audio: np.ndarray,
    language: str,
    options: RecognizerOptions,
    *,
    final: bool,
    margin: float | None,
    budget: int,
    prompt: str | None,
    prefix: str | None,
    hotwords: str | None,
    beam: int | None = None,
) -> list:
    """Whisper's segments for `audio`: through a window of the audio's length + `margin`
    (app.asr.window) or, for None, through faster-whisper's transcribe (30 s window, word timestamps).
    `beam`: this decode's beam instead of the options' (a final read again when unsure)."""
    beam = beam or _beam(options, language, final, margin)
    if margin is not None and len(audio) <= 30 * SAMPLE_RATE:
        decoded = decode_window(
            model,
            audio,
            language,
            margin_s=margin,
            min_s=options.min_window_s,
            beam_size=beam,
            max_new_tokens=budget,
            prompt=prompt,
            prefix=prefix,
            hotwords=hotwords,
            keep_encoded=final,  # an unsure final is read again on the same window (`hear`)
        )
        if window_heard_no_speech(decoded.no_speech_prob, decoded.avg_logprob, hotwords):
            return []
        return [replace(decoded, text=undouble(decoded.text))]
    segments, _ = model.transcribe(
        audio,
        language=language,
        task="transcribe",
        beam_size=beam,
        # No temperature fallback: each retry costs a whole decode, and sampling makes the
        # same speech come out differently from run to run; loops are cut after (app.asr.guards).
        temperature=0.0,
        condition_on_previous_text=False,
        without_timestamps=True,
        max_new_tokens=budget,
        compression_ratio_threshold=2.4,
        log_prob_threshold=-1.0,
        no_speech_threshold=0.6,
        initial_prompt=prompt,
        prefix=prefix,
        hotwords=hotwords,
        vad_filter=False,
        word_timestamps=final and options.word_confidence,
    )
    return list(segments)
