"""A glossary never adds a term the audio does not hold (issue 42: with every term a hotword, a
50,000-entry glossary in Auto turned "I'm from Beijing." into "lima49999" and 我们去吃饭吧 into
"我们29988", ten names turned poorly heard Mandarin into "李娜、华为", and English finals lost
case and punctuation). Only terms that sound like something heard reach Whisper, and only the
words they sound like can change (app.asr.hotwords). Real Whisper base on espeak-ng speech,
face to face (both languages' terms), as the window's Auto runs it."""

from __future__ import annotations

import random
import string

import numpy as np
import pytest

from app.asr import RecognizerOptions, StreamingRecognizer
from app.asr.hotwords import candidate_terms, with_terms
from app.asr.language import LanguageSides
from app.shared.events import SourceFinal
from app.shared.glossary import Glossary

from .conftest import read16k, silence

NAMES = (
    "Lina\t李娜\nHuawei\t华为\nLima\t利马\nJon Smyth\t乔恩·史密斯\nXiaomi\t小米\n"
    "Peking\t北京\nWang Fang\t王芳\nZhang Wei\t张伟\nTencent\t腾讯\nAlibaba\t阿里巴巴\n"
)
SAID = (
    ("I'm from Beijing.", "en"),
    ("Good morning, everyone.", "en"),
    ("wo3 men5 qu4 chi1 fan4 ba5.", "cmn-latn-pinyin"),
    ("wo3 bu4 zhi1 dao4.", "cmn-latn-pinyin"),
    ("ta1 shi4 wo3 de5 peng2 you3.", "cmn-latn-pinyin"),
)


def big_glossary() -> str:
    """50,000 entries as the issue's: random words with a number, Chinese 词 with the number."""
    rnd = random.Random(7)
    words = ("".join(rnd.choices(string.ascii_lowercase, k=rnd.randint(4, 10))) for _ in range(50_000))
    return "".join(f"{word} {n}\t词{n}\n" for n, word in enumerate(words))


def finals(model, audio, glossary: Glossary | None) -> list[str]:
    hotwords = {lang: glossary.terms(lang) for lang in ("en", "zh")} if glossary else {}
    rec = StreamingRecognizer(model, "en", RecognizerOptions(hotwords=hotwords), sides=LanguageSides("en"))
    return [e.text for e in rec.feed(audio) + rec.flush() if isinstance(e, SourceFinal) and e.text]


@pytest.fixture(scope="module")
def talk(say):
    parts = [silence(0.4)]
    for text, voice in SAID:
        parts += [read16k(say(text, voice)), silence(1.2)]
    return np.concatenate(parts)


@pytest.mark.parametrize("kind", ["ten names", "50,000 entries"])
def test_a_glossary_changes_nothing_the_audio_does_not_hold(base, talk, kind):
    glossary = Glossary.parse(NAMES if kind == "ten names" else big_glossary())
    plain = finals(base, talk, None)
    assert len(plain) == len(SAID), plain
    with_glossary = finals(base, talk, glossary)
    assert with_glossary == plain  # case, punctuation, every word: as heard without it
    terms = set(glossary.terms("en")) | set(glossary.terms("zh"))
    assert not [t for t in terms if any(t in final for final in with_glossary)]
    assert plain[0][0].isupper() and plain[0].endswith(".")


def test_only_terms_like_something_heard_are_candidates():
    spots = candidate_terms(["Jon Smyth", "lima 49999", "Huawei", "Lina"], "My name is John Smife. I'm from Beijing.")
    assert [(s.term, s.start, s.end) for s in spots] == [("Jon Smyth", 11, 21)]
    assert candidate_terms(["李娜", "华为", "词29988"], "我们去吃饭吧") == []
    (spot,) = candidate_terms(["李娜", "华为"], "我认识丽娜。")
    assert (spot.term, spot.start, spot.end) == ("李娜", 3, 5)
    assert candidate_terms(["Jon Smyth"], "My name is Jon Smyth.") == []  # written so already
    assert len(candidate_terms([f"Lina{i}" for i in range(40)], "Lina1 Lina2 Lina3 " * 5)) <= 8  # bounded
    # A candidate is written only where the decode told of it wrote it; nothing else changes.
    heard = "My name is John Smife, from Beijing."
    assert with_terms(heard, spots, "my name is jon smyth from beijing") == "My name is Jon Smyth, from Beijing."
    assert with_terms(heard, spots, "My name is John Smith, from Beijing.") == heard
