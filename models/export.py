"""Export a Hugging Face seq2seq model (Marian, M2M100, ...) to the ONNX folder layouts the app runs.

One optimum-onnx export (`text2text-generation-with-past`) gives encoder_model.onnx,
decoder_model.onnx (no past), decoder_with_past_model.onnx and decoder_model_merged.onnx.
`arrange` then lays them out as a model folder in one of LAYOUTS; `export_legacy_decoder`
writes the older decoder kind (self-attention past only, cross-attention recomputed from
`encoder_hidden_states` every step) with torch.onnx.export, so the app is tested on it too.

Export tooling (torch, optimum-onnx) is imported lazily: the app itself never needs it.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from app.shared.errors import LiveTranslatorError

ENCODER = "encoder_model.onnx"
DECODER = "decoder_model.onnx"
DECODER_WITH_PAST = "decoder_with_past_model.onnx"
DECODER_MERGED = "decoder_model_merged.onnx"

# layout -> (sub-folder for the .onnx files, the .onnx files it holds, quantized twins always?)
LAYOUTS: dict[str, tuple[str, tuple[str, ...], bool]] = {
    "merged": ("", (ENCODER, DECODER_MERGED), False),
    "split": ("", (ENCODER, DECODER, DECODER_WITH_PAST), False),
    "both": ("", (ENCODER, DECODER, DECODER_WITH_PAST, DECODER_MERGED), False),
    # transformers.js style (Xenova/..., onnx-community/...): onnx/ beside the tokenizer, int8 twins.
    "onnx-subdir": ("onnx", (ENCODER, DECODER, DECODER_WITH_PAST, DECODER_MERGED), True),
    # the older decoder: decoder_model.onnx takes encoder_hidden_states + self-attention past.
    "legacy": ("", (ENCODER, DECODER), False),
}

# Everything a model folder needs beside the .onnx files (whichever of these the source has).
SIDE_FILES = (
    "config.json",
    "generation_config.json",
    "tokenizer_config.json",
    "special_tokens_map.json",
    "tokenizer.json",
    "vocab.json",
    "source.spm",
    "target.spm",
    "sentencepiece.bpe.model",
    "added_tokens.json",
    "spiece.model",
)

# The cross-attention cache gets its own axis name: sharing "encoder_sequence_length" with
# encoder_attention_mask is false on the merged decoder's step 0 (mask N, past 0) and
# onnxruntime can then fail with "Shape mismatch attempting to re-use buffer" (docs/engine.md,
# 'Cache protocol').
CROSS_PAST_AXIS = "encoder_past_sequence_length"


@dataclass(frozen=True)
class ExportedFolder:
    layout: str
    path: Path
    onnx_files: tuple[str, ...]  # relative to path, quantized twins included


def export_onnx(
    hf_model_dir: str | Path,
    out_dir: str | Path,
    layouts: tuple[str, ...] | list[str] = ("merged",),
    quantize: bool = False,
    validate: bool = True,
    fuse: bool = True,
) -> list[ExportedFolder]:
    """Export `hf_model_dir` once and arrange it in each of `layouts`.

    One layout: `out_dir` is the model folder. Several: one folder per layout, `out_dir/<layout>`.
    `quantize` adds `*_quantized.onnx` int8 twins (the "onnx-subdir" layout always has them).
    `fuse` rewrites the decoders' attention blocks into MultiHeadAttention nodes, and the cached
    self-attention into GroupQueryAttention over a shared cache buffer (app.model_store.optimize: same
    outputs, faster steps), and, once the int8 twins are made, stores a tied embedding once in the
    fp32 decoders (their LM head reads the embedding table; weights then in `<graph>_data`
    beside each); False keeps optimum's graphs as they are.
    """
    hf_model_dir, out_dir = Path(hf_model_dir), Path(out_dir)
    unknown = [name for name in layouts if name not in LAYOUTS]
    if unknown or not layouts:
        raise LiveTranslatorError(f"unknown export layout {unknown or '(none)'}", f"Choose from: {', '.join(LAYOUTS)}.")
    if not (hf_model_dir / "config.json").is_file():
        raise LiveTranslatorError(
            f"{hf_model_dir} is not a Hugging Face model folder (no config.json).",
            "Point at a folder made by save_pretrained (config.json + model weights + tokenizer files).",
        )
    with tempfile.TemporaryDirectory(prefix="lt-export-") as tmp:
        staging = Path(tmp)
        export_optimum(hf_model_dir, staging, validate=validate)
        if fuse:  # before any layout or int8 twin is made from the staged graphs
            from app.model_store.optimize import fuse_attention_folder
            from app.model_store.self_cache import share_self_cache_folder

            fuse_attention_folder(staging, config_dir=hf_model_dir)
            share_self_cache_folder(staging)
        if "legacy" in layouts:
            export_legacy_decoder(hf_model_dir, staging / "legacy_decoder.onnx")
        results = []
        for name in layouts:
            target = out_dir if len(layouts) == 1 else out_dir / name
            folder = arrange(staging, hf_model_dir, target, name, quantize=quantize)
            if fuse:  # after the int8 twins: the quantizer knows the head's MatMul, not FusedMatMul
                folder = share_tied_embedding_in(folder)
            results.append(folder)
        return results


def share_tied_embedding_in(folder: ExportedFolder) -> ExportedFolder:
    """The exported folder with each fp32 decoder's tied embedding stored once (its weights then
    in an external-data file, listed beside it)."""
    from app.model_store.tied_embedding import share_tied_embedding

    files = list(folder.onnx_files)
    for name in folder.onnx_files:
        if Path(name).name in (DECODER, DECODER_WITH_PAST, DECODER_MERGED) and share_tied_embedding(folder.path / name):
            files.insert(files.index(name) + 1, name + "_data")
    return ExportedFolder(folder.layout, folder.path, tuple(files))


def export_optimum(hf_model_dir: Path, out_dir: Path, validate: bool = True) -> None:
    """optimum-onnx's export with past, then our axis-name fix on the decoders that take a past."""
    from optimum.exporters.onnx import main_export

    main_export(str(hf_model_dir), str(out_dir), task="text2text-generation-with-past", do_validation=validate)
    missing = [f for f in (ENCODER, DECODER, DECODER_WITH_PAST, DECODER_MERGED) if not (out_dir / f).is_file()]
    if missing:
        raise LiveTranslatorError(
            f"optimum-onnx did not write {', '.join(missing)}", "Check the optimum-onnx version (0.1.x)."
        )
    for name in (DECODER_WITH_PAST, DECODER_MERGED):
        separate_cross_past_axis(out_dir / name)


