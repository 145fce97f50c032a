"""One sentence's token ids through the encoder and the search: the decoder run and the search
over it (constrained when glossary terms must appear, else exactly `generate`'s greedy or beam
search), each step's diagnostics handed on as the decoder makes it, and a set `cancel` obeyed
between steps."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError
from app.shared.events import DecodeStep, StopReason
from app.translation.constrained import ConstrainedSearch, Constraint, constrained_width
from app.translation.folder import LoadedModel
from app.translation.generation_settings import GenerationSettings
from app.translation.onnx_model import DecoderRun
from app.translation.options import DecodeOptions
from app.translation.search import Search, StepRecord
from app.translation.tokenization import PromptCodec

StepSink = Callable[[DecodeStep], None]  # what is told of each decoder step as it finishes


@dataclass
class Decoded:
    """A sentence's finished search (its `sequence`, `stop_reason`, per-token log-probabilities),
    its steps' diagnostics and the time the encoder and the decoder took (ms)."""

    search: Search
    steps: list[DecodeStep]
    encoder_ms: float
    decode_ms: float


class SentenceDecoder:
    """A loaded model's encoder and decoders, run for one sentence at a time."""

    def __init__(self, model: LoadedModel, codec: PromptCodec):
        self.model, self.codec = model, codec

    def decode(
        self,
        source_ids: list[int],
        settings: GenerationSettings,
        options: DecodeOptions,
        constraints: list[Constraint],
        forced: Sequence[int] = (),
        index: int = 0,
        cancel: threading.Event | None = None,
        on_step: StepSink | None = None,
    ) -> Decoded:
        """`forced`: tokens the output must begin with; `index`: the sentence's, for its steps."""
        states, mask, encoder_ms = self._encode(source_ids)
        run, search = self._search(settings, states, mask, constraints, options, forced)
        steps: list[DecodeStep] = []
        decode_ms = self._run(run, search, options, index, cancel, steps, on_step)
        return Decoded(search, steps, round(encoder_ms, 3), round(decode_ms, 3))

    def _encode(self, source_ids: list[int]) -> tuple[np.ndarray, np.ndarray, float]:
        """The encoder's states for the source, its attention mask, and the time it took (ms)."""
        started = time.perf_counter()
        ids = np.array([source_ids], dtype=np.int64)
        mask = np.ones_like(ids)
        try:
            states = self.model.encoder(ids, mask)
        except Exception as error:
            raise LiveTranslatorError(
                QT_TRANSLATE_NOOP("Errors", "The encoder failed on {count} tokens: {reason}"),
                QT_TRANSLATE_NOOP("Errors", "Check that the model folder is complete and consistent."),
                count=len(source_ids),
                reason=str(error)[:300],
            ) from None
        return states, mask, (time.perf_counter() - started) * 1000

    def _search(
        self,
        settings: GenerationSettings,
        states: np.ndarray,
        mask: np.ndarray,
        constraints: list[Constraint],
        options: DecodeOptions,
        forced: Sequence[int],
    ) -> tuple[DecoderRun, Search]:
        """The decoder run and the search over it: constrained when a glossary term must appear,
        else `generate`'s greedy or beam search (beginning with `forced`)."""
        if constraints:
            run = DecoderRun(
                self.model.decoders,
                states,
                mask,
                batch=constrained_width(settings, constraints),
                capacity=settings.max_length,
            )
            return run, ConstrainedSearch(settings, run.advance, run.reorder, constraints, top_k=options.top_k)
        run = DecoderRun(self.model.decoders, states, mask, batch=settings.num_beams, capacity=settings.max_length)
        return run, Search(settings, run.advance, run.reorder, top_k=options.top_k, forced=forced)

    def _run(
        self,
        run: DecoderRun,
        search: Search,
        options: DecodeOptions,
        index: int,
        cancel: threading.Event | None,
        steps: list[DecodeStep],
        on_step: StepSink | None,
    ) -> float:
        """Run the search step by step, appending each DecodeStep to `steps` and handing it to
        `on_step`; returns the decoding time (ms). A set `cancel` stops it as CANCELLED."""
        decode_ms = 0.0
        records = search.run()
        try:
            while True:
                if cancel is not None and cancel.is_set():
                    search.stop(StopReason.CANCELLED)
                    break
                t0 = time.perf_counter()
                record = _next_record(records, run)
                if record is None:
                    break
                ms = (time.perf_counter() - t0) * 1000
                decode_ms += ms
                step = self._step(record, run, options, index, len(steps), ms)
                steps.append(step)
                if on_step is not None:
                    on_step(step)
        finally:
            records.close()
        return decode_ms

    def _step(
        self, record: StepRecord, run: DecoderRun, options: DecodeOptions, index: int, number: int, ms: float
    ) -> DecodeStep:
        """The diagnostics of one decoder step (with verify: the cached-vs-uncached difference)."""
        diff = float(np.max(np.abs(run.recompute(record.sequences) - record.logits))) if options.verify else None
        return DecodeStep(
            sentence_index=index,
            step=number,
            token_id=record.token_id,
            token=self.codec.piece(record.token_id),
            top=[(t, self.codec.piece(t), round(lp, 5)) for t, lp in record.top],
            self_kv_len=run.self_kv_len,
            cross_kv_len=run.cross_kv_len,
            used_cache_branch=run.used_cache_branch,
            ms=round(ms, 3),
            max_abs_diff=diff,
            forced=record.forced,
        )


def _next_record(records: Iterator[StepRecord], run: DecoderRun) -> StepRecord | None:
    """The search's next step, None at its end; onnxruntime failing mid-sentence says where."""
    try:
        return next(records)
    except StopIteration:
        return None
    except LiveTranslatorError:
        raise
    except Exception as error:
        raise LiveTranslatorError(
            QT_TRANSLATE_NOOP("Errors", "The decoder failed at step {step} ({kind}: {reason})."),
            QT_TRANSLATE_NOOP("Errors", "Run `python -m app models doctor` on the model folder."),
            step=run.step,
            kind=type(error).__name__,
            reason=str(error)[:300],
        ) from None
