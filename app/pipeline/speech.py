"""The speech stage, from the pipeline's side: final translations are queued on a SpeechOutput
(app/tts.py), whose own `speech-output` thread speaks them; and capture asks it whether a block
may hold our own voice, so the app never translates what it said itself."""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING

import numpy as np

from app.shared.audio import SAMPLE_RATE, AudioSource, SourceKind

if TYPE_CHECKING:
    from app.pipeline.config import PipelineConfig
    from app.tts import SpeechOutput


class SpeechStage:
    """A pipeline's voice: its own SpeechOutput, or one it shares (a conversation's two sides)."""

    def __init__(self, config: PipelineConfig, output: SpeechOutput | None, shared: bool):
        """output: None builds one from `config`; shared: it belongs to someone else, who starts
        and stops it; this pipeline only queues texts on it."""
        self.config = config
        self.output = output if output is not None else self.default_output(config)
        self.owned = not shared

    @staticmethod
    def default_output(config: PipelineConfig) -> SpeechOutput:
        from app.audio.speech_targets import open_output  # lazy: the outputs' machinery, off the window's start
        from app.tts import SpeechOutput  # lazy: soundfile, kept off the window's start and `run --help`

        output = open_output(config.speak_into, config.mix_original)
        return SpeechOutput(
            enabled=config.tts_enabled,
            rate=config.tts_rate,
            voices=config.tts_voices,
            out_path=config.tts_out,
            outputs={None: output} if output is not None else None,
        )

    def start(self) -> None:
        if self.owned:
            self.output.enabled = self.config.tts_enabled
            self.output.start()

    def stop(self) -> None:
        if self.owned:
            self.output.stop()

    def set_enabled(self, enabled: bool) -> None:
        self.config.tts_enabled = enabled
        if self.owned:
            self.output.set_enabled(enabled)

    def say(self, text: str, language: str, utterance_id: int) -> None:
        """Queue a final translation (when this pipeline speaks)."""
        if text and self.config.tts_enabled:
            self.output.say(text, language, utterance_id, speaker=self.config.speaker)

    def wait_spoken(self, stop: threading.Event) -> None:
        """Wait until everything queued has been spoken, or `stop` is set."""
        while not self.output.wait_idle(0.2):
            if stop.is_set():
                return

    # -- the own-voice gate (called on the capture thread) -----------------------------------
    def mutes(self, source: AudioSource) -> bool:
        """Whether what `source` captures while we speak is silenced. By default: live sources
        (our voice reaches system audio, and the microphone without headphones), when speech
        is played rather than written to a file."""
        if self.config.mute_while_speaking is not None:
            return self.config.mute_while_speaking
        live = (SourceKind.MICROPHONE, SourceKind.SYSTEM, SourceKind.GUEST)  # a guest's phone is in the room too
        return source.kind in live and self.output.out_path is None

    def own_voice_in(self, kind: SourceKind, samples: np.ndarray, captured_at: float | None) -> bool:
        """Might this block hold our own speech? While speech that reaches this kind of capture is
        queued or playing, or when it was captured during a stretch we played there (it may be read
        later than it was captured). A recording gated on purpose counts as a microphone."""
        heard_as = kind if kind in (SourceKind.MICROPHONE, SourceKind.SYSTEM) else SourceKind.MICROPHONE
        end = captured_at if captured_at is not None else time.monotonic()
        return self.output.may_be_heard_in(heard_as, end - len(samples) / SAMPLE_RATE, end)
