"""A session with guests: the host's session (a Pipeline or a Conversation) and one more pipeline
lane per place a guest may speak from through the caption page (issue 43, app.captions.guest_speech).

    host's microphone ──▶ host session (direction, e.g. en-zh) ─────────┐
    guest place 1 ─────▶ Pipeline "guest" (the other side: zh-en) ──────├──▶ one event stream,
    ...                                                                  │    one transcript, one voice
    guest place N ─────▶ Pipeline "guest" ───────────────────────────────┘

As a conversation's two sides do (app/pipeline/conversation.py), the lanes share the Whisper model
(its decodes taken in turn, app.asr.turns), one utterance counter, the host's speech output (so
the laptop's own voice is gated out of the guests' phones, which are in the same room, by the same
playback times) and one transcript. A guest lane hears the other side of the session's direction
(face to face: decided per sentence, as the host's), and every event of one is labelled
`speaker: "guest"` and `speaker_name`: the name of the guest who was speaking when the utterance
began (a place passes from guest to guest). Guest lanes' meter levels are not passed on: the
window's meters are the host's inputs.
"""

from __future__ import annotations

import dataclasses
import itertools
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Protocol

from app.pipeline.pipeline import Pipeline, PipelineConfig
from app.pipeline.reporter import deliver
from app.pipeline.transcript import Transcript
from app.shared.audio import AudioSource, SourceKind, SpeechTarget
from app.shared.chinese import ChineseScript
from app.shared.events import CaptionCorrected, Event, Level, Speaker
from app.shared.glossary import Glossary
from app.shared.languages import Direction, Language

if TYPE_CHECKING:
    from app.pipeline.session import Session


# Guests speaking at once (each a lane: a recognizer on the shared Whisper model and a translation
# thread). On 2 cores one: the host's microphone and one guest are the two lanes a conversation
# runs, measured to keep up (docs/performance.md); a second guest would be a third recognizer
# taking turns on the one model, and a third translator (another copy of a model in memory). In a
# room people take turns: a guest who presses Speak while the place is taken is told to wait.
MAX_GUESTS_SPEAKING = 1


class GuestPlace(AudioSource, Protocol):
    """A source guests take in turn (app.audio.guest.GuestSource): who speaks now is its speaker_name."""

    speaker_name: str | None


# (config, on_event, utterance_ids) -> the host's session, its transcript left to the caller
HostFactory = Callable[[PipelineConfig, Callable[[Event], None], Iterator[int]], "Session"]


def guest_config(host: PipelineConfig) -> PipelineConfig:
    """A guest lane's config: the host's, heard the other way, from the guest's place."""
    return host.copy(
        direction=host.direction.reverse,
        input_path=None,
        source=SourceKind.GUEST,
        input_device=None,
        speaker=Speaker.GUEST,
        realtime=True,
        save_transcript=False,
        transcript_path=None,
        speak_into=SpeechTarget.SPEAKERS,  # guests' translations are for the room, not a call
        mix_original=0.0,
    )


