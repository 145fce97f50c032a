"""The ONNX graph edits every rewrite shares: walking a model's graphs (If branches included),
looking nodes up by what they make and read, replacing nodes, sweeping what nothing reads any
more, and writing the result (its weights inline, or in one external-data file where identical
tensors are stored once).

The rewrites themselves (app.model_store.optimize, app.model_store.int8_twins) and the export
tooling (models/) build on these; nothing here knows what an attention block or an LM head is.

Why not onnx-ir / onnxscript's rewriter: they would add about 95 MB to the app's install
(onnx-ir needs sympy and mpmath, 85 MB that nothing else the app installs needs; onnxscript 7.7 MB,
onnx-ir 1.9 MB), and a first load would convert each graph to their IR and back. The rules are
few and small; these helpers over onnx's own protobuf are all they share.
"""

from __future__ import annotations

import collections
import hashlib
from pathlib import Path

MS_DOMAIN = "com.microsoft"
PAGE = 4096
_VALUE_FIELDS = ("raw_data", "float_data", "int32_data", "int64_data", "double_data", "uint64_data")


def attr(node, name: str, default=None):
    """A node's attribute value (ints, floats, lists, tensors, graphs as onnx gives them)."""
    from onnx import helper

    return next((helper.get_attribute_value(a) for a in node.attribute if a.name == name), default)


def subgraphs(node) -> list:
    """The graphs held in a node's attributes (an If's branches, a Loop's body)."""
    import onnx

    found = []
    for a in node.attribute:
        if a.type == onnx.AttributeProto.GRAPH:
            found.append(a.g)
        elif a.type == onnx.AttributeProto.GRAPHS:
            found.extend(a.graphs)
    return found


def all_graphs(graph) -> list:
    """A graph and every graph nested in its nodes (If branches), outer first."""
    found = [graph]
    for node in graph.node:
        for sub in subgraphs(node):
            found += all_graphs(sub)
    return found


def used_names(graph) -> set:
    """Every name read by a node of the graph or of a graph nested in it, and its outputs."""
    used = set()
    for g in all_graphs(graph):
        used.update(o.name for o in g.output)
        for n in g.node:
            used.update(n.input)
    return used


def set_nodes(graph, nodes) -> None:
    nodes = list(nodes)
    del graph.node[:]
    graph.node.extend(nodes)


def declare_float(graph, names) -> None:
    """Declare float outputs onnx's shape inference cannot type (com.microsoft ops): the int8
    quantizer types the Casts it adds after a MatMul from what inference found."""
    from onnx import TensorProto, helper

    declared = {v.name for v in list(graph.value_info) + list(graph.output)}
    graph.value_info.extend(
        helper.make_tensor_value_info(name, TensorProto.FLOAT, None) for name in names if name not in declared
    )


def replace_nodes(graph, replacements: dict) -> int:
    """Put each replacement ({first output of the old node: new node}) where the node it
    replaces stood, its outputs declared float. Keyed by output name, not by the node object:
    protobuf hands out a new Python object for a node each time it is read. Returns how many
    were replaced."""
    if not replacements:
        return 0
    nodes = [replacements.get(n.output[0], n) if n.output else n for n in graph.node]
    for new in replacements.values():
        declare_float(graph, new.output)
    set_nodes(graph, nodes)
    return len(replacements)


def use_ms_domain(model) -> None:
    """Import the com.microsoft opset the contrib ops a rewrite adds belong to."""
    from onnx import helper

    if not any(o.domain == MS_DOMAIN for o in model.opset_import):
        model.opset_import.append(helper.make_opsetid(MS_DOMAIN, 1))


def drop_dead_nodes(graph) -> None:
    """Remove nodes nothing reads any more, then initializers nothing reads, in the graph and in
    its branches (a branch may read names of the outer graph)."""

    def sweep(g) -> bool:
        changed = False
        for n in g.node:
            for sub in subgraphs(n):
                changed |= sweep(sub)
        used = used_names(g)
        alive = [n for n in g.node if any(o in used for o in n.output)]
        if len(alive) != len(g.node):
            set_nodes(g, alive)
            changed = True
        return changed

    while sweep(graph):
        pass
    drop_unused_initializers(graph)


def drop_unused_initializers(graph) -> None:
    """Remove the initializers nothing reads, in the graph and in its branches."""
    used = used_names(graph)
    for g in all_graphs(graph):
        kept = [i for i in g.initializer if i.name in used]
        if len(kept) != len(g.initializer):
            del g.initializer[:]
            g.initializer.extend(kept)


def topological(nodes, graph) -> list:
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
            raise ValueError("the rewrite left a cycle in the graph")
        pending = rest
    return ordered


