"""ONNX sessions of a seq2seq model and the cached decoder loop's plumbing.

The layout is read from each session's own input/output names and shapes (never from file
names or hard-coded counts), and a session is fed exactly the inputs it declares. The
key/value cache travels between steps as onnxruntime OrtValues through IO binding; numpy only
sees the logits (and a beam reorder, which is a real gather).
"""

from __future__ import annotations

import ctypes
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import onnxruntime as ort

from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError

PAST = re.compile(r"^past_key_values\.(\d+)\.(decoder|encoder)\.(key|value)$")
PRESENT = re.compile(r"^present\.(\d+)\.(decoder|encoder)\.(key|value)$")
# The shared-cache protocol's inputs (app.model_store.self_cache.share_self_cache): per row, the positions
# cached before this step, and that + the step's new tokens.
SHARED_CACHE_INPUTS = {"seqlens_k", "total_sequence_length"}
PLAIN_DECODER_INPUTS = {
    "input_ids",
    "encoder_hidden_states",
    "encoder_attention_mask",
    "use_cache_branch",
    *SHARED_CACHE_INPUTS,
}
ENCODER_INPUTS = {"input_ids", "attention_mask"}
NUMPY_TYPES = {
    "tensor(float)": np.float32,
    "tensor(float16)": np.float16,
    "tensor(double)": np.float64,
    "tensor(int64)": np.int64,
    "tensor(int32)": np.int32,
    "tensor(bool)": np.bool_,
}


def _numpy_type(node) -> type:
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
        cache_dtype = _numpy_type(shape_source[0])
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
        input_types={n: _numpy_type(i) for n, i in ins.items()},
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


def speed_settings(threads: int | None = None) -> ort.SessionOptions:
    """Session options for one translation worker thread: every graph optimization, ops run
    one after another (a decoder step is a chain) and no inter-op pool.

    Intra-op threads spin while a run lasts and stop spinning when it ends
    (`session.force_spinning_stop`). Waking a sleeping thread for each of a step's ~60 parallel
    ops cost ~10% of a step; spinning between runs as well burned a core while Whisper and the
    window needed it, and the encoder's idle pool slowed the decoder's first step 2x
    (docs/performance.md, 'What makes ours fast, and what limits it')."""
    options = ort.SessionOptions()  # one per session: config entries cannot be set twice
    if threads:
        options.intra_op_num_threads = threads
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "1")
    options.add_session_config_entry("session.force_spinning_stop", "1")
    return options


def open_session(path: Path, threads: int | None = None) -> ort.InferenceSession:
    options = speed_settings(threads)
    try:
        return ort.InferenceSession(str(path), sess_options=options, providers=["CPUExecutionProvider"])
    except Exception as error:  # onnxruntime raises its own exception types for bad files
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "{file} in {folder} could not be opened by onnxruntime: {reason}"),
            QT_TRANSLATE_NOOP(
                "Errors",
                "The file is damaged or incomplete (an interrupted download?). Download or export the model again.",
            ),
            file=path.name,
            folder=path.parent,
            reason=str(error).splitlines()[0][:300],
        ) from None


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


def ortvalue(array: np.ndarray) -> ort.OrtValue:
    return ort.OrtValue.ortvalue_from_numpy(np.ascontiguousarray(array))


def numpy_view(value: ort.OrtValue) -> np.ndarray:
    """A numpy view of a CPU OrtValue's memory, never a copy (`OrtValue.numpy()` copies in some
    onnxruntime versions and not in others).
    Valid only while `value` lives: take what you need from it at once."""
    dtype = np.dtype(NUMPY_TYPES[value.data_type()])
    shape = value.shape()
    size = int(np.prod(shape)) * dtype.itemsize
    if size == 0:
        return np.zeros(shape, dtype)
    buffer = (ctypes.c_byte * size).from_address(value.data_ptr())
    return np.frombuffer(buffer, dtype=dtype).reshape(shape)


