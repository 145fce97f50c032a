"""app.model_store.optimize: attention fusion changes how the decoders compute, never what they compute."""

from __future__ import annotations

import shutil

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from conftest import FIXTURES, references

from app.model_store.optimize import fuse_attention, fuse_attention_folder, share_self_cache, share_self_cache_folder
from app.translation import DecodeOptions, Translator
from models.export import quantize_dynamic_folder

FAMILIES = ("marian-en-zh", "marian-zh-en", "m2m100")
LAYERS = 2  # fixture models: 2 decoder layers, each with self- and cross-attention


def op_types(path, recurse=True) -> list[str]:
    graph = onnx.load(str(path)).graph
    found = []
    for node in graph.node:
        found.append(node.op_type)
        for attr in node.attribute:
            if recurse and attr.type == onnx.AttributeProto.GRAPH:
                found += [n.op_type for n in attr.g.node]
    return found


def interface(path):
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    return ([(i.name, i.type) for i in session.get_inputs()], [(o.name, o.type) for o in session.get_outputs()])


def settings(case):
    return {k: v for k, v in case["settings"].items() if k not in ("do_sample", "forced_bos_token_id")}


@pytest.mark.parametrize("family", FAMILIES)
def test_every_attention_block_is_fused_and_the_interface_stays(family, tmp_path):
    folder = shutil.copytree(FIXTURES / family / "split", tmp_path / "split")
    before = {name: interface(folder / name) for name in ("decoder_model.onnx", "decoder_with_past_model.onnx")}
    fused = fuse_attention_folder(folder)
    # A transformers/optimum upgrade that changes the exported pattern shows up here as 0.
    assert fused == {"decoder_model.onnx": 2 * LAYERS, "decoder_with_past_model.onnx": 2 * LAYERS}
    for name, names in before.items():
        assert interface(folder / name) == names, name  # the engine's cache protocol is untouched
        ops = op_types(folder / name)
        assert ops.count("MultiHeadAttention") == 2 * LAYERS and "Softmax" not in ops, name
    # the cached step (every step after the first) loses the shape arithmetic of its attention too
    steps = len(op_types(folder / "decoder_with_past_model.onnx"))
    assert steps < 0.6 * len(op_types(FIXTURES / family / "split" / "decoder_with_past_model.onnx"))


@pytest.mark.parametrize("family", FAMILIES)
def test_fused_split_decoders_reproduce_generate_and_their_cache(family, tmp_path):
    """Every reference case (greedy, beam, penalties) gives generate()'s ids through the fused
    decoder pair, and cached steps still equal a full recompute."""
    folder = shutil.copytree(FIXTURES / family / "split", tmp_path / "split")
    fuse_attention_folder(folder)
    for direction in references(family)["directions"]:
        t = Translator.load(folder, direction["direction"])
        checked = 0
        for case in direction["cases"]:
            for ref in case["results"]:
                result = list(t.stream_ids(ref["input_ids"], DecodeOptions(loop_window=0, **settings(case))))[-1]
                assert result.token_ids == ref["output_ids"][1:], (case["name"], ref["text"])
                checked += 1
        assert checked >= 30
        ref = direction["cases"][0]["results"][-1]
        result = list(t.stream_ids(ref["input_ids"], DecodeOptions(verify=True, loop_window=0)))[-1]
        assert result.max_abs_diff < 1e-4


@pytest.mark.parametrize("family", FAMILIES)
def test_committed_fused_fixture_is_what_the_fusion_makes(family, tmp_path):
    folder = shutil.copytree(FIXTURES / family / "merged", tmp_path / "merged")
    assert fuse_attention_folder(folder) == {"decoder_model_merged.onnx": 4 * LAYERS}  # both If branches
    assert share_self_cache_folder(folder) == {"decoder_model_merged.onnx": LAYERS}  # the cached branch's self-attention
    ops = op_types(folder / "decoder_model_merged.onnx")
    assert ops == op_types(FIXTURES / family / "merged-fused" / "decoder_model_merged.onnx")
    assert ops.count("MultiHeadAttention") == 3 * LAYERS and ops.count("GroupQueryAttention") == LAYERS


# -- the shared self-attention cache (GroupQueryAttention writing into the past buffer) ---------

