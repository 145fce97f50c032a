"""Generation settings resolve like generate's, and the loop guard's rule."""

from __future__ import annotations

import numpy as np

from app.translation import DecodeOptions
from app.translation.generation_settings import resolve_settings
from app.translation.search import find_loop, process_scores

from .conftest import family_dir, translator


def test_settings_come_from_generation_config_and_options_override_them():
    t = translator(str(family_dir("marian-en-zh") / "merged"), "en-zh")
    base = t.settings()
    config = t.model.generation_config
    assert base.num_beams == config["num_beams"] and base.renormalize_logits is True
    assert base.decoder_start_token_id == config["decoder_start_token_id"] == base.pad_token_id
    assert base.bad_words_ids == ((config["pad_token_id"],),)  # pad is never generated
    assert base.max_length == min(config["max_length"], t.model.max_positions)
    custom = t.settings(DecodeOptions(num_beams=2, max_new_tokens=7, length_penalty=0.3, early_stopping="never"))
    assert (custom.num_beams, custom.max_length, custom.length_penalty, custom.early_stopping) == (2, 8, 0.3, "never")
    m2m = translator(str(family_dir("m2m100") / "merged"), "zh-en").settings()
    assert (
        m2m.forced_bos_token_id == translator(str(family_dir("m2m100") / "merged"), "zh-en").codec.forced_bos_token_id
    )
    assert m2m.early_stopping is True and m2m.num_beams == 5


def test_config_json_is_used_when_there_is_no_generation_config():
    s = resolve_settings({}, {"decoder_start_token_id": 9, "eos_token_id": 0, "num_beams": 3, "max_length": 50}, {}, 40)
    assert (s.decoder_start_token_id, s.eos_token_ids, s.num_beams, s.max_length) == (9, (0,), 3, 40)


def test_processors_ban_and_force_like_generate():
    s = resolve_settings(
        {
            "decoder_start_token_id": 5,
            "eos_token_id": 0,
            "forced_eos_token_id": 0,
            "max_length": 6,
            "min_length": 3,
            "no_repeat_ngram_size": 2,
            "bad_words_ids": [[4], [1, 2]],
        },
        {},
        {},
        None,
    )
    scores = np.zeros((1, 8), np.float32)
    out = process_scores(s, np.array([[5, 1]]), scores)
    assert (
        np.isneginf(out[0, [0, 4, 2]]).all() and np.isfinite(out[0, [1, 3, 5, 6, 7]]).all()
    )  # eos < min_length, bad words
    out = process_scores(s, np.array([[5, 1, 3, 1]]), scores)
    assert np.isneginf(out[0, 3])  # "1 3" already seen: no_repeat_ngram_size=2
    out = process_scores(s, np.array([[5, 1, 3, 6, 7]]), scores)
    assert out[0, 0] == 0 and np.isneginf(np.delete(out[0], 0)).all()  # forced EOS on the last position


def test_find_loop():
    assert find_loop([7] * 12, 12) == (7,)
    assert find_loop([1, 2] * 6, 12) == (1, 2)
    assert find_loop([9] + [1, 2, 3] * 4, 12) == (1, 2, 3)
    assert find_loop([3, 1, 2, 4] * 3, 12) == (3, 1, 2, 4)
    assert find_loop([1, 2, 3, 4, 5] * 3, 12) is None  # a block of 5 is not a short cycle
    assert find_loop([7] * 11, 12) is None and find_loop([7] * 30, 0) is None
    assert find_loop([1, 2] + [7] * 11, 12) is None
