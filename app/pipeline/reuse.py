"""A provisional translation kept for the final translation that follows it.

The recognizer shows its speculative final decode as the utterance's last partial
(app.asr.recognizer), so the final's text is usually that partial's, and its translation is
already under way while the pause that ends the utterance is being timed. When both decodes
would be the same one (same direction, text, options and Chinese script, nothing forced), the
final takes what the provisional decode produced instead of decoding again, and does not cancel
it while it runs (issue 22: end of speech -> final translation).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.shared.chinese import ChineseScript
from app.shared.languages import Direction

if TYPE_CHECKING:
    from app.translation.options import DecodeOptions
    from app.translation.results import SentenceResult


@dataclass(frozen=True, eq=True)
class DecodeKey:
    """Everything a decode's output depends on besides the model: equal keys, equal outputs."""

    direction: Direction
    text: str
    options: DecodeOptions
    chinese: ChineseScript

    __hash__ = None  # options hold lists: compared, never hashed


class LastDecode:
    """The latest complete provisional decode (one translation thread uses it)."""

    def __init__(self) -> None:
        self._key: DecodeKey | None = None
        self._items: tuple[SentenceResult, ...] = ()

    def keep(self, key: DecodeKey, items: Sequence[SentenceResult]) -> None:
        self._key, self._items = key, tuple(items)

    def take(self, key: DecodeKey) -> tuple[SentenceResult, ...] | None:
        """The sentences (with their steps) a decode with `key` produced, once; None if the last one was another."""
        if self._key != key:
            return None
        items, self._key, self._items = self._items, None, ()
        return items