class Encoder:
    def __init__(self, session: ort.InferenceSession, path: Path):
        names = {i.name: i for i in session.get_inputs()}
        unknown = [n for n in names if n not in ENCODER_INPUTS]
        if unknown or "input_ids" not in names or not any(o.name == "last_hidden_state" for o in session.get_outputs()):
            raise LiveTranslatorError(
                QT_TRANSLATE_NOOP(
                    "Errors",
                    "{file}: not an encoder this app can run; it declares inputs {inputs} and outputs {outputs}.",
                ),
                QT_TRANSLATE_NOOP(
                    "Errors",
                    "Expected inputs input_ids (+ attention_mask) and output last_hidden_state: re-export the model.",
                ),
                file=path.name,
                inputs=", ".join(names),
                outputs=", ".join(o.name for o in session.get_outputs()),
            )
        self.session = session
        self.types = {n: _numpy_type(i) for n, i in names.items()}

    def __call__(self, input_ids: np.ndarray, attention_mask: np.ndarray) -> ort.OrtValue:
        io = self.session.io_binding()
        io.bind_cpu_input("input_ids", input_ids.astype(self.types["input_ids"]))
        if "attention_mask" in self.types:
            io.bind_cpu_input("attention_mask", attention_mask.astype(self.types["attention_mask"]))
        io.bind_output("last_hidden_state")
        self.session.run_with_iobinding(io)
        return io.get_outputs()[0]


