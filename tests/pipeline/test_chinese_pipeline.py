"""`--chinese` through the live chain: translations, speech and the saved transcript."""

from __future__ import annotations

import json

from app.pipeline.transcript import Transcript
from app.shared.chinese import to_script
from app.shared.events import SourceFinal, Translation

from .conftest import english, expected

PHRASES = ["Welcome to the meeting.", "Good morning."]


def test_translations_and_transcript_in_hong_kong_script(recording, run_pipeline):
    wav = recording("hk", english(PHRASES))
    run = run_pipeline(wav, "en-zh", chinese="hongkong", source_confidence=True)
    want = [to_script(t, "hongkong") for t in expected(PHRASES, "en-zh")]
    assert want[0] == "歡迎參加會議。"
    assert [t.text for t in run.translations()] == want
    assert all(p.text == to_script(p.text, "hongkong") for p in run.translations(provisional=True))
    saved = Transcript.load(run.pipeline.transcript.path)
    assert [e.translation for e in saved.entries if e.source] == want

    # Confidence rides along (run --json prints these objects): spans of each event's own text.
    for event in run.of(Translation) + run.of(SourceFinal):
        data = json.loads(json.dumps(event.to_json(), ensure_ascii=False))
        assert isinstance(data["low_confidence"], list)
        for start, end, p in data["low_confidence"]:
            assert 0 <= start < end <= len(data["text"]) and 0 <= p < 0.5
