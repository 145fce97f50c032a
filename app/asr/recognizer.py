"""Streaming speech recognition: 16 kHz blocks in, partial and final source-text events out.

Silero VAD cuts the stream into utterances. While one is being spoken, Whisper re-reads it
every `partial_interval_s` of new audio (longer while decodes are slow), through a window as long
as the utterance rather than Whisper's 30 s (app.asr.window), taking turns on a shared model
with other recognizers (app.asr.turns); the longest prefix on which the latest hypotheses
agree (2 in English, 3 in Chinese) is committed (local agreement, as whisper_streaming does) and never taken
back while the utterance is live. When the speaker pauses (or the utterance grows too long) a
final decode (beam search over the whole utterance) settles the text: it is the truth, and may
revise what partials committed (two agreeing greedy partials can both mishear a word); the
final event's `revised` then names the committed text it replaced. That decode starts speculatively once the pause is
`tail_pad_s` long, on exactly the audio the final keeps, so its result is ready when the pause
reaches `min_silence_s`; it is sent at once as the utterance's last partial (its translation can
start while the pause is timed); speech resuming first makes it stale and it is not used. Whisper's
inventions on near-silence and its repetition loops are filtered, and every decode is bounded:
no fallback cascade, a token budget proportional to the audio, earlier text only as a final's context
(`context_chars`).
"""

from __future__ import annotations

import itertools
import os
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

import numpy as np

from app.asr.guards import (
    Heard,
    collapse_loops,
    heard_in,
    is_hallucination,
    off_language,
    undouble,
    window_heard_no_speech,
    word_spans,
)
from app.asr.hotwords import hotwords_text
from app.asr.language import KeptUtterances, LanguageDecision, LanguageSides, read_language
from app.asr.options import RecognizerOptions
from app.asr.turns import turns_for
from app.asr.units import common_prefix, drop_prefix, extend_committed, join_units, units_of
from app.asr.vad import FRAME, SileroVAD, VoiceChange, VoiceGate
from app.asr.window import decode_window
from app.shared.audio import SAMPLE_RATE
from app.shared.chinese import ChineseScript
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError
from app.shared.events import SourceFinal, SourcePartial
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


