"""The committed fixture folders, as written by models.export: the input/output names of each
layout, the cross-attention axis fix, int8 twins, and that every fp32 layout reproduces
transformers' generate() ids (through a loop independent of the app's engine)."""

from __future__ import annotations

import json

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from conftest import FIXTURES, greedy_case, references
from onnx_greedy import greedy, lengths

from models import export

FAMILY_LAYOUTS = {
    "marian-en-zh": ("merged", "split", "both", "onnx-subdir", "legacy", "merged-fused"),
    "marian-zh-en": ("merged", "split", "both", "onnx-subdir", "legacy", "tokenizer-json", "merged-fused"),
    "m2m100": ("merged", "split", "both", "onnx-subdir", "merged-fused"),
}
LAYERS = 2
ALL = [(family, layout) for family, layouts in FAMILY_LAYOUTS.items() for layout in layouts]


def names(path):
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    return [i.name for i in session.get_inputs()], [o.name for o in session.get_outputs()]


def past(side):
    return [f"past_key_values.{i}.{side}.{kv}" for i in range(LAYERS) for kv in ("key", "value")]


def present(*sides):
    return [f"present.{i}.{side}.{kv}" for i in range(LAYERS) for side in sides for kv in ("key", "value")]


def test_every_family_has_every_layout():
    for family, layouts in FAMILY_LAYOUTS.items():
        found = sorted(p.name for p in (FIXTURES / family).iterdir() if p.is_dir())
        assert found == sorted(layouts), family


@pytest.mark.parametrize("family,layout", ALL)
def test_layout_files_and_names(family, layout):
    folder = FIXTURES / family / layout
    onnx_dir = folder / "onnx" if layout == "onnx-subdir" else folder
    files = sorted(p.name for p in onnx_dir.glob("*.onnx"))
    expected = {
        "merged": ["decoder_model_merged.onnx", "encoder_model.onnx"],
        "merged-fused": ["decoder_model_merged.onnx", "encoder_model.onnx"],
        "tokenizer-json": ["decoder_model_merged.onnx", "encoder_model.onnx"],
        "split": ["decoder_model.onnx", "decoder_with_past_model.onnx", "encoder_model.onnx"],
        "legacy": ["decoder_model.onnx", "encoder_model.onnx"],
    }.get(layout)
    if layout == "both":
        expected = [
            "decoder_model.onnx",
            "decoder_model_merged.onnx",
            "decoder_with_past_model.onnx",
            "encoder_model.onnx",
        ]
    if layout == "onnx-subdir":
        plain = ["decoder_model", "decoder_model_merged", "decoder_with_past_model", "encoder_model"]
        expected = sorted([f"{p}.onnx" for p in plain] + [f"{p}_quantized.onnx" for p in plain])
    assert files == expected
    assert (folder / "config.json").is_file() and (folder / "generation_config.json").is_file()

    assert names(onnx_dir / "encoder_model.onnx") == (["input_ids", "attention_mask"], ["last_hidden_state"])
    base = ["encoder_attention_mask", "input_ids", "encoder_hidden_states"]
    if (onnx_dir / "decoder_model_merged.onnx").is_file():
        ins, outs = names(onnx_dir / "decoder_model_merged.onnx")
        shared_cache = (
            ["seqlens_k", "total_sequence_length"] if layout == "merged-fused" else []
        )  # ours: app.model_store.optimize
        assert (
            ins
            == base
            + [
                n
                for i in range(LAYERS)
                for n in past("decoder")[2 * i : 2 * i + 2] + past("encoder")[2 * i : 2 * i + 2]
            ]
            + ["use_cache_branch"]
            + shared_cache
        )
        assert outs == ["logits"] + present("decoder", "encoder")
    if layout == "legacy":  # the older kind: self-attention past only, 15 inputs / 25 outputs at 6 layers
        ins, outs = names(onnx_dir / "decoder_model.onnx")
        assert ins == base + past("decoder")
        assert outs == ["logits"] + present("decoder", "encoder")
    elif (onnx_dir / "decoder_model.onnx").is_file():
        ins, outs = names(onnx_dir / "decoder_model.onnx")
        assert ins == base and outs == ["logits"] + present("decoder", "encoder")
    if (onnx_dir / "decoder_with_past_model.onnx").is_file():
        ins, outs = names(onnx_dir / "decoder_with_past_model.onnx")
        assert "encoder_hidden_states" not in ins and "use_cache_branch" not in ins
        assert set(past("decoder") + past("encoder")) <= set(ins)
        assert outs == ["logits"] + present("decoder")


