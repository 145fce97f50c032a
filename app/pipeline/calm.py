"""Calm live text: provisional translations that settle instead of being redrawn whole.

Re-translating the growing partial source each time rewrites the whole translation, so text
jumps while people read it. Here the part of the translation that two consecutive updates
agree on is *settled*: it is never changed or taken back until the final translation (which
stays the plain decode of the whole sentence), and each provisional Translation says how many
of its characters are settled (`stable`). Two ways to keep it, chosen by CalmMode:

- AGREE: re-translate freely; an update that contradicts the settled text is held back (the
  reader keeps what is shown) until the hypotheses agree with it again.
- FORCE: decode each update with the settled tokens forced as the start of its output (they go
  into the decoder with its prompt, one call), so updates extend what is shown by construction.
- OFF: every update shown as decoded, nothing settled (the behaviour before calm text).

A provisional decode of half a sentence guesses the rest; where it guesses, its tokens are
unsure (below SURE_P, app/translation/search.py). Text settles only up to the first unsure
token, and unless `show_guesses` (live text "sooner") the unsure tail is not shown at all: it
is what the next update or the final takes back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum


class CalmMode(StrEnum):
    OFF = "off"
    AGREE = "agree"
    FORCE = "force"


def common_prefix(a: Sequence, b: Sequence) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


@dataclass
class _LiveTranslation:
    """One utterance's provisional translations so far."""

    previous_ids: list[list[int]] = field(default_factory=list)  # last update's tokens, per sentence
    settled_ids: list[list[int]] = field(default_factory=list)  # tokens agreed by two updates, per sentence
    previous_text: str = ""
    settled_text: str = ""  # a prefix of every text shown from now on


class CalmText:
    """The translation worker's memory of live translations (one thread uses it)."""

    def __init__(self, mode: CalmMode | str = CalmMode.FORCE, show_guesses: bool = True):
        self.mode = CalmMode(mode)
        self.show_guesses = show_guesses
        self._live: dict[int, _LiveTranslation] = {}

    def forced(self, utterance_id: int) -> list[list[int]]:
        """Tokens each sentence's next provisional decode must begin with (FORCE only)."""
        live = self._live.get(utterance_id)
        if self.mode is not CalmMode.FORCE or live is None:
            return []
        return [list(ids) for ids in live.settled_ids]

    def update(
        self,
        utterance_id: int,
        sentence_ids: list[list[int]],
        text: str,
        at_word_boundary: Callable[[str, int], int] | None = None,
        sure: int | None = None,
    ) -> tuple[str, int] | None:
        """A new provisional translation (`text`, and each sentence's generated tokens without
        prompt or EOS; `sure`: its characters before the first unsure token, None for all):
        (text to show, settled characters), or None to keep showing the last one."""
        sure = len(text) if sure is None else sure
        if at_word_boundary is not None and sure < len(text):
            sure = at_word_boundary(text, sure)
        if self.mode is CalmMode.OFF:
            return self._shown(text, sure, 0)
        live = self._live.setdefault(utterance_id, _LiveTranslation())
        if not text.startswith(live.settled_text):
            return None  # it contradicts what the reader has already read: hold it back
        for i, ids in enumerate(sentence_ids):
            agreed = ids[: common_prefix(live.previous_ids[i], ids)] if i < len(live.previous_ids) else []
            if i >= len(live.settled_ids):
                live.settled_ids.append([])
            if len(agreed) > len(live.settled_ids[i]) and agreed[: len(live.settled_ids[i])] == live.settled_ids[i]:
                live.settled_ids[i] = agreed
        live.previous_ids = [list(ids) for ids in sentence_ids]
        stable = min(common_prefix(live.previous_text, text) if live.previous_text else 0, sure)
        if at_word_boundary is not None and stable < len(text):
            stable = at_word_boundary(text, stable)
        stable = max(stable, len(live.settled_text))
        live.settled_text, live.previous_text = text[:stable], text
        return self._shown(text, sure, stable)

    def _shown(self, text: str, sure: int, stable: int) -> tuple[str, int] | None:
        """What to show of an update: all of it, or without its unsure tail (never less than
        what is settled); None when nothing would be left."""
        if not self.show_guesses:
            text = text[: max(sure, stable)]
        return (text, stable) if text.strip() else None

    def finish(self, utterance_id: int) -> None:
        """The final translation is in: forget the utterance (its final replaces everything)."""
        for key in [k for k in self._live if k <= utterance_id]:
            del self._live[key]


def latin_word_boundary(text: str, stable: int) -> int:
    """Back `stable` off to the start of the word it cuts (a settled half word reads badly)."""
    if stable <= 0 or stable >= len(text) or text[stable].isspace() or text[stable - 1].isspace():
        return stable
    while stable > 0 and not text[stable - 1].isspace():
        stable -= 1
    return stable
