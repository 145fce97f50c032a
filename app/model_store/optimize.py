"""Rewrite exported decoder graphs so onnxruntime runs them faster, with the same numbers.

`fuse_attention` replaces each attention block that optimum-onnx exports from transformers
4.5x (Marian, M2M100: q and k each scaled by sqrt(scale), k transposed, an explicit Concat
with the past, Softmax, a MatMul with v) by one `com.microsoft.MultiHeadAttention` node.
A cached decoder step then runs ~350 nodes instead of ~1000: fewer dispatches, no
intermediate transposes of the growing cache (docs/performance.md). onnxruntime's own
transformer optimizer does not match these graphs (it fuses only the LayerNorms).

The rewrite is checked, not assumed: every piece of a block is matched by op type, perm and
constant, anything unexpected leaves that block as it is, and the inputs, outputs and cache
protocol of the graph do not change. It runs in the app too: a downloaded model is optimised
on first load (app.model_store.optimized), so `onnx` is a runtime dependency (pyproject.toml).
"""

from __future__ import annotations

import collections
import json
import re
from pathlib import Path

# The decoder graphs that hold attention over a cache; the encoder is compute-bound (no gain).
DECODER_FILES = ("decoder_model.onnx", "decoder_with_past_model.onnx", "decoder_model_merged.onnx")
MS_DOMAIN = "com.microsoft"
SPLIT_HEADS = [0, 2, 1, 3]  # (batch, seq, heads, head_dim) <-> (batch, heads, seq, head_dim)
KEY_T = [0, 1, 3, 2]
KEY_FROM_PROJECTION = [0, 2, 3, 1]


def fuse_attention(path: str | Path, num_heads: int) -> int:
    """Fuse the attention blocks of the graph at `path` (and of its If branches) in place.
    Returns how many were fused; 0 leaves the file untouched."""
    import onnx
    from onnx import helper

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
    outer = _Graph(model.graph, initializers)
    fused = 0
    for node in model.graph.node:
        for attr in node.attribute:
            if attr.type == onnx.AttributeProto.GRAPH:
                fused += _fuse_graph(attr.g, initializers, num_heads, causal_only, outer)
    fused += _fuse_graph(model.graph, initializers, num_heads, causal_only)
    if not fused:
        return 0
    _drop_dead_nodes(model.graph)
    if not any(o.domain == MS_DOMAIN for o in model.opset_import):
        model.opset_import.append(helper.make_opsetid(MS_DOMAIN, 1))
    _save(model, path)
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
    onnx_dir = folder / "onnx" if (folder / "onnx").is_dir() else folder
    return {name: fuse_attention(onnx_dir / name, int(heads)) for name in DECODER_FILES if (onnx_dir / name).is_file()}


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
    graphs = [
        attr.g for node in model.graph.node for attr in node.attribute if attr.type == onnx.AttributeProto.GRAPH
    ] + [model.graph]
    rewritten = []  # (graph, its new nodes)
    changed = 0
    for k, graph in enumerate(graphs):
        g = _Graph(graph, {})
        nodes, made = [], 0
        length_from_shape = []  # Gather(Shape(past), 2) outputs: the cached length
        for node in graph.node:
            inputs = list(node.input) + [""] * (8 - len(node.input))
            if (
                node.op_type == "MultiHeadAttention"
                and node.domain == MS_DOMAIN
                and g.attr(node, "unidirectional", 0)
                and inputs[6] in past_names
                and inputs[7] in past_names
                and not any(inputs[3:6])
            ):
                heads = g.attr(node, "num_heads")
                node = helper.make_node(
                    "GroupQueryAttention",
                    inputs[:3] + inputs[6:8] + [SEQLENS_K, TOTAL_LENGTH],
                    list(node.output),
                    domain=MS_DOMAIN,
                    name=node.name + "_shared_cache",
                    num_heads=heads,
                    kv_num_heads=heads,
                    scale=g.attr(node, "scale"),
                )
                made += 1
            elif node.op_type == "Shape" and node.input[0] in past_names:
                gathers = g.consumers[node.output[0]]
                if not gathers or any(
                    n.op_type != "Gather"
                    or g.attr(n, "axis", 0) != 0
                    or g.constant(n.input[1]) is None
                    or int(g.constant(n.input[1])) != 2
                    for n in gathers
                ):
                    return 0  # the past's shape is used for something else: leave the file as it is
                length_from_shape += [n.output[0] for n in gathers]
                continue
            elif any(i in past_names for i in node.input):
                return 0  # another reader of a past (or an attention not converted) would see the capacity
            nodes.append(node)
        if length_from_shape:
            nodes = [n for n in nodes if not (n.op_type == "Gather" and n.output[0] in length_from_shape)]
            p = f"shared_cache_{k}_"
            nodes[:0] = [
                helper.make_node("Shape", ["input_ids"], [p + "ids_shape"]),
                helper.make_node(
                    "Constant", [], [p + "one"], value=helper.make_tensor(p + "one", TensorProto.INT64, [], [1])
                ),
                helper.make_node("Gather", [p + "ids_shape", p + "one"], [p + "new_tokens"], axis=0),
                helper.make_node("Cast", [TOTAL_LENGTH], [p + "total"], to=TensorProto.INT64),
                helper.make_node("Sub", [p + "total", p + "new_tokens"], [length_from_shape[0]]),
            ] + [helper.make_node("Identity", [length_from_shape[0]], [name]) for name in length_from_shape[1:]]
        if made or length_from_shape:
            rewritten.append((graph, nodes))
            changed += made
    if not changed:
        return 0
    for graph, nodes in rewritten:
        _set_nodes(graph, nodes)
    _drop_dead_nodes(model.graph)
    model.graph.input.extend(
        [
            helper.make_tensor_value_info(SEQLENS_K, TensorProto.INT32, ["batch_size"]),
            helper.make_tensor_value_info(TOTAL_LENGTH, TensorProto.INT32, []),
        ]
    )
    _save(model, path)
    return changed


