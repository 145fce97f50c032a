"""Calm live text: what of a provisional translation is shown and settled (app/pipeline/calm.py)."""

from __future__ import annotations

import inspect
from dataclasses import replace
from pathlib import Path

import pytest

from app.pipeline.calm import (
    RULES,
    CalmMode,
    CalmText,
    DecodedSentence,
    ShowRule,
    decoded_sentences,
    latin_word_boundary,
)
from app.pipeline.config import PipelineConfig
from app.pipeline.translation import calm_sentences, less_last_words
from app.shared.chinese import ChineseScript
from app.shared.errors import LiveTranslatorError
from app.shared.events import SourcePartial, Translation
from app.shared.live_text import LiveText
from app.translation import DecodeOptions, SentenceResult, Translator
from app.translation.results import join_translations
from app.translation.search import SURE_P

from .conftest import english

PHRASEBOOK = Path(__file__).resolve().parents[1] / "fixtures" / "phrasebook"
BEFORE = ShowRule(sure_p=0.9, agree_p=1.01, settle_p=0.9, settle_agreements=1)  # confidence alone (before issue 32)
AGREE_ONCE = ShowRule(sure_p=0.9, agree_p=0.3, settle_p=0.5, settle_agreements=1)


def zh(ids: list[int], p: list[float] | None = None) -> list[DecodedSentence]:
    """One Chinese sentence decoded a character per token."""
    return [DecodedSentence(list(ids), p or [1.0] * len(ids), list(range(1, len(ids) + 1)), 0)]


def test_agreement_settles_and_a_contradiction_is_held_back():
    calm = CalmText("agree", AGREE_ONCE)
    assert calm.update(1, zh([5, 6, 7]), "我们去") == ("我们去", 0)  # sure, but nothing to agree with yet
    assert calm.update(1, zh([5, 6, 7, 8, 9]), "我们去吃饭") == ("我们去吃饭", 3)
    assert calm.update(1, zh([5, 6, 10]), "我们来") is None  # would change text the reader has read
    assert calm.update(1, zh([5, 6, 7, 8, 9, 11]), "我们去吃饭吧") == ("我们去吃饭吧", 3)  # agreed with 我们来 on 2
    assert calm.update(1, zh([5, 6, 7, 8, 9, 11]), "我们去吃饭吧") == ("我们去吃饭吧", 6)
    assert calm.forced(1) == []  # AGREE never forces
    calm.finish(1)
    assert calm.update(1, zh([1, 2]), "别的") == ("别的", 0)  # a finished utterance starts afresh


def test_force_mode_forces_the_agreed_tokens_and_off_settles_nothing():
    calm = CalmText(CalmMode.FORCE, AGREE_ONCE)
    two = [DecodedSentence([5, 6, 7], [1.0] * 3, [1, 2, 3], 0), DecodedSentence([1], [1.0], [5], 4)]
    calm.update(2, two, "甲乙丙。丁")
    again = [DecodedSentence([5, 6, 8], [1.0] * 3, [1, 2, 3], 0), DecodedSentence([1, 2], [1.0] * 2, [5, 6], 4)]
    assert calm.update(2, again, "甲乙戊。丁己") == ("甲乙戊。丁己", 2)
    assert calm.forced(2) == [[5, 6], [1]]
    off = CalmText("off", AGREE_ONCE)
    assert off.update(3, zh([1]), "a") == ("a", 0) and off.update(3, zh([2]), "b") == ("b", 0)


