"""Face to face, whose turn it is (app.asr.language.LanguageSides): the choices for bad input that
docs/cli.md promises, over the whole range of readings."""

from __future__ import annotations

import itertools

from app.asr.language import CLEAR, LanguageReading, LanguageSides
from app.shared.languages import Language

P_ZH = [i / 100 for i in range(0, 101, 5)]
ELSEWHERE = [0.0, 0.5, 0.9, 0.97, 0.98, 0.999]
SPEECH_S = [0.4, 0.9, 1.5, 6.0]


def test_a_reading_sure_of_a_language_is_always_heard_in_it():
    """Never Chinese translated "from English" when the detector is sure it is Chinese (nor the
    reverse): whatever the side, the utterance's length or the weight on other languages."""
    for first, p_zh, elsewhere, speech_s in itertools.product(Language, P_ZH, ELSEWHERE, SPEECH_S):
        reading = LanguageReading(p_zh, elsewhere)
        if reading.confidence >= CLEAR:
            decision = LanguageSides(first).decide(reading, speech_s)
            assert decision.language is reading.leaning and not decision.kept, (first, p_zh, elsewhere, speech_s)


def test_a_third_language_keeps_the_side_unless_it_leans_clearly():
    """Nearly all the weight elsewhere (French, German...): the side is kept, as documented, when
    what is left does not lean clearly to English or Chinese."""
    sides = LanguageSides("zh")
    unsure = sides.decide(LanguageReading(p_zh=0.2, elsewhere=0.99), speech_s=2.0)  # leans English at 0.8
    assert (unsure.language, unsure.kept) == (Language.ZH, True)
    clear = sides.decide(LanguageReading(p_zh=0.05, elsewhere=0.99), speech_s=2.0)
    assert (clear.language, clear.kept) == (Language.EN, False)


def test_unsure_readings_keep_the_side_and_short_ones_never_move_it():
    sides = LanguageSides("en")
    kept = sides.decide(LanguageReading(p_zh=0.7), speech_s=0.5)  # short: needs 0.75
    assert (kept.language, kept.kept) == (Language.EN, True)
    moved = sides.decide(LanguageReading(p_zh=0.7), speech_s=2.0)  # long: 0.6 is enough
    assert moved.language is Language.ZH
    short_zh = sides.decide(LanguageReading(p_zh=0.95), speech_s=0.5)
    sides.settle(short_zh)
    assert short_zh.language is Language.ZH and sides.side is Language.EN  # a "好" does not move the side
