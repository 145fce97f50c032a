"""Face to face: which of English and Chinese an utterance is in, and whose side it is.

Two people share one microphone, each speaking their own language. Each decode of an utterance
first asks Whisper's language detector, on the same window and encoder output the decode then
uses (app.asr.window hands it over, so the look costs one decoder step), how likely Chinese is
against English (every other language left out). On this short window the detector calls more
of espeak-ng's Mandarin Chinese than faster-whisper's `detect_language` (a 30 s window), and its
English stays near 0 (bench/face_to_face.py, held-out phrases). Mandarin still often scores
low, so its odds are shifted towards Chinese (`ZH_BIAS`: a small shift; see there why not more).
Tried and not kept (bench/language_signals.py: tuned on the phrasebook, scored on held-out
phrases and other voices): the avg log-probs of two forced decodes (en, zh), alone or only when
the detector is unsure; the detector on other windows (the utterance + 0.5 s, 5 s, 30 s) or two
windows together. None did better on the held-out phrases than this window with a tuned bias,
and that bias's gain was all on Mandarin Whisper cannot transcribe (ZH_BIAS).

`LanguageSides` turns those readings into decisions, with memory: the side of the last
utterance is kept unless the detector is sure enough of the other language (`floor`); a short
utterance (an "OK" or a "好" in the other side's exchange) needs more (`short_floor`) and, heard
in whichever language, never moves the side: the next utterance starts from the side before it.
Speech in neither language (the detector puts nearly all its weight elsewhere: a third language)
keeps the side, unless what weight is left leans clearly (`CLEAR`) to one of the two. A reading
that sure is always followed. A manual choice ("the next sentence is English") wins until that utterance ends.
"""

from __future__ import annotations

import collections
import math
import threading
from dataclasses import dataclass

import numpy as np

from app.asr.window import encode_window
from app.shared.events import SourceFinal
from app.shared.languages import Language

# Log-odds added to the detector's P(zh | en or zh): its threshold moves from 0.5 to 0.2 (ln 4).
# Not the phrasebook's best (3.0: 71/72 phrases right, ln 4: 66): that larger shift only buys
# espeak-ng Mandarin that Whisper base cannot transcribe anyway (its text is wrong whichever
# way it goes), and costs English that it can ("My name is Anna." decided Chinese) and accented
# English (72/80 against 76/80). On the held-out clips Whisper can transcribe: ln 4 21/21,
# 3.0 20/21 (bench/face_to_face.py; docs/performance.md, face to face).
ZH_BIAS = math.log(4.0)
# A reading at least this sure of a language is heard in it, whatever the side, the utterance's
# length or the weight on other languages: Chinese the detector is sure of is never translated
# "from English" (nor the reverse).
CLEAR = 0.9


@dataclass(frozen=True)
class LanguageReading:
    """What the detector says of one window: P(Chinese) against English, odds shifted by ZH_BIAS,
    and how much of its weight went to neither language."""

    p_zh: float
    elsewhere: float = 0.0

    @property
    def leaning(self) -> Language:
        return Language.ZH if self.p_zh >= 0.5 else Language.EN

    @property
    def confidence(self) -> float:
        """How likely the language it leans to is, 0.5..1."""
        return max(self.p_zh, 1.0 - self.p_zh)


def read_language(model, audio: np.ndarray, *, margin_s: float, min_s: float) -> LanguageReading:
    """Whisper's detector on the window the next decode of `audio` reads (whose encoder output is
    handed over to it), restricted to English and Chinese."""
    encoded = encode_window(model, audio, margin_s=margin_s, min_s=min_s, hand_over=True)
    probs = {token.strip("<|>"): p for token, p in model.model.detect_language(encoded)[0]}
    return reading_of(probs.get("en", 0.0), probs.get("zh", 0.0))


def reading_of(p_en: float, p_zh: float) -> LanguageReading:
    """A reading from the detector's raw probabilities of English and Chinese."""
    both = p_en + p_zh
    if both <= 0.0:
        return LanguageReading(0.5, 1.0)
    p = min(max(p_zh / both, 1e-6), 1 - 1e-6)
    shifted = 1.0 / (1.0 + math.exp(-(math.log(p / (1 - p)) + ZH_BIAS)))
    return LanguageReading(shifted, max(0.0, 1.0 - both))


