"""Turns on one Whisper model shared by several recognizers (a conversation's two sides).

One decode at a time (two at once on two cores only slow each other down). A final decode
waits for its turn and goes before any partial; a partial is taken only when Whisper is free
and no final is waiting, else it is skipped: the recognizer asks again with fresher audio
on its next block, so what is decoded is always the freshest partial. A side that was
refused gets the next free turn before the side refused after it (or never), so two people
speaking at once take turns instead of one starving the other.
"""

from __future__ import annotations

import threading
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager

_WANT_EXPIRES_S = 1.0  # a refused side that has not asked again since has stopped speaking


class WhisperTurns:
    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._busy = False
        self._finals_waiting = 0
        self._wanting: dict[int, float] = {}  # side -> when its partial was refused

    @contextmanager
    def final(self, side: int) -> Iterator[None]:
        """Hold Whisper for a final decode of `side` (waits for the decode in progress, not for partials)."""
        with self._cond:
            self._wanting.pop(side, None)  # its utterance ends: no partial wanted any more
            self._finals_waiting += 1
            while self._busy:
                self._cond.wait()
            self._finals_waiting -= 1
            self._busy = True
        try:
            yield
        finally:
            self._release()

    @contextmanager
    def partial(self, side: int) -> Iterator[bool]:
        """Whisper for a partial decode of `side` if it is free now: yields whether it was granted."""
        granted = self._try(side)
        try:
            yield granted
        finally:
            if granted:
                self._release()

    def _try(self, side: int) -> bool:
        now = time.monotonic()
        with self._cond:
            for other, since in list(self._wanting.items()):
                if now - since > _WANT_EXPIRES_S:
                    del self._wanting[other]
            mine = self._wanting.get(side, now)
            others_waiting = any(other != side and since < mine for other, since in self._wanting.items())
            if self._busy or self._finals_waiting or others_waiting:
                self._wanting.setdefault(side, now)
                return False
            self._wanting.pop(side, None)
            self._busy = True
            return True

    def _release(self) -> None:
        with self._cond:
            self._busy = False
            self._cond.notify_all()


# Each model's turns live as long as the model, and no longer: a cache keyed on the model (an
# lru_cache) kept alive every model a session or a test run had ever used.
_TURNS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_TURNS_LOCK = threading.Lock()


def turns_for(model) -> WhisperTurns:
    """The turns of one Whisper model (models are loaded once per process: app.asr.load_whisper)."""
    with _TURNS_LOCK:
        turns = _TURNS.get(model)
        if turns is None:
            turns = _TURNS[model] = WhisperTurns()
        return turns
