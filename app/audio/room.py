"""What the input sounds like, measured from the audio the app already has: too quiet, clipping,
noisy, only zeros, a DC offset, mains hum. Each is a RoomProblem, told as a Room event with
what to do about it (app.shared.events.Room), once when it begins, and a Room event with problem
OK once the input has been fine again for a while.

The measures work on 20 ms frames over the last WINDOW_S seconds:
- speech level: the loud frames (90th percentile of frame RMS), where the talker is;
- noise floor: the quiet frames (10th percentile), what is there between words;
- SNR: their ratio; a room whose floor is as loud as its loud frames (continuous noise, or
  nothing but noise) reads as noisy;
- clipping: the share of samples at full scale (±0.99 or more);
- DC: the window's mean, when every frame sits off zero on the same side;
- hum: the share of the power at 50/60 Hz and their first harmonics, in every second of the window.
Thresholds are where recognition suffered in bench/rooms.py (docs/performance.md, "Rooms").
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from app.shared.audio import SAMPLE_RATE
from app.shared.events import Room, RoomProblem

FRAME = SAMPLE_RATE // 50  # 20 ms
WINDOW_S = 4.0
QUIET_DB = -45.0  # loud frames below this (dBFS): far below any talk at an ordinary gain
# This SNR reads ~3.5 dB above the true one: bench/rooms.py's pink noise at 10 dB (finals WER 0.2 and
# more) reads 13.6 dB, at 20 dB 23.4 dB, brown noise at 10 dB 15.5 dB.
NOISY_SNR_DB = 15.0
NOISE_FLOOR_DB = -50.0  # a floor below this is quiet whatever the ratio (a quiet room; a laptop microphone's own hiss)
TALK_DB = 15.0  # loud frames this far above the floor: someone is talking (else a silent room is not "quiet")
CLIPPED_SHARE = 0.002  # of samples at full scale
DC_LEVEL = 0.05
HUM_SHARE = 0.5  # of the window's power at mains frequencies
LIVE_SHARE = 0.9
ZEROS_S = 3.0  # a live microphone never delivers exact zeros this long; a muted or broken one does


def db(value: float) -> float:
    return 20 * np.log10(max(value, 1e-10))


@dataclass(frozen=True)
class Reading:
    """One look at the last WINDOW_S seconds."""

    speech_db: float
    floor_db: float
    clipped: float
    dc: float
    hum: float
    zeros_s: float
    alive: float  # share of frames not exact zeros: level and noise are judged on a live window only

    @property
    def snr_db(self) -> float:
        return self.speech_db - self.floor_db

    def problem(self) -> tuple[RoomProblem, float]:
        """The worst problem (first in this order) and its measure; (OK, 0) when there is none."""
        if self.zeros_s >= ZEROS_S:
            return RoomProblem.ZEROS, round(float(self.zeros_s), 1)
        if self.clipped >= CLIPPED_SHARE:
            return RoomProblem.CLIPPING, round(float(self.clipped), 4)
        if abs(self.dc) >= DC_LEVEL:
            return RoomProblem.DC_OFFSET, round(float(self.dc), 3)
        if self.hum >= HUM_SHARE and self.speech_db > NOISE_FLOOR_DB:
            return RoomProblem.HUM, round(float(self.hum), 2)
        if self.alive < LIVE_SHARE:
            return RoomProblem.OK, 0.0  # pauses of a recording, or an input coming back: not enough to judge
        if self.speech_db < QUIET_DB and self.snr_db > TALK_DB:
            return RoomProblem.QUIET, round(float(self.speech_db), 1)
        if self.snr_db < NOISY_SNR_DB and self.floor_db > NOISE_FLOOR_DB:
            return RoomProblem.NOISY, round(float(self.snr_db), 1)
        return RoomProblem.OK, 0.0


def read(audio: np.ndarray) -> Reading:
    """The measures of one window of 16 kHz mono audio."""
    frames = audio[: len(audio) // FRAME * FRAME].reshape(-1, FRAME)
    # Level is what moves (each frame's mean taken off): an offset is told as DC, and the moment it
    # stops must not read as a loud noise floor.
    frames64 = frames.astype(np.float64)
    rms = np.sqrt(np.mean((frames64 - frames64.mean(axis=1, keepdims=True)) ** 2, axis=1))
    zero_frames = np.all(frames == 0.0, axis=1)
    alive = rms[~zero_frames]
    speech, floor = (np.percentile(alive, 90), np.percentile(alive, 10)) if alive.size else (0.0, 0.0)
    return Reading(
        speech_db=db(speech),
        floor_db=db(floor),
        clipped=float(np.mean(np.abs(audio) >= 0.99)),
        dc=steady_offset(frames),
        hum=mains_share(audio),
        zeros_s=_trailing_zero_frames(zero_frames) * FRAME / SAMPLE_RATE,
        alive=float(np.mean(~zero_frames)) if zero_frames.size else 0.0,
    )


def steady_offset(frames: np.ndarray) -> float:
    """The DC offset: the mean, when every 20 ms frame sits off zero on the same side by at least
    half of it (rumble and low-frequency noise wander through zero; an offset stays)."""
    means = frames.mean(axis=1)
    dc = float(np.mean(means)) if means.size else 0.0
    steady = means.size and np.all(np.sign(means) == np.sign(dc)) and np.min(np.abs(means)) >= abs(dc) / 2
    return dc if steady else 0.0


def _trailing_zero_frames(zero_frames: np.ndarray) -> int:
    """How many frames at the end are exact zeros (a dead input now, not a pause in a recording)."""
    live = np.flatnonzero(~zero_frames)
    return len(zero_frames) - (live[-1] + 1 if live.size else 0)


def mains_share(audio: np.ndarray) -> float:
    """Share of the power at mains frequencies in the window's quietest-for-hum second: a hum goes
    on, where a door's thud (a low boom of a few hundred milliseconds) fills one second of four."""
    seconds = [audio[i : i + SAMPLE_RATE] for i in range(0, len(audio) - SAMPLE_RATE + 1, SAMPLE_RATE)]
    return min((_mains_share_of(second) for second in seconds), default=_mains_share_of(audio))


