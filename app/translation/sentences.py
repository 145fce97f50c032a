"""Split long input into sentences, and sentences into chunks the model can take.

Nothing is ever dropped: joining the pieces (with the whitespace between them) gives the
input back.
"""

from __future__ import annotations

import re
from collections.abc import Callable

# After CJK end punctuation a sentence ends at once; after . ! ? ; only before whitespace.
SENTENCE_END = re.compile(r"(?<=[。！？；…])(?![。！？；…”’」』）)])\s*|(?<=[.!?;])[\"'”’)\]]*\s+|\s*\n\s*")
# Places to cut a sentence that is too long, best first.
SOFT_BREAKS = (re.compile(r"(?<=[,，、:：])"), re.compile(r"(?<=\s)(?=\S)"), re.compile(r"(?<=.)(?=.)"))


# Not text: NUL and the other C0/C1 control characters (tab and line breaks aside), and lone
# surrogates (what Python makes of bytes that are not UTF-8 on a command line).
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def clean_text(text: str) -> str:
    """Text a tokenizer can take and that reads as it shows: control characters (invisible) are
    removed, undecodable bytes become U+FFFD (the replacement character)."""
    return _SURROGATE.sub("\ufffd", _CONTROL.sub("", text))


def has_undecodable(text: str) -> bool:
    return bool(_SURROGATE.search(text))


def split_sentences(text: str) -> list[str]:
    return [s.strip() for s in SENTENCE_END.split(text) if s and s.strip()]


def fit(sentence: str, count: Callable[[str], int], limit: int, level: int = 0) -> list[str]:
    """Cut `sentence` into the fewest pieces of at most `limit` tokens, at commas first, then
    spaces, then between characters."""
    if count(sentence) <= limit or level >= len(SOFT_BREAKS):
        return [sentence]
    parts = [p for p in SOFT_BREAKS[level].split(sentence) if p]
    chunks: list[str] = []
    current = ""
    for part in parts:
        candidate = current + part
        if current and count(candidate.strip()) > limit:
            chunks.append(current)
            current = part
        else:
            current = candidate
    chunks.append(current)
    return [piece for chunk in chunks for piece in fit(chunk.strip(), count, limit, level + 1) if piece]


def split_for_model(text: str, count: Callable[[str], int], limit: int) -> list[str]:
    return [chunk for sentence in split_sentences(text) for chunk in fit(sentence, count, limit)]
