"""One test per failure in /work/shared/seeds: each must give the right output or a clear
error, never a crash or silent garbage."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import app.translation.decoding as decoding_module
from app.shared.errors import LiveTranslatorError
from app.translation import DecodeOptions, Translator
from app.translation.onnx_model import DecoderRun, numpy_view
from app.translation.search import Search

from .conftest import cases, family_dir, translator
from .graph_edits import add_unused_input, force_next_token

# -- seed: a decoder export missing the encoder-cache inputs (15 inputs, fed 28) ------------


def test_legacy_decoder_without_encoder_cache_inputs_is_fed_exactly_what_it_declares():
    t = translator(str(family_dir("marian-en-zh") / "legacy"), "en-zh")
    later = t.model.decoders.later_sig
    assert later.kind == "legacy" and not later.cross_past and "use_cache_branch" not in later.inputs
    assert len(later.inputs) == 3 + 2 * len(later.self_past)  # like the seed's 15 = 3 + 2 x 6
    assert "older decoder" in t.model_name
    ref = cases("marian-en-zh", "en-zh")[0]["results"][0]
    result = t.translate_ids(
        ref["input_ids"], DecodeOptions(num_beams=1, max_new_tokens=40, loop_window=0, verify=True)
    )
    assert result.token_ids == ref["output_ids"][1:]
    assert result.max_abs_diff < 1e-4
    assert [s.self_kv_len for s in result.steps] == list(range(1, len(result.steps) + 1))
    assert {s.cross_kv_len for s in result.steps} == {len(ref["input_ids"])}


def test_decoder_with_unknown_inputs_is_refused_naming_them(copy_layout):
    folder = copy_layout("marian-en-zh", "merged")
    add_unused_input(folder / "decoder_model_merged.onnx", "position_ids")
    with pytest.raises(LiveTranslatorError) as error:
        Translator.load(folder, "en-zh")
    assert "position_ids" in error.value.message and "decoder_model_merged.onnx" in error.value.message
    assert "past_key_values.0.decoder.key" in error.value.message  # it lists what the file declares
    assert error.value.hint


def test_half_a_shared_cache_protocol_is_refused_naming_it(copy_layout):
    """A decoder that declares seqlens_k without total_sequence_length cannot be fed right."""
    folder = copy_layout("marian-en-zh", "merged")
    add_unused_input(folder / "decoder_model_merged.onnx", "seqlens_k")
    with pytest.raises(LiveTranslatorError) as error:
        Translator.load(folder, "en-zh")
    assert "shared-cache decoder needs seqlens_k, total_sequence_length" in error.value.message
    assert error.value.hint


# -- seed: M2M100 started from the language token alone, and token 128 repeated ------------


@pytest.mark.parametrize("direction", ["en-zh", "zh-en"])
def test_m2m100_decoder_prefix_is_eos_then_target_language(direction):
    t = translator(str(family_dir("m2m100") / "merged"), direction)
    target = direction.split("-")[1]
    lang_id = t.codec.backend.token_id(f"__{target}__")
    assert t.codec.forced_bos_token_id == lang_id
    ref = cases("m2m100", direction)[0]["results"][0]
    assert ref["input_ids"][0] == t.codec.backend.token_id(f"__{direction.split('-')[0]}__")
    options = DecodeOptions(num_beams=1, max_new_tokens=40, loop_window=0)
    result = t.translate_ids(ref["input_ids"], options)
    assert result.steps[0].self_kv_len == 2  # step 0 saw [</s>, __tgt__]
    assert result.token_ids[0] == lang_id and result.token_ids == ref["output_ids"][1:]
    assert ref["output_ids"][:2] == [t.settings().decoder_start_token_id, lang_id]

    # The seed's prefix (the language token alone as decoder start) gives other tokens: a test
    # comparing with generate's reference catches it.
    wrong = dataclasses.replace(t.settings(options), decoder_start_token_id=lang_id, forced_bos_token_id=None)
    run = DecoderRun(
        t.model.decoders,
        t.model.encoder(np.array([ref["input_ids"]]), np.ones((1, len(ref["input_ids"])), np.int64)),
        np.ones((1, len(ref["input_ids"])), np.int64),
        batch=1,
    )
    search = Search(wrong, run.advance, run.reorder)
    list(search.run())
    assert search.sequence[1:] != ref["output_ids"][2:]


# -- seed: the KV cache whose values died between steps --------------------------------------


class StaleCacheRun(DecoderRun):
    """The seed's bug: the cache of step 0 is fed again and again instead of the newest one."""

    def advance(self, sequences):
        kept = self.self_cache
        logits = super().advance(sequences)
        if kept is not None:
            self.self_cache = kept
        return logits