@dataclass(frozen=True)
class LanguageDecision:
    """The language an utterance is heard in, and how likely it is (1.0: chosen by hand). `kept`:
    the detector leaned to the other language, not surely enough to change sides."""

    language: Language
    confidence: float
    kept: bool = False
    by_hand: bool = False
    short: bool = False  # too short an utterance to move the side


def decided_fields(decision: LanguageDecision | None, final: bool) -> dict:
    """The decided language on a face-to-face event (and, on a final, how sure it is); {} when
    nothing was decided (not face to face)."""
    if decision is None:
        return {}
    fields = {"language": decision.language}
    if final:
        fields["language_confidence"] = decision.confidence
    return fields


class LanguageSides:
    """Whose turn it is: decides each utterance's language from the detector's readings.

    decide() may be asked several times while an utterance is spoken (each partial decode) and
    changes nothing; settle() records how the utterance ended. next_is() may be called from any
    thread (the window's keys)."""

    def __init__(
        self,
        first: Language | str = Language.EN,
        *,
        floor: float = 0.6,
        short_s: float = 1.0,
        short_floor: float = 0.75,
        elsewhere_max: float = 0.97,
    ):
        """first: the side before anyone spoke. floor: the confidence a reading needs to change
        sides; short_floor: that of an utterance with less than `short_s` seconds of speech.
        elsewhere_max: above this share of the detector's weight on other languages, a reading
        says nothing about English or Chinese and the side is kept (espeak-ng's Mandarin alone
        put up to 0.93 there: bench/face_to_face.py)."""
        self.side = Language(first)
        self.floor, self.short_s, self.short_floor, self.elsewhere_max = floor, short_s, short_floor, elsewhere_max
        self._lock = threading.Lock()
        self._chosen: Language | None = None

    def next_is(self, language: Language | str | None) -> None:
        """The next utterance (or the one being spoken) is in `language`, whatever the detector
        says; None takes the choice back."""
        with self._lock:
            self._chosen = None if language is None else Language(language)

    @property
    def chosen(self) -> Language | None:
        """The language chosen by hand for the next utterance, if any."""
        return self._chosen

    def decide(self, reading: LanguageReading, speech_s: float) -> LanguageDecision:
        """The language to hear an utterance in, given a reading of it and its speech so far."""
        with self._lock:
            chosen, side = self._chosen, self.side
        if chosen is not None:
            return LanguageDecision(chosen, 1.0, by_hand=True)
        sure, short = reading.confidence, speech_s < self.short_s
        if reading.leaning is side:
            return LanguageDecision(side, round(sure, 3), short=short)
        needed = self.short_floor if short else self.floor
        if sure < CLEAR and (reading.elsewhere > self.elsewhere_max or sure < needed):
            return LanguageDecision(side, round(1.0 - sure, 3), kept=True, short=short)
        return LanguageDecision(reading.leaning, round(sure, 3), short=short)

    def settle(self, decision: LanguageDecision) -> None:
        """An utterance ended in `decision`'s language: the next one starts from that side (unless
        it was short and not chosen by hand); a choice by hand has been used."""
        with self._lock:
            if decision.by_hand or not decision.short:
                self.side = decision.language
            if decision.by_hand:
                self._chosen = None


class KeptUtterances:
    """The audio of the latest finished utterances, so that one decided wrongly can be heard again
    the other way (StreamingRecognizer.redo). Bounded: `count` utterances of at most 15 s each."""

    def __init__(self, count: int = 8):
        self._kept: collections.OrderedDict[int, tuple[np.ndarray, SourceFinal]] = collections.OrderedDict()
        self._count = count

    def keep(self, final: SourceFinal, audio: np.ndarray) -> None:
        self._kept[final.utterance_id] = (audio, final)
        while len(self._kept) > self._count:
            self._kept.popitem(last=False)

    def get(self, utterance_id: int) -> tuple[np.ndarray, SourceFinal] | None:
        return self._kept.get(utterance_id)
