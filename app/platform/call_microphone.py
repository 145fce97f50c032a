"""The call's microphone (what the other side of a call hears) per OS.

- Linux: the app makes it itself, PulseAudio / PipeWire modules (app/audio/virtual_mic.py):
  a null sink the speech is played into and a source remapped from its monitor, which call apps
  list as "Live Translator microphone".
- Windows and macOS have no such API: the person installs a virtual cable (VB-CABLE: the output
  "CABLE Input" whose other end is the microphone "CABLE Output"; BlackHole: one device, both
  ends) and the app speaks into the cable's output like into any other output.
"""

from __future__ import annotations

from app.platform import System, current


def app_makes_it() -> bool:
    """True where the app can make a virtual microphone of its own (Linux sound servers)."""
    return current() is System.LINUX