def share_self_cache_folder(folder: str | Path) -> dict[str, int]:
    """`share_self_cache` on every decoder graph of a model folder (or its onnx/ subfolder);
    run it after `fuse_attention_folder`, before making int8 twins."""
    folder = Path(folder)
    onnx_dir = folder / "onnx" if (folder / "onnx").is_dir() else folder
    return {name: share_self_cache(onnx_dir / name) for name in DECODER_FILES if (onnx_dir / name).is_file()}


def share_tied_embedding(path: str | Path) -> int:
    """Store a tied embedding once. optimum writes the decoder's token embedding (the Gather's
    table E, [vocab, d]) and the LM head (a MatMul with the constant E transposed, [d, vocab])
    as two initializers even when the model ties them: in opus-mt 2 x 133 MB of a 368 MB decoder.
    Each head MatMul whose constant is exactly (value for value) the transpose of a Gather's table,
    or a Transpose node of that table, becomes `com.microsoft.FusedMatMul(x, E', transB=1)`, where
    E' is a new initializer (`<table>.lm_head`) holding the table's values, not the table itself;
    the transposed constant is dropped. The file still stores those values once: `_save_external`
    points both initializers at the same bytes of the external-data file. The head keeps its own
    initializer because onnxruntime pre-packs a MatMul's B and then releases it: a copy of its
    own is unmapped without taking the Gather's pages with it. The packed panels are the ones the
    MatMul had (so the same numbers), and a step takes as long (docs/performance.md, "Memory").

    Only fp32 tables are shared: an int8 twin quantizes the two differently (per row, per column),
    so they are not the same numbers. The merged decoder's initializers live in the outer graph
    and are read in its If branches: both are searched. Returns how many heads now read the table;
    0 leaves the file untouched."""
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    path = Path(path)
    model = onnx.load(str(path))
    graphs = all_graphs(model.graph)
    # Every initializer by name, with the graph holding it (a branch may read the outer graph's).
    initializers = {i.name: (i, g) for g in graphs for i in g.initializer}
    tables = {}  # name of an fp32 2-D Gather table -> its values
    for g in graphs:
        for node in g.node:
            name = node.input[0] if node.op_type == "Gather" and node.input else None
            if name in initializers and name not in tables and _attr(node, "axis", 0) == 0:
                tensor = initializers[name][0]
                if tensor.data_type == TensorProto.FLOAT and len(tensor.dims) == 2:
                    tables[name] = numpy_helper.to_array(tensor)
    if not tables:
        return 0
    transposes = {}  # output of Transpose(table) -> table
    for g in graphs:
        for node in g.node:
            if node.op_type == "Transpose" and node.input[0] in tables and list(_attr(node, "perm", [1, 0])) == [1, 0]:
                transposes[node.output[0]] = node.input[0]
    same = {}  # a head weight's name -> the table it is the transpose of

    def tied_table(weight: str) -> str | None:
        if weight in transposes:
            return transposes[weight]
        if weight not in initializers or weight in tables:
            return None
        if weight not in same:
            tensor = initializers[weight][0]
            same[weight] = None
            if tensor.data_type == TensorProto.FLOAT and len(tensor.dims) == 2:
                for name, table in tables.items():
                    if tuple(tensor.dims) == table.shape[::-1]:
                        values = numpy_helper.to_array(tensor)
                        if np.array_equal(values, table.T):
                            same[weight] = name
                            break
        return same[weight]

    head_weights = {}  # table -> the head's own initializer holding the same values

    def head_weight(table: str) -> str:
        if table not in head_weights:
            name = f"{table}.lm_head"
            while name in initializers:
                name += "_"
            initializers[table][1].initializer.append(numpy_helper.from_array(tables[table], name))
            head_weights[table] = name
        return head_weights[table]

    shared = 0
    for g in reversed(graphs):  # branches first: rewriting the outer graph's nodes would detach them
        declared = {v.name for v in list(g.value_info) + list(g.output)}
        nodes, made = [], 0
        for node in g.node:
            table = tied_table(node.input[1]) if node.op_type == "MatMul" and len(node.input) == 2 else None
            if table is not None:
                node = helper.make_node(
                    "FusedMatMul",
                    [node.input[0], head_weight(table)],
                    list(node.output),
                    domain=MS_DOMAIN,
                    name=(node.name or "lm_head") + "_tied",
                    transB=1,
                    alpha=1.0,
                )
                # onnx's inference does not know com.microsoft ops: declare what it makes
                g.value_info.extend(
                    helper.make_tensor_value_info(o, TensorProto.FLOAT, None) for o in node.output if o not in declared
                )
                made += 1
            nodes.append(node)
        if made:
            _set_nodes(g, nodes)
            shared += made
    if not shared:
        return 0
    _drop_dead_nodes(model.graph)
    used = _used_names(model.graph)
    for g in all_graphs(model.graph)[1:]:  # the outer graph's were swept; a branch's own initializers too
        kept = [i for i in g.initializer if i.name in used]
        if len(kept) != len(g.initializer):
            del g.initializer[:]
            g.initializer.extend(kept)
    if not any(o.domain == MS_DOMAIN for o in model.opset_import):
        model.opset_import.append(helper.make_opsetid(MS_DOMAIN, 1))
    _save_external(model, path)  # the table and the head's copy of it: the same bytes, stored once
    return shared


