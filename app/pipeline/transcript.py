"""The session transcript: saved as it happens, exportable as text, SRT and WebVTT (export.py).

Every final source text, final translation, spoken text and error is appended to a JSONL
file (one event object per line, flushed at once), so killing the app loses nothing;
`Transcript.load` reads such a file back. Provisional text is not recorded: it changes.
In a conversation each utterance keeps its speaker ("me" / "them"), and the exports say who spoke.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import threading
from dataclasses import dataclass
from pathlib import Path

from app.shared.events import Error, Event, SourceFinal, Speech, Status, Translation
from app.shared.paths import transcripts_dir

RECORDED = (SourceFinal, Translation, Speech, Error, Status)


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
    speaker: str = ""  # "me" / "them" in a conversation; "" otherwise


class Transcript:
    def __init__(self, path: str | os.PathLike | None = None):
        """Append to `path` (a new file in transcripts_dir() when None)."""
        if path is None:
            stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S-%f")
            path = transcripts_dir() / f"session-{stamp}.jsonl"
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file = open(self.path, "a", encoding="utf-8")
        self._lock = threading.Lock()
        self._entries: dict[int, TranscriptEntry] = {}

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
            return
        data = event.to_json()
        data["wall_time"] = dt.datetime.now().astimezone().isoformat(timespec="milliseconds")
        with self._lock:
            if self._file.closed:
                return
            self._file.write(json.dumps(data, ensure_ascii=False) + "\n")
            self._file.flush()
            self._apply(data)

    def close(self) -> None:
        with self._lock:
            self._file.close()

    @property
    def entries(self) -> list[TranscriptEntry]:
        with self._lock:
            return [self._entries[key] for key in sorted(self._entries)]

    def _apply(self, data: dict) -> None:
        apply_record(self._entries, data)

    # -- export (app/pipeline/export.py) ---------------------------------------------------------
    def export_text(self, bilingual: bool = True) -> str:
        """Each utterance's source line, then its translation (or the error), blank line between."""
        from app.pipeline.export import export_text

        return export_text(self.entries, bilingual)

    def export_srt(self, bilingual: bool = True) -> str:
        """SubRip subtitles: one cue per utterance with source and translation, audio times."""
        from app.pipeline.export import export_srt

        return export_srt(self.entries, bilingual)


def apply_record(entries: dict[int, TranscriptEntry], data: dict) -> None:
    """Fold one saved event (a JSONL line, parsed) into the entries by utterance."""
    utterance_id = data.get("utterance_id")
    if utterance_id is None:
        return
    entry = entries.setdefault(utterance_id, TranscriptEntry(utterance_id))
    entry.speaker = data.get("speaker") or entry.speaker
    if data["type"] == "final":
        entry.source, entry.start, entry.end = data["text"], data["start"], data["end"]
    elif data["type"] == "translation":
        entry.translation, entry.direction, entry.latency_ms = data["text"], data["direction"], data["latency_ms"]
    elif data["type"] == "error":
        entry.error = data["text"]


def read_entries(path: str | os.PathLike) -> list[TranscriptEntry]:
    """A saved session's utterances, in order, without opening it for writing."""
    entries: dict[int, TranscriptEntry] = {}
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                try:
                    apply_record(entries, json.loads(line))
                except (json.JSONDecodeError, KeyError, TypeError, AttributeError):
                    continue  # a line cut short by a kill, or not an event: everything else counts
    return [entries[key] for key in sorted(entries)]