@pytest.mark.parametrize("name", ["decoder_model_merged.onnx", "decoder_with_past_model.onnx"])
def test_cross_attention_past_has_its_own_axis(name):
    graph = onnx.load(str(FIXTURES / "marian-en-zh" / "both" / name)).graph
    dims = {v.name: [d.dim_param or d.dim_value for d in v.type.tensor_type.shape.dim] for v in graph.input}
    assert dims["encoder_attention_mask"][1] == "encoder_sequence_length"
    for n in past("encoder"):
        assert dims[n][2] == export.CROSS_PAST_AXIS
    for n in past("decoder"):
        assert dims[n][2] == "past_decoder_sequence_length"


def _int8_initializers(graph) -> int:
    count = sum(t.data_type == onnx.TensorProto.INT8 for t in graph.initializer)
    for node in graph.node:
        for attr in node.attribute:
            if attr.type == onnx.AttributeProto.GRAPH:
                count += _int8_initializers(attr.g)
    return count


@pytest.mark.parametrize("family", FAMILY_LAYOUTS)
def test_quantized_twins_load_and_hold_int8_weights(family):
    onnx_dir = FIXTURES / family / "onnx-subdir" / "onnx"
    for twin in sorted(onnx_dir.glob("*_quantized.onnx")):
        plain = twin.with_name(twin.name.replace("_quantized", ""))
        assert names(twin) == names(plain), twin.name  # same interface, so the engine can swap them
        model = onnx.load(str(twin))
        assert _int8_initializers(model.graph) > 0, twin.name
        assert twin.stat().st_size < plain.stat().st_size, twin.name
    # the merged decoder's weights live in its If branches: they must be quantized too
    merged = onnx.load(str(onnx_dir / "decoder_model_merged_quantized.onnx")).graph
    branches = [attr.g for node in merged.node if node.op_type == "If" for attr in node.attribute]
    assert branches and all(
        any(n.op_type in ("MatMulInteger", "DynamicQuantizeLinear") for n in g.node) for g in branches
    )


def _run_greedy(family, layout, direction, decoder, suffix=""):
    case = greedy_case(family, direction)
    folder = FIXTURES / family / layout
    config = json.loads((folder / "generation_config.json").read_text())
    forced = case["settings"].get("forced_bos_token_id")
    prefix = [config["decoder_start_token_id"]] + ([forced] if forced is not None else [])
    bad = tuple(ids[0] for ids in config.get("bad_words_ids", []))
    outcomes = []
    for result in case["results"]:
        got = greedy(
            folder,
            result["input_ids"],
            prefix,
            config["eos_token_id"],
            case["settings"]["max_new_tokens"] - len(prefix) + 1,
            suffix,
            decoder,
            bad,
        )
        # forced_eos_token_id replaces the last token of a length stop with EOS: compare before it
        forced_eos = result["stop_reason"] == "length" and result["output_ids"][-1] == config["eos_token_id"]
        n = len(result["output_ids"]) - forced_eos
        outcomes.append((got[:n], result["output_ids"][:n]))
    return outcomes


