"""Source words Whisper was unsure of: SourceFinal.low_confidence (RecognizerOptions.word_confidence)."""

from __future__ import annotations

import numpy as np

from app.asr import StreamingRecognizer
from app.asr.guards import word_spans
from app.asr.options import RecognizerOptions
from app.shared.events import SourceFinal

from .conftest import read16k, silence


def test_word_spans_find_words_in_order():
    text = "the cat saw the dog"
    assert word_spans(text, [("the", 0.3), ("the", 0.2), ("gone", 0.1)]) == ((0, 3, 0.3), (12, 15, 0.2))


def test_made_up_words_are_marked_and_plain_ones_are_not(base, say):
    speech = np.concatenate(
        [silence(0.5), read16k(say("Please open the zorblatt window before the quimby starts.")), silence(1.5)]
    )
    recognizer = StreamingRecognizer(base, language="en", options=RecognizerOptions(word_confidence=True))
    finals = [e for e in recognizer.feed(speech) + recognizer.flush() if isinstance(e, SourceFinal)]
    assert len(finals) == 1
    final = finals[0]
    assert final.low_confidence, final.text
    marked = [final.text[start:end] for start, end, _ in final.low_confidence]
    assert all(0 < p < 0.5 for _, _, p in final.low_confidence)
    assert all(word.strip() == word and word for word in marked)
    assert not any(word.lower() in ("please", "open", "window") for word in marked), marked
    assert recognizer.hear(speech).unsure
    off = StreamingRecognizer(base, language="en")
    assert all(not e.low_confidence for e in off.feed(speech) + off.flush() if isinstance(e, SourceFinal))