def test_a_cache_not_carried_forward_is_detected_by_verify(monkeypatch):
    t = translator(str(family_dir("marian-en-zh") / "merged"), "en-zh")
    ref = cases("marian-en-zh", "en-zh")[0]["results"][-1]  # the long sentence
    options = DecodeOptions(num_beams=1, max_new_tokens=12, loop_window=0, verify=True)
    good = t.translate_ids(ref["input_ids"], options)
    assert good.max_abs_diff < 1e-4
    monkeypatch.setattr(decoding_module, "DecoderRun", StaleCacheRun)
    broken = t.translate_ids(ref["input_ids"], options)
    assert broken.steps[0].max_abs_diff < 1e-4  # step 0 needs no cache
    assert max(s.max_abs_diff for s in broken.steps[2:]) > 1e-2  # later steps: verify sees it


@pytest.mark.parametrize("layout", ["merged", "merged-fused"])  # optimum's cache; ours, shared in place
def test_step_k_with_cache_equals_full_recompute_and_cross_cache_comes_from_step_0(layout):
    t = translator(str(family_dir("marian-en-zh") / layout), "en-zh")
    ref = cases("marian-en-zh", "en-zh")[0]["results"][-1]
    ids = np.array([ref["input_ids"]])
    mask = np.ones_like(ids)
    run = DecoderRun(t.model.decoders, t.model.encoder(ids, mask), mask, batch=1)
    sequence = np.array([ref["output_ids"][:1]])
    first_cross = None
    for k in range(8):
        cached = run.advance(sequence)
        if k == 0:
            first_cross = list(run.cross_cache)
            assert run.used_cache_branch is False
        else:
            assert run.used_cache_branch is True
        # the merged graph's dummy encoder presents (0, heads, 1, head_dim) are never taken
        assert run.cross_cache == first_cross
        assert first_cross[0].shape()[2] == ids.shape[1]
        assert run.self_kv_len == k + 1
        np.testing.assert_allclose(cached, run.recompute(sequence), atol=1e-4)
        sequence = np.concatenate([sequence, [[int(np.argmax(cached[0]))]]], axis=1)


# -- seed: decoding that repeated one token (or a short cycle) forever -----------------------


@pytest.mark.parametrize("pattern", ["one token", "two-token cycle"])
def test_a_model_that_loops_is_stopped_and_reported(copy_layout, pattern):
    folder = copy_layout("marian-en-zh", "merged")
    t0 = translator(str(family_dir("marian-en-zh") / "merged"), "en-zh")
    vocab = t0.model.vocab_size
    a, b = 40, 41
    force_next_token(
        folder / "decoder_model_merged.onnx", {-1: a} if pattern == "one token" else {-1: a, a: b, b: a}, vocab
    )
    t = Translator.load(folder, "en-zh")
    text = "The weather is nice today."
    result = t.translate(text, DecodeOptions(num_beams=1))
    sentence = result.sentences[0]
    assert result.stop_reason == "loop" and sentence.stop_reason == "loop"
    assert len(sentence.token_ids) == 12 and set(sentence.token_ids) == ({a} if pattern == "one token" else {a, b})
    assert "repeat" in sentence.loop_detail and str(a) in sentence.loop_detail
    # beam search is guarded too
    assert t.translate(text, DecodeOptions(num_beams=3)).stop_reason == "loop"
    # without the guard the same model runs to the length limit
    unguarded = t.translate(text, DecodeOptions(num_beams=1, loop_window=0, max_new_tokens=30))
    assert unguarded.stop_reason == "length" and len(unguarded.token_ids) == 30


@pytest.mark.parametrize("layout", ["merged", "merged-fused"])
def test_beam_reorder_reads_the_cache_in_place_and_gathers_rows(layout):
    from app.translation.onnx_model import ortvalue

    value = ortvalue(np.arange(24, dtype=np.float32).reshape(3, 2, 2, 2))
    view = numpy_view(value)
    assert view.ctypes.data == value.data_ptr()  # no copy through numpy
    np.testing.assert_array_equal(view, value.numpy())
    t = translator(str(family_dir("marian-en-zh") / layout), "en-zh")
    ids = np.array([cases("marian-en-zh", "en-zh")[0]["results"][0]["input_ids"]])
    run = DecoderRun(t.model.decoders, t.model.encoder(ids, np.ones_like(ids)), np.ones_like(ids), batch=3)
    start = t.settings().decoder_start_token_id
    sequences = np.array([[start, 5], [start, 6], [start, 7]])
    run.advance(sequences)
    length = run.self_kv_len

    def beam_caches():  # beam b's cache is in batch row run.rows[b]
        return [v.numpy()[run.rows, :, :length].copy() for v in run.self_cache]

    # .copy(): OrtValue.numpy() can be a view of the very memory the reorder rewrites in place
    before, pointers = beam_caches(), [v.data_ptr() for v in run.self_cache]
    rows_before = [v.numpy().copy() for v in run.self_cache]
    run.reorder(np.array([2, 2, 0]))  # beam 1 has no child: its row is the only one written
    for old, new in zip(before, beam_caches()):
        np.testing.assert_array_equal(new, old[[2, 2, 0]])
    assert [v.data_ptr() for v in run.self_cache] == pointers  # in place, no new tensors
    assert run.rows.tolist() == [2, 1, 0]  # beam 0 keeps its parent's row, beam 1 gets the free one
    for old, value in zip(rows_before, run.self_cache):
        np.testing.assert_array_equal(value.numpy()[[0, 2]], old[[0, 2]])  # rows 0 and 2 untouched
        np.testing.assert_array_equal(value.numpy()[1, :, :length], old[2, :, :length])  # one row copied
    before = beam_caches()
    rows = run.rows.copy()
    run.reorder(np.array([1, 0, 2]))  # a permutation: nothing copied, only the map changes
    assert run.rows.tolist() == rows[[1, 0, 2]].tolist()
    for old, new in zip(before, beam_caches()):
        np.testing.assert_array_equal(new, old[[1, 0, 2]])
    # the next step's logits come back in beam order: equal to a recompute of each beam's prefix
    sequences = np.concatenate([sequences[[2, 2, 0]][[1, 0, 2]], [[8], [9], [10]]], axis=1)
    np.testing.assert_allclose(run.advance(sequences), run.recompute(sequences), atol=1e-4)