def separate_cross_past_axis(path: Path) -> None:
    """Rename the cross-attention past/present sequence axis so it no longer aliases the mask's."""
    import onnx

    model = onnx.load(str(path))
    changed = False
    for value in list(model.graph.input) + list(model.graph.output):
        if ".encoder." not in value.name:
            continue
        dims = value.type.tensor_type.shape.dim
        if len(dims) == 4 and dims[2].dim_param == "encoder_sequence_length":
            dims[2].dim_param = CROSS_PAST_AXIS
            changed = True
        # The merged decoder's cached branch returns dummy encoder presents of batch 0:
        # do not claim they share the batch axis.
        if value.name.startswith("present.") and len(dims) == 4 and dims[0].dim_param == "batch_size":
            dims[0].dim_param = "encoder_present_batch_size"
            changed = True
    if changed:
        onnx.save(model, str(path))


def arrange(staging: Path, source_dir: Path, target: Path, layout: str, quantize: bool = False) -> ExportedFolder:
    """Copy the exported graphs a layout needs (and the tokenizer/config files) into `target`."""
    subdir, files, always_quantize = LAYOUTS[layout]
    onnx_dir = target / subdir if subdir else target
    onnx_dir.mkdir(parents=True, exist_ok=True)
    for name in files:
        source = staging / ("legacy_decoder.onnx" if layout == "legacy" and name == DECODER else name)
        shutil.copyfile(source, onnx_dir / name)
    copy_side_files(source_dir, target)
    written = [name for name in files]
    if quantize or always_quantize:
        written += [q.name for q in quantize_dynamic_folder(onnx_dir)]
    prefix = f"{subdir}/" if subdir else ""
    return ExportedFolder(layout, target, tuple(prefix + name for name in written))


def copy_side_files(source_dir: Path, target: Path) -> list[str]:
    target.mkdir(parents=True, exist_ok=True)
    copied = []
    for name in SIDE_FILES:
        if (source_dir / name).is_file():
            shutil.copyfile(source_dir / name, target / name)
            copied.append(name)
    return copied