def share_tied_embedding_folder(folder: str | Path) -> dict[str, int]:
    """`share_tied_embedding` on every fp32 decoder graph of a model folder (or its onnx/
    subfolder). Run it after making int8 twins: the quantizer knows MatMul, not FusedMatMul."""
    folder = Path(folder)
    onnx_dir = folder / "onnx" if (folder / "onnx").is_dir() else folder
    return {name: share_tied_embedding(onnx_dir / name) for name in DECODER_FILES if (onnx_dir / name).is_file()}


def all_graphs(graph) -> list:
    """A graph and every graph nested in its nodes (If branches), outer first."""
    import onnx

    found = [graph]
    for node in graph.node:
        for attr in node.attribute:
            if attr.type == onnx.AttributeProto.GRAPH:
                found += all_graphs(attr.g)
            elif attr.type == onnx.AttributeProto.GRAPHS:
                for sub in attr.graphs:
                    found += all_graphs(sub)
    return found


def _attr(node, name, default=None):
    from onnx import helper

    return next((helper.get_attribute_value(a) for a in node.attribute if a.name == name), default)


def _used_names(graph) -> set:
    """Every name read by a node of the graph or of a graph nested in it, and its outputs."""
    used = set()
    for g in all_graphs(graph):
        used.update(o.name for o in g.output)
        for n in g.node:
            used.update(n.input)
    return used


