"""The translation's loop guard calls a repetition a loop only beyond what the source holds (issue
42): a number read out digit by digit ("8 8 8 8 8 8 8 8 8 8 8 8 8 8") is the speaker's, and a
translation copying it used to be stopped after 12 tokens, the rest of the sentence lost."""

from __future__ import annotations

from app.translation import DecodeOptions, Translator
from app.translation.generation_settings import GenerationSettings
from app.translation.search import longest_repetition, loop_window_for

from .conftest import family_dir, translator
from .graph_edits import force_next_token


def test_the_longest_repetition_of_a_block():
    assert longest_repetition([5, 8, 8, 8, 8, 6]) == 4
    assert longest_repetition([9, 1, 9, 1, 9, 1, 9, 7]) == 7  # "9, 9, 9, 9": a two-token block
    assert longest_repetition([1, 2, 3, 4, 5]) == 0
    assert longest_repetition([1, 1]) == 2
    settings = GenerationSettings(decoder_start_token_id=0, eos_token_ids=(1,))
    assert loop_window_for(settings, [3, 4, 5, 4, 4]).loop_window == 12  # nothing long: as configured
    assert loop_window_for(settings, [3] + [8] * 14 + [2]).loop_window == 28
    off = GenerationSettings(decoder_start_token_id=0, eos_token_ids=(1,), loop_window=0)
    assert loop_window_for(off, [8] * 20).loop_window == 0  # off stays off


def test_a_source_that_repeats_gives_its_translation_room_to_repeat(copy_layout):
    """A decoder made to write one token forever: stopped after 12 tokens for a plain sentence,
    after twice the source's own run for a sentence holding one. Both still stop as a loop."""
    folder = copy_layout("marian-en-zh", "merged")
    t0 = translator(str(family_dir("marian-en-zh") / "merged"), "en-zh")
    force_next_token(folder / "decoder_model_merged.onnx", {-1: 40}, t0.model.vocab_size)
    t = Translator.load(folder, "en-zh")
    options = DecodeOptions(num_beams=1, max_new_tokens=80)
    plain = t.translate("The weather is nice today.", options).sentences[0]
    assert plain.stop_reason == "loop" and len(plain.token_ids) == 12
    said = "The number is " + " ".join("8" * 16) + "."
    held = longest_repetition(t.codec.source_ids(said))
    assert held >= 14, held  # the digits come out as one token each, repeated
    repeated = t.translate(said, options).sentences[0]
    assert repeated.stop_reason == "loop" and len(repeated.token_ids) == 2 * held, repeated.loop_detail
