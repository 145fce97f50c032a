"""Audio out: the output devices speech can be played on, chosen by name (`run --speak-into DEVICE`).

Playback goes through `soundcard` (the library system audio already uses: app.audio.system), which
plays on a given device on Linux (PulseAudio / PipeWire), Windows (WASAPI) and macOS (CoreAudio).
On Windows and macOS a virtual cable (VB-CABLE's "CABLE Input", BlackHole) is such a device: speech
played into it is what the call app hears when it picks the cable's other end as its microphone.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from app.audio.sources import level_of
from app.audio.system import connected_soundcard
from app.shared.audio import SourceKind
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError

log = logging.getLogger(__name__)

PIECE_S = 0.05  # the level meter's step
# Speakers reach the microphone (no headphones) and system audio; a room echo lasts a little.
SPEAKERS_HEARD_BY = frozenset({SourceKind.MICROPHONE, SourceKind.SYSTEM})
ROOM_ECHO_TAIL_S = 0.4


def _soundcard_for_speech():
    """soundcard, connected, for playing speech: no sound server is said in words about speech
    (system.py's own words are about capturing system audio, with a hint to use a microphone)."""
    try:
        return connected_soundcard()
    except LiveTranslatorError as error:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "Speech cannot be played: no sound server answered."),
            QT_TRANSLATE_NOOP(
                "Errors", "Start the sound server (PulseAudio or PipeWire); translation goes on without speech."
            ),
        ) from error


@dataclass(frozen=True)
class OutputDevice:
    """A device the app can play on."""

    id: str  # Linux: the sink's name; Windows/macOS: soundcard's id
    name: str
    is_default: bool


def list_output_devices() -> list[OutputDevice]:
    """Every output device; [] without a sound server."""
    try:
        sc = connected_soundcard()
        default = sc.default_speaker()
        speakers = sc.all_speakers()
    except LiveTranslatorError as error:
        log.info("no output devices: %s", error)
        return []
    except Exception as error:  # the server went away while we asked
        log.info("no output devices: %s", error)
        return []
    default_id = default.id if default is not None else None
    return [OutputDevice(s.id, s.name, s.id == default_id) for s in speakers]


def find_output_device(device: str) -> OutputDevice:
    """By id, exact name, or unique part of a name."""
    devices = list_output_devices()
    found = (
        [d for d in devices if d.id == device]
        or [d for d in devices if d.name == device]
        or [d for d in devices if device.lower() in d.name.lower() or device.lower() in d.id.lower()]
    )
    if len(found) != 1:
        listing = "; ".join(f"{d.id}: {d.name}" for d in devices) or "none"
        message = (
            QT_TRANSLATE_NOOP("Errors", "Speech output device {device} matches several outputs. Available: {listing}.")
            if found
            else QT_TRANSLATE_NOOP("Errors", "Speech output device {device} does not exist. Available: {listing}.")
        )
        hint = QT_TRANSLATE_NOOP(
            "Errors",
            "Pick an output by its id or full name (python -m app devices); translation goes on without speech.",
        )
        raise LiveTranslatorError(message, hint, device=repr(device), listing=listing)
    return found[0]


class DeviceOutput:
    """Plays speech on one output device (an AudioOutput)."""

    def __init__(
        self, device: str, *, heard_by: frozenset[SourceKind] = SPEAKERS_HEARD_BY, echo_tail_s: float = ROOM_ECHO_TAIL_S
    ):
        self.device = device
        self.name = device
        self.heard_by = heard_by
        self.echo_tail_s = echo_tail_s
        self._speaker_id: str | None = None

    def open(self) -> None:
        found = find_output_device(self.device)
        self._speaker_id, self.name = found.id, found.name

    def play(self, samples: np.ndarray, rate: int, on_level: Callable[[float, float], None] | None = None) -> None:
        if self._speaker_id is None:
            self.open()
        audio = samples.astype(np.float32) / 32768.0 if samples.dtype == np.int16 else samples.astype(np.float32)
        speaker = _soundcard_for_speech().get_speaker(self._speaker_id)
        # All at once, with the server's own buffering (smaller buffers made a null sink start
        # later and play slower than real time, seen here); leaving the player drains the stream,
        # which starts playback at once. The meter follows the clock on its own thread meanwhile.
        meter = threading.Thread(target=self._meter, args=(audio, rate, on_level), name="output-meter", daemon=True)
        with speaker.player(samplerate=rate, channels=1) as player:
            player.play(audio)
            meter.start()
        meter.join()

    @staticmethod
    def _meter(audio: np.ndarray, rate: int, on_level: Callable[[float, float], None] | None) -> None:
        if on_level is None:
            return
        piece, started = max(1, int(rate * PIECE_S)), time.monotonic()
        for number, at in enumerate(range(0, len(audio), piece), start=1):
            on_level(*level_of(audio[at : at + piece]))
            time.sleep(max(0.0, started + number * PIECE_S - time.monotonic()))
        on_level(0.0, 0.0)

    def close(self) -> None:
        self._speaker_id = None


class DefaultSpeakers(DeviceOutput):
    """Plays speech on whatever output is the default when it plays (an AudioOutput): where an
    engine that only renders audio (a piper voice) speaks when no other output is chosen."""

    def __init__(self, *, echo_tail_s: float = ROOM_ECHO_TAIL_S):
        super().__init__("", echo_tail_s=echo_tail_s)
        self.name = "speakers"

    def open(self) -> None:
        speaker = _soundcard_for_speech().default_speaker()
        if speaker is None:
            raise LiveTranslatorError(
                QT_TRANSLATE_NOOP("Errors", "Speech cannot be played: the sound server has no output device."),
                QT_TRANSLATE_NOOP("Errors", "Connect speakers or headphones; translation goes on without speech."),
            )
        self._speaker_id = speaker.id

    def play(self, samples: np.ndarray, rate: int, on_level: Callable[[float, float], None] | None = None) -> None:
        self.open()  # the default now: it may have changed since the last text
        super().play(samples, rate, on_level)