class _Graph:
    """Producer/consumer lookups over one graph's nodes."""

    def __init__(self, graph, initializers, outer=None):
        self.graph = graph
        self.initializers = initializers
        self.outer = outer  # the enclosing graph of an If branch: a branch reads its names too
        self.producer = {out: n for n in graph.node for out in n.output}
        self.consumers = collections.defaultdict(list)
        for n in graph.node:
            for name in n.input:
                self.consumers[name].append(n)

    def made_by(self, name, op_type):
        node = self.producer.get(name)
        if node is None and self.outer is not None:
            return self.outer.made_by(name, op_type)
        return node if node is not None and node.op_type == op_type else None

    def only_consumer(self, name, op_type):
        users = self.consumers.get(name, [])
        return users[0] if len(users) == 1 and users[0].op_type == op_type else None

    def constant(self, name):
        from onnx import numpy_helper

        if name in self.initializers:
            return numpy_helper.to_array(self.initializers[name])
        node = self.producer.get(name)
        if node is not None and node.op_type == "Constant" and node.attribute and node.attribute[0].name == "value":
            return numpy_helper.to_array(node.attribute[0].t)
        return None

    def attr(self, node, name, default=None):
        from onnx import helper

        return next((helper.get_attribute_value(a) for a in node.attribute if a.name == name), default)

    def matmul_inputs(self, name):
        """name = MatMul(a, b) -> (a, b); also its dynamic int8 form, which transformers.js' quantizer
        makes of the attention's activation-by-activation MatMuls too:
        Mul(Cast(MatMulInteger(DynamicQuantizeLinear(a), DynamicQuantizeLinear(b))), scales)."""
        matmul = self.made_by(name, "MatMul")
        if matmul is not None:
            return matmul.input[0], matmul.input[1]
        mul = self.made_by(name, "Mul")
        for cast in [self.made_by(i, "Cast") for i in (mul.input if mul is not None else [])]:
            integer = cast is not None and self.made_by(cast.input[0], "MatMulInteger")
            if integer:
                qa, qb = (self.made_by(i, "DynamicQuantizeLinear") for i in integer.input[:2])
                if qa is not None and qb is not None:
                    return qa.input[0], qb.input[0]
        return None

    def matmul_reading(self, name):
        """The MatMul (plain or dynamic int8, see matmul_inputs) that alone reads `name`, as its
        first input -> (its second input, its output)."""
        user = self.consumers.get(name, [])
        user = user[0] if len(user) == 1 else None
        if user is not None and user.op_type == "MatMul" and user.input[0] == name:
            return user.input[1], user.output[0]
        if user is not None and user.op_type == "DynamicQuantizeLinear":
            integer = self.only_consumer(user.output[0], "MatMulInteger")
            cast = (
                integer is not None
                and integer.input[0] == user.output[0]
                and self.only_consumer(integer.output[0], "Cast")
            )
            mul = cast and self.only_consumer(cast.output[0], "Mul")
            other = integer is not None and self.made_by(integer.input[1], "DynamicQuantizeLinear")
            if mul and other:
                return other.input[0], mul.output[0]
        return None

    def heads_source(self, name):
        """name = Transpose(Reshape(x), perm 0,2,1,3) -> x, the (batch, seq, hidden) tensor."""
        transpose = self.made_by(name, "Transpose")
        if transpose is None or list(self.attr(transpose, "perm", [])) != SPLIT_HEADS:
            return None
        reshape = self.made_by(transpose.input[0], "Reshape")
        return reshape.input[0] if reshape is not None else None

    def unscaled(self, name):
        """name = Mul(x, scalar constant) -> (x, scalar); otherwise (name, 1.0)."""
        mul = self.made_by(name, "Mul")
        if mul is None:
            return name, 1.0
        value = self.constant(mul.input[1])
        if value is None or value.size != 1:
            return None, None
        return mul.input[0], float(value.reshape(()))


