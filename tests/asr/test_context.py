"""The context a final decode gets (app.asr.context): the previous utterance's audio and text, the finals before."""

import numpy as np

from app.asr.context import FinalContext

RATE = 16000


def tone(seconds: float, value: float) -> np.ndarray:
    return np.full(int(seconds * RATE), value, np.float32)


def test_the_previous_utterance_goes_first_and_the_finals_before_it_are_the_prompt():
    context = FinalContext()
    assert context.around(tone(1, 0.3), keep=200)[1:] == (None, None)  # nothing yet
    context.remember(tone(1, 0.1), "One.", keep=200)
    context.remember(tone(1, 0.2), "Two.", keep=200)
    audio, prompt, prefix = context.around(tone(1, 0.3), keep=200)
    assert (prompt, prefix) == ("One.", "Two.")
    assert len(audio) == 2 * RATE + int(0.3 * RATE)  # the previous utterance, a gap, this one
    assert audio[0] == np.float32(0.2) and audio[RATE + 100] == 0.0 and audio[-1] == np.float32(0.3)


def test_too_long_together_the_previous_text_joins_the_prompt_instead():
    context = FinalContext()
    context.remember(tone(1, 0.1), "One.", keep=200)
    context.remember(tone(20, 0.2), "Two.", keep=200)
    audio, prompt, prefix = context.around(tone(9, 0.3), keep=200)  # 29 s: past Whisper's window
    assert (prompt, prefix, len(audio)) == ("One. Two.", None, 9 * RATE)
    assert context.around(tone(9, 0.3), keep=4)[1] == "Two."  # at most `keep` characters


def test_the_prompt_keeps_the_latest_characters_and_nothing_empty():
    context = FinalContext()
    for text in ("First sentence.", "", "Second one.", "Third."):
        context.remember(tone(1, 0.1), text, keep=11)
    assert context.text == "Second one." and context.previous[1] == "Third."
    context.remember(tone(1, 0.1), "Not kept.", keep=0)  # 0: no context in this language
    assert context.previous[1] == "Third."
    context.forget()
    assert (context.text, context.previous) == ("", None)
