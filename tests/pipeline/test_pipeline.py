"""The Pipeline API through the real parts: direction switches, restarts, the saved transcript."""

from __future__ import annotations

import os
import re
import signal
import threading
import time

import pytest
import soundfile as sf

from app.audio import FileSource
from app.pipeline import PipelineConfig, Transcript
from app.pipeline.subtitles import export_srt, export_text
from app.shared.events import DecodeStepEvent, SentenceSummary, Status, Translation
from app.shared.live_text import LiveText
from app.translation import Translator
from tests.app_run import translating
from tests.waiting import wait_until

from .conftest import Run, chinese, english, expected

pytestmark = pytest.mark.slow
LATIN, CJK = re.compile(r"[A-Za-z]"), re.compile(r"[\u4e00-\u9fff]")


class PausingSource(FileSource):
    """A recording that holds back (like a quiet room) after `pause_at_s` until `resume` is set."""

    def __init__(self, path, pause_at_s: float):
        super().__init__(path, realtime=False)
        self.pause_at = int(pause_at_s * 16000)
        self.paused = threading.Event()
        self.resume = threading.Event()

    def read(self, timeout=0.1):
        if self._pos >= self.pause_at and not self.resume.is_set():
            self.paused.set()
            self.resume.wait(timeout)
            return None
        return super().read(timeout)


def test_direction_switch_mid_session(recording, phrasebook, recognizer):
    # Not the 1 s "我爱你" right after the switch: Whisper base hears espeak-ng's Mandarin there as
    # 我爱你 or 我喊你 depending on where the cut falls (accuracy is bench/asr_accuracy.py's job).
    en, zh = ["Good morning.", "I love you."], ["我不知道。", "这个多少钱？"]
    wav = recording("switch", english(en) + chinese(zh), gap_s=1.2)
    english_part = sf.info(recording("switch-en", english(en), gap_s=1.2)).duration
    source = PausingSource(wav, pause_at_s=english_part - 0.6)  # in the pause after the English part
    config = PipelineConfig(direction="en-zh", nmt_models=dict(phrasebook), tts_enabled=False)
    run = Run(config, audio_source=source, recognizer=recognizer)
    run.pipeline.start()
    try:
        wait_until(
            lambda: source.paused.is_set() and len(run.translations()) == 2, "the English part paused, translated", 120
        )
        run.pipeline.set_direction("zh-en")
        source.resume.set()
        assert run.pipeline.wait_until_done(180)
    finally:
        run.pipeline.stop()
    assert [t.text for t in run.translations()] == expected(en, "en-zh") + expected(zh, "zh-en")
    assert [t.direction for t in run.translations()] == ["en-zh"] * 2 + ["zh-en"] * 2
    # No English in the Chinese stream and no Chinese in the English one, provisional text included.
    for t in run.translations() + run.translations(provisional=True):
        foreign = CJK if t.direction == "en-zh" else LATIN  # what the source must not contain
        assert not foreign.search(t.source), t
    for t in run.translations():
        assert not (LATIN if t.direction == "en-zh" else CJK).search(t.text), t
    assert any(s.state == "direction" and s.detail == "zh-en" for s in run.of(Status))


