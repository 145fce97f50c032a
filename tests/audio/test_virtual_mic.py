"""The virtual microphone (app.audio.virtual_mic) and speech on a chosen output (app.audio.outputs),
through a private PulseAudio server (SoundRoom: `speakers` and `mic` null sinks of the user's own).

- live_translator_mic appears with its description, carries what is played into it, is listed
  by `devices --json`, and is gone after close(); the user's devices and defaults are untouched.
- A run killed with -9 leaves its modules; the next start removes exactly those.
- Bad input: no sound server, a module the server refuses, a device that does not exist: a
  LiveTranslatorError naming it; through SpeechOutput an Error event, and nothing else stops.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pytest

from app.audio.outputs import DeviceOutput, find_output_device
from app.audio.virtual_mic import SOURCE_DESCRIPTION, SOURCE_NAME, VirtualMicOutput, VirtualMicrophone
from app.shared.errors import LiveTranslatorError
from app.shared.events import Error, Speech
from app.tts import SpeechOutput

from .recorder import Recorder, voiced_seconds

ROOT = Path(__file__).resolve().parents[2]


def our_modules(room) -> list[str]:
    return [line for line in room.pactl("list", "short", "modules").splitlines() if "live_translator.pid" in line]


def user_devices(room) -> tuple[str, str, str, str]:
    return (
        room.pactl("list", "short", "sinks").replace("RUNNING", "IDLE").replace("SUSPENDED", "IDLE"),
        room.pactl("get-default-sink"),
        room.pactl("get-default-source"),
        room.pactl("list", "short", "modules"),
    )


def tone(seconds: float, rate: int = 22050) -> np.ndarray:
    return (np.sin(2 * np.pi * 440 * np.arange(int(seconds * rate)) / rate) * 12000).astype(np.int16)


def devices_json(room) -> list[dict]:
    done = subprocess.run(
        [sys.executable, "-m", "app", "devices", "--json"],
        capture_output=True,
        text=True,
        env=room.env,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_the_virtual_microphone_carries_what_is_played_and_is_gone_after_close(sound_room):
    before = user_devices(sound_room)
    output = VirtualMicOutput()
    output.open()
    try:
        sources = sound_room.pactl("list", "sources")
        assert f"Name: {SOURCE_NAME}" in sources and f"Description: {SOURCE_DESCRIPTION}" in sources
        listed = devices_json(sound_room)
        assert {"id": SOURCE_NAME, "name": SOURCE_DESCRIPTION, "kind": "virtual-microphone", "default": False} in listed
        assert {"speakers", "mic"} <= {d["id"] for d in listed if d["kind"] == "speaker"}
        assert all(set(d) == {"id", "name", "kind", "default"} for d in listed)
        assert not any("live_translator" in str(d["id"]) for d in listed if d["kind"] in ("speaker", "system"))
        levels = []
        with Recorder(SOURCE_NAME) as recorder:
            output.play(tone(1.0), 22050, lambda rms, peak: levels.append(peak))
            recorder.wait_for_sound_to_end()
        assert 0.7 <= voiced_seconds(recorder.audio) <= 1.3, voiced_seconds(recorder.audio)
        assert max(levels) > 0.3 and levels[-1] == 0.0  # the meter followed, and fell back at the end
        assert sound_room.pactl("get-default-source") == before[2], "the virtual microphone must not become the default"
    finally:
        output.close()
    assert our_modules(sound_room) == []
    assert SOURCE_NAME not in sound_room.pactl("list", "short", "sources")
    assert user_devices(sound_room)[1:] == before[1:] and user_devices(sound_room)[0] == before[0]
    assert not any(d["kind"] == "virtual-microphone" for d in devices_json(sound_room))


def test_a_killed_runs_leftovers_are_removed_at_the_next_start(sound_room):
    crash = (
        "from app.audio.virtual_mic import VirtualMicrophone; import os; "
        "VirtualMicrophone().open(); os.kill(os.getpid(), 9)"
    )
    done = subprocess.run([sys.executable, "-c", crash], env={**sound_room.env, "PYTHONPATH": str(ROOT)}, timeout=60)
    assert done.returncode == -9
    assert len(our_modules(sound_room)) == 2, "the killed run left its sink and source"
    microphone = VirtualMicrophone()
    microphone.open()
    try:
        assert len(our_modules(sound_room)) == 2 and all(f"pid={os.getpid()}" in m for m in our_modules(sound_room))
    finally:
        microphone.close()
    assert our_modules(sound_room) == []
    assert {"speakers", "mic"} <= set(sound_room.pactl("list", "short", "sinks").split())


def test_my_voice_is_mixed_under_the_translation_at_the_level_asked(sound_room, say):
    microphone = VirtualMicrophone(mix_original=0.5)
    microphone.open()
    try:
        with Recorder(SOURCE_NAME) as recorder:
            recorder.wait_for_audio()
            sound_room.play_to("mic", say("Hello everyone, welcome to the meeting.")).wait(timeout=20)
            recorder.wait_for_sound_to_end()
        assert voiced_seconds(recorder.audio, 0.01) > 1.0, "my voice did not reach the virtual microphone"
    finally:
        microphone.close()
    assert our_modules(sound_room) == []


# -- bad input ------------------------------------------------------------------------------------
def test_no_sound_server_is_named(monkeypatch):
    missing = Path(tempfile.mkdtemp()) / "native"
    monkeypatch.setenv("PULSE_SERVER", f"unix:{missing}")
    with pytest.raises(LiveTranslatorError, match="no sound server answered") as error:
        VirtualMicrophone().open()
    assert str(missing) in error.value.message and "speakers" in error.value.hint


def test_a_module_the_server_refuses_is_named(sound_room, monkeypatch):
    # A server of its own that allows no module to be loaded (as a locked-down system might).
    runtime = tempfile.mkdtemp(prefix="lt-pulse-locked-")
    env = {**os.environ, "PULSE_RUNTIME_PATH": runtime, "PULSE_SERVER": f"unix:{runtime}/native"}
    subprocess.run(
        [
            "pulseaudio",
            "--daemonize=yes",
            "--exit-idle-time=-1",
            "-n",
            "--use-pid-file=yes",
            "--disallow-module-loading=yes",
            "--load=module-null-sink sink_name=speakers",
            f"--load=module-native-protocol-unix socket={runtime}/native auth-anonymous=1",
        ],
        env=env,
        check=True,
        capture_output=True,
    )
    try:
        monkeypatch.setenv("PULSE_RUNTIME_PATH", runtime)
        monkeypatch.setenv("PULSE_SERVER", env["PULSE_SERVER"])
        with pytest.raises(LiveTranslatorError, match="refused to load module-null-sink"):
            VirtualMicrophone().open()
        assert (
            "live_translator"
            not in subprocess.run(["pactl", "list", "short", "modules"], env=env, capture_output=True, text=True).stdout
        )
    finally:
        os.kill(int(Path(runtime, "pid").read_text()), 9)


def test_a_device_that_does_not_exist_is_named_with_those_that_do(sound_room):
    with pytest.raises(LiveTranslatorError, match="'Headphones' does not exist") as error:
        find_output_device("Headphones")
    assert "speakers" in error.value.message and "without speech" in error.value.hint


def test_speech_output_reports_a_missing_device_and_goes_on(sound_room):
    events = []
    output = SpeechOutput(on_event=events.append, outputs={None: DeviceOutput("Headphones")})
    output.start()
    try:
        assert output.say("Hello.", "en") or True  # accepted or not, nothing may stop
        output.wait_idle(30)
    finally:
        output.stop()
    errors = [e for e in events if isinstance(e, Error)]
    assert errors and "'Headphones'" in errors[0].text
    assert not any(isinstance(e, Speech) for e in events)


def test_speech_into_a_named_device_reaches_only_that_device(sound_room):
    events = []
    output = SpeechOutput(rate=160, on_event=events.append, outputs={None: DeviceOutput("mic")})
    output.start()
    try:
        with Recorder("mic.monitor") as into_mic, Recorder("speakers.monitor") as speakers:
            output.say("Good morning, everyone.", "en", utterance_id=1)
            assert output.wait_idle(60)
            into_mic.wait_for_sound_to_end()
    finally:
        output.stop()
    assert [e.text for e in events if isinstance(e, Speech)] == ["Good morning, everyone."]
    # English is rendered by the natural (piper) voice by default and played there like any voice
    assert [e.voice for e in events if isinstance(e, Speech)] == ["piper:en_US-joe-medium"]
    assert voiced_seconds(into_mic.audio) > 0.5
    assert voiced_seconds(speakers.audio) == 0.0, "speech went to the default output instead of the chosen one"


def test_mix_original_takes_a_level_from_0_to_1():
    done = subprocess.run(
        [sys.executable, "-m", "app", "run", "--direction", "en-zh", "--mix-original", "1.5"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 2 and "'1.5' is not a level from 0 to 1" in done.stderr


def test_speech_into_the_call_gates_system_audio_but_not_my_microphone(sound_room):
    """What goes into the call can come back only as the call app's echo (system audio), so only
    that capture is silenced meanwhile and for the echo tail; my microphone stays open."""
    from app.shared.audio import SourceKind

    output = SpeechOutput(rate=160, outputs={None: VirtualMicOutput()})
    output.start()
    try:
        output.say("Good morning, everyone.", "en")
        now = time.monotonic()
        assert output.may_be_heard_in(SourceKind.SYSTEM, now - 0.1, now)
        assert not output.may_be_heard_in(SourceKind.MICROPHONE, now - 0.1, now)
        assert output.wait_idle(60)
        done = time.monotonic()
        assert output.may_be_heard_in(SourceKind.SYSTEM, done - 0.1, done), "the call's echo tail"
        assert not output.may_be_heard_in(SourceKind.MICROPHONE, done - 0.1, done)
        time.sleep(1.6)  # time is what is tested: past the 1.5 s echo tail
        later = time.monotonic()
        assert not output.may_be_heard_in(SourceKind.SYSTEM, later - 0.05, later)
        assert output.may_be_heard_in(SourceKind.SYSTEM, done - 0.5, done - 0.4), "a block captured while it played"
    finally:
        output.stop()
    speakers = SpeechOutput(out_path=None)  # the engine's own output reaches both, as before
    speakers.say("Hello.", "en")
    now = time.monotonic()
    assert speakers.may_be_heard_in(SourceKind.MICROPHONE, now - 0.1, now)
    assert speakers.may_be_heard_in(SourceKind.SYSTEM, now - 0.1, now)


# -- a second instance, and the user's own devices -----------------------------------------------
HOLD = (
    "import sys; from app.audio.virtual_mic import VirtualMicrophone; m = VirtualMicrophone(); m.open(); "
    "print(m.source_name, flush=True); sys.stdin.readline(); m.close()"
)


def holding_instance(room) -> tuple[subprocess.Popen, str]:
    """Another process speaking into the virtual microphone until its stdin gets a line."""
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**room.env, "PYTHONPATH": str(ROOT)},
    )
    return proc, proc.stdout.readline().strip()


def test_the_microphone_stays_while_another_instance_speaks_into_it(sound_room):
    first, made = holding_instance(sound_room)
    try:
        assert made == SOURCE_NAME and len(our_modules(sound_room)) == 2
        second = VirtualMicOutput()
        second.open()
        assert second.microphone.source_name == SOURCE_NAME and len(our_modules(sound_room)) == 2, "shared, not doubled"
        first.communicate("\n", timeout=30)  # the instance that made it ends first
        assert first.returncode == 0
        assert SOURCE_NAME in sound_room.pactl("list", "short", "sources"), "removed under the second instance"
        with Recorder(SOURCE_NAME) as recorder:
            second.play(tone(1.0), 22050)
            recorder.wait_for_sound_to_end()
        assert 0.7 <= voiced_seconds(recorder.audio) <= 1.3
        second.close()
    finally:
        first.kill()
    assert our_modules(sound_room) == [], "the last instance to leave removes it"


def test_the_first_to_leave_of_two_in_one_process_keeps_it_for_the_other(sound_room):
    first, second = VirtualMicrophone(), VirtualMicrophone()
    first.open()
    second.open()
    first.close()
    assert SOURCE_NAME in sound_room.pactl("list", "short", "sources")
    second.close()
    assert our_modules(sound_room) == []


def test_a_killed_instance_leaves_the_microphone_to_the_one_still_speaking(sound_room):
    first, _ = holding_instance(sound_room)
    second = VirtualMicrophone()
    second.open()
    try:
        first.kill()
        first.wait(10)
        third = VirtualMicrophone()  # a start after the kill: the microphone is in use, not a leftover
        third.open()
        third.close()
        assert SOURCE_NAME in sound_room.pactl("list", "short", "sources")
    finally:
        second.close()
    assert our_modules(sound_room) == []


def test_a_users_own_sink_of_our_name_is_never_used(sound_room):
    users = sound_room.load(
        "module-null-sink", "sink_name=live_translator_sink", "sink_properties=device.description=Mine"
    )
    output = VirtualMicOutput()
    output.open()
    try:
        assert output.microphone.sink_name == "live_translator_sink_2" and output.device == "live_translator_sink_2"
        with Recorder(SOURCE_NAME) as ours, Recorder("live_translator_sink.monitor") as theirs:
            output.play(tone(1.0), 22050)
            ours.wait_for_sound_to_end()
        assert voiced_seconds(ours.audio) > 0.7
        assert voiced_seconds(theirs.audio) == 0.0, "speech went into the user's own sink"
        listed = devices_json(sound_room)
        assert {"live_translator_sink", "speakers"} <= {d["id"] for d in listed if d["kind"] == "speaker"}
        assert "live_translator_sink_2" not in {d["id"] for d in listed}
    finally:
        output.close()
    modules = sound_room.pactl("list", "short", "modules")
    assert f"{users}\tmodule-null-sink\tsink_name=live_translator_sink " in modules, "the user's sink was removed"
    assert our_modules(sound_room) == [] and "live_translator_sink_2" not in sound_room.pactl("list", "short", "sinks")


def test_a_microphone_removed_under_a_run_is_said_and_made_again(sound_room):
    events = []
    output = SpeechOutput(rate=170, on_event=events.append, outputs={None: VirtualMicOutput()})
    output.start()
    try:
        output.say("Good morning.", "en", utterance_id=1)
        assert output.wait_idle(60)
        for line in reversed(our_modules(sound_room)):  # another program unloads it
            sound_room.pactl("unload-module", line.split()[0])
        output.say("Are you there?", "en", utterance_id=2)
        assert output.wait_idle(60)
        assert SOURCE_NAME not in sound_room.pactl("list", "short", "sources")
        output.say("Thank you.", "en", utterance_id=3)
        assert output.wait_idle(60)
        assert SOURCE_NAME in sound_room.pactl("list", "short", "sources"), "not made again"
    finally:
        output.stop()
    assert [e.utterance_id for e in events if isinstance(e, Speech)] == [1, 3]
    errors = [e for e in events if isinstance(e, Error)]
    assert [e.utterance_id for e in errors] == [2] and f"virtual microphone {SOURCE_NAME} went away" in errors[0].text
    assert "made again" in errors[0].hint
    assert our_modules(sound_room) == []


# -- many instances starting at the same moment ---------------------------------------------------
STARTERS = 10
RACE = (
    "import os, sys, time; from app.audio.virtual_mic import VirtualMicrophone; go = sys.argv[1]\n"
    "m = VirtualMicrophone(); print('ready', flush=True)\n"
    "while not os.path.exists(go): time.sleep(0.001)\n"
    "m.open(); print(m.source_name, flush=True); sys.stdin.readline(); m.close()"
)


def test_instances_starting_together_make_one_microphone(sound_room, tmp_path):
    """Each process waits, imported and connected, for one go file, so the opens really overlap
    (30 `run`s started at once made 2-3 microphones: the second saw the first's sink without its
    source yet and made its own under `_2`)."""
    go = tmp_path / "go"
    env = {**sound_room.env, "PYTHONPATH": str(ROOT)}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", RACE, str(go)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
        )
        for _ in range(STARTERS)
    ]
    try:
        assert [proc.stdout.readline().strip() for proc in procs] == ["ready"] * STARTERS
        go.touch()
        names = {proc.stdout.readline().strip() for proc in procs}
        described = sound_room.pactl("list", "sources").count(f"Description: {SOURCE_DESCRIPTION}")
        assert (names, described, len(our_modules(sound_room))) == ({SOURCE_NAME}, 1, 2)
        for proc in procs:
            proc.stdin.write("\n")
            proc.stdin.flush()
        assert [proc.wait(60) for proc in procs] == [0] * STARTERS
    finally:
        for proc in procs:
            proc.kill()
    assert our_modules(sound_room) == [], "the last to leave removes it"
