"""app.model_store.graph_tools and each rewrite rule of app.model_store.optimize on its own, on
graphs of a few nodes built here: the rule fires where its pattern is, and the rewritten graph
computes what the original did (run by onnxruntime)."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

from app.model_store.graph_tools import GraphIndex, drop_dead_nodes, replace_nodes, used_names
from app.model_store.optimize import fuse_attention, match_attention
from app.model_store.self_cache import group_query_attention
from app.model_store.tied_embedding import TiedHeads, share_tied_embedding, tied_head

FLOAT = TensorProto.FLOAT


def run(path, feeds: dict) -> list[np.ndarray]:
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    return session.run(None, feeds)


def model_of(nodes, inputs, outputs, initializers=()) -> onnx.ModelProto:
    graph = helper.make_graph(nodes, "g", inputs, outputs, list(initializers))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def branch(name: str, nodes, output: str):
    return helper.make_graph(nodes, name, [], [helper.make_tensor_value_info(output, FLOAT, None)])


def test_a_name_read_only_inside_a_branch_is_used_and_dead_nodes_go_everywhere():
    then = branch(
        "then",
        [
            helper.make_node("Neg", ["outer_value"], ["then_out"]),
            helper.make_node("Abs", ["outer_value"], ["then_dead"]),  # nothing reads it
            helper.make_node("Abs", ["branch_weight"], ["branch_dead"]),
        ],
        "then_out",
    )
    then.initializer.append(numpy_helper.from_array(np.ones(2, np.float32), "branch_weight"))
    otherwise = branch("else", [helper.make_node("Identity", ["x"], ["else_out"])], "else_out")
    model = model_of(
        [
            helper.make_node("Relu", ["x"], ["outer_value"]),  # read by the branch only
            helper.make_node("Sigmoid", ["x"], ["outer_dead"]),
            helper.make_node("If", ["cond"], ["y"], then_branch=then, else_branch=otherwise),
        ],
        [helper.make_tensor_value_info("x", FLOAT, [2]), helper.make_tensor_value_info("cond", TensorProto.BOOL, [])],
        [helper.make_tensor_value_info("y", FLOAT, [2])],
    )
    assert "outer_value" in used_names(model.graph)
    drop_dead_nodes(model.graph)
    assert [n.output[0] for n in model.graph.node] == ["outer_value", "y"]
    # the model holds a copy of the branch, and rewriting the outer graph copies it again
    then = next(a.g for a in model.graph.node[1].attribute if a.name == "then_branch")
    assert [n.output[0] for n in then.node] == ["then_out"]
    assert not then.initializer  # read only by a dead node


def test_replace_nodes_puts_the_new_node_where_the_old_stood():
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["a"]), helper.make_node("Neg", ["a"], ["b"])],
        "g",
        [helper.make_tensor_value_info("x", FLOAT, [2])],
        [helper.make_tensor_value_info("b", FLOAT, [2])],
    )
    new = helper.make_node("Sigmoid", ["x"], ["a"])
    # a node read twice is a new Python object each time: the key is its output, not the object
    assert replace_nodes(graph, {graph.node[0].output[0]: new}) == 1
    assert [n.op_type for n in graph.node] == ["Sigmoid", "Neg"]
    assert [v.name for v in graph.value_info] == ["a"]


def attention_block(with_scale: float = 0.5) -> onnx.ModelProto:
    """optimum's attention without a cache: q, k and v from this step's projections (batch 1,
    3 positions, 2 heads of 4), k transposed straight from its split (perm 0,2,3,1), both scaled."""
    split, merge = [1, 3, 2, 4], [1, 3, 8]
    nodes = [
        helper.make_node("Reshape", ["xq", "split"], ["rq"]),
        helper.make_node("Transpose", ["rq"], ["q"], perm=[0, 2, 1, 3]),
        helper.make_node("Mul", ["q", "scale"], ["qs"]),
        helper.make_node("Reshape", ["xk", "split"], ["rk"]),
        helper.make_node("Transpose", ["rk"], ["kt"], perm=[0, 2, 3, 1]),
        helper.make_node("Mul", ["kt", "scale"], ["ks"]),
        helper.make_node("MatMul", ["qs", "ks"], ["scores"]),
        helper.make_node("Add", ["scores", "bias"], ["biased"]),
        helper.make_node("Softmax", ["biased"], ["probs"], axis=-1, name="softmax"),
        helper.make_node("Reshape", ["xv", "split"], ["rv"]),
        helper.make_node("Transpose", ["rv"], ["v"], perm=[0, 2, 1, 3]),
        helper.make_node("MatMul", ["probs", "v"], ["weighted"]),
        helper.make_node("Transpose", ["weighted"], ["merged"], perm=[0, 2, 1, 3]),
        helper.make_node("Reshape", ["merged", "merge"], ["out"]),
    ]
    constants = [
        numpy_helper.from_array(np.array(split, np.int64), "split"),
        numpy_helper.from_array(np.array(merge, np.int64), "merge"),
        numpy_helper.from_array(np.array(with_scale, np.float32), "scale"),
    ]
    inputs = [helper.make_tensor_value_info(n, FLOAT, [1, 3, 8]) for n in ("xq", "xk", "xv")]
    inputs.append(helper.make_tensor_value_info("bias", FLOAT, [1, 1, 3, 3]))
    return model_of(nodes, inputs, [helper.make_tensor_value_info("out", FLOAT, [1, 3, 8])], constants)


def test_an_attention_block_matches_and_fuses_into_one_node_computing_the_same(tmp_path):
    model = attention_block()
    g = GraphIndex(model.graph, {i.name: i for i in model.graph.initializer})
    softmax = next(n for n in model.graph.node if n.op_type == "Softmax")
    block = match_attention(g, softmax, causal_only=True)
    assert block is not None and block.inputs == ["xq", "xk", "xv", "", "", "bias"]
    assert block.scale == 0.25 and block.outputs == ["out"]
    path = tmp_path / "attention.onnx"
    onnx.save(model, str(path))
    rng = np.random.default_rng(0)
    feeds = {n: rng.standard_normal((1, 3, 8)).astype(np.float32) for n in ("xq", "xk", "xv")}
    feeds["bias"] = rng.standard_normal((1, 1, 3, 3)).astype(np.float32)
    before = run(path, feeds)[0]
    assert fuse_attention(path, num_heads=2) == 1
    assert [n.op_type for n in onnx.load(str(path)).graph.node] == ["MultiHeadAttention"]
    np.testing.assert_allclose(run(path, feeds)[0], before, rtol=1e-5, atol=1e-6)


def test_a_block_with_another_shape_is_left_alone(tmp_path):
    model = attention_block()
    next(n for n in model.graph.node if n.output[0] == "merged").attribute[0].ints[:] = [0, 1, 2, 3]
    g = GraphIndex(model.graph, {i.name: i for i in model.graph.initializer})
    softmax = next(n for n in model.graph.node if n.op_type == "Softmax")
    assert match_attention(g, softmax, causal_only=True) is None
    path = tmp_path / "other.onnx"
    onnx.save(model, str(path))
    before = path.read_bytes()
    assert fuse_attention(path, num_heads=2) == 0 and path.read_bytes() == before


def test_a_causal_attention_over_past_buffers_becomes_group_query_attention():
    inputs = ["q", "k", "v", "", "", "", "past_key_values.0.decoder.key", "past_key_values.0.decoder.value"]
    mha = helper.make_node(
        "MultiHeadAttention",
        inputs,
        ["out", "present.0.decoder.key", "present.0.decoder.value"],
        domain="com.microsoft",
        name="self",
        num_heads=8,
        scale=0.125,
        unidirectional=1,
    )
    gqa = group_query_attention(mha)
    assert gqa.op_type == "GroupQueryAttention" and list(gqa.output) == list(mha.output)
    assert list(gqa.input) == ["q", "k", "v", inputs[6], inputs[7], "seqlens_k", "total_sequence_length"]
    assert {a.name: helper.get_attribute_value(a) for a in gqa.attribute} == {
        "num_heads": 8,
        "kv_num_heads": 8,
        "scale": 0.125,
    }


def tied_model(head: np.ndarray, table: np.ndarray) -> onnx.ModelProto:
    """Gather(table, ids) -> hidden, MatMul(hidden, head) -> logits."""
    return model_of(
        [
            helper.make_node("Gather", ["table", "ids"], ["hidden"]),
            helper.make_node("MatMul", ["hidden", "head"], ["logits"]),
        ],
        [helper.make_tensor_value_info("ids", TensorProto.INT64, [1, 2])],
        [helper.make_tensor_value_info("logits", FLOAT, [1, 2, 40])],
        [numpy_helper.from_array(table, "table"), numpy_helper.from_array(head, "head")],
    )


def test_a_head_that_is_the_tables_transpose_reads_the_table_with_the_same_logits(tmp_path):
    table = np.random.default_rng(1).standard_normal((40, 300)).astype(np.float32)  # 48 kB: stored outside
    model = tied_model(np.ascontiguousarray(table.T), table)
    heads = TiedHeads([model.graph])
    matmul = model.graph.node[1]
    assert heads.table_of("head") == "table"
    fused = tied_head(heads, matmul)
    assert fused.op_type == "FusedMatMul" and fused.input[1] == "table.lm_head"
    path = tmp_path / "tied.onnx"
    onnx.save(tied_model(np.ascontiguousarray(table.T), table), str(path))
    feeds = {"ids": np.array([[3, 17]], np.int64)}
    before = run(path, feeds)[0]
    assert share_tied_embedding(path) == 1
    assert run(path, feeds)[0].tobytes() == before.tobytes()
    data = tmp_path / "tied.onnx_data"
    assert data.stat().st_size < 2 * table.nbytes  # the table's bytes once (page-aligned), not twice


def test_a_head_with_other_values_is_not_tied():
    table = np.random.default_rng(2).standard_normal((40, 300)).astype(np.float32)
    head = np.ascontiguousarray(table.T).copy()
    head[0, 0] += 1.0
    heads = TiedHeads([tied_model(head, table).graph])
    assert heads.table_of("head") is None
    assert tied_head(heads, tied_model(head, table).graph.node[1]) is None
