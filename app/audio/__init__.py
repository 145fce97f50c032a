"""Audio in: the sources (a microphone, system audio, a recording standing in for one) and the one capture
loop that reads any app.shared.audio.AudioSource. Qt-free; imports no other stage."""

from app.audio.loop import SOURCE_LOST, AudioBlock, CaptureSignal, capture
from app.audio.sources import FileSource, InputDevice, MicrophoneSource, find_input_device, list_input_devices
from app.audio.system import SystemAudioSource, SystemDevice, find_system_device, list_system_devices
from app.shared.audio import SAMPLE_RATE, AudioSource, SourceKind

__all__ = [
    "SOURCE_LOST",
    "AudioBlock",
    "CaptureSignal",
    "capture",
    "FileSource",
    "InputDevice",
    "MicrophoneSource",
    "find_input_device",
    "list_input_devices",
    "SAMPLE_RATE",
    "AudioSource",
    "SourceKind",
    "SystemAudioSource",
    "SystemDevice",
    "find_system_device",
    "list_system_devices",
]
