"""The context kept between utterances for the next final decode, as a whole-file pass has it:
the last utterances' audio goes before this one's and their final text is forced as the
decoder's prefix; the finals before them are the prompt (RecognizerOptions.context_chars and
context_s: same language, this session)."""

from __future__ import annotations

from collections import deque
from difflib import SequenceMatcher

import numpy as np

from app.asr.guards import ends_sentence, sentences_of, without_restart
from app.asr.units import HAN, joined, normalized, units_of
from app.shared.audio import SAMPLE_RATE

_CONTEXT_WINDOW = 28 * SAMPLE_RATE  # the utterances before + this one, within Whisper's 30 s
# Silence between them: with 0.3 s, given several utterances, the decoder moved words of one into
# the next ("The most of the airport leaves" / "Every hour. I would like ...").
_CONTEXT_GAP = SAMPLE_RATE
_KEPT_FINALS = 8  # finals whose audio is kept, at most: more than `context_s` holds of short ones
# Shorter than this many words or characters, a final echoes only as exactly the last final's last
# sentence: it may be a speaker's "Yes." said again (read alone, it stays "Yes.").
_MIN_ECHO_UNITS = 3
_ECHO_SHARE = 0.75  # of a final's words, an earlier final's in order
_ECHO_FINALS = _KEPT_FINALS  # the finals a new one is checked against: what the prefix may hold
CONTEXT_WAYS = ("prefix", "timestamp")  # how the context's text is given (`FinalContext.around`)


class FinalContext:
    """A recognizer's finals so far, as the context of its next final decode."""

    def __init__(self) -> None:
        self.text = ""  # final text whose audio is no longer kept: the start of the next final's prompt
        self.kept: deque[tuple[np.ndarray, str]] = deque()  # the last finals' audio and text, oldest first
        self._recent: deque[list[str]] = deque(maxlen=_ECHO_FINALS)  # the last finals' words
        self.unsure = False  # Whisper was unsure of the last final: the next is read with a beam at once

    def forget(self) -> None:
        """A new start (a reset, another language): no context."""
        self.text, self.unsure = "", False
        self.kept.clear()
        self._recent.clear()

    def remember(self, audio: np.ndarray, text: str, keep: int) -> None:
        """A final as the next final decodes' context, with `keep` characters of text at most (0: none);
        a restart it ends with is left out of the forced prefix (app.asr.guards.without_restart)."""
        if text and keep > 0:
            self.kept.append((audio, as_sentence(without_restart(text))))
            while len(self.kept) > 1 and (
                len(self.kept) > _KEPT_FINALS or sum(len(a) for a, _ in self.kept) > _CONTEXT_WINDOW
            ):
                self.text = joined([t for t in (self.text, self.kept.popleft()[1]) if t])[-keep:]
            self._recent.append(_words(self.kept[-1][1]))

    def around(
        self, audio: np.ndarray, keep: int, seconds: float, way: str = "prefix"
    ) -> tuple[np.ndarray, str | None, str | None, float | None]:
        """A final decode's (audio, prompt, forced prefix, second the decoder writes from), as a
        whole-file pass has them: the last finals' audio goes first, the previous utterance always
        (within Whisper's 30 s), the ones before it while all of it is `seconds` long at most; the
        finals before them are the prompt (`keep` characters at most). `way`
        (RecognizerOptions.context_way) gives the text of the finals whose audio goes first:
        "prefix", forced; "timestamp", in the prompt, the decoder writing from where this utterance
        starts."""
        if way not in CONTEXT_WAYS:
            raise ValueError(f"context way {way!r}: one of {', '.join(CONTEXT_WAYS)}")
        count, length = 0, len(audio)
        for before, _ in reversed(self.kept):
            length += len(before) + _CONTEXT_GAP
            if length > (_CONTEXT_WINDOW if count == 0 else seconds * SAMPLE_RATE):
                break
            count += 1
        finals = [said for _, said in self.kept]
        older, recent = finals[: len(finals) - count], finals[len(finals) - count :]

        def prompt(said: list[str]) -> str | None:
            return joined([text for text in (self.text, *said) if text])[-keep:] or None

        if not recent:
            return audio, prompt(older), None, None
        gap = np.zeros(_CONTEXT_GAP, np.float32)
        whole = np.concatenate([part for before, _ in list(self.kept)[-count:] for part in (before, gap)] + [audio])
        if way == "timestamp":
            return whole, prompt(older + recent), None, (len(whole) - len(audio)) / SAMPLE_RATE
        return whole, prompt(older), joined(recent), None  # forced: the decoder goes on from there

    def echoes(self, text: str) -> bool:
        """Whether a final decoded in this context says one of the last finals (or a part of it)
        again: most of its words (or characters) are that final's, in order. In noise the decoder,
        given the previous utterance's audio and text, now and then reads that audio again instead
        of the new one ("He plays the guitar with a small band." after "He plays the guitar in a
        small band.", pink noise at -6 dB; as the next prefix such an echo went on for three
        utterances), or writes a sentence of its prompt again (Mandarin at SNR 5 dB), or several of
        the last finals' words again, given them as its prefix."""
        said = _words(text)
        if len(said) < _MIN_ECHO_UNITS:
            # short, only the last final's last sentence again: "The Q." for "Front, center." and
            # "Rear, left." after "... calling the Q. The Q." (a radio call, SNR 5 dB); read alone,
            # a speaker's "Yes." said again is "Yes." again
            return bool(said and self.kept) and said == _words(sentences_of(self.kept[-1][1])[-1])
        if any(_echo_of(said, before) for before in self._recent if len(before) >= _MIN_ECHO_UNITS):
            return True
        # or several of them again: "The computer is broken. I love you. The computer is broken." (tiny.en)
        return len(self._recent) > 1 and _echo_of(said, [word for words in self._recent for word in words])


def as_sentence(text: str) -> str:
    """`text` closed as a sentence where Whisper left it open: Chinese with 。; English written in
    lower case (its style without punctuation, in noise) begun with a capital and closed with a
    full stop; other English as said ("How are", cut mid-sentence). Whisper writes on in its
    prefix's style: after one final heard as "please leave your coat like the floor", every final
    of the talk came in lower case without a full stop."""
    text = text.strip()
    if not text or ends_sentence(text):
        return text[:1].upper() + text[1:]
    if HAN.match(text[-1]):
        return text + "。"
    return text[:1].upper() + text[1:] + "." if text[:1].islower() else text


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
