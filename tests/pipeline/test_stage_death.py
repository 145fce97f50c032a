"""A stage that dies is noticed (issue 31): when the capture, recognition or translation thread
meets an error nobody handles, an Error names the stage and the session stops cleanly (a
conversation's other side too); when the speech thread does, it says so and speaks the next text.

The error is injected through a real callable each stage calls (the audio source, the
recognizer, the translator, the speech device), as an exception type no stage expects: not an
Exception, so no per-utterance handler takes it (as a bug in a library's callback would)."""

from __future__ import annotations

import threading

import pytest

from app.asr import load_whisper
from app.audio import FileSource
from app.pipeline import PipelineConfig
from app.pipeline.conversation import Conversation, ConversationConfig
from app.shared.audio import SourceKind
from app.shared.events import Error, Speech, Status
from app.translation import Translator
from app.tts import SpeechOutput

from .conftest import EndlessRecording, english

pytestmark = pytest.mark.slow
PHRASES = ["Good morning.", "Where is the station?", "I love you."]


class Injected(BaseException):
    """What kills a thread: no `except Exception` takes it."""


class DyingSource(FileSource):
    """A recording whose read() breaks `at_s` seconds in."""

    def __init__(self, path, at_s: float):
        super().__init__(path, realtime=False)
        self.at = int(at_s * 16000)

    def read(self, timeout=0.1):
        if self._pos >= self.at:
            raise Injected("the audio driver broke")
        return super().read(timeout)


class DyingRecognizer:
    """The real recognizer; its feed() breaks at a chosen block."""

    def __init__(self, real, at_block: int):
        self.real, self.at, self.calls = real, at_block, 0

    def feed(self, block, captured_at=None):
        self.calls += 1
        if self.calls == self.at:
            raise Injected("Whisper broke")
        return self.real.feed(block, captured_at=captured_at)

    def __getattr__(self, name):
        return getattr(self.real, name)


class DyingTranslator:
    """The real translator; its first decode breaks after a step."""

    def __init__(self, real: Translator):
        self.real = real
        self.joiner, self.codec, self.chinese = real.joiner, real.codec, real.chinese

    def stream(self, text, options=None, cancel=None, forced=(), on_step=None):
        def step(item):
            if item.step == 1:
                raise Injected("the ONNX session broke")
            if on_step is not None:
                on_step(item)

        yield from self.real.stream(text, options=options, cancel=cancel, forced=forced, on_step=step)


class OutputThatBreaksOnce:
    """A speech device (app.shared.audio.AudioOutput) whose first play() breaks."""

    name = "a test device"
    heard_by = frozenset({SourceKind.SYSTEM})
    echo_tail_s = 0.0

    def __init__(self):
        self.played: list[int] = []

    def open(self) -> None:
        pass

    def play(self, samples, rate, on_level=None) -> None:
        if not self.played:
            self.played.append(0)
            raise Injected("the sound device broke")
        self.played.append(len(samples))

    def close(self) -> None:
        pass


def pipeline_threads() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith(("pipeline-", "speech-output"))]


def assert_died_and_stopped(run, stage: str, reason: str) -> None:
    """One Error names the stage and says the session stopped; then STOPPED, once, and nothing runs."""
    (died,) = [e for e in run.errors() if "stopped unexpectedly" in e.text]
    assert died.stage == stage and reason in died.text, died
    assert "session has stopped" in died.hint, died.hint
    statuses = run.of(Status)
    assert [s.state for s in statuses].count("stopped") == 1, statuses
    assert statuses[-1].state == "stopped" and "finished" not in [s.state for s in statuses], statuses
    assert run.events.index(died) < run.events.index(statuses[-1])
    assert not run.pipeline.running and not pipeline_threads(), pipeline_threads()


def test_capture_that_dies_stops_the_session(recording, run_pipeline):
    wav = recording("death-capture", english(PHRASES))
    run = run_pipeline(None, "en-zh", parts={"audio_source": DyingSource(wav, at_s=3.0)})
    assert_died_and_stopped(run, "capture", "Injected: the audio driver broke")
    assert "Audio capture stopped unexpectedly" in run.errors("capture")[0].text


