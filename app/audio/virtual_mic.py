"""The app's virtual microphone: what it speaks, as a microphone a call app (Zoom, Meet, Teams) can pick.

Linux only (PulseAudio, or PipeWire's PulseAudio server), through `pulsectl` (libpulse):

    speech ─▶ null sink `live_translator_sink` ─monitor─▶ module-remap-source ─▶ `live_translator_mic`
                                                                        "Live Translator microphone"

Both are modules of ours, loaded when the virtual microphone is opened and unloaded when it is
closed (and at exit). Each module's arguments carry `live_translator.pid=<pid>`: a run that
crashed (kill -9) leaves modules whose process is gone, and the next open unloads exactly
those. A live run's virtual microphone is shared, never removed; nothing else is ever touched
(no default device is changed). `--mix-original` adds a module-loopback from the default
source (my microphone) into the sink at that level.

Windows and macOS have no such modules: speak into a virtual cable instead (VB-CABLE, BlackHole;
`--speak-into "CABLE Input"`, README 'Speak into a call').
"""

from __future__ import annotations

import atexit
import logging
import os
import re
import sys
import threading

from app.audio.outputs import DeviceOutput
from app.shared.audio import SourceKind
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError

log = logging.getLogger(__name__)

SINK_NAME = "live_translator_sink"
SOURCE_NAME = "live_translator_mic"
SINK_DESCRIPTION = "Live Translator speech"
SOURCE_DESCRIPTION = "Live Translator microphone"
OWNER_PROPERTY = "live_translator.pid"
# The call app may play our voice back into system audio a while later (network round trip).
CALL_ECHO_TAIL_S = 1.5
_OWNED = re.compile(rf"{re.escape(OWNER_PROPERTY)}=(\d+)")
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


def _pulsectl():
    try:
        import pulsectl
    except (ImportError, OSError) as error:  # no package, or no libpulse
        raise LiveTranslatorError(_NO_LIBRARY, _NO_LIBRARY_HINT, reason=error) from error
    return pulsectl


def _connect():
    pulsectl = _pulsectl()
    try:
        return pulsectl.Pulse("live-translator", connect=True)
    except pulsectl.PulseError as error:
        server = os.environ.get("PULSE_SERVER", "the default sound server")
        raise LiveTranslatorError(_NO_SERVER, _NO_SERVER_HINT, server=server, reason=error) from error


def _owner_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def _ours(module) -> int | None:
    """The pid that loaded this module, if it is one of ours."""
    found = _OWNED.search(module.argument or "")
    return int(found.group(1)) if found else None


def remove_leftovers(pulse) -> list[str]:
    """Unload the modules a crashed run of ours left behind; the names of those removed."""
    removed = []
    # Newest first: unloading the sink first would take the source on its monitor with it.
    for module in sorted(pulse.module_list(), key=lambda m: m.index, reverse=True):
        pid = _ours(module)
        if pid is not None and not _owner_alive(pid):
            try:
                pulse.module_unload(module.index)
            except Exception as error:  # pulsectl.PulseOperationFailed: gone with the one before
                log.info("leftover module %s: %s", module.index, error)
            removed.append(module.name)
    if removed:
        log.info("removed a crashed run's virtual microphone (%s)", ", ".join(removed))
    return removed


def existing_microphone() -> tuple[str, str] | None:
    """(name, description) of live_translator_mic when it exists; None otherwise (or without a server)."""
    try:
        with _connect() as pulse:
            source = next((s for s in pulse.source_list() if s.name == SOURCE_NAME), None)
    except LiveTranslatorError:
        return None
    return (source.name, source.description) if source is not None else None


class VirtualMicrophone:
    """Creates live_translator_mic (and its sink) on open(), removes them on close() and at exit."""

    def __init__(self, mix_original: float = 0.0):
        self.mix_original = mix_original
        self._modules: list[int] = []
        self._lock = threading.Lock()

    @property
    def is_open(self) -> bool:
        return bool(self._modules)

    def open(self) -> None:
        if not sys.platform.startswith("linux"):
            raise LiveTranslatorError(_NOT_LINUX, _NOT_LINUX_HINT)
        with self._lock, _connect() as pulse:
            if self._modules:
                return
            remove_leftovers(pulse)
            if any(s.name == SINK_NAME for s in pulse.sink_list()):
                log.info("the virtual microphone exists (another running Live Translator): speaking into it")
                return
            owner = f"{OWNER_PROPERTY}={os.getpid()}"
            try:
                self._load(
                    pulse,
                    "module-null-sink",
                    f"sink_name={SINK_NAME} channels=1 "
                    f"sink_properties='device.description=\"{SINK_DESCRIPTION}\" {owner}'",
                )
                self._load(
                    pulse,
                    "module-remap-source",
                    f"master={SINK_NAME}.monitor source_name={SOURCE_NAME} "
                    f"channels=1 source_properties='device.description=\"{SOURCE_DESCRIPTION}\" {owner}'",
                )
                if self.mix_original > 0:
                    self._mix_in_microphone(pulse, owner)
            except LiveTranslatorError:
                self._unload(pulse)
                raise
        atexit.register(self.close)

    def _load(self, pulse, module: str, arguments: str) -> int:
        try:
            index = pulse.module_load(module, arguments)
        except Exception as error:  # pulsectl.PulseOperationFailed: the server refused the module
            raise LiveTranslatorError(_REFUSED, _REFUSED_HINT, module=module, reason=error or "refused") from error
        self._modules.append(index)
        return index

    def _mix_in_microphone(self, pulse, owner: str) -> None:
        """My own voice (the default source) under the translation, at mix_original's amplitude."""
        index = self._load(
            pulse,
            "module-loopback",
            f"sink={SINK_NAME} latency_msec=40 sink_input_properties='media.name=\"my voice\" {owner}'",
        )
        for stream in pulse.sink_input_list():
            if stream.owner_module == index:
                # PulseAudio's volume scale is cubic: amplitude a is volume a ** (1/3).
                pulse.volume_set_all_chans(stream, min(self.mix_original, 1.0) ** (1 / 3))

    def _unload(self, pulse) -> None:
        for index in reversed(self._modules):
            try:
                pulse.module_unload(index)
            except Exception as error:  # already gone (the server restarted)
                log.info("virtual microphone module %s: %s", index, error)
        self._modules.clear()

    def close(self) -> None:
        with self._lock:
            if not self._modules:
                return
            try:
                with _connect() as pulse:
                    self._unload(pulse)
            except LiveTranslatorError as error:  # the server is gone, and our modules with it
                log.info("virtual microphone: %s", error)
                self._modules.clear()
        atexit.unregister(self.close)


class VirtualMicOutput(DeviceOutput):
    """Speech played into the virtual microphone: an AudioOutput whose voice reaches only the call
    (and, echoed by the call app, system audio)."""

    def __init__(self, mix_original: float = 0.0):
        super().__init__(SINK_NAME, heard_by=frozenset({SourceKind.SYSTEM}), echo_tail_s=CALL_ECHO_TAIL_S)
        self.name = SOURCE_DESCRIPTION
        self.microphone = VirtualMicrophone(mix_original)

    def open(self) -> None:
        self.microphone.open()
        super().open()
        self.name = SOURCE_DESCRIPTION

    def close(self) -> None:
        super().close()
        self.microphone.close()
