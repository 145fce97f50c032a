"""One adapter per engine the benchmark times, each run inside its own worker process.

Every adapter loads once (timed), then translates one pre-split source sentence at a time with
a forced number of output tokens (EOS cannot end a hypothesis early: random weights would make
lengths meaningless) and returns the wall time of that call, plus what the engine itself
reports (our engine: encoder_ms, decode_ms and per-step ms).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

THREADS = 2
TARGET_PREFIX = ">>cmn_Hans<< "  # opus-mt-en-zh needs the target token; our engine adds it itself


def _torch_threads() -> None:
    import torch

    torch.set_num_threads(THREADS)
    try:
        torch.set_num_interop_threads(1)
    except RuntimeError:  # already set in this process
        pass


class Ours:
    """app.translation.Translator with its default options (only beams and length forced),
    loaded as `translate` loads it: with the optimised graphs from the cache when there are."""

    def __init__(self, onnx_dir: Path, int8: bool):
        from app.model_store.optimized import prepare  # lazy: in the engine's own process, whose memory is measured
        from app.translation import Translator

        # int8 exactly as `translate --quantized` loads it: the folder's *_quantized twins
        done = prepare(onnx_dir, "en-zh", prefer_quantized=int8)
        self.translator = Translator.load(onnx_dir, direction="en-zh", prefer_quantized=int8, graphs=done.graphs)
        self.name = self.translator.model_name + (" optimised" if done.optimized else f" as it is: {done.reason}")

    def run(self, text: str, beams: int, tokens: int) -> dict:
        from app.translation import DecodeOptions  # lazy: in the engine's own process, whose memory is measured

        # loop_window=0: random weights repeat tokens, and the loop guard would end them early
        options = DecodeOptions(num_beams=beams, max_new_tokens=tokens, min_new_tokens=tokens, loop_window=0)

        # The stream the window consumes; the process CPU time between steps says what a step
        # costs whatever else the machine runs (wall time on a busy machine also counts waiting).
        step_cpu_ms, cpu = [], [0.0]

        def on_step(step) -> None:
            now = time.process_time()
            step_cpu_ms.append((now - cpu[0]) * 1000)
            cpu[0] = now

        start = time.perf_counter()
        cpu[0] = time.process_time()
        sentences = list(self.translator.stream(text, options=options, on_step=on_step))
        wall_ms = (time.perf_counter() - start) * 1000
        (sentence,) = sentences
        return {
            "wall_ms": wall_ms,
            "product_ms": sentence.encoder_ms + sentence.decode_ms,
            "encoder_ms": sentence.encoder_ms,
            "out_tokens": len(sentence.steps),
            "step_ms": [step.ms for step in sentence.steps],
            "step_cpu_ms": step_cpu_ms,
        }


class CTranslate2:
    def __init__(self, ct2_dir: Path, hf_dir: Path, int8: bool):
        import ctranslate2
        from transformers import MarianTokenizer

        self.tokenizer = MarianTokenizer.from_pretrained(hf_dir)
        self.translator = ctranslate2.Translator(
            str(ct2_dir),
            device="cpu",
            compute_type="int8" if int8 else "float32",
            intra_threads=THREADS,
            inter_threads=1,
        )
        self.name = f"CTranslate2 {ctranslate2.__version__}"

    def run(self, text: str, beams: int, tokens: int) -> dict:
        source = self.tokenizer.convert_ids_to_tokens(self.tokenizer(TARGET_PREFIX + text).input_ids)
        start = time.perf_counter()
        (result,) = self.translator.translate_batch(
            [source], beam_size=beams, min_decoding_length=tokens, max_decoding_length=tokens, num_hypotheses=1
        )
        wall_ms = (time.perf_counter() - start) * 1000
        return {"wall_ms": wall_ms, "out_tokens": len(result.hypotheses[0])}


class PyTorch:
    """transformers' generate; int8 = torch dynamic quantization of every nn.Linear."""

    def __init__(self, hf_dir: Path, int8: bool):
        import torch
        from transformers import MarianMTModel, MarianTokenizer

        _torch_threads()
        self.torch = torch
        self.tokenizer = MarianTokenizer.from_pretrained(hf_dir)
        model = MarianMTModel.from_pretrained(hf_dir).eval()
        if int8:
            model = torch.ao.quantization.quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8)
        self.model = model
        self.name = f"PyTorch {torch.__version__.split('+')[0]} generate"

    def run(self, text: str, beams: int, tokens: int) -> dict:
        inputs = self.tokenizer(TARGET_PREFIX + text, return_tensors="pt")
        start = time.perf_counter()
        with self.torch.inference_mode():
            out = self.model.generate(
                **inputs, num_beams=beams, do_sample=False, min_new_tokens=tokens, max_new_tokens=tokens
            )
        wall_ms = (time.perf_counter() - start) * 1000
        return {"wall_ms": wall_ms, "out_tokens": out.shape[1] - 1}  # minus the decoder start token


class Optimum:
    """optimum-onnx's ORTModelForSeq2SeqLM on optimum's own graphs of the same weights, split
    decoders (its usual path)."""

    def __init__(self, onnx_dir: Path, hf_dir: Path, int8: bool):
        import onnxruntime as ort
        from optimum.onnxruntime import ORTModelForSeq2SeqLM
        from transformers import MarianTokenizer

        _torch_threads()
        options = ort.SessionOptions()
        options.intra_op_num_threads = THREADS
        options.inter_op_num_threads = 1
        if os.environ.get("OMP_WAIT_POLICY") == "PASSIVE":  # --passive-peers: no spinning, as ours
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        suffix = "_quantized" if int8 else ""
        self.tokenizer = MarianTokenizer.from_pretrained(hf_dir)
        self.model = ORTModelForSeq2SeqLM.from_pretrained(
            onnx_dir,
            use_merged=False,
            use_cache=True,
            session_options=options,
            encoder_file_name=f"encoder_model{suffix}.onnx",
            decoder_file_name=f"decoder_model{suffix}.onnx",
            decoder_with_past_file_name=f"decoder_with_past_model{suffix}.onnx",
        )
        self.name = "optimum ORTModelForSeq2SeqLM"

    def run(self, text: str, beams: int, tokens: int) -> dict:
        inputs = self.tokenizer(TARGET_PREFIX + text, return_tensors="pt")
        start = time.perf_counter()
        out = self.model.generate(
            **inputs, num_beams=beams, do_sample=False, min_new_tokens=tokens, max_new_tokens=tokens
        )
        wall_ms = (time.perf_counter() - start) * 1000
        return {"wall_ms": wall_ms, "out_tokens": out.shape[1] - 1}


ENGINES = ("ours", "ct2", "pytorch", "optimum")


def load(engine: str, int8: bool, paths: dict):
    os.environ.setdefault("OMP_NUM_THREADS", str(THREADS))
    if engine == "ours":
        return Ours(paths[paths["ours"]], int8)
    if engine == "ct2":
        return CTranslate2(paths["ct2_int8" if int8 else "ct2_fp32"], paths["hf"], int8)
    if engine == "pytorch":
        return PyTorch(paths["hf"], int8)
    if engine == "optimum":
        return Optimum(paths["onnx_optimum"], paths["hf"], int8)
    raise ValueError(engine)