def tie_head_by_transpose(path: str | Path) -> int:
    """What optimum's export does to a tied LM head when `accelerate` is installed (its
    `_deduplicate_gather_matmul`, as the onnx-community exports have it): a head MatMul whose
    constant B is the transpose of a Gather's table reads `Transpose(table)` instead (output
    `<table>_transposed`), and the copy is dropped. In place; returns how many heads now do."""
    import onnx
    from onnx import helper

    from app.model_store.graph_tools import all_graphs, drop_unused_initializers, gather_tables, set_nodes, transpose_of

    path = Path(path)
    model = onnx.load(str(path))
    graphs = all_graphs(model.graph)
    tensors = {i.name: i for g in graphs for i in g.initializer}
    tables = gather_tables(graphs, tensors)
    tied = 0
    for k, graph in reversed(list(enumerate(graphs))):  # branches first: the outer graph's rewrite detaches them
        nodes = []
        for node in graph.node:
            weight = tensors.get(node.input[1]) if node.op_type == "MatMul" and len(node.input) == 2 else None
            table = transpose_of(weight, tables) if weight is not None else None
            if table:
                transposed = f"{table}_transposed" + (f"_{k}" if k else "")
                nodes.append(
                    helper.make_node("Transpose", [table], [transposed], name=f"Transpose_{table}_{k}", perm=[1, 0])
                )
                node.input[1] = transposed
                tied += 1
            nodes.append(node)
        set_nodes(graph, nodes)
    if tied:
        drop_unused_initializers(model.graph)
        onnx.save(model, str(path))
    return tied


def quantize_dynamic_folder(folder: str | Path) -> list[Path]:
    """Write an int8-weight `*_quantized.onnx` twin beside every .onnx file in `folder`."""
    from onnxruntime.quantization import QuantType

    # EnableSubgraph: the merged decoder's weights are used inside its If branches, which
    # quantize_dynamic otherwise skips (the "_quantized" twin came out fp32, 368 MB for opus-mt).
    return _quantized_twins(folder, weight_type=QuantType.QInt8, extra_options={"EnableSubgraph": True})


def quantize_like_transformers_js(folder: str | Path, weights_only: bool = False) -> list[Path]:
    """Write `*_quantized.onnx` twins the way transformers.js makes the catalog's: QInt8 weights
    per channel, reduced range, If branches included. Its older scripts/convert.py (the Xenova
    repos) quantized the attention's activation-by-activation MatMuls too (MatMulConstBOnly off);
    `weights_only` is its current scripts/quantize.py (`quantize_q8`) and onnxruntime's default,
    what the onnx-community repos of 2024 on were made with: only MatMuls with a constant B."""
    from onnxruntime.quantization import QuantType

    return _quantized_twins(
        folder,
        weight_type=QuantType.QInt8,
        per_channel=True,
        reduce_range=True,
        extra_options={"EnableSubgraph": True, "MatMulConstBOnly": weights_only},
    )


def _quantized_twins(folder: str | Path, **options) -> list[Path]:
    """quantize_dynamic(**options) of every plain .onnx file in `folder` into its `_quantized` twin."""
    from onnxruntime.quantization import quantize_dynamic

    written = []
    for path in sorted(Path(folder).glob("*.onnx")):
        if path.stem.endswith("_quantized"):
            continue
        twin = path.with_name(f"{path.stem}_quantized.onnx")
        quantize_dynamic(str(path), str(twin), **options)
        written.append(twin)
    return written


