"""Calm live text: settled prefixes of provisional translations (app/pipeline/calm.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.pipeline.calm import CalmMode, CalmText, latin_word_boundary
from app.shared.events import Translation
from app.translation import DecodeOptions, SentenceResult, Translator

from .conftest import english

PHRASEBOOK = Path(__file__).resolve().parents[1] / "fixtures" / "phrasebook"


def test_agreement_settles_and_a_contradiction_is_held_back():
    calm = CalmText("agree")
    assert calm.update(1, [[5, 6]], "我们去") == ("我们去", 0)  # nothing to agree with yet
    assert calm.update(1, [[5, 6, 7]], "我们去吃饭") == ("我们去吃饭", 3)
    assert calm.update(1, [[5, 9]], "我们来") is None  # would change text the reader has read
    assert calm.update(1, [[5, 6, 7, 8]], "我们去吃饭吧") == ("我们去吃饭吧", 5)
    assert calm.forced(1) == []  # AGREE never forces
    calm.finish(1)
    assert calm.update(1, [[1]], "别的") == ("别的", 0)  # a finished utterance starts afresh


def test_force_mode_forces_the_agreed_tokens_and_off_settles_nothing():
    calm = CalmText(CalmMode.FORCE)
    calm.update(2, [[5, 6, 7], [1]], "甲乙丙。丁")
    calm.update(2, [[5, 6, 8], [1, 2]], "甲乙戊。丁己")
    assert calm.forced(2) == [[5, 6], [1]]
    off = CalmText("off")
    assert off.update(3, [[1]], "a") == ("a", 0) and off.update(3, [[2]], "b") == ("b", 0)


def test_the_unsure_tail_of_a_guess_neither_settles_nor_shows():
    calm = CalmText("agree", show_guesses=False)
    assert calm.update(1, [[5, 6, 7]], "我们去吃饭", sure=0) is None  # all guessed: nothing to show yet
    assert calm.update(1, [[5, 6, 7]], "我们去吃饭", sure=2) == ("我们", 2)  # agreed, but sure only of 我们
    assert calm.update(1, [[5, 6, 7, 8]], "我们去吃饭吧") == ("我们去吃饭吧", 5)  # sure throughout
    english = CalmText("agree", show_guesses=False)
    english.update(1, [[1]], "We need more time", latin_word_boundary, sure=11)
    assert english.update(1, [[1]], "We need more time", latin_word_boundary, sure=11) == ("We need ", 8)
    sooner = CalmText("agree", show_guesses=True)  # live text "sooner": the guess is shown, not settled
    sooner.update(1, [[5, 6, 7]], "我们去吃饭", sure=2)
    assert sooner.update(1, [[5, 6, 7]], "我们去吃饭", sure=2) == ("我们去吃饭", 2)
    assert CalmText("off", show_guesses=False).update(1, [[1]], "我们去", sure=2) == ("我们", 0)


def test_settled_english_ends_at_a_word_boundary():
    assert latin_word_boundary("We need more time", 10) == 8
    assert latin_word_boundary("We need more time", 8) == 8
    calm = CalmText("agree")
    calm.update(1, [[1]], "We need money")
    assert calm.update(1, [[1]], "We need more time", latin_word_boundary) == ("We need more time", 8)


def test_forcing_the_settled_tokens_continues_the_shown_text():
    translator = Translator.load(PHRASEBOOK / "en-zh", "en-zh")
    full = translator.translate("Thank you very much.")
    settled = [t for t in full.token_ids if t not in translator.codec.skipped_ids][:2]
    shown = translator.codec.decode(settled)

    def continued(text: str) -> SentenceResult:
        items = translator.stream(text, DecodeOptions(), forced=[settled])
        (sentence,) = [r for r in items if isinstance(r, SentenceResult)]
        return sentence

    forced = continued("Thank you very")
    assert forced.translation.startswith(shown)
    unforced = translator.translate("Thank you very").text
    assert not unforced.startswith(shown)  # left alone, it guessed otherwise
    assert forced.translation == full.text  # and with the start kept, the memorised sentence follows
    # What was forced is sure (it is what the reader has); the decoder's own guess after it is not.
    guess = continued("Thank you")
    assert guess.translation.startswith(shown)
    assert guess.sure_chars is not None and guess.sure_chars >= len(shown), guess
    # And a doubt after a forced start is marked on the decoder's own word, not on the forced one.
    doubt = continued("Where")
    assert doubt.low_confidence and all(u.start >= len(shown) for u in doubt.low_confidence), doubt


@pytest.mark.parametrize("mode", ["agree", "force"])
def test_provisional_translations_never_change_settled_text(recording, run_pipeline, mode):
    wav = recording("calm", english(["Hello, everyone. Welcome to the meeting. I am fine, thank you."]), gap_s=1.0)
    run = run_pipeline(wav, "en-zh", calm=mode)
    provisional = run.translations(provisional=True)
    assert provisional, "no provisional translation to check"
    for uid in {t.utterance_id for t in provisional}:
        shown = [t for t in run.of(Translation) if t.utterance_id == uid]
        settled = ""
        for t in shown:
            if not t.provisional:
                assert t.stable == len(t.text)  # a final is settled whole (and decoded as always)
                continue
            assert 0 <= t.stable <= len(t.text) and t.text.startswith(settled), (settled, t.text)
            settled = max(settled, t.text[: t.stable], key=len)
    assert any(t.stable for t in provisional), "nothing ever settled"
    assert [t.text for t in run.translations()] == [
        Translator.load(PHRASEBOOK / "en-zh", "en-zh").translate(f.text).text for f in run.finals()
    ]
