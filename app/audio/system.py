"""System audio: what the computer plays, captured as a source (a loopback / monitor capture).

Library: `soundcard` (https://github.com/bastibe/SoundCard). One documented API records what an
output device plays on Linux (PulseAudio, and PipeWire through its PulseAudio server: every sink
has a monitor source) and on Windows (WASAPI loopback): `all_microphones(include_loopback=True)`.
It asks the sound server for 16 kHz mono, so no resampling happens here. Compared with the
alternatives: sounddevice/PortAudio has no loopback on Linux except through ALSA's `pulse` device
and the process-wide PULSE_SOURCE variable (one monitor per process, set before the stream
opens), nor WASAPI loopback on Windows; `pyaudiowpatch` is Windows-only; `pulsectl` lists sinks
and monitors but does not record. Microphones stay with sounddevice (app.audio.sources).

macOS has no loopback of its own: a loopback device such as BlackHole appears as an input
device, and is recorded like a microphone (sounddevice). Without one, starting the source
raises a LiveTranslatorError saying to install one.

soundcard connects to PulseAudio once, when it is first imported; if that server went away
(restarted, or a test's private server replaced), `connected_soundcard()` connects again.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import threading
import time
from dataclasses import dataclass

import numpy as np

from app.audio.buffer import BlockBuffer
from app.audio.device_lookup import find_device
from app.audio.sources import MicrophoneSource, level_of, list_input_devices
from app.platform import loopback
from app.shared.audio import SAMPLE_RATE, SourceKind
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError

log = logging.getLogger(__name__)

MAC_HINT = QT_TRANSLATE_NOOP(
    "Errors",
    "Install a loopback device such as BlackHole (brew install blackhole-2ch), make it (or a "
    "multi-output device containing it) the sound output, then choose it as system audio.",
)
BLOCK_S = 0.1
# PulseAudio moves a stream whose source is removed to another source (the microphone, seen
# here) instead of ending it, and soundcard cannot ask it not to: check this often that the
# output is still there.
CHECK_DEVICE_EVERY_S = 0.5


@dataclass(frozen=True)
class SystemDevice:
    """An output device whose sound can be captured."""

    # Linux: the monitor source's name ("alsa_output....monitor"); Windows: the speaker's id; macOS: PortAudio index
    id: str
    name: str
    is_default: bool


_connected_to: str | None = None  # the PULSE_SERVER soundcard's connection was made for
_connect_lock = threading.Lock()


def connected_soundcard():
    """The soundcard module, connected to the current sound server; LiveTranslatorError if none answers."""
    global _connected_to
    hint = QT_TRANSLATE_NOOP(
        "Errors", "Start the sound server (PulseAudio or PipeWire), or use a microphone (--source microphone)."
    )
    with _connect_lock, _a_program_name_soundcard_can_read():
        try:
            import soundcard
        except (AssertionError, RuntimeError, OSError, IndexError) as error:
            # soundcard asserts that its connection to PulseAudio is ready when imported
            if str(error):
                raise LiveTranslatorError(
                    QT_TRANSLATE_NOOP(
                        "Errors", "System audio cannot be captured: no sound server answered ({reason})."
                    ),
                    hint,
                    reason=error,
                ) from error
            raise LiveTranslatorError(
                QT_TRANSLATE_NOOP("Errors", "System audio cannot be captured: no sound server answered."), hint
            ) from error
        except ImportError as error:
            raise LiveTranslatorError(
                QT_TRANSLATE_NOOP("Errors", "System audio needs the soundcard package."),
                QT_TRANSLATE_NOOP("Errors", "pip install soundcard"),
            ) from error
        if loopback.on_pulseaudio():
            pulse = soundcard.pulseaudio
            _unref_only_real_operations(pulse)
            server = os.environ.get("PULSE_SERVER", "")
            if _connected_to is None:
                _connected_to = server
            state = pulse._pulse._pa_context_get_state(pulse._pulse.context)
            if state != pulse._pa.PA_CONTEXT_READY or server != _connected_to:
                # soundcard keeps one connection made at import; a server that has gone (or been
                # replaced) needs a new one. _PulseAudio() is how soundcard itself makes it.
                try:
                    pulse._pulse = pulse._PulseAudio()
                except AssertionError as error:
                    raise LiveTranslatorError(
                        QT_TRANSLATE_NOOP(
                            "Errors", "System audio cannot be captured: the sound server does not answer."
                        ),
                        hint,
                    ) from error
                _connected_to = server
        return soundcard


def _unref_only_real_operations(pulse) -> None:
    """soundcard 0.4.6 unrefs every operation it asked libpulse for, and libpulse returns none
    (NULL) when the context or the stream has failed: pa_operation_unref(NULL) aborts the whole
    process ("Assertion 'o' failed at pulse/operation.c:67"). Seen when an output was removed
    under a running capture (tests/audio/test_system.py). A NULL operation is skipped instead,
    and the capture's own checks report the lost device."""
    unref = pulse._PulseAudio._pa_operation_unref
    if getattr(unref, "skips_null", False):
        return

    def unref_if_real(self, operation):
        if operation != pulse._ffi.NULL:
            unref(self, operation)

    unref_if_real.skips_null = True
    pulse._PulseAudio._pa_operation_unref = unref_if_real


