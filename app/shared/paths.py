"""Every folder the app reads or writes, and every environment variable it reads: here only.

The user's folders come from platformdirs (per OS). Environment overrides, for tests and
portable installs: LIVE_TRANSLATOR_HOME puts models, settings, transcripts and the cache under
one folder; LIVE_TRANSLATOR_MODELS, LIVE_TRANSLATOR_SETTINGS, LIVE_TRANSLATOR_TRANSCRIPTS and
LIVE_TRANSLATOR_CACHE, LIVE_TRANSLATOR_LOGS, LIVE_TRANSLATOR_TLS, LIVE_TRANSLATOR_VOICES override one each
(and win over HOME).

The app's own assets (icons, the self-test recording and model, models bundled into a build)
live in the repository's top-level `resources/`; `resources_dir()` finds them in a checkout,
an installed wheel (where they are the package data `app/resources`) and a PyInstaller build.
"""

from __future__ import annotations

import os
from pathlib import Path

from app.platform.folders import app_folders

APP_NAME = "live-translator"

HOME_ENV = "LIVE_TRANSLATOR_HOME"
MODELS_ENV = "LIVE_TRANSLATOR_MODELS"
SETTINGS_ENV = "LIVE_TRANSLATOR_SETTINGS"
TRANSCRIPTS_ENV = "LIVE_TRANSLATOR_TRANSCRIPTS"
CACHE_ENV = "LIVE_TRANSLATOR_CACHE"
TLS_ENV = "LIVE_TRANSLATOR_TLS"
LOGS_ENV = "LIVE_TRANSLATOR_LOGS"
VOICES_ENV = "LIVE_TRANSLATOR_VOICES"
# Tests and screenshots: the window closes itself after this many milliseconds.
QUIT_AFTER_MS_ENV = "LIVE_TRANSLATOR_QUIT_AFTER_MS"

_APP_PACKAGE = Path(__file__).resolve().parents[1]


def _folder(env: str, home_sub: str, default: Path) -> Path:
    if os.environ.get(env):
        return Path(os.environ[env]).expanduser()
    if os.environ.get(HOME_ENV):
        return Path(os.environ[HOME_ENV]).expanduser() / home_sub
    return default


def user_models_dir() -> Path:
    """Where downloaded/installed translation models live, one folder per model."""
    return _folder(MODELS_ENV, "models", app_folders(APP_NAME).user_data_path / "models")


def user_voices_dir() -> Path:
    """Piper voices a person adds by hand (a voice's .onnx with its .onnx.json), beside the installed ones."""
    return _folder(VOICES_ENV, "voices", app_folders(APP_NAME).user_data_path / "voices")


def settings_dir() -> Path:
    return _folder(SETTINGS_ENV, "settings", app_folders(APP_NAME).user_config_path)


def transcripts_dir() -> Path:
    """Where sessions are saved, one JSONL file each."""
    return _folder(TRANSCRIPTS_ENV, "transcripts", app_folders(APP_NAME).user_data_path / "transcripts")


def logs_dir() -> Path:
    """Crash logs of the window's runs and the markers that tell a run ended unexpectedly."""
    return _folder(LOGS_ENV, "logs", app_folders(APP_NAME).user_log_path)


def tls_dir() -> Path:
    """The caption server's own certificate and key (guest speech is served over HTTPS): made
    once, kept, so a phone that trusted it once is not asked again."""
    return _folder(TLS_ENV, "tls", app_folders(APP_NAME).user_data_path / "tls")


def cache_dir() -> Path:
    """What the app can rebuild: joined Whisper weights, optimised copies of model graphs."""
    return _folder(CACHE_ENV, "cache", app_folders(APP_NAME).user_cache_path)


def resources_dir() -> Path:
    """The app's non-code assets: `app/resources` when installed from a wheel or frozen by
    PyInstaller (both put them there), else the checkout's top-level `resources/`."""
    installed = _APP_PACKAGE / "resources"
    if installed.is_dir():
        return installed
    return _APP_PACKAGE.parent / "resources"


def resource(*parts: str) -> Path:
    """A path under resources_dir(), e.g. resource("icon", "live-translator.png")."""
    return resources_dir().joinpath(*parts)


def bundled_models_dir() -> Path:
    """Translation models a packaged build ships (`packaging/build.py --bundle-models`)."""
    return resource("models")


def bundled_whisper_dir() -> Path:
    """Whisper models a packaged build ships (`packaging/build.py --with-whisper`)."""
    return resource("whisper")


def quit_after_ms() -> int | None:
    value = os.environ.get(QUIT_AFTER_MS_ENV)
    return int(value) if value and value.isdigit() else None
