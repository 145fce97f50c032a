"""Silero VAD cuts the session's audio into utterances, and keeps only the audio they still need.

An utterance starts `pad_s` before the first speech frame (Whisper misreads tight cuts) and ends
`tail_pad_s` after its last one, once the pause is `min_silence_s` long; speech longer than
`max_utterance_s` is cut at its quietest recent frame and goes on as a new utterance. A burst
with less than `min_speech_s` of speech is no utterance, but starts the next one if that starts
right after it. The gate's threshold is lower for narrowband input (app.asr.band). Positions
are session samples: the samples fed since the recognizer was made.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from app.asr.band import BandWatch
from app.asr.guards import Heard
from app.asr.language import LanguageDecision
from app.asr.options import RecognizerOptions
from app.asr.vad import FRAME, SileroVAD, VoiceChange, VoiceGate
from app.shared.audio import SAMPLE_RATE

# A burst too short to be speech starts the next utterance when that starts (its padding before
# included) at most this many samples after the burst's end.
_LEAD_IN_GAP = SAMPLE_RATE // 2
_LEAD_IN_MAX = 2 * SAMPLE_RATE  # samples of such bursts kept before their end, at most


@dataclass
class Utterance:
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

    @property
    def speech_s(self) -> float:
        """Seconds of its frames the voice gate took for speech."""
        return self.speech_frames * FRAME / SAMPLE_RATE


@dataclass
class Ended:
    """An utterance that has ended at session sample `end`, with its audio."""

    utterance: Utterance
    end: int
    audio: np.ndarray


class Segmenter:
    """The VAD, its voice gate, the audio buffer and the utterance in progress (`utterance`)."""

    def __init__(self, options: RecognizerOptions, ids: Iterator[int]):
        self.options = options
        self._vad = SileroVAD()
        self._gate = VoiceGate(options.vad_threshold, round(options.min_silence_s * SAMPLE_RATE / FRAME))
        self._band = BandWatch()
        self._ids = ids
        self.samples = 0  # session audio fed so far
        self._vad_origin = 0  # session sample where the VAD (re)started
        self._frames = 0  # VAD frames classified since then
        self._buf = np.zeros(0, np.float32)  # the utterance in progress, or a short lead-in
        self._buf_start = 0  # session sample of _buf[0]
        self.utterance: Utterance | None = None
        # (start, end) of a burst too short to be speech, kept for a moment: the next utterance,
        # starting right after it, starts with it ("Front," before "center.": 0.16 s of speech
        # frames through a telephone band, dropped alone).
        self._lead_in: tuple[int, int] | None = None

    @property
    def in_pause(self) -> bool:
        """Silence since the last speech frame (the utterance may be about to end)."""
        return self._gate.silence_run > 0

    def add(self, block: np.ndarray, now: float) -> list[Ended]:
        """Take the next audio (`now`: when its last sample was captured); the utterances it ended."""
        self._buf = np.concatenate([self._buf, block])
        self._band.feed(block)
        self.samples += len(block)
        ended: list[Ended] = []
        for prob in self._vad(block):
            ended += self._on_frame(float(prob), now)
        if self.utterance is None:
            keep_from = self.samples - int(self.options.pad_s * SAMPLE_RATE) - FRAME
            if not self._starts_with_lead_in(keep_from):
                self._lead_in = None  # no speech came soon enough after it: a cough, a click
            self._drop_audio_before(keep_from if self._lead_in is None else min(keep_from, self._lead_in[0]))
        return ended

    def flush(self) -> Ended | None:
        """End of input: the utterance in progress ends here; the VAD starts afresh."""
        u, ended = self.utterance, None
        if u is not None:
            ended = self._end(u, min(self.samples, self.final_end(u)))
        self.restart_vad()
        self._lead_in = None
        return ended

    def reset(self) -> None:
        """Drop the utterance in progress and the audio kept (the session clock keeps counting)."""
        self.utterance, self._lead_in = None, None
        self.restart_vad()
        self._buf, self._buf_start = np.zeros(0, np.float32), self.samples

    def restart_vad(self) -> None:
        self._vad.reset()
        self._gate.reset()
        self._vad_origin, self._frames = self.samples, 0

    def final_end(self, u: Utterance) -> int:
        """Where `u`'s final audio ends: `tail_pad_s` after its last speech frame."""
        return u.speech_end + int(self.options.tail_pad_s * SAMPLE_RATE)

    def audio(self, start: int, end: int) -> np.ndarray:
        return self._buf[max(start - self._buf_start, 0) : end - self._buf_start]

    def _drop_audio_before(self, sample: int) -> None:
        if sample > self._buf_start:
            self._buf = self._buf[sample - self._buf_start :]
            self._buf_start = sample

    def _end(self, u: Utterance, end: int) -> Ended:
        self.utterance = None
        audio = self.audio(u.start, end)
        self._drop_audio_before(end)
        return Ended(u, end, audio)

    def _on_frame(self, prob: float, now: float) -> list[Ended]:
        opts = self.options
        self._frames += 1
        f_end = self._vad_origin + self._frames * FRAME
        self._gate.threshold = self._threshold_at(f_end)
        state = self._gate.update(prob)
        if state is VoiceChange.START:
            start = max(self._buf_start, f_end - FRAME - int(opts.pad_s * SAMPLE_RATE))
            if self._starts_with_lead_in(start):
                start = max(self._buf_start, self._lead_in[0])
            self._lead_in = None
            self.utterance = Utterance(next(self._ids), start, f_end, decoded_until=start)
        u = self.utterance
        if u is None:
            return []
        u.probs.append(prob)
        if state in (VoiceChange.START, VoiceChange.SPEECH):
            u.speech_frames += 1
            u.speech_end = f_end
            u.speech_end_at = now - (self.samples - f_end) / SAMPLE_RATE
        if state is VoiceChange.END:
            end = min(self.final_end(u), f_end)
            if u.speech_s < opts.min_speech_s:
                # Not speech alone; perhaps a start. Clicks in a row do not carry one another on:
                # what is kept of them ends at most _LEAD_IN_MAX before the next utterance.
                self.utterance, self._lead_in = None, (max(u.start, end - _LEAD_IN_MAX), end)
                return []
            return [self._end(u, end)]
        if f_end - u.start >= opts.max_utterance_s * SAMPLE_RATE:
            return [self._cut(u)]
        return []

    def _starts_with_lead_in(self, start: int) -> bool:
        """Whether an utterance starting at session sample `start` starts with the short burst kept."""
        return self._lead_in is not None and start - self._lead_in[1] <= _LEAD_IN_GAP

    def _threshold_at(self, sample: int) -> float:
        """The voice gate's threshold: lower for narrowband input, which Silero hears less surely."""
        narrow = self.options.narrowband_vad_threshold is not None and self._band.narrow_at(sample)
        return self.options.narrowband_vad_threshold if narrow else self.options.vad_threshold

    def _cut(self, u: Utterance) -> Ended:
        """Too long: end `u` at the quietest frame of its last 3 s; speech goes on in a new utterance."""
        window = min(len(u.probs), round(3.0 * SAMPLE_RATE / FRAME))
        quietest = len(u.probs) - window + int(np.argmin(u.probs[-window:]))
        cut = u.frame0_end + quietest * FRAME  # the end of the quietest frame
        rest = u.probs[quietest + 1 :]
        ended = self._end(u, cut)
        nxt = Utterance(next(self._ids), cut, cut + FRAME, probs=list(rest), decoded_until=cut)
        nxt.speech_frames = sum(p >= self._gate.neg_threshold for p in rest)
        nxt.speech_end, nxt.speech_end_at = u.speech_end, u.speech_end_at
        self.utterance = nxt
        return ended
