"""A Chinese final that came back in Latin letters is read again told it is Mandarin (issue 41)."""

import re

import numpy as np

from app.asr import RecognizerOptions, StreamingRecognizer
from app.asr.guards import Heard
from app.asr.script_reread import in_characters
from app.shared.events import SourceFinal

from .conftest import normalize_words, read16k, silence

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
    prompt = "以下是普通话的句子。"
    looped = Heard("4x4x4x4x4x4x4x4x4x4x4x4x4x4")
    for leaked in (prompt, "以下是普通话的句子", "普通话的句子。"):  # the prompt, whole or in part, is not speech
        assert in_characters(looped, Heard(leaked), prompt) is looped
    assert in_characters(looped, Heard("我们开始吧。"), prompt).text == "我们开始吧。"


def test_a_final_read_again_costs_its_decoder_only(say, tiny_en, monkeypatch):
    """The beam re-read of an unsure final reads the same window as its greedy decode: the
    encoder output (most of a short decode's cost) is handed over, not computed again."""
    from app.asr import decoding

    audio = np.concatenate([silence(0.4), read16k(say("Please leave your coat by the door.")), silence(0.2)])
    rec = StreamingRecognizer(tiny_en, "en", options=RecognizerOptions(unsure_final_logprob=0.0))  # always again
    decodes, encodes = spy(monkeypatch, decoding, "decode_window"), spy(monkeypatch, tiny_en, "encode")
    assert "door" in normalize_words(rec.transcribe(audio))
    assert [call["beam_size"] for call in decodes] == [1, 5] and len(encodes) == 1


def spy(monkeypatch, owner, name: str) -> list[dict]:
    """The keyword arguments of each call of owner.name from now on (the real one runs)."""
    calls, real = [], getattr(owner, name)

    def called(*args, **kwargs):
        calls.append(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, called)
    return calls
