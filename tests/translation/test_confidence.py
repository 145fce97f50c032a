"""Confidence you can see: the decoder's unsure tokens as character spans of the translation."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from app.translation import DecodeOptions, Translator
from app.translation.onnx_model import DecoderRun
from app.translation.results import Unsure, join_translations, joined_sure_chars
from app.translation.search import SURE_P, UNSURE_P, log_softmax, process_scores

from .conftest import FIXTURES

PHRASEBOOK = Path(__file__).resolve().parents[1] / "fixtures" / "phrasebook"

RANDOM = {
    "marian": (FIXTURES / "marian-en-zh" / "merged", "en-zh"),
    "m2m100": (FIXTURES / "m2m100" / "merged", "en-zh"),
    "marian-zh-en": (FIXTURES / "marian-zh-en" / "merged", "zh-en"),
}


def recomputed_token_probs(translator: Translator, sentence) -> list[float]:
    """Each generated token's probability, recomputed without the cache from the final sequence."""
    settings = translator.settings()
    ids = np.array([sentence.source_ids], dtype=np.int64)
    mask = np.ones_like(ids)
    run = DecoderRun(
        translator.model.decoders, translator.model.encoder(ids, mask), mask, batch=1, capacity=settings.max_length
    )
    sequence = [settings.decoder_start_token_id] + sentence.token_ids
    first = 2 if settings.forced_bos_token_id is not None else 1
    probs = []
    for n in range(first, len(sequence)):
        prefix = np.array([sequence[:n]], dtype=np.int64)
        scores = process_scores(settings, prefix, log_softmax(run.recompute(prefix)))
        if sequence[n] not in translator.codec.skipped_ids:  # EOS adds no character to mark
            probs.append(float(np.exp(scores[0, sequence[n]])))
    return probs


@pytest.mark.parametrize("name", list(RANDOM))
@pytest.mark.parametrize("beams", [1, 4])
def test_unsure_spans_are_the_final_sequences_unsure_tokens(name, beams):
    folder, direction = RANDOM[name]
    translator = Translator.load(folder, direction)
    result = translator.translate(
        "Welcome to the meeting." if direction == "en-zh" else "欢迎参加会议。",
        DecodeOptions(num_beams=beams, max_new_tokens=10),
    )
    (sentence,) = result.sentences
    probs = recomputed_token_probs(translator, sentence)
    assert min(probs) < UNSURE_P, "a random model should be unsure somewhere"
    spans = result.low_confidence
    assert spans, probs
    for span in spans:
        assert 0 <= span.start < span.end <= len(result.text) and result.text[span.start : span.end].strip()
        assert span.p < UNSURE_P
        assert any(abs(span.p - p) < 2e-3 for p in probs), (span.p, probs)  # the least sure token's own probability
        assert span.alternatives and all(0 <= p <= 1 for _, p in span.alternatives)
    assert min(s.p for s in spans) == pytest.approx(min(probs), abs=2e-3)


def test_a_memorised_sentence_is_sure_and_an_unknown_one_is_not():
    translator = Translator.load(PHRASEBOOK / "en-zh", "en-zh")
    assert translator.translate("Welcome to the meeting.").low_confidence == []
    # A half-heard sentence (what provisional translations get): the model guesses, and says so.
    unknown = translator.translate("Thank you very")
    assert unknown.low_confidence, unknown.text


def test_a_guess_is_sure_only_up_to_its_first_doubtful_token():
    """sure_chars: where a provisional translation stops being what the model knows."""
    translator = Translator.load(PHRASEBOOK / "zh-en", "zh-en")
    assert translator.translate("车站在哪里？").sentences[0].sure_chars is None  # memorised: sure throughout
    (guess,) = translator.translate("我的钥匙").sentences  # half a phrase: it writes a phrase it knows
    probs = recomputed_token_probs(translator, guess)
    assert guess.sure_chars is not None and 0 <= guess.sure_chars < len(guess.translation), guess
    assert min(probs) < SURE_P
    (whole,) = translator.translate("我的钥匙丢了。").sentences
    assert whole.sure_chars is None and whole.translation == "I lost my key."


def test_the_sure_part_follows_the_joined_text():
    assert joined_sure_chars([(" 你好 ", None), ("", 0), ("谢谢。", 1)], "") == 3  # 你好 + 谢
    assert joined_sure_chars([("We are late.", None), (" See you", 4)], " ") == 13 + 3  # "We are late. See"
    assert joined_sure_chars([("你好", None)], "") is None
    assert joined_sure_chars([("  Hello", 0)], " ") == 0


def test_spans_follow_the_text_across_sentences_and_scripts():
    pieces = [(" 你好 ", [Unsure(1, 3, 0.2)]), ("", []), ("谢谢。", [Unsure(0, 2, 0.3, (("多谢", 0.1),))])]
    text, spans = join_translations(pieces, "", strip=True)
    assert text == "你好谢谢。" and [(s.start, s.end) for s in spans] == [(0, 2), (2, 4)]
    assert [text[s.start : s.end] for s in spans] == ["你好", "谢谢"]
    translator = Translator.load(FIXTURES / "m2m100" / "merged", "en-zh", chinese="traditional")
    result = translator.translate("Welcome to the meeting. Good morning.", DecodeOptions(max_new_tokens=8))
    for span in result.low_confidence:
        assert 0 <= span.start < span.end <= len(result.text)


def test_translate_json_carries_low_confidence():
    folder, _ = RANDOM["marian"]
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "app",
            "translate",
            "--model",
            str(folder),
            "--direction",
            "en-zh",
            "--json",
            "--max-new-tokens",
            "6",
            "Good morning.",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    data = json.loads(out)
    assert data["low_confidence"] and all(len(span) == 3 for span in data["low_confidence"])
    start, end, p = data["low_confidence"][0]
    assert 0 <= start < end <= len(data["translation"]) and 0 < p < UNSURE_P
    assert len(data["alternatives"]) == len(data["low_confidence"])
