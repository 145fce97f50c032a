"""What kind of int8 twin a graph is, and its tied LM head read from the embedding's int8 table.

onnxruntime's `quantize_dynamic` makes the `_quantized` twins of the catalog's models in two kinds:

- **all MatMuls** (`MatMulConstBOnly=False`: transformers.js' older scripts/convert.py, the
  Xenova repos): the attention's activation-by-activation MatMuls are quantized too, each side
  by a DynamicQuantizeLinear;
- **weights only** (`MatMulConstBOnly=True`: onnxruntime's default, transformers.js'
  `quantize_q8`, the onnx-community repos of 2024 on): only MatMuls with a constant B.

Either may be per channel or not, with reduced range (7-bit weights) or not, and with its If
branches quantized (`EnableSubgraph`) or not: `describe` says which.

A tied head, as optimum exports it with `accelerate` installed, reads `Transpose(E)` of the
token embedding E. The quantizer stores E once, as the Gather's per-tensor int8 table, and
quantizes the Transpose on the int8 values. Weights only then leaves the head as
`MatMul(x, DequantizeLinear(Transpose(E_int8)))`: inside the merged decoder's If branch
onnxruntime dequantizes the whole [d, vocab] table to float on every step and reads it again
for the MatMul (docs/performance.md). All MatMuls makes it a MatMulInteger, which onnxruntime
fuses after folding the transpose into a second, in-memory copy of the table.
`int8_head_from_table` makes both heads onnxruntime's own `com.microsoft.DynamicQuantizeMatMul`
over a transposed copy of the int8 table with the table's scale and zero point: for all MatMuls
exactly what onnxruntime runs after folding the transpose (the same numbers), for weights only
an int8 head (its input quantized per tensor, as every other MatMul of the twin already is:
other numbers, so the optimiser's probe decides, app.model_store.optimized). In memory the
table is held about once: the head's copy is pre-packed at session start and its mapped pages
released, the Gather's table keeps only the rows it reads (as for the fp32 head, see
docs/performance.md). On disk the copy is stored beside the table (+vocab x d bytes):
onnxruntime's integer MatMuls take no transposed B, and MatMulNBits, which reads the table's own
layout, was 1.1x as slow for one row and 5-10x for the four rows of beam 4 (2 threads,
vocab 65001 x 512).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from pathlib import Path

from app.model_store.graph_tools import (
    MS_DOMAIN,
    GraphIndex,
    all_graphs,
    attr,
    replace_nodes,
    save_rewritten,
)


class Int8Kind(enum.Enum):
    NOT_INT8 = "not int8"
    WEIGHTS_ONLY = "weights only"
    ALL_MATMULS = "all MatMuls"


@dataclass(frozen=True)
class Int8Twin:
    """What `describe` found in a graph."""

    kind: Int8Kind
    per_channel: bool = False
    reduced_range: bool | None = False  # None: the weights are in an external-data file, not read
    branches_quantized: bool = False  # If branches quantized too (EnableSubgraph)
    head_from_table: bool = False  # the LM head reads a transpose of the embedding's int8 table

    @property
    def text(self) -> str:
        if self.kind is Int8Kind.NOT_INT8:
            return self.kind.value
        made = {
            Int8Kind.WEIGHTS_ONLY: "weights only (MatMulConstBOnly: onnxruntime's default, transformers.js' "
            "quantize_q8, onnx-community)",
            Int8Kind.ALL_MATMULS: "all MatMuls, activation by activation too (transformers.js' older "
            "convert.py, Xenova)",
        }[self.kind]
        ranges = {True: "reduced range", False: "full range", None: "range not read"}
        details = ["per channel" if self.per_channel else "per tensor", ranges[self.reduced_range]]
        details.append("If branches quantized" if self.branches_quantized else "no If branch quantized")
        if self.head_from_table:
            details.append("LM head tied to the embedding's int8 table")
        return f"{made}; {', '.join(details)}"


def describe(path: str | Path) -> Int8Twin:
    """The kind of int8 twin the graph at `path` is (reads the graph, not the weights' bytes
    beyond one weight's range check)."""
    import numpy as np
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path), load_external_data=False)
    graphs = all_graphs(model.graph)
    initializers = {i.name: i for g in graphs for i in g.initializer}
    producers = {o: n for g in graphs for n in g.node for o in n.output}
    kinds = ("MatMulInteger", "DynamicQuantizeMatMul", "MatMulIntegerToFloat")
    integer = [n for g in graphs for n in g.node if n.op_type in kinds]
    if not integer:
        return Int8Twin(Int8Kind.NOT_INT8)

    def constant(name: str) -> bool:
        node = producers.get(name)
        transposed = node is not None and node.op_type == "Transpose" and node.input[0] in initializers
        return name in initializers or transposed

    dynamic_b = any(not constant(n.input[1]) for n in integer)
    weights = [initializers[n.input[1]] for n in integer if n.input[1] in initializers]
    # B's zero point (MatMulInteger) or scale (the fused ops): one per column when per channel
    at = {"MatMulInteger": 3, "DynamicQuantizeMatMul": 2, "MatMulIntegerToFloat": 3}  # MatMulIntegerToFloat: B's scale
    params = [
        initializers.get(n.input[at[n.op_type]])
        for n in integer
        if n.input[1] in initializers and len(n.input) > at[n.op_type]
    ]
    per_channel = any(p is not None and len(p.dims) == 1 and p.dims[0] > 1 for p in params)
    reduced = None
    if weights:
        sample = min(weights, key=lambda t: int(np.prod(t.dims)))
        if sample.data_location != onnx.TensorProto.EXTERNAL:
            values = numpy_helper.to_array(sample).astype(np.int16)
            if sample.data_type == onnx.TensorProto.UINT8:  # asymmetric: a span of 128 values at most
                reduced = int(values.max() - values.min()) <= 127
            else:  # symmetric: |w| <= 64
                reduced = int(np.abs(values).max()) <= 64
    head = any(
        n.op_type == "Transpose"
        and n.input[0] in initializers
        and initializers[n.input[0]].data_type in (onnx.TensorProto.INT8, onnx.TensorProto.UINT8)
        for g in graphs
        for n in g.node
    )
    return Int8Twin(
        Int8Kind.ALL_MATMULS if dynamic_b else Int8Kind.WEIGHTS_ONLY,
        per_channel=per_channel,
        reduced_range=reduced,
        branches_quantized=any(n.op_type in kinds for g in graphs[1:] for n in g.node),
        head_from_table=head,
    )


