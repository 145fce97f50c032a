"""The context kept between utterances for the next final decode, as a whole-file pass has it:
the previous utterance's audio goes before this one's and its final text is forced as the
decoder's prefix; the finals before it are the prompt (RecognizerOptions.context_chars: same
language, this session)."""

from __future__ import annotations

from collections import deque
from difflib import SequenceMatcher

import numpy as np

from app.asr.guards import without_restart
from app.asr.units import normalized, units_of
from app.shared.audio import SAMPLE_RATE

_CONTEXT_WINDOW = 28 * SAMPLE_RATE  # the previous utterance + this one, within Whisper's 30 s
_CONTEXT_GAP = int(0.3 * SAMPLE_RATE)  # silence between them
# An echo shorter than this many words or characters may be a speaker's "Yes." said again.
_MIN_ECHO_UNITS = 3
_ECHO_SHARE = 0.75  # of a final's words, an earlier final's in order
_ECHO_FINALS = 4  # the finals a new one is checked against: what the prompt and prefix hold


class FinalContext:
    """A recognizer's finals so far, as the context of its next final decode."""

    def __init__(self) -> None:
        self.text = ""  # final text before the previous utterance: the prompt of the next final decode
        self.previous: tuple[np.ndarray, str] | None = None  # the last utterance's audio and final text
        self._recent: deque[list[str]] = deque(maxlen=_ECHO_FINALS)  # the last finals' words
        self.unsure = False  # Whisper was unsure of the last final: the next is read with a beam at once

    def forget(self) -> None:
        """A new start (a reset, another language): no context."""
        self.text, self.previous, self.unsure = "", None, False
        self._recent.clear()

    def remember(self, audio: np.ndarray, text: str, keep: int) -> None:
        """A final as the next final decode's context, with `keep` characters of text at most (0: none);
        a restart it ends with is left out of the forced prefix (app.asr.guards.without_restart)."""
        if text and keep > 0:
            if self.previous is not None:
                self.text = (self.text + " " + self.previous[1]).strip()[-keep:]
            self.previous = (audio, without_restart(text))
            self._recent.append(_words(self.previous[1]))

    def around(self, audio: np.ndarray, keep: int) -> tuple[np.ndarray, str | None, str | None]:
        """A final decode's (audio, prompt, forced prefix), as a whole-file pass has them: the
        previous utterance's audio goes first and its text is forced, the finals before are the
        prompt (`keep` characters at most)."""
        prompt, prefix = self.text or None, None
        if self.previous is not None:
            before, said = self.previous
            if len(before) + len(audio) <= _CONTEXT_WINDOW - _CONTEXT_GAP:  # Whisper reads 30 s at most
                audio = np.concatenate([before, np.zeros(_CONTEXT_GAP, np.float32), audio])
                prefix = said  # forced: the decoder goes on from there, and returns only what follows
            else:
                prompt = f"{self.text} {said}".strip()[-keep:]
        return audio, prompt, prefix

    def echoes(self, text: str) -> bool:
        """Whether a final decoded in this context says one of the last finals (or a part of it)
        again: most of its words (or characters) are that final's, in order. In noise the decoder,
        given the previous utterance's audio and text, now and then reads that audio again instead
        of the new one ("He plays the guitar with a small band." after "He plays the guitar in a
        small band.", pink noise at -6 dB; as the next prefix such an echo went on for three
        utterances), or writes a sentence of its prompt again (Mandarin at SNR 5 dB)."""
        said = _words(text)
        if len(said) < _MIN_ECHO_UNITS:
            return False
        return any(_echo_of(said, before) for before in self._recent if len(before) >= _MIN_ECHO_UNITS)


def _echo_of(said: list[str], before: list[str]) -> bool:
    """Most of `said` is `before`'s in order, or (four units or more) all of it is `before`'s words
    shuffled: "铁铝铁铝铝铁铝铝铁铝" for 请坐 after a final "铁铁铝铝铝". Numbers shuffled are said
    ("5 4 3 2 1" after "testing 1, 2, 3, 4, 5")."""
    if _share_in_order(said, before) >= _ECHO_SHARE:
        return True
    return len(said) > _MIN_ECHO_UNITS and set(said) <= set(before) and not all(word.isdigit() for word in said)


def _share_in_order(said: list[str], before: list[str]) -> float:
    """The share of `said` that is found in `before`, in order."""
    matcher = SequenceMatcher(None, said, before, autojunk=False)
    return sum(block.size for block in matcher.get_matching_blocks()) / len(said)


def _words(text: str) -> list[str]:
    return [word for word in map(normalized, units_of(text)) if word]
