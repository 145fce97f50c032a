"""The installed voices for the speech output, per target language (the window's voice list).

Which voice speaks which language is app.tts's rule (`voices_for`); speaking with the chosen
one is SpeechOutput's own job (`voices=`, `set_voice()`).
"""

from __future__ import annotations

import gc

from app.shared.languages import Language
from app.tts import voices_for


def list_voices() -> dict[str, list[tuple[str, str]]]:
    """{"en": [(id, name)...], "zh": [...]} of the installed pyttsx3 voices, best first (slow: a worker).

    The engine is dropped before returning: pyttsx3 hands out one shared engine per driver,
    and the speech thread must create its own."""
    import pyttsx3

    engine = pyttsx3.init()
    try:
        voices = engine.getProperty("voices")
        return {language.value: [(v.id, v.name or v.id) for v in voices_for(voices, language)] for language in Language}
    finally:
        engine.stop()
        del engine
        gc.collect()
