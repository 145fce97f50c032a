"""`python -m app run ... --json` in the background, its JSON lines collected as they come: the one
runner of `run` subprocesses (the `app_run` fixture in tests/conftest.py makes them and kills what
is left at teardown)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading

from tests.waiting import wait_until


class AppRun:
    def __init__(self, *args: str, env: dict[str, str] | None = None):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "app", "run", *args, "--json"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=dict(os.environ) if env is None else env,
        )
        self.lines: list[dict] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            if line.strip():
                self.lines.append(json.loads(line))

    def of(self, kind: str, speaker: str | None = None) -> list[dict]:
        return [e for e in list(self.lines) if e["type"] == kind and (speaker is None or e.get("speaker") == speaker)]

    def translations(self, speaker: str | None = None) -> list[dict]:
        return [e for e in self.of("translation", speaker) if not e["provisional"]]

    def wait_running(self, lanes: int = 1, timeout: float = 180) -> None:
        """Until `lanes` of its lanes say they are running (listening: a live source's stream opens
        right after; SoundRoom.wait_heard waits for its first audio)."""
        wait_until(
            lambda: len([e for e in self.of("status") if e["state"] == "running"]) >= lanes,
            f"{lanes} lane(s) of `run` to be running",
            timeout,
            seen=lambda: (self.lines, self.proc.stderr.read() if self.proc.poll() is not None else ""),
        )

    def wait_for(self, condition, what: str, timeout: float = 120) -> None:
        """Until `condition()` holds (it reads this run's lines); the lines so far if it never does."""
        wait_until(condition, what, timeout, seen=lambda: self.lines)

    def finish(self, stop: signal.Signals | None = None, timeout: float = 120) -> tuple[int, str]:
        """Its exit code and stderr once it has ended, after `stop` (a signal) if given."""
        if stop is not None:
            self.proc.send_signal(stop)
        code = self.proc.wait(timeout)
        self.reader.join(10)
        return code, self.proc.stderr.read()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
