"""Whisper's decodes of a stretch of audio, every guard applied: the forced language, a token
budget, the beam (greedy partials; finals as RecognizerOptions.final_beam says, read again with
`unsure_final_beam` when Whisper was unsure), the final's context and language prompt, the
glossary's second decode (app.asr.hotwords), and the filters of what Whisper invents
(app.asr.guards). Each decode reads a window as long as the audio (app.asr.window), or Whisper's
whole 30 s through faster-whisper's `transcribe` (word confidence, and a final that came to
nothing or far too little on the short window)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np

from app.asr.context import FinalContext
from app.asr.guards import Heard, heard_in, window_heard_no_speech
from app.asr.hotwords import decoded_with_glossary, hotwords_text
from app.asr.options import RecognizerOptions
from app.asr.script_reread import read_in_characters
from app.asr.units import joined, units_of
from app.asr.window import decode_window
from app.shared.audio import SAMPLE_RATE
from app.shared.chinese import ChineseScript
from app.shared.languages import Language

_LONG_S = 3.0  # an utterance this long or longer is checked for a final far too short for it
_MIN_UNITS_PER_S = {"en": 1.0, "zh": 1.5}  # words or characters per second: speech says more


@dataclass(frozen=True)
class Hearing:
    """How one stretch of audio is heard: a final or a partial decode, in `language`, Chinese
    written in `chinese`; `context`: the finals before, for a final (None: none)."""

    model: Any
    options: RecognizerOptions
    language: Language
    chinese: ChineseScript
    final: bool
    context: FinalContext | None = None

    def heard(self, audio: np.ndarray) -> Heard:
        """What Whisper heard in `audio`, with the words it was unsure of (finals, with
        options.word_confidence)."""
        margin = window_margin(self.options, self.final)
        again = functools.partial(self._decode, audio, margin)
        heard = self._sure_of(again, _reread_beam(self.options, self.language, self.final, margin))
        heard = read_in_characters(self.options, self.language, self.final, heard, again)  # Chinese in Latin letters
        if not self.final or margin is None:
            return heard
        windows = [margin, None]  # a final read alone: on the short window, then through Whisper's 30 s
        if not heard.text:
            # On a short window Whisper now and then writes nothing after a forced prefix, or loses
            # a short phrase the 30 s window hears (tiny.en, "Good morning."): a final that came to
            # nothing is read again through the 30 s window (a noise burst costs one more decode),
            # alone: given the previous utterance's audio and text, Whisper took a clipped radio
            # call for the end of "5 4 3 2 1" four decodes running (codec2-examples, +12 dB).
            heard, windows = self._decode(audio, None, alone=True), [margin]
        for window in windows:
            # A final far too short for its audio is read alone, and the longer reading kept: through
            # the 30 s window (beam 5) Whisper stopped after "CQ, CQ," on 9 s of a clipped radio call,
            # which the short window read (greedy: its beam stopped there too); on the short window
            # it looped on "DQ, DQ, DQ" at SNR 5 dB, which the 30 s window read.
            if not self._too_short(heard, audio):
                break
            alone = self._decode(audio, window, alone=True)
            heard = alone if len(units_of(alone.text)) > len(units_of(heard.text)) else heard
        return self._read_on(heard, audio) if self._too_short(heard, audio) else heard

    def _read_on(self, heard: Heard, audio: np.ndarray) -> Heard:
        """A final still far too short for its audio, however it was read, is read once more through
        Whisper's 30 s window with its own reading forced as the prefix: the decoder writes on from
        where it stopped. Otherwise the next final, given that reading as its context, reads the
        rest first: a clipped radio call (9 s) stopped after "CQ CQ" on both windows, alone or in
        context, and "Front, center." came as "CQ CQ calling CQ ... standing by. Front center."
        (codec2-examples, +12 dB, an AVX2-only EPYC). Given "CQ CQ", the 30 s window read the call on."""
        if not heard.text:
            return heard
        more = self._decoder()(audio, margin=None, prompt=None, prefix=heard.text, hotwords=None)
        if not more.text or self.context.echoes(more.text):
            return heard
        return Heard(joined([heard.text, more.text]), heard.unsure + more.unsure, min(heard.logprob, more.logprob))

    def _too_short(self, heard: Heard, audio: np.ndarray) -> bool:
        """A final far shorter than its audio, where finals before it are context: the decoder took
        the end of the utterance before for this one and stopped ("trash on the street." for 9 s of
        a radio call after "Help throw", a telephone band), or read only the start (then the next
        final, given it, reads the rest): it is read alone (`heard`), and the longer reading kept."""
        if self.context is None or not self.context.kept or seconds(audio) < _LONG_S:
            return False
        return len(units_of(heard.text)) < _MIN_UNITS_PER_S[self.language] * seconds(audio)

    def _sure_of(self, again: functools.partial, beam: int) -> Heard:
        """A decode, read again with `beam` (0: none) when Whisper was unsure of it, as faster-whisper
        falls back when a decode's log-prob is bad. While the finals before were unsure too (a noisy
        room, an echo, a call's codec: `FinalContext.unsure`), the beam reads at once: there most
        finals were decoded twice (SNR 10 dB: 12 of 16; end of speech -> final p50 0.86 -> 0.68 s)."""
        if not beam:
            return again()
        room = self.context
        if room is not None and room.unsure:
            heard = again(beam=beam)
        elif self._unsure(heard := again()):
            heard = again(beam=beam)
        if room is not None and heard.text:
            room.unsure = self._unsure(heard)  # a sure final: the next one is greedy again
        return heard

    def _unsure(self, heard: Heard) -> bool:
        return bool(heard.text) and heard.logprob < self.options.unsure_final_logprob

    def _decode(
        self, audio: np.ndarray, margin: float | None, beam: int = 0, prompt: str = "", alone: bool = False
    ) -> Heard:
        """One decode, without hotwords; a final's glossary terms then only where Whisper, told of the
        few that sound like something it heard, hears them (app.asr.hotwords). Read again: with a `beam`
        (`_reread_beam`), or a `prompt` instead of its context's (app.asr.script_reread). A final that
        only echoes the final before its context is read again `alone`, without that context."""
        decode = self._decoder(beam)
        whole, context, prefix = audio, None, None
        keep = self.options.context_chars.get(self.language, 0)
        in_context = self.final and keep > 0 and self.context is not None and not alone
        start_s = None
        if in_context:
            # A forced timestamp needs the short window (decode_window); transcribe reads from 0 s.
            way = self.options.context_way.get(self.language, "prefix") if margin is not None else "prefix"
            seconds_before = self.options.context_s.get(self.language, 0.0)
            whole, context, prefix, start_s = self.context.around(audio, keep, seconds_before, way)
        own_prompt = prompt or (context or self.options.language_prompt.get(self.language) if self.final else None)
        heard = decode(
            whole,
            margin=margin,
            prompt=own_prompt or None,
            prefix=prefix,
            hotwords=None,
            own_s=seconds(audio),
            start_s=start_s,
        )
        if in_context and self.context.echoes(heard.text):
            return self._decode(audio, margin, beam, prompt, alone=True)

        def hinted(terms: list[str]) -> str:  # the utterance alone: Whisper ignores hotwords after a prefix
            return decode(
                audio, margin=margin, prompt=None, prefix=None, hotwords=hotwords_text(terms, self.language)
            ).text

        terms = self.options.hotwords.get(self.language, ()) if self.final else ()
        return decoded_with_glossary(heard, terms, hinted)

    def _decoder(self, beam: int = 0) -> functools.partial:
        """`decoded` for this hearing's model, language, script and options (`beam` 0: the options')."""
        return functools.partial(
            decoded,
            self.model,
            language=self.language,
            chinese=self.chinese,
            options=self.options,
            final=self.final,
            beam=beam,
        )


def window_margin(options: RecognizerOptions, final: bool) -> float | None:
    """Seconds of padding after the audio in a decode's window; None: Whisper's whole 30 s."""
    if final and options.word_confidence:
        return None  # word probabilities come from transcribe's alignment pass
    return options.final_window_margin_s if final else options.partial_window_margin_s


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
    own_s: float | None = None,
    start_s: float | None = None,
) -> Heard:
    """What one Whisper decode of `audio` heard, through every guard (app.asr.guards); `beam`
    overrides the options' beam (an unsure final read again). `own_s`: the seconds at the end of
    `audio` the decode is for, after the previous utterance's as context (its text is forced):
    the token budget and the loop guards measure those, or a context decode could loop for twice
    as long ("铁铁铁铁铁铁铁铁铁铁铁铁铁" for 2 s of Mandarin at SNR 10 dB). `start_s`: where in
    `audio` the decoder starts writing (app.asr.window.decode_window), the context given as the prompt."""
    own_s = seconds(audio) if own_s is None else own_s
    budget = min(400, int(10 + options.tokens_per_s * own_s))
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
        start_s=start_s,
    )
    return heard_in(
        segments,
        language,
        chinese,
        sure_logprob=options.sure_logprob,
        no_speech_logprob=options.no_speech_logprob,
        unsure_word_p=options.unsure_word_p,
        hotwords=hotwords,
        prefix=prefix,
        audio_s=own_s,
        hit_budget=any(_ran_to(budget, s) for s in segments),
    )


def seconds(audio: np.ndarray) -> float:
    return len(audio) / SAMPLE_RATE


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


def _reread_beam(options: RecognizerOptions, language: str, final: bool, margin: float | None) -> int:
    """The beam an unsure final is read again with, or 0: none. A final Whisper was unsure of (a
    noisy room, an echo, a call's codec) is read again with a beam; sure finals (most of clean
    speech) keep their one cheaper decode."""
    if not final or margin is None:
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
    start_s: float | None = None,
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
            keep_encoded=final,  # an unsure final is read again on the same window (`Hearing.heard`)
            start_s=start_s,
        )
        if window_heard_no_speech(decoded.no_speech_prob, decoded.avg_logprob, hotwords):
            return []
        return [decoded]
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
