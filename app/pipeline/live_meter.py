"""What live text costs, measured as it is shown: how early translated text appears and how
much of it is taken back. The window's diagnostics panel shows it, and `run --json` ends with it
(a `summary` line); bench/live_text.py measures the same way.

- early: of the utterances longer than LONG_S of speech, those whose first provisional
  translation came at least EARLY_S before the final translation;
- erasure: characters of shown translation taken back from one update to the next (the final
  included), over the characters of the final translations; `reading_erasure` the same for
  the settled part only (`stable`: what reading mode shows).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.shared.events import Event, SourceFinal, Translation

LONG_S = 2.0
EARLY_S = 1.0
MAX_OPEN = 64  # utterances followed at once (one whose final translation never came is dropped)


def taken_back(before: str, after: str) -> int:
    """Characters of `before` that `after` does not keep (everything past their common prefix)."""
    same = 0
    for a, b in zip(before, after):
        if a != b:
            break
        same += 1
    return len(before) - same


@dataclass(frozen=True)
class LiveTextReading:
    utterances: int = 0  # utterances with a final translation
    long: int = 0  # of them, longer than LONG_S of speech
    early: int = 0  # of the long ones, with translated text EARLY_S or more before the final
    erasure: float = 0.0  # shown characters taken back / final characters
    reading_erasure: float = 0.0  # settled characters taken back / final characters

    def to_json(self) -> dict:
        return {
            "utterances": self.utterances,
            "long": self.long,
            "early": self.early,
            "erasure": round(self.erasure, 3),
            "reading_erasure": round(self.reading_erasure, 3),
        }


@dataclass
class _Shown:
    """One utterance's live translation so far."""

    first_at: float | None = None
    text: str = ""
    settled: str = ""
    seconds: float = 0.0  # of speech, from its final


@dataclass
class LiveTextMeter:
    """Follows a session's events (any thread, one at a time) and says what its live text cost."""

    _open: dict[int, _Shown] = field(default_factory=dict)
    _utterances: int = 0
    _long: int = 0
    _early: int = 0
    _erased: int = 0
    _settled_erased: int = 0
    _chars: int = 0

    def observe(self, event: Event) -> None:
        if isinstance(event, SourceFinal):
            self._utterance(event.utterance_id).seconds = event.end - event.start
        elif isinstance(event, Translation) and event.provisional:
            self._provisional(event)
        elif isinstance(event, Translation):
            self._final(event)

    def reading(self) -> LiveTextReading:
        chars = max(self._chars, 1)
        return LiveTextReading(
            self._utterances, self._long, self._early, self._erased / chars, self._settled_erased / chars
        )

    def _utterance(self, utterance_id: int) -> _Shown:
        if utterance_id not in self._open and len(self._open) >= MAX_OPEN:
            del self._open[next(iter(self._open))]
        return self._open.setdefault(utterance_id, _Shown())

    def _provisional(self, event: Translation) -> None:
        shown = self._utterance(event.utterance_id)
        settled = event.text[: event.stable or 0]
        if shown.first_at is None:
            shown.first_at = event.emitted_at
        self._erased += taken_back(shown.text, event.text)
        self._settled_erased += taken_back(shown.settled, settled)
        shown.text, shown.settled = event.text, settled

    def _final(self, event: Translation) -> None:
        shown = self._open.pop(event.utterance_id, None) or _Shown()
        self._utterances += 1
        self._chars += len(event.text)
        self._erased += taken_back(shown.text, event.text)
        self._settled_erased += taken_back(shown.settled, event.text)
        if shown.seconds > LONG_S:
            self._long += 1
            if shown.first_at is not None and event.emitted_at - shown.first_at >= EARLY_S:
                self._early += 1
