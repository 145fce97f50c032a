"""The loop guards cut only what a decode invented, never a number or a repetition the audio holds
(issue 42: "It costs 100000 yuan." became "It costs 1000 yuan.", "8888 8888" became "88", "Dial 9 9 9
9" became "Dial 9"). A loop is cut when the decoder looped (app.asr.guards.decode_looped: its whole
token budget written, a text Whisper calls too repetitive, more than the audio can hold). Real
Whisper weights on espeak-ng speech, and the guards on their own."""

from __future__ import annotations

import re

import numpy as np
import pytest

from app.asr import StreamingRecognizer
from app.asr.guards import decode_looped, drop_repeated_sentences, heard_in, spoken_units, undouble
from app.asr.window import Decoded
from app.shared.chinese import ChineseScript
from app.shared.events import SourceFinal

from .conftest import read16k, silence

SAID = (
    ("It costs 100000 yuan.", 2.3),
    ("他的电话是88888888。", 3.2),
    ("The number is 8888 8888.", 4.5),
    ("Dial 9 9 9 9 for help.", 2.3),
    ("My card number is 4 4 4 4", 2.3),
    ("No, no, no, no, no.", 2.0),
)


def heard(text: str, audio_s: float, hit_budget: bool = False, language: str = "en") -> str:
    """What the guards keep of one sure decode of `text` from `audio_s` seconds of audio."""
    return heard_in(
        [Decoded(text, avg_logprob=-0.2, no_speech_prob=0.01)],
        language,
        ChineseScript.SIMPLIFIED,
        sure_logprob=-0.4,
        no_speech_logprob=-1.0,
        unsure_word_p=0.5,
        hotwords=None,
        prefix=None,
        audio_s=audio_s,
        hit_budget=hit_budget,
    ).text


@pytest.mark.parametrize(("text", "seconds"), SAID)
def test_a_number_or_repetition_the_decoder_did_not_loop_on_is_kept(text, seconds):
    assert not decode_looped(text, seconds, hit_budget=False)
    language = "zh" if re.search(r"[\u4e00-\u9fff]", text) else "en"
    assert heard(text, seconds, language=language) == text


def test_a_character_cut_in_half_by_the_token_budget_is_not_shown():
    # Whisper's byte-level tokens: a budget ending inside a character's bytes decodes as U+FFFD.
    assert heard("键垫垫垫\ufffd", 2.0, hit_budget=True, language="zh") == "键垫垫垫"
    assert heard("Hello \ufffd world.", 2.0) == "Hello world."


def test_a_loop_the_decoder_ran_is_still_cut():
    # The token budget written without an end: what a loop does.
    assert heard("见见见见见见见见见见", 2.2, hit_budget=True, language="zh") == "见见见"
    # More than the audio can hold (tiny.en, "The number is 8888, 8888." at 4.7 s).
    loop = "The Humber " + "8" * 61
    assert decode_looped(loop, 4.7, hit_budget=False)
    assert heard(loop, 4.7) == "The Humber 888"
    # A text Whisper itself calls too repetitive (gzip ratio over 2.4).
    going = "I'm going. " * 12
    assert decode_looped(going, 12.0, hit_budget=False)
    assert heard(going, 12.0) == "I'm going."
    # One character over and over, more often than the audio can say it (base's beam, 2.2 s).
    assert heard("键垫垫垫垫垫垫垫垫垫", 2.2, language="zh") == "键垫垫垫"
    assert not decode_looped("差个点 哇属啪啪啪啪啪啪啪", 4.6, hit_budget=False)  # 7 in 4.6 s: said
    assert spoken_units("他的电话是88888888。 It costs 3 yuan") == 5 + 8 + 2 + 1 + 1


