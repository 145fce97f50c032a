"""Recognised text in units (Latin words with their leading space, single CJK characters): the
grain in which successive partial hypotheses agree (local agreement, as whisper_streaming does)
and in which a final decode extends or revises what partials committed."""

from __future__ import annotations

import difflib
import re

HAN_RANGES = "\u3400-\u4dbf\u4e00-\u9fff"  # CJK ideographs (extension A and unified)
HAN = re.compile(f"[{HAN_RANGES}]")  # one Chinese character
_CJK = f"\u3000-\u303f{HAN_RANGES}\uff00-\uffef"  # + CJK punctuation and full-width forms
_CJK_CHAR = re.compile(f"[{_CJK}]")
_UNIT = re.compile(rf"\s*(?:[{_CJK}]|[^\s{_CJK}]+)")  # a Latin word or one CJK character


def joined(texts) -> str:
    """`texts` one after another as one text: a space after Latin text, none after Chinese."""
    out = ""
    for text in texts:
        out += text if not out or _CJK_CHAR.match(out[-1]) else " " + text
    return out


def normalized(text: str) -> str:
    """Letters and digits only, lower case: what two readings are compared by."""
    return re.sub(r"[\W_]+", "", text.lower())


def drop_prefix(text: str, prefix: str) -> str:
    """`text` after its start that matches `prefix` (letters and digits compared, case and
    punctuation aside); `text` itself when it does not start with it."""
    want, matched, i = normalized(prefix), 0, 0
    while i < len(text) and matched < len(want):
        got = normalized(text[i])
        if got:
            if want[matched : matched + len(got)] != got:
                return text
            matched += len(got)
        i += 1
    if matched < len(want):
        return text
    while i < len(text) and not normalized(text[i]) and not text[i].isspace():
        i += 1  # the prefix's own closing punctuation
    return text[i:].strip()


def units_of(text: str) -> list[str]:
    """Words (with their leading space) and single CJK characters: the grain of agreement."""
    return _UNIT.findall(text)


def join_units(units: list[str]) -> str:
    return "".join(units).strip()


def common_prefix(a: list[str], b: list[str]) -> int:
    n = 0
    for x, y in zip(a, b):
        if normalized(x) != normalized(y):
            break
        n += 1
    return n


def extend_committed(committed: list[str], hypothesis: list[str]) -> list[str]:
    """`committed` followed by the part of `hypothesis` that comes after it.

    When the new hypothesis rewrote part of the committed prefix, its continuation is found by
    aligning the two (difflib), so the committed text stays exactly as shown before.
    """
    if not committed:
        return list(hypothesis)
    n = len(committed)
    if common_prefix(committed, hypothesis) == n:
        return committed + hypothesis[n:]
    a, b = [normalized(u) for u in committed], [normalized(u) for u in hypothesis]
    j = n
    for i, k, size in difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks():
        if size and i < n:
            j = k + (n - i)  # where the end of the committed text falls in the hypothesis
    return committed + hypothesis[min(j, len(hypothesis)) :]
