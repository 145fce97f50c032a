"""app.model_store.optimize: attention fusion changes how the decoders compute, never what they compute."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from conftest import FIXTURES, references
from onnx import numpy_helper

from app.model_store.graph_tools import all_graphs
from app.model_store.int8_twins import Int8Kind, describe, int8_head_from_table
from app.model_store.optimize import fuse_attention, fuse_attention_folder
from app.model_store.self_cache import share_self_cache, share_self_cache_folder
from app.model_store.tied_embedding import share_tied_embedding, share_tied_embedding_folder
from app.translation import DecodeOptions, Translator
from models.export import (
    _quantized_twins,
    quantize_dynamic_folder,
    quantize_like_transformers_js,
    tie_head_by_transpose,
)
from models.fixtures import tie_head_to_embedding

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
                result = t.translate_ids(ref["input_ids"], DecodeOptions(loop_window=0, **settings(case)))
                assert result.token_ids == ref["output_ids"][1:], (case["name"], ref["text"])
                checked += 1
        assert checked >= 30
        ref = direction["cases"][0]["results"][-1]
        result = t.translate_ids(ref["input_ids"], DecodeOptions(verify=True, loop_window=0))
        assert result.max_abs_diff < 1e-4


@pytest.mark.parametrize("family", FAMILIES)
def test_committed_fused_fixture_is_what_the_fusion_makes(family, tmp_path):
    folder = shutil.copytree(FIXTURES / family / "merged", tmp_path / "merged")
    assert fuse_attention_folder(folder) == {"decoder_model_merged.onnx": 4 * LAYERS}  # both If branches
    assert share_self_cache_folder(folder) == {
        "decoder_model_merged.onnx": LAYERS
    }  # the cached branch's self-attention
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
                result = t.translate_ids(ref["input_ids"], DecodeOptions(loop_window=0, **settings(case)))
                assert result.token_ids == ref["output_ids"][1:], (case["name"], ref["text"])
        ref = direction["cases"][0]["results"][-1]
        result = t.translate_ids(ref["input_ids"], DecodeOptions(verify=True, loop_window=0))
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
        a = t_plain.translate_ids(ref["input_ids"], DecodeOptions(loop_window=0)).token_ids
        b = t_fused.translate_ids(ref["input_ids"], DecodeOptions(loop_window=0)).token_ids
        agree.append(sum(x == y for x, y in zip(a, b)) / max(len(a), len(b)))
    assert np.mean(agree) > 0.9, agree


def test_a_decoder_with_its_own_attention_mask_keeps_its_self_attention(tmp_path):
    """`unidirectional` stands for the causal mask only: a decoder that takes a padding mask of
    its own keeps optimum's self-attention blocks (its cross-attention still fuses)."""
    path = shutil.copy(FIXTURES / "marian-en-zh" / "split" / "decoder_with_past_model.onnx", tmp_path / "d.onnx")
    model = onnx.load(str(path))
    model.graph.input.append(
        onnx.helper.make_tensor_value_info("decoder_attention_mask", onnx.TensorProto.INT64, ["b", "t"])
    )
    onnx.save(model, str(path))
    assert fuse_attention(path, num_heads=4) == LAYERS
    assert op_types(path).count("Softmax") == LAYERS


# -- the tied embedding stored once --------------------------------------------------------------


def tied_copy(family: str, layout: str, tmp_path) -> Path:
    """A fixture folder whose decoders' LM head is the transpose of their embedding, as optimum
    exports a tied model (the fixtures' own heads are untied)."""
    folder = shutil.copytree(FIXTURES / family / layout, tmp_path / f"{family}-{layout}-tied")
    for path in sorted(folder.glob("decoder*.onnx")):
        tie_head_to_embedding(path)
    return folder


def transposed_pairs(path) -> list[tuple[str, str]]:
    """Initializers (of the graph and its If branches) whose values are another's transpose."""
    graphs = all_graphs(onnx.load(str(path)).graph)
    weights = {i.name: numpy_helper.to_array(i) for g in graphs for i in g.initializer if len(i.dims) == 2}
    return [
        (a, b)
        for a, x in weights.items()
        for b, y in weights.items()
        if a != b and x.shape == y.shape[::-1] and x.size > 1 and np.array_equal(x.T, y)
    ]


def stored_bytes(path) -> int:
    """What the graph's weights take on disk: the graph and its external-data file."""
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))


def decode_all(translator, sources) -> list:
    """Token ids and every step's top log-probabilities, greedy and with 4 beams."""
    out = []
    for beams in (1, 4):
        for text in sources:
            result = translator.translate(text, DecodeOptions(num_beams=beams, max_new_tokens=24, loop_window=0))
            out.append((result.token_ids, [[(t, p) for t, _, p in step.top] for step in result.steps]))
    return out


