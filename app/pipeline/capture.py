"""The capture stage: the `pipeline-capture` thread reads the audio source through the one capture
loop (app.audio.capture: retries, level events, overflow reports), tells what the room sounds
like (app.audio.room: too quiet, clipping, noisy, zeros, DC, hum; app.audio.rate_check: a device
whose clock runs off its stated rate), silences what may be our own
voice (app/pipeline/speech.py) and hands the blocks to recognition through the session's
bounded audio queue."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from app.audio import SOURCE_LOST, AudioBlock, FileSource, capture
from app.audio.devices import open_source
from app.audio.rate_check import RateCheck
from app.audio.room import RoomWatch
from app.pipeline.session_state import END, FLUSH, Block, SessionState
from app.shared.audio import SourceKind
from app.shared.events import Level, Stage

if TYPE_CHECKING:
    from app.pipeline.config import PipelineConfig
    from app.pipeline.reporter import Reporter
    from app.pipeline.speech import SpeechStage
    from app.shared.audio import AudioSource

LEVEL_EVERY_S = 0.1
RETRY_CAPTURE_EVERY_S = 1.0


class CaptureStage:
    """Audio in: the source given, or one made from the config at each start."""

    def __init__(
        self, config: PipelineConfig, reporter: Reporter, speech: SpeechStage, audio_source: AudioSource | None
    ):
        self.config = config
        self.reporter = reporter
        self.speech = speech
        self.audio_source = audio_source

    def run(self, session: SessionState) -> None:
        """The capture thread. A source that cannot be made (no such device, no sound server)
        is reported and ends the input, as a recording's end does. Whatever escapes the capture
        loop is the stage dying: Pipeline reports it and stops the session."""
        try:
            source = self._make_source()
        except Exception as error:
            self.reporter.error(Stage.CAPTURE, error)
        else:
            if self._wait_until_ready(session):
                self._capture(session, source)
        session.put_audio(END)

    def _make_source(self) -> AudioSource:
        if self.audio_source is not None:
            return self.audio_source
        if self.config.input_path is not None:
            return FileSource(self.config.input_path, realtime=self.config.realtime)
        return open_source(self.config.source, self.config.input_device)

    @staticmethod
    def _wait_until_ready(session: SessionState) -> bool:
        """Wait for the recognizer to load (audio before that would only pile up); False if the
        input ended first."""
        while not session.ready.wait(0.1):
            if session.end_input.is_set():
                return False
        return True

    def _capture(self, session: SessionState, source: AudioSource) -> None:
        mute = self.speech.mutes(source)
        room = RoomWatch()  # what the input sounds like, measured before our own voice is silenced
        # A device's own clock (a guest's phone stream may pause, which is not a wrong rate).
        rate = RateCheck() if source.kind in (SourceKind.MICROPHONE, SourceKind.SYSTEM) else None
        for item in capture(source, session.end_input, retry_s=RETRY_CAPTURE_EVERY_S, level_every_s=LEVEL_EVERY_S):
            if isinstance(item, AudioBlock):
                samples = item.samples
                for event in room.feed(samples):
                    self.reporter.emit(event)
                if rate is not None and (told := rate.feed(len(samples), item.captured_at)) is not None:
                    self.reporter.emit(told)
                if mute and self.speech.own_voice_in(source.kind, samples, item.captured_at):
                    samples = np.zeros_like(samples)  # our own voice must not be translated again
                session.put_audio(Block(samples, item.captured_at))
            elif item is SOURCE_LOST:
                session.put_audio(FLUSH)  # finalize what was heard before the device went
            else:
                if rate is not None and not isinstance(item, Level):
                    rate.restart()  # audio dropped (an Error), or the device came back: measure afresh
                self.reporter.emit(item)
