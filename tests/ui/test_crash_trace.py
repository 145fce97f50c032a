"""A crash leaves a trace (issue 31): the crash log in the log folder, and at the next start the
window says the last session ended unexpectedly, where its transcript is (complete up to the
last final, even after kill -9) and where the crash log is."""

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import soundfile

from app.pipeline.transcript import Transcript
from app.shared.crash_trace import CrashTrace
from app.ui.main_window import open_window
from tests.ui.conftest import nmt_model, speak

CHILD = Path(__file__).with_name("crash_child.py")
ROOT = Path(__file__).resolve().parents[2]
PHRASES = ["Hello, everyone.", "Welcome to the meeting.", "Good morning.", "I am fine, thank you.", "Good evening."]


def child(*args: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, str(CHILD), *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def recording(folder: Path) -> Path:
    parts = [np.zeros(16000, np.float32)]
    for i, phrase in enumerate(PHRASES):
        audio, rate = soundfile.read(speak(folder / f"p{i}.wav", phrase, "en"), dtype="float32")
        parts += [np.interp(np.arange(0, len(audio), rate / 16000), np.arange(len(audio)), audio).astype(np.float32)]
        parts.append(np.zeros(int(1.5 * 16000), np.float32))
    path = folder / "talk.wav"
    soundfile.write(path, np.concatenate(parts), 16000)
    return path


def test_a_fatal_error_writes_its_traceback_to_the_log_folder_and_the_next_start_says_where(tmp_path, qtbot):
    crashed = child("segfault")
    _, err = crashed.communicate(timeout=120)
    assert crashed.returncode == -signal.SIGSEGV, err[-2000:]
    logs = list((tmp_path / "logs").glob("crash-*.log"))
    assert len(logs) == 1 and "Segmentation fault" in logs[0].read_text()
    window = open_window()
    qtbot.addWidget(window)
    assert window.alert.topic == "crash" and "ended unexpectedly" in window.alert.message
    assert str(logs[0]) in window.alert.label.text()
    window.close()
    window.crash_trace.end()
    assert not list((tmp_path / "logs").glob("session-*.json"))  # said once; this run closed cleanly
    assert CrashTrace(tmp_path / "logs").begin() == []


def test_after_kill_9_the_transcript_holds_every_final_shown_and_the_next_start_points_to_it(tmp_path, qtbot):
    running = child("play", str(recording(tmp_path)), str(nmt_model("en-zh")))
    shown: list[str] = []
    two_finals = threading.Event()

    def read() -> None:
        for line in running.stdout:
            if line.startswith("FINAL "):
                shown.append(line[6:].strip())
                if len(shown) >= 2:
                    two_finals.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    assert two_finals.wait(240), running.stderr.read()[-2000:] if running.poll() is not None else "no finals"
    running.kill()  # SIGKILL: no handler, no flush, no goodbye
    running.wait(30)
    reader.join(10)  # the reader takes the last lines the child wrote, up to the end of its output
    assert not reader.is_alive(), "the child's output did not end"
    window = open_window()
    qtbot.addWidget(window)
    assert "ended unexpectedly" in window.alert.message
    transcripts = list((tmp_path / "transcripts").glob("*.jsonl"))
    assert len(transcripts) == 1 and str(transcripts[0]) in window.alert.label.text()
    assert "crash log" not in window.alert.label.text()  # kill -9 writes none: nothing to attach
    saved = [entry.translation for entry in Transcript.load(transcripts[0]).entries if entry.translation]
    assert shown and saved[: len(shown)] == shown
    window.close()
    window.crash_trace.end()
