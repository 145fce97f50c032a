"""The context kept between utterances for the next final decode, as a whole-file pass has it:
the previous utterance's audio goes before this one's and its final text is forced as the
decoder's prefix; the finals before it are the prompt (RecognizerOptions.context_chars: same
language, this session)."""

from __future__ import annotations

import numpy as np

from app.shared.audio import SAMPLE_RATE

_CONTEXT_WINDOW = 28 * SAMPLE_RATE  # the previous utterance + this one, within Whisper's 30 s
_CONTEXT_GAP = int(0.3 * SAMPLE_RATE)  # silence between them


class FinalContext:
    """A recognizer's finals so far, as the context of its next final decode."""

    def __init__(self) -> None:
        self.text = ""  # final text before the previous utterance: the prompt of the next final decode
        self.previous: tuple[np.ndarray, str] | None = None  # the last utterance's audio and final text

    def forget(self) -> None:
        """A new start (a reset, another language): no context."""
        self.text, self.previous = "", None

    def remember(self, audio: np.ndarray, text: str, keep: int) -> None:
        """A final as the next final decode's context, with `keep` characters of text at most (0: none)."""
        if text and keep > 0:
            if self.previous is not None:
                self.text = (self.text + " " + self.previous[1]).strip()[-keep:]
            self.previous = (audio, text)

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
