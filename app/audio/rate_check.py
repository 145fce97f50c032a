"""Does a live input deliver as many samples per second as its sample rate says?

A device (or its driver) that states one rate and runs at another makes speech too fast or too
slow and high or low for Whisper, and nothing else would say why. The check counts the 16 kHz
samples captured against the capture clock (each block's monotonic `captured_at`), in windows of
WINDOW_S seconds of steady delivery: a gap longer than GAP_S (a stall, a busy machine) is left
out with its block, so only the device's own pace is measured. Off by more than OFF_BY: one Room
event (problem "rate"), once per session; the owner calls restart() when audio was dropped or
the device started again.
"""

from __future__ import annotations

from app.shared.audio import SAMPLE_RATE
from app.shared.events import Room, RoomProblem

WINDOW_S = 20.0
GAP_S = 0.5
OFF_BY = 0.05  # a real clock is off by well under 1%; a wrong rate by 8% (48 vs 44.1 kHz) or more


class RateCheck:
    def __init__(self) -> None:
        self._told = False
        self._heard = 0  # samples since the start: when it was measured
        self.restart()

    def restart(self) -> None:
        """Forget the window measured so far (audio was dropped, or the device started again)."""
        self._last_at: float | None = None
        self._samples = 0
        self._elapsed = 0.0

    def feed(self, samples: int, captured_at: float | None) -> Room | None:
        """`samples` 16 kHz samples whose last was captured at `captured_at` (None: a recording
        read as fast as it goes, which has no clock to check)."""
        self._heard += samples
        if captured_at is None or self._told:
            return None
        if self._last_at is not None and 0.0 < captured_at - self._last_at <= GAP_S:
            self._samples += samples
            self._elapsed += captured_at - self._last_at
        self._last_at = captured_at
        if self._elapsed < WINDOW_S:
            return None
        ratio = self._samples / self._elapsed / SAMPLE_RATE
        self._samples, self._elapsed = 0, 0.0
        if abs(ratio - 1.0) <= OFF_BY:
            return None
        self._told = True
        return Room.of(RoomProblem.RATE, round(ratio, 2), at_s=self._heard / SAMPLE_RATE)
