"""What every audio source is to the rest of the app: the AudioSource protocol.

A source delivers 16 kHz mono float32 blocks. app.audio has the sources (a microphone, a
recording standing in for one; system audio plugs in here too) and the one capture loop that
reads any of them, with retries; recognition, the pipeline and the window only see this protocol.
The other way, AudioOutput is a device speech is played on (app.audio.outputs), for app.tts.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Protocol, runtime_checkable

import numpy as np

SAMPLE_RATE = 16_000


class SourceKind(StrEnum):
    MICROPHONE = "microphone"
    SYSTEM = "system"  # what the computer plays (a loopback / monitor capture)
    FILE = "file"  # a recording standing in for a live source
    GUEST = "guest"  # a guest's phone, streaming through the caption page (app.audio.guest)


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


class OutputKind(StrEnum):
    """What a device the app can speak into is (`python -m app devices`)."""

    SPEAKER = "speaker"  # an output device: speakers, headphones, a virtual cable (VB-CABLE, BlackHole)
    VIRTUAL_MICROPHONE = "virtual-microphone"  # live_translator_mic: the app's own microphone for a call app


class SpeechTarget(StrEnum):
    """Where speech goes (`run --speak-into`); any other value names an output device."""

    SPEAKERS = "speakers"  # the speech engine's own default output
    VIRTUAL_MIC = "virtual-mic"  # the app's virtual microphone (app.audio.virtual_mic)


@runtime_checkable
class AudioOutput(Protocol):
    """A device speech is played on, other than the speech engine's default (app.audio.outputs)."""

    name: str  # for people: the device's description
    # The live captures our voice reaches through this output: the speakers reach the microphone
    # and system audio; a call's microphone reaches system audio only (the call app may echo it).
    heard_by: frozenset[SourceKind]
    echo_tail_s: float  # how long after the last sample our voice may still come back

    def open(self) -> None:
        """Make the device ready (create it, for the virtual microphone); LiveTranslatorError if impossible."""

    def play(self, samples: np.ndarray, rate: int, on_level: Callable[[float, float], None] | None = None) -> None:
        """Play mono int16 or float samples; returns once they have been played. on_level gets
        (rms, peak) of each piece as it is sent."""

    def close(self) -> None:
        """Release the device (remove it, for the virtual microphone). Safe to call twice."""
