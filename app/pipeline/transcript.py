"""The session transcript: saved as it happens; subtitles.py writes it as text, SRT and WebVTT.

Every final source text, final translation, spoken text and error is appended to a JSONL
file (one event object per line, written straight to the file descriptor), so killing the app
loses nothing; `Transcript.load` reads such a file back. Provisional text is not recorded: it
changes.

Saving is a side job: it never stops translation. When the folder cannot be created or
written (read-only, full disk, removed mid-session), the records wait in memory (up to
MAX_UNSAVED_BYTES; beyond that the oldest are dropped and counted) and each later record
retries, at most every RETRY_S; `problem` says what is wrong meanwhile. A line cut short by a
full disk is completed, not repeated; a file whose folder was removed is written again whole.
In a conversation each utterance keeps its speaker ("me" / "them"), and the exports say who spoke.
"""

from __future__ import annotations

import collections
import datetime as dt
import json
import logging
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from app.shared.events import CaptionCorrected, Error, Event, SourceFinal, Speech, Status, Translation
from app.shared.paths import transcripts_dir

log = logging.getLogger(__name__)

RECORDED = (SourceFinal, Translation, Speech, Error, Status, CaptionCorrected)
MAX_UNSAVED_BYTES = 8 * 1024 * 1024  # records held while the disk refuses them (~20 000 utterances)
MAX_KEPT_BYTES = 16 * 1024 * 1024  # what a file removed mid-session can be rewritten from
RETRY_S = 1.0


@dataclass
class TranscriptEntry:
    """One utterance: what was said, its translation, and where it sits in the session audio."""

    utterance_id: int
    source: str = ""
    translation: str = ""
    direction: str = ""
    start: float = 0.0
    end: float = 0.0
    latency_ms: float | None = None
    error: str = ""
    speaker: str = ""  # "me" / "them" in a conversation, a guest's name (guest speech); "" otherwise
    language: str = ""  # face to face: the language it was heard in, "en" / "zh"; "" otherwise


