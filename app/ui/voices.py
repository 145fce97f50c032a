"""Voices for the speech output: listing them, and speaking with the one the user chose.

The pipeline's SpeechOutput picks a voice per language itself; `ChosenVoiceSpeechOutput`
replaces that pick with the user's choice, on the engine's own thread, as the engine starts.
"""

from __future__ import annotations

import gc

from app.tts import SpeechOutput

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


class ChosenVoiceSpeechOutput(SpeechOutput):
    """SpeechOutput that speaks each language with the voice chosen in the window ("" = its own pick)."""

    def __init__(self, chosen: dict[str, str], **kwargs):
        super().__init__(**kwargs)
        self.chosen = dict(chosen)

    def set_voice(self, language: str, voice_id: str) -> None:
        self.chosen[language] = voice_id
        self._apply_choice()

    def _create_engine(self):
        engine = super()._create_engine()
        self._apply_choice()
        return engine

    def _apply_choice(self) -> None:
        picked = getattr(self, "_voices", None)  # SpeechOutput's per-language pick, once started
        if picked is not None:
            picked.update({lang: voice for lang, voice in self.chosen.items() if voice})
