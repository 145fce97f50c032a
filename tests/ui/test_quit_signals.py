"""Ctrl-C in the window's terminal (SIGINT) and SIGTERM (a logout) close the window as its Close
does (issue 42): `python -m app` in a child process, a real signal, exit status 0, and nothing
left that would make the next start report an unexpected end."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from app.shared.crash_trace import CrashTrace
from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]


def window_process(logs: Path) -> subprocess.Popen:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    running = subprocess.Popen(
        [sys.executable, "-m", "app"], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    # Up when its run is traced and it handles SIGTERM (QuitOnSignals takes SIGINT and SIGTERM
    # together, just before its event loop runs; a signal before then wakes the loop once it does).
    wait_until(
        lambda: (
            running.poll() is not None or (list(logs.glob("session-*.json")) and catches(running.pid, signal.SIGTERM))
        ),
        "the window to start and take SIGINT and SIGTERM",
        60,
        every=0.1,
    )
    assert running.poll() is None, running.communicate()[1][-2000:]
    return running


def catches(pid: int, number: signal.Signals) -> bool:
    """Whether the process has a handler of its own for signal `number` (its SigCgt mask)."""
    status = Path(f"/proc/{pid}/status").read_text()
    mask = next(line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:"))
    return bool(int(mask, 16) >> (number - 1) & 1)


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
