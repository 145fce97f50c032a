"""Store a tied embedding once: a decoder's LM head that is the transpose of its token embedding
reads the same values as the embedding instead of a second copy of them."""

from __future__ import annotations

from pathlib import Path

from app.model_store.graph_tools import (
    MS_DOMAIN,
    all_graphs,
    attr,
    gather_tables,
    replace_nodes,
    save_rewritten,
    transpose_of,
)
from app.model_store.optimize import decoder_paths


def share_tied_embedding(path: str | Path) -> int:
    """Store a tied embedding once. optimum writes the decoder's token embedding (the Gather's
    table E, [vocab, d]) and the LM head (a MatMul with the constant E transposed, [d, vocab])
    as two initializers even when the model ties them: in opus-mt 2 x 133 MB of a 368 MB decoder.
    Each head MatMul whose constant is exactly (value for value) the transpose of a Gather's table,
    or a Transpose node of that table, becomes `com.microsoft.FusedMatMul(x, E', transB=1)`, where
    E' is a new initializer (`<table>.lm_head`) holding the table's values, not the table itself;
    the transposed constant is dropped. The file still stores those values once: `save_external`
    points both initializers at the same bytes of the external-data file. The head keeps its own
    initializer because onnxruntime pre-packs a MatMul's B and then releases it: a copy of its
    own is unmapped without taking the Gather's pages with it. The packed panels are the ones the
    MatMul had (so the same numbers), and a step takes as long (docs/performance.md, "Memory").

    Only fp32 tables are shared: an int8 twin quantizes the two differently (per row, per column),
    so they are not the same numbers. The merged decoder's initializers live in the outer graph
    and are read in its If branches: both are searched. Returns how many heads now read the table;
    0 leaves the file untouched."""
    import onnx

    path = Path(path)
    model = onnx.load(str(path))
    graphs = all_graphs(model.graph)
    heads = TiedHeads(graphs)
    if not heads.tables:
        return 0
    shared = 0
    for g in reversed(graphs):  # branches first: rewriting the outer graph's nodes would detach them
        shared += replace_nodes(g, {n.output[0]: new for n in g.node if (new := tied_head(heads, n)) is not None})
    if not shared:
        return 0
    save_rewritten(model, path, external=True)  # the table and the head's copy of it: the same bytes, stored once
    return shared


def share_tied_embedding_folder(folder: str | Path) -> dict[str, int]:
    """`share_tied_embedding` on every fp32 decoder graph of a model folder (or its onnx/
    subfolder). Run it after making int8 twins: the quantizer knows MatMul, not FusedMatMul."""
    return {path.name: share_tied_embedding(path) for path in decoder_paths(folder)}


def tied_head(heads: TiedHeads, node):
    """MatMul(x, Eᵀ) of a tied table E -> FusedMatMul(x, E', transB=1), else None."""
    from onnx import helper

    table = heads.table_of(node.input[1]) if node.op_type == "MatMul" and len(node.input) == 2 else None
    if table is None:
        return None
    return helper.make_node(
        "FusedMatMul",
        [node.input[0], heads.head_weight(table)],
        list(node.output),
        domain=MS_DOMAIN,
        name=(node.name or "lm_head") + "_tied",
        transB=1,
        alpha=1.0,
    )


class TiedHeads:
    """The fp32 embedding tables of a model's graphs, which head weights are one of them
    transposed, and the head's own copy of each table (added to the graph holding it)."""

    def __init__(self, graphs):
        from onnx import TensorProto

        # Every initializer by name, with the graph holding it (a branch may read the outer graph's).
        self.initializers = {i.name: (i, g) for g in graphs for i in g.initializer}
        tensors = {name: tensor for name, (tensor, _) in self.initializers.items()}
        self.tables = gather_tables(graphs, tensors, {TensorProto.FLOAT})  # name -> values
        self.transposes = {  # output of Transpose(table) -> table
            node.output[0]: node.input[0]
            for g in graphs
            for node in g.node
            if node.op_type == "Transpose"
            and node.input[0] in self.tables
            and list(attr(node, "perm", [1, 0])) == [1, 0]
        }
        self._same = {}  # a head weight's name -> the table it is the transpose of, or None
        self._copies = {}  # table -> the head's own initializer holding the same values

    def table_of(self, weight: str) -> str | None:
        if weight in self.transposes:
            return self.transposes[weight]
        if weight not in self.initializers or weight in self.tables:
            return None
        if weight not in self._same:
            from onnx import TensorProto

            tensor = self.initializers[weight][0]
            fp32_matrix = tensor.data_type == TensorProto.FLOAT and len(tensor.dims) == 2
            self._same[weight] = transpose_of(tensor, self.tables) if fp32_matrix else None
        return self._same[weight]

    def head_weight(self, table: str) -> str:
        from onnx import numpy_helper

        if table not in self._copies:
            name = f"{table}.lm_head"
            while name in self.initializers:
                name += "_"
            self.initializers[table][1].initializer.append(numpy_helper.from_array(self.tables[table], name))
            self._copies[table] = name
        return self._copies[table]
