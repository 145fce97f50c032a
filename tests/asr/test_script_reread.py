"""A Chinese final that came back in Latin letters is read again told it is Mandarin (issue 41)."""

import re

import numpy as np

from app.asr import StreamingRecognizer
from app.asr.guards import Heard
from app.asr.script_reread import in_characters
from app.shared.events import SourceFinal

from .conftest import read16k, silence

_LATIN = re.compile(r"[A-Za-z]")


def test_a_mandarin_final_in_latin_letters_is_read_again_in_characters(say, base):
    """Decoded alone, base spells espeak-ng's 今天天气很好 out as "Kin-Zian-Zian-Chi-Eun-Hau"
    (seen here; the whole-file pass, its previous text a Chinese prompt, writes characters)."""
    speech = read16k(say("jin1 tian1 tian1 qi4 hen3 hao3.", "cmn-latn-pinyin"))
    rec = StreamingRecognizer(base, language="zh")
    events = rec.feed(np.concatenate([silence(0.3), speech, silence(1.0)])) + rec.flush()
    [final] = [e.text for e in events if isinstance(e, SourceFinal)]
    assert re.search(r"[\u4e00-\u9fff]", final) and not _LATIN.search(final), final


def test_the_prompted_reading_is_kept_only_when_it_is_in_characters():
    romanised = Heard("What are you?", logprob=-1.07)
    assert in_characters(romanised, Heard("我爱你。", logprob=-0.84)).text == "我爱你。"
    assert in_characters(romanised, Heard("What are you?", logprob=-0.84)) is romanised  # English again
    assert in_characters(romanised, Heard("", logprob=0.0)) is romanised  # nothing is not better
    mixed = Heard("我想 first way")
    assert in_characters(mixed, Heard("我上 first way。")) is mixed  # as many Latin letters: no gain
