"""A conversation: my microphone and the computer's sound at once, each translated its own way.

    microphone ──▶ Pipeline "me"   (direction, e.g. en-zh) ──┐
                                                              ├──▶ one event stream, one transcript,
    system audio ▶ Pipeline "them" (the reverse, zh-en)  ──┘     one speech output (the side chosen)

Two whole pipelines, one per speaker: each has its capture, recognition and translation
threads, so one side's long utterance never holds up the other's. They share the Whisper model
(app.asr.load_whisper keeps one per process; app.asr.turns gives its decodes out one at a time:
finals first, then the freshest partial of a side that is speaking, the sides taking turns),
one utterance counter (ids never clash in the transcript or the window), one speech output
(so the app's own voice is gated out of both captures by the same playback times) and one
transcript. Every event is labelled with its speaker. docs/performance.md has the measurement
that two pipelines keep up on two cores.
"""

from __future__ import annotations

import itertools
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.pipeline.pipeline import Pipeline, PipelineConfig
from app.pipeline.transcript import Transcript
from app.shared.audio import AudioSource, SourceKind
from app.shared.events import Event, Speaker
from app.shared.languages import Direction
from app.shared.live_text import LiveText

log = logging.getLogger(__name__)


@dataclass
class ConversationConfig:
    direction: Direction = Direction.EN_ZH  # what I speak -> what they hear; they are translated the other way
    nmt_models: dict[Direction, str | Path] = field(default_factory=dict)
    asr_model: str = "base"
    microphone: int | str | None = None  # my device (None: the default microphone)
    system_device: int | str | None = None  # their device (None: what the default output plays)
    tts_enabled: bool = True
    spoken: frozenset[Speaker] = frozenset({Speaker.THEM})  # whose translations are spoken aloud
    tts_out: str | Path | None = None
    tts_rate: int | None = None
    num_beams: int = 1
    decode_overrides: dict[str, Any] = field(default_factory=dict)  # see PipelineConfig
    translate_partials: bool = True
    emit_steps: bool = False
    mute_while_speaking: bool | None = None  # see PipelineConfig
    save_transcript: bool = True
    transcript_path: str | Path | None = None
    glossary: Any = None  # see PipelineConfig
    chinese: str = "simplified"  # see PipelineConfig
    live_text: LiveText = LiveText.BALANCED  # see PipelineConfig
    prepare_graphs: Any = None  # see PipelineConfig

    def lane(self, speaker: Speaker) -> PipelineConfig:
        """The PipelineConfig of one side."""
        me = speaker is Speaker.ME
        direction = Direction.parse(self.direction)
        return PipelineConfig(
            direction=direction if me else direction.reverse, nmt_models=dict(self.nmt_models),
            asr_model=self.asr_model, source=SourceKind.MICROPHONE if me else SourceKind.SYSTEM,
            input_device=self.microphone if me else self.system_device, speaker=speaker,
            tts_enabled=self.tts_enabled and speaker in self.spoken, num_beams=self.num_beams,
            decode_overrides=dict(self.decode_overrides),
            translate_partials=self.translate_partials, emit_steps=self.emit_steps,
            mute_while_speaking=self.mute_while_speaking, save_transcript=False, glossary=self.glossary,
            chinese=self.chinese, prepare_graphs=self.prepare_graphs, live_text=self.live_text)


class Conversation:
    """Two pipelines (me: the microphone, them: system audio) as one: start, stop, one event stream."""

    def __init__(self, config: ConversationConfig, on_event: Callable[[Event], None] | None = None, *,
                 sources: dict[Speaker, AudioSource] | None = None, speech_output=None,
                 translators: dict[str, Any] | None = None):
        """sources: per speaker, default built from the config; speech_output: an app.tts.SpeechOutput
        (default: the speakers); translators: direction -> Translator, shared. Each side makes its
        own recognizer on the shared Whisper model, numbering utterances from one counter."""
        config.direction = Direction.parse(config.direction)
        self.config = config
        self.on_event = on_event
        if speech_output is None:
            from app.tts import SpeechOutput

            speech_output = SpeechOutput(enabled=config.tts_enabled, rate=config.tts_rate, out_path=config.tts_out)
        self.speech_output = speech_output
        self.speech_output.on_event = self._emit
        self.transcript: Transcript | None = None
        self._lock = threading.Lock()
        ids = itertools.count(1)  # one numbering for both sides
        sources = sources or {}
        self.lanes: dict[Speaker, Pipeline] = {
            speaker: Pipeline(config.lane(speaker), on_event=self._emit, audio_source=sources.get(speaker),
                              speech_output=speech_output,
                              translators=translators, shared_speech_output=True, utterance_ids=ids)
            for speaker in (Speaker.ME, Speaker.THEM)}

    @property
    def running(self) -> bool:
        return any(lane.running for lane in self.lanes.values())

    def start(self) -> None:
        if self.running:
            return
        if self.config.save_transcript:
            self.transcript = Transcript(self.config.transcript_path)
        self.speech_output.enabled = self.config.tts_enabled
        self.speech_output.start()
        for lane in self.lanes.values():
            lane.start()

    def stop(self, timeout: float = 10.0) -> None:
        """Stop both sides at once: in-flight work is cancelled (finish() keeps it)."""
        for lane in self.lanes.values():
            lane.stop(timeout)
        self.speech_output.stop()
        if self.transcript is not None:
            self.transcript.close()

    def finish(self, timeout: float = 30.0) -> None:
        """End cleanly: both sides stop listening at once, then finalise and translate what
        they heard (see Pipeline.finish)."""
        for lane in self.lanes.values():
            lane.end_input()
        self.wait_until_done(timeout)
        self.stop()

    def wait_until_done(self, timeout: float | None = None) -> bool:
        """Both sides have ended (live sources only end when stopped)."""
        return all(lane.wait_until_done(timeout) for lane in self.lanes.values())

    def set_direction(self, direction: Direction | str) -> None:
        """I now speak the source language of `direction`; they speak its target language."""
        direction = Direction.parse(direction)
        self.config.direction = direction
        self.lanes[Speaker.ME].set_direction(direction)
        self.lanes[Speaker.THEM].set_direction(direction.reverse)

    @property
    def direction(self) -> Direction:
        return self.config.direction

    def set_spoken(self, spoken: set[Speaker] | frozenset[Speaker]) -> None:
        """Speak these sides' translations from now on."""
        self.config.spoken = frozenset(spoken)
        for speaker, lane in self.lanes.items():
            lane.config.tts_enabled = self.config.tts_enabled and speaker in self.config.spoken

    def set_tts_enabled(self, enabled: bool) -> None:
        self.config.tts_enabled = enabled
        self.speech_output.set_enabled(enabled)
        self.set_spoken(self.config.spoken)

    def _emit(self, event: Event) -> None:
        with self._lock:  # one event at a time from both sides, in order
            if self.transcript is not None:
                try:
                    self.transcript.record(event)
                except OSError as error:
                    log.warning("transcript: could not save: %s", error)
            if self.on_event is not None:
                try:
                    self.on_event(event)
                except Exception:  # an observer's bug must not stop the conversation
                    log.exception("an event observer failed on %s", event.type)
