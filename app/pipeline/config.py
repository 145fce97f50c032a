"""A pipeline's settings (`PipelineConfig`) and what it needs of a translator (`PipelineTranslator`)."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from app.pipeline.calm import CalmMode, ShowRule
from app.shared.audio import SourceKind, SpeechTarget
from app.shared.chinese import ChineseScript
from app.shared.events import DecodeStep, Speaker
from app.shared.glossary import Glossary
from app.shared.languages import Direction
from app.shared.live_text import LiveText

if TYPE_CHECKING:
    from app.translation.options import DecodeOptions
    from app.translation.results import SentenceResult


@dataclass
class PipelineConfig:
    direction: Direction = Direction.EN_ZH
    # Face to face (run --direction auto): each utterance's language, English or Chinese, is
    # decided as it is heard (app.asr.language) and translated the other way; `direction` is then
    # the side before anyone spoke. Needs both directions' models.
    auto_direction: bool = False
    nmt_models: dict[Direction, str | Path] = field(default_factory=dict)  # direction -> model folder
    asr_model: str = "base"  # Whisper size name or folder
    input_path: str | Path | None = None  # a recording; None = the live source below
    source: SourceKind = SourceKind.MICROPHONE  # the live source: MICROPHONE or SYSTEM (what the computer plays)
    input_device: int | str | None = None  # that source's device by index, id or name; None = default
    speaker: Speaker | None = None  # in a conversation: who this pipeline hears; every event is labelled
    realtime: bool = True  # feed a recording at speaking speed (False: as fast as possible)
    tts_enabled: bool = True
    tts_out: str | Path | None = None  # write speech into this WAV instead of the speakers
    tts_rate: int | None = None  # words per minute; None = the engine's default
    tts_voices: dict[str, str] = field(default_factory=dict)  # language -> voice id (`run --voice`); else the default
    # Where speech goes: "speakers" (the engine's own output), "virtual-mic" (live_translator_mic,
    # for a call app) or an output device's name (app.audio.outputs); mix_original: my voice under
    # the translation in the virtual microphone, 0..1.
    speak_into: str = SpeechTarget.SPEAKERS
    mix_original: float = 0.0
    verify: bool = False  # translation engine's cached-vs-uncached check (slow)
    num_beams: int = 1  # for final translations; provisional ones are always greedy
    decode_overrides: dict[str, Any] = field(default_factory=dict)  # more DecodeOptions fields, e.g. max_new_tokens
    translate_partials: bool = True
    emit_steps: bool = True  # DecodeStepEvent per decoder step, for live diagnostics
    # Silence what the source captured while our speech played. None: for live sources (our voice
    # reaches system audio, and the microphone without headphones) when speech goes to the speakers.
    mute_while_speaking: bool | None = None
    save_transcript: bool = True
    transcript_path: str | Path | None = None  # None: a new file in transcripts_dir()
    audio_queue_blocks: int = 256
    max_pending_finals: int = 32
    glossary: Glossary | None = None  # its terms are translated as it says, and heard as hotwords
    chinese: ChineseScript = ChineseScript.SIMPLIFIED  # script of all Chinese shown, spoken and saved
    source_confidence: bool = False  # mark the words Whisper was unsure of (slower finals: RecognizerOptions)
    live_text: LiveText = LiveText.BALANCED  # smoother <-> sooner partials (app.shared.live_text)
    calm: CalmMode = CalmMode.AGREE  # how provisional translations settle (app/pipeline/calm.py; bench/calm_text.py)
    # What of a provisional translation is shown, and when it settles; None: the live-text
    # choice's rule (calm.RULES). A bench tries other rules through it (bench/live_text.py).
    show_rule: ShowRule | None = None
    # (folder, direction, prefer_quantized) -> {stem: path}: optimised graphs to load instead of
    # the folder's (app.model_store.optimized.prepare_graphs); None loads the folder as it is.
    prepare_graphs: Callable[[str | Path, Direction, bool], dict[str, Path]] | None = None

    def __post_init__(self) -> None:
        """Values given as strings ("en-zh", "traditional", as on the command line) become their enums."""
        self.direction = Direction.parse(self.direction)
        self.nmt_models = {Direction.parse(d): folder for d, folder in self.nmt_models.items()}
        self.chinese = ChineseScript.parse(self.chinese)
        self.calm = CalmMode(self.calm)
        self.live_text = LiveText(self.live_text)

    def copy(self, **changes) -> PipelineConfig:
        """This config with `changes`, its dicts copied: a session's own, which its switches
        (verify, chinese, speech) change without touching the caller's."""
        return dataclasses.replace(
            self,
            **{
                "nmt_models": dict(self.nmt_models),
                "decode_overrides": dict(self.decode_overrides),
                "tts_voices": dict(self.tts_voices),
                **changes,
            },
        )


class TokenCodec(Protocol):
    skipped_ids: set[int]  # language tags and special tokens: not part of the written translation


@runtime_checkable
class PipelineTranslator(Protocol):
    """What the pipeline needs of a translator (app.translation.Translator; a test's wrapper)."""

    chinese: ChineseScript  # the script of its Chinese output; the pipeline sets it before each translation
    joiner: str  # between translated sentences: "" into Chinese, " " into English
    codec: TokenCodec

    def stream(
        self,
        text: str,
        options: DecodeOptions | None = None,
        cancel: threading.Event | None = None,
        forced: Sequence[Sequence[int]] = (),
        on_step: Callable[[DecodeStep], None] | None = None,
    ) -> Iterator[SentenceResult]: ...