class WithGuests:
    """Session: the host's session plus a guest lane per place; one event stream and transcript."""

    def __init__(
        self,
        config: PipelineConfig,
        make_host: HostFactory,
        places: Sequence[GuestPlace],
        on_event: Callable[[Event], None] | None = None,
    ):
        """config: the host's pipeline config (a conversation's shared one), copied; make_host
        builds the host's session on it; places: one per guest who may speak at once."""
        self.config = config = config.copy()
        self.on_event = on_event
        self.transcript: Transcript | None = None
        self._lock = threading.Lock()
        self._naming = threading.Lock()
        self._names: dict[int, str] = {}  # utterance id -> the guest who said it
        ids = itertools.count(1)
        self.host: Session = make_host(config.copy(save_transcript=False, transcript_path=None), self._emit, ids)
        self.places = list(places)
        self.lanes = [
            Pipeline(
                guest_config(config),
                on_event=self._guest_event(place),
                audio_source=place,
                speech_output=self.host.speech_output,
                shared_speech_output=True,
                utterance_ids=ids,
                on_failure=self.stop,
            )
            for place in self.places
        ]

    @property
    def speech_output(self):
        return self.host.speech_output

    @property
    def direction(self) -> Direction:
        return self.host.direction

    @property
    def speakers(self) -> frozenset[Speaker]:
        return self.host.speakers | {Speaker.GUEST}

    @property
    def running(self) -> bool:
        return self.host.running or any(lane.running for lane in self.lanes)

    def start(self) -> None:
        if self.running:
            return
        if self.config.save_transcript:
            self.transcript = Transcript(self.config.transcript_path)
        self.host.start()  # first: it starts the speech output the guests share
        for lane in self.lanes:
            lane.start()

    def stop(self, timeout: float = 10.0) -> None:
        for lane in self.lanes:
            lane.stop(timeout)
        self.host.stop(timeout)  # last: its speech output is the guests' too
        if self.transcript is not None:
            self.transcript.close()

    def finish(self, timeout: float = 30.0) -> None:
        """Everyone stops listening; what was heard is finalised and translated; then stop."""
        for lane in self.lanes:
            lane.end_input()
        self.host.end_input()
        self.wait_until_done(timeout)
        self.stop()

    def end_input(self) -> None:
        for lane in self.lanes:
            lane.end_input()
        self.host.end_input()

    def wait_until_done(self, timeout: float | None = None) -> bool:
        """The host's input has ended (a recording), and then what guests said is translated."""
        if not self.host.wait_until_done(timeout):
            return False
        for lane in self.lanes:
            lane.end_input()
        return all(lane.wait_until_done(timeout) for lane in self.lanes)

    # -- switches: the host's, and the guests' the other way --------------------------------
    def set_direction(self, direction: Direction | str) -> None:
        direction = Direction.parse(direction)
        self.config.direction = direction
        self.host.set_direction(direction)
        for lane in self.lanes:
            lane.set_direction(direction.reverse)

    def next_language(self, language: Language | str | None) -> None:
        self.host.next_language(language)  # the host's own next sentence

    def redo_utterance(self, utterance_id: int) -> None:
        self.host.redo_utterance(utterance_id)
        for lane in self.lanes:
            lane.redo_utterance(utterance_id)

    def redo_stopped(self, utterance_id: int) -> list[Event]:
        heard = self.host.redo_stopped(utterance_id)
        return heard + [event for lane in self.lanes for event in lane.redo_stopped(utterance_id)]

    def set_chinese(self, script: ChineseScript | str) -> None:
        self.host.set_chinese(script)
        for lane in self.lanes:
            lane.set_chinese(script)

    def set_tts_enabled(self, enabled: bool) -> None:
        self.host.set_tts_enabled(enabled)
        for lane in self.lanes:
            lane.set_tts_enabled(enabled)

    def set_spoken(self, spoken: frozenset[Speaker]) -> None:
        self.host.set_spoken(spoken)

    def set_verify(self, enabled: bool) -> None:
        self.host.set_verify(enabled)
        for lane in self.lanes:
            lane.set_verify(enabled)

    def apply_glossary(self, glossary: Glossary) -> None:
        self.host.apply_glossary(glossary)
        for lane in self.lanes:
            lane.apply_glossary(glossary)

    def publish_correction(self, event: CaptionCorrected) -> None:
        self._emit(event)

    # -- events ---------------------------------------------------------------------------
    def _guest_event(self, place: GuestPlace) -> Callable[[Event], None]:
        def labelled(event: Event) -> None:
            if isinstance(event, Level):
                return  # the meters show the host's inputs
            utterance_id = getattr(event, "utterance_id", None)
            if utterance_id is None:  # the lane's own news (loading, running): no one said it
                self._emit(event)
                return
            with self._naming:  # the guest speaking when the utterance began, whoever has the place by its translation
                name = self._names.setdefault(utterance_id, place.speaker_name or "Guest")
                while len(self._names) > 10_000:  # bounded: the oldest are done with
                    del self._names[next(iter(self._names))]
            self._emit(dataclasses.replace(event, speaker_name=name))

        return labelled

    def _emit(self, event: Event) -> None:
        with self._lock:  # one event at a time from every lane, in order
            deliver(event, self.transcript, self.on_event)