def export_legacy_decoder(hf_model_dir: str | Path, out_path: str | Path, opset: int = 14) -> Path:
    """The older decoder: inputs encoder_attention_mask, input_ids, encoder_hidden_states and
    past_key_values.{i}.decoder.key|value; outputs logits and present.{i}.decoder|encoder.key|value.

    It has no cross-attention past: cross-attention is recomputed from encoder_hidden_states at
    every step (the kind described in seeds/marian-decoder-signature-report.md). Step 0 takes
    zero-length self-attention pasts and the whole decoder prefix.
    """
    import torch
    from transformers import AutoModelForSeq2SeqLM

    out_path = Path(out_path)
    # A fresh model only for tracing: an export can leave a model's runtime state altered.
    model = AutoModelForSeq2SeqLM.from_pretrained(str(hf_model_dir), attn_implementation="eager").eval()
    config = model.config
    layers, heads = config.decoder_layers, config.decoder_attention_heads
    head_dim = config.d_model // heads
    enc_len, prefix_len, past_len = 5, 2, 3
    args = (
        torch.ones(1, enc_len, dtype=torch.long),
        torch.full((1, prefix_len), 5, dtype=torch.long),
        torch.randn(1, enc_len, config.d_model),
    ) + tuple(torch.randn(1, heads, past_len, head_dim) for _ in range(2 * layers))
    inputs = ["encoder_attention_mask", "input_ids", "encoder_hidden_states"] + [
        f"past_key_values.{i}.decoder.{kv}" for i in range(layers) for kv in ("key", "value")
    ]
    outputs = ["logits"] + [
        f"present.{i}.{side}.{kv}" for i in range(layers) for side in ("decoder", "encoder") for kv in ("key", "value")
    ]
    axes = {
        "encoder_attention_mask": {0: "batch_size", 1: "encoder_sequence_length"},
        "input_ids": {0: "batch_size", 1: "decoder_sequence_length"},
        "encoder_hidden_states": {0: "batch_size", 1: "encoder_sequence_length"},
        "logits": {0: "batch_size", 1: "decoder_sequence_length"},
    }
    for name in inputs[3:]:
        axes[name] = {0: "batch_size", 2: "past_decoder_sequence_length"}
    for name in outputs[1:]:
        total = (
            "encoder_sequence_length"
            if ".encoder." in name
            else "past_decoder_sequence_length + decoder_sequence_length"
        )
        axes[name] = {0: "batch_size", 2: total}
    out_path.parent.mkdir(parents=True, exist_ok=True)
    with torch.no_grad(), _traceable_transformers():
        torch.onnx.export(
            _legacy_decoder_module(model),
            args,
            str(out_path),
            input_names=inputs,
            output_names=outputs,
            dynamic_axes=axes,
            opset_version=opset,
            dynamo=False,
        )
    return out_path


def _legacy_decoder_module(model):
    """`model` wrapped as the older decoder step (torch is imported only when exporting)."""
    import torch
    from transformers.cache_utils import EncoderDecoderCache

    class LegacyDecoder(torch.nn.Module):
        """Decoder step with self-attention past only; flat tensors in and out for the tracer."""

        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, encoder_attention_mask, input_ids, encoder_hidden_states, *self_past):
            cache = EncoderDecoderCache.from_legacy_cache(
                tuple((self_past[i], self_past[i + 1]) for i in range(0, len(self_past), 2))
            )
            # Positions and the causal mask from the past's length as graph ops: left to
            # transformers, the tracer freezes them as constants of the dummy input's shapes.
            new, past = input_ids.shape[1], self_past[0].shape[2]
            positions = torch.arange(new, dtype=torch.long) + past
            visible = torch.arange(past + new, dtype=torch.long).unsqueeze(0) <= positions.unsqueeze(1)
            causal = torch.where(visible, 0.0, torch.finfo(torch.float32).min)[None, None]
            out = self.model(
                attention_mask=encoder_attention_mask,
                decoder_input_ids=input_ids,
                encoder_outputs=(encoder_hidden_states,),
                decoder_attention_mask=causal,
                cache_position=positions,
                past_key_values=cache,
                use_cache=True,
            )
            flat = [out.logits]
            for layer in out.past_key_values.to_legacy_cache():
                flat.extend(layer)  # self key, self value, cross key, cross value
            return tuple(flat)

    return LegacyDecoder(model)


@contextlib.contextmanager
def _traceable_transformers():
    """The same patches optimum-onnx applies while tracing (masks without vmap, cache update)."""
    import optimum.exporters.onnx.model_patcher as patcher
    import transformers.masking_utils as masking
    from transformers.cache_utils import DynamicLayer

    registry = masking.ALL_MASK_ATTENTION_FUNCTIONS
    saved = (masking.find_packed_sequence_indices, DynamicLayer.update)
    registry.register("sdpa", patcher.sdpa_mask_without_vmap)
    registry.register("eager", patcher.eager_mask_without_vmap)
    masking.find_packed_sequence_indices = patcher.find_packed_sequence_indices_patched
    DynamicLayer.update = patcher.patched_dynamic_layer_update
    try:
        yield
    finally:
        registry.register("sdpa", masking.sdpa_mask)
        registry.register("eager", masking.eager_mask)
        masking.find_packed_sequence_indices, DynamicLayer.update = saved
