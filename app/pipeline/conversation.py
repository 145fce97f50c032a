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
transcript. Every event is labelled with its speaker. When a stage of one side dies, that side
says so and both sides stop. docs/performance.md has the measurement that two pipelines keep
up on two cores.
"""

from __future__ import annotations

import dataclasses
import itertools
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from app.pipeline.pipeline import Pipeline, PipelineConfig, PipelineTranslator
from app.pipeline.reporter import deliver
from app.pipeline.transcript import Transcript
from app.shared.audio import AudioSource, SourceKind, SpeechTarget
from app.shared.chinese import ChineseScript
from app.shared.events import CaptionCorrected, Event, Speaker, Spoken
from app.shared.glossary import Glossary
from app.shared.languages import Direction, Language

if TYPE_CHECKING:
    from app.tts import SpeechOutput


@dataclass
class ConversationConfig:
    """One PipelineConfig for both sides, plus what only a conversation has. Each side's
    config is that one with the fields that differ per side replaced (`lane`), so a setting
    added to PipelineConfig reaches both sides without a line here."""

    # Every setting both sides share. Its direction is mine (they are translated the reverse
    # way), its input_device my microphone (None: the default); its transcript settings are the
    # conversation's one transcript, its tts_enabled whether the conversation speaks at all.
    pipeline: PipelineConfig = field(default_factory=lambda: PipelineConfig(emit_steps=False))
    system_device: int | str | None = None  # their device (None: what the default output plays)
    spoken: frozenset[Speaker] = Spoken.THEM.speakers  # whose translations are spoken aloud

    def lane(self, speaker: Speaker) -> PipelineConfig:
        """The PipelineConfig of one side: the shared one with what differs per side replaced."""
        me = speaker is Speaker.ME
        base = self.pipeline
        return base.copy(
            direction=base.direction if me else base.direction.reverse,
            input_path=None,
            source=SourceKind.MICROPHONE if me else SourceKind.SYSTEM,
            input_device=base.input_device if me else self.system_device,
            speaker=speaker,
            tts_enabled=base.tts_enabled and speaker in self.spoken,
            save_transcript=False,
            transcript_path=None,
            # only my translated speech goes into the call; theirs stays on the speakers
            speak_into=base.speak_into if me else SpeechTarget.SPEAKERS,
            mix_original=base.mix_original if me else 0.0,
        )


class Conversation:
    """Two pipelines (me: the microphone, them: system audio) as one: start, stop, one event stream."""

    def __init__(
        self,
        config: ConversationConfig,
        on_event: Callable[[Event], None] | None = None,
        *,
        sources: Mapping[Speaker, AudioSource] | None = None,
        speech_output: SpeechOutput | None = None,
        translators: Mapping[Direction | str, PipelineTranslator] | None = None,
        utterance_ids: Iterator[int] | None = None,
    ):
        """config: copied; the conversation's switches change its copy and both sides. sources: per
        speaker, default built from the config; speech_output: an app.tts.SpeechOutput (default:
        the speakers); translators: direction -> Translator, shared. Each side makes its own
        recognizer on the shared Whisper model, numbering utterances from one counter
        (`utterance_ids`, when a session with guests shares it further)."""
        self.config = config = dataclasses.replace(config, pipeline=config.pipeline.copy())
        self.on_event = on_event
        shared = config.pipeline
        if speech_output is None:
            from app.audio.speech_targets import open_output  # lazy: as app/pipeline/speech.py
            from app.tts import SpeechOutput  # lazy: soundfile, kept off the window's start and `run --help`

            mine = open_output(shared.speak_into, shared.mix_original)  # where MY translated speech goes
            speech_output = SpeechOutput(
                enabled=shared.tts_enabled,
                rate=shared.tts_rate,
                voices=shared.tts_voices,
                out_path=shared.tts_out,
                outputs={Speaker.ME: mine} if mine is not None else None,
            )
        self.speech_output = speech_output
        self.speech_output.on_event = self._emit
        self.transcript: Transcript | None = None
        self._lock = threading.Lock()
        ids = utterance_ids if utterance_ids is not None else itertools.count(1)  # one numbering for both sides
        sources = sources or {}
        self.lanes: dict[Speaker, Pipeline] = {
            speaker: Pipeline(
                config.lane(speaker),
                on_event=self._emit,
                audio_source=sources.get(speaker),
                speech_output=speech_output,
                translators=translators,
                shared_speech_output=True,
                utterance_ids=ids,
                on_failure=self._side_failed,
            )
            for speaker in (Speaker.ME, Speaker.THEM)
        }

    @property
    def running(self) -> bool:
        return any(lane.running for lane in self.lanes.values())

    @property
    def speakers(self) -> frozenset[Speaker]:
        return frozenset(self.lanes)

    def start(self) -> None:
        if self.running:
            return
        if self.config.pipeline.save_transcript:
            self.transcript = Transcript(self.config.pipeline.transcript_path)
        self.speech_output.enabled = self.config.pipeline.tts_enabled
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

    def _side_failed(self) -> None:
        """A stage of one side died and that side stopped (its Error says which): the other
        side stops too, so the conversation is never left half-working."""
        self.stop()

    def finish(self, timeout: float = 30.0) -> None:
        """End cleanly: both sides stop listening at once, then finalise and translate what
        they heard (see Pipeline.finish)."""
        self.end_input()
        self.wait_until_done(timeout)
        self.stop()

    def end_input(self) -> None:
        """Both sides stop listening; what they heard is finalised (returns at once)."""
        for lane in self.lanes.values():
            lane.end_input()

    def wait_until_done(self, timeout: float | None = None) -> bool:
        """Both sides have ended (live sources only end when stopped)."""
        return all(lane.wait_until_done(timeout) for lane in self.lanes.values())

    @property
    def direction(self) -> Direction:
        """What I speak -> what they hear (they are translated the other way)."""
        return self.config.pipeline.direction

    def set_direction(self, direction: Direction | str) -> None:
        """I now speak the source language of `direction`; they speak its target language."""
        direction = Direction.parse(direction)
        self.config.pipeline.direction = direction
        self.lanes[Speaker.ME].set_direction(direction)
        self.lanes[Speaker.THEM].set_direction(direction.reverse)

    def next_language(self, language: Language | str | None) -> None:
        """Face to face on both sides (config.pipeline.auto_direction); else ignored."""
        for lane in self.lanes.values():
            lane.next_language(language)

    def redo_utterance(self, utterance_id: int) -> None:
        """The side that heard `utterance_id` hears it again the other way (face to face only)."""
        for lane in self.lanes.values():
            lane.redo_utterance(utterance_id)

    def redo_stopped(self, utterance_id: int) -> list[Event]:
        """redo_utterance after the conversation has stopped (face to face only: nothing here)."""
        return [event for lane in self.lanes.values() for event in lane.redo_stopped(utterance_id)]

    def set_spoken(self, spoken: frozenset[Speaker]) -> None:
        """Speak these sides' translations from now on."""
        self.config.spoken = frozenset(spoken)
        for speaker, lane in self.lanes.items():
            lane.set_tts_enabled(self.config.pipeline.tts_enabled and speaker in self.config.spoken)

    def apply_glossary(self, glossary: Glossary) -> None:
        """Both sides use `glossary` from their next utterance on (see Pipeline.apply_glossary)."""
        self.config.pipeline.glossary = glossary
        for lane in self.lanes.values():
            lane.apply_glossary(glossary)

    def publish_correction(self, event: CaptionCorrected) -> None:
        """An utterance's corrected caption, to every observer and the transcript."""
        self._emit(event)

    def set_tts_enabled(self, enabled: bool) -> None:
        self.config.pipeline.tts_enabled = enabled
        self.speech_output.set_enabled(enabled)
        self.set_spoken(self.config.spoken)

    def set_chinese(self, script: ChineseScript | str) -> None:
        self.config.pipeline.chinese = ChineseScript.parse(script).value
        for lane in self.lanes.values():
            lane.set_chinese(script)

    def set_verify(self, enabled: bool) -> None:
        self.config.pipeline.verify = enabled
        for lane in self.lanes.values():
            lane.set_verify(enabled)

    def _emit(self, event: Event) -> None:
        with self._lock:  # one event at a time from both sides, in order
            deliver(event, self.transcript, self.on_event)
