"""A recorder of one PulseAudio source (the call app's side of the virtual microphone), each
block stamped with the monotonic time it was recorded, so audio can be matched to the app's
events (their `emitted_at` is the same clock, CLOCK_MONOTONIC, in any process of this machine).
The stamp is the first block's arrival plus the samples counted since: the server records
without gaps, while arrival times alone would be late whenever this thread waits for the GIL."""

from __future__ import annotations

import threading
import time

import numpy as np

from app.audio.system import connected_soundcard
from app.shared.audio import SAMPLE_RATE
from tests.waiting import wait_until

BLOCK = SAMPLE_RATE // 20  # 50 ms
FRAME = SAMPLE_RATE // 50  # 20 ms: the unit of "voiced"


class Recorder:
    def __init__(self, source: str):
        self.source = source
        self.blocks: list[tuple[float, np.ndarray]] = []  # (time its end was recorded, 16 kHz mono float32)
        self._quit = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._ready = threading.Event()

    def __enter__(self) -> Recorder:
        self._thread.start()
        assert self._ready.wait(10), f"could not record {self.source}"
        return self

    def __exit__(self, *exc) -> None:
        self._quit.set()
        self._thread.join(5)

    def _run(self) -> None:
        microphone = connected_soundcard().get_microphone(self.source, include_loopback=True)
        with microphone.recorder(samplerate=SAMPLE_RATE, channels=1, blocksize=BLOCK) as recorder:
            self._ready.set()
            clock = None
            while not self._quit.is_set():
                block = recorder.record(numframes=BLOCK)[:, 0].astype(np.float32)
                clock = time.monotonic() if clock is None else clock + len(block) / SAMPLE_RATE
                self.blocks.append((clock, block))

    def wait_for_audio(self, timeout: float = 10.0) -> None:
        """Until the first block has arrived: what plays from now on is recorded."""
        wait_until(lambda: self.blocks, f"the first block recorded from {self.source}", timeout)

    def wait_recorded_until(self, moment: float, timeout: float = 20.0) -> None:
        """Until what was played up to `moment` (monotonic seconds) has been recorded; any other
        stream reading this source has had it too."""
        wait_until(
            lambda: self.blocks and self.blocks[-1][0] >= moment, f"{self.source} recorded until {moment}", timeout
        )

    def wait_for_sound_to_end(self, silence_s: float = 0.5, timeout: float = 20.0) -> None:
        """Until what was played has arrived whole: sound, then `silence_s` of silence after it."""
        wait_until(
            lambda: self._silent_after_sound(silence_s),
            f"sound, then {silence_s} s of silence, on {self.source}",
            timeout,
        )

    def wait_for_voiced(self, seconds: float, timeout: float = 20.0, seen=None) -> None:
        """Until more than `seconds` of sound have arrived: on a loaded machine speech may arrive with
        a gap in it, which `wait_for_sound_to_end` would take for its end. `seen`: what else to show
        if it never does (the voiced seconds and blocks recorded are shown anyway)."""
        wait_until(
            lambda: voiced_seconds(self.audio) > seconds,
            f"{seconds} s of sound on {self.source}",
            timeout,
            seen=lambda: (f"{voiced_seconds(self.audio):.2f} s voiced in {len(self.blocks)} blocks", seen and seen()),
        )

    def _silent_after_sound(self, silence_s: float) -> bool:
        audio = self.audio
        frames = audio[: len(audio) // FRAME * FRAME].reshape(-1, FRAME)
        voiced = np.flatnonzero(np.sqrt(np.mean(frames**2, axis=1)) > 0.02)
        return len(voiced) > 0 and (len(frames) - 1 - voiced[-1]) * FRAME >= silence_s * SAMPLE_RATE

    @property
    def audio(self) -> np.ndarray:
        return np.concatenate([b for _, b in self.blocks]) if self.blocks else np.zeros(0, np.float32)

    def between(self, start: float, end: float) -> np.ndarray:
        """The audio that arrived between these monotonic times."""
        parts = [b for at, b in self.blocks if start <= at - len(b) / SAMPLE_RATE and at <= end]
        return np.concatenate(parts) if parts else np.zeros(0, np.float32)

    def first_sound_after(self, moment: float, threshold: float = 0.02) -> float | None:
        """When the first voiced 20 ms after `moment` arrived (monotonic seconds), or None."""
        for at, block in self.blocks:
            start = at - len(block) / SAMPLE_RATE
            if at < moment:
                continue
            for i in range(0, len(block) - FRAME + 1, FRAME):
                if start + i / SAMPLE_RATE >= moment and np.sqrt(np.mean(block[i : i + FRAME] ** 2)) > threshold:
                    return start + i / SAMPLE_RATE
        return None


def voiced_seconds(audio: np.ndarray, threshold: float = 0.02) -> float:
    """How much of `audio` (16 kHz) is sound rather than silence, counted in 20 ms frames."""
    frames = audio[: len(audio) // FRAME * FRAME].reshape(-1, FRAME)
    return float((np.sqrt(np.mean(frames**2, axis=1)) > threshold).sum() * FRAME / SAMPLE_RATE)