def sources(family: str, direction: str) -> list[str]:
    cases = next(d for d in references(family)["directions"] if d["direction"] == direction)["cases"]
    return [ref["text"] for ref in cases[0]["results"]][:6]


@pytest.mark.parametrize(
    "family,layout,direction,expected",
    [
        ("marian-en-zh", "merged", "en-zh", {"decoder_model_merged.onnx": 2}),  # read in both If branches
        ("m2m100", "split", "zh-en", {"decoder_model.onnx": 1, "decoder_with_past_model.onnx": 1}),
        ("marian-zh-en", "merged-fused", "zh-en", {"decoder_model_merged.onnx": 2}),  # what `models export` writes
    ],
)
def test_a_tied_head_reads_the_embedding_table_stored_once_and_decodes_alike(
    family, layout, direction, expected, tmp_path
):
    original = tied_copy(family, layout, tmp_path)
    folder = shutil.copytree(original, tmp_path / "rewritten")
    assert all(transposed_pairs(original / name) for name in expected)  # two copies of the table
    assert share_tied_embedding_folder(folder) == expected
    for name in expected:
        path = folder / name
        assert transposed_pairs(path) == []
        assert op_types(path).count("FusedMatMul") == expected[name]  # the head, nothing else
        # The head reads its own initializer with the table's bytes, stored at the table's place.
        graph = onnx.load(str(path), load_external_data=False).graph
        places = {i.name: {e.key: e.value for e in i.external_data}.get("offset") for i in graph.initializer}
        head = next(i for g in all_graphs(graph) for n in g.node if n.op_type == "FusedMatMul" for i in [n.input[1]])
        table = head.removesuffix(".lm_head")
        assert places[head] is not None and places[head] == places[table]
        vocab, width = next(list(i.dims) for i in graph.initializer if i.name == table)
        assert stored_bytes(path) < stored_bytes(original / name) - 0.9 * vocab * width * 4
    # Exactly the same numbers: the ids and every step's top log-probabilities, greedy and beam.
    texts = sources(family, direction)
    assert decode_all(Translator.load(folder, direction), texts) == decode_all(
        Translator.load(original, direction), texts
    )


def test_a_head_reading_a_transpose_node_of_the_table_reads_the_table(tmp_path):
    """An exporter that shares the weight in the graph (MatMul(x, Transpose(E))) leaves onnxruntime
    to fold a transposed copy in at load: the head then reads the table too."""
    folder = tied_copy("marian-en-zh", "split", tmp_path)
    path = folder / "decoder_with_past_model.onnx"
    model = onnx.load(str(path))
    head = next(n for n in model.graph.node if n.op_type == "MatMul" and n.name.startswith("/lm_head"))
    table = next(n.input[0] for n in model.graph.node if n.op_type == "Gather" and "shared" in n.input[0])
    kept = [i for i in model.graph.initializer if i.name != head.input[1]]
    del model.graph.initializer[:]
    model.graph.initializer.extend(kept)
    model.graph.node.insert(0, onnx.helper.make_node("Transpose", [table], [head.input[1]], perm=[1, 0]))
    onnx.save(model, str(path))
    before = Translator.load(folder, "en-zh").translate("Good morning, everyone.").token_ids
    assert share_tied_embedding(path) == 1
    assert "Transpose" not in [n.op_type for n in onnx.load(str(path)).graph.node if table in n.input]
    assert Translator.load(folder, "en-zh").translate("Good morning, everyone.").token_ids == before


@pytest.mark.parametrize("family", FAMILIES)
def test_an_untied_head_is_left_untouched(family, tmp_path):
    """The fixtures' own heads are not the embedding's transpose (other values): nothing changes."""
    folder = shutil.copytree(FIXTURES / family / "both", tmp_path / "both")
    names = ("decoder_model.onnx", "decoder_with_past_model.onnx", "decoder_model_merged.onnx")
    before = {name: (folder / name).read_bytes() for name in names}
    assert share_tied_embedding_folder(folder) == dict.fromkeys(names, 0)
    assert {name: (folder / name).read_bytes() for name in names} == before
    assert not list(folder.glob("*_data"))


def test_int8_twins_of_a_tied_decoder_are_left_as_they_are(tmp_path):
    """transformers.js quantizes the table per row (Gather) and the head per column (MatMul):
    two different int8 tables, not one to share without changing the numbers."""
    folder = tied_copy("marian-en-zh", "merged", tmp_path)
    quantize_like_transformers_js(folder)
    twin = folder / "decoder_model_merged_quantized.onnx"
    before = twin.read_bytes()
    assert share_tied_embedding(twin) == 0
    assert twin.read_bytes() == before


