"""The app's virtual microphone: what it speaks, as a microphone a call app (Zoom, Meet, Teams) can pick.

Linux only (PulseAudio, or PipeWire's PulseAudio server), through `pulsectl` (libpulse):

    speech ─▶ null sink `live_translator_sink` ─monitor─▶ module-remap-source ─▶ `live_translator_mic`
                                                                        "Live Translator microphone"

Both are modules of ours, loaded when the virtual microphone is opened. Two instances speak into
one microphone: the second finds the first's, and whichever leaves last unloads it (who speaks
into it is kept on the sound server: app.audio.mic_registry). Instances make, share and remove it
one at a time, under a file lock in the app's cache folder (`virtual-mic.lock`): two runs started
together would otherwise each see no whole microphone (the first had its sink, not yet its source)
and make one each. Modules of a crashed run (kill -9)
nobody speaks into are unloaded at the next open. A sink or source the user made under our name
is never used nor removed: ours gets a free name. A microphone that goes away under a run (an
unloaded module, a restarted server) is an error for the sentence it takes, and is made again for
the next. Nothing else is ever touched (no default device is changed). `--mix-original` adds a
module-loopback from the default source (my microphone) into the sink at that level, this run's own.

Windows and macOS have no such modules: speak into a virtual cable instead (VB-CABLE, BlackHole;
`--speak-into "CABLE Input"`, README 'Speak into a call').
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import threading
from collections.abc import Callable

import numpy as np

from app.audio.mic_registry import (
    OWNER_PROPERTY,
    SINK_NAME,
    SINK_PROPERTY,
    SOURCE_NAME,
    Holder,
    SharedMic,
    find_ours,
    free_name,
    holders,
    is_ours,
    remove_leftovers,
)
from app.audio.outputs import DeviceOutput
from app.platform import call_microphone
from app.shared import paths
from app.shared.audio import SourceKind
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError

log = logging.getLogger(__name__)

SINK_DESCRIPTION = "Live Translator speech"
SOURCE_DESCRIPTION = "Live Translator microphone"
# Making the microphone takes a few server round trips; a holder that hangs longer is not waited for.
LOCK_WAIT_S = 10.0
# The call app may play our voice back into system audio a while later (network round trip).
CALL_ECHO_TAIL_S = 1.5
_NO_SERVER_HINT = QT_TRANSLATE_NOOP(
    "Errors",
    "Start the sound server (PulseAudio or PipeWire's pipewire-pulse), or "
    "speak into the speakers (--speak-into speakers); translation goes on "
    "without speech.",
)
_NO_LIBRARY = QT_TRANSLATE_NOOP("Errors", "The virtual microphone needs pulsectl and libpulse ({reason}).")
_NO_LIBRARY_HINT = QT_TRANSLATE_NOOP(
    "Errors", "pip install pulsectl (and the PulseAudio client library); translation goes on without speech."
)
_NO_SERVER = QT_TRANSLATE_NOOP(
    "Errors", "The virtual microphone cannot be made: no sound server answered at {server} ({reason})."
)
_NOT_LINUX = QT_TRANSLATE_NOOP("Errors", "The virtual microphone needs Linux (PulseAudio or PipeWire).")
_NOT_LINUX_HINT = QT_TRANSLATE_NOOP(
    "Errors",
    "Install a virtual cable (VB-CABLE, BlackHole) and speak into it by "
    'name, e.g. --speak-into "CABLE Input"; translation goes on '
    "without speech.",
)
_REFUSED = QT_TRANSLATE_NOOP(
    "Errors", "The sound server refused to load {module} for the virtual microphone ({reason})."
)
_REFUSED_HINT = QT_TRANSLATE_NOOP(
    "Errors",
    "Check that the server allows loading modules (PipeWire: pipewire-pulse runs); translation goes on without speech.",
)
_GONE = QT_TRANSLATE_NOOP(
    "Errors",
    "The virtual microphone {name} went away (another program or a restart of the sound server "
    "removed it): the call did not hear this translation.",
)
_GONE_HINT = QT_TRANSLATE_NOOP(
    "Errors",
    'It is made again for the next translation: pick "Live Translator microphone" in the call app again.',
)


def _pulsectl():
    try:
        import pulsectl
    except (ImportError, OSError) as error:  # no package, or no libpulse
        raise LiveTranslatorError(_NO_LIBRARY, _NO_LIBRARY_HINT, reason=error) from error
    return pulsectl


def _connect(client_name: str = "live-translator"):
    pulsectl = _pulsectl()
    try:
        return pulsectl.Pulse(client_name, connect=True)
    except pulsectl.PulseError as error:
        server = os.environ.get("PULSE_SERVER", "the default sound server")
        raise LiveTranslatorError(_NO_SERVER, _NO_SERVER_HINT, server=server, reason=error) from error


def existing_microphone() -> tuple[str, str] | None:
    """(name, description) of our virtual microphone when a run made it; None otherwise (or without a server)."""
    try:
        with _connect() as pulse:
            mic = find_ours(pulse)
            source = next((s for s in pulse.source_list() if mic is not None and s.name == mic.source), None)
    except LiveTranslatorError:
        return None
    return (source.name, source.description) if source is not None else None


def our_sinks() -> set[str]:
    """The names of the sinks the app made (the virtual microphone's), to leave out of device lists."""
    try:
        with _connect() as pulse:
            return {s.name for s in pulse.sink_list() if is_ours(s)}
    except LiveTranslatorError:
        return set()


@contextlib.contextmanager
def _one_instance_at_a_time():
    """Held while an instance makes, shares or removes the microphone (filelock: flock on POSIX,
    freed by the OS when the process dies, even on kill -9). Without a writable cache folder, or
    past LOCK_WAIT_S, it goes on unlocked: a second microphone beats no microphone."""
    from filelock import FileLock, Timeout

    try:
        folder = paths.cache_dir()
        folder.mkdir(parents=True, exist_ok=True)
        lock = FileLock(folder / "virtual-mic.lock", timeout=LOCK_WAIT_S)
        lock.acquire()
    except (OSError, Timeout) as error:
        log.warning("virtual microphone: going on without the instance lock (%s)", error)
        yield
        return
    try:
        yield
    finally:
        lock.release()


class VirtualMicrophone:
    """Makes live_translator_mic (and its sink) on open(), or speaks into the one another running
    instance made; close() (also at exit) removes it when no other instance speaks into it."""

    def __init__(self, mix_original: float = 0.0):
        self.mix_original = mix_original
        self.sink_name: str | None = None  # known once open
        self.source_name: str | None = None
        self._holder: Holder | None = None
        self._own: list[int] = []  # modules of this run alone (the loopback of my voice)
        self._lock = threading.Lock()

    @property
    def is_open(self) -> bool:
        return self._holder is not None

    def open(self) -> None:
        if not call_microphone.app_makes_it():
            raise LiveTranslatorError(_NOT_LINUX, _NOT_LINUX_HINT)
        with self._lock, _one_instance_at_a_time(), _connect() as pulse:
            if self._holder is not None:
                return
            self._holder = Holder(_connect)  # first: no instance may remove what we are about to use
            try:
                remove_leftovers(pulse, self._holder.name)
                mic = self._share_or_make(pulse)
                self.sink_name, self.source_name = mic.sink, mic.source
                if self.mix_original > 0:
                    self._mix_in_microphone(pulse)
            except LiveTranslatorError:
                self._leave(pulse)
                raise
        atexit.register(self.close)

    def _share_or_make(self, pulse) -> SharedMic:
        for _attempt in range(3):
            mic = find_ours(pulse)
            if mic is not None:
                log.info("speaking into the virtual microphone another running Live Translator made (%s)", mic.source)
                return mic
            mic = self._make(pulse)
            if mic is not None:
                return mic
        raise LiveTranslatorError(_REFUSED, _REFUSED_HINT, module="module-null-sink", reason="the name stayed taken")

    def _make(self, pulse) -> SharedMic | None:
        """Our sink and source under free names (a device of the user's keeps its name); None when
        another instance made one at the same moment (the server renamed ours: we use theirs)."""
        owner = f"{OWNER_PROPERTY}={os.getpid()}"
        sink = free_name(SINK_NAME, {s.name for s in pulse.sink_list()})
        if sink != SINK_NAME:
            log.info("a sink named %s exists and is not ours: making %s", SINK_NAME, sink)
        sink_module = self._load(
            pulse,
            "module-null-sink",
            f"sink_name={sink} channels=1 sink_properties='device.description=\"{SINK_DESCRIPTION}\" {owner}'",
        )
        if not any(s.name == sink and s.owner_module == sink_module for s in pulse.sink_list()):
            pulse.module_unload(sink_module)
            return None
        source = free_name(SOURCE_NAME, {s.name for s in pulse.source_list()})
        try:
            source_module = self._load(
                pulse,
                "module-remap-source",
                f"master={sink}.monitor source_name={source} channels=1 source_properties="
                f"'device.description=\"{SOURCE_DESCRIPTION}\" {owner} {SINK_PROPERTY}={sink}'",
            )
        except LiveTranslatorError:
            pulse.module_unload(sink_module)
            raise
        return SharedMic(sink, source, sink_module, source_module)

    def _load(self, pulse, module: str, arguments: str) -> int:
        try:
            return pulse.module_load(module, arguments)
        except Exception as error:  # pulsectl.PulseOperationFailed: the server refused the module
            raise LiveTranslatorError(_REFUSED, _REFUSED_HINT, module=module, reason=error or "refused") from error

    def _mix_in_microphone(self, pulse) -> None:
        """My own voice (the default source) under the translation, at mix_original's amplitude."""
        index = self._load(
            pulse,
            "module-loopback",
            f"sink={self.sink_name} latency_msec=40 "
            f"sink_input_properties='media.name=\"my voice\" {OWNER_PROPERTY}={os.getpid()}'",
        )
        self._own.append(index)
        for stream in pulse.sink_input_list():
            if stream.owner_module == index:
                # PulseAudio's volume scale is cubic: amplitude a is volume a ** (1/3).
                pulse.volume_set_all_chans(stream, min(self.mix_original, 1.0) ** (1 / 3))

    def check_present(self) -> None:
        """Raise when our microphone went away under us (unloaded by another program, the server
        restarted): the call hears nothing, and that is said. The next open() makes it again."""
        with self._lock:
            name = self.source_name
            with _one_instance_at_a_time(), _connect() as pulse:
                if self._holder is None or find_ours(pulse, self.sink_name) is not None:
                    return
                self._leave(pulse)
        raise LiveTranslatorError(_GONE, _GONE_HINT, name=name)

    def _leave(self, pulse) -> None:
        """Unload this run's own modules, stop holding, and unload the microphone if nobody else
        speaks into it."""
        for index in reversed(self._own):
            _unload(pulse, index)
        self._own.clear()
        if self._holder is not None:
            self._holder.release(pulse)
            self._holder = None
        mic = find_ours(pulse, self.sink_name) if self.sink_name else None
        if mic is not None and not holders(pulse):
            for index in (mic.source_module, mic.sink_module):  # the source first: it lives on the sink
                _unload(pulse, index)
        self.sink_name = self.source_name = None

    def close(self) -> None:
        with self._lock:
            if self._holder is None:
                return
            try:
                with _one_instance_at_a_time(), _connect() as pulse:
                    self._leave(pulse)
            except LiveTranslatorError as error:  # the server is gone, and our modules with it
                log.info("virtual microphone: %s", error)
                self._holder.drop()
                self._holder, self._own = None, []
        atexit.unregister(self.close)


def _unload(pulse, index: int) -> None:
    try:
        pulse.module_unload(index)
    except Exception as error:  # already gone (the server restarted, or its sink went first)
        log.info("virtual microphone module %s: %s", index, error)


class VirtualMicOutput(DeviceOutput):
    """Speech played into the virtual microphone: an AudioOutput whose voice reaches only the call
    (and, echoed by the call app, system audio)."""

    def __init__(self, mix_original: float = 0.0):
        super().__init__(SINK_NAME, heard_by=frozenset({SourceKind.SYSTEM}), echo_tail_s=CALL_ECHO_TAIL_S)
        self.name = SOURCE_DESCRIPTION
        self.microphone = VirtualMicrophone(mix_original)

    def open(self) -> None:
        self.microphone.open()
        self.device = self.microphone.sink_name or SINK_NAME
        super().open()
        self.name = SOURCE_DESCRIPTION

    def play(self, samples: np.ndarray, rate: int, on_level: Callable[[float, float], None] | None = None) -> None:
        """Play into the microphone; it is made again if it went away after an earlier sentence,
        and a sentence it went away before or during is an error, never a silent `speech`."""
        if not self.microphone.is_open:
            self.open()
        self.microphone.check_present()
        try:
            super().play(samples, rate, on_level)
        except Exception:
            self.microphone.check_present()  # gone meanwhile: say that, not the player's words
            raise
        self.microphone.check_present()

    def close(self) -> None:
        super().close()
        self.microphone.close()
