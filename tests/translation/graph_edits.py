"""Small ONNX graph edits that turn a committed fixture into the broken or odd models the
seed reports describe (a looping decoder, a decoder with inputs nobody knows)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def add_unused_input(path: Path, name: str) -> None:
    """Declare an extra int64 input (e.g. position_ids) the app does not know."""
    model = onnx.load(str(path))
    model.graph.input.append(
        helper.make_tensor_value_info(name, TensorProto.INT64, ["batch_size", "decoder_sequence_length"])
    )
    onnx.save(model, str(path))


def force_next_token(path: Path, next_token: dict[int, int], vocab_size: int, boost: float = 50.0) -> None:
    """Make the decoder loop: logits += M[input_id], where row a of M boosts token next_token[a].
    (Rows not listed boost next_token[-1], the default.)"""
    model = onnx.load(str(path))
    graph = model.graph
    table = np.zeros((vocab_size, vocab_size), dtype=np.float32)
    for row in range(vocab_size):
        table[row, next_token.get(row, next_token[-1])] = boost
    graph.initializer.append(numpy_helper.from_array(table, "loop_bias_table"))
    for node in graph.node:
        node.output[:] = ["logits_unbiased" if o == "logits" else o for o in node.output]
    graph.node.extend(
        [
            helper.make_node("Gather", ["loop_bias_table", "input_ids"], ["loop_bias"], axis=0),
            helper.make_node("Add", ["logits_unbiased", "loop_bias"], ["logits"]),
        ]
    )
    onnx.save(model, str(path))
