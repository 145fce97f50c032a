"""Rewrite exported decoder graphs so onnxruntime runs them faster, with the same numbers.

`fuse_attention` replaces each attention block that optimum-onnx exports from transformers
4.5x (Marian, M2M100: q and k each scaled by sqrt(scale), k transposed, an explicit Concat
with the past, Softmax, a MatMul with v) by one `com.microsoft.MultiHeadAttention` node.
A cached decoder step then runs ~350 nodes instead of ~1000: fewer dispatches, no
intermediate transposes of the growing cache (docs/performance.md). onnxruntime's own
transformer optimizer does not match these graphs (it fuses only the LayerNorms).
The other rewrites, run after this one: app.model_store.self_cache (the cached self-attention
as GroupQueryAttention over a buffer written in place) and app.model_store.tied_embedding
(a tied LM head's table stored once).

The rewrite is checked, not assumed: every piece of a block is matched by op type, perm and
constant, anything unexpected leaves that block as it is, and the inputs, outputs and cache
protocol of the graph do not change. Each rule is a function of one node (or one Softmax's
block) that returns its replacement or None; the graph walking, replacing and sweeping is
app.model_store.graph_tools. It runs in the app too: a downloaded model is optimised on first
load (app.model_store.optimized), so `onnx` is a runtime dependency (pyproject.toml).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from app.model_store.graph_tools import (
    MS_DOMAIN,
    GraphIndex,
    attr,
    declare_float,
    save_rewritten,
    set_nodes,
    subgraphs,
    topological,
)

# The decoder graphs that hold attention over a cache; the encoder is compute-bound (no gain).
DECODER_FILES = ("decoder_model.onnx", "decoder_with_past_model.onnx", "decoder_model_merged.onnx")
SPLIT_HEADS = [0, 2, 1, 3]  # (batch, seq, heads, head_dim) <-> (batch, heads, seq, head_dim)
KEY_T = [0, 1, 3, 2]
KEY_FROM_PROJECTION = [0, 2, 3, 1]


def decoder_paths(folder: str | Path, names=DECODER_FILES) -> list[Path]:
    """The decoder graphs of a model folder (or of its onnx/ subfolder)."""
    folder = Path(folder)
    onnx_dir = folder / "onnx" if (folder / "onnx").is_dir() else folder
    return [onnx_dir / name for name in names if (onnx_dir / name).is_file()]


# -- fused attention -----------------------------------------------------------------------------


def fuse_attention(path: str | Path, num_heads: int) -> int:
    """Fuse the attention blocks of the graph at `path` (and of its If branches) in place.
    Returns how many were fused; 0 leaves the file untouched."""
    import onnx

    path = Path(path)
    model = onnx.load(str(path))
    activations = {
        i.type.tensor_type.elem_type
        for i in model.graph.input
        if i.name.startswith(("past_key_values.", "encoder_hidden_states"))
    }
    if activations - {onnx.TensorProto.FLOAT}:
        return 0  # onnxruntime's CPU MultiHeadAttention is float32 only
    initializers = {i.name: i for i in model.graph.initializer}
    # The causal mask is the only self-attention mask `unidirectional` can stand for; a decoder
    # that takes its own attention mask keeps optimum's blocks. (If branches have no inputs of
    # their own: the model's inputs decide.)
    causal_only = not any(i.name in ("attention_mask", "decoder_attention_mask") for i in model.graph.input)
    # Branches first, while the outer graph's nodes (which they may read, e.g. a quantized
    # encoder cache) are still all there.
    outer = GraphIndex(model.graph, initializers)
    fused = sum(
        _fuse_graph(GraphIndex(sub, initializers, outer), num_heads, causal_only)
        for node in model.graph.node
        for sub in subgraphs(node)
    )
    fused += _fuse_graph(GraphIndex(model.graph, initializers), num_heads, causal_only)
    if not fused:
        return 0
    save_rewritten(model, path)
    return fused


def fuse_attention_folder(folder: str | Path, config_dir: str | Path | None = None) -> dict[str, int]:
    """Fuse every fp32 decoder graph of a model folder (or of its onnx/ subfolder), with the head
    count from config.json (in `config_dir`, default the folder). Returns {file name: blocks
    fused}. Run it before making int8 twins: the twins are made from these graphs."""
    folder = Path(folder)
    config_dir = Path(config_dir) if config_dir else folder if (folder / "config.json").is_file() else folder.parent
    config = json.loads((config_dir / "config.json").read_text(encoding="utf-8"))
    heads = config.get("decoder_attention_heads") or config.get("num_attention_heads")
    if not heads:
        raise ValueError(f"{config_dir / 'config.json'} names no decoder_attention_heads")
    return {path.name: fuse_attention(path, int(heads)) for path in decoder_paths(folder)}


@dataclass
class _Block:
    """A matched attention block: the fused node's inputs and outputs, and the nodes whose
    outputs it now makes (the rest of the block is swept as dead)."""

    inputs: list[str]
    outputs: list[str]
    made: list
    scale: float
    unidirectional: bool = False

    def node(self, name: str, num_heads: int):
        from onnx import helper

        attributes = {"num_heads": num_heads, "scale": self.scale}
        if self.unidirectional:
            attributes["unidirectional"] = 1
        return helper.make_node(
            "MultiHeadAttention",
            self.inputs,
            self.outputs,
            domain=MS_DOMAIN,
            name=f"{name}_fused_attention",
            **attributes,
        )


def _fuse_graph(g: GraphIndex, num_heads: int, causal_only: bool) -> int:
    """Replace every attention block of one graph; returns how many."""
    replacements = []  # (softmax node, fused node, nodes whose outputs the fused node now makes)
    for softmax in [n for n in g.graph.node if n.op_type == "Softmax"]:
        block = match_attention(g, softmax, causal_only)
        if block is not None:
            replacements.append((softmax, block.node(softmax.name, num_heads), block.made))
    if not replacements:
        return 0
    for _, node, _ in replacements:  # onnx's inference does not know com.microsoft ops
        declare_float(g.graph, node.output)
    replaced = {n.output[0] for _, _, made in replacements for n in made}  # output names: see replace_nodes
    nodes = [n for n in g.graph.node if not (n.output and n.output[0] in replaced)]
    for softmax, node, _ in replacements:
        nodes.insert(nodes.index(softmax), node)
    set_nodes(g.graph, topological(nodes, g.graph))
    return len(replacements)


def match_attention(g: GraphIndex, softmax, causal_only: bool) -> _Block | None:
    """The attention block around `softmax`, or None when any piece is not what optimum writes.
    Three kinds: no cache (k straight from this step's projection), self-attention over a
    cache (an explicit Concat with the past), and projections or a cross-attention cache."""
    if attr(softmax, "axis", -1) not in (-1, 3):
        return None
    scores, weighting = _scaled_scores(g, softmax), _weighting(g, softmax)
    if scores is None or weighting is None:
        return None
    query, key_transpose, bias, scale = scores
    value, out = weighting
    q_source = _heads_source(g, query)
    if q_source is None:
        return None
    key_perm = list(attr(key_transpose, "perm", []))
    if key_perm == KEY_FROM_PROJECTION:
        return _block_without_cache(g, q_source, key_transpose, value, out, bias, scale)
    if key_perm != KEY_T:
        return None
    key = key_transpose.input[0]
    if g.made_by(key, "Concat") is not None or g.made_by(value, "Concat") is not None:
        return _block_over_self_cache(g, q_source, key, value, out, scale) if causal_only else None
    k_source, v_source = _heads_source(g, key), _heads_source(g, value)
    if (k_source is None) != (v_source is None):
        return None
    # Projections of this step (3-D), or a cross-attention cache from step 0 (4-D, BNSH).
    return _Block([q_source, k_source or key, v_source or value, "", "", bias], [out.output[0]], [out], scale)


def _scaled_scores(g: GraphIndex, softmax):
    """Softmax(Add(MatMul(q * s, kᵀ * s'), bias)) -> (q, the Transpose making kᵀ, bias, s * s')."""
    add = g.made_by(softmax.input[0], "Add")
    scores = add is not None and _matmul_inputs(g, add.input[0])
    if not scores:
        return None
    query, q_scale = _unscaled(g, scores[0])
    key_t, k_scale = _unscaled(g, scores[1])
    key_transpose = key_t and g.made_by(key_t, "Transpose")
    if query is None or key_transpose is None:
        return None
    return query, key_transpose, add.input[1], q_scale * k_scale


def _weighting(g: GraphIndex, softmax):
    """Reshape(Transpose(MatMul(softmax, v))) -> (v, that Reshape: the block's output)."""
    weighted = _matmul_reading(g, softmax.output[0])  # (value, its output)
    merge = weighted is not None and g.only_consumer(weighted[1], "Transpose")
    out = merge and list(attr(merge, "perm", [])) == SPLIT_HEADS and g.only_consumer(merge.output[0], "Reshape")
    return (weighted[0], out) if out else None


def _block_without_cache(g: GraphIndex, q_source, key_transpose, value, out, bias, scale) -> _Block | None:
    """No cache here: k and v both come from this step's projections."""
    key_reshape = g.made_by(key_transpose.input[0], "Reshape")
    v_source = _heads_source(g, value)
    if key_reshape is None or v_source is None:
        return None
    return _Block([q_source, key_reshape.input[0], v_source, "", "", bias], [out.output[0]], [out], scale)


def _block_over_self_cache(g: GraphIndex, q_source, key, value, out, scale) -> _Block | None:
    """Self-attention over a cache: present = Concat(past, new) on the sequence axis."""
    cat_k, cat_v = g.made_by(key, "Concat"), g.made_by(value, "Concat")
    if cat_k is None or cat_v is None:
        return None
    if any(attr(c, "axis") not in (2, -2) or len(c.input) != 2 for c in (cat_k, cat_v)):
        return None
    k_source, v_source = _heads_source(g, cat_k.input[1]), _heads_source(g, cat_v.input[1])
    if k_source is None or v_source is None:
        return None
    # One new token attends to every cached one; the mask the graph built from the present's
    # length is the causal mask, which `unidirectional` applies (also with past).
    return _Block(
        [q_source, k_source, v_source, "", "", "", cat_k.input[0], cat_v.input[0]],
        [out.output[0], cat_k.output[0], cat_v.output[0]],
        [out, cat_k, cat_v],
        scale,
        unidirectional=True,
    )


def _matmul_inputs(g: GraphIndex, name):
    """name = MatMul(a, b) -> (a, b); also its dynamic int8 form, which transformers.js' quantizer
    makes of the attention's activation-by-activation MatMuls too:
    Mul(Cast(MatMulInteger(DynamicQuantizeLinear(a), DynamicQuantizeLinear(b))), scales)."""
    matmul = g.made_by(name, "MatMul")
    if matmul is not None:
        return matmul.input[0], matmul.input[1]
    mul = g.made_by(name, "Mul")
    for cast in [g.made_by(i, "Cast") for i in (mul.input if mul is not None else [])]:
        integer = cast is not None and g.made_by(cast.input[0], "MatMulInteger")
        if integer:
            qa, qb = (g.made_by(i, "DynamicQuantizeLinear") for i in integer.input[:2])
            if qa is not None and qb is not None:
                return qa.input[0], qb.input[0]
    return None


def _matmul_reading(g: GraphIndex, name):
    """The MatMul (plain or dynamic int8, see _matmul_inputs) that alone reads `name`, as its
    first input -> (its second input, its output)."""
    user = g.consumers.get(name, [])
    user = user[0] if len(user) == 1 else None
    if user is not None and user.op_type == "MatMul" and user.input[0] == name:
        return user.input[1], user.output[0]
    if user is not None and user.op_type == "DynamicQuantizeLinear":
        integer = g.only_consumer(user.output[0], "MatMulInteger")
        cast = integer is not None and integer.input[0] == user.output[0] and g.only_consumer(integer.output[0], "Cast")
        mul = cast and g.only_consumer(cast.output[0], "Mul")
        other = integer is not None and g.made_by(integer.input[1], "DynamicQuantizeLinear")
        if mul and other:
            return other.input[0], mul.output[0]
    return None


def _heads_source(g: GraphIndex, name):
    """name = Transpose(Reshape(x), perm 0,2,1,3) -> x, the (batch, seq, hidden) tensor."""
    transpose = g.made_by(name, "Transpose")
    if transpose is None or list(attr(transpose, "perm", [])) != SPLIT_HEADS:
        return None
    reshape = g.made_by(transpose.input[0], "Reshape")
    return reshape.input[0] if reshape is not None else None


def _unscaled(g: GraphIndex, name):
    """name = Mul(x, scalar constant) -> (x, scalar); otherwise (name, 1.0)."""
    mul = g.made_by(name, "Mul")
    if mul is None:
        return name, 1.0
    value = g.constant(mul.input[1])
    if value is None or value.size != 1:
        return None, None
    return mul.input[0], float(value.reshape(()))
