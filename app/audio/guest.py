"""A guest's phone as a live AudioSource: 16 kHz mono 16-bit PCM frames pushed by the caption
server's guest-speech link (app.captions.guest_speech, on its own thread), read by the one
capture loop like any microphone.

One GuestSource is one speaking place (a lane of the pipeline); guests take it in turn. While
nobody speaks it delivers nothing, as a quiet room would not matter; when a guest's stream ends
or stalls (the Speak button released, the phone locked, the Wi-Fi lost) `end_turn` appends a
pause long enough for the recognizer to end the utterance (ASR's min_silence_s is 0.5 s), so
what was said is finalised and translated like any other utterance.
"""

from __future__ import annotations

import threading
import time

import numpy as np

from app.shared.audio import SAMPLE_RATE, SourceKind

END_PAD_S = 0.8  # the pause appended when a guest stops: > min_silence_s, so the utterance ends
MAX_PENDING_S = 3.0  # unread audio kept at most; more is dropped (counted in overflow_s)


class GuestSource:
    """AudioSource: what the guest now holding this place says. feed()/end_turn() from any thread."""

    kind = SourceKind.GUEST
    realtime = True

    def __init__(self, name: str = "guest"):
        self.name = name
        self.speaker_name: str | None = None  # the name the guest now speaking typed
        self.level: tuple[float, float] = (0.0, 0.0)
        self.overflow_s = 0.0
        self.captured_at = time.monotonic()
        self._pending: list[np.ndarray] = []
        self._pending_samples = 0
        self._arrived_at = time.monotonic()
        self._ready = threading.Condition()

    @property
    def finished(self) -> bool:
        return False  # a live place: guests come and go

    def start(self) -> None:
        pass  # nothing to open: audio arrives over the network

    def stop(self) -> None:
        with self._ready:
            self._pending.clear()
            self._pending_samples = 0

    def feed(self, pcm: bytes) -> None:
        """One frame of little-endian int16 samples (the caller checked its size)."""
        self._push(np.frombuffer(pcm, dtype="<i2").astype(np.float32) / 32768.0)

    def end_turn(self) -> None:
        """The guest stopped sending: a pause, so the utterance being spoken ends cleanly."""
        self._push(np.zeros(int(END_PAD_S * SAMPLE_RATE), dtype=np.float32))

    def _push(self, samples: np.ndarray) -> None:
        with self._ready:
            if self._pending_samples + len(samples) > MAX_PENDING_S * SAMPLE_RATE:
                self.overflow_s += len(samples) / SAMPLE_RATE  # nobody reads (the session is loading)
                return
            self._pending.append(samples)
            self._pending_samples += len(samples)
            self._arrived_at = time.monotonic()
            self._ready.notify()

    def read(self, timeout: float = 0.1) -> np.ndarray | None:
        with self._ready:
            if not self._pending and not self._ready.wait_for(lambda: self._pending, timeout):
                return None
            samples = np.concatenate(self._pending)
            self._pending.clear()
            self._pending_samples = 0
            self.captured_at = self._arrived_at
        self.level = (float(np.sqrt(np.mean(samples**2))), float(np.max(np.abs(samples))))
        return samples