@contextlib.contextmanager
def _a_program_name_soundcard_can_read():
    """soundcard names its PulseAudio client after sys.argv when it connects, and raises IndexError
    for `python -c CODE` (sys.argv is ["-c"]: an embedding, a pytest-xdist worker): the sound
    server seemed not to answer. Only while it connects, such an argv names the app instead."""
    argv = sys.argv
    if argv in ([], ["-c"]):
        sys.argv = ["live-translator"]
    try:
        yield
    finally:
        sys.argv = argv


def _is_mac() -> bool:
    return loopback.through_input_device()


def list_system_devices() -> list[SystemDevice]:
    """Every output whose sound can be captured; [] when there is none (or no sound server)."""
    try:
        return _list_system_devices()
    except LiveTranslatorError as error:
        log.info("no system audio: %s", error)
        return []


def system_devices_or_reason() -> tuple[list[SystemDevice], str | None]:
    """The system-audio sources, and when there are none, why (and what to do), for the window."""
    try:
        devices = _list_system_devices()
        if not devices:
            find_system_device(None)  # raises the message that says why
        return devices, None
    except LiveTranslatorError as error:
        return [], f"{error.message} {error.hint}".strip()


def _list_system_devices() -> list[SystemDevice]:
    if _is_mac():
        return [
            SystemDevice(str(d.index), d.name, False)
            for d in list_input_devices()
            if loopback.is_loopback_input(d.name)
        ]
    sc = connected_soundcard()
    try:
        default = sc.default_speaker()
        loopbacks = [m for m in sc.all_microphones(include_loopback=True) if m.isloopback]
    except Exception as error:  # the server went away while we asked
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "System audio cannot be listed: {reason}."),
            QT_TRANSLATE_NOOP("Errors", "Check the sound server."),
            reason=error,
        ) from error
    default_id = loopback.capture_id(default.id) if default is not None else None
    return [SystemDevice(m.id, m.name, m.id == default_id) for m in loopbacks]


def find_system_device(device: str | int | None) -> SystemDevice:
    """By id, exact name, or unique part of a name; None = what the default output plays."""
    devices = _list_system_devices()
    if not devices and _is_mac():
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "No system-audio capture on this Mac: macOS has no loopback of its own."),
            MAC_HINT,
        )
    return find_device(SourceKind.SYSTEM, devices, device, key=lambda d: d.id)


