"""`run` (headless: the caption server of a long meeting) is traced as the window is (issue 42):
SIGSEGV mid-session leaves the fatal error's traceback in the log folder and the marker the
window's next start reports, with the transcript saved up to the last final."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from app.shared.crash_trace import CrashTrace

from .conftest import english

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_sigsegv_mid_run_leaves_a_crash_log_and_a_marker_the_window_reports(recording, phrasebook, tmp_path):
    wav = recording("crash", english(["Good morning.", "Where is the station?", "Good evening."]), gap_s=2.0)
    logs = tmp_path / "logs"
    env = {**os.environ, "LIVE_TRANSLATOR_LOGS": str(logs), "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "app", "run", "--input", str(wav), "--direction", "en-zh", "--realtime"]
    running = subprocess.Popen(
        [*command, "--nmt-model", str(phrasebook["en-zh"]), "--no-tts", "--json"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        for line in running.stdout:  # the first final translation: mid-session
            event = json.loads(line)
            if event["type"] == "translation" and not event["provisional"]:
                break
        running.send_signal(signal.SIGSEGV)
        _, err = running.communicate(timeout=60)
    finally:
        if running.poll() is None:
            running.kill()
    assert running.returncode == -signal.SIGSEGV, err[-2000:]
    crash_logs = list(logs.glob("crash-*.log"))
    assert len(crash_logs) == 1 and "Segmentation fault" in crash_logs[0].read_text()
    ended = CrashTrace(logs).begin()  # what the window's next start finds
    assert len(ended) == 1 and ended[0].crash_log == crash_logs[0]
    assert ended[0].transcript is not None and ended[0].transcript.parent == tmp_path / "transcripts"
    assert ended[0].saved is not None and ended[0].saved >= 1


@pytest.mark.slow
def test_a_log_folder_that_is_a_file_is_one_warning_and_the_run_goes_on(recording, phrasebook, tmp_path):
    wav = recording("no-logs", english(["Good morning."]))
    logs = tmp_path / "logs"
    logs.write_text("a file where the log folder should be")
    done = subprocess.run(
        [sys.executable, "-m", "app", "run", "--input", str(wav), "--direction", "en-zh"]
        + ["--nmt-model", str(phrasebook["en-zh"]), "--no-tts"],
        cwd=ROOT,
        env={**os.environ, "LIVE_TRANSLATOR_LOGS": str(logs), "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() and "→" in done.stdout
    assert done.stderr.count("warning: Crash tracing is off") == 1, done.stderr
    assert logs.read_text() == "a file where the log folder should be"
