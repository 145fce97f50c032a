"""Window tests: the real window, offscreen, with settings and transcripts in tmp folders,
real Whisper weights, real ONNX translation models from tests/fixtures, and speech made
by espeak-ng standing in for the microphone."""

import json
import os
import re
import subprocess
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import QSettings  # noqa: E402

from tests.asr.conftest import sound_room  # noqa: E402, F401  (a fixture: PulseAudio with speakers and a microphone)

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
VOICES = {"en": "en-us", "zh": "cmn-latn-pinyin"}


def nmt_model(direction: str) -> Path:
    """The committed phrasebook model for a direction (it translates known phrases right)."""
    path = Path(os.environ.get("LT_TEST_PHRASEBOOK", FIXTURES / "phrasebook")) / direction
    assert path.is_dir(), f"missing test fixture {path}"
    return path


def _bare(text: str) -> str:
    return re.sub(r"[\s.,?!。，？！]", "", text).lower()


def phrasebook_translation(text: str, direction: str) -> str | None:
    """The answer the phrasebook model was trained to give for one of its phrases (punctuation
    and case aside), None for text that is not one of them."""
    pairs = json.loads((FIXTURES / "phrasebook" / "phrases.json").read_text(encoding="utf-8"))["phrases"]
    source, target = (0, 1) if direction == "en-zh" else (1, 0)
    return next((pair[target] for pair in pairs if _bare(pair[source]) == _bare(text)), None)


def random_model(direction: str) -> Path:
    """A committed random-weight Marian fixture (runs, but translates nothing sensible)."""
    path = FIXTURES / "nmt" / f"marian-{direction}" / "merged"
    assert path.is_dir(), f"missing test fixture {path}"
    return path


def speak(path: Path, text: str, language: str) -> Path:
    subprocess.run(
        ["espeak-ng", "-v", VOICES[language], "-s", "140", "-g", "12", "-w", str(path), text],
        check=True,
        capture_output=True,
    )
    return path


@pytest.fixture
def store(tmp_path):
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture(autouse=True)
def _private_dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("LIVE_TRANSLATOR_TRANSCRIPTS", str(tmp_path / "transcripts"))
    monkeypatch.setenv("LIVE_TRANSLATOR_MODELS", str(tmp_path / "models"))
    monkeypatch.setenv("LIVE_TRANSLATOR_SETTINGS", str(tmp_path / "settings"))  # the glossary lives there
    monkeypatch.setenv("LIVE_TRANSLATOR_LOGS", str(tmp_path / "logs"))
