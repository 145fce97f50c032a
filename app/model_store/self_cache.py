"""Share the self-attention cache: the cached self-attention of a decoder whose attention is fused
(app.model_store.optimize) becomes a GroupQueryAttention that extends its past buffer in place,
so a decoding step copies one position per layer instead of the whole cache."""

from __future__ import annotations

import re
from pathlib import Path

from app.model_store.graph_tools import MS_DOMAIN, GraphIndex, attr, drop_dead_nodes, save, set_nodes, subgraphs
from app.model_store.optimize import decoder_paths

# The inputs a shared-cache decoder takes besides optimum's (GroupQueryAttention's own names):
# per row, the number of cached positions before this step; and that number + 1.
SEQLENS_K, TOTAL_LENGTH = "seqlens_k", "total_sequence_length"
SELF_PAST = re.compile(r"^past_key_values\.\d+\.decoder\.(key|value)$")


def share_self_cache(path: str | Path) -> int:
    """Turn each fused self-attention over a cache (MultiHeadAttention with past_key/past_value)
    into a `com.microsoft.GroupQueryAttention` that writes the new position into the past buffer
    itself, in place, when the caller binds the same buffer as past and present. A step then
    copies one position per layer instead of the whole cache (the copy grew with every step).

    The graph gains two int32 inputs, `seqlens_k` (batch,) and `total_sequence_length` (scalar),
    and its self-attention pasts/presents become buffers (batch, heads, capacity, head_dim) of
    which the first `seqlens_k` positions are valid. The engine reads this protocol from the
    inputs (app.translation.onnx_model). Blocks without a past (the first step) stay as they are.

    optimum's graphs take the number of cached positions (for the position embeddings) from the
    past's shape; with a buffer that is its capacity, so that Shape is replaced by
    `total_sequence_length - new tokens`. Anything else that reads a self-attention past would
    see the capacity too: then nothing is changed. Returns how many blocks changed; 0 leaves the
    file untouched."""
    import onnx
    from onnx import TensorProto, helper

    path = Path(path)
    model = onnx.load(str(path))
    past_names = {i.name for i in model.graph.input if SELF_PAST.match(i.name)}
    # Branches first: rewriting the outer graph's node list would detach them.
    graphs = [sub for node in model.graph.node for sub in subgraphs(node)] + [model.graph]
    plans = []  # (graph, its new nodes or None, blocks changed)
    for k, graph in enumerate(graphs):
        plan = _shared_cache_plan(graph, past_names, f"shared_cache_{k}_")
        if plan is None:
            return 0  # a past read for something else: leave the file as it is
        plans.append((graph, *plan))
    changed = sum(made for _, _, made in plans)
    if not changed:
        return 0
    for graph, nodes, _ in plans:
        if nodes is not None:
            set_nodes(graph, nodes)
    drop_dead_nodes(model.graph)
    model.graph.input.extend(
        [
            helper.make_tensor_value_info(SEQLENS_K, TensorProto.INT32, ["batch_size"]),
            helper.make_tensor_value_info(TOTAL_LENGTH, TensorProto.INT32, []),
        ]
    )
    save(model, path)
    return changed


def share_self_cache_folder(folder: str | Path) -> dict[str, int]:
    """`share_self_cache` on every decoder graph of a model folder (or its onnx/ subfolder);
    run it after `fuse_attention_folder`, before making int8 twins."""
    return {path.name: share_self_cache(path) for path in decoder_paths(folder)}


def _shared_cache_plan(graph, past_names: set, prefix: str):
    """(the graph's new nodes, or None when nothing changes in it; blocks changed), or None when
    something reads a self-attention past other than a cached attention or its length."""
    g = GraphIndex(graph)
    nodes, made, lengths = [], 0, []  # lengths: Gather(Shape(past), 2) outputs, the cached length
    for node in graph.node:
        if _is_cached_self_attention(node, past_names):
            node = group_query_attention(node)
            made += 1
        elif node.op_type == "Shape" and node.input[0] in past_names:
            gathers = _cached_length_readers(g, node)
            if gathers is None:
                return None
            lengths += [n.output[0] for n in gathers]
            continue
        elif any(i in past_names for i in node.input):
            return None  # another reader of a past (or an attention not converted) would see the capacity
        nodes.append(node)
    if lengths:
        nodes = [n for n in nodes if not (n.op_type == "Gather" and n.output[0] in lengths)]
        nodes[:0] = _cached_length_from_total(prefix, lengths)
    return (nodes if made or lengths else None), made


def _is_cached_self_attention(node, past_names: set) -> bool:
    inputs = list(node.input) + [""] * (8 - len(node.input))
    return (
        node.op_type == "MultiHeadAttention"
        and node.domain == MS_DOMAIN
        and bool(attr(node, "unidirectional", 0))
        and inputs[6] in past_names
        and inputs[7] in past_names
        and not any(inputs[3:6])
    )


def group_query_attention(node):
    """A causal MultiHeadAttention over past_key/past_value as a GroupQueryAttention over the same
    past, which it extends in place (seqlens_k and total_sequence_length say how far)."""
    from onnx import helper

    heads = attr(node, "num_heads")
    return helper.make_node(
        "GroupQueryAttention",
        list(node.input[:3]) + list(node.input[6:8]) + [SEQLENS_K, TOTAL_LENGTH],
        list(node.output),
        domain=MS_DOMAIN,
        name=node.name + "_shared_cache",
        num_heads=heads,
        kv_num_heads=heads,
        scale=attr(node, "scale"),
    )


def _cached_length_readers(g: GraphIndex, shape):
    """The Gathers that read only the sequence length (index 2) of Shape(past), or None when the
    shape is used for anything else."""
    gathers = g.consumers[shape.output[0]]
    if not gathers or any(
        n.op_type != "Gather"
        or attr(n, "axis", 0) != 0
        or g.constant(n.input[1]) is None
        or int(g.constant(n.input[1])) != 2
        for n in gathers
    ):
        return None
    return gathers


def _cached_length_from_total(prefix: str, lengths: list[str]) -> list:
    """Nodes making each of `lengths` = total_sequence_length - the step's new tokens."""
    from onnx import TensorProto, helper

    p = prefix
    return [
        helper.make_node("Shape", ["input_ids"], [p + "ids_shape"]),
        helper.make_node("Constant", [], [p + "one"], value=helper.make_tensor(p + "one", TensorProto.INT64, [], [1])),
        helper.make_node("Gather", [p + "ids_shape", p + "one"], [p + "new_tokens"], axis=0),
        helper.make_node("Cast", [TOTAL_LENGTH], [p + "total"], to=TensorProto.INT64),
        helper.make_node("Sub", [p + "total", p + "new_tokens"], [lengths[0]]),
    ] + [helper.make_node("Identity", [lengths[0]], [name]) for name in lengths[1:]]
