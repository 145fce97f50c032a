"""What `python -m app run` prints of each event (docs/cli.md): a JSON line per event with
--json, else a `source → translation` line per utterance; errors and input problems on stderr."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable

from app.shared.console import OutputLost
from app.shared.events import (
    DecodeStepEvent,
    Error,
    Event,
    Level,
    Room,
    RoomProblem,
    SentLevel,
    SourceFinal,
    Stage,
    Translation,
)
from app.shared.languages import Direction

QUIET_IN_JSON = (DecodeStepEvent, Level, SentLevel)  # per-token and meter events: for the window, not for scripts
NOT_TRANSLATED = "(not translated)"  # a plain line's translation when it failed (the error is on stderr)


class EventPrinter:
    """What `run` prints of each event: a JSON line (--json), or a `source → translation` line per
    utterance (`source → (not translated)` when its translation failed) and errors on stderr. It
    keeps the errors: any makes the exit status 1. When stdout cannot take a line (OutputLost) it
    prints no more and calls `on_lost`."""

    def __init__(self, out, as_json: bool, on_lost: Callable[[], object] = lambda: None, label_direction: bool = False):
        """label_direction: start each plain line with its direction ("[EN→ZH] "), face to face."""
        self.out = out
        self.as_json = as_json
        self.label_direction = label_direction
        self.on_lost = on_lost
        self.errors: list[Error] = []
        self.lost: OutputLost | None = None
        # Plain output: the line start and text of each final not yet printed with its translation.
        self._waiting: dict[tuple, tuple[str, str]] = {}

    def __call__(self, event: Event) -> None:
        if isinstance(event, Error):
            self.errors.append(event)
        if self.lost is not None and (self.as_json or not isinstance(event, Error)):
            return  # stdout is gone; errors still go to stderr
        try:
            self._print(event)
        except OutputLost as lost:
            self.lost = lost
            self.on_lost()

    def summary(self, live_text) -> None:
        """--json's last line: what the session's live text cost (a LiveTextReading)."""
        if not self.as_json or self.lost is not None:
            return
        line = {"type": "summary", "live_text": live_text.to_json()}
        try:
            self.out.write(json.dumps(line) + "\n")
            self.out.flush()
        except OutputLost as lost:
            self.lost = lost

    def _print(self, event: Event) -> None:
        if self.as_json:
            if not isinstance(event, QUIET_IN_JSON):
                self.out.write(json.dumps(event.to_json(), ensure_ascii=False) + "\n")
                self.out.flush()
        elif isinstance(event, SourceFinal) and event.text:
            start = self._line_start(event, Direction.spoken(event.language) if event.language else None)
            self._waiting[(event.speaker, event.utterance_id)] = (start, event.text)
        elif isinstance(event, Translation) and not event.provisional:
            self._waiting.pop((event.speaker, event.utterance_id), None)
            self._line(f"{self._line_start(event, event.direction)}{event.source} → {event.text}")
        elif isinstance(event, Error):
            self._print_error(event)
        elif isinstance(event, Room) and event.problem is not RoomProblem.OK:
            who = f"[{event.speaker}] " if event.speaker else ""
            sys.stderr.write(f"{who}input: {event.text}\n  → {event.hint}\n")

    def _line_start(self, event: Event, direction: Direction | None) -> str:
        who = f"[{event.speaker_name or event.speaker}] " if event.speaker else ""
        way = f"[{direction.short_label}] " if self.label_direction and direction else ""
        return who + way

    def _line(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def _print_error(self, event: Error) -> None:
        """The error on stderr; an utterance whose translation failed keeps its line on stdout,
        and stderr says what was heard (docs/cli.md: every utterance is still in the output)."""
        heard = None
        if event.stage == Stage.TRANSLATION and event.utterance_id is not None:
            heard = self._waiting.pop((event.speaker, event.utterance_id), None)
        who = f"[{event.speaker_name or event.speaker}] " if event.speaker else ""
        said = f"\n  heard: {heard[1]}" if heard else ""
        hint = f"\n  → {event.hint}" if event.hint else ""
        sys.stderr.write(f"{who}error ({event.stage}): {event.text}{said}{hint}\n")
        if heard and self.lost is None:
            self._line(f"{heard[0]}{heard[1]} → {NOT_TRANSLATED}")