def _fuse_graph(graph, initializers, num_heads: int, causal_only: bool, outer=None) -> int:
    from onnx import TensorProto, helper

    g = _Graph(graph, initializers, outer)
    replacements = []  # (softmax node, fused node, nodes whose outputs the fused node now makes)
    for softmax in [n for n in graph.node if n.op_type == "Softmax"]:
        if g.attr(softmax, "axis", -1) not in (-1, 3):
            continue
        add = g.made_by(softmax.input[0], "Add")
        scores = add is not None and g.matmul_inputs(add.input[0])
        if not scores:
            continue
        bias = add.input[1]
        query, q_scale = g.unscaled(scores[0])
        key_t, k_scale = g.unscaled(scores[1])
        key_transpose = key_t and g.made_by(key_t, "Transpose")
        if query is None or key_transpose is None:
            continue
        key_perm = list(g.attr(key_transpose, "perm", []))
        # k^T of the cache (0,1,3,2), or, without a cache, straight from the split projection (0,2,3,1)
        key_reshape = g.made_by(key_transpose.input[0], "Reshape") if key_perm == KEY_FROM_PROJECTION else None
        if key_perm != KEY_T and key_reshape is None:
            continue
        q_source = g.heads_source(query)
        weighted = g.matmul_reading(softmax.output[0])  # (value, its output)
        merge = weighted is not None and g.only_consumer(weighted[1], "Transpose")
        out = merge and list(g.attr(merge, "perm", [])) == SPLIT_HEADS and g.only_consumer(merge.output[0], "Reshape")
        if q_source is None or not out:
            continue
        key, value = key_transpose.input[0], weighted[0]
        if key_reshape is not None:  # no cache here: both come from this step's projections
            k_source, v_source = key_reshape.input[0], g.heads_source(value)
            if v_source is None:
                continue
            node = helper.make_node(
                "MultiHeadAttention",
                [q_source, k_source, v_source, "", "", bias],
                [out.output[0]],
                domain=MS_DOMAIN,
                name=f"{softmax.name}_fused_attention",
                num_heads=num_heads,
                scale=q_scale * k_scale,
            )
            replacements.append((softmax, node, [out]))
            continue
        attributes = {"num_heads": num_heads, "scale": q_scale * k_scale}
        cat_k, cat_v = g.made_by(key, "Concat"), g.made_by(value, "Concat")
        if cat_k is not None or cat_v is not None:
            # Self-attention over a cache: present = Concat(past, new) on the sequence axis.
            if cat_k is None or cat_v is None or not causal_only:
                continue
            if any(g.attr(c, "axis") not in (2, -2) or len(c.input) != 2 for c in (cat_k, cat_v)):
                continue
            k_source, v_source = g.heads_source(cat_k.input[1]), g.heads_source(cat_v.input[1])
            if k_source is None or v_source is None:
                continue
            # One new token attends to every cached one; the mask the graph built from the
            # present's length is the causal mask, which `unidirectional` applies (also with past).
            inputs = [q_source, k_source, v_source, "", "", "", cat_k.input[0], cat_v.input[0]]
            outputs = [out.output[0], cat_k.output[0], cat_v.output[0]]
            attributes["unidirectional"] = 1
            made = [out, cat_k, cat_v]
        else:
            k_source, v_source = g.heads_source(key), g.heads_source(value)
            if (k_source is None) != (v_source is None):
                continue
            # Projections of this step (3-D), or a cross-attention cache from step 0 (4-D, BNSH).
            inputs = [q_source, k_source or key, v_source or value, "", "", bias]
            outputs = [out.output[0]]
            made = [out]
        node = helper.make_node(
            "MultiHeadAttention",
            inputs,
            outputs,
            domain=MS_DOMAIN,
            name=f"{softmax.name}_fused_attention",
            **attributes,
        )
        replacements.append((softmax, node, made))
    if not replacements:
        return 0
    # Declare the fused outputs' type: onnx's inference does not know com.microsoft ops, and the
    # int8 quantizer types the Casts it adds after each MatMul from what inference found.
    declared = {v.name for v in list(graph.value_info) + list(graph.output)}
    for _, node, _ in replacements:
        graph.value_info.extend(
            helper.make_tensor_value_info(name, TensorProto.FLOAT, None) for name in node.output if name not in declared
        )
    replaced = {id(n) for _, _, made in replacements for n in made}
    nodes = [n for n in graph.node if id(n) not in replaced]
    for softmax, node, _ in replacements:
        nodes.insert(nodes.index(softmax), node)
    _set_nodes(graph, _topological(nodes, graph))
    return len(replacements)


def _topological(nodes, graph):
    """Nodes in an order where each comes after what it reads (original order where free)."""
    available = {i.name for i in graph.input} | {i.name for i in graph.initializer} | {""}
    made_here = {out for n in nodes for out in n.output}
    pending = list(nodes)
    ordered = []
    while pending:
        rest = []
        for n in pending:
            # Names made nowhere in this graph come from an outer scope (If branches).
            if all(i in available or i not in made_here for i in n.input):
                ordered.append(n)
                available.update(n.output)
            else:
                rest.append(n)
        if len(rest) == len(pending):
            raise ValueError("attention fusion left a cycle in the graph")
        pending = rest
    return ordered


