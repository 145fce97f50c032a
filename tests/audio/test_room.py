"""What the input sounds like (app/audio/room.py), measured on real sound: espeak-ng speech made
quiet, clipped or noisy, a microphone delivering zeros, a DC offset, mains hum; and a quiet room
or clean speech, which must say nothing."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest

from app.audio.room import RoomWatch, read
from app.shared.audio import SAMPLE_RATE
from app.shared.events import Room, RoomProblem


@pytest.fixture(scope="module")
def speech(tmp_path_factory) -> np.ndarray:
    """Three sentences of espeak-ng English with short pauses, peaks at about -3 dBFS."""
    from faster_whisper import decode_audio

    wav = tmp_path_factory.mktemp("room") / "talk.wav"
    text = "Thank you for coming today. The museum is closed on Tuesdays. Please leave your coat by the door."
    subprocess.run(["espeak-ng", "-v", "en-us", "-w", str(wav), text], check=True)
    audio = decode_audio(str(wav), sampling_rate=SAMPLE_RATE)
    return (audio / np.max(np.abs(audio)) * 0.7).astype(np.float32)


def pink(n: int, seed: int = 1) -> np.ndarray:
    spectrum = np.fft.rfft(np.random.default_rng(seed).standard_normal(n))
    f = np.fft.rfftfreq(n, 1 / SAMPLE_RATE)
    spectrum[f < 20] = 0
    spectrum[f >= 20] /= np.sqrt(f[f >= 20])
    noise = np.fft.irfft(spectrum, n)
    return (noise / np.sqrt(np.mean(noise**2))).astype(np.float32)


def told(audio: np.ndarray) -> list[Room]:
    watch = RoomWatch()
    events = []
    for start in range(0, len(audio), 1600):  # 0.1 s blocks, as the capture loop delivers them
        events += watch.feed(audio[start : start + 1600])
    return events


def problems(audio: np.ndarray) -> list[str]:
    return [e.problem.value for e in told(audio)]


def with_room_hiss(audio: np.ndarray, db: float = -65) -> np.ndarray:
    """A real microphone's own hiss under everything (never exact zeros)."""
    return audio + pink(len(audio), seed=7) * 10 ** (db / 20)


def test_clean_speech_and_a_quiet_room_say_nothing(speech):
    assert problems(with_room_hiss(np.tile(speech, 2))) == []
    assert problems(with_room_hiss(np.zeros(10 * SAMPLE_RATE, np.float32))) == []


def test_a_quiet_speaker_is_told_to_come_closer(speech):
    events = told(with_room_hiss(np.tile(speech, 2) * 10 ** (-40 / 20), db=-90))
    assert [e.problem for e in events] == [RoomProblem.QUIET]
    assert events[0].measured < -45 and "closer" in events[0].hint


def test_an_overdriven_microphone_is_clipping(speech):
    loud = np.clip(speech * 8, -1, 1)
    events = told(with_room_hiss(np.tile(loud, 2)))
    assert [e.problem for e in events] == [RoomProblem.CLIPPING]
    assert "gain" in events[0].hint


def test_speech_under_loud_noise_is_noisy_and_a_quieter_room_is_not(speech):
    power = np.mean(speech[np.abs(speech) > 1e-3] ** 2)
    talk = np.tile(speech, 2)
    noisy = talk + pink(len(talk)) * np.sqrt(power / 10 ** (5 / 10))  # SNR 5 dB
    fine = talk + pink(len(talk)) * np.sqrt(power / 10 ** (30 / 10))  # SNR 30 dB
    events = told(noisy)
    assert [e.problem for e in events] == [RoomProblem.NOISY]
    assert events[0].measured < 15
    assert problems(fine) == []


def test_a_muted_microphone_then_speech_again_says_zeros_then_ok(speech):
    audio = np.concatenate(
        [with_room_hiss(speech), np.zeros(6 * SAMPLE_RATE, np.float32), with_room_hiss(np.tile(speech, 3))]
    )
    events = told(audio)
    assert [e.problem for e in events] == [RoomProblem.ZEROS, RoomProblem.OK]
    assert events[0].at_s < events[1].at_s


def test_a_dc_offset_and_mains_hum_are_told(speech):
    talk = with_room_hiss(np.tile(speech, 2))
    assert problems(talk * 0.5 + 0.2) == ["dc-offset"]
    t = np.arange(len(talk)) / SAMPLE_RATE
    assert problems(talk * 0.05 + 0.3 * np.sin(2 * np.pi * 50 * t).astype(np.float32)) == ["hum"]


def test_a_door_thudding_now_and_then_is_not_mains_hum():
    # A low boom of 0.3 s at 60 Hz every 2.5 s in a quiet room (bench/degrade.py's "door") read as hum.
    audio = with_room_hiss(np.zeros(12 * SAMPLE_RATE, np.float32), db=-50)
    t = np.arange(int(0.3 * SAMPLE_RATE)) / SAMPLE_RATE
    thud = (np.sin(2 * np.pi * 60 * t) * np.exp(-15 * t) * 0.5).astype(np.float32)
    for start in range(SAMPLE_RATE, len(audio) - len(thud), int(2.5 * SAMPLE_RATE)):
        audio[start : start + len(thud)] += thud
    assert "hum" not in problems(audio)
    steady = audio + 0.05 * np.sin(2 * np.pi * 60 * np.arange(len(audio)) / SAMPLE_RATE).astype(np.float32)
    assert problems(steady) == ["hum"]  # the same room with a hum that goes on


def test_low_rumble_is_not_a_dc_offset():
    rumble = pink(8 * SAMPLE_RATE) * 0.3
    assert read(rumble).dc == 0.0


def test_a_room_event_in_json_names_the_problem_and_what_to_do():
    event = Room.of(RoomProblem.NOISY, 4.2, at_s=12.0)
    data = event.to_json()
    assert data == {
        "type": "room",
        "emitted_at": event.emitted_at,
        "problem": "noisy",
        "measured": 4.2,
        "at_s": 12.0,
        "text": "The room is noisy: speech is only 4.2 dB above the noise.",
        "hint": "Move the microphone closer to the speaker or away from the noise (a fan, a road).",
    }