def gather_tables(graphs, initializers: dict, data_types=None) -> dict:
    """{name: values} of the 2-D initializers Gathers read along axis 0 (token embeddings), of
    the given TensorProto types (any when None)."""
    from onnx import numpy_helper

    tables = {}
    for g in graphs:
        for node in g.node:
            name = node.input[0] if node.op_type == "Gather" and node.input else None
            if name in initializers and name not in tables and attr(node, "axis", 0) == 0:
                tensor = initializers[name]
                if len(tensor.dims) == 2 and (data_types is None or tensor.data_type in data_types):
                    tables[name] = numpy_helper.to_array(tensor)
    return tables


def transpose_of(tensor, tables: dict) -> str | None:
    """The name of the table whose transpose `tensor` is, value for value, or None."""
    import numpy as np
    from onnx import numpy_helper

    candidates = [name for name, table in tables.items() if tuple(tensor.dims) == table.shape[::-1]]
    if not candidates:
        return None
    values = numpy_helper.to_array(tensor)
    return next((name for name in candidates if np.array_equal(values, tables[name].T)), None)


class GraphIndex:
    """Producer/consumer lookups over one graph's nodes; an If branch's index asks its outer
    graph's for names made there."""

    def __init__(self, graph, initializers: dict | None = None, outer: GraphIndex | None = None):
        self.graph = graph
        self.initializers = initializers or {}
        self.outer = outer
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
        """The value of an initializer or a Constant node's output, else None."""
        from onnx import numpy_helper

        if name in self.initializers:
            return numpy_helper.to_array(self.initializers[name])
        node = self.producer.get(name)
        if node is not None and node.op_type == "Constant" and node.attribute and node.attribute[0].name == "value":
            return numpy_helper.to_array(node.attribute[0].t)
        return None


# -- writing -------------------------------------------------------------------------------------


def save(model, path: Path) -> None:
    """Write `model` inline, or with its weights beside it past protobuf's 2 GB limit."""
    import onnx

    data = path.with_name(path.name + "_data")
    if model.ByteSize() < 2**31 - 2**20:
        onnx.save(model, str(path))
        data.unlink(missing_ok=True)
    else:  # as optimum writes them
        save_external(model, path)


def save_rewritten(model, path: Path, external: bool = False) -> None:
    """A rewrite's last steps: sweep what it left unread, import the com.microsoft opset its new
    nodes come from, write the file (`external`: weights in `<name>_data`, each stored once)."""
    drop_dead_nodes(model.graph)
    use_ms_domain(model)
    (save_external if external else save)(model, path)


def externalize(source: str | Path, target: str | Path | None = None) -> Path:
    """Write the graph at `source` to `target` (default: in place) with its weights in one
    external-data file beside it (`<name>_data`). onnxruntime maps such a file into memory and
    uses the weights where they lie, instead of parsing them out of the graph and copying them:
    a session then holds about its weights once (the int8 opus-mt decoder: 129 instead of 219 MB
    resident, docs/performance.md), and rows of an embedding never read are never loaded."""
    import onnx

    source = Path(source)
    target = Path(target) if target else source
    save_external(onnx.load(str(source)), target)
    return target


def save_external(model, path: Path, threshold: int = 1024) -> None:
    """Save `model` at `path` with every initializer of at least `threshold` bytes (If branches'
    too) in one external-data file `<name>_data`, each at a page boundary. Initializers with the
    same bytes are stored once: their entries point at the same place (share_tied_embedding
    relies on it). onnxruntime maps each initializer on its own, so one it pre-packs and
    releases is unmapped without taking the other's pages with it."""
    import onnx

    data = path.with_name(path.name + "_data")
    stored = {}  # sha256 of the bytes -> (offset, length)
    partial = data.with_name(data.name + ".partial")
    with partial.open("wb") as f:
        for graph in all_graphs(model.graph):
            for tensor in graph.initializer:
                raw = _inline_bytes(tensor)
                if raw is None or len(raw) < threshold:
                    continue
                key = hashlib.sha256(raw).digest()
                if key not in stored:
                    f.write(b"\0" * (-f.tell() % PAGE))
                    stored[key] = (f.tell(), len(raw))
                    f.write(raw)
                _point_at(tensor, data.name, *stored[key])
    partial.replace(data)
    onnx.save(model, str(path))


def _inline_bytes(tensor) -> bytes | None:
    """The bytes of an initializer stored in the graph (None: external already, or no fixed size)."""
    from onnx import TensorProto, numpy_helper

    if tensor.data_location == TensorProto.EXTERNAL or tensor.data_type in (TensorProto.STRING, TensorProto.UNDEFINED):
        return None
    return tensor.raw_data if tensor.HasField("raw_data") else numpy_helper.to_array(tensor).tobytes()


def _point_at(tensor, location: str, offset: int, length: int) -> None:
    from onnx import TensorProto

    for name in _VALUE_FIELDS:
        tensor.ClearField(name)
    del tensor.external_data[:]
    tensor.data_location = TensorProto.EXTERNAL
    for k, v in (("location", location), ("offset", offset), ("length", length)):
        entry = tensor.external_data.add()
        entry.key, entry.value = k, str(v)
