"""System audio on each OS (app/platform/loopback.py through app/audio/system.py), with the OS
faked only where it answers: `sys.platform`, soundcard's view of the sound server (PulseAudio on
Linux, WASAPI on Windows: `default_speaker`, `all_microphones(include_loopback=True)`), and
PortAudio's device list (CoreAudio on macOS). The real Linux capture is tests/audio/test_system.py."""

from __future__ import annotations

import sys
import types
from dataclasses import dataclass

import pytest
import sounddevice

from app.audio import system as system_audio
from app.audio.system import SystemDevice, list_system_devices
from app.platform import System, current, loopback


@dataclass
class Endpoint:  # what soundcard returns for a speaker or a microphone
    id: str
    name: str
    isloopback: bool = False


def fake_soundcard(speakers: list[Endpoint], loopbacks: list[Endpoint]) -> types.ModuleType:
    module = types.ModuleType("soundcard")
    module.default_speaker = lambda: speakers[0]
    module.all_microphones = lambda include_loopback=False: [
        Endpoint("{mic}", "Microphone Array"),
        *(loopbacks if include_loopback else []),
    ]
    return module


def test_windows_captures_an_output_by_the_speakers_own_id(monkeypatch):
    """WASAPI loopback: the capture of the default speakers has the speakers' id, so it is the default."""
    monkeypatch.setattr(sys, "platform", "win32")
    speakers = [
        Endpoint("{0.0.0.00000000}.{a1}", "Speakers (Realtek)"),
        Endpoint("{0.0.0.00000000}.{b2}", "CABLE Input"),
    ]
    loopbacks = [Endpoint(s.id, s.name, isloopback=True) for s in speakers]
    monkeypatch.setitem(sys.modules, "soundcard", fake_soundcard(speakers, loopbacks))
    assert list_system_devices() == [
        SystemDevice("{0.0.0.00000000}.{a1}", "Speakers (Realtek)", True),
        SystemDevice("{0.0.0.00000000}.{b2}", "CABLE Input", False),
    ]


def test_linux_captures_an_output_through_its_monitor_source(monkeypatch):
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(loopback, "on_pulseaudio", lambda: False)  # no real server to reconnect to here
    speakers = [Endpoint("alsa_output.pci.analog-stereo", "Built-in Audio")]
    loopbacks = [Endpoint("alsa_output.pci.analog-stereo.monitor", "Monitor of Built-in Audio", isloopback=True)]
    monkeypatch.setitem(sys.modules, "soundcard", fake_soundcard(speakers, loopbacks))
    assert list_system_devices() == [
        SystemDevice("alsa_output.pci.analog-stereo.monitor", "Monitor of Built-in Audio", True)
    ]


def coreaudio_devices(names: list[str]) -> list[dict]:
    return [
        {"index": i, "name": name, "hostapi": 0, "max_input_channels": 2, "default_samplerate": 48000.0}
        for i, name in enumerate(names)
    ]


def test_macos_takes_a_loopback_input_device_such_as_blackhole(monkeypatch):
    monkeypatch.setattr(sys, "platform", "darwin")
    monkeypatch.delitem(sys.modules, "soundcard", raising=False)
    monkeypatch.setattr(sounddevice, "query_hostapis", lambda: ({"name": "Core Audio"},))
    devices = coreaudio_devices(["MacBook Pro Microphone", "BlackHole 2ch", "ZoomAudioDevice"])
    monkeypatch.setattr(sounddevice, "query_devices", lambda: devices)
    monkeypatch.setattr(sounddevice.default, "device", [0, 0])
    assert list_system_devices() == [SystemDevice("1", "BlackHole 2ch", False)]
    assert "soundcard" not in sys.modules  # soundcard has no macOS loopback: never asked


def test_macos_without_a_loopback_device_says_to_install_blackhole(monkeypatch):
    monkeypatch.setattr(sys, "platform", "darwin")
    monkeypatch.setattr(sounddevice, "query_hostapis", lambda: ({"name": "Core Audio"},))
    monkeypatch.setattr(sounddevice, "query_devices", lambda: coreaudio_devices(["MacBook Pro Microphone"]))
    monkeypatch.setattr(sounddevice.default, "device", [0, 0])
    devices, reason = system_audio.system_devices_or_reason()
    assert devices == [] and "BlackHole" in reason


@pytest.mark.parametrize(
    ("platform", "through_input", "pulse", "capture_id"),
    [
        ("linux", False, True, "sink.monitor"),
        ("win32", False, False, "sink"),
        ("darwin", True, False, "sink"),
    ],
)
def test_each_os_has_its_own_loopback(monkeypatch, platform, through_input, pulse, capture_id):
    monkeypatch.setattr(sys, "platform", platform)
    assert loopback.through_input_device() is through_input
    assert loopback.on_pulseaudio() is pulse
    assert loopback.capture_id("sink") == capture_id


def test_the_machine_running_the_tests_is_a_known_desktop():
    """Unfaked: the workflow runs this file on Linux, Windows and macOS."""
    assert current() in (System.LINUX, System.WINDOWS, System.MACOS)