def test_recognition_that_dies_stops_the_session(recording, run_pipeline, recognizer):
    wav = recording("death-asr", english(PHRASES))
    run = run_pipeline(wav, "en-zh", parts={"recognizer": DyingRecognizer(recognizer, at_block=30)})
    assert_died_and_stopped(run, "asr", "Injected: Whisper broke")
    assert run.finals(), "what was heard before the failure was shown"


def test_translation_that_dies_stops_the_session(recording, run_pipeline, phrasebook):
    wav = recording("death-translation", english(PHRASES))
    translator = DyingTranslator(Translator.load(phrasebook["en-zh"], direction="en-zh"))
    run = run_pipeline(wav, "en-zh", parts={"translators": {"en-zh": translator}})
    assert_died_and_stopped(run, "translation", "Injected: the ONNX session broke")


def test_speech_that_dies_is_restarted_and_speaks_the_next_text(recording, run_pipeline):
    wav = recording("death-speech", english(PHRASES))
    device = OutputThatBreaksOnce()
    run = run_pipeline(wav, "en-zh", tts_enabled=True, parts={"speech_output": SpeechOutput(outputs={None: device})})
    (died,) = run.errors("tts")
    assert "Speech output stopped unexpectedly: Injected: the sound device broke" in died.text
    assert "restarted" in died.hint
    finals = run.translations()
    assert len(finals) == len(PHRASES) and died.utterance_id == finals[0].utterance_id
    spoken = run.of(Speech)
    assert [s.utterance_id for s in spoken] == [t.utterance_id for t in finals[1:]]
    assert len(device.played) == len(PHRASES) and all(device.played[1:]), "the later texts were played"
    assert [s.state for s in run.of(Status)][-2:] == ["finished", "stopped"]


def test_speech_that_dies_before_any_text_says_so_and_stays_quiet():
    class BreaksOnOpen(OutputThatBreaksOnce):
        def open(self) -> None:
            raise Injected("the sound server broke")

    events, reported = [], threading.Event()
    speech = SpeechOutput(outputs={None: BreaksOnOpen()}, on_event=lambda e: (events.append(e), reported.set()))
    speech.start()
    try:
        assert reported.wait(30), "the speech thread died silently"
        assert speech.available is False and not speech.say("Good morning.", "en") and speech.wait_idle(0)
    finally:
        speech.stop()
    (died,) = events
    assert died.stage == "tts" and died.text == "Speech output stopped unexpectedly: Injected: the sound server broke"
    assert died.hint == "Translation goes on without speech."
    assert not pipeline_threads(), pipeline_threads()


def test_a_conversation_side_that_dies_stops_both_sides(recording, phrasebook):
    mine, theirs = recording("death-me", english(PHRASES)), recording("death-them", english(PHRASES[:1]))
    load_whisper("base")  # the shared model, loaded before the sides start
    events, lock = [], threading.Lock()

    def collect(event):
        with lock:
            events.append(event)

    shared = PipelineConfig(direction="en-zh", nmt_models=dict(phrasebook), tts_enabled=False, save_transcript=False)
    conversation = Conversation(
        ConversationConfig(shared),
        collect,
        sources={"me": DyingSource(mine, at_s=3.0), "them": EndlessRecording(theirs, SourceKind.SYSTEM)},
        speech_output=SpeechOutput(enabled=False),
    )
    conversation.start()
    try:
        assert conversation.wait_until_done(120), "the conversation did not stop"
    finally:
        conversation.stop()
    died = [e for e in events if isinstance(e, Error) and "stopped unexpectedly" in e.text]
    assert [(e.stage, e.speaker) for e in died] == [("capture", "me")]
    stopped = [s.speaker for s in events if isinstance(s, Status) and s.state == "stopped"]
    assert sorted(stopped) == ["me", "them"], stopped
    assert not conversation.running and not pipeline_threads(), pipeline_threads()
