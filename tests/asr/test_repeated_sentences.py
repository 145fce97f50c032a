"""No final holds the same sentence twice in a row, whatever the Whisper size (issue 35: tiny.en
wrote 3 of 6 finals with their sentence two or three times over; base on the same file did not).
The guard (app.asr.guards.drop_repeated_sentences) runs on every decode's text, so it holds for
every model; here on real tiny.en and base weights and espeak-ng speech, and on its own."""

from __future__ import annotations

import re

import numpy as np
import pytest

from app.asr import StreamingRecognizer
from app.asr.guards import drop_repeated_sentences, sentences_of
from app.asr.units import normalized
from app.shared.events import SourceFinal

from .conftest import ENGLISH, normalize_words, read16k, silence

SAID_TWICE = "Today we have three topics to cover. Today we have three topics to cover."
# What each size, decoding plainly, writes two or three times over (as said: the espeak-ng voice
# says it so), and what the recognizer's guards make of it. tiny.en's final used to keep all three,
# joined by commas ("Thank you for coming, thank you for coming, thank you for coming").
SAID_AGAIN = {
    "tiny_en": ("Thank you for coming. " * 3, "thank you for coming"),
    "base": ("We will talk about the new project tomorrow. " * 2, "we will talk about the new project tomorrow"),
}


def repeats_in_a_row(text: str) -> list[str]:
    """Sentences that follow the same sentence."""
    said = [normalized(s) for s in sentences_of(text)]
    return [s for before, s in zip(said, said[1:]) if s and s == before]


def plain_whisper(model, audio) -> str:
    segments, _ = model.transcribe(
        audio, language="en", temperature=0.0, condition_on_previous_text=False, without_timestamps=True
    )
    return " ".join(s.text.strip() for s in segments)


def repeats_in_a_row_or_comma(text: str) -> list[str]:
    """Clauses (cut at full stops and commas) that follow the same clause."""
    said = [normalized(s) for s in re.split(r"[.,!?]\s+", text)]
    return [s for before, s in zip(said, said[1:]) if s and s == before]


@pytest.mark.parametrize("size", sorted(SAID_AGAIN))
def test_a_sentence_said_again_right_after_itself_is_one_sentence_in_the_final(say, request, size):
    model = request.getfixturevalue(size)
    spoken, heard = SAID_AGAIN[size]
    audio = read16k(say(spoken.strip()))
    assert repeats_in_a_row_or_comma(plain_whisper(model, audio)), "Whisper itself writes it again: a real test"
    rec = StreamingRecognizer(model, language="en")
    events = rec.feed(audio) + rec.feed(silence(1.5)) + rec.flush()
    [final] = [e for e in events if isinstance(e, SourceFinal)]
    assert repeats_in_a_row_or_comma(final.text) == [], final.text
    assert normalize_words(final.text) == heard


def test_tiny_en_finals_of_a_meeting_hold_each_sentence_once(say, tiny_en):
    """Six utterances of two sentences each, as people speak in a meeting: every final holds what
    was said, and no sentence twice in a row."""
    pairs = [f"{a} {b}" for a, b in zip(ENGLISH, ENGLISH[1:] + ENGLISH[:1])]
    audio = [silence(0.3)]
    for pair in pairs:
        audio += [read16k(say(pair)), silence(1.2)]
    rec = StreamingRecognizer(tiny_en, language="en")
    events = rec.feed(np.concatenate(audio)) + rec.flush()
    finals = [e.text for e in events if isinstance(e, SourceFinal)]
    assert len(finals) == len(pairs), finals
    for final, said in zip(finals, pairs, strict=True):
        assert repeats_in_a_row_or_comma(final) == [], final
        assert len(normalize_words(final).split()) <= len(normalize_words(said).split()) + 2, (final, said)