@pytest.mark.parametrize("family", FAMILIES)
def test_shared_cache_split_decoders_reproduce_generate(family, tmp_path):
    """The cached decoder takes the shared-cache inputs; the first-step decoder (no past) is
    left as it is. Every reference case gives generate()'s ids, and cached steps equal a recompute."""
    folder = shutil.copytree(FIXTURES / family / "split", tmp_path / "split")
    fuse_attention_folder(folder)
    assert share_self_cache_folder(folder) == {"decoder_model.onnx": 0, "decoder_with_past_model.onnx": LAYERS}
    names = [name for name, _ in interface(folder / "decoder_with_past_model.onnx")[0]]
    assert names[-2:] == ["seqlens_k", "total_sequence_length"]
    # optimum's graph read the cached length from the past's shape (a buffer's capacity now)
    graph = onnx.load(str(folder / "decoder_with_past_model.onnx")).graph
    assert not [n for n in graph.node if n.op_type == "Shape" and ".decoder." in n.input[0]]
    for direction in references(family)["directions"]:
        t = Translator.load(folder, direction["direction"])
        assert t.model.decoders.later_sig.shared_cache and not t.model.decoders.first_sig.shared_cache
        for case in direction["cases"]:
            for ref in case["results"]:
                result = list(t.stream_ids(ref["input_ids"], DecodeOptions(loop_window=0, **settings(case))))[-1]
                assert result.token_ids == ref["output_ids"][1:], (case["name"], ref["text"])
        ref = direction["cases"][0]["results"][-1]
        result = list(t.stream_ids(ref["input_ids"], DecodeOptions(verify=True, loop_window=0)))[-1]
        assert result.max_abs_diff < 1e-4


def test_a_past_read_for_anything_but_its_length_keeps_the_graph(tmp_path):
    """Whatever else reads a self-attention past would see the buffer's capacity: no rewrite."""
    path = shutil.copy(FIXTURES / "marian-en-zh" / "split" / "decoder_with_past_model.onnx", tmp_path / "d.onnx")
    fuse_attention(path, num_heads=4)
    model = onnx.load(str(path))
    model.graph.node.append(onnx.helper.make_node("Shape", ["past_key_values.0.decoder.key"], ["past_shape"]))
    model.graph.output.append(onnx.helper.make_tensor_value_info("past_shape", onnx.TensorProto.INT64, [4]))
    onnx.save(model, str(path))
    before = path.read_bytes()
    assert share_self_cache(path) == 0
    assert path.read_bytes() == before
    legacy = shutil.copy(FIXTURES / "marian-en-zh" / "legacy" / "decoder_model.onnx", tmp_path / "legacy.onnx")
    assert share_self_cache(legacy) == 0  # nothing fused: nothing to share


def test_a_graph_without_the_pattern_is_left_alone(tmp_path):
    legacy = shutil.copy(FIXTURES / "marian-en-zh" / "legacy" / "decoder_model.onnx", tmp_path / "decoder_model.onnx")
    before = (tmp_path / "decoder_model.onnx").read_bytes()
    assert fuse_attention(legacy, num_heads=4) == 0
    assert (tmp_path / "decoder_model.onnx").read_bytes() == before


def test_int8_twins_of_fused_decoders_agree_with_unfused_twins(tmp_path):
    """Quantizing after fusion (and the shared cache, as the export does) quantizes the same
    MatMuls: fused and plain int8 decode alike."""
    plain = shutil.copytree(FIXTURES / "marian-en-zh" / "merged", tmp_path / "plain")
    fused = shutil.copytree(FIXTURES / "marian-en-zh" / "merged", tmp_path / "fused")
    fuse_attention_folder(fused)
    share_self_cache_folder(fused)
    for folder in (plain, fused):
        quantize_dynamic_folder(folder)
    twin_ops = op_types(fused / "decoder_model_merged_quantized.onnx")
    assert twin_ops.count("MultiHeadAttention") == 3 * LAYERS and twin_ops.count("GroupQueryAttention") == LAYERS
    assert "MatMulInteger" in twin_ops
    t_plain = Translator.load(plain, "en-zh", prefer_quantized=True)
    t_fused = Translator.load(fused, "en-zh", prefer_quantized=True)
    assert t_fused.model.quantized and t_fused.model.decoders.later_sig.shared_cache
    greedy = next(c for c in references("marian-en-zh")["directions"][0]["cases"] if c["name"] == "greedy")
    agree = []
    for ref in greedy["results"]:
        a = list(t_plain.stream_ids(ref["input_ids"], DecodeOptions(loop_window=0)))[-1].token_ids
        b = list(t_fused.stream_ids(ref["input_ids"], DecodeOptions(loop_window=0)))[-1].token_ids
        agree.append(sum(x == y for x, y in zip(a, b)) / max(len(a), len(b)))
    assert np.mean(agree) > 0.9, agree


def test_a_decoder_with_its_own_attention_mask_keeps_its_self_attention(tmp_path):
    """`unidirectional` stands for the causal mask only: a decoder that takes a padding mask of
    its own keeps optimum's self-attention blocks (its cross-attention still fuses)."""
    path = shutil.copy(FIXTURES / "marian-en-zh" / "split" / "decoder_with_past_model.onnx", tmp_path / "d.onnx")
    model = onnx.load(str(path))
    model.graph.input.append(onnx.helper.make_tensor_value_info("decoder_attention_mask", onnx.TensorProto.INT64, ["b", "t"]))
    onnx.save(model, str(path))
    assert fuse_attention(path, num_heads=4) == LAYERS
    assert op_types(path).count("Softmax") == LAYERS
