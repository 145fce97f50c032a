"""ONNX sessions of a seq2seq model and the cached decoder loop's plumbing.

A session is fed exactly the inputs it declares (signatures.py reads them). The
key/value cache travels between steps as onnxruntime OrtValues through IO binding; numpy only
sees the logits (and a beam reorder, which is a real gather).
"""

from __future__ import annotations

import ctypes
from pathlib import Path

import numpy as np
import onnxruntime as ort

from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError
from app.translation.signatures import NUMPY_TYPES, Decoders, DecoderSignature, numpy_type

ENCODER_INPUTS = {"input_ids", "attention_mask"}


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
        self.types = {n: numpy_type(i) for n, i in names.items()}

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
