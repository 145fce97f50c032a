"""The user's folders on each OS (app/platform/folders.py through app/shared/paths.py), with the
OS faked where it answers: `sys.platform`, and the Windows shell's known-folder call
(SHGetKnownFolderPath, which platformdirs reaches through ctypes), the home folder on macOS, the
XDG variables on Linux."""

from __future__ import annotations

import sys
from pathlib import Path

import platformdirs.windows
import pytest

from app.desktop_entry import data_home
from app.shared import paths

OVERRIDES = ("LIVE_TRANSLATOR_HOME", "LIVE_TRANSLATOR_MODELS", "LIVE_TRANSLATOR_SETTINGS", "LIVE_TRANSLATOR_CACHE")
OVERRIDES += ("LIVE_TRANSLATOR_LOGS", "LIVE_TRANSLATOR_TRANSCRIPTS", "LIVE_TRANSLATOR_TLS", "LIVE_TRANSLATOR_VOICES")


@pytest.fixture
def no_overrides(monkeypatch):
    for name in OVERRIDES:
        monkeypatch.delenv(name, raising=False)


def folders() -> dict[str, Path]:
    return {
        "models": paths.user_models_dir(),
        "settings": paths.settings_dir(),
        "logs": paths.logs_dir(),
        "cache": paths.cache_dir(),
    }


@pytest.fixture
def windows(monkeypatch) -> list[str]:
    """Windows, whose shell answers the known-folder call: the names asked for."""
    asked = []

    def known_folder(csidl_name: str) -> str:  # the shell's answer, as ctypes would return it
        asked.append(csidl_name)
        return {"CSIDL_LOCAL_APPDATA": "/C/Users/ann/AppData/Local", "CSIDL_APPDATA": "/C/Users/ann/AppData/Roaming"}[
            csidl_name
        ]

    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(platformdirs.windows, "_RESOLVE_WIN_FOLDER", known_folder)
    for name in ("LOCAL_APPDATA", "APPDATA"):
        monkeypatch.delenv(f"WIN_PD_OVERRIDE_{name}", raising=False)
    return asked


def test_windows_folders_are_where_the_shell_says_local_app_data_is(no_overrides, windows):
    app = Path("/C/Users/ann/AppData/Local/live-translator/live-translator")  # app name, then author (the same)
    assert folders() == {
        "models": app / "models",
        "settings": app,
        "logs": app / "Logs",
        "cache": app / "Cache",
    }
    assert set(windows) == {"CSIDL_LOCAL_APPDATA"}  # not roaming: models are large


def test_macos_folders_are_in_the_library(no_overrides, monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "platform", "darwin")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("USERPROFILE", str(tmp_path))  # the home Python finds when this runs on Windows
    library = tmp_path / "Library"
    assert folders() == {
        "models": library / "Application Support" / "live-translator" / "models",
        "settings": library / "Application Support" / "live-translator",
        "logs": library / "Logs" / "live-translator",
        "cache": library / "Caches" / "live-translator",
    }


def test_linux_folders_follow_the_xdg_variables(no_overrides, monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "platform", "linux")
    for name in ("DATA", "CONFIG", "STATE", "CACHE"):
        monkeypatch.setenv(f"XDG_{name}_HOME", str(tmp_path / name.lower()))
    assert folders() == {
        "models": tmp_path / "data" / "live-translator" / "models",
        "settings": tmp_path / "config" / "live-translator",
        "logs": tmp_path / "state" / "live-translator" / "log",
        "cache": tmp_path / "cache" / "live-translator",
    }
    assert data_home(system=False) == tmp_path / "data"  # the desktop entry's folder


def test_the_desktop_entry_ignores_a_relative_xdg_data_home(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", "relative/share")  # the XDG spec: invalid, ignored
    assert data_home(system=False) == tmp_path / ".local" / "share"


def test_the_app_overrides_still_win(windows, monkeypatch, tmp_path):
    monkeypatch.setenv("LIVE_TRANSLATOR_HOME", str(tmp_path))
    monkeypatch.delenv("LIVE_TRANSLATOR_MODELS", raising=False)
    assert paths.user_models_dir() == tmp_path / "models"