def test_a_number_in_groups_is_not_a_phrase_said_twice():
    assert undouble(" 8888 8888") == " 8888 8888"
    assert undouble(" 8888. 8888.") == " 8888. 8888."
    assert drop_repeated_sentences(" The number is 8888. 8888.") == " The number is 8888. 8888."
    assert drop_repeated_sentences("号码是8888。8888。") == "号码是8888。8888。"
    assert undouble(" Good morning Good morning") == " Good morning"  # words: still one phrase


def plain_decode(model, audio, language: str) -> str:
    """The decode the recognizer's final makes, without any guard."""
    from app.asr.window import decode_window

    budget = int(10 + 12 * len(audio) / 16000)
    beam = 5 if language == "zh" else 1
    return decode_window(
        model, audio, language, margin_s=3.0, min_s=10.0, beam_size=beam, max_new_tokens=budget
    ).text.strip()


def final_of(model, audio, language: str) -> str:
    rec = StreamingRecognizer(model, language=language)
    audio = np.concatenate([silence(0.3), audio, silence(1.2)])
    [final] = [e for e in rec.feed(audio) + rec.flush() if isinstance(e, SourceFinal)]
    return final.text


# (spoken, voice, words per minute, language, a run the plain decode holds and the final must keep)
# Seen here: base hears the slow "4 4 4 4" as "44444", "8888 8888" as "8,88888888888", the
# phone number's eight "ba1" as seven 啪; the guards used to make them "444", "8,888", "啪啪啪".
REAL = (
    ("My card number is 4 4 4 4", "en", 130, "en", r"4{4,}"),
    ("The number is 8888 8888.", "en", 130, "en", r"8{8,}"),
    ("The code is 1 1 1 1 1 1.", "en", None, "en", r"1{6,}"),
    ("ta1 de5 dian4 hua4 shi4 ba1 ba1 ba1 ba1 ba1 ba1 ba1 ba1.", "cmn-latn-pinyin", 130, "zh", r"(.)\1{4,}"),
)


def test_digits_whisper_heard_reach_the_final(base, say):
    """Each run of digits (or syllables) the plain decode holds is in the final. Whisper's text
    differs a little between CPUs: at least two of the four sentences must give such a run."""
    held = 0
    for spoken, voice, wpm, language, run in REAL:
        audio = read16k(say(spoken, voice, wpm))
        plain = plain_decode(base, audio, language)
        if not re.search(run, plain.replace(",", "")):
            continue  # base heard no run here, on this CPU
        held += 1
        final = final_of(base, audio, language)
        # Chinese: the final may write the run with spaces ("哇 哇 哇 哇 哇 哇 哇", an AVX2-only EPYC)
        kept = final.replace(",", "") if language == "en" else re.sub(r"[,\s]", "", final)
        assert re.search(run, kept), (spoken, plain, final)
    assert held >= 2, "base heard too few of the runs: pick other sentences"


def test_a_loop_whisper_ran_on_real_speech_is_still_cut(tiny_en, say):
    """tiny.en hears "Dial nine, nine, nine, nine, for help." as a word said over and over until its
    budget ("dide, dide, …" at 130 words a minute; on an AVX2-only EPYC "I'll die, die, …" at 110):
    at the first speed where the plain decode loops, the final is no loop (what its audio can hold,
    by the guard's own measure: "I'll die, die, … for help." read to the end is the speaker's)."""
    for wpm in (130, 110, 120, 160):
        audio = read16k(say("Dial nine, nine, nine, nine, for help.", "en", wpm))
        words = re.findall(r"[a-z]+", plain_decode(tiny_en, audio, "en").lower())
        looped = max(set(words), key=words.count, default="")
        if words.count(looped) >= 8:
            break
    else:
        pytest.fail("tiny.en looped at none of the speeds on this CPU: pick another sentence")
    final = final_of(tiny_en, audio, "en")
    said = re.findall(r"[a-z]+", final.lower()).count(looped)
    assert said < words.count(looped) and not decode_looped(final, len(audio) / 16000, False), (wpm, final)
