"""Whether the input is narrowband: speech with nothing above 4 kHz, as a telephone line, a GSM
or narrowband Opus call, a Bluetooth headset's microphone or an 8 kHz recording deliver it.

Silero gives such speech lower probabilities: of real voices (codec2-examples, 8 kHz), 67% of the
speech frames reach 0.5 at their own band and 36% through a telephone band (300-3400 Hz), where
whole words then fell below the voice gate and were never heard ("The Navy attacked" for "The
Navy attacked the big task force"). The segmenter lowers the gate's threshold for narrowband
input (RecognizerOptions.narrowband_vad_threshold); wideband input, noisy or not, keeps it.

The input is read in fixed chunks of session samples, so the decision falls on the same sample
whatever the block sizes it was fed in.
"""

from __future__ import annotations

from collections import deque

import numpy as np

from app.asr.vad import FRAME
from app.shared.audio import SAMPLE_RATE

CHUNK = 16 * FRAME  # 0.512 s
_LOUD = 10 ** (-50 / 20)  # RMS: a chunk quieter than -50 dBFS says nothing about the band
# Nor does one with less than this share of its power in the voice band (300-3400 Hz): a mains hum,
# a door's thud, rumble. Real voices put 0.2-0.6 of it there, under their fundamental below 300 Hz.
_VOICE_SHARE = 0.2
_CHUNKS = 8  # the last loud chunks the decision reads (about 4 s of sound)
_MIN_CHUNKS = 2  # about a second of sound: the first sentence of a call is read narrowband
# The median share of a loud chunk's power above 4.2 kHz, in dB, under which the input is
# narrowband. bench/rooms.py: through a telephone band -77 dB, GSM -50 to -60 dB, the 8 kHz real
# voices -57 dB; wideband speech -24 to -29 dB (espeak-ng at 22 kHz, a reverberant hall), with
# any room noise above -25 dB.
_NARROW_DB = -45.0
_FREQS = np.fft.rfftfreq(CHUNK, 1 / SAMPLE_RATE)
_WINDOW = np.hanning(CHUNK).astype(np.float32)


def band_shares(chunk: np.ndarray) -> tuple[float, float]:
    """The shares of `chunk`'s power (of all above 100 Hz) in the voice band and above 4.2 kHz, the
    latter in dB."""
    power = np.abs(np.fft.rfft(chunk * _WINDOW)) ** 2
    total = power[_FREQS >= 100].sum()
    if total <= 0:
        return 0.0, 0.0
    voice = power[(_FREQS >= 300) & (_FREQS <= 3400)].sum() / total
    return float(voice), float(10 * np.log10(power[_FREQS >= 4200].sum() / total + 1e-12))


class BandWatch:
    """Reads a stream's band chunk by chunk; `narrow_at(sample)` says whether the input was found
    narrowband by that session sample. Samples are counted from the first fed."""

    def __init__(self) -> None:
        self._pending = np.zeros(0, np.float32)
        self._read = 0  # session samples in the chunks read so far
        self._shares: deque[float] = deque(maxlen=_CHUNKS)
        self._decided = False  # the latest decision, at the end of the chunks read
        self._changes: deque[tuple[int, bool]] = deque()  # (session sample, narrow from there), not yet asked
        self._narrow = False  # the decision at the last sample asked

    def feed(self, block: np.ndarray) -> None:
        audio = np.concatenate([self._pending, block])
        count = len(audio) // CHUNK
        for i in range(count):
            self._read_chunk(audio[i * CHUNK : (i + 1) * CHUNK])
        self._pending = audio[count * CHUNK :]

    def narrow_at(self, sample: int) -> bool:
        """Whether the input was narrowband at `sample` (asked in increasing order)."""
        while self._changes and self._changes[0][0] <= sample:
            self._narrow = self._changes.popleft()[1]
        return self._narrow

    def _read_chunk(self, chunk: np.ndarray) -> None:
        self._read += CHUNK
        if np.sqrt(np.mean(chunk.astype(np.float64) ** 2)) < _LOUD:
            return
        voice, high_db = band_shares(chunk)
        if voice < _VOICE_SHARE:
            return
        self._shares.append(high_db)
        narrow = len(self._shares) >= _MIN_CHUNKS and float(np.median(self._shares)) < _NARROW_DB
        if narrow != self._decided:
            self._decided = narrow
            self._changes.append((self._read, narrow))
