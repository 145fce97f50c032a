"""No feedback loop: the app's own voice, heard by its microphone, is not translated again.

A private PulseAudio server (tests/asr's VirtualMic) plays the part of a room: speech played
into its null sink reaches the microphone (the sink's monitor), and so does the translation
the speech output speaks through aplay into the same sink.
"""

from __future__ import annotations

import subprocess

import pytest
from asr.conftest import virtual_mic as room  # noqa: F401  (the room is the virtual microphone)
from audio.recorder import Recorder

from app.audio import MicrophoneSource
from app.pipeline import PipelineConfig
from app.shared.events import Level, Speech, Status
from app.tts import SpeechOutput
from tests.waiting import wait_until

from .conftest import Run, expected

pytestmark = pytest.mark.slow


# Not a 1 s phrase: through the room Whisper base heard "Good morning." as "dot morning." now and then.
SAID = "Where is the station?"


def converse(room, phrasebook, recognizer, tmp_path, mute: bool) -> Run:
    speech = tmp_path / "said.wav"
    subprocess.run(["espeak-ng", "-v", "en-us", "-w", str(speech), SAID], check=True)
    config = PipelineConfig(direction="en-zh", nmt_models=dict(phrasebook), mute_while_speaking=mute)
    run = Run(
        config, audio_source=MicrophoneSource("pulse"), recognizer=recognizer, speech_output=SpeechOutput(rate=120)
    )  # to the speakers, i.e. into the room
    run.pipeline.start()
    try:
        wait_until(lambda: any(s.state == "running" for s in run.of(Status)), "the pipeline to run", 60)
        wait_until(lambda: run.of(Level), "the microphone's first audio (a Level event)", 10)
        with Recorder("vmic.monitor") as microphone:
            room.play(speech).wait(timeout=20)
            spoken = wait_until(lambda: run.of(Speech), "the translation to be spoken", 90)[0]
            # What was spoken has reached the microphone; what it heard of it is finalised by finish().
            microphone.wait_recorded_until(spoken.emitted_at + 1.0)
        if not mute:  # what it hears is recognised while it runs: finish() need not do it all
            wait_until(lambda: heard_back(run), "our voice heard", 60, seen=lambda: [f.text for f in run.finals()])
        run.pipeline.finish()
    finally:
        run.pipeline.stop()
    return run


def heard_back(run: Run) -> list:
    """The finals after the one for what was said: what came back from the speakers. Not "the
    finals emitted after the Speech event": that event comes when playback has ended, and the
    first part of the spoken translation can be finalised before that."""
    return run.finals()[1:]


def test_own_speech_is_not_translated_again(room, phrasebook, recognizer, tmp_path):
    run = converse(room, phrasebook, recognizer, tmp_path, mute=True)
    assert [t.text for t in run.translations()] == expected([SAID], "en-zh")
    assert [f.text for f in run.finals()] == [SAID], "the app heard itself"


def test_without_the_gate_the_loop_is_real(room, phrasebook, recognizer, tmp_path):
    """The same room with the gate off: the spoken translation comes back as more input,
    which shows the test above would catch a feedback loop."""
    run = converse(room, phrasebook, recognizer, tmp_path, mute=False)
    assert run.translations()[0].text == expected([SAID], "en-zh")[0]
    assert run.finals()[0].text == SAID
    assert heard_back(run), f"nothing came back from the speakers: {[f.text for f in run.finals()]}"
