"""A crash leaves a trace: a fatal error's traceback in the log folder, and word of it at the next start.

`CrashTrace.begin()` (the window's start, and `run`'s) turns `faulthandler` on, writing to a file
of its own in `logs_dir()`, and leaves a marker beside it (`session-PID.json`) saying which crash
log and which session transcript belong to this run. A clean exit removes both (`end()`). A
marker whose process is gone is a run that ended unexpectedly: killed, out of memory, a fatal
error in a C extension. The window's `begin()` hands those back (`UnexpectedEnd`), with what
its transcript really holds on the disk; their markers go only once the user has been told
(`consume`, at a clean end or when the notice is dismissed), so a notice nobody saw is said again.

Markers are read as carefully as the settings file (app/shared/files.py): an ordinary file of
at most MARKER_LIMIT bytes, JSON of the expected shape; anything else is set aside (renamed
`*.unusable`) and said (`problems`), never stopping the start. The app deletes only files it
made, in its own folder: a marker's crash log counts only when it is a `crash-*.log` file there.
A log folder that cannot be written still has its earlier crashes reported; `problems` then
says crash tracing is off.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import faulthandler
import json
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

import psutil

from app.shared import files
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError, Text
from app.shared.paths import logs_dir

MARKER_GLOB = "session-*.json"
MARKER_LIMIT = 64 * 1024  # a marker is about 300 bytes
TRANSCRIPT_LIMIT = 1 << 30  # what the notice reads to count the sentences saved
_CRASH_LOG_NAME = re.compile(r"crash-\d{8}-\d{6}-\d+\.log")
_FIELDS = {"pid": int, "process_started": (int, float), "started": str}  # required, with their types
_PATHS = ("crash_log", "transcript", "transcript_problem")  # optional: a string or null


@dataclass(frozen=True)
class UnexpectedEnd:
    """A run that ended without closing: when it began, its transcript, its crash log (if it wrote one)."""

    started: str  # ISO time
    transcript: Path | None
    crash_log: Path | None
    saved: int | None = None  # sentences (finals) its transcript holds on the disk; None: no such file
    transcript_problem: str = ""  # why saving failed during that run ("" when it never did)
    leftovers: tuple[Path, ...] = ()  # what the app made for that run (its marker, an empty crash log):
    # removed by CrashTrace.consume once the user has been told


class CrashTrace:
    def __init__(self, folder: Path | None = None):
        self.folder = folder or logs_dir()
        self.marker: Path | None = None
        self.crash_log: Path | None = None
        self.problems: list[LiveTranslatorError] = []  # bad markers set aside; tracing off
        self.told: list[UnexpectedEnd] = []  # said by the window, consumed at a clean end
        self._log_file = None
        self._record: dict = {}

    def begin(self, look_back: bool = True) -> list[UnexpectedEnd]:
        """Trace this run; with `look_back` (the window), the earlier runs that ended
        unexpectedly, read even when this run cannot be traced."""
        earlier = self._unexpected_ends() if look_back else []
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
            self.crash_log = self.folder / f"crash-{stamp}-{os.getpid()}.log"
            self._log_file = os.fdopen(_create(self.crash_log), "w", encoding="utf-8")  # faulthandler keeps it
            self.marker = self.folder / f"session-{os.getpid()}.json"
            self._record = {
                "pid": os.getpid(),
                "process_started": psutil.Process().create_time(),
                "started": dt.datetime.now().astimezone().isoformat(timespec="seconds"),
                "crash_log": str(self.crash_log),
                "transcript": None,
            }
            self._write()
            faulthandler.enable(self._log_file, all_threads=True)
        except OSError as error:  # a log folder that cannot be written: run without a trace, and say so
            self._tracing_off(error)
        return earlier

    def note_transcript(self, path: str | os.PathLike | None) -> None:
        """The session transcript this run is writing now (the newest session's)."""
        if path is not None:
            self._note(transcript=str(path), transcript_problem=None)

    def note_transcript_problem(self, problem: str) -> None:
        """Saving the transcript failed (records wait in memory): the notice after a crash says so."""
        self._note(transcript_problem=problem)

    def consume(self, ended: list[UnexpectedEnd]) -> None:
        """The user has been told of these runs: their markers go, and crash logs nothing was written to."""
        for end in ended:
            for path in end.leftovers:
                with contextlib.suppress(OSError):
                    path.unlink()

    def end(self) -> None:
        """A clean exit: no marker, and no crash log when nothing was written to it; the runs
        the window told of are consumed."""
        if self._log_file is not None:
            faulthandler.disable()
            self._log_file.close()
            self._log_file = None
        for path in (self.marker, self.crash_log):
            if path is not None and (path == self.marker or _empty(path)):
                with contextlib.suppress(OSError):
                    path.unlink()
        self.marker = None
        self.consume(self.told)
        self.told = []

    def _note(self, **values) -> None:
        if self.marker is not None:
            self._record.update(values)
            with contextlib.suppress(OSError):
                self._write()

    def _write(self) -> None:
        temporary = self.marker.with_suffix(".tmp")
        with os.fdopen(_create(temporary), "w", encoding="utf-8") as stream:
            stream.write(json.dumps(self._record))
        os.replace(temporary, self.marker)

    def _tracing_off(self, error: OSError) -> None:
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None
        for path in (self.marker, self.crash_log):
            if path is not None:
                with contextlib.suppress(OSError):
                    path.unlink()
        self.marker = self.crash_log = None
        self.problems.append(
            LiveTranslatorError(
                QT_TRANSLATE_NOOP(
                    "Errors", "Crash tracing is off: the log folder {folder} cannot be written ({reason})."
                ),  # noqa: E501
                QT_TRANSLATE_NOOP(
                    "Errors",
                    "If Live Translator crashes, no crash log is kept for a bug report. Make the folder writable, "
                    "or set LIVE_TRANSLATOR_LOGS to a folder you may write to.",
                ),
                folder=self.folder,
                reason="it is a file" if self.folder.is_file() else error.strerror or type(error).__name__,
            )
        )

    def _unexpected_ends(self) -> list[UnexpectedEnd]:
        ended = []
        try:
            markers = sorted(self.folder.glob(MARKER_GLOB))
        except OSError:
            return []  # no folder, or one that cannot be listed: nothing to tell
        for marker in markers:
            try:
                record = read_marker(marker)
            except LiveTranslatorError as error:
                self.problems.append(_set_aside(marker, error.text))
                continue
            except FileNotFoundError:
                continue  # removed meanwhile (another window closed)
            if not _still_running(record):  # else: another window open now
                ended.append(self._end_of(marker, record))
        return ended

    def _end_of(self, marker: Path, record: dict) -> UnexpectedEnd:
        crash_log = self._own_crash_log(record.get("crash_log"))
        leftovers = (marker,)
        if crash_log is not None and _empty(crash_log):
            leftovers, crash_log = (marker, crash_log), None  # killed: nothing was written
        transcript = Path(record["transcript"]) if record.get("transcript") else None
        return UnexpectedEnd(
            record["started"],
            transcript,
            crash_log,
            saved_sentences(transcript) if transcript is not None else None,
            record.get("transcript_problem") or "",
            leftovers,
        )

    def _own_crash_log(self, named: str | None) -> Path | None:
        """The crash log a marker names, if this app made it: a crash-*.log file (not a link) in
        the log folder itself; any other path is ignored, never read nor deleted."""
        if not named:
            return None
        path = Path(named)
        try:
            own = (
                _CRASH_LOG_NAME.fullmatch(path.name) is not None
                and os.path.samefile(path.parent, self.folder)
                and stat.S_ISREG(path.lstat().st_mode)
            )
        except OSError:
            return None
        return path if own else None


def read_marker(marker: Path) -> dict:
    """A marker's record, checked: an ordinary file, small, JSON of the marker's shape;
    LiveTranslatorError naming what is wrong otherwise (FileNotFoundError when it is gone)."""
    try:
        record = files.read_json(marker, MARKER_LIMIT, max_depth=2)
    except (ValueError, UnicodeDecodeError) as error:
        raise _unusable(marker, f"not JSON ({error})") from None
    except OSError as error:
        if isinstance(error, FileNotFoundError):
            raise
        raise _unusable(marker, f"not readable ({error.strerror or error})") from None
    if not isinstance(record, dict):
        raise _unusable(marker, f"a JSON {type(record).__name__}, not an object")
    for name, kind in _FIELDS.items():
        if not isinstance(record.get(name), kind) or isinstance(record.get(name), bool):
            raise _unusable(marker, f"JSON whose {name!r} is missing or of the wrong kind")
    for name in _PATHS:
        if not isinstance(record.get(name), (str, type(None))):
            raise _unusable(marker, f"JSON whose {name!r} is not text")
    return record


def saved_sentences(transcript: Path) -> int | None:
    """How many utterances' finals the transcript holds on the disk (None: no readable file there)."""
    finals = set()
    try:
        for _, line in files.json_lines(transcript, TRANSCRIPT_LIMIT):
            with contextlib.suppress(ValueError):
                data = json.loads(line)
                if isinstance(data, dict) and data.get("type") == "final":
                    finals.add(data.get("utterance_id"))
    except (OSError, LiveTranslatorError, UnicodeDecodeError):
        return None
    return len(finals)


def _unusable(marker: Path, reason: str) -> LiveTranslatorError:
    return LiveTranslatorError(
        QT_TRANSLATE_NOOP("Errors", "The crash marker {path} cannot be used: it is {reason}."),
        "",
        path=marker,
        reason=reason,
    )


def _set_aside(marker: Path, reason: Text) -> LiveTranslatorError:
    """Rename an unusable marker (never opened again); what to tell the user about it."""
    aside = marker.with_name(f"{marker.name}.unusable")
    try:
        os.rename(marker, aside)
    except OSError:
        return LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "{reason} It cannot be moved aside."),
            QT_TRANSLATE_NOOP("Errors", "Remove it, or make its folder writable; the window runs meanwhile."),
            reason=reason,
        )
    return LiveTranslatorError(
        QT_TRANSLATE_NOOP("Errors", "{reason} It is kept as {aside}."),
        QT_TRANSLATE_NOOP("Errors", "The window runs; remove the file when you no longer need it."),
        reason=reason,
        aside=aside,
    )


def _create(path: Path) -> int:
    """A new file of this run's (a link planted at its name is not followed)."""
    return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o644)


def _still_running(record: dict) -> bool:
    try:
        process = psutil.Process(int(record["pid"]))
        return abs(process.create_time() - float(record.get("process_started", 0))) < 1.0
    except (psutil.Error, KeyError, ValueError, TypeError, OverflowError):
        return False


def _empty(path: Path) -> bool:
    try:
        return path.stat().st_size == 0
    except OSError:
        return True