@dataclass
class _Utterance:
    id: int
    start: int  # session sample where its audio starts
    frame0_end: int  # session sample where the first frame of `probs` ends
    probs: list[float] = field(default_factory=list)  # VAD probability of each frame since then
    speech_frames: int = 0
    speech_end: int = 0  # session sample where the last speech frame ends
    speech_end_at: float = 0.0  # monotonic time that sample was captured
    decoded_until: int = 0
    committed: list[str] = field(default_factory=list)
    history: list[list[str]] = field(default_factory=list)  # the latest hypotheses, newest last
    shown: tuple[str, str] | None = None  # (text, committed) of the last partial sent
    early: tuple[int, Heard] | None = None  # (end sample, what Whisper heard) of a speculative final decode
    decision: LanguageDecision | None = None  # face to face: the language its latest decode heard in


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
        self._check_language(language)
        self.language = Language(language)
        self.chinese = ChineseScript.parse(chinese)  # the script recognised Chinese is written in
        self._last_heard: Heard | None = None  # the latest decode's words, for the final that asked
        self._turns = turns_for(self.model)  # Whisper's turns, shared with other recognizers on this model
        self._partial_cost = 0.0  # seconds a partial decode takes lately (a moving average)
        self._vad = SileroVAD()
        self._gate = VoiceGate(
            self.options.vad_threshold,
            max(self.options.vad_threshold - 0.15, 0.01),
            round(self.options.min_silence_s * SAMPLE_RATE / FRAME),
        )
        self._ids = ids if ids is not None else itertools.count(1)
        self._samples = 0  # session audio fed so far
        self._vad_origin = 0  # session sample where the VAD (re)started
        self._frames = 0  # VAD frames classified since then
        self._buf = np.zeros(0, np.float32)  # the utterance in progress, or a short lead-in
        self._buf_start = 0  # session sample of _buf[0]
        self._utt: _Utterance | None = None
        self._requests = threading.Lock()  # set_language/reset may come from other threads
        self._pending_language: str | None = None
        self._reset_requested = False
        self._context = ""  # final text before the previous utterance: the prompt of the next final decode
        self._previous: tuple[np.ndarray, str] | None = None  # the last utterance's audio and final text
        self.sides = sides
        self._kept = KeptUtterances()  # face to face: the latest utterances' audio, for redo()

    # -- requests from any thread ---------------------------------------------------------------
    def _check_language(self, language: str) -> None:
        if language not in LANGUAGES:
            raise LiveTranslatorError(
                QT_TRANSLATE_NOOP("Errors", "Speech language {language} is not supported."),
                QT_TRANSLATE_NOOP("Errors", "Use one of: {choices}."),
                language=repr(language),
                choices=", ".join(LANGUAGES),
            )
        if language != Language.EN and not self.model.model.is_multilingual:
            raise LiveTranslatorError(
                QT_TRANSLATE_NOOP(
                    "Errors", "This Whisper model (an English-only one such as tiny.en) cannot hear Chinese."
                ),
                QT_TRANSLATE_NOOP("Errors", "Use a multilingual model, e.g. --model base."),
            )

    def set_language(self, language: str) -> None:
        """Recognise `language` from now on; a changed language drops the utterance in progress."""
        self._check_language(language)
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
            self._utt = None
            self._context, self._previous = "", None
            self._restart_vad()
            self._buf, self._buf_start = np.zeros(0, np.float32), self._samples

    def _restart_vad(self) -> None:
        self._vad.reset()
        self._gate.reset()
        self._vad_origin, self._frames = self._samples, 0

    # -- the stream -----------------------------------------------------------------------------
    def feed(self, block: np.ndarray, captured_at: float | None = None) -> list:
        """Take the next audio; `captured_at` = monotonic time its last sample was recorded."""
        self._apply_requests()
        block = np.asarray(block, np.float32).reshape(-1)
        now = time.monotonic() if captured_at is None else captured_at
        self._buf = np.concatenate([self._buf, block])
        self._samples += len(block)
        events: list = []
        for prob in self._vad(block):
            events += self._on_frame(float(prob), now)
        u = self._utt
        if u is None:
            keep = int(self.options.pad_s * SAMPLE_RATE) + FRAME
            self._drop_audio_before(self._samples - keep)
        elif (
            self._gate.silence_run == 0  # in a pause, the final may be near: keep Whisper free for it
            and (captured_at is None or time.monotonic() - captured_at <= self.options.max_lag_s)
            and u.speech_frames * FRAME >= self.options.min_speech_s * SAMPLE_RATE
            and self._samples - u.start >= self.options.first_partial_s * SAMPLE_RATE
            and self._samples - u.decoded_until >= self._interval(captured_at) * SAMPLE_RATE
        ):
            events += self._partial(u)
        elif (
            self._gate.silence_run > 0
            and u.speech_frames * FRAME >= self.options.min_speech_s * SAMPLE_RATE
            and (captured_at is None or time.monotonic() - captured_at <= self.options.max_lag_s)
        ):
            end = self._final_end(u)
            if end <= self._samples and (u.early is None or u.early[0] != end):
                u.early = (end, self._hear_final(self._audio(u.start, end), u))
                events += self._show_early(u)
        return events

    def partial_interval_s(self) -> float:
        """New audio between two live partials: the option, stretched while decodes are slow."""
        return max(self.options.partial_interval_s, self._partial_cost / max(self.options.partial_share, 0.05))

    def _interval(self, captured_at: float | None) -> float:
        # Audio read flat out (no capture clock) has no speaker to keep up with: the plain interval.
        return self.partial_interval_s() if captured_at is not None else self.options.partial_interval_s

    def _final_end(self, u: _Utterance) -> int:
        return u.speech_end + int(self.options.tail_pad_s * SAMPLE_RATE)

    def flush(self) -> list:
        """End of input: finalize the utterance in progress."""
        self._apply_requests()
        events = []
        if self._utt is not None:
            end = min(self._samples, self._final_end(self._utt))
            events = self._finish(self._utt, end)
        self._restart_vad()
        return events

    def _on_frame(self, prob: float, now: float) -> list:
        opts = self.options
        self._frames += 1
        f_end = self._vad_origin + self._frames * FRAME
        state = self._gate.update(prob)
        if state is VoiceChange.START:
            start = max(self._buf_start, f_end - FRAME - int(opts.pad_s * SAMPLE_RATE))
            self._utt = _Utterance(next(self._ids), start, f_end, decoded_until=start)
        u = self._utt
        if u is None:
            return []
        u.probs.append(prob)
        if state in (VoiceChange.START, VoiceChange.SPEECH):
            u.speech_frames += 1
            u.speech_end = f_end
            u.speech_end_at = now - (self._samples - f_end) / SAMPLE_RATE
        if state is VoiceChange.END:
            return self._finish(u, min(self._final_end(u), f_end))
        if f_end - u.start >= opts.max_utterance_s * SAMPLE_RATE:
            return self._cut(u)
        return []

    def _cut(self, u: _Utterance) -> list:
        """Too long: finalize up to the quietest frame of the last 3 s; speech goes on in a new utterance."""
        window = min(len(u.probs), round(3.0 * SAMPLE_RATE / FRAME))
        quietest = len(u.probs) - window + int(np.argmin(u.probs[-window:]))
        cut = u.frame0_end + quietest * FRAME  # the end of the quietest frame
        rest = u.probs[quietest + 1 :]
        events = self._finish(u, cut)
        nxt = _Utterance(next(self._ids), cut, cut + FRAME, probs=list(rest), decoded_until=cut)
        nxt.speech_frames = sum(p >= self._gate.neg_threshold for p in rest)
        nxt.speech_end, nxt.speech_end_at = u.speech_end, u.speech_end_at
        self._utt = nxt
        return events

    def _audio(self, start: int, end: int) -> np.ndarray:
        return self._buf[max(start - self._buf_start, 0) : end - self._buf_start]

    def _drop_audio_before(self, sample: int) -> None:
        if sample > self._buf_start:
            self._buf = self._buf[sample - self._buf_start :]
            self._buf_start = sample

    def _partial(self, u: _Utterance) -> list:
        with self._turns.partial(id(self)) as granted:
            if not granted:
                return []  # Whisper is busy with a final or the other side: ask again on the next block
            u.decoded_until = self._samples
            began = time.monotonic()
            audio = self._audio(u.start, self._samples)
            self._decide_language(u, audio, final=False)
            heard = self.transcribe(audio, final=False)
            cost = time.monotonic() - began
        self._partial_cost = cost if self._partial_cost == 0.0 else 0.5 * (self._partial_cost + cost)
        if self._off_language(heard):
            return []
        hypothesis = extend_committed(u.committed, units_of(heard))
        needed = self.options.agreement.get(self.language, 2)
        u.history = (u.history + [hypothesis])[-needed:]
        if len(u.history) == needed:
            agreed = min(common_prefix(h, hypothesis) for h in u.history[:-1])
            if agreed > len(u.committed):
                u.committed = hypothesis[:agreed]
        return self._shown(u, hypothesis)

    def _off_language(self, heard: str) -> bool:
        return off_language(heard, self.language)

    def _show_early(self, u: _Utterance) -> list:
        """The speculative final decode's text as the utterance's latest partial: unless speech
        resumes it is what the final will say, so its translation can start while the pause is
        still being timed (the pipeline's final then reuses it). Not when it revises committed
        text: only the final itself may take back what partials committed."""
        heard = units_of(u.early[1].text)
        if not heard or self._off_language(u.early[1].text) or common_prefix(u.committed, heard) < len(u.committed):
            return []
        return self._shown(u, extend_committed(u.committed, heard))

    def _shown(self, u: _Utterance, hypothesis: list[str]) -> list:
        """A partial event for `hypothesis`, unless it shows nothing new."""
        text, committed = join_units(hypothesis), join_units(u.committed)
        if not text or (text, committed) == u.shown:
            return []
        u.shown = (text, committed)
        return [
            SourcePartial(
                utterance_id=u.id,
                text=text,
                committed=committed,
                start=u.start / SAMPLE_RATE,
                end=self._samples / SAMPLE_RATE,
                **self._language_fields(u, final=False),
            )
        ]

    def _finish(self, u: _Utterance, end: int) -> list:
        self._utt = None
        audio = self._audio(u.start, end)
        self._drop_audio_before(end)
        if u.speech_frames * FRAME < self.options.min_speech_s * SAMPLE_RATE:
            return []  # too short to be speech
        heard = u.early[1] if u.early is not None and u.early[0] == end else self._hear_final(audio, u)
        text, revised = self._settle(u.committed, units_of(heard.text))
        if text and self.sides is not None and u.decision is not None:
            self.sides.settle(u.decision)
        keep = self.options.context_chars.get(self.language, 0)
        if text and keep > 0:
            if self._previous is not None:
                self._context = (self._context + " " + self._previous[1]).strip()[-keep:]
            self._previous = (audio, text)
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
            self._kept.keep(final, audio)
        return [final]

    def redo(self, utterance_id: int) -> list:
        """Face to face: hear a finished utterance again in the other language than decided (its
        final, again, with `revised` the text it replaces); the side moves with it. Nothing when
        the utterance is no longer kept (only the latest few are)."""
        kept = self._kept.get(utterance_id) if self.sides is not None else None
        if kept is None or kept[1].language is None:
            return []
        audio, before = kept
        decision = LanguageDecision(before.language.other, 1.0, by_hand=True)
        self.language = decision.language
        heard = self._hear_final(audio)
        self.sides.settle(decision)
        text, _ = self._settle([], units_of(heard.text))
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

    def _decide_language(self, u: _Utterance, audio: np.ndarray, final: bool) -> None:
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

    def _language_fields(self, u: _Utterance, final: bool) -> dict:
        """The decided language on a face-to-face event (and, on a final, how sure it is)."""
        if self.sides is None or u.decision is None:
            return {}
        fields = {"language": u.decision.language}
        if final:
            fields["language_confidence"] = u.decision.confidence
        return fields

    def _settle(self, committed: list[str], heard: list[str]) -> tuple[str, str]:
        """(final text, the committed text it revised or ""). The final decode reads the whole
        utterance with beam search: it wins over the greedy partials' agreement. An empty final
        decode (filtered as an invention) keeps what was committed rather than erase it."""
        if not self.options.revise_committed or not heard or common_prefix(committed, heard) == len(committed):
            return join_units(extend_committed(committed, heard)), ""
        return join_units(heard), join_units(committed)

    def transcribe(self, audio: np.ndarray, final: bool = True) -> str:
        """Whisper on one stretch of 16 kHz audio with every guard applied: the forced language,
        a token budget, hallucination and loop filters, Chinese in the chosen script. A final decode uses
        beam search; a partial one is greedy."""
        heard = self.hear(audio, final)
        self._last_heard = heard
        return heard.text

    def _hear_final(self, audio: np.ndarray, u: _Utterance | None = None) -> Heard:
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
        heard = self._hear(audio, final, margin)
        if final and margin is not None and not heard.text:
            # On a short window Whisper now and then writes nothing after a forced prefix, or loses
            # a short phrase the 30 s window hears (tiny.en, "Good morning."): a final that came to
            # nothing is read again through the 30 s window (a noise burst costs one more decode).
            heard = self._hear(audio, final, None)
        return heard

    def _hear(self, audio: np.ndarray, final: bool, margin: float | None) -> Heard:
        opts = self.options
        budget = min(400, int(10 + opts.tokens_per_s * len(audio) / SAMPLE_RATE))
        hotwords = hotwords_text(opts.hotwords.get(self.language, ()), self.language)
        prompt = prefix = None
        # Face to face, the utterance before is often in the other language, and the decision reads
        # the utterance alone: no context, so the final decode reuses the decision's encoder output.
        if final and opts.context_chars.get(self.language, 0) > 0 and self.sides is None:
            prompt = self._context or None
            if self._previous is not None:
                before, said = self._previous
                if len(before) + len(audio) <= _CONTEXT_WINDOW - _CONTEXT_GAP:  # Whisper reads 30 s at most
                    audio = np.concatenate([before, np.zeros(_CONTEXT_GAP, np.float32), audio])
                    prefix = said  # forced: the decoder goes on from there, and returns only what follows
                else:
                    prompt = f"{self._context} {said}".strip()[-opts.context_chars[self.language] :]
        segments = self._decode(audio, final, budget, margin, prompt=prompt, prefix=prefix, hotwords=hotwords)
        return heard_in(
            segments,
            self.language,
            self.chinese,
            sure_logprob=opts.sure_logprob,
            unsure_word_p=opts.unsure_word_p,
            hotwords=hotwords,
            prefix=prefix,
        )

    def window_margin(self, final: bool) -> float | None:
        """Seconds of padding after the audio in a decode's window; None: Whisper's whole 30 s."""
        opts = self.options
        if final and opts.word_confidence:
            return None  # word probabilities come from transcribe's alignment pass
        return opts.final_window_margin_s if final else opts.partial_window_margin_s

    def _decode(
        self,
        audio: np.ndarray,
        final: bool,
        budget: int,
        margin: float | None,
        *,
        prompt: str | None,
        prefix: str | None,
        hotwords: str | None,
    ) -> list:
        """Whisper's segments for `audio`: through a window of the audio's length + `margin`
        (app.asr.window) or, for None, through faster-whisper's transcribe (30 s window, word timestamps)."""
        opts = self.options
        if not final:
            beam = 1
        elif margin is None:
            beam = 5  # greedy over 30 s, Whisper ran a phrase on into two more it made up (word confidence)
        else:
            beam = opts.final_beam.get(self.language, 5)
        if margin is not None and len(audio) <= 30 * SAMPLE_RATE:
            decoded = decode_window(
                self.model,
                audio,
                self.language,
                margin_s=margin,
                min_s=opts.min_window_s,
                beam_size=beam,
                max_new_tokens=budget,
                prompt=prompt,
                prefix=prefix,
                hotwords=hotwords,
            )
            if window_heard_no_speech(decoded.no_speech_prob, decoded.avg_logprob, hotwords):
                return []
            return [replace(decoded, text=undouble(decoded.text))]
        segments, _ = self.model.transcribe(
            audio,
            language=self.language,
            task="transcribe",
            beam_size=beam,
            # No temperature fallback: each retry costs a whole decode, and sampling makes the
            # same speech come out differently from run to run; loops are cut below instead.
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
            word_timestamps=final and opts.word_confidence,
        )
        return list(segments)