def int8_head_from_table(path: str | Path) -> int:
    """Make each LM head that reads `Transpose(E_int8)` of a quantized embedding table (weights
    only: through a DequantizeLinear and a float MatMul; all MatMuls: a MatMulInteger of the
    input's DynamicQuantizeLinear) one DynamicQuantizeMatMul over the table transposed once, in
    the file (see the module's docstring). Returns how many heads changed; 0 leaves the file
    untouched."""
    import onnx

    path = Path(path)
    model = onnx.load(str(path))
    graphs = all_graphs(model.graph)
    tables = _quantized_tables(graphs)
    if not tables:
        return 0
    weights = {}  # table name -> the heads' B
    changed = 0
    for g in reversed(graphs):  # branches first: rewriting the outer graph's nodes would detach them
        changed += replace_nodes(g, _int8_heads(GraphIndex(g), tables, weights, model.graph))
    if not changed:
        return 0
    save_rewritten(model, path, external=True)
    return changed


# -- the pieces ----------------------------------------------------------------------------------


class _Table:
    """An int8 or uint8 [vocab, d] initializer read by Gathers, each followed by the same
    per-tensor DequantizeLinear, and by nothing but Transposes."""

    def __init__(self, tensor, dequantizers):
        self.tensor, self.dequantizers = tensor, dequantizers


def _quantized_tables(graphs) -> dict[str, _Table]:
    from onnx import TensorProto, numpy_helper

    initializers = {i.name: i for g in graphs for i in g.initializer}
    readers = {}
    for g in graphs:
        for n in g.node:
            for k, i in enumerate(n.input):
                if i in initializers:
                    readers.setdefault(i, []).append((n, k, g))
    consumers = {}  # per graph: the If branches reuse names
    for g in graphs:
        for n in g.node:
            for i in n.input:
                consumers.setdefault((id(g), i), []).append(n)
    tables = {}
    for name, tensor in initializers.items():
        if tensor.data_type not in (TensorProto.INT8, TensorProto.UINT8) or len(tensor.dims) != 2:
            continue
        users = readers.get(name, [])
        gathers = [(n, g) for n, k, g in users if n.op_type == "Gather" and k == 0 and attr(n, "axis", 0) == 0]
        if not gathers or any(n.op_type not in ("Gather", "Transpose") or k != 0 for n, k, _ in users):
            continue
        dequantizers, params = [], set()
        for gather, g in gathers:
            after = consumers.get((id(g), gather.output[0]), [])
            if len(after) != 1 or after[0].op_type != "DequantizeLinear" or len(after[0].input) < 3:
                break
            scale, zero = initializers.get(after[0].input[1]), initializers.get(after[0].input[2])
            if scale is None or zero is None or numpy_helper.to_array(scale).size != 1:
                break
            dequantizers.append(after[0])
            params.add((float(numpy_helper.to_array(scale).reshape(())), int(numpy_helper.to_array(zero).reshape(()))))
        names = {(dq.input[1], dq.input[2]) for dq in dequantizers}
        if len(dequantizers) != len(gathers) or len(params) != 1 or len(names) != 1:
            continue
        tables[name] = _Table(tensor, dequantizers)
    return tables


