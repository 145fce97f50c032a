"""A translation's per-token evidence (`token_p`, `token_ends`: where live text may cut it) on
real decodes: the same as decoding every prefix of the translation, which is how it was worked
out before it was made lazy (issue 32), and no longer paid for by a translation that does not
read it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from app.shared.chinese import map_offset
from app.translation import DecodeOptions, SentenceResult, Translator
from app.translation.search import SURE_P

from .conftest import FIXTURES

PHRASEBOOK = Path(__file__).resolve().parents[1] / "fixtures" / "phrasebook"
ENGLISH = [
    "We need more time to finish the work.",
    "I drink tea every morning with my friend.",
    "Where is the station and the bathroom?",
    "Good morning. Let's start the meeting now please.",
]
CHINESE = ["我们需要更多时间完成工作。", "我每天早上和朋友喝茶。", "早上好。我们现在开始开会吧。"]


def every_prefix(translator: Translator, ids: list[int], script: str) -> list[int]:
    """Each token's end as it was computed before: decode every prefix of the translation."""
    codec = translator.codec
    decoded = codec.decode(ids)
    converted = translator.written(decoded) != decoded
    ends = []
    for i in range(len(ids)):
        end = len(codec.decode(ids[: i + 1]))
        ends.append(map_offset(decoded, end, script) if converted else end)
    return ends


def growing(sentences: list[str], chinese: bool = False) -> list[str]:
    """Each sentence as recognition's partials grow it: a word (Chinese: two characters) at a time."""
    out = []
    for sentence in sentences:
        if chinese:
            out += [sentence[:n] for n in range(2, len(sentence) + 1, 2)]
        else:
            words = sentence.split()
            out += [" ".join(words[:n]) for n in range(1, len(words) + 1)]
    return out


def decoded(translator: Translator, text: str, beams: int, forced=()) -> list[SentenceResult]:
    return list(translator.stream(text, DecodeOptions(num_beams=beams, max_new_tokens=24), forced=forced))


def check_evidence(translator: Translator, sentence: SentenceResult, script: str, forced: int = 0) -> None:
    ids = sentence.token_ids
    expected = every_prefix(translator, ids, script)
    assert len(sentence.token_ends) == len(ids) == len(sentence.token_p)
    assert list(sentence.token_ends) == expected, (sentence.translation, ids)
    assert [sentence.token_ends[i] for i in reversed(range(len(ids)))] == expected[::-1]  # any order, same answer
    assert sentence.token_ends[-1] == expected[-1] and sentence.token_ends[1:3] == expected[1:3]
    assert all(p == 1.0 for p in sentence.token_p[:forced]) and all(0 < p <= 1 for p in sentence.token_p)
    # sure_chars and the unsure spans cut at the same token ends
    skipped = translator.codec.skipped_ids
    unsure = [i for i in range(forced, len(ids)) if sentence.token_p[i] < SURE_P and ids[i] not in skipped]
    if unsure:
        assert sentence.sure_chars == (expected[unsure[0] - 1] if unsure[0] else 0)
    for span in sentence.low_confidence:
        assert span.end in expected, (span, expected)


@pytest.mark.parametrize("script", ["simplified", "traditional"])
@pytest.mark.parametrize("beams", [1, 4])
def test_english_to_chinese_ends_are_every_prefixs_length(script, beams):
    translator = Translator.load(PHRASEBOOK / "en-zh", "en-zh", chinese=script)
    checked = 0
    for text in growing(ENGLISH):
        for sentence in decoded(translator, text, beams):
            check_evidence(translator, sentence, script)
            checked += len(sentence.token_ids)
    assert checked > 200


def test_chinese_to_english_ends_are_every_prefixs_length():
    translator = Translator.load(PHRASEBOOK / "zh-en", "zh-en")
    results = [s for text in growing(CHINESE, chinese=True) for s in decoded(translator, text, 1)]
    for sentence in results:
        check_evidence(translator, sentence, "simplified")
    assert any(" " in s.translation for s in results)  # words and spaces: the leading space is dropped


def test_ends_after_forced_tokens():
    translator = Translator.load(PHRASEBOOK / "en-zh", "en-zh")
    full = decoded(translator, "Thank you very much.", 1)[0]
    settled = [t for t in full.token_ids if t not in translator.codec.skipped_ids][:2]
    for text in ("Thank you", "Thank you very", "Where"):
        (sentence,) = decoded(translator, text, 1, forced=[settled])
        assert sentence.token_ids[:2] == settled
        check_evidence(translator, sentence, "simplified", forced=2)


@pytest.mark.parametrize("family, direction", [("m2m100", "en-zh"), ("marian-zh-en", "zh-en")])
def test_other_tokenizers_ends_are_every_prefixs_length(family, direction):
    """Random-weight models: another tokenizer (M2M100's) and a Latin target, noise for text."""
    translator = Translator.load(FIXTURES / family / "merged", direction)
    texts = growing(ENGLISH[:2]) if direction == "en-zh" else growing(CHINESE[:2], chinese=True)
    for text in texts[:8]:
        for sentence in decoded(translator, text, 1):
            check_evidence(translator, sentence, "simplified")


def test_a_translation_that_does_not_read_its_ends_does_not_decode_its_prefixes():
    translator = Translator.load(PHRASEBOOK / "en-zh", "en-zh")
    calls = []
    decode = translator.codec.decode
    translator.codec.decode = lambda ids: calls.append(len(ids)) or decode(ids)
    try:
        (sentence,) = decoded(translator, "Welcome to the meeting.", 4)  # memorised: sure throughout
        made = len(calls)
        assert sentence.sure_chars is None and not sentence.low_confidence, sentence
        assert len(sentence.token_ids) >= 5 and made <= 2, calls  # the whole translation; before: every prefix too
        assert sentence.token_ends[2] == every_prefix(translator, sentence.token_ids, "simplified")[2]
        assert len(calls) > made  # asked for: decoded then
    finally:
        translator.codec.decode = decode
    assert np.isclose(sum(sentence.token_p) / len(sentence.token_p), 1.0, atol=0.1)
