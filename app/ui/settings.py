"""What the window remembers between runs (QSettings: the platform's own settings store)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from PySide6.QtCore import QByteArray, QSettings

ORGANIZATION, APPLICATION = "LiveTranslator", "Live Translator"


@dataclass
class UiSettings:
    direction: str = "en-zh"
    input_device: str = ""          # device name; "" = the system default microphone
    tts_enabled: bool = True
    voice_en: str = ""              # voice id per target language; "" = the pipeline's choice
    voice_zh: str = ""
    nmt_en_zh: str = ""             # model folder per direction; "" = whatever the catalog finds
    nmt_zh_en: str = ""
    asr_model: str = "base"
    hub_endpoint: str = ""          # a Hugging Face Hub mirror for downloads; "" = the default hub
    verify: bool = False
    chinese: str = "simplified"     # simplified | traditional | hongkong (app.shared.chinese)
    reading_mode: bool = False      # live translations: settled text only
    text_size: int = 0              # panels' point size; 0 = the default
    theme: str = "system"           # system | light | dark
    mark_unsure_source: bool = False  # underline words Whisper was unsure of (its alignment pass: slower finals)
    geometry: QByteArray | None = None
    splitter: QByteArray | None = None

    def nmt_dir(self, direction: str) -> str:
        return self.nmt_en_zh if direction == "en-zh" else self.nmt_zh_en

    def voice(self, language: str) -> str:
        return self.voice_en if language == "en" else self.voice_zh

    def set_voice(self, language: str, voice_id: str) -> None:
        setattr(self, "voice_en" if language == "en" else "voice_zh", voice_id)

    def set_nmt_dir(self, direction: str, path: str) -> None:
        setattr(self, "nmt_en_zh" if direction == "en-zh" else "nmt_zh_en", path)


def qsettings() -> QSettings:
    return QSettings(ORGANIZATION, APPLICATION)


def load_settings(store: QSettings | None = None) -> UiSettings:
    store = store or qsettings()
    values = {}
    for f in dataclasses.fields(UiSettings):
        if not store.contains(f.name):
            continue
        value = store.value(f.name)
        if f.type == "bool":
            value = value in (True, "true", "1", 1)
        elif f.type == "int":
            try:
                value = int(value)
            except (TypeError, ValueError):
                continue
        values[f.name] = value
    return UiSettings(**values)


def save_settings(settings: UiSettings, store: QSettings | None = None) -> None:
    store = store or qsettings()
    for f in dataclasses.fields(UiSettings):
        value = getattr(settings, f.name)
        if value is not None:
            store.setValue(f.name, value)
    store.sync()
