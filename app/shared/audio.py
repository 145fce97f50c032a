"""What every audio source is to the rest of the app: the AudioSource protocol.

A source delivers 16 kHz mono float32 blocks. app.audio has the sources (a microphone, a
recording standing in for one; system audio plugs in here too) and the one capture loop that
reads any of them, with retries; recognition, the pipeline and the window only see this protocol.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Protocol, runtime_checkable

import numpy as np

SAMPLE_RATE = 16_000


class SourceKind(StrEnum):
    MICROPHONE = "microphone"
    SYSTEM = "system"  # what the computer plays (a loopback / monitor capture)
    FILE = "file"  # a recording standing in for a live source


@runtime_checkable
class AudioSource(Protocol):
    kind: SourceKind
    name: str  # for people: the device's name or the file's path
    # True when `captured_at` is a real clock (a device, or a recording fed at speaking speed);
    # False for a recording read as fast as it goes.
    realtime: bool
    level: tuple[float, float]  # (rms, peak) of the last block read, 0.0 .. 1.0, for a meter
    overflow_s: float  # audio dropped because nobody read it in time (seconds, cumulative)
    captured_at: float  # monotonic time at which the end of the last block read was recorded

    @property
    def finished(self) -> bool:
        """The source has run out (a recording); a live source never does."""

    def start(self) -> None:
        """Open the device (or file) and begin; raises LiveTranslatorError when impossible.
        May be called again after a failure: that is how the capture loop retries."""

    def read(self, timeout: float = 0.1) -> np.ndarray | None:
        """All audio since the last call, or None if none came within `timeout`. Raises
        LiveTranslatorError when the device stops delivering (unplugged, server gone)."""

    def stop(self) -> None:
        """Close the device. Safe to call twice, and after a failure."""
