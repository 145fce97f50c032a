"""A crash leaves a trace: a fatal error's traceback in the log folder, and word of it at the next start.

`CrashTrace.begin()` (the window's start) turns `faulthandler` on, writing to a file of its own
in `logs_dir()`, and leaves a marker beside it (`session-PID.json`) saying which crash log and
which session transcript belong to this run. A clean exit removes both (`end()`). A marker
whose process is gone is a run that ended unexpectedly: killed, out of memory, a fatal error in
a C extension. `begin()` hands those back (`UnexpectedEnd`), once, so the window can say where
the transcript is (saved event by event: complete up to the last final) and where the crash
log is, for a report.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import faulthandler
import json
import os
from dataclasses import dataclass
from pathlib import Path

import psutil

from app.shared.paths import logs_dir

MARKER_GLOB = "session-*.json"


@dataclass(frozen=True)
class UnexpectedEnd:
    """A run that ended without closing: when it began, its transcript, its crash log (if it wrote one)."""

    started: str  # ISO time
    transcript: Path | None
    crash_log: Path | None


class CrashTrace:
    def __init__(self, folder: Path | None = None):
        self.folder = folder or logs_dir()
        self.marker: Path | None = None
        self.crash_log: Path | None = None
        self._log_file = None
        self._record: dict = {}

    def begin(self) -> list[UnexpectedEnd]:
        """Trace this run; the earlier runs that ended unexpectedly (each reported once)."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            earlier = self._unexpected_ends()
            stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
            self.crash_log = self.folder / f"crash-{stamp}-{os.getpid()}.log"
            self._log_file = open(self.crash_log, "w", encoding="utf-8")  # noqa: SIM115  (faulthandler keeps it)
            faulthandler.enable(self._log_file, all_threads=True)
            self.marker = self.folder / f"session-{os.getpid()}.json"
            self._record = {
                "pid": os.getpid(),
                "process_started": psutil.Process().create_time(),
                "started": dt.datetime.now().astimezone().isoformat(timespec="seconds"),
                "crash_log": str(self.crash_log),
                "transcript": None,
            }
            self._write()
            return earlier
        except OSError:  # a log folder that cannot be written: run without a trace
            self.marker = None
            return []

    def note_transcript(self, path: str | os.PathLike | None) -> None:
        """The session transcript this run is writing now (the newest session's)."""
        if self.marker is not None and path is not None:
            self._record["transcript"] = str(path)
            with contextlib.suppress(OSError):
                self._write()

    def end(self) -> None:
        """A clean exit: no marker, and no crash log when nothing was written to it."""
        if self._log_file is not None:
            faulthandler.disable()
            self._log_file.close()
            self._log_file = None
        for path in (self.marker, self.crash_log):
            if path is not None and (path == self.marker or _empty(path)):
                with contextlib.suppress(OSError):
                    path.unlink()
        self.marker = None

    def _write(self) -> None:
        temporary = self.marker.with_suffix(".tmp")
        temporary.write_text(json.dumps(self._record), encoding="utf-8")
        os.replace(temporary, self.marker)

    def _unexpected_ends(self) -> list[UnexpectedEnd]:
        ended = []
        for marker in sorted(self.folder.glob(MARKER_GLOB)):
            try:
                record = json.loads(marker.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if _still_running(record):
                continue  # another window open now
            crash_log = Path(record["crash_log"]) if record.get("crash_log") else None
            if crash_log is not None and _empty(crash_log):
                with contextlib.suppress(OSError):
                    crash_log.unlink()  # killed: nothing was written
                crash_log = None
            transcript = Path(record["transcript"]) if record.get("transcript") else None
            ended.append(UnexpectedEnd(record.get("started", "?"), transcript, crash_log))
            with contextlib.suppress(OSError):
                marker.unlink()  # said once
        return ended


def _still_running(record: dict) -> bool:
    try:
        process = psutil.Process(int(record["pid"]))
        return abs(process.create_time() - float(record.get("process_started", 0))) < 1.0
    except (psutil.Error, KeyError, ValueError, TypeError):
        return False


def _empty(path: Path) -> bool:
    try:
        return path.stat().st_size == 0
    except OSError:
        return True
