"""A Chinese final that came back in Latin letters, read again told it is Mandarin.

Whisper base now and then writes a Mandarin utterance, decoded alone, in pinyin-like Latin
letters or as an English guess ("Kin-Zian-Zian-Chi-Eun-Pau", "What are you?" for 我爱你), where a
whole-file pass, its previous text a Chinese prompt, stays in characters. A fixed Chinese prompt
on every final did the same for the app, but also changed what base invents on backwards speech
and, with glossary hotwords, what it heard of 我爱你 (docs/performance.md, "Rooms and calls"):
so it is given only to a final that came back with Latin letters, and its reading is kept only
when it has more of the utterance in characters. English spoken in Chinese mode stays English
(the prompted reading is English again, and the first one is kept).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from app.asr.guards import Heard
from app.asr.options import RecognizerOptions
from app.asr.units import HAN

_LATIN = re.compile(r"[A-Za-z]")


def reread_prompt(options: RecognizerOptions, language: str, final: bool, heard: Heard) -> str | None:
    """The prompt to read `heard` again with, or None: a final with Latin letters, in a language
    with a prompt for that (`RecognizerOptions.latin_reread_prompt`)."""
    if not final or not _LATIN.search(heard.text):
        return None
    return options.latin_reread_prompt.get(language)


def in_characters(first: Heard, again: Heard, prompt: str = "") -> Heard:
    """The prompted reading `again` when it holds characters and fewer Latin letters than `first`
    (it wrote in characters what the first spelled out), else `first` as it was. A reading that
    is the prompt itself, or part of it, is the prompt leaking, not speech: Whisper base wrote
    "以下是普通话的句子。" for a Mandarin sentence it could not read (an A/B on a Mandarin talk)."""
    if _is_prompt(again.text, prompt):
        return first
    if HAN.search(again.text) and len(_LATIN.findall(again.text)) < len(_LATIN.findall(first.text)):
        return again
    return first


def _is_prompt(text: str, prompt: str) -> bool:
    bare = "".join(HAN.findall(text))
    return bool(bare) and bare in "".join(HAN.findall(prompt))


def read_in_characters(
    options: RecognizerOptions, language: str, final: bool, heard: Heard, decode: Callable[..., Heard]
) -> Heard:
    """`heard`, or its reading again by `decode(prompt=...)` where that is in characters (above)."""
    prompt = reread_prompt(options, language, final, heard)
    return in_characters(heard, decode(prompt=prompt), prompt) if prompt else heard