def _drop_dead_nodes(graph) -> None:
    """Remove nodes nothing reads any more (the shape arithmetic of the fused blocks), in the
    graph and in its If branches; a branch may read names of the outer graph."""
    import onnx

    def used_names(g) -> set:
        used = {o.name for o in g.output}
        for n in g.node:
            used.update(n.input)
            for attr in n.attribute:
                if attr.type == onnx.AttributeProto.GRAPH:
                    used |= used_names(attr.g)
        return used

    def sweep(g) -> bool:
        changed = False
        for n in g.node:
            for attr in n.attribute:
                if attr.type == onnx.AttributeProto.GRAPH:
                    changed |= sweep(attr.g)
        used = used_names(g)
        alive = [n for n in g.node if any(o in used for o in n.output)]
        if len(alive) != len(g.node):
            _set_nodes(g, alive)
            changed = True
        return changed

    while sweep(graph):
        pass
    used = used_names(graph)
    kept = [i for i in graph.initializer if i.name in used]
    del graph.initializer[:]
    graph.initializer.extend(kept)


def _set_nodes(graph, nodes) -> None:
    nodes = list(nodes)
    del graph.node[:]
    graph.node.extend(nodes)


def externalize(source: str | Path, target: str | Path | None = None) -> Path:
    """Write the graph at `source` to `target` (default: in place) with its weights in one
    external-data file beside it (`<name>_data`). onnxruntime maps such a file into memory and
    uses the weights where they lie, instead of parsing them out of the graph and copying them:
    a session then holds about its weights once (the int8 opus-mt decoder: 129 instead of 219 MB
    resident, docs/performance.md), and rows of an embedding never read are never loaded."""
    import onnx

    source = Path(source)
    target = Path(target) if target else source
    _save_external(onnx.load(str(source)), target)
    return target


def _save(model, path: Path) -> None:
    import onnx

    data = path.with_name(path.name + "_data")
    if model.ByteSize() < 2**31 - 2**20:
        onnx.save(model, str(path))
        data.unlink(missing_ok=True)
    else:  # protobuf's 2 GB limit: weights beside the graph, as optimum writes them
        _save_external(model, path)


PAGE = 4096
_VALUE_FIELDS = ("raw_data", "float_data", "int32_data", "int64_data", "double_data", "uint64_data")


def _save_external(model, path: Path, threshold: int = 1024) -> None:
    """Save `model` at `path` with every initializer of at least `threshold` bytes (If branches'
    too) in one external-data file `<name>_data`, each at a page boundary. Initializers with the
    same bytes are stored once: their entries point at the same place (share_tied_embedding
    relies on it). onnxruntime maps each initializer on its own, so one it pre-packs and
    releases is unmapped without taking the other's pages with it."""
    import hashlib

    import onnx
    from onnx import TensorProto, numpy_helper

    data = path.with_name(path.name + "_data")
    stored = {}  # sha256 of the bytes -> (offset, length)
    partial = data.with_name(data.name + ".partial")
    with partial.open("wb") as f:
        for graph in all_graphs(model.graph):
            for tensor in graph.initializer:
                if tensor.data_location == TensorProto.EXTERNAL or tensor.data_type in (
                    TensorProto.STRING,
                    TensorProto.UNDEFINED,
                ):
                    continue
                raw = tensor.raw_data if tensor.HasField("raw_data") else numpy_helper.to_array(tensor).tobytes()
                if len(raw) < threshold:
                    continue
                key = hashlib.sha256(raw).digest()
                if key not in stored:
                    f.write(b"\0" * (-f.tell() % PAGE))
                    stored[key] = (f.tell(), len(raw))
                    f.write(raw)
                offset, length = stored[key]
                for name in _VALUE_FIELDS:
                    tensor.ClearField(name)
                del tensor.external_data[:]
                tensor.data_location = TensorProto.EXTERNAL
                for k, v in (("location", data.name), ("offset", offset), ("length", length)):
                    entry = tensor.external_data.add()
                    entry.key, entry.value = k, str(v)
    partial.replace(data)
    onnx.save(model, str(path))
