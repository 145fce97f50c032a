"""The user's folders: translation models, settings, transcripts (platformdirs, per OS).

Environment overrides, for tests and portable installs:
LIVE_TRANSLATOR_HOME puts all three under one folder; LIVE_TRANSLATOR_MODELS,
LIVE_TRANSLATOR_SETTINGS and LIVE_TRANSLATOR_TRANSCRIPTS override one each (and win over HOME).
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "live-translator"


def _folder(env: str, home_sub: str, default: Path) -> Path:
    if os.environ.get(env):
        return Path(os.environ[env]).expanduser()
    if os.environ.get("LIVE_TRANSLATOR_HOME"):
        return Path(os.environ["LIVE_TRANSLATOR_HOME"]).expanduser() / home_sub
    return default


def user_models_dir() -> Path:
    """Where downloaded/installed translation models live, one folder per model."""
    return _folder("LIVE_TRANSLATOR_MODELS", "models", platformdirs.user_data_path(APP_NAME) / "models")


def settings_dir() -> Path:
    return _folder("LIVE_TRANSLATOR_SETTINGS", "settings", platformdirs.user_config_path(APP_NAME))


def transcripts_dir() -> Path:
    return _folder("LIVE_TRANSLATOR_TRANSCRIPTS", "transcripts", platformdirs.user_data_path(APP_NAME) / "transcripts")
