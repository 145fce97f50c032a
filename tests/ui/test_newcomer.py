"""What a newcomer meets first (issue 42, "Also seen by the newcomer"): a machine without a
microphone is told so before Start, and each bad setting is warned of once on stderr."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtWidgets import QLabel

from app.audio.sources import _refresh_portaudio
from app.ui.main_window import MainWindow
from app.ui.sources import source_choices

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def no_sound_devices(tmp_path, monkeypatch):
    """PortAudio restarted with no sound server to reach: a machine without a microphone, as the
    test machines are (no sound card; their only sound is the tests' private PulseAudio servers).
    PortAudio starts again as it was afterwards."""
    cards = Path("/proc/asound/cards")
    assert not cards.exists() or "no soundcards" in cards.read_text(), "this test needs a machine without a sound card"
    monkeypatch.setenv("PULSE_SERVER", f"unix:{tmp_path}/no-server")
    _refresh_portaudio()
    yield
    monkeypatch.undo()
    _refresh_portaudio()


def test_no_microphone_is_said_before_start(qtbot, store, no_sound_devices):
    sources = source_choices()
    assert sources.no_microphone and not any(c.label == "Default microphone" for c in sources.choices)
    window = MainWindow(store)
    qtbot.addWidget(window)
    window.show()
    chooser = window.controls.device
    qtbot.waitUntil(lambda: chooser.itemText(0) == "No microphone found", timeout=60_000)
    assert not chooser.model().item(0).isEnabled()
    shown = " ".join(label.text() for label in window.alert.findChildren(QLabel) if label.isVisible())
    assert "No microphone found" in shown and "Translate a recording" in shown  # before Start
    window.close()


def test_each_bad_setting_is_warned_of_once(tmp_path):
    home = tmp_path / "home"
    (home / "settings").mkdir(parents=True)
    (home / "settings" / "settings.ini").write_text("[General]\ndirection=xx\ntext_size=banana\n")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "LIVE_TRANSLATOR_HOME": str(home)}
    env |= {"LIVE_TRANSLATOR_QUIT_AFTER_MS": "1500", "PYTHONPATH": str(ROOT)}
    for name in ("LIVE_TRANSLATOR_SETTINGS", "LIVE_TRANSLATOR_LOGS", "LIVE_TRANSLATOR_TRANSCRIPTS"):
        env.pop(name, None)
    done = subprocess.run([sys.executable, "-m", "app"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stderr.count("direction='xx'") == 1, done.stderr
    assert done.stderr.count("text_size='banana'") == 1, done.stderr
