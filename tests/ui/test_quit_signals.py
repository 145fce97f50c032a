"""Ctrl-C in the window's terminal (SIGINT) and SIGTERM (a logout) close the window as its Close
does (issue 42): `python -m app` in a child process, a real signal, exit status 0, and nothing
left that would make the next start report an unexpected end."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.shared.crash_trace import CrashTrace

ROOT = Path(__file__).resolve().parents[2]


def window_process(logs: Path) -> subprocess.Popen:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    running = subprocess.Popen(
        [sys.executable, "-m", "app"], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 60
    while not list(logs.glob("session-*.json")):  # the window's run is traced: it is up
        assert running.poll() is None, running.communicate()[1][-2000:]
        assert time.monotonic() < deadline, "the window did not start"
        time.sleep(0.1)
    time.sleep(1.0)  # its event loop runs
    return running


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_closes_the_window_as_close_does(tmp_path, number):
    logs = tmp_path / "logs"
    running = window_process(logs)
    running.send_signal(number)
    try:
        _, err = running.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        running.kill()
        running.communicate()
        pytest.fail(f"signal {number.name} did not close the window")
    assert running.returncode == 0, err[-2000:]
    assert "Traceback" not in err, err[-2000:]
    assert not list(logs.glob("session-*.json")) and not list(logs.glob("crash-*.log"))
    assert CrashTrace(logs).begin() == []  # the next start reports nothing
