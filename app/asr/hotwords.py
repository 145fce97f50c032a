"""The glossary's terms as Whisper's hotwords, only where they can matter (issue 42).

Given as hotwords on every decode, a glossary made Whisper write terms nobody said (a 50,000-entry
glossary: "I'm from Beijing." -> "lima49999"; ten names: poorly heard Mandarin -> "李娜、华为")
and English lose its case and punctuation. Now a final is decoded without them; the terms that
sound like something in what it heard (spelling alike in English, pinyin alike in Chinese) are
the only candidates, at most MAX_TERMS; the utterance is decoded again with just those as
hotwords, and a term the second decode writes replaces, in the first decode's text, the words it
sounded like. Nothing else of the text changes, and a term that sounds like nothing heard never
reaches Whisper.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from app.asr.units import HAN, normalized

MAX_TERMS = 8  # hotwords for one final at most: a short prompt, the likeliest first
# How alike a term and the heard words must sound to be a candidate (difflib's ratio of their
# letters or their consonants, English; of their toneless pinyin, Chinese). "Jon Smyth" / "John
# Smythe": 0.9; "lima 49999" / "from Beijing": 0.1. Whisper, told of the term, confirms it or not.
ALIKE = 0.7
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")


@dataclass(frozen=True)
class Spot:
    """A glossary term that may be what was heard at text[start:end]."""

    term: str
    start: int
    end: int
    alike: float


def hotwords_text(terms, language: str = "en") -> str | None:
    """Terms as one hotwords string for Whisper (None without terms). Chinese terms are written
    as a Chinese list ("北京、上海。"): joined with ", " they made Whisper base drop a short
    Mandarin clip it otherwise heard right (seen on espeak-ng speech)."""
    terms = [t.strip() for t in terms if t and t.strip()]
    if not terms:
        return None
    return "、".join(terms) + "。" if language == "zh" else ", ".join(terms)


def candidate_terms(terms: Iterable[str], heard: str, limit: int = MAX_TERMS) -> list[Spot]:
    """The terms that sound like words of `heard` but are not written there, the likeliest
    first, at most `limit`, each with the heard words it is like (no two overlapping)."""
    spots = []
    for term in dict.fromkeys(t.strip() for t in terms if t and t.strip()):
        best = _chinese_spot(term, heard) if HAN.search(term) else _english_spot(term, heard)
        if best is not None:
            spots.append(best)
    chosen: list[Spot] = []
    for spot in sorted(spots, key=lambda s: -s.alike):
        if len(chosen) < limit and all(spot.end <= c.start or spot.start >= c.end for c in chosen):
            chosen.append(spot)
    return chosen


def with_terms(heard: str, spots: list[Spot], hinted: str) -> str:
    """`heard` with each spot's words replaced by its term, where the decode with the terms as
    hotwords (`hinted`) wrote that term: Whisper, told of it, hears it there."""
    confirmed = normalized(hinted)
    for spot in sorted(spots, key=lambda s: -s.start):
        if normalized(spot.term) and normalized(spot.term) in confirmed:
            heard = heard[: spot.start] + spot.term + heard[spot.end :]
    return heard


def decoded_with_glossary(heard, terms: Iterable[str], decode_hinted: Callable[[str], str]):
    """`heard` (a Heard) with the glossary terms Whisper confirms written as the glossary writes
    them; `decode_hinted(hotwords)` decodes the utterance again with those hotwords."""
    spots = candidate_terms(terms, heard.text) if heard.text else []
    if not spots:
        return heard
    hinted = decode_hinted([s.term for s in spots])
    text = with_terms(heard.text, spots, hinted)
    return heard if text == heard.text else dataclasses.replace(heard, text=text)  # its sureness kept


def _english_spot(term: str, heard: str) -> Spot | None:
    """The run of heard words (as many as the term has, one more or fewer) most like `term`."""
    want = " ".join(w.lower() for w in _WORD.findall(term))
    if len(want) < 3:
        return None
    words = list(_WORD.finditer(heard))
    size = len(want.split())
    best = None
    for n in {max(1, size - 1), size, size + 1}:
        for i in range(len(words) - n + 1):
            start, end = words[i].start(), words[i + n - 1].end()
            said = " ".join(m.group().lower() for m in words[i : i + n])
            if said == want:
                return None  # heard as written already
            alike = max(_ratio(want, said), _ratio(_skeleton(want), _skeleton(said)))
            if alike >= ALIKE and (best is None or alike > best.alike):
                best = Spot(term, start, end, alike)
    return best


def _ratio(a: str, b: str) -> float:
    """difflib's ratio, or 0 where its cheap upper bounds already say it is under ALIKE."""
    alike = difflib.SequenceMatcher(None, a, b, autojunk=False)
    if alike.real_quick_ratio() < ALIKE or alike.quick_ratio() < ALIKE:
        return 0.0
    return alike.ratio()


def _skeleton(words: str) -> str:
    """English words as they sound, roughly: spellings of one sound made one ("ph" f, "th" t, a
    silent "h", doubled letters), vowels after a word's first letter dropped. "John Smife" and
    "Jon Smyth" are "jn smf" and "jn smt" (alike 0.83; spelled, 0.63)."""
    out = []
    for word in words.split():
        word = re.sub(r"(.)\1+", r"\1", word.replace("ph", "f").replace("th", "t").replace("ck", "k"))
        word = re.sub(r"(?<=[^aeiouy])h", "", word)
        out.append(word[:1] + re.sub(r"[aeiouy]", "", word[1:]))
    return " ".join(out)


def _chinese_spot(term: str, heard: str) -> Spot | None:
    """The run of heard Chinese characters (as many as the term has) whose pinyin is most like the term's."""
    chars = "".join(HAN.findall(term))
    if len(chars) < 2 or term in heard:
        return None
    want = " ".join(_pinyin(chars))
    at = [m.start() for m in HAN.finditer(heard)]
    sounds = _pinyin("".join(heard[i] for i in at))
    best = None
    for i in range(len(at) - len(chars) + 1):
        said = " ".join(sounds[i : i + len(chars)])
        alike = _ratio(want, said)
        if alike >= ALIKE and (best is None or alike > best.alike):
            best = Spot(term, at[i], at[i + len(chars) - 1] + 1, alike)
    return best


@functools.lru_cache(maxsize=4096)
def _pinyin(chars: str) -> tuple[str, ...]:
    """Toneless pinyin, one syllable per character (pypinyin)."""
    from pypinyin import lazy_pinyin

    return tuple(lazy_pinyin(chars))
