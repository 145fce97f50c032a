"""Narrowband input (app.asr.band): a telephone line's speech, which Silero hears less surely, is
found narrowband and cut with the lower voice-gate threshold; wideband speech and low hums are not."""

from __future__ import annotations

import numpy as np
import pytest

from app.asr import StreamingRecognizer
from app.asr.band import BandWatch
from app.shared.audio import SAMPLE_RATE
from asr.conftest import read16k, silence

pytestmark = pytest.mark.slow


def through_a_telephone(audio: np.ndarray) -> np.ndarray:
    from bench import degrade  # lazy: the bench's telephone band (sox, 300-3400 Hz at 8 kHz)

    return degrade.telephone(audio, degrade.speech_power([audio]), np.random.default_rng(41)).astype(np.float32)


def the_navy_sentence() -> np.ndarray:
    """A real voice (codec2-examples, 8 kHz): "The Navy attacked the big task force."."""
    from bench import rooms  # lazy: the bench's reader of the installed recordings

    return np.concatenate([silence(1.0), rooms.human_clip(rooms.HUMAN[0]), silence(1.0)]).astype(np.float32)


def narrow_frames(audio: np.ndarray, block: int) -> list[bool]:
    """BandWatch's verdict at the end of every 32 ms frame, fed `audio` in blocks of `block` samples."""
    watch, verdicts = BandWatch(), []
    for start in range(0, len(audio), block):
        watch.feed(audio[start : start + block])
    for end in range(512, len(audio) + 1, 512):
        verdicts.append(watch.narrow_at(end))
    return verdicts


def test_a_real_voice_through_a_telephone_band_is_heard_to_its_end(base):
    """Through a telephone band Silero gave "the big task force" under 0.5: with the wideband gate
    the final was "Navy attacked." and the rest was never heard."""
    recognizer = StreamingRecognizer(base, language="en")
    audio = through_a_telephone(the_navy_sentence())
    events = []
    for start in range(0, len(audio), 1600):
        events += recognizer.feed(audio[start : start + 1600], None)
    events += recognizer.flush()
    heard = " ".join(e.text for e in events if e.type == "final").lower()
    assert "task force" in heard, heard


def test_telephone_speech_is_found_narrowband_within_two_seconds_whatever_the_blocks():
    audio = through_a_telephone(the_navy_sentence())
    verdicts = narrow_frames(audio, 1600)
    assert verdicts.index(True) * 512 < 3.0 * SAMPLE_RATE  # 1 s of silence first
    assert all(verdicts[verdicts.index(True) :])
    for block in (160, 512, 4000, len(audio)):
        assert narrow_frames(audio, block) == verdicts, block


def test_wideband_speech_and_a_mains_hum_are_not_narrowband(say):
    speech = read16k(say("Please leave your coat by the door, the bus to the airport leaves every hour."))
    seconds = np.arange(5 * SAMPLE_RATE) / SAMPLE_RATE
    hum = (0.3 * np.sin(2 * np.pi * 50 * seconds) + 0.1 * np.sin(2 * np.pi * 150 * seconds)).astype(np.float32)
    assert not any(narrow_frames(speech, 1600))
    assert not any(narrow_frames(hum, 1600)), "a hum has nothing above 4 kHz, and nothing in the voice band"
