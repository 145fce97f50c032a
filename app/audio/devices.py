"""Every live source the app can listen to (microphones and system audio), every device it can
speak into (outputs, and its virtual microphone when that exists), and the source for a choice
made on the command line or in the window."""

from __future__ import annotations

from dataclasses import dataclass

from app.audio.outputs import list_output_devices
from app.audio.sources import MicrophoneSource, list_input_devices
from app.audio.system import SystemAudioSource, list_system_devices
from app.audio.virtual_mic import existing_microphone, our_sinks
from app.shared.audio import AudioSource, OutputKind, SourceKind


@dataclass(frozen=True)
class SourceDevice:
    """One line of `python -m app devices`."""

    id: int | str  # a microphone's PortAudio index; a system source's id (Linux: the monitor's name); an output's id
    name: str
    kind: SourceKind | OutputKind  # MICROPHONE or SYSTEM; SPEAKER or VIRTUAL_MICROPHONE
    default: bool

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "kind": str(self.kind), "default": self.default}


def list_sources() -> list[SourceDevice]:
    """Microphones first, then system audio; [] of a kind the machine does not have."""
    microphones = [SourceDevice(d.index, d.name, SourceKind.MICROPHONE, d.is_default) for d in list_input_devices()]
    ours = {f"{sink}.monitor" for sink in our_sinks()}  # what the app itself speaks into the call
    system = [
        SourceDevice(d.id, d.name, SourceKind.SYSTEM, d.is_default) for d in list_system_devices() if d.id not in ours
    ]
    return microphones + system


def list_outputs() -> list[SourceDevice]:
    """Where speech can go: every output device (the virtual microphone's own sink left out), then
    the virtual microphone when it exists (a run with --speak-into virtual-mic made it)."""
    ours = our_sinks()
    speakers = [
        SourceDevice(d.id, d.name, OutputKind.SPEAKER, d.is_default) for d in list_output_devices() if d.id not in ours
    ]
    virtual = existing_microphone()
    return speakers + ([SourceDevice(virtual[0], virtual[1], OutputKind.VIRTUAL_MICROPHONE, False)] if virtual else [])


def parse_device(device: str | int | None) -> int | str | None:
    """A device given on the command line: a number is an index, anything else a name (or id)."""
    if device is None or device == "":
        return None
    if isinstance(device, int):
        return device
    return int(device) if device.isdigit() else device


def open_source(kind: SourceKind | str, device: str | int | None = None) -> AudioSource:
    """A live source of that kind (not started: the capture loop starts it, and retries)."""
    kind = SourceKind(kind)
    if kind is SourceKind.SYSTEM:
        return SystemAudioSource(device)
    if kind is SourceKind.MICROPHONE:
        return MicrophoneSource(parse_device(device))
    raise ValueError(f"not a live source kind: {kind}")
