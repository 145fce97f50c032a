"""The glossary's terms as Whisper's hotwords (faster-whisper puts them in the prompt before the audio)."""

from __future__ import annotations


def hotwords_text(terms, language: str = "en") -> str | None:
    """Terms as one hotwords string for Whisper (None without terms). Chinese terms are written
    as a Chinese list ("北京、上海。"): joined with ", " they made Whisper base drop a short
    Mandarin clip it otherwise heard right (seen on espeak-ng speech)."""
    terms = [t.strip() for t in terms if t and t.strip()]
    if not terms:
        return None
    return "、".join(terms) + "。" if language == "zh" else ", ".join(terms)