# -- int8 twins of both kinds: the tied head read from the embedding's int8 table -----------------


def transpose_tied_twin(tmp_path, weights_only: bool) -> Path:
    """The marian-en-zh merged fixture with its head tied as optimum writes it with accelerate
    (MatMul(x, Transpose(E))), and its int8 twin of one kind."""
    folder = tied_copy("marian-en-zh", "merged", tmp_path)
    for name in ("decoder_model_merged.onnx",):
        assert tie_head_by_transpose(folder / name) == 2  # one head per If branch
    quantize_like_transformers_js(folder, weights_only=weights_only)
    return folder


@pytest.mark.parametrize("weights_only,kind", [(True, Int8Kind.WEIGHTS_ONLY), (False, Int8Kind.ALL_MATMULS)])
def test_both_kinds_of_int8_twin_are_recognised(weights_only, kind, tmp_path):
    folder = transpose_tied_twin(tmp_path, weights_only)
    found = describe(folder / "decoder_model_merged_quantized.onnx")
    assert found.kind is kind and found.per_channel and found.reduced_range and found.branches_quantized
    assert found.head_from_table
    assert describe(folder / "decoder_model_merged.onnx").kind is Int8Kind.NOT_INT8


def test_a_per_tensor_full_range_twin_without_its_branches_is_recognised(tmp_path):
    from onnxruntime.quantization import QuantType

    folder = tied_copy("marian-en-zh", "split", tmp_path)
    quantize_dynamic_folder(folder)  # models export --quantize: weights only, per tensor, full range
    found = describe(folder / "decoder_with_past_model_quantized.onnx")
    assert (found.kind, found.per_channel, found.reduced_range) == (Int8Kind.WEIGHTS_ONLY, False, False)
    merged = tied_copy("marian-en-zh", "merged", tmp_path / "merged")
    _quantized_twins(merged, weight_type=QuantType.QInt8, extra_options={"MatMulConstBOnly": False})
    found = describe(merged / "decoder_model_merged_quantized.onnx")
    assert found.kind is Int8Kind.NOT_INT8 and not found.branches_quantized  # If branches left fp32


@pytest.mark.parametrize("weights_only", [True, False])
def test_an_int8_head_reading_the_table_transposed_becomes_one_int8_matmul(weights_only, tmp_path):
    folder = transpose_tied_twin(tmp_path, weights_only)
    original = shutil.copytree(folder, tmp_path / "original")
    twin = folder / "decoder_model_merged_quantized.onnx"
    assert int8_head_from_table(twin) == 2
    graphs = all_graphs(onnx.load(str(twin)).graph)
    heads = [n for g in graphs for n in g.node if n.name.endswith("_from_table")]
    assert [n.op_type for n in heads] == ["DynamicQuantizeMatMul"] * 2
    # no float copy of the table is made, on disk or per step
    assert not any(n.op_type == "DequantizeLinear" and "transposed" in n.input[0] for g in graphs for n in g.node)
    table = next(list(i.dims) for i in graphs[0].initializer if i.name.endswith("shared.weight_merged_0_quantized"))
    assert not any(
        list(i.dims) in (table, table[::-1])
        for g in graphs
        for i in g.initializer
        if i.data_type == onnx.TensorProto.FLOAT
    )
    texts = [ref["text"] for ref in references("marian-en-zh")["directions"][0]["cases"][0]["results"]][:6]
    before = decode_all(Translator.load(original, "en-zh", prefer_quantized=True), texts)
    after = decode_all(Translator.load(folder, "en-zh", prefer_quantized=True), texts)
    if weights_only:  # the head's input now quantized per tensor too: the ids stay on this fixture
        assert [ids for ids, _ in after] == [ids for ids, _ in before]
    else:  # what onnxruntime runs for the original after folding the transpose: the same numbers
        assert after == before


def test_a_head_with_another_quantization_than_the_table_is_left_alone(tmp_path):
    """transformers.js' twin of an untied-looking head (its own constant, quantized per column)
    has no Transpose of the table: nothing to change."""
    folder = tied_copy("marian-en-zh", "merged", tmp_path)
    quantize_like_transformers_js(folder, weights_only=True)
    twin = folder / "decoder_model_merged_quantized.onnx"
    before = twin.read_bytes()
    assert int8_head_from_table(twin) == 0
    assert twin.read_bytes() == before
