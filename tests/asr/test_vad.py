"""Streaming Silero VAD: same probabilities as faster-whisper's whole-file run, speech vs not."""

import itertools

import numpy as np
from faster_whisper.vad import get_vad_model

from app.asr.options import RecognizerOptions
from app.asr.segmenter import Segmenter
from app.asr.vad import FRAME, SileroVAD, VoiceGate
from app.shared.audio import SAMPLE_RATE

from .conftest import read16k, silence


def test_streaming_in_any_block_sizes_equals_the_whole_file(say):
    audio = np.concatenate([silence(0.3), read16k(say("Welcome to the meeting.")), silence(0.5)])
    whole = get_vad_model()(audio[: len(audio) // FRAME * FRAME]).reshape(-1)
    vad, rng, parts, i = SileroVAD(), np.random.default_rng(0), [], 0
    while i < len(audio):
        step = int(rng.integers(1, 3000))
        parts.append(vad(audio[i : i + step]))
        i += step
    streamed = np.concatenate(parts)
    assert len(streamed) == len(whole)
    np.testing.assert_allclose(streamed, whole, atol=1e-5)
    assert whole.max() > 0.9 and whole[:5].max() < 0.5  # speech found, leading silence not


def test_reset_forgets_the_state(say):
    audio = read16k(say("Good morning."))
    vad = SileroVAD()
    first = vad(audio)
    vad.reset()
    np.testing.assert_allclose(vad(audio), first, atol=1e-6)


def test_silence_and_noise_are_not_speech():
    rng = np.random.default_rng(1)
    white = (rng.standard_normal(16000 * 3) * 0.05).astype(np.float32)
    hum = (0.3 * np.sin(2 * np.pi * 50 * np.arange(16000 * 3) / 16000)).astype(np.float32)
    for audio in (silence(3), white, hum):
        assert SileroVAD()(audio).max() < 0.5


def test_gate_hysteresis_and_end_after_silence():
    gate = VoiceGate(threshold=0.5, min_silence_frames=3)
    states = [gate.update(p) for p in [0.1, 0.6, 0.4, 0.2, 0.4, 0.2, 0.2, 0.9, 0.1, 0.1, 0.1, 0.1]]
    # 0.4 right after speech keeps it; once silence began, 0.4 does not end the silence run.
    assert states == [None, "start", "speech", None, None, "end", None, "start", None, None, "end", None]


def bad_input_then(speech: np.ndarray) -> np.ndarray:
    """A microphone going wrong for half a minute (zeros, clipped noise, a DC offset, mains hum, each
    with its own hiss between), then someone speaking."""
    rng = np.random.default_rng(4)
    seconds = np.arange(6 * 16000) / 16000

    def hiss(s: float) -> np.ndarray:
        return (rng.standard_normal(int(s * 16000)) * 1e-3).astype(np.float32)

    clipped = np.clip(rng.standard_normal(6 * 16000) * 3, -1, 1)
    hum = 0.3 * np.sin(2 * np.pi * 50 * seconds) + 0.1 * np.sin(2 * np.pi * 150 * seconds)
    parts = [silence(6), clipped, 0.3 + hiss(6), hiss(4), hum, hiss(1.5), speech]
    return np.concatenate(parts).astype(np.float32)


def test_speech_after_a_long_bad_input_is_found_and_blocks_still_do_not_matter(say):
    morning = read16k(say("Good morning."))
    audio = bad_input_then(morning)
    probs = SileroVAD()(audio)
    # The state carried through the bad half minute kept this under 0.4: the sentence was lost.
    assert probs[-(len(morning) // FRAME) :].max() > 0.9
    vad, rng, parts, i = SileroVAD(), np.random.default_rng(5), [], 0
    while i < len(audio):
        step = int(rng.integers(1, 6000))
        parts.append(vad(audio[i : i + step]))
        i += step
    np.testing.assert_allclose(np.concatenate(parts), probs, atol=1e-6)


def short_burst(say) -> np.ndarray:
    """The first 0.16 s of a spoken "Hey": speech to Silero, too short to be an utterance."""
    hey = read16k(say("Hey"))
    return hey[np.argmax(np.abs(hey) > 0.01) :][: int(0.16 * SAMPLE_RATE)]


def utterance_spans(audio: np.ndarray) -> list[tuple[float, float]]:
    """(start, end) in seconds of the utterances the segmenter cuts `audio` into (0.1 s blocks)."""
    segmenter, ended = Segmenter(RecognizerOptions(), itertools.count()), []
    for start in range(0, len(audio), 1600):
        ended += segmenter.add(audio[start : start + 1600], 0.0)
    return [(e.utterance.start / SAMPLE_RATE, e.end / SAMPLE_RATE) for e in ended]


def test_a_burst_too_short_for_speech_starts_the_speech_right_after_it(say):
    """Through a telephone band "Front," had 0.16 s of speech frames before "center.": alone too short
    to be speech, it was dropped and the utterance after it started without it. A burst that short
    now starts the next utterance when that starts within half a second of it; further away (a
    cough, a click) it is still nothing."""
    burst, sentence = short_burst(say), read16k(say("Please leave your coat by the door."))
    for gap_s, starts_with_it in ((0.55, True), (2.0, False)):
        audio = np.concatenate([silence(1.0), burst, silence(gap_s), sentence, silence(1.0)])
        spans = utterance_spans(audio)
        assert len(spans) == 1, spans
        assert (spans[0][0] < 1.0) == starts_with_it, spans


def test_short_bursts_in_a_row_keep_no_more_than_two_seconds_of_audio(say):
    """Bursts each too short to be speech, each within half a second of the one before (typing,
    clicks): none is an utterance, and what is kept of them for the next one stays bounded."""
    burst = short_burst(say)
    audio = np.concatenate([np.concatenate([burst, silence(0.6)]) for _ in range(30)])
    segmenter, ended, kept = Segmenter(RecognizerOptions(), itertools.count()), [], 0
    for start in range(0, len(audio), 1600):
        ended += segmenter.add(audio[start : start + 1600], 0.0)
        kept = max(kept, len(segmenter.audio(0, segmenter.samples)))
    assert ended == []
    assert kept <= 4 * SAMPLE_RATE  # 2 s of them, the pause after, the burst in progress: not all 20 s
