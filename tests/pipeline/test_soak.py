"""A long session fed faster than real time: memory and threads stay flat, nothing is lost."""

from __future__ import annotations

import psutil
import pytest

from app.asr import StreamingRecognizer, load_whisper
from app.pipeline import PipelineConfig
from app.shared.events import Speech, Translation

from .conftest import SPOKEN_EN, Run, english, expected

pytestmark = pytest.mark.slow
ROUNDS = 4  # 4 x 6 phrases = 24 utterances


def test_soak_24_utterances(recording, phrasebook, tmp_path):
    phrases = SPOKEN_EN * ROUNDS
    wav = recording("soak", english(phrases), gap_s=0.9)
    process = psutil.Process()
    samples: list[tuple[int, int]] = []  # (rss, threads) at each final translation

    class SoakRun(Run):
        def collect(self, event) -> None:
            super().collect(event)
            if isinstance(event, Translation) and not event.provisional:
                samples.append((process.memory_info().rss, process.num_threads()))

    # tiny.en keeps this long run short; English espeak-ng speech is easy for it.
    recognizer = StreamingRecognizer(load_whisper("tiny.en"), language="en")
    config = PipelineConfig(
        direction="en-zh", nmt_models=dict(phrasebook), input_path=wav, realtime=False, tts_out=tmp_path / "speech.wav"
    )
    run = SoakRun(config, recognizer=recognizer).run(timeout=400)

    finals = run.finals()
    translated = {t.utterance_id for t in run.translations()}
    failed = {e.utterance_id for e in run.errors() if e.utterance_id is not None}
    assert len(finals) == len(phrases)
    assert {f.utterance_id for f in finals} <= translated | failed, "an utterance went missing"
    assert [t.text for t in run.translations()] == expected(phrases, "en-zh")
    assert len(run.of(Speech)) == len(phrases)
    # Flat: after a warm-up quarter, memory grows by less than 30 MB and the thread count not at all.
    warm = len(samples) // 4
    rss_growth = (samples[-1][0] - samples[warm][0]) / 2**20
    print(
        f"soak: {len(samples)} translations; RSS {samples[warm][0] / 2**20:.0f} -> {samples[-1][0] / 2**20:.0f} MB, "
        f"threads {samples[warm][1]} -> {samples[-1][1]} (max {max(t for _, t in samples[warm:])})"
    )
    assert rss_growth < 30, f"memory grew by {rss_growth:.1f} MB over {len(samples) - warm} utterances"
    assert max(t for _, t in samples[warm:]) <= samples[warm][1], [t for _, t in samples]