def test_unsure_tokens_show_when_agreed_and_settle_when_sure_enough():
    calm = CalmText("agree", AGREE_ONCE)
    unsure = [1.0, 1.0, 0.4, 0.4, 0.2]
    assert calm.update(1, zh([5, 6, 7, 8, 9], unsure), "我们去吃饭") == ("我们", 0)  # unsure and not agreed on
    # agreed on: shown down to the token below agree_p (0.2), settled down to the first below settle_p (0.4)
    assert calm.update(1, zh([5, 6, 7, 8, 9], unsure), "我们去吃饭") == ("我们去吃", 2)
    assert calm.update(1, zh([5, 6, 7, 8, 9], [1.0] * 5), "我们去吃饭") == ("我们去吃饭", 5)  # sure throughout
    before = CalmText("agree", BEFORE)  # confidence alone: an agreed unsure token is not shown
    before.update(1, zh([5, 6, 7], [1.0, 1.0, 0.4]), "我们去")
    assert before.update(1, zh([5, 6, 7], [1.0, 1.0, 0.4]), "我们去") == ("我们", 2)
    sooner = CalmText("agree", RULES[LiveText.SOONER])  # live text "sooner": the guess is shown, not settled
    assert sooner.update(1, zh([5, 6, 7], [1.0, 0.1, 0.1]), "我们去") == ("我们去", 0)
    assert CalmText("off", BEFORE).update(1, zh([5, 6, 7], [1.0, 1.0, 0.4]), "我们去") == ("我们", 0)


def test_grow_only_keeps_what_it_showed():
    calm = CalmText("agree", ShowRule(sure_p=1.01, agree_p=0.5, settle_p=0.5, settle_agreements=2, grow_only=True))
    assert calm.update(1, zh([5, 6, 7]), "我们去") is None  # sure, but no decode agreed with it yet
    assert calm.update(1, zh([5, 6, 7, 8]), "我们去吃") == ("我们去", 0)  # agreed once: shown, not yet settled
    assert calm.update(1, zh([5, 6, 10]), "我们来") is None  # it would take back shown text
    assert calm.update(1, zh([5, 6, 7, 8, 9]), "我们去吃饭") == ("我们去", 2)  # 我们: agreed three times


def test_settled_english_ends_at_a_word_boundary():
    assert latin_word_boundary("We need more time", 10) == 8
    assert latin_word_boundary("We need more time", 8) == 8
    calm = CalmText("agree", AGREE_ONCE)
    words = [DecodedSentence([1, 2, 3, 4], [1.0, 1.0, 1.0, 0.1], [2, 7, 11, 13], 0)]
    assert calm.update(1, words, "We need money", latin_word_boundary) == ("We need ", 0)
    more = [DecodedSentence([1, 2, 5, 6], [1.0, 1.0, 1.0, 1.0], [2, 7, 10, 17], 0)]  # " mo" "re time"
    assert calm.update(1, more, "We need more time", latin_word_boundary) == ("We need more time", 7)


def test_sentences_are_placed_in_the_joined_translation():
    pieces = [(" Hello there.", [1, 2, 0], [1.0, 0.5, 1.0], [6, 13, 13], 4), ("Bye.", [3, 0], [1.0, 1.0], [4, 4], 2)]
    (first, second) = decoded_sentences(pieces, " ", skipped={0})
    assert (first.ids, first.ends, first.start) == ([1, 2], [5, 12], 0)  # the leading space is stripped
    assert (second.ids, second.ends, second.start) == ([3], [17], 13)  # after the joiner
    assert (first.source_tokens, second.source_tokens) == (4, 2)
    (whole,) = decoded_sentences([("你好。", [7, 8], [], [], 3)], "", skipped=set())  # no per-token evidence
    assert whole.p == [1.0, 1.0] and whole.ends == [3, 3]


def test_forcing_the_settled_tokens_continues_the_shown_text():
    translator = Translator.load(PHRASEBOOK / "en-zh", "en-zh")
    full = translator.translate("Thank you very much.")
    settled = [t for t in full.token_ids if t not in translator.codec.skipped_ids][:2]
    shown = translator.codec.decode(settled)

    def continued(text: str) -> SentenceResult:
        (sentence,) = translator.stream(text, DecodeOptions(), forced=[settled])
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