def test_the_guard_on_its_own():
    assert (
        drop_repeated_sentences("Thank you for coming, thank you for coming, thank you for coming")
        == "Thank you for coming"
    )
    assert drop_repeated_sentences(" But the weather is nice, but the weather is nice.") == " But the weather is nice."
    assert drop_repeated_sentences("我们今天开会，我们今天开会。") == "我们今天开会。"
    assert drop_repeated_sentences(" " + SAID_TWICE) == " Today we have three topics to cover."
    assert drop_repeated_sentences(" Hello. We meet today. We meet today. We meet today") == " Hello. We meet today."
    assert drop_repeated_sentences(" One. Two. One. Two. Three.") == " One. Two. Three."  # a run of two, twice
    assert drop_repeated_sentences(" It costs 3.5 dollars. It costs 3.5 dollars!") == " It costs 3.5 dollars!"
    assert drop_repeated_sentences("我爱你。我爱你。你呢？") == "我爱你。你呢？"
    for said in (
        " Yes. No. Yes.",  # again only later
        " Thank you, thank you.",  # a short clause after a comma: people say that
        " I said no, no, no.",
        "我爱你，我爱你。",
        " We paid 3,000, 3,000 dollars.",
        " The cat sat.",
        "",
        " ... ... ok",
    ):
        assert drop_repeated_sentences(said) == said
    assert "".join(sentences_of(" A b. C d? E")) == " A b. C d? E"


def test_a_final_never_ends_a_sentence_and_says_its_end_again(say, tiny_en):
    """Issue 42: "Testing 1 2 3. Testing 1 2 3. I love you. I love you." came out of tiny.en as
    "Testing 1, 2, 3, Testing 1 2 3 I love you. I love you": the full stop Whisper left out made
    the second "I love you" no repeat of a whole sentence. Someone who says a sentence again
    right after itself gets it once (docs/engine.md, "Guards"); numbers are kept as said."""
    audio = np.concatenate(
        [silence(0.3), read16k(say("Testing 1 2 3. Testing 1 2 3. I love you. I love you.")), silence(1.2)]
    )
    rec = StreamingRecognizer(tiny_en, language="en")
    events = []
    for i in range(0, len(audio), 1600):  # as a microphone delivers it: partials, then the final
        events += rec.feed(audio[i : i + 1600])
    [final] = [e for e in events + rec.flush() if isinstance(e, SourceFinal)]
    assert normalize_words(final.text).count("i love you") == 1, final.text
    assert repeats_in_a_row(final.text) == [], final.text
    assert drop_repeated_sentences(" Testing 1 2 3 I love you. I love you") == " Testing 1 2 3 I love you."
    assert drop_repeated_sentences(" He said it. It.") == " He said it. It."  # under three words: as said
    assert drop_repeated_sentences(" Call 999. 999.") == " Call 999. 999."  # digits: as said


@pytest.mark.parametrize(
    "text, kept",
    [
        # Whisper base on a quiet real voice (codec2-examples' hts2a at -28 dB, bench/rooms.py): the
        # sentence started over and cut by the token budget; forced as the next final's prefix, the
        # loop went on through four more utterances.
        ("That frog jumped through the weeds. That frog jumped through", "That frog jumped through the weeds."),
        ("The big dog left it on the old rug. The big dog left", "The big dog left it on the old rug."),
        # started over across a comma: the sentence before is the whole sentence, not its last clause
        ("These days, a chicken is a red dish. These days, a chicken", "These days, a chicken is a red dish."),
        # Too short to tell from speech (under four words), or a sentence that ends: kept.
        ("Good morning. Good", "Good morning. Good"),
        (
            "That frog jumped through the weeds. That frog jumped",
            "That frog jumped through the weeds. That frog jumped",
        ),
        ("Hello everyone. How are you", "Hello everyone. How are you"),
    ],
)
def test_a_sentence_started_over_and_cut_short_is_dropped(text, kept):
    assert drop_repeated_sentences(text) == kept