class DecoderRun:
    """One sentence's decoder state: the cache as OrtValues, advanced one step at a time.

    Cache protocol (docs/engine.md, 'Cache protocol'): step 0 gets zero-length pasts (and use_cache_branch
    False) with the whole decoder prefix; later steps get only the newest token, the
    self-attention presents of the previous step as pasts, and the cross-attention presents
    of step 0. Which presents are kept is decided by the step number, never by shape.

    A shared-cache decoder (`DecoderSignature.shared_cache`) gets, from step 1 on, one buffer per
    self-attention past with room for `capacity` positions, bound as the past and as the
    present: the step writes its new position in place and nothing else moves. The buffers are
    ours (allocated here, alive as long as this run), so no step can free what the next reads.
    """

    def __init__(
        self, decoders: Decoders, encoder_states: ort.OrtValue, encoder_mask: np.ndarray, batch: int, capacity: int = 64
    ):
        self.decoders = decoders
        self.batch = batch
        # Beam b's cache lives in batch row rows[b]. Beam search reorders beams every step;
        # instead of moving cache rows to follow them, the map follows, and only a parent
        # with several children costs copies (reorder).
        self.rows = np.arange(batch)
        # The tokens whose keys/values each row holds, position by position: rows with the same
        # tokens up to a position hold the same cache up to there (causal attention).
        self.row_tokens = np.zeros((batch, 0), dtype=np.int64)
        states = encoder_states
        if batch > 1:  # beam search: one copy of the encoder output per beam, once per sentence
            states = ortvalue(np.repeat(encoder_states.numpy(), batch, axis=0))
        self.encoder_states = states
        self.encoder_mask = np.repeat(encoder_mask, batch, axis=0)
        self.encoder_len = int(encoder_mask.shape[1])
        self.self_cache: list[ort.OrtValue] | None = None  # k, v, k, v ... per layer
        self._buffers: list[np.ndarray] | None = None  # shared cache: the arrays behind self_cache
        self.cross_cache: list[ort.OrtValue] | None = None
        self.length = 0  # positions in the self-attention cache
        self.capacity = max(int(capacity), 1)  # shared-cache buffers: positions they have room for
        self.step = 0
        self.used_cache_branch = False
        self._empty: dict[tuple, ort.OrtValue] = {}

    # -- what the diagnostics report
    @property
    def self_kv_len(self) -> int:
        return self.length

    @property
    def cross_kv_len(self) -> int:
        if self.cross_cache:
            return int(self.cross_cache[0].shape()[2])
        later = self.decoders.later_sig
        return self.encoder_len if later is not None and later.kind == "legacy" else 0

    def _zero_length(self, sig: DecoderSignature, name: str) -> ort.OrtValue:
        shape = sig.input_shapes[name]
        key = (self.batch, shape[1], shape[3], sig.input_types[name])
        if key not in self._empty:  # (batch, heads, 0, head_dim): heads and head_dim are fixed in the graph
            self._empty[key] = ortvalue(np.zeros((self.batch, shape[1], 0, shape[3]), dtype=sig.input_types[name]))
        return self._empty[key]

    def _bind_common(self, io, sig: DecoderSignature, input_ids: np.ndarray, use_cache: bool) -> None:
        io.bind_cpu_input("input_ids", input_ids.astype(sig.input_types["input_ids"]))
        if sig.shared_cache:
            past = self.length if use_cache else 0
            total = past + input_ids.shape[1]
            io.bind_cpu_input("seqlens_k", np.full(self.batch, total - 1, dtype=np.int32))
            io.bind_cpu_input("total_sequence_length", np.array(total, dtype=np.int32))
        if "encoder_hidden_states" in sig.input_types:
            io.bind_ortvalue_input("encoder_hidden_states", self.encoder_states)
        if "encoder_attention_mask" in sig.input_types:
            io.bind_cpu_input(
                "encoder_attention_mask", self.encoder_mask.astype(sig.input_types["encoder_attention_mask"])
            )
        if "use_cache_branch" in sig.input_types:
            io.bind_cpu_input("use_cache_branch", np.array([use_cache], dtype=np.bool_))

    def advance(self, sequences: np.ndarray) -> np.ndarray:
        """Run one step for sequences (batch, cur_len): step 0 (and a model without cache) sees
        the whole prefix, later steps only the newest token. Returns the last position's
        logits (batch, vocab)."""
        d = self.decoders
        if d.later is None:  # no cache: full recompute each step
            self.step += 1
            return self.recompute(sequences)
        first_step = self.step == 0
        session, sig = (d.first, d.first_sig) if first_step else (d.later, d.later_sig)
        input_ids = sequences if first_step else self._to_rows(sequences[:, -1:])
        shared = sig.shared_cache and not first_step
        if shared:
            self._make_room(self.length + 1)
        io = session.io_binding()
        self._bind_common(io, sig, input_ids, use_cache=not first_step)
        for i, pair in enumerate(sig.self_past):
            for j, name in enumerate(pair):
                io.bind_ortvalue_input(name, self._zero_length(sig, name) if first_step else self.self_cache[2 * i + j])
        for i, pair in enumerate(sig.cross_past):
            for j, name in enumerate(pair):
                io.bind_ortvalue_input(
                    name, self._zero_length(sig, name) if first_step else self.cross_cache[2 * i + j]
                )
        self_presents = [n for pair in sig.self_present for n in pair]
        wanted = ["logits"] + ([] if shared else self_presents)
        keep_cross = first_step and bool(d.later_sig.cross_past)
        if keep_cross:  # the cross-attention cache comes from step 0 only
            wanted += [n for pair in sig.cross_present for n in pair]
        for name in wanted:
            io.bind_output(name)
        if shared:  # the present is the past's own buffer: written in place
            for name, buffer in zip(self_presents, self.self_cache):
                io.bind_ortvalue_output(name, buffer)
        session.run_with_iobinding(io)
        values = io.get_outputs()
        n_self = 0 if shared else len(self_presents)
        if not shared:
            self.self_cache = list(values[1 : 1 + n_self])
        if keep_cross:
            self.cross_cache = list(values[1 + n_self : 1 + n_self + 2 * len(sig.cross_present)])
        self._remember(input_ids)
        self.length += input_ids.shape[1]
        if first_step and d.later_sig.shared_cache:
            self._to_buffers()
        self.used_cache_branch = not first_step
        self.step += 1
        logits = values[0].numpy()[:, -1, :]
        return logits if self._in_order() else logits[self.rows]  # back in beam order

    def _remember(self, row_ids: np.ndarray) -> None:
        """Record the tokens fed to each row at positions length, length + 1, ..."""
        end = self.length + row_ids.shape[1]
        if end > self.row_tokens.shape[1]:
            grown = np.zeros((self.batch, max(end, 2 * self.row_tokens.shape[1])), dtype=np.int64)
            grown[:, : self.length] = self.row_tokens[:, : self.length]
            self.row_tokens = grown
        self.row_tokens[:, self.length : end] = row_ids

    def _in_order(self) -> bool:
        return bool((self.rows == np.arange(self.batch)).all())

    def _to_rows(self, per_beam: np.ndarray) -> np.ndarray:
        """Beam-ordered inputs -> batch-row order (row rows[b] gets beam b's)."""
        if self._in_order():
            return per_beam
        out = np.empty_like(per_beam)
        out[self.rows] = per_beam
        return out

    def _to_buffers(self) -> None:
        """After step 0: the step's presents (length = the prefix) become the start of buffers
        with room for `capacity` positions, which the later steps share as past and present."""
        presents = self.self_cache  # alive until copied: the views below read their memory
        self._make_room(max(self.capacity, self.length + 1), [numpy_view(v) for v in presents])

    def _make_room(self, needed: int, current: list[np.ndarray] | None = None) -> None:
        """Buffers with room for `needed` positions (grown by doubling; the valid prefix moves along)."""
        if current is None:
            if self.capacity >= needed:
                return
            current = self._buffers
            self.capacity = max(needed, 2 * self.capacity)
        else:
            self.capacity = needed
        self._buffers = []
        for rows in current:
            batch, heads, _, head_dim = rows.shape
            buffer = np.zeros((batch, heads, self.capacity, head_dim), dtype=rows.dtype)
            buffer[:, :, : self.length] = rows[:, :, : self.length]
            self._buffers.append(buffer)
        # ortvalue() wraps each array without a copy and holds it: the buffers live as long as
        # self_cache does, and onnxruntime writes into exactly this memory.
        self.self_cache = [ortvalue(buffer) for buffer in self._buffers]

    def recompute(self, input_ids: np.ndarray) -> np.ndarray:
        """Logits of the last position computed from the whole prefix without any cache."""
        sig, session = self.decoders.first_sig, self.decoders.first
        io = session.io_binding()
        self._bind_common(io, sig, input_ids, use_cache=False)
        for pairs in (sig.self_past, sig.cross_past):
            for pair in pairs:
                for name in pair:
                    io.bind_ortvalue_input(name, self._zero_length(sig, name))
        io.bind_output("logits")
        session.run_with_iobinding(io)
        return io.get_outputs()[0].numpy()[:, -1, :]

    def reorder(self, beam_index: np.ndarray) -> None:
        """Beam search: beam b continues beam beam_index[b]. The first child of a parent keeps
        the parent's row; each further child takes the row of a beam that had no children, and
        that row gets the parent's cache from the first position where their tokens differ (the
        beams share the rest of their history), in place. Rows no beam reads are never touched.
        The cross-attention cache is the same in every row. Moving whole rows to follow the
        beams' order cost 1.2-1.6 ms at step 100 with 4 beams (docs/performance.md)."""
        if self.self_cache is None:
            return
        sources = self.rows[beam_index]
        rows = np.empty_like(self.rows)
        taken = np.zeros(self.batch, dtype=bool)
        parents = set(sources.tolist())
        free = [r for r in range(self.batch) if r not in parents]  # rows of beams that ended
        copies = []
        for b, source in enumerate(sources.tolist()):
            if not taken[source]:
                rows[b], taken[source] = source, True
            else:
                rows[b] = free.pop()
                copies.append((rows[b], source))
        n = self.length
        spans = []  # (target, source, first position to copy)
        for target, source in copies:  # free rows are nobody's source: no order to respect
            differ = np.flatnonzero(self.row_tokens[target, :n] != self.row_tokens[source, :n])
            if differ.size:
                spans.append((target, source, int(differ[0])))
                self.row_tokens[target, differ[0] : n] = self.row_tokens[source, differ[0] : n]
        if spans:
            for cache in self._buffers or [numpy_view(v) for v in self.self_cache]:
                for target, source, start in spans:
                    cache[target, :, start:n] = cache[source, :, start:n]
        self.rows = rows
