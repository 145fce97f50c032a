"""The installed voices for the speech output, per target language (the window's voice list).

Speaking with the chosen one is SpeechOutput's own job (`voices=`, `set_voice()`).
"""

from __future__ import annotations

import gc

# Language tags/names per target language; Mandarin only for "zh" (Cantonese and Hakka
# voices read Mandarin text wrongly).
MARKS = {"en": ("en",), "zh": ("cmn", "zh", "mandarin")}


def list_voices() -> dict[str, list[tuple[str, str]]]:
    """{"en": [(id, name)...], "zh": [...]} of the installed pyttsx3 voices (slow: a worker).

    The engine is dropped before returning: pyttsx3 hands out one shared engine per driver,
    and the speech thread must create its own."""
    import pyttsx3

    engine = pyttsx3.init()
    try:
        voices = engine.getProperty("voices")
        found: dict[str, list[tuple[str, str]]] = {"en": [], "zh": []}
        for voice in voices:
            tags = [str(tag).lower() for tag in voice.languages or ()] + [(voice.name or "").lower()]
            for language, marks in MARKS.items():
                if any(tag.startswith(mark) or mark in tag.split() for tag in tags for mark in marks):
                    found[language].append((voice.id, voice.name or voice.id))
        return found
    finally:
        engine.stop()
        del engine
        gc.collect()