@pytest.mark.parametrize("mode, choice", [("agree", "balanced"), ("force", "balanced"), ("agree", "smoother")])
def test_provisional_translations_never_change_settled_text(recording, run_pipeline, mode, choice):
    # The phrasebook writes 孩子们在玩。 for this sentence from "The children are playing" on, so enough
    # partials agree for text to settle whatever the CPU makes of the speech ("Hello, everyone.
    # Welcome …" settled here but not under --cpu-isa amd-avx2, whose partials ran its sentences together).
    said = "The children are playing outside in the rain with their friends today. Welcome to the meeting."
    wav = recording("calm", english([said]), gap_s=1.0)
    run = run_pipeline(wav, "en-zh", calm=mode, live_text=LiveText(choice))
    provisional = run.translations(provisional=True)
    assert provisional, "no provisional translation to check"
    for uid in {t.utterance_id for t in provisional}:
        shown = [t for t in run.of(Translation) if t.utterance_id == uid]
        settled = ""
        for before, t in zip([None, *shown], shown):
            if not t.provisional:
                assert t.stable == len(t.text)  # a final is settled whole (and decoded as always)
                continue
            assert 0 <= t.stable <= len(t.text) and t.text.startswith(settled), (settled, t.text)
            settled = max(settled, t.text[: t.stable], key=len)
            if choice == "smoother" and before is not None:
                assert t.text.startswith(before.text), (before.text, t.text)  # smoother: shown text only grows
    if choice == "balanced":
        assert any(t.stable for t in provisional), "nothing ever settled"
    assert [t.text for t in run.translations()] == [
        Translator.load(PHRASEBOOK / "en-zh", "en-zh").translate(f.text).text for f in run.finals()
    ]


def test_the_config_holds_enums_and_is_the_one_default_of_the_calm_mode():
    config = PipelineConfig(chinese="traditional", calm="force", live_text="sooner")  # as a command line gives them
    assert (config.chinese, config.calm, config.live_text) == (ChineseScript.TRADITIONAL, CalmMode.FORCE, "sooner")
    assert all(
        isinstance(v, type(d)) for v, d in ((config.chinese, ChineseScript.SIMPLIFIED), (config.calm, CalmMode.OFF))
    )
    assert config.copy().chinese is ChineseScript.TRADITIONAL and config.copy().calm is CalmMode.FORCE
    assert PipelineConfig().calm is CalmMode.AGREE and PipelineConfig().chinese is ChineseScript.SIMPLIFIED
    assert inspect.signature(CalmText).parameters["mode"].default is inspect.Parameter.empty  # no second default
    with pytest.raises(LiveTranslatorError, match="Unknown Chinese script"):
        PipelineConfig(chinese="klingon")


def test_a_session_shows_by_the_rule_its_config_gives(recording, run_pipeline):
    """What a bench tries (bench/live_text.py, "guesses") comes through the constructor, no hook: a
    rule that trusts no token shows no provisional text (the phrasebook, sure of this sentence,
    shows most of it by the live-text choice's rule); finals are translated as always."""
    wav = recording("blind", english(["The children are playing outside in the rain with their friends."]))
    blind = ShowRule(sure_p=1.01, agree_p=1.01, witness_p=1.01, settle_p=1.01)
    run = run_pipeline(wav, "en-zh", calm=CalmMode.OFF, show_rule=blind)
    assert run.of(SourcePartial) and not [t.text for t in run.translations(provisional=True) if t.text]
    phrasebook = Translator.load(PHRASEBOOK / "en-zh", "en-zh")
    assert [t.text for t in run.translations()] == [phrasebook.translate(f.text).text for f in run.finals()]


# -- real decodes: the phrasebook model on growing halves of sentences it does not know ------------


