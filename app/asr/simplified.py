"""Whisper writes Chinese in Traditional characters now and then; the app shows Simplified.

OpenCC's "t2s" conversion (phrase-aware, maintained upstream), built once on first use.
"""

from __future__ import annotations

import functools


@functools.lru_cache(maxsize=1)
def _converter():
    import opencc

    return opencc.OpenCC("t2s")


def to_simplified(text: str) -> str:
    return _converter().convert(text) if text else text
