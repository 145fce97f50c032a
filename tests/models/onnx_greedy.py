"""A minimal greedy loop over an exported folder, written from the cache protocol in
docs/engine.md ('Cache protocol'), used only to check that an export reproduces transformers' ids. (The app's
engine is app.translation; this stays independent of it so the two check each other.)"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnxruntime as ort


def sessions(folder: Path) -> dict[str, ort.InferenceSession]:
    onnx_dir = folder / "onnx" if (folder / "onnx").is_dir() else folder
    return {p.stem: ort.InferenceSession(str(p), providers=["CPUExecutionProvider"]) for p in onnx_dir.glob("*.onnx")}


def _empty(session, name, batch=1):
    shape = next(i.shape for i in session.get_inputs() if i.name == name)
    return np.zeros((batch, shape[1], 0, shape[3]), np.float32)


def lengths(past_len: int, new_tokens: int, batch: int = 1) -> dict[str, np.ndarray]:
    """The shared-cache decoder's extra inputs (app.model_store.self_cache.share_self_cache). Fed plain
    arrays, not one buffer bound as past and present, it returns presents of past + new
    positions like any decoder: this loop drives it unchanged."""
    total = past_len + new_tokens
    return {"seqlens_k": np.full(batch, total - 1, np.int32), "total_sequence_length": np.array(total, np.int32)}


def greedy(
    folder: Path,
    input_ids: list[int],
    prefix: list[int],
    eos: int,
    max_new_tokens: int,
    suffix: str = "",
    decoder: str = "merged",
    bad_ids: tuple = (),
) -> list[int]:
    """decoder: "merged" | "split" | "legacy" — which decoder files to drive."""
    s = sessions(folder)
    ids = np.array([input_ids], np.int64)
    mask = np.ones_like(ids)
    hidden = s["encoder_model" + suffix].run(None, {"input_ids": ids, "attention_mask": mask})[0]
    first = s[{"merged": "decoder_model_merged", "split": "decoder_model", "legacy": "decoder_model"}[decoder] + suffix]
    later = s["decoder_with_past_model" + suffix] if decoder == "split" else first
    out_ids = list(prefix)
    feed = {
        "encoder_attention_mask": mask,
        "encoder_hidden_states": hidden,
        "input_ids": np.array([prefix], np.int64),
        **lengths(0, len(prefix)),
    }
    for inp in first.get_inputs():
        if inp.name.startswith("past_key_values."):
            feed[inp.name] = _empty(first, inp.name)
        if inp.name == "use_cache_branch":
            feed[inp.name] = np.array([False])
    cross = {}
    session = first
    for step in range(max_new_tokens):
        names = [o.name for o in session.get_outputs()]
        wanted = {i.name for i in session.get_inputs()}
        outs = dict(zip(names, session.run(None, {k: v for k, v in feed.items() if k in wanted})))
        logits = outs["logits"][0, -1].copy()
        for bad in bad_ids:
            logits[bad] = -np.inf
        token = int(np.argmax(logits))
        out_ids.append(token)
        if token == eos:
            break
        if step == 0:  # the cross-attention cache comes from step 0 only (decide by step, not shape)
            cross = {n.replace("present", "past_key_values"): v for n, v in outs.items() if ".encoder." in n}
        feed = {
            "encoder_attention_mask": mask,
            "encoder_hidden_states": hidden,
            "input_ids": np.array([[token]], np.int64),
            **lengths(len(out_ids) - 1, 1),
        }
        feed.update({n.replace("present", "past_key_values"): v for n, v in outs.items() if ".decoder." in n})
        feed.update(cross)
        feed["use_cache_branch"] = np.array([True])
        session = later
    return out_ids
