"""System audio through a real PulseAudio server: what is played into the speakers is captured
(the speakers sink's monitor, through soundcard), listed by `devices`, and recognised; a missing
or vanishing output, and no sound server at all, are clear errors."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from asr.conftest import normalize_words

from app.asr import StreamingRecognizer, recognize
from app.audio import SOURCE_LOST, AudioBlock, SystemAudioSource, capture, list_system_devices
from app.audio import system as system_audio
from app.shared.errors import LiveTranslatorError
from app.shared.events import Error, Level, SourceFinal
from tests.waiting import wait_until

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]


def read_for(source, seconds: float) -> np.ndarray:
    blocks, end = [], time.monotonic() + seconds
    while time.monotonic() < end:
        block = source.read(0.1)
        if block is not None:
            blocks.append(block)
    return np.concatenate(blocks) if blocks else np.zeros(0, np.float32)


def test_devices_lists_microphones_and_system_audio(sound_room):
    proc = subprocess.run(
        [sys.executable, "-m", "app", "devices", "--json"], capture_output=True, text=True, timeout=60, check=True
    )
    devices = [json.loads(line) for line in proc.stdout.splitlines()]
    assert all(set(d) == {"id", "name", "kind", "default"} for d in devices), devices
    system = [d for d in devices if d["kind"] == "system"]
    assert {"id": "speakers.monitor", "name": "Monitor of Speakers", "kind": "system", "default": True} in system
    assert [d for d in system if d["default"]] == [d for d in system if d["id"] == "speakers.monitor"]
    assert any(d["kind"] == "microphone" for d in devices)
    plain = subprocess.run([sys.executable, "-m", "app", "devices"], capture_output=True, text=True, timeout=60).stdout
    assert "system     * speakers.monitor: Monitor of Speakers" in plain.splitlines()


def test_system_audio_is_listed_in_python_started_with_c(sound_room):
    """`python -c CODE` leaves sys.argv ["-c"], from which soundcard cannot name its client
    (IndexError: the sound server seemed not to answer). An embedding, a pytest-xdist worker."""
    code = "from app.audio import list_system_devices; print([d.id for d in list_system_devices()])"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0 and "speakers.monitor" in done.stdout, done.stdout + done.stderr


def test_a_sound_server_gone_under_soundcard_is_no_abort():
    """libpulse returns no operation once its connection has failed, and soundcard unrefs it
    anyway: pa_operation_unref(NULL) aborted the process (an output removed under a capture took
    a test worker with it). Asked after its server is killed, soundcard answers; nothing aborts."""
    code = textwrap.dedent("""
        import os
        from tests.asr.conftest import SoundRoom
        from tests.waiting import wait_until
        room = SoundRoom()
        room.start()
        os.environ["PULSE_SERVER"] = room.env["PULSE_SERVER"]
        from app.audio.system import connected_soundcard
        pulse = connected_soundcard().pulseaudio
        room.kill()
        ready = pulse._pa.PA_CONTEXT_READY
        wait_until(lambda: pulse._pulse._pa_context_get_state(pulse._pulse.context) != ready, "the lost connection", 10)
        print("sources after the server went:", len(pulse._pulse.source_list))
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0, f"{done.returncode}: {done.stderr[-2000:]}"
    assert "sources after the server went: 0" in done.stdout


def test_what_the_speakers_play_is_captured_and_recognised(sound_room, say, tiny_en):
    source = SystemAudioSource()  # the default output's monitor
    stop = threading.Event()
    events: list = []
    worker = threading.Thread(target=lambda: events.extend(recognize(source, StreamingRecognizer(tiny_en), stop=stop)))
    worker.start()
    try:
        # a null sink's monitor delivers its first block ~2 s after it is opened
        wait_until(lambda: any(isinstance(e, Level) for e in events), "system audio's first block (a Level event)", 10)
        sound_room.play_to("speakers", say("Hello everyone, welcome to the meeting.")).wait(timeout=20)
        wait_until(lambda: any(isinstance(e, SourceFinal) for e in events), "the final of what the speakers played", 30)
    finally:
        stop.set()
        worker.join(60)
    finals = [e.text for e in events if isinstance(e, SourceFinal) and e.text.strip()]
    assert [normalize_words(t) for t in finals] == ["hello everyone welcome to the meeting"], finals
    assert source.name == "Monitor of Speakers"


