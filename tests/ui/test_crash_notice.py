"""The notice after a run that ended unexpectedly tells the truth and is seen (issue 42): it stays
beside the missing-model banner (several alerts at once are all shown), its marker goes only once
the user has seen it, it says what the transcript really holds on the disk, a bad marker or a log
folder that cannot be written never stops the window and is said."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from app.ui.main_window import open_window
from tests.shared.test_crash_markers import dead_marker, refuse_writes_in


def banner_text(window) -> str:
    """Every text the banner shows now (one row or several)."""
    labels = [window.alert.label, *window.alert.findChildren(QLabel)]
    return "\n".join(label.text() for label in labels if label.isVisible())


def opened(qtbot):
    window = open_window()
    qtbot.addWidget(window)
    return window


def finals(path, count: int) -> None:
    lines = [{"type": "final", "utterance_id": i, "text": "Good morning.", "start": 0, "end": 1} for i in range(count)]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")


def test_the_notice_stays_beside_the_missing_model_banner_until_it_is_dismissed(tmp_path, qtbot):
    marker = dead_marker(tmp_path / "logs")
    window = opened(qtbot)  # no translation model installed: the model doctor says so in a moment
    qtbot.waitUntil(lambda: "en-zh" in window.models_bar.states, timeout=60_000)
    qtbot.waitUntil(lambda: "ended unexpectedly" in banner_text(window) and "model" in banner_text(window).lower())
    assert marker.exists()  # not seen yet: said again if this run ends now
    crash = window.alert.find("crash")
    qtbot.mouseClick(crash.close_button, Qt.MouseButton.LeftButton)
    assert not marker.exists() and "ended unexpectedly" not in banner_text(window)
    assert window.alert.find("model") is not None and window.alert.isVisible()
    window.close()
    window.crash_trace.end()


def test_a_notice_nobody_saw_is_said_again_and_a_clean_end_consumes_it(tmp_path, qtbot):
    marker = dead_marker(tmp_path / "logs")
    first = opened(qtbot)
    assert "ended unexpectedly" in banner_text(first) and marker.exists()
    # This run "crashes" before anyone saw the notice: its marker stays; the next start says both.
    second = opened(qtbot)
    assert "ended unexpectedly" in banner_text(second) and marker.exists()
    second.close()
    second.crash_trace.end()  # a clean end: the user has seen it
    assert not marker.exists()
    first.close()
    first.crash_trace.end()


@pytest.mark.parametrize(
    ("saved", "problem", "said", "not_said"),
    [
        (None, "", "was not saved", "saved up to the last sentence"),
        (0, "", "holds no sentence", "saved up to the last sentence"),
        (2, "No space left on device", "holds 2 sentences", "saved up to the last sentence"),
        (3, "", "saved up to the last sentence (3 sentences)", "lost"),
    ],
)
def test_the_notice_says_what_the_transcript_holds_on_the_disk(tmp_path, qtbot, saved, problem, said, not_said):
    transcript = tmp_path / "transcripts" / "session-1.jsonl"
    transcript.parent.mkdir(parents=True)
    if saved is not None:
        finals(transcript, saved)
    dead_marker(tmp_path / "logs", transcript=str(transcript), transcript_problem=problem or None)
    window = opened(qtbot)
    text = banner_text(window)
    assert said in text and str(transcript) in text and not_said not in text
    if problem:
        assert problem in text and "held in memory" in text
    window.close()
    window.crash_trace.end()


def test_a_bad_marker_is_set_aside_and_said_and_the_window_opens(tmp_path, qtbot):
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "session-5.json").write_text("[]")
    window = opened(qtbot)
    assert window.isVisible() and "session-5.json" in banner_text(window)
    assert (logs / "session-5.json.unusable").exists()
    window.close()
    window.crash_trace.end()


def test_a_read_only_log_folder_still_shows_the_earlier_crash_and_says_tracing_is_off(tmp_path, qtbot, monkeypatch):
    logs = tmp_path / "logs"
    log = logs / "crash-20261128-050000-1.log"
    dead_marker(logs, crash_log=str(log))
    log.write_text("Fatal Python error: Segmentation fault\n")
    refuse_writes_in(logs, monkeypatch)
    window = opened(qtbot)
    text = banner_text(window)
    assert "ended unexpectedly" in text and str(log) in text
    assert "Crash tracing is off" in text
    window.close()
    window.crash_trace.end()


def test_a_log_folder_that_is_a_file_says_tracing_is_off(tmp_path, qtbot):
    (tmp_path / "logs").write_text("a file where the log folder should be")
    window = opened(qtbot)
    assert "Crash tracing is off" in banner_text(window) and "it is a file" in banner_text(window)
    window.close()
    window.crash_trace.end()
