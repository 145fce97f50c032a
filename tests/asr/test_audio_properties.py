"""Property-based tests (Hypothesis): audio of any length, sample rate, depth and channel count,
as soundfile writes it, read by FileSource and recognised by the streaming recognizer.

The invariant: 16 kHz mono float32 of the right duration, or a LiveTranslatorError with a
message; the recognizer returns events (or none) and never raises. Bounded examples: the
recognizer sees short clips only, so Whisper runs little.
"""

from __future__ import annotations

import numpy as np
import pytest
import soundfile as sf
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.asr import StreamingRecognizer
from app.audio import SAMPLE_RATE, FileSource
from app.shared.errors import LiveTranslatorError
from app.shared.events import SourceFinal, SourcePartial

FORMATS = {  # container -> subtypes soundfile writes into it
    "WAV": ["PCM_U8", "PCM_16", "PCM_24", "PCM_32", "FLOAT", "DOUBLE", "ULAW", "ALAW"],
    "FLAC": ["PCM_16", "PCM_24"],
    "OGG": ["VORBIS"],
}
RATES = [1000, 8000, 11025, 16000, 22050, 44100, 48000, 96000]
CASES = settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@st.composite
def recordings(draw, max_seconds: float = 2.0):
    container = draw(st.sampled_from(sorted(FORMATS)))
    subtype = draw(st.sampled_from(FORMATS[container]))
    rate = draw(st.sampled_from(RATES))
    if container == "OGG":
        rate = max(rate, 8000)  # vorbis rejects lower rates at write time
    channels = draw(st.integers(1, 2 if container == "OGG" else 6))
    frames = draw(st.integers(0, int(max_seconds * rate)))
    kind = draw(st.sampled_from(["silence", "noise", "tone", "clipped"]))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    t = np.arange(frames) / rate
    if kind == "silence":
        audio = np.zeros((frames, channels))
    elif kind == "noise":
        audio = rng.uniform(-0.5, 0.5, (frames, channels))
    elif kind == "tone":
        audio = np.tile((0.3 * np.sin(2 * np.pi * 440 * t))[:, None], (1, channels))
    else:
        audio = np.clip(rng.standard_normal((frames, channels)) * 3, -1, 1)
    return container, subtype, rate, audio


def write(path, container, subtype, rate, audio):
    try:
        sf.write(str(path), audio, rate, subtype=subtype, format=container)
    except (sf.LibsndfileError, RuntimeError, ValueError) as error:
        pytest.skip(f"soundfile cannot write {container}/{subtype} at {rate} Hz: {error}")  # never seen; named
    return path


@CASES
@given(case=recordings())
def test_any_recording_reads_as_16k_mono_or_is_refused_in_words(tmp_path, case):
    container, subtype, rate, audio = case
    path = write(tmp_path / f"clip.{container.lower()}", container, subtype, rate, audio)
    source = FileSource(path, realtime=False)
    try:
        source.start()
    except LiveTranslatorError as error:
        assert str(path) in error.message and error.hint
        assert len(audio) == 0 or container == "OGG", f"a readable file was refused: {error.message}"
        return
    blocks = []
    while (block := source.read()) is not None:
        blocks.append(block)
    samples = np.concatenate(blocks) if blocks else np.zeros(0, np.float32)
    assert samples.dtype == np.float32 and samples.ndim == 1 and np.isfinite(samples).all()
    expected = len(audio) / rate * SAMPLE_RATE
    assert abs(len(samples) - expected) <= 0.05 * expected + SAMPLE_RATE * 0.05 + 2000 * (container == "OGG")
    assert np.abs(samples).max(initial=0.0) <= 1.5


@pytest.mark.parametrize("size", [0, 1, 44, 100])
def test_a_cut_or_empty_file_is_refused_in_words(tmp_path, size):
    whole = write(tmp_path / "whole.wav", "WAV", "PCM_16", 16000, np.zeros(16000))
    cut = tmp_path / "cut.wav"
    cut.write_bytes(whole.read_bytes()[:size])
    source = FileSource(cut, realtime=False)
    try:
        source.start()
    except LiveTranslatorError as error:
        assert str(cut) in error.message
        return
    assert source.duration <= max(size - 44, 0) / 2 / 16000 + 1e-3  # what survived the cut, no more


@settings(
    max_examples=8,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(case=recordings(max_seconds=3.0), block_s=st.sampled_from([0.01, 0.1, 0.5, 1.3]))
def test_the_recognizer_takes_any_recording_in_any_block_size(tiny_en, tmp_path, case, block_s):
    container, subtype, rate, audio = case
    path = write(tmp_path / f"clip.{container.lower()}", container, subtype, rate, audio)
    source = FileSource(path, realtime=False, block_s=block_s)
    try:
        source.start()
    except LiveTranslatorError:
        return
    recognizer = StreamingRecognizer(tiny_en, language="en")
    events = []
    while (block := source.read()) is not None:
        events += recognizer.feed(block)
    events += recognizer.flush()
    assert all(isinstance(e, (SourcePartial, SourceFinal)) for e in events)
    assert all(0.0 <= e.start <= e.end <= source.duration + 0.05 for e in events)
