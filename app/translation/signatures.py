"""What each decoder session of a seq2seq folder takes and gives, read from the session itself
(input/output names and shapes, never file names or hard-coded counts), and which sessions run
the first step and the cached ones (`Decoders`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import onnxruntime as ort

from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError

PAST = re.compile(r"^past_key_values\.(\d+)\.(decoder|encoder)\.(key|value)$")
PRESENT = re.compile(r"^present\.(\d+)\.(decoder|encoder)\.(key|value)$")
# The shared-cache protocol's inputs (app.model_store.optimize.share_self_cache): per row, the positions
# cached before this step, and that + the step's new tokens.
SHARED_CACHE_INPUTS = {"seqlens_k", "total_sequence_length"}
PLAIN_DECODER_INPUTS = {
    "input_ids",
    "encoder_hidden_states",
    "encoder_attention_mask",
    "use_cache_branch",
    *SHARED_CACHE_INPUTS,
}
NUMPY_TYPES = {
    "tensor(float)": np.float32,
    "tensor(float16)": np.float16,
    "tensor(double)": np.float64,
    "tensor(int64)": np.int64,
    "tensor(int32)": np.int32,
    "tensor(bool)": np.bool_,
}


def numpy_type(node) -> type:
    return NUMPY_TYPES.get(node.type, np.float32)


@dataclass(frozen=True)
class DecoderSignature:
    """What one decoder session takes and gives, read from the session itself.

    `self_past`/`cross_past`/`self_present`/`cross_present`: per layer, (key name, value name).
    `kind`: "merged" (use_cache_branch: both first and later steps), "first" (no past inputs:
    step 0 or a full recompute), "with_past" (self + cross past, no encoder_hidden_states),
    "legacy" (self past only; encoder_hidden_states every step: cross-attention recomputed).
    `shared_cache`: the self-attention past is a buffer the step writes its new position into
    (bound as past and present alike), of which the first `seqlens_k` positions are valid.
    """

    path: Path
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    kind: str
    self_past: tuple[tuple[str, str], ...]
    cross_past: tuple[tuple[str, str], ...]
    self_present: tuple[tuple[str, str], ...]
    cross_present: tuple[tuple[str, str], ...]
    heads: int | None
    head_dim: int | None
    cache_dtype: type
    vocab_size: int | None
    input_types: dict = field(default_factory=dict, compare=False)
    input_shapes: dict = field(default_factory=dict, compare=False)

    @property
    def shared_cache(self) -> bool:
        return "seqlens_k" in self.input_types


def _layer_pairs(names, pattern, side) -> tuple[tuple[str, str], ...]:
    found: dict[int, dict[str, str]] = {}
    for name in names:
        m = pattern.match(name)
        if m and m.group(2) == side:
            found.setdefault(int(m.group(1)), {})[m.group(3)] = name
    layers = sorted(found)
    if layers != list(range(len(layers))) or any(len(found[i]) != 2 for i in layers):
        raise ValueError(f"incomplete {side} cache names: {sorted(n for n in names if pattern.match(n))}")
    return tuple((found[i]["key"], found[i]["value"]) for i in layers)


def read_decoder_signature(session: ort.InferenceSession, path: Path) -> DecoderSignature:
    """Classify a decoder session by what it declares; raise a clear error if it is unknown."""
    ins = {i.name: i for i in session.get_inputs()}
    outs = [o.name for o in session.get_outputs()]
    problem = _unknown_interface(ins, outs)
    try:
        pairs = (
            _layer_pairs(ins, PAST, "decoder"),
            _layer_pairs(ins, PAST, "encoder"),
            _layer_pairs(outs, PRESENT, "decoder"),
            _layer_pairs(outs, PRESENT, "encoder"),
        )
    except ValueError as error:
        problem, pairs = problem or str(error), ((), (), (), ())
    kind, misfit = _decoder_kind(ins, *pairs[:3])
    problem = problem or misfit
    if problem:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP(
                "Errors", "{file}: not a decoder this app can run ({problem}). It declares inputs: {inputs}."
            ),
            QT_TRANSLATE_NOOP(
                "Errors",
                "Export the model with `python -m app models export` (optimum-onnx layout: input_ids, "
                "encoder_hidden_states, encoder_attention_mask, past_key_values.N.decoder|encoder.key|value).",
            ),
            file=path.name,
            problem=problem,
            inputs=", ".join(ins),
        )
    self_past, cross_past, self_present, cross_present = pairs
    shape_source = [ins[n] for pair in self_past for n in pair] or [
        o for o in session.get_outputs() if PRESENT.match(o.name)
    ]
    heads = head_dim = None
    cache_dtype = np.float32
    if shape_source:
        shape = shape_source[0].shape
        heads = shape[1] if isinstance(shape[1], int) else None
        head_dim = shape[3] if isinstance(shape[3], int) else None
        cache_dtype = numpy_type(shape_source[0])
    logits_shape = next(o.shape for o in session.get_outputs() if o.name == "logits")
    return DecoderSignature(
        path=path,
        inputs=tuple(ins),
        outputs=tuple(outs),
        kind=kind,
        self_past=self_past,
        cross_past=cross_past,
        self_present=self_present,
        cross_present=cross_present,
        heads=heads,
        head_dim=head_dim,
        cache_dtype=cache_dtype,
        vocab_size=logits_shape[-1] if isinstance(logits_shape[-1], int) else None,
        input_types={n: numpy_type(i) for n, i in ins.items()},
        input_shapes={n: i.shape for n, i in ins.items()},
    )


def _unknown_interface(ins: dict, outs: list[str]) -> str | None:
    unknown = [n for n in ins if n not in PLAIN_DECODER_INPUTS and not PAST.match(n)]
    if unknown:
        return f"inputs this app does not know: {', '.join(unknown)}"
    if "input_ids" not in ins:
        return "no `input_ids` input"
    if "logits" not in outs:
        return "no `logits` output"
    return None


def _decoder_kind(ins: dict, self_past, cross_past, self_present) -> tuple[str, str | None]:
    """(merged, first, with_past or legacy; what does not fit together, or None)."""
    if "use_cache_branch" in ins:
        kind = "merged"
        ok = self_past and cross_past and "encoder_hidden_states" in ins and len(self_present) == len(self_past)
    elif not self_past and not cross_past:
        kind = "first"
        ok = "encoder_hidden_states" in ins
    elif cross_past:
        kind = "with_past"
        ok = self_past and len(self_present) == len(self_past)
    else:
        kind = "legacy"
        ok = "encoder_hidden_states" in ins and len(self_present) == len(self_past)
    if not ok:
        return kind, f"a {kind} decoder whose inputs/outputs do not fit together"
    if (SHARED_CACHE_INPUTS & set(ins)) and (not SHARED_CACHE_INPUTS <= set(ins) or not self_past):
        return kind, "a shared-cache decoder needs seqlens_k, total_sequence_length and self-attention pasts together"
    return kind, None


@dataclass
class Decoders:
    """The sessions a sentence's decoding runs on.

    `first` runs step 0 (and full recomputes for verify / no-cache models); `later` runs the
    cached steps (None: no cache at all, every step recomputes the whole prefix).
    """

    first: ort.InferenceSession
    first_sig: DecoderSignature
    later: ort.InferenceSession | None
    later_sig: DecoderSignature | None

    @property
    def description(self) -> str:
        if self.later_sig is None:
            return "decoder without cache (recomputes every step)"
        if self.later_sig.kind == "legacy":
            return "older decoder: self-attention cache only, cross-attention recomputed"
        layout = "merged decoder" if self.later_sig.kind == "merged" else "decoder + decoder_with_past"
        return layout + (", cache shared in place" if self.later_sig.shared_cache else "")


def choose_decoders(candidates: list[tuple[ort.InferenceSession, DecoderSignature]]) -> Decoders:
    """Pick the sessions for step 0 and the cached steps from what the folder offers."""
    by_kind = {sig.kind: (sess, sig) for sess, sig in candidates}
    if "merged" in by_kind:
        sess, sig = by_kind["merged"]
        return Decoders(sess, sig, sess, sig)
    if "legacy" in by_kind:
        sess, sig = by_kind["legacy"]
        first = by_kind.get("first", (sess, sig))
        return Decoders(first[0], first[1], sess, sig)
    if "first" in by_kind:
        first = by_kind["first"]
        if "with_past" in by_kind:
            later = by_kind["with_past"]
            needs_cross = later[1].cross_past
            if len(first[1].cross_present) != len(needs_cross) or len(first[1].self_present) != len(later[1].self_past):
                raise LiveTranslatorError(
                    QT_TRANSLATE_NOOP(
                        "Errors",
                        "{later} needs {needed} layers of cross-attention cache but {first} gives {given}: "
                        "the two decoders do not belong together.",
                    ),
                    QT_TRANSLATE_NOOP("Errors", "Use the decoder files of one export."),
                    later=later[1].path.name,
                    needed=len(needs_cross),
                    first=first[1].path.name,
                    given=len(first[1].cross_present),
                )
            return Decoders(first[0], first[1], later[0], later[1])
        return Decoders(first[0], first[1], None, None)
    sig = candidates[0][1]
    raise LiveTranslatorError(
        QT_TRANSLATE_NOOP(
            "Errors", "{file} needs a cache from an earlier step, and no decoder for the first step is in the folder."
        ),
        QT_TRANSLATE_NOOP("Errors", "Add decoder_model.onnx (or use decoder_model_merged.onnx)."),
        file=sig.path.name,
    )
