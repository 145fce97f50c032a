"""Whisper writes Chinese in Traditional characters now and then: the conversions live in
app.shared.chinese (OpenCC); this name stays for the callers that only need Simplified."""

from __future__ import annotations

from app.shared.chinese import to_simplified

__all__ = ["to_simplified"]