class Transcript:
    def __init__(self, path: str | os.PathLike | None = None):
        """Append to `path` (a new file in transcripts_dir() when None). Never raises for a
        folder that cannot be written: see `problem`."""
        if path is None:
            stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S-%f")
            path = transcripts_dir() / f"session-{stamp}.jsonl"
        self.path = Path(path)
        self._lock = threading.Lock()
        self._entries: dict[int, TranscriptEntry] = {}
        self._fd: int | None = None
        self._inode: tuple[int, int] | None = None  # (st_dev, st_ino) of the file we write
        self._unsaved: collections.deque[bytes] = collections.deque()  # records not yet (wholly) in the file
        self._unsaved_bytes = 0
        self._written_of_first = 0  # bytes of _unsaved[0] already in the file (a write cut short)
        self._kept: collections.deque[bytes] = collections.deque()  # records in the file, to rewrite it
        self._kept_bytes = 0
        self._closed = False
        self._next_try = 0.0
        self.problem: str | None = None  # why saving fails right now; None while it works
        self.dropped = 0  # records lost because the disk refused them for too long
        with self._lock:
            self._save(force=True)

    @property
    def unsaved(self) -> int:
        """Records waiting in memory for the disk."""
        with self._lock:
            return len(self._unsaved)

    @classmethod
    def load(cls, path: str | os.PathLike) -> Transcript:
        """Read a saved session (for export after the fact); further records append to it."""
        transcript = cls(path)
        with open(path, encoding="utf-8") as lines:
            for line in lines:
                if line.strip():
                    try:
                        transcript._apply(json.loads(line))
                    except json.JSONDecodeError:
                        continue  # a line cut short by a kill: everything before it counts
        return transcript

    def record(self, event: Event) -> None:
        if not isinstance(event, RECORDED) or (isinstance(event, Translation) and event.provisional):
            if self._unsaved:  # not recorded, but a chance to retry (meter levels come ten times a second)
                with self._lock:
                    if not self._closed:
                        self._save()
            return
        data = event.to_json()
        data["wall_time"] = dt.datetime.now().astimezone().isoformat(timespec="milliseconds")
        line = (json.dumps(data, ensure_ascii=False) + "\n").encode("utf-8")
        with self._lock:
            if self._closed:
                return
            self._apply(data)
            self._unsaved.append(line)
            self._unsaved_bytes += len(line)
            while self._unsaved_bytes > MAX_UNSAVED_BYTES and len(self._unsaved) > 1:
                self._drop_oldest_unsaved()
            self._save()

    def retry(self) -> bool:
        """Try to save what waits now (not waiting for RETRY_S); True when nothing waits."""
        with self._lock:
            self._save(force=True)
            return not self._unsaved

    def close(self) -> None:
        """A last try to save what waits, then close the file."""
        with self._lock:
            if self._closed:
                return
            self._save(force=True)
            self._closed = True
            if self._unsaved:
                log.warning(
                    "transcript: %d records could not be saved to %s: %s", len(self._unsaved), self.path, self.problem
                )
            self._close_fd()

    def reopen(self) -> None:
        """After close(): records are appended again (face to face, an utterance heard again after
        the session stopped), until the next close()."""
        with self._lock:
            self._closed = False

    # -- saving (with the lock held) -----------------------------------------------------------
    def _save(self, force: bool = False) -> None:
        if not force and self.problem is not None and time.monotonic() < self._next_try:
            return  # the disk refused a moment ago: do not hammer it on every event
        try:
            self._open()
            while self._unsaved:
                line = self._unsaved[0]
                while self._written_of_first < len(line):
                    written = os.write(self._fd, line[self._written_of_first :])
                    if written <= 0:
                        raise OSError("the file system accepted no bytes")
                    self._written_of_first += written
                self._unsaved.popleft()
                self._unsaved_bytes -= len(line)
                self._written_of_first = 0
                self._keep(line)
        except OSError as error:
            if self.problem is None:
                log.warning("transcript: could not save to %s: %s (retrying; records wait in memory)", self.path, error)
            where = f" ({error.filename})" if error.filename and Path(error.filename) != self.path else ""
            self.problem = f"{error.strerror or error}{where}"
            self._next_try = time.monotonic() + RETRY_S
            if self._written_of_first == 0:
                self._close_fd()  # reopen next time (the folder may come back); a cut line keeps its fd
            return
        if self.problem is not None:
            log.warning("transcript: saving to %s works again", self.path)
        self.problem = None

    def _open(self) -> None:
        """Open (or reopen) the file; a file removed or replaced since is started again with every
        record kept, so it ends up whole."""
        if self._fd is not None:
            try:
                current = os.stat(self.path)
                gone = (current.st_dev, current.st_ino) != self._inode
            except FileNotFoundError:
                gone = True
            if not gone:
                return
            log.warning("transcript: %s was removed; writing it again", self.path)
            self._close_fd()
            self._unsaved.extendleft(reversed(self._kept))
            self._unsaved_bytes += self._kept_bytes
            self._kept.clear()
            self._kept_bytes = 0
            self._written_of_first = 0
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        st = os.fstat(self._fd)
        self._inode = (st.st_dev, st.st_ino)
        if self._written_of_first:  # a line cut short in a file we lost: write it whole
            self._written_of_first = 0

    def _keep(self, line: bytes) -> None:
        self._kept.append(line)
        self._kept_bytes += len(line)
        while self._kept_bytes > MAX_KEPT_BYTES:
            self._kept_bytes -= len(self._kept.popleft())

    def _drop_oldest_unsaved(self) -> None:
        if self._written_of_first:  # half of it is in the file: finishing it matters more
            if len(self._unsaved) < 2:
                return
            first = self._unsaved.popleft()
            victim = self._unsaved.popleft()
            self._unsaved.appendleft(first)
        else:
            victim = self._unsaved.popleft()
        self._unsaved_bytes -= len(victim)
        self.dropped += 1
        if self.dropped == 1:
            log.warning(
                "transcript: more than %d MB could not be saved; the oldest records are dropped",
                MAX_UNSAVED_BYTES // 2**20,
            )

    def _close_fd(self) -> None:
        if self._fd is not None:
            try:
                os.close(self._fd)
            except OSError:
                pass
            self._fd = None

    @property
    def entries(self) -> list[TranscriptEntry]:
        with self._lock:
            return [self._entries[key] for key in sorted(self._entries)]

    def _apply(self, data: dict) -> None:
        apply_record(self._entries, data)


def apply_record(entries: dict[int, TranscriptEntry], data: dict) -> None:
    """Fold one saved event (a JSONL line, parsed) into the entries by utterance."""
    utterance_id = data.get("utterance_id")
    if utterance_id is None:
        return
    entry = entries.setdefault(utterance_id, TranscriptEntry(utterance_id))
    entry.speaker = data.get("speaker_name") or data.get("speaker") or entry.speaker  # a guest by name
    if data["type"] == "final":
        entry.source, entry.start, entry.end = data["text"], data["start"], data["end"]
        if data.get("language") in ("en", "zh"):  # face to face; a redo may change it
            entry.language = data["language"]
    elif data["type"] == "translation":
        entry.translation, entry.direction, entry.latency_ms = data["text"], data["direction"], data["latency_ms"]
    elif data["type"] == "error":
        entry.error = data["text"]
    elif data["type"] == "corrected":  # the user corrected the caption: exports say it as corrected
        entry.source, entry.translation = data["source"], data["text"] or entry.translation