# -- the shared cache (our export): one buffer per past, written in place by each step --------


class LostWritesRun(DecoderRun):
    """A shared buffer whose newest position never arrives (a present not bound to the past's
    buffer would do this): the next steps read zeros there."""

    def advance(self, sequences):
        logits = super().advance(sequences)
        if self.step > 1:
            for value in self.self_cache:
                numpy_view(value)[:, :, self.length - 1] = 0
        return logits


def test_shared_cache_positions_come_from_the_cached_length_and_writes_stay(monkeypatch):
    """optimum's graphs take the position of the new token from the past's shape: with a buffer
    that would be its capacity. Any capacity (growing mid-sentence, or far larger than needed)
    must give the logits of a full recompute, and the buffers are written in place."""
    t = translator(str(family_dir("marian-en-zh") / "merged-fused"), "en-zh")
    assert t.model.decoders.later_sig.shared_cache
    ref = cases("marian-en-zh", "en-zh")[0]["results"][-1]  # the long sentence
    ids = np.array([ref["input_ids"]])
    mask = np.ones_like(ids)
    sequence = np.array([ref["output_ids"][:1]])
    logits = {}
    for capacity in (2, 500):
        run = DecoderRun(t.model.decoders, t.model.encoder(ids, mask), mask, batch=1, capacity=capacity)
        pointers, cached = [], None
        for k in range(1, 13):
            if sequence.shape[1] == k - 1:  # first pass: greedy tokens; second: the same ones
                sequence = np.concatenate([sequence, [[int(np.argmax(cached[0]))]]], axis=1)
            cached = run.advance(sequence[:, :k])
            np.testing.assert_allclose(cached, run.recompute(sequence[:, :k]), atol=1e-4)
            assert run.self_kv_len == k and run.capacity >= k
            pointers.append(run.self_cache[0].data_ptr())
        logits[capacity] = cached
        if capacity == 500:  # room for the whole sentence: one buffer from step 0 to the end
            assert len(set(pointers)) == 1
        else:  # 2 -> 4 -> 8 -> 16: grown by doubling, the valid positions moved along
            assert len(set(pointers)) >= 3
    np.testing.assert_allclose(logits[2], logits[500], atol=1e-5)
    # a buffer that loses the step's writes is caught by verify
    options = DecodeOptions(num_beams=1, max_new_tokens=12, loop_window=0, verify=True)
    monkeypatch.setattr(decoding_module, "DecoderRun", LostWritesRun)
    broken = t.translate_ids(ref["input_ids"], options)
    assert max(s.max_abs_diff for s in broken.steps[3:]) > 1e-2


class RowCheckingRun(DecoderRun):
    """After every step: the row holding each beam has recorded exactly that beam's tokens."""

    moved = 0

    def advance(self, sequences):
        logits = super().advance(sequences)
        np.testing.assert_array_equal(self.row_tokens[self.rows, : self.length], sequences)
        RowCheckingRun.moved += not self._in_order()
        return logits


@pytest.mark.parametrize("layout", ["merged", "merged-fused"])
def test_beam_caches_stay_right_when_rows_are_shared_and_copied(layout, monkeypatch):
    """Beam search moves beams between batch rows and copies a parent's cache only from the
    first position where the rows' tokens differ: every step's logits still equal a full
    recompute of each beam's prefix."""
    t = translator(str(family_dir("marian-en-zh") / layout), "en-zh")
    ref = cases("marian-en-zh", "en-zh")[0]["results"][-1]  # the long sentence
    options = DecodeOptions(num_beams=4, max_new_tokens=30, min_new_tokens=30, loop_window=0, verify=True)
    monkeypatch.setattr(decoding_module, "DecoderRun", RowCheckingRun)
    RowCheckingRun.moved = 0
    result = t.translate_ids(ref["input_ids"], options)
    assert len(result.steps) == 30 and max(s.max_abs_diff for s in result.steps) < 1e-4
    assert RowCheckingRun.moved > 0  # beams did move between rows
