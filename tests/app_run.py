"""The runners of `python -m app run` in a subprocess: `run_cli` runs it to its end; `AppRun` runs it
with --json in the background, its JSON lines collected as they come (the `app_run` fixture in
tests/conftest.py makes them and kills what is left at teardown); `translating` writes the arguments
that translate a recording with the phrasebook model."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading

from tests.waiting import wait_until


def translating(wav, direction: str, models: dict) -> list[str]:
    """`run`'s arguments that translate the recording `wav` in `direction` with the model `models`
    has for it (the `phrasebook` fixture's folders)."""
    return ["--input", str(wav), "--direction", direction, "--nmt-model", str(models[direction])]


def run_cli(*args: str, timeout: float = 400) -> tuple[int, list[dict], str]:
    """`python -m app run *args` to its end: its exit code, its stdout's JSON lines, its stderr."""
    proc = subprocess.run([sys.executable, "-m", "app", "run", *args], capture_output=True, text=True, timeout=timeout)
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    return proc.returncode, lines, proc.stderr


class AppRun:
    def __init__(self, *args: str, env: dict[str, str] | None = None):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "app", "run", *args, "--json"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=dict(os.environ) if env is None else env,
        )
        self.lines: list[dict] = []  # stdout's JSON lines
        self.stderr: list[str] = []  # stderr's lines: read here, so none is lost to a second reader
        self.readers = [
            threading.Thread(target=self._read_stdout, daemon=True),
            threading.Thread(target=self._read_stderr, daemon=True),
        ]
        for reader in self.readers:
            reader.start()

    def _read_stdout(self) -> None:
        for line in self.proc.stdout:
            if line.strip():
                self.lines.append(json.loads(line))

    def _read_stderr(self) -> None:
        for line in self.proc.stderr:
            self.stderr.append(line)

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
            seen=lambda: (self.lines, "".join(self.stderr)),
        )

    def wait_for(self, condition, what: str, timeout: float = 120) -> None:
        """Until `condition()` holds (it reads this run's lines); the lines so far if it never does."""
        wait_until(condition, what, timeout, seen=lambda: self.lines)

    def said(self, pattern: str, timeout: float = 120) -> str:
        """The first group of the first stderr line `pattern` matches (re.match, the line stripped),
        once it is printed."""

        def found() -> str | None:
            matches = (re.match(pattern, line.strip()) for line in list(self.stderr))
            return next((m.group(1) for m in matches if m), None)

        return wait_until(found, f"`run` to print {pattern!r} on stderr", timeout, seen=lambda: self.stderr)

    def finish(self, stop: signal.Signals | None = None, timeout: float = 120) -> tuple[int, str]:
        """Its exit code and stderr once it has ended (every line read), after `stop` (a signal) if given."""
        if stop is not None:
            self.proc.send_signal(stop)
        code = self.proc.wait(timeout)
        for reader in self.readers:
            reader.join(10)
        return code, "".join(self.stderr)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