def test_audio_played_elsewhere_is_not_captured(sound_room, say):
    """The microphone sink is not system audio: only what the chosen output plays is heard."""
    source = SystemAudioSource("speakers.monitor")
    source.start()
    try:
        read_for(source, 2.5)
        sound_room.play_to("mic", say("Hello everyone, welcome to the meeting.")).wait(timeout=20)
        assert np.max(np.abs(read_for(source, 0.5)), initial=0.0) == 0.0
        sound_room.play_to("speakers", say("Hello everyone.")).wait(timeout=20)
        assert np.max(np.abs(read_for(source, 0.5)), initial=0.0) > 0.05
    finally:
        source.stop()


def test_a_system_source_that_does_not_exist_is_a_clear_error(sound_room):
    with pytest.raises(LiveTranslatorError) as error:
        SystemAudioSource("no such output").start()
    assert "'no such output' is not a system-audio source" in error.value.message
    assert "speakers.monitor: Monitor of Speakers" in error.value.message
    assert "python -m app devices" in error.value.hint


def test_output_removed_mid_capture_is_reported_and_capture_resumes(sound_room):
    source = SystemAudioSource("speakers")
    stop = threading.Event()
    items: list = []

    def run():
        for item in capture(source, stop, retry_s=0.5):
            items.append(item)

    worker = threading.Thread(target=run)
    worker.start()
    try:
        wait_until(lambda: any(isinstance(i, AudioBlock) for i in items), "system audio's first block", 10)
        sound_room.unload("speakers")
        wait_until(lambda: any(isinstance(i, Error) for i in items), "the Error of the removed output", 10)
        errors = [i for i in items if isinstance(i, Error)]
        assert SOURCE_LOST in items and errors, items[-5:]
        assert "System audio 'Monitor of Speakers' stopped" in errors[0].text
        assert "pick another output" in errors[0].hint
        # the output comes back: the capture loop finds it again
        sound_room.modules["speakers"] = sound_room.load(
            "module-null-sink", "sink_name=speakers", "sink_properties=device.description=Speakers"
        )
        wait_until(
            lambda: any(getattr(i, "detail", "") == "audio input resumed" for i in items), "capture to resume", 15
        )
    finally:
        stop.set()
        worker.join(10)


def test_no_sound_server_is_a_clear_error(sound_room, monkeypatch, tmp_path):
    monkeypatch.setenv("PULSE_SERVER", f"unix:{tmp_path}/no-server")
    with pytest.raises(LiveTranslatorError) as error:
        SystemAudioSource().start()
    assert "System audio cannot be captured" in error.value.message
    assert "--source microphone" in error.value.hint
    assert list_system_devices() == []


def test_mac_without_a_loopback_device_says_to_install_one(sound_room, monkeypatch):
    """The macOS path (a loopback input device found through PortAudio) on this machine's real
    PortAudio devices, none of which is a loopback: the message says to install BlackHole."""
    monkeypatch.setattr(system_audio, "_is_mac", lambda: True)
    with pytest.raises(LiveTranslatorError) as error:
        SystemAudioSource().start()
    assert "macOS has no loopback of its own" in error.value.message
    assert "BlackHole" in error.value.hint


def test_listen_to_a_missing_system_source_says_so_and_duration_ends_it(sound_room):
    started = time.monotonic()
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "app",
            "listen",
            "--source",
            "system",
            "--device",
            "no such output",
            "--model",
            "tiny.en",
            "--duration",
            "1.5",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1, proc.stderr  # an error was reported: the job was not done (docs/cli.md)
    events = [json.loads(line) for line in proc.stdout.splitlines()]
    errors = [e for e in events if e["type"] == "error"]
    assert len(errors) == 1 and errors[0]["stage"] == "capture"  # said once, then retried quietly
    assert "'no such output' is not a system-audio source" in errors[0]["text"]
    assert time.monotonic() - started < 100