@pytest.mark.parametrize("live_text", [LiveText.SOONER, LiveText.BALANCED])
def test_partial_text_is_translated_provisionally_then_finally(recording, phrasebook, recognizer, live_text):
    """Mid-phrase, "Where is the" is translated provisionally. The phrasebook model can only
    guess the rest, and is unsure from its first token: "sooner" shows the guess, the default
    shows nothing of it (only what the model is sure of)."""
    phrase = "Where is the station?"
    wav = recording("partial", english([phrase]), gap_s=1.5)
    source = PausingSource(wav, pause_at_s=0.5 + 1.2)  # mid-phrase: a partial is out, no final yet
    translators = {"en-zh": Translator.load(phrasebook["en-zh"], direction="en-zh")}
    config = PipelineConfig(direction="en-zh", nmt_models=dict(phrasebook), tts_enabled=False, live_text=live_text)
    run = Run(config, audio_source=source, recognizer=recognizer, translators=translators)
    run.pipeline.start()
    try:
        summaries = lambda: [e for e in run.of(SentenceSummary) if e.provisional]  # noqa: E731
        wait_until(lambda: source.paused.is_set() and summaries(), "a provisional decode, paused mid-phrase", 120)
        if live_text is LiveText.SOONER:
            wait_until(lambda: run.translations(provisional=True), "the provisional translation", 120)
        else:
            # What the worker shows of it comes right after its summary; showing nothing sends nothing
            # to wait for, so it is given the time instead.
            time.sleep(1.0)
            shown = [t.text for t in run.translations(provisional=True)]
            assert all(expected([phrase], "en-zh")[0].startswith(text) for text in shown), shown
        assert not run.translations(), "a final translation before the utterance ended"
        source.resume.set()
        assert run.pipeline.wait_until_done(120)
    finally:
        run.pipeline.stop()
    (final,) = run.translations()
    assert final.text == expected([phrase], "en-zh")[0] and final.latency_ms is not None
    translations = run.of(Translation)
    assert translations[-1] is final, "nothing follows the final translation of an utterance"
    assert all(t.provisional and t.latency_ms is None for t in translations[:-1])
    assert all(t.utterance_id == final.utterance_id for t in translations)
    steps = [e for e in run.of(DecodeStepEvent) if e.provisional]
    assert steps and steps[0].step.step == 0 and steps[0].step.top and steps[0].step.self_kv_len >= 1


def test_start_stop_restart_leaves_no_threads(recording, phrasebook, recognizer, tmp_path):
    wav = recording("restart", english(["See you tomorrow."]))
    config = PipelineConfig(
        direction="en-zh", nmt_models=dict(phrasebook), input_path=wav, realtime=False, tts_out=tmp_path / "speech.wav"
    )
    run = Run(config, recognizer=recognizer)
    ours = lambda: [t.name for t in threading.enumerate() if t.name.startswith(("pipeline-", "speech-output"))]  # noqa: E731
    # After the first run (libraries may start a helper thread once), no run leaves a thread that
    # was not there: a subset, as a thread of an earlier test may end meanwhile.
    transcripts, after = [], []
    for _ in range(3):
        run.run()
        transcripts.append(run.pipeline.transcript.path)
        assert not ours(), ours()
        after.append(set(threading.enumerate()))
    baseline = after[0]
    assert after[1] <= baseline and after[2] <= baseline, [t.name for t in threading.enumerate()]
    assert [t.text for t in run.translations()] == expected(["See you tomorrow."], "en-zh") * 3
    assert len(set(transcripts)) == 3
    # Stopping mid-utterance, and stopping twice, are clean too.
    run.pipeline.start()
    wait_until(lambda: sum(s.state == "running" for s in run.of(Status)) == 4, "running again", 120)
    run.pipeline.stop()
    run.pipeline.stop()
    assert set(threading.enumerate()) <= baseline
    assert sum(s.state == "stopped" for s in run.of(Status)) == 4


def test_transcript_survives_a_kill(recording, phrasebook, tmp_path, app_run):
    wav = recording("kill", english(["Good morning.", "Where is the station?", "I love you."]), gap_s=3.0)
    folder = tmp_path / "transcripts"
    env = {**os.environ, "LIVE_TRANSLATOR_TRANSCRIPTS": str(folder)}
    run = app_run(*translating(wav, "en-zh", phrasebook), "--no-tts", "--realtime", env=env)
    event = wait_until(run.translations, "the first final translation", 120)[0]
    run.proc.send_signal(signal.SIGKILL)
    run.proc.wait(30)
    (path,) = folder.glob("*.jsonl")
    transcript = Transcript.load(path)
    # What was shown before the kill is what was saved (Whisper may or may not write the full stop).
    assert transcript.entries[0].source == event["source"] and event["source"].startswith("Good morning")
    assert transcript.entries[0].translation == event["text"] and event["text"]
    assert f"{event['source']}\n{event['text']}" in export_text(transcript.entries)
    assert export_srt(transcript.entries).startswith("1\n00:00:00,")
