"""Speaking into a call: `run --conversation --speak me --speak-into virtual-mic`, end to end through
a private PulseAudio server (SoundRoom), real Whisper and the phrasebook models.

My speech is played into the test microphone; a recorder on live_translator_mic (where a call
app would listen) captures what the app says it spoke (`speech` events). The call app's echo is
played too: live_translator_mic looped back into the speakers, whose monitor is the app's
system audio ("them"). Checks:
- zh->en: Whisper's transcription of the recording against the spoken texts, WER <= 0.3;
- en->zh: every spoken translation arrives (voiced audio of about its length, in its place);
- my microphone hears none of it (one final per sentence I said), their side recognises
  nothing of the echo, and the sink and source are gone once the run ends.
- `run --input FILE --speak-into virtual-mic` speaks every translation there; a device that
  does not exist: an error naming it, every translation still printed.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys

import jiwer
import numpy as np
import pytest
from audio.recorder import Recorder, voiced_seconds

from app.shared.audio import SAMPLE_RATE
from app.tts import SpeechOutput
from tests.app_run import AppRun
from tests.waiting import wait_until

from .conftest import chinese, english, read16k

pytestmark = pytest.mark.slow

MIC = "live_translator_mic"


def call(sound_room, recording, phrasebook, app_run, direction: str, lines: list[tuple[str, str]]):
    """A conversation with the call set-up: I speak `lines` (in `direction`'s source language)."""
    speech = recording(f"call-{direction}", lines, gap_s=2.0)
    run = app_run(
        "--conversation",
        "--direction",
        direction,
        "--speak",
        "me",
        "--speak-into",
        "virtual-mic",
        "--nmt-model",
        str(phrasebook["en-zh"]),
        "--nmt-model",
        str(phrasebook["zh-en"]),
    )
    run.wait_running(lanes=2)
    sound_room.wait_heard("mic.monitor", "speakers.monitor")
    assert MIC in sound_room.pactl("list", "short", "sources"), run.lines
    # the call app plays what it hears from us back into the speakers (their side): an echo
    echo = sound_room.load("module-loopback", f"source={MIC}", "sink=speakers", "latency_msec=60")
    with Recorder(MIC) as recorder, Recorder("speakers.monitor") as their_side:
        sound_room.play_to("mic", speech).wait(timeout=60)
        said = len(lines)
        run.wait_for(lambda: len(run.of("speech")) >= said, "every translation spoken", 180)
        # The last echo is back (1 s after it was spoken: 60 ms of loop): what their side heard of it
        # is finalised when the run stops (SIGINT), so a recognised echo would show.
        their_side.wait_recorded_until(run.of("speech")[-1]["emitted_at"] + 1.0)
    code, stderr = run.finish(signal.SIGINT)
    sound_room.pactl("unload-module", str(echo))  # the test's own; only the app's must be gone
    assert code == 0, stderr
    assert voiced_seconds(their_side.audio) > 0.5, "the echo never reached system audio: the loop check checks nothing"
    return run, recorder


def check_no_loop_and_cleaned_up(run: AppRun, sound_room, said: int) -> None:
    assert len(run.of("final", "me")) == said, f"my microphone heard more than I said: {run.of('final', 'me')}"
    assert run.of("final", "them") == [], f"the call's echo of my translation was recognised: {run.of('final', 'them')}"
    assert all(e["speaker"] == "me" for e in run.of("speech"))
    assert "live_translator" not in sound_room.pactl("list", "short", "modules")
    assert MIC not in sound_room.pactl("list", "short", "sources")


def test_my_english_translation_reaches_the_call_and_nothing_comes_back(
    sound_room, recording, phrasebook, whisper_base, app_run
):
    lines = chinese()[:3]
    run, recorder = call(sound_room, recording, phrasebook, app_run, "zh-en", lines)
    spoken = [e["text"] for e in run.of("speech")]
    assert len(spoken) == len(lines) and all(e["language"] == "en" for e in run.of("speech"))
    # condition_on_previous_text off: Whisper then does not repeat a sentence into the silence after it
    segments, _ = whisper_base.transcribe(recorder.audio, language="en", beam_size=1, condition_on_previous_text=False)
    heard = " ".join(s.text for s in segments)
    normalise = jiwer.Compose(
        [
            jiwer.ToLowerCase(),
            jiwer.ExpandCommonEnglishContractions(),
            jiwer.RemovePunctuation(),
            jiwer.RemoveMultipleSpaces(),
            jiwer.Strip(),
            jiwer.ReduceToListOfListOfWords(),
        ]
    )
    error = jiwer.wer(" ".join(spoken), heard, reference_transform=normalise, hypothesis_transform=normalise)
    assert error <= 0.3, f"spoken {spoken}, the call heard {heard!r} (WER {error:.2f})"
    check_no_loop_and_cleaned_up(run, sound_room, len(lines))


def expected_voiced(texts: list[str], language: str, folder) -> list[float]:
    """How long each text sounds when the app's own engine says it (voiced seconds)."""
    lengths = []
    for i, text in enumerate(texts):
        path = folder / f"expected-{i}.wav"
        output = SpeechOutput(out_path=path)
        output.start()
        output.say(text, language)
        assert output.wait_idle(60)
        output.stop()
        lengths.append(voiced_seconds(read16k(path)))
    return lengths


def test_every_chinese_translation_of_mine_arrives_in_the_call(sound_room, recording, phrasebook, tmp_path, app_run):
    lines = english()[:3]
    run, recorder = call(sound_room, recording, phrasebook, app_run, "en-zh", lines)
    events = run.of("speech")
    assert len(events) == len(lines) and all(e["language"] == "zh" for e in events)
    expected = expected_voiced([e["text"] for e in events], "zh", tmp_path)
    # Played one after another: each one's sound arrives after the one before was reported spoken.
    previous = recorder.blocks[0][0] - 1.0
    for event, length in zip(events, expected, strict=True):
        arrived = voiced_seconds(recorder.between(previous - 0.2, event["emitted_at"] + 0.5))
        assert 0.6 * length <= arrived <= 1.5 * length + 0.2, (
            f"{event['text']!r}: {arrived:.2f} s of {length:.2f} s arrived"
        )
        previous = event["emitted_at"]
    check_no_loop_and_cleaned_up(run, sound_room, len(lines))


def test_run_input_speaks_every_translation_into_the_virtual_microphone(sound_room, recording, phrasebook, app_run):
    lines = english()[:3]
    speech = recording("call-input", lines, gap_s=1.0)
    run = app_run(
        "--input",
        str(speech),
        "--direction",
        "en-zh",
        "--speak-into",
        "virtual-mic",
        "--realtime",
        "--nmt-model",
        str(phrasebook["en-zh"]),
    )
    wait_until(
        lambda: MIC in sound_room.pactl("list", "short", "sources") or run.proc.poll() is not None,
        "the virtual microphone (or the run's end)",
        180,
    )
    with Recorder(MIC) as recorder:
        code, stderr = run.finish(timeout=240)
    assert code == 0, stderr
    translations = [e["text"] for e in run.translations()]
    assert [e["text"] for e in run.of("speech")] == translations and len(translations) == len(lines)
    assert voiced_seconds(recorder.audio) > 0.5 * len(lines)
    assert "live_translator" not in sound_room.pactl("list", "short", "modules")


def test_a_device_that_does_not_exist_is_named_and_translation_goes_on(sound_room, recording, phrasebook):
    speech = recording("call-missing", english()[:2], gap_s=1.0)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "app",
            "run",
            "--input",
            str(speech),
            "--direction",
            "en-zh",
            "--speak-into",
            "Headphones",
            "--nmt-model",
            str(phrasebook["en-zh"]),
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=400,
    )
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    errors = [e for e in lines if e["type"] == "error"]
    assert errors and "'Headphones' does not exist" in errors[0]["text"] and errors[0]["stage"] == "tts"
    assert len([e for e in lines if e["type"] == "translation" and not e["provisional"]]) == 2
    assert not [e for e in lines if e["type"] == "speech"]
    assert done.returncode == 1  # errors make the exit code 1, as before