def live(translator: Translator, calm: CalmText, texts: list[str], uid: int = 1) -> list[tuple[str, str, int] | None]:
    """Each text decoded as the translation stage decodes a partial (greedy, CalmText's forced
    tokens), then through CalmText: (the decode's own text, shown text, settled characters), the
    shown part None when it was held back."""
    out = []
    for text in texts:
        sentences, joined = decode(translator, calm, text, uid)
        witness = None
        if calm.wants_witness(uid, sentences) and less_last_words(text):  # as the translation stage does
            witness, _ = decode(translator, calm, less_last_words(text), uid)
        shown = calm.update(uid, sentences, joined, witness=witness)
        out.append((joined, *shown) if shown else (joined, None, 0))
    return out


def decode(translator: Translator, calm: CalmText, text: str, uid: int = 1) -> tuple[list[DecodedSentence], str]:
    """A partial decoded as the translation stage decodes it: (its sentences for CalmText, its text)."""
    results = list(translator.stream(text, DecodeOptions(num_beams=1), forced=calm.forced(uid)))
    joined, _ = join_translations([(r.translation, r.low_confidence) for r in results], translator.joiner, True)
    return calm_sentences(translator, results), joined


def halves(sentence: str) -> list[str]:
    """The sentence as recognition's partials grow it, a word at a time (from two words on)."""
    words = sentence.split()
    return [" ".join(words[:n]) for n in range(2, len(words) + 1)]


@pytest.fixture(scope="module")
def phrasebook_zh() -> Translator:
    return Translator.load(PHRASEBOOK / "en-zh", "en-zh")


def test_an_unsure_half_sentence_still_shows_its_agreed_prefix(phrasebook_zh):
    texts = ["I drink tea every morning with my", "I drink tea every morning with my friend"]
    agreement = replace(RULES[LiveText.BALANCED], witness_p=1.01)  # two decodes' agreement alone
    (first, second) = live(phrasebook_zh, CalmText("agree", agreement), texts)
    for text in texts:
        unsure = phrasebook_zh.translate(text).sentences[0]
        assert unsure.sure_chars == 0 and min(unsure.token_p) < SURE_P  # the model is unsure from its first word
    assert [shown for _, shown, _ in live(phrasebook_zh, CalmText("agree", BEFORE), texts)] == [None, None]
    assert first[1] is None  # nothing yet to agree with
    assert second[1] == first[0] == second[0] == "我每天早上喝茶。"  # two decodes agree: shown whole


@pytest.mark.parametrize("choice", list(LiveText))
@pytest.mark.parametrize(
    "sentence",
    [
        "We need more time to finish the work.",
        "Let's start the meeting now please.",
        "I drink tea every morning with my friend.",
    ],
)
def test_reading_mode_never_shows_a_prefix_that_later_changes(phrasebook_zh, choice, sentence):
    """Reading mode shows settled text only: what three decodes agreed on, which no later decode of
    these sentences changes. (It is evidence, not proof: four partials of "Where is the station
    and the bathroom?" agree on 车站在哪里 before the whole sentence gives 洗手间在哪里; the final
    corrects it, and CalmText holds back any provisional update that would.)"""
    steps = live(phrasebook_zh, CalmText("agree", RULES[choice]), halves(sentence))
    decoded = [d for d, _, _ in steps]
    for k, (_, shown, stable) in enumerate(steps):
        settled = (shown or "")[:stable]
        assert all(later.startswith(settled) for later in decoded[k + 1 :]), (k, settled, decoded)
    if sentence.startswith("We need"):
        changed = [a for a, b in zip(decoded, decoded[1:]) if a[:2] == "我们" and not b.startswith("我们")]
        assert changed, decoded  # the decodes do take back a prefix two of them agreed on (我们需要更多时间)
        assert any(s for _, s, _ in steps), steps  # and yet something is shown


@pytest.mark.parametrize(
    "sentence",
    [
        "We need more time to finish the work.",
        "Let's start the meeting now please.",
        "I drink tea every morning with my friend.",
    ],
)
def test_smoother_text_only_grows(phrasebook_zh, sentence):
    steps = live(phrasebook_zh, CalmText("agree", RULES[LiveText.SMOOTHER]), halves(sentence))
    shown = [s for _, s, _ in steps if s is not None]
    assert all(b.startswith(a) for a, b in zip(shown, shown[1:])), shown
    raw = [d for d, _, _ in steps]
    if sentence.startswith("We need"):
        assert not all(b.startswith(a) for a, b in zip(raw, raw[1:])), raw  # the decodes themselves do not only grow


