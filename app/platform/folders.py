"""The user's folders per OS, from platformdirs, plus the XDG data folder Linux desktops read.

platformdirs picks its class for the OS once, at import; `app_folders()` picks it per call from
`current()`, so a test can fake the OS. Where each lands (for app name "live-translator"):
Linux $XDG_DATA_HOME/live-translator (else ~/.local/share/...), config $XDG_CONFIG_HOME, logs
$XDG_STATE_HOME/.../log, cache $XDG_CACHE_HOME; Windows %LOCALAPPDATA%\\live-translator\\live-translator
(data, config; Logs and Cache below it); macOS ~/Library/Application Support/live-translator
(data, config), ~/Library/Logs/..., ~/Library/Caches/....
"""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs.api import PlatformDirsABC
from platformdirs.macos import MacOS
from platformdirs.unix import Unix
from platformdirs.windows import Windows

from app.platform import System, current

_CLASSES: dict[System, type[PlatformDirsABC]] = {System.WINDOWS: Windows, System.MACOS: MacOS}


def app_folders(app_name: str) -> PlatformDirsABC:
    """The user's folders for `app_name` on this OS (user_data_path, user_config_path, ...)."""
    return _CLASSES.get(current(), Unix)(app_name)


def xdg_data_home() -> Path:
    """Where a Linux user's desktop entries and icons go: $XDG_DATA_HOME, else ~/.local/share
    (the XDG spec: a relative value is invalid and ignored)."""
    xdg = os.environ.get("XDG_DATA_HOME", "")
    return Path(xdg) if os.path.isabs(xdg) else Path.home() / ".local" / "share"