def test_recordings_have_sound():  # the helper itself: a silent recording counts no voiced time
    assert voiced_seconds(np.zeros(SAMPLE_RATE, np.float32)) == 0.0
    assert voiced_seconds(np.full(SAMPLE_RATE, 0.5, np.float32)) == 1.0


def test_two_runs_share_the_microphone_beside_the_users_own_sink(sound_room, recording, phrasebook, app_run):
    """The user has a sink named live_translator_sink of their own. Two runs speak into the virtual
    microphone; the one that made it ends first, and the other's translations still reach the call.
    Then another program removes it: the next translation is an error, not a silent `speech`."""
    users = sound_room.load(
        "module-null-sink", "sink_name=live_translator_sink", "sink_properties=device.description=Mine"
    )
    args = ("--direction", "en-zh", "--speak-into", "virtual-mic", "--nmt-model", str(phrasebook["en-zh"]))
    first = app_run(*args)
    first.wait_running()
    sound_room.wait_heard("mic.monitor")
    second = app_run(*args)
    second.wait_running()
    sound_room.wait_heard("mic.monitor", streams=2)
    ours = [m for m in sound_room.pactl("list", "short", "modules").splitlines() if "live_translator.pid" in m]
    assert len(ours) == 2 and "sink_name=live_translator_sink_2 " in ours[0], ours
    code, stderr = first.finish(signal.SIGINT)
    assert code == 0, stderr
    assert MIC in sound_room.pactl("list", "short", "sources"), "the first run removed the second's microphone"
    with Recorder(MIC) as recorder, Recorder("live_translator_sink.monitor") as users_sink:
        sound_room.play_to("mic", recording("shared", english()[:1])).wait(timeout=60)
        second.wait_for(lambda: len(second.of("speech")) >= 1, "the second run's translation spoken", 120)
        # the second run's translation reached the call (if not: where it went, for the next failure).
        # All of "早上好。" is 0.52 s voiced in 20 ms frames; where the frames fall can make it 0.50.
        recorder.wait_for_voiced(
            0.25,
            seen=lambda: (
                f"the user's sink {voiced_seconds(users_sink.audio):.2f} s voiced",
                sound_room.pactl("list", "short", "sink-inputs"),
                second.lines[-4:],
            ),
        )
        recorder.wait_for_sound_to_end()  # and the user's sink was listened to as long as it spoke
    assert voiced_seconds(users_sink.audio) == 0.0, "speech went into the user's own sink"
    for module in reversed(ours):  # another program unloads the microphone
        sound_room.pactl("unload-module", module.split()[0])
    sound_room.play_to("mic", recording("gone", english()[1:2])).wait(timeout=60)
    second.wait_for(lambda: second.of("error"), "the second run's error", 120)
    code, stderr = second.finish(signal.SIGINT)
    errors = second.of("error")
    assert len(second.of("speech")) == 1 and len(second.translations()) == 2, second.lines
    assert errors[0]["stage"] == "tts" and "virtual microphone live_translator_mic went away" in errors[0]["text"]
    assert errors[0]["utterance_id"] == second.translations()[1]["utterance_id"]
    assert code == 1, stderr  # an error was reported, as with any other
    modules = sound_room.pactl("list", "short", "modules")
    assert "live_translator.pid" not in modules and f"{users}\tmodule-null-sink" in modules