def _mains_share_of(audio: np.ndarray) -> float:
    """Share of the (DC-free) power within ±3 Hz of 50, 60, 100, 120, 150, 180 Hz."""
    audio = audio - np.mean(audio)
    power = np.abs(np.fft.rfft(audio)) ** 2
    total = power[1:].sum()
    if total <= 0:
        return 0.0
    freqs = np.fft.rfftfreq(len(audio), 1 / SAMPLE_RATE)
    near = np.zeros_like(freqs, dtype=bool)
    for f in (50, 60, 100, 120, 150, 180):
        near |= np.abs(freqs - f) <= 3
    return float(power[near].sum() / total)


class RoomWatch:
    """Feed 16 kHz blocks (any thread, one at a time); get Room events back: when a problem
    begins (or turns into another), and after one, when the input has read fine for OK_AFTER_S.
    A problem that goes on is not told again: observers show it until the "ok"."""

    LOOK_EVERY_S = 1.0
    OK_AFTER_S = 10.0  # also bounds how often a problem on the edge can come and go

    def __init__(self) -> None:
        self._buffer = np.zeros(0, np.float32)
        self._samples = 0  # fed since the start: the clock of these decisions (a recording runs fast)
        self._next_look = int(WINDOW_S * SAMPLE_RATE)
        self._current = RoomProblem.OK
        self._fine_since: int | None = None

    def feed(self, block: np.ndarray) -> list[Room]:
        block = np.asarray(block, np.float32).reshape(-1)
        self._buffer = np.concatenate([self._buffer, block])[-int(WINDOW_S * SAMPLE_RATE) :]
        self._samples += len(block)
        if self._samples < self._next_look:
            return []
        self._next_look = self._samples + int(self.LOOK_EVERY_S * SAMPLE_RATE)
        problem, measured = read(self._buffer).problem()
        return self._decide(problem, measured)

    def _decide(self, problem: RoomProblem, measured: float) -> list[Room]:
        now = self._samples
        if problem is not RoomProblem.OK:
            self._fine_since = None
            if problem is self._current:
                return []
        elif self._current is RoomProblem.OK:
            return []
        else:
            self._fine_since = self._fine_since if self._fine_since is not None else now
            if now - self._fine_since < self.OK_AFTER_S * SAMPLE_RATE:
                return []
            self._fine_since = None
        self._current = problem
        return [Room.of(problem, measured, at_s=now / SAMPLE_RATE)]