BALANCED = RULES[LiveText.BALANCED]


def test_a_witness_shows_an_unsure_first_decodes_agreed_prefix(phrasebook_zh):
    """The first decode of an utterance has no earlier one to agree with; a witness (the same
    partial less its last two words, decoded just before) stands in for it, until something shows."""
    text = "It is raining outside and the city is cold."
    calm = CalmText("agree", BALANCED)
    sentences, joined = decode(phrasebook_zh, calm, text)
    assert joined == "外面在下雨。" and BALANCED.witness_p <= min(sentences[0].p) < SURE_P  # unsure of 外
    assert CalmText("agree", BALANCED).update(1, sentences, joined) is None  # alone: nothing
    assert calm.wants_witness(1, sentences)
    witness, said = decode(phrasebook_zh, calm, less_last_words(text))
    assert said == joined
    assert calm.update(1, sentences, joined, witness=witness) == (joined, 0)  # shown whole, and not settled
    again, _ = decode(phrasebook_zh, calm, text)
    assert not calm.wants_witness(1, again)  # something is shown: the next decodes agree with it
    assert not CalmText("agree", RULES[LiveText.SOONER]).wants_witness(1, sentences)  # shows guesses anyway
    assert not CalmText("agree", RULES[LiveText.SMOOTHER]).wants_witness(1, sentences)  # takes no witness
    assert not CalmText("agree", replace(BALANCED, witness_p=1.01)).wants_witness(1, sentences)


def test_a_witness_that_disagrees_or_is_unsure_shows_nothing_more(phrasebook_zh):
    calm = CalmText("agree", BALANCED)
    sentences, joined = decode(phrasebook_zh, calm, "Let's start the")
    witness, said = decode(phrasebook_zh, calm, "Let's start")
    assert said != joined and said[0] != joined[0]  # 她喜欢咖啡 against 我们开始开会吧
    assert calm.update(1, sentences, joined, witness=witness) is None
    doubtful = replace(BALANCED, witness_p=0.6)  # agreed whole, but its first token (p 0.53) below witness_p
    calm = CalmText("agree", doubtful)
    sentences, joined = decode(phrasebook_zh, calm, "I drink tea every morning with my")
    witness, said = decode(phrasebook_zh, calm, "I drink tea every morning")
    assert said == joined and BALANCED.witness_p <= min(sentences[0].p) < doubtful.witness_p
    assert calm.update(1, sentences, joined, witness=witness) is None


def test_less_last_words():
    assert less_last_words("We need more time.") == "We need"
    assert less_last_words("We need more") == ""  # one word would be left: no witness
    assert less_last_words("我们需要更多时间。") == "我们需要更多"
    assert less_last_words("你好吗？") == ""
    assert less_last_words("We need more time.", 1) == "We need more"


def learn_finals(translator: Translator, calm: CalmText, texts: list[str], key: str = "en-zh") -> None:
    """Finals of earlier utterances, as the translation stage finishes them: they teach the
    session's length ratio."""
    for uid, text in enumerate(texts, start=100):
        sentences, _ = decode(translator, calm, text, uid)
        calm.finish(uid, sentences, key)