GREEDY_RUNS = [
    (family, layout, direction, decoder)
    for family, layouts in FAMILY_LAYOUTS.items()
    for layout in layouts
    for direction in [d["direction"] for d in references(family)["directions"]]
    for decoder in {
        "merged": ["merged"],
        "tokenizer-json": ["merged"],
        "split": ["split"],
        "legacy": ["legacy"],
        "both": ["merged", "split"],
        "onnx-subdir": ["merged", "split"],
        "merged-fused": ["merged"],
    }[layout]
]


@pytest.mark.parametrize("family,layout,direction,decoder", GREEDY_RUNS)
def test_fp32_layouts_reproduce_generate(family, layout, direction, decoder):
    for got, expected in _run_greedy(family, layout, direction, decoder):
        assert got == expected


def test_int8_twins_mostly_agree_with_fp32():
    """int8 costs some agreement, but a broken quantization would share almost nothing."""
    outcomes = _run_greedy("marian-en-zh", "onnx-subdir", "en-zh", "merged", suffix="_quantized")
    agree = [sum(a == b for a, b in zip(got, ref)) / max(len(got), len(ref)) for got, ref in outcomes]
    assert np.mean(agree) > 0.3, agree


def _step_logits(session, feed):
    wanted = {i.name for i in session.get_inputs()}
    names_out = [o.name for o in session.get_outputs()]
    return dict(zip(names_out, session.run(None, {k: v for k, v in feed.items() if k in wanted})))


@pytest.mark.parametrize(
    "layout,file",
    [
        ("legacy", "decoder_model.onnx"),
        ("merged", "decoder_model_merged.onnx"),
        ("merged-fused", "decoder_model_merged.onnx"),
    ],
)
def test_cached_steps_match_full_recompute(layout, file):
    """Each cached step's logits equal a from-scratch run on the whole prefix (to 1e-4): the
    cache carries the state forward (seed: 'a KV cache whose values died between steps')."""
    folder = FIXTURES / "marian-en-zh" / layout
    result = greedy_case("marian-en-zh", "en-zh")["results"][-1]  # the long sentence
    tokens = result["output_ids"][:12]
    enc = ort.InferenceSession(str(folder / "encoder_model.onnx"), providers=["CPUExecutionProvider"])
    dec = ort.InferenceSession(str(folder / file), providers=["CPUExecutionProvider"])
    ids = np.array([result["input_ids"]], np.int64)
    mask = np.ones_like(ids)
    hidden = enc.run(None, {"input_ids": ids, "attention_mask": mask})[0]
    shapes = {i.name: i.shape for i in dec.get_inputs()}

    def empty_pasts():
        return {n: np.zeros((1, s[1], 0, s[3]), np.float32) for n, s in shapes.items() if n.startswith("past_")}

    base = {"encoder_attention_mask": mask, "encoder_hidden_states": hidden}
    feed = dict(
        base,
        input_ids=np.array([tokens[:1]], np.int64),
        use_cache_branch=np.array([False]),
        **empty_pasts(),
        **lengths(0, 1),
    )
    outs = _step_logits(dec, feed)
    cross = {n.replace("present", "past_key_values"): v for n, v in outs.items() if ".encoder." in n}
    for step in range(1, len(tokens)):
        feed = dict(
            base,
            input_ids=np.array([tokens[step : step + 1]], np.int64),
            use_cache_branch=np.array([True]),
            **lengths(step, 1),
        )
        feed.update({n.replace("present", "past_key_values"): v for n, v in outs.items() if ".decoder." in n})
        feed.update(cross)
        outs = _step_logits(dec, feed)
        full = _step_logits(
            dec,
            dict(
                base,
                input_ids=np.array([tokens[: step + 1]], np.int64),
                use_cache_branch=np.array([False]),
                **empty_pasts(),
                **lengths(0, step + 1),
            ),
        )
        assert np.abs(outs["logits"][0, -1] - full["logits"][0, -1]).max() < 1e-4, step
        assert outs["present.0.decoder.key"].shape[2] == step + 1  # the self-attention cache grows