class SystemAudioSource:
    """What an output device plays, as an AudioSource (kind SYSTEM).

    A reader thread takes soundcard's blocks into a bounded buffer (like MicrophoneSource: the
    oldest audio is dropped and counted in `overflow_s` when the reader falls `buffer_s` behind);
    read() raises LiveTranslatorError when the capture fails (the sink was removed, the sound
    server went away) or delivers nothing for `stall_s`. On macOS a loopback input device is
    recorded through sounddevice instead.
    """

    # stall_s: a removed output is caught by the device check; silence from the server for this
    # long means it is stuck (a loaded machine has stalled a null sink's monitor for over 2 s).
    def __init__(
        self,
        device: str | int | None = None,
        *,
        buffer_s: float = 30.0,
        stall_s: float = 5.0,
        start_timeout_s: float = 6.0,
    ):
        self.device = device
        self.kind = SourceKind.SYSTEM
        self.realtime = True
        self.finished = False
        self.stall_s = stall_s
        self.device_info: SystemDevice | None = None
        self.level = (0.0, 0.0)
        self.captured_at = 0.0
        self._buffer = BlockBuffer(buffer_s, stall_s, start_timeout_s)
        self._opened = False  # the recorder is open (guarded by the buffer's condition)
        self._quit = threading.Event()
        self._thread: threading.Thread | None = None
        self._mac: MicrophoneSource | None = None

    @property
    def overflow_s(self) -> float:
        """Audio dropped because nobody read it in time (seconds)."""
        return self._mac.overflow_s if self._mac is not None else self._buffer.overflow_s

    @property
    def name(self) -> str:
        if self.device_info is not None:
            return self.device_info.name
        return "system audio" if self.device in (None, "") else str(self.device)

    def start(self) -> None:
        self.stop()
        info = find_system_device(self.device)
        self.device_info = info
        if _is_mac():
            self._mac = MicrophoneSource(int(info.id), stall_s=self.stall_s)
            self._mac.start()
            return
        sc = connected_soundcard()
        try:
            microphone = sc.get_microphone(info.id, include_loopback=True)
            recorder = microphone.recorder(samplerate=SAMPLE_RATE, channels=1, blocksize=int(BLOCK_S * SAMPLE_RATE))
        except Exception as error:
            raise LiveTranslatorError(
                QT_TRANSLATE_NOOP("Errors", "Could not open system audio {name}: {reason}."),
                QT_TRANSLATE_NOOP(
                    "Errors", "Check the sound settings, or pick another output (python -m app devices)."
                ),
                name=repr(info.name),
                reason=error,
            ) from error
        self._buffer.reset(SAMPLE_RATE)
        with self._buffer.cond:
            self._opened = False
        self._quit = threading.Event()
        self._thread = threading.Thread(
            target=self._record, args=(sc, recorder, info.id, self._quit), name="system-audio", daemon=True
        )
        self._thread.start()
        buffer = self._buffer
        with buffer.cond:
            buffer.cond.wait_for(lambda: self._opened or buffer.failure is not None, 5.0)
            failure, opened = buffer.failure, self._opened
        if not opened:
            self.stop()
            if failure:
                raise LiveTranslatorError(
                    QT_TRANSLATE_NOOP("Errors", "Could not open system audio {name}: {reason}."),
                    QT_TRANSLATE_NOOP(
                        "Errors", "Check the sound settings, or pick another output (python -m app devices)."
                    ),
                    name=repr(info.name),
                    reason=failure,
                )
            raise LiveTranslatorError(
                QT_TRANSLATE_NOOP("Errors", "Could not open system audio {name}: no answer from the sound server."),
                QT_TRANSLATE_NOOP(
                    "Errors", "Check the sound settings, or pick another output (python -m app devices)."
                ),
                name=repr(info.name),
            )

    # -- reader thread ---------------------------------------------------------------------
    def _record(self, sc, recorder, device_id: str, quit: threading.Event) -> None:
        next_check = time.monotonic() + CHECK_DEVICE_EVERY_S
        try:
            with recorder as stream:
                with self._buffer.cond:
                    self._opened = True
                self._buffer.alive()
                while not quit.is_set():
                    data = stream.record(numframes=None)
                    now = time.monotonic()
                    if loopback.on_pulseaudio() and now >= next_check:
                        next_check = now + CHECK_DEVICE_EVERY_S
                        if device_id not in {m.id for m in sc.all_microphones(include_loopback=True)}:
                            raise RuntimeError("the output device was removed")
                    mono = np.asarray(data, np.float32).reshape(len(data), -1).mean(axis=1)
                    if quit.is_set():
                        break
                    self._buffer.put(mono, now)
        except Exception as error:  # soundcard raises RuntimeError when the stream fails
            if not quit.is_set():
                self._buffer.fail(str(error) or type(error).__name__)

    # -- the caller's thread ----------------------------------------------------------------
    def read(self, timeout: float = 0.1) -> np.ndarray | None:
        if self._mac is not None:
            block = self._mac.read(timeout)
            self.level, self.captured_at = self._mac.level, self._mac.captured_at
            return block
        if self._thread is None:
            raise LiveTranslatorError(
                QT_TRANSLATE_NOOP("Errors", "System audio is not started."),
                QT_TRANSLATE_NOOP("Errors", "Call start() first."),
            )
        blocks, failure = self._buffer.take(timeout)
        if not blocks:
            if failure is not None:
                self.stop()
                raise LiveTranslatorError(
                    QT_TRANSLATE_NOOP("Errors", "System audio {name} stopped ({reason})."),
                    QT_TRANSLATE_NOOP(
                        "Errors",
                        "The output device may have been removed: check the sound settings or pick another output; "
                        "listening resumes when it is back.",
                    ),
                    name=repr(self.name),
                    reason=failure,
                )
            return None
        self.captured_at = blocks[-1][1]
        samples = np.concatenate([b for b, _ in blocks]).astype(np.float32, copy=False)
        self.level = level_of(samples)
        return samples

    def stop(self) -> None:
        if self._mac is not None:
            self._mac.stop()
            self._mac = None
        thread, self._thread = self._thread, None
        self._quit.set()
        if thread is not None and thread is not threading.current_thread():
            thread.join(2.0)  # record() returns within a block, or within 1 s when the server is gone
