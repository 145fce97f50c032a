"""Audio in: a microphone (sounddevice / PortAudio) or a recording standing in for one.

Both follow app.shared.audio.AudioSource: float32 mono blocks at 16 kHz through the same
three calls, `start()`, `read(timeout)` (all audio that arrived since the last read, or None),
`stop()`.
The microphone records at the device's own rate; blocks are converted to 16 kHz (PyAV's
resampler, which keeps its filter state between blocks) in `read()`, off the PortAudio thread.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from app.audio.buffer import BlockBuffer
from app.audio.device_lookup import find_device
from app.audio.quiet import quiet_portaudio
from app.shared import files as careful
from app.shared.audio import SAMPLE_RATE, SourceKind
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError

MAX_RECORDING_BYTES = 1 << 40  # no limit in practice: it is read as it is played
_RECORDING_HINT = QT_TRANSLATE_NOOP("Errors", "Give a WAV, FLAC, MP3 or other file ffmpeg can decode.")


@dataclass(frozen=True)
class InputDevice:
    index: int
    name: str
    host_api: str
    channels: int
    default_samplerate: float
    is_default: bool


def _sounddevice():
    try:
        with quiet_portaudio():  # the first import starts PortAudio, which probes every device
            import sounddevice
    except OSError as error:  # the PortAudio library itself is missing
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "Audio input is unavailable: {reason}."),
            QT_TRANSLATE_NOOP("Errors", "Install PortAudio (Debian: apt-get install libportaudio2)."),
            reason=error,
        ) from error
    return sounddevice


def list_input_devices(refresh_if_none: bool = False) -> list[InputDevice]:
    """Every device PortAudio can record from (an empty list on a machine without any).
    `refresh_if_none`: when PortAudio lists none, restart it and look again (its list is the one
    it made when it started: a sound server started since would not be in it). With no input
    device there is no input stream to lose."""
    devices = _input_devices()
    if not devices and refresh_if_none:
        _refresh_portaudio()
        devices = _input_devices()
    return devices


def _input_devices() -> list[InputDevice]:
    sd = _sounddevice()
    try:
        with quiet_portaudio():
            default_in, apis, devices = sd.default.device[0], sd.query_hostapis(), sd.query_devices()
        return [
            InputDevice(
                d["index"],
                d["name"],
                apis[d["hostapi"]]["name"],
                d["max_input_channels"],
                d["default_samplerate"],
                d["index"] == default_in,
            )
            for d in devices
            if d["max_input_channels"] > 0
        ]
    except sd.PortAudioError:
        return []


_portaudio_restarts = threading.Lock()


def _refresh_portaudio() -> None:
    """PortAudio lists devices once, when it starts: restart it so a device that appeared since
    (plugged in, sound server started) can be found. Only called while this source has no stream."""
    sd = _sounddevice()
    with _portaudio_restarts, quiet_portaudio():  # one restart at a time: a device scan, a source's start
        sd._terminate()
        sd._initialize()


def find_input_device(device: int | str | None) -> InputDevice:
    """The device by index, exact name, or unique part of a name; None = the system default."""
    return find_device(SourceKind.MICROPHONE, list_input_devices(), device, key=lambda d: str(d.index))


def level_of(block: np.ndarray) -> tuple[float, float]:
    """(rms, peak) of a block, 0.0 .. 1.0."""
    if block.size == 0:
        return 0.0, 0.0
    return float(np.sqrt(np.mean(np.square(block, dtype=np.float64)))), float(np.max(np.abs(block)))


class MicrophoneSource:
    """Live input from a sound device.

    The PortAudio callback only copies each block (mixed to mono) into a bounded buffer of
    `buffer_s` seconds; when the reader falls that far behind, the oldest audio is dropped and
    counted in `overflow_s` instead of memory growing. read() raises LiveTranslatorError when the
    device stops delivering audio (unplugged, sound server gone); start() may then be called again.
    """

    def __init__(
        self,
        device: int | str | None = None,
        *,
        buffer_s: float = 30.0,
        stall_s: float = 2.0,
        start_timeout_s: float = 6.0,
    ):
        self.device = device
        self.kind = SourceKind.MICROPHONE
        self.realtime = True
        self.device_info: InputDevice | None = None
        self.level = (0.0, 0.0)
        self.captured_at = 0.0  # monotonic time at which the end of the last read block was recorded
        self.finished = False  # a microphone never runs out
        self._stream = None
        self._buffer = BlockBuffer(buffer_s, stall_s, start_timeout_s)
        self._rate = SAMPLE_RATE
        self._resampler = None

    @property
    def overflow_s(self) -> float:
        """Audio dropped because nobody read it in time (seconds)."""
        return self._buffer.overflow_s

    @property
    def name(self) -> str:
        if self.device_info is not None:
            return self.device_info.name
        return "the default microphone" if self.device in (None, "") else str(self.device)

    # -- PortAudio thread -------------------------------------------------------------------
    def _callback(self, indata, frames, time_info, status) -> None:
        now = time.monotonic()
        mono = indata.mean(axis=1) if indata.shape[1] > 1 else indata[:, 0].copy()
        self._buffer.put(mono, now)

    def _finished_callback(self) -> None:
        if self._stream is not None:
            self._buffer.fail("the audio stream ended")

    # -- reader thread ----------------------------------------------------------------------
    def start(self) -> None:
        """Open the device and start recording; raises LiveTranslatorError if that is impossible."""
        import av

        sd = _sounddevice()
        self.stop()
        try:
            info = find_input_device(self.device)
        except LiveTranslatorError:
            _refresh_portaudio()
            info = find_input_device(self.device)
        self.device_info = info
        self._rate = int(info.default_samplerate)
        self._resampler = av.AudioResampler(format="flt", layout="mono", rate=SAMPLE_RATE)
        self._buffer.reset(self._rate)
        try:
            with quiet_portaudio():  # a failed open: PortAudio's checks said at DEBUG, ours below
                stream = sd.InputStream(
                    device=info.index,
                    samplerate=self._rate,
                    channels=min(info.channels, 2),
                    # blocksize 0: PortAudio's own choice; fixed sizes made ALSA's
                    # pulse device start ~2 s late and lose that audio (seen here).
                    dtype="float32",
                    blocksize=0,
                    callback=self._callback,
                    finished_callback=self._finished_callback,
                )
                self._stream = stream
                stream.start()
        except sd.PortAudioError as error:
            self._stream = None
            raise LiveTranslatorError(
                QT_TRANSLATE_NOOP("Errors", "Could not open the microphone {name}: {reason}."),
                QT_TRANSLATE_NOOP(
                    "Errors",
                    "Check that it is connected and not used exclusively by another program, or pick another one.",
                ),
                name=repr(info.name),
                reason=error,
            ) from error

    def read(self, timeout: float = 0.1) -> np.ndarray | None:
        """All audio recorded since the last call (16 kHz mono float32), or None if none came in time."""
        if self._stream is None:
            raise LiveTranslatorError(
                QT_TRANSLATE_NOOP("Errors", "The microphone is not started."),
                QT_TRANSLATE_NOOP("Errors", "Call start() first."),
            )
        blocks, failure = self._buffer.take(timeout)
        if not blocks:
            if failure is not None:
                self._fail(failure)
            return None
        self.captured_at = blocks[-1][1]
        return self._to_16k(np.concatenate([b for b, _ in blocks]))

    def _to_16k(self, mono: np.ndarray) -> np.ndarray:
        import av

        if self._rate != SAMPLE_RATE:
            frame = av.AudioFrame.from_ndarray(mono.astype(np.float32)[None, :], format="flt", layout="mono")
            frame.sample_rate = self._rate
            parts = [f.to_ndarray()[0] for f in self._resampler.resample(frame)]
            mono = np.concatenate(parts) if parts else np.zeros(0, np.float32)
        mono = mono.astype(np.float32, copy=False)
        self.level = level_of(mono)
        return mono

    def _fail(self, why: str) -> None:
        self._close()
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP(
                "Errors", "The microphone {name} stopped delivering audio ({reason}); it may have been unplugged."
            ),
            QT_TRANSLATE_NOOP("Errors", "Reconnect it or pick another input device, then start listening again."),
            name=repr(self.name),
            reason=why,
        )

    def _close(self) -> None:
        stream, self._stream = self._stream, None
        if stream is None:
            return
        # A vanished device can make PortAudio's close block; never let that hang the app.
        closer = threading.Thread(
            target=lambda: (stream.abort(ignore_errors=True), stream.close(ignore_errors=True)), daemon=True
        )
        closer.start()
        closer.join(2.0)

    def stop(self) -> None:
        self._close()


class FileSource:
    """A recording standing in for the microphone: same blocks, at real-time pace or as fast as read.

    With realtime=True, read() returns the audio a microphone would have delivered by now (all
    of it since the last call, so a slow reader catches up); with realtime=False, one block of
    `block_s` seconds per call. Any format PyAV/ffmpeg reads, converted to 16 kHz mono.
    The file is decoded as it is played (PyAV, frame by frame, through one resampler): memory
    holds a block or two, whatever the recording's length. `duration` is what was decoded so
    far: the whole length once `finished`.
    """

    def __init__(self, path: str | Path, *, realtime: bool = True, block_s: float = 0.1):
        self.path = Path(path)
        self.kind = SourceKind.FILE
        self.name = str(self.path)
        self.realtime, self.block_s = realtime, block_s
        self.level = (0.0, 0.0)
        self.overflow_s = 0.0
        self.captured_at = 0.0
        self._container = None
        self._chunks = None  # 16 kHz mono float32 arrays, as decoded
        self._pending: list[np.ndarray] = []
        self._pending_n = 0
        self._decoded = 0  # samples decoded since start()
        self._pos = 0  # samples handed out since start()
        self._started = False
        self._eof = False
        self._t0 = 0.0

    @property
    def duration(self) -> float:
        return self._decoded / SAMPLE_RATE

    @property
    def finished(self) -> bool:
        return self._started and self._eof and self._pending_n == 0

    def check(self) -> None:
        """The one check of a recording given by name (`transcribe FILE`, `run --input`, the
        window's recording): the file is opened and its first audio decoded, then closed."""
        self.start()
        self.stop()

    def _check_path(self) -> None:
        """What the path says before a byte is decoded: a folder, nothing, a FIFO or device
        (which would block or never end), an empty file."""
        if self.path.is_dir():
            raise LiveTranslatorError(
                QT_TRANSLATE_NOOP("Errors", "{path} is a folder, not an audio file."),
                QT_TRANSLATE_NOOP("Errors", "Give the path of a WAV/FLAC/OGG/MP3 file inside it."),
                path=self.path,
            )
        try:
            size = careful.regular_file_size(self.path, MAX_RECORDING_BYTES)
        except FileNotFoundError:  # a dangling link too
            raise LiveTranslatorError(
                QT_TRANSLATE_NOOP("Errors", "Audio file {path} does not exist."),
                QT_TRANSLATE_NOOP("Errors", "Check the path."),
                path=self.path,
            ) from None
        except LiveTranslatorError as refused:  # its own words, a recording's hint
            raise LiveTranslatorError(refused.text, _RECORDING_HINT) from None
        if size == 0:
            raise LiveTranslatorError(
                QT_TRANSLATE_NOOP("Errors", "{path} is empty (0 bytes): there is no recording in it."),
                _RECORDING_HINT,
                path=self.path,
            )

    def start(self) -> None:
        """Open the recording and play it from the beginning."""
        self._check_path()
        self.stop()
        self._pending, self._pending_n, self._decoded, self._pos, self._eof = [], 0, 0, 0, False
        try:
            import av

            self._container = av.open(str(self.path), mode="r", metadata_errors="ignore")
            if not self._container.streams.audio:
                raise ValueError("it holds no audio stream")
            self._chunks = _decoded_chunks(self._container)
            self._started = True
            self._fill(1)  # a file that cannot be decoded is refused here, not mid-session
        except LiveTranslatorError:
            self.stop()
            raise
        except Exception as error:  # PyAV raises its own error types for every codec problem
            self.stop()
            raise self._unreadable(error) from error
        self._t0 = time.monotonic()

    def read(self, timeout: float = 0.1) -> np.ndarray | None:
        if not self._started:
            raise LiveTranslatorError(
                QT_TRANSLATE_NOOP("Errors", "The audio file is not started."),
                QT_TRANSLATE_NOOP("Errors", "Call start() first."),
            )
        if self.finished:
            return None
        if self.realtime:
            next_block_at = self._t0 + (self._pos / SAMPLE_RATE + self.block_s)
            wait = next_block_at - time.monotonic()
            if wait > timeout:
                time.sleep(max(timeout, 0))
                return None
            time.sleep(max(wait, 0))
            block = self._take(int((time.monotonic() - self._t0) * SAMPLE_RATE) - self._pos)
            self.captured_at = self._t0 + self._pos / SAMPLE_RATE
        else:
            block = self._take(int(self.block_s * SAMPLE_RATE))
            self.captured_at = time.monotonic()
        self.level = level_of(block)
        return block

    def stop(self) -> None:
        """Close the file (a later start() plays it from the beginning)."""
        container, self._container, self._chunks = self._container, None, None
        if container is not None:
            container.close()
            self._eof = True

    def _take(self, n: int) -> np.ndarray:
        """The next `n` samples (fewer at the end of the file)."""
        self._fill(max(n, 0))
        audio = (
            np.concatenate(self._pending)
            if len(self._pending) > 1
            else (self._pending[0] if self._pending else np.zeros(0, np.float32))
        )
        block, rest = audio[: max(n, 0)], audio[max(n, 0) :]
        self._pending, self._pending_n = ([rest] if len(rest) else []), len(rest)
        self._pos += len(block)
        return block

    def _fill(self, n: int) -> None:
        """Decode until `n` samples wait, or the file ends."""
        while self._pending_n < n and not self._eof:
            try:
                chunk = next(self._chunks)
            except StopIteration:
                self.stop()
                break
            except Exception as error:  # a codec error after the start: said, not a traceback
                self.stop()
                raise self._unreadable(error) from error
            self._pending.append(chunk)
            self._pending_n += len(chunk)
            self._decoded += len(chunk)

    def _unreadable(self, error: Exception) -> LiveTranslatorError:
        # ffmpeg's own words without its errno and the path again ("[Errno 1094995529] Invalid data ...: 'x.wav'")
        reason = getattr(error, "strerror", None) or error
        return LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "{path} is not a recording ffmpeg can decode ({reason})."),
            _RECORDING_HINT,
            path=self.path,
            reason=reason,
        )


def _decoded_chunks(container) -> Iterator[np.ndarray]:
    """The first audio stream as 16 kHz mono float32 arrays, frame by frame. Converted through
    16-bit samples as faster-whisper's decode_audio does (so a file reads exactly as it did when
    it was decoded whole); frames ffmpeg finds invalid are skipped, as decode_audio skips them."""
    import av

    resampler = av.AudioResampler(format="s16", layout="mono", rate=SAMPLE_RATE)
    frames = container.decode(audio=0)
    while True:
        try:
            frame = next(frames)
        except StopIteration:
            break
        except av.error.InvalidDataError:
            continue
        for out in resampler.resample(frame):
            yield out.to_ndarray().reshape(-1).astype(np.float32) / 32768.0
    for out in resampler.resample(None):  # what the resampler still holds
        yield out.to_ndarray().reshape(-1).astype(np.float32) / 32768.0
