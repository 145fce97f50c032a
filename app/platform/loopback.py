"""System audio (what the computer plays) per OS; the capture itself is app/audio/system.py.

- Linux: every PulseAudio / PipeWire sink has a `.monitor` source, recorded through soundcard.
  PulseAudio moves a stream whose source is removed onto another source instead of ending it,
  so the recorder checks that its output still exists; soundcard's one server connection,
  made at import, is renewed when the server went away.
- Windows: WASAPI loopback through soundcard; the capture of an output has the output's own id.
- macOS: no loopback of its own: a loopback device (BlackHole, Loopback, Soundflower) is an
  input device, recorded like a microphone (sounddevice).
"""

from __future__ import annotations

from app.platform import System, current

# Input devices on macOS that carry what the computer plays (lower-case name parts).
MAC_LOOPBACK_NAMES = ("blackhole", "loopback", "soundflower")


def through_input_device() -> bool:
    """True where system audio is a loopback input device recorded like a microphone (macOS)."""
    return current() is System.MACOS


def is_loopback_input(device_name: str) -> bool:
    """Whether an input device of that name carries what the computer plays (macOS)."""
    return any(part in device_name.lower() for part in MAC_LOOPBACK_NAMES)


def capture_id(speaker_id: str) -> str:
    """The id soundcard records an output by: its monitor source on Linux, the speaker itself on Windows."""
    return f"{speaker_id}.monitor" if current() is System.LINUX else speaker_id


def on_pulseaudio() -> bool:
    """True where soundcard talks to PulseAudio (or PipeWire's PulseAudio server): its connection
    may need renewing, and a removed output must be noticed by asking (see the module's doc)."""
    return current() is System.LINUX
