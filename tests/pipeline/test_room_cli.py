"""`run --json` says what is wrong with the input (a `room` event) and writes no phantom text:
a recording of speech, then a microphone delivering only zeros, then an overdriven one (noise
clipped flat at full scale), a DC offset, a mains hum, then speech again, through the real pipeline (Whisper base, the
phrasebook model)."""

from __future__ import annotations

import numpy as np
import pytest
import soundfile as sf

from app.shared.audio import SAMPLE_RATE
from tests.app_run import run_cli

from .conftest import english, read16k

pytestmark = pytest.mark.slow


def hiss(n: int, db: float = -60) -> np.ndarray:
    """A microphone's own noise: never exact zeros."""
    return (np.random.default_rng(3).standard_normal(n) * 10 ** (db / 20)).astype(np.float32)


def test_zeros_and_clipping_are_told_and_heard_as_nothing(recording, phrasebook, tmp_path):
    speech = read16k(recording("room", english(["Good morning.", "Thank you very much."]), gap_s=1.0))
    speech = speech + hiss(len(speech))
    zeros = np.zeros(6 * SAMPLE_RATE, np.float32)
    overdriven = np.clip(np.random.default_rng(4).standard_normal(6 * SAMPLE_RATE) * 3, -1, 1).astype(np.float32)
    dc = 0.3 + hiss(6 * SAMPLE_RATE)
    seconds = np.arange(6 * SAMPLE_RATE) / SAMPLE_RATE
    hum = (0.3 * np.sin(2 * np.pi * 50 * seconds) + 0.1 * np.sin(2 * np.pi * 150 * seconds)).astype(np.float32)
    wav = tmp_path / "room.wav"
    # A quiet gap before the hum: a window half offset, half hum reads as neither (noisy, rightly).
    bad = [zeros, overdriven, dc, hiss(4 * SAMPLE_RATE), hum, hiss(2 * SAMPLE_RATE)]
    sf.write(wav, np.concatenate([speech, *bad, speech]), SAMPLE_RATE)

    code, lines, stderr = run_cli(
        "--input", str(wav), "--json", "--direction", "en-zh", "--nmt-model", str(phrasebook["en-zh"]), "--no-tts"
    )

    assert code == 0, stderr
    rooms = [e for e in lines if e["type"] == "room"]
    problems = [e["problem"] for e in rooms if e["problem"] != "ok"]
    assert problems[:4] == ["zeros", "clipping", "dc-offset", "hum"], rooms
    zeros_at = 2 * len(speech) / SAMPLE_RATE  # rough bounds: each told within the stretch that has it
    assert len(speech) / SAMPLE_RATE < rooms[0]["at_s"] < zeros_at / 2 + 6 + 1
    assert rooms[1]["hint"].startswith("Lower the input gain")
    finals = [e for e in lines if e["type"] == "final" and e["text"].strip()]
    # Whisper base spells the first "Good morning" variously; what matters: no text was made up
    # of the zeros or the clipping, every final lies within the speech.
    assert len(finals) == 4, [e["text"] for e in finals]
    assert "very much" in finals[1]["text"] and "very much" in finals[3]["text"]
    speech_s = len(speech) / SAMPLE_RATE
    bad_s = sum(len(part) for part in bad) / SAMPLE_RATE
    assert all(e["end"] <= speech_s + 0.5 or e["start"] >= speech_s + bad_s - 0.5 for e in finals), finals
