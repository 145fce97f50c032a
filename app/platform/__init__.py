"""Where the app differs by operating system: one module per difference.

- `loopback`: how what the computer plays is captured (PulseAudio monitors, WASAPI loopback,
  a loopback input device such as BlackHole on macOS);
- `call_microphone`: whether the app can make the call's microphone itself (PulseAudio modules on
  Linux) or the person installs a virtual cable (VB-CABLE, BlackHole);
- `folders`: the user's folders (platformdirs, chosen per call so a test can fake the OS);
- `voices`: whether the system's own voices sound natural.

`current()` is the one reader of `sys.platform` in app/: tests fake the OS there (and at the OS
call a module wraps), nowhere else. This package imports nothing of the app, so every layer,
the shared one included, may use it.
"""

from __future__ import annotations

import sys
from enum import Enum


class System(Enum):
    LINUX = "linux"
    WINDOWS = "windows"
    MACOS = "macos"
    OTHER = "other"  # a BSD, say: treated like Linux where a sound server is asked, else as unknown


def current() -> System:
    """The operating system this process runs on."""
    platform = sys.platform
    if platform.startswith("linux"):
        return System.LINUX
    if platform == "win32":
        return System.WINDOWS
    if platform == "darwin":
        return System.MACOS
    return System.OTHER