def test_a_half_sentence_shows_no_further_than_its_source_leads(phrasebook_zh):
    """ "We need more" decodes sure to 我们需要更多时间。 (we need more time): the model has
    finished the sentence for the speaker. Once the session's finals say how long a translation
    runs against its source, a half sentence shows only its lead's share of that."""
    lead = replace(BALANCED, lead=0.5)
    sentences, joined = decode(phrasebook_zh, CalmText("agree", lead), "We need more")
    assert joined == "我们需要更多时间。" and min(sentences[0].p) >= SURE_P
    assert CalmText("agree", lead).update(1, sentences, joined) == (joined, 0)  # no final yet: no limit

    calm = CalmText("agree", lead)
    learn_finals(phrasebook_zh, calm, ["Thank you very much.", "I am fine, thank you."])
    limit = calm.ratio.limit("en-zh", sentences[0], 0.5)
    assert 0 < limit < len(sentences[0].ids)
    assert calm.update(1, sentences, joined, key="en-zh") == (joined[: sentences[0].ends[limit - 1]], 0)

    other_way = CalmText("agree", lead)  # a final the other way teaches nothing about this one
    learn_finals(phrasebook_zh, other_way, ["Thank you very much."], key="zh-en")
    assert other_way.update(1, sentences, joined, key="en-zh") == (joined, 0)


def test_only_the_sentence_still_spoken_is_held_to_the_lead(phrasebook_zh):
    calm = CalmText("agree", replace(BALANCED, lead=0.5))
    learn_finals(phrasebook_zh, calm, ["Thank you very much.", "I am fine, thank you."])
    sentences, joined = decode(phrasebook_zh, calm, "Thank you very much. We need more")
    assert joined.startswith("非常感谢。") and len(sentences) == 2
    shown, _ = calm.update(1, sentences, joined, key="en-zh")
    assert shown.startswith("非常感谢。") and len(shown) < len(joined)  # the whole first sentence, part of the second


def test_shown_text_stays_while_the_newest_decode_still_writes_it(phrasebook_zh):
    """The evidence and the lead decide what is added to the shown text, not what is taken back:
    text the reader has and the newest decode still writes would only vanish and come back."""
    calm = CalmText("agree", replace(BALANCED, lead=0.5))
    sentences, joined = decode(phrasebook_zh, calm, "We need more", uid=200)
    assert calm.update(200, sentences, joined, key="en-zh") == (joined, 0)  # no final yet: no limit
    learn_finals(phrasebook_zh, calm, ["Thank you very much.", "I am fine, thank you."])  # the other speaker's
    again, joined_again = decode(phrasebook_zh, calm, "We need more time", uid=200)
    limit = calm.ratio.limit("en-zh", again[0], 0.5)
    assert joined_again == joined and 0 < limit < len(again[0].ids)
    assert calm.update(200, again, joined_again, key="en-zh") == (joined, 0)  # kept whole, not cut to the lead
    fresh = CalmText("agree", replace(BALANCED, lead=0.5))  # shown for the first time: the lead applies
    fresh.ratio = calm.ratio
    assert fresh.update(200, again, joined_again, key="en-zh") == (joined[: again[0].ends[limit - 1]], 0)


def test_no_witness_is_decoded_when_the_lead_leaves_it_nothing_to_add(phrasebook_zh):
    """A witness decode costs as much as the partial's own; it is made only where what it could
    vouch for would be shown."""
    calm = CalmText("agree", BALANCED)
    sentences, joined = decode(phrasebook_zh, calm, "We need", uid=200)
    assert joined == "明天见。" and sentences[0].p[0] >= SURE_P > sentences[0].p[1]  # sure of one token only
    assert calm.wants_witness(200, sentences, key="en-zh")  # no final yet: no lead, a witness could add
    learn_finals(phrasebook_zh, calm, ["Thank you very much.", "I am fine, thank you."])
    assert calm.ratio.limit("en-zh", sentences[0], BALANCED.lead) == 1  # the lead allows the one sure token
    assert not calm.wants_witness(200, sentences, key="en-zh")
    assert calm.wants_witness(200, sentences, key="zh-en")  # nothing learnt the other way


def test_the_shipped_lead_limits_balanced_and_smoother_not_sooner():
    assert RULES[LiveText.BALANCED].lead == RULES[LiveText.SMOOTHER].lead < 1
    assert RULES[LiveText.SOONER].lead == float("inf")  # sooner shows every guess
