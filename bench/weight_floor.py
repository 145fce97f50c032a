"""The memory-bandwidth floor of an fp32 greedy step of opus-mt-en-zh on this machine.

    .venv/bin/python -m bench.weight_floor [--threads 2] [--runs 200] [--quick]

A greedy step reads every decoder weight once: 6 layers x (self-attention 4 + cross-attention
query and output 2 + feed-forward 8) x 512^2, plus the 65001 x 512 LM head: 54.3 M floats,
221 MB. One onnxruntime MatMul of a [1, 512] row by that many weights does nothing but read
them, so its median time is what no fp32 engine's step can beat here (docs/performance.md,
'The catalog's models'). Printed: the median ms, the GB/s it implies, and the load average.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

D_MODEL, LAYERS, VOCAB = 512, 6, 65001
WEIGHTS = LAYERS * (4 + 2 + 8) * D_MODEL * D_MODEL + D_MODEL * VOCAB


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2, help="intra-op threads, as the speed bench uses")
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--quick", action="store_true", help="a 64th of the weights, 5 runs: the code runs, no floor")
    args = parser.parse_args(argv)
    runs = 5 if args.quick else args.runs
    cols = WEIGHTS // D_MODEL // (64 if args.quick else 1)
    weights = np.random.default_rng(0).random((D_MODEL, cols), dtype=np.float32)
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"])],
        "floor",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, D_MODEL])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, cols])],
        [numpy_helper.from_array(weights, "w")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    options = ort.SessionOptions()
    options.intra_op_num_threads = args.threads
    session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    x = np.random.default_rng(1).random((1, D_MODEL), dtype=np.float32)
    for _ in range(20):  # warm-up: pre-packing, caches
        session.run(None, {"x": x})
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        session.run(None, {"x": x})
        times.append((time.perf_counter() - started) * 1000)
    median = statistics.median(times)
    megabytes = weights.nbytes / 1e6
    print(
        f"fp32 weights read per greedy step: {megabytes:.0f} MB; one MatMul over them, {args.threads} threads: "
        f"median {median:.2f} ms over {runs} runs ({megabytes / median:.1f} GB/s); load average "
        + " ".join(f"{v:.2f}" for v in os.getloadavg())
    )


if __name__ == "__main__":
    main()
