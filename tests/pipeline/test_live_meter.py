"""The live-text meter (app/pipeline/live_meter.py): early share and erasure, as shown."""

from __future__ import annotations

from app.pipeline.live_meter import LiveTextMeter, taken_back
from app.shared.events import SourceFinal, Translation
from app.shared.languages import Direction


def translation(uid: int, text: str, at: float, provisional: bool = True, stable: int = 0) -> Translation:
    latency = None if provisional else 500.0
    stable = stable if provisional else len(text)
    return Translation(uid, "src", text, provisional, Direction.EN_ZH, latency, stable=stable, emitted_at=at)


def test_early_and_erasure_follow_what_was_shown():
    meter = LiveTextMeter()
    assert meter.reading().utterances == 0
    meter.observe(translation(1, "我们去", 10.0, stable=2))
    meter.observe(translation(1, "我们来", 10.5, stable=2))  # takes back 去 (settled 我们 kept)
    meter.observe(SourceFinal(1, "We go.", 7.0, 10.0, speech_end_at=10.0))  # 3 s of speech: a long utterance
    meter.observe(translation(1, "我们来吧", 11.2, provisional=False))
    meter.observe(SourceFinal(2, "Hi.", 12.0, 13.0, speech_end_at=13.0))  # short, nothing early
    meter.observe(translation(2, "你好", 13.5, provisional=False))
    reading = meter.reading()
    assert (reading.utterances, reading.long, reading.early) == (2, 1, 1)
    assert reading.erasure == 1 / 6 and reading.reading_erasure == 0.0
    assert reading.to_json() == {"utterances": 2, "long": 1, "early": 1, "erasure": 0.167, "reading_erasure": 0.0}


def test_late_live_text_is_not_early_and_a_corrected_settled_text_counts():
    meter = LiveTextMeter()
    meter.observe(translation(3, "车站在哪里", 20.5, stable=5))
    meter.observe(SourceFinal(3, "Where is the station and the bathroom?", 17.0, 20.0, speech_end_at=20.0))
    meter.observe(translation(3, "洗手间在哪里", 21.0, provisional=False))  # only 0.5 s before: not early
    reading = meter.reading()
    assert (reading.long, reading.early) == (1, 0)
    assert reading.erasure == reading.reading_erasure == 5 / 6  # the final took back all five characters
    assert taken_back("我们去", "我们来吧") == 1 and taken_back("", "x") == 0