def _int8_heads(g: GraphIndex, tables: dict[str, _Table], weights: dict[str, str], outer) -> dict:
    """{output of the node making a head's logits: the DynamicQuantizeMatMul replacing the head} in one
    graph; each table's transposed copy is made once (`weights`), in the outer graph."""
    from onnx import helper

    replaced = {}
    for transpose in g.graph.node:
        table = tables.get(transpose.input[0]) if transpose.op_type == "Transpose" else None
        if table is None or list(attr(transpose, "perm", [1, 0])) != [1, 0]:
            continue
        head = _head(transpose, table, g)
        if head is None:
            continue
        x, last = head
        name = transpose.input[0]
        if name not in weights:
            weights[name] = _head_weight(table, outer)
        scale, zero = table.dequantizers[0].input[1:3]
        replaced[last.output[0]] = helper.make_node(
            "DynamicQuantizeMatMul",
            [x, weights[name], scale, zero],
            list(last.output),
            domain=MS_DOMAIN,
            name=(last.name or "lm_head") + "_from_table",
        )
    return replaced


def _head(transpose, table: _Table, g: GraphIndex):
    """(the head's float input, the node whose output is the logits before any bias) when
    `Transpose(table)` feeds a head of the known forms with the table's own scale, else None."""
    users = g.consumers.get(transpose.output[0], [])
    if len(users) != 1:
        return None
    user = users[0]
    if user.op_type == "DequantizeLinear":  # weights only: MatMul(x, DequantizeLinear(E^T))
        matmul = g.consumers.get(user.output[0], [])
        if len(matmul) == 1 and matmul[0].op_type == "MatMul" and matmul[0].input[1] == user.output[0]:
            if _same_params(user, table):
                return matmul[0].input[0], matmul[0]
        return None
    if user.op_type == "MatMulInteger" and user.input[1] == transpose.output[0]:
        # all MatMuls: Mul(Cast(MatMulInteger(DQL(x), E^T, DQL zero, E zero)), Mul(DQL scale, E scale))
        quantize = g.producer.get(user.input[0])
        cast = g.consumers.get(user.output[0], [])
        mul = cast and len(cast) == 1 and cast[0].op_type == "Cast" and g.consumers.get(cast[0].output[0], [])
        if quantize is None or quantize.op_type != "DynamicQuantizeLinear" or not mul or len(mul) != 1:
            return None
        if len(user.input) < 4 or user.input[3] != table.dequantizers[0].input[2]:
            return None  # B's zero point is not the table's: another quantization
        scales = [g.producer.get(i) for i in mul[0].input if i != cast[0].output[0]]
        if (
            len(scales) != 1
            or scales[0] is None
            or scales[0].op_type != "Mul"
            or set(scales[0].input) != {quantize.output[1], table.dequantizers[0].input[1]}
        ):
            return None  # not (the input's scale x the table's scale)
        if mul[0].op_type != "Mul" or len(g.consumers.get(quantize.output[0], [])) != 1:
            return None
        return quantize.input[0], mul[0]
    return None


def _same_params(dequantize, table: _Table) -> bool:
    return (
        len(dequantize.input) >= 3
        and table.dequantizers
        and all(dequantize.input[k] == table.dequantizers[0].input[k] for k in (1, 2))
    )


def _head_weight(table: _Table, outer) -> str:
    """The head's B: the table transposed [d, vocab], same type, added to the outer graph."""
    import numpy as np
    from onnx import numpy_helper

    values = numpy_helper.to_array(table.tensor)
    b = numpy_helper.from_array(np.ascontiguousarray(values.T), f"{table.tensor.name}.lm_head")
    outer.initializer.append(b)
    return b.name
