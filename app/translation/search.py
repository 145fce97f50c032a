"""Greedy and beam search with the semantics of transformers' `generate` (4.57), plus a loop guard.

Settings come from the model's generation_config.json (as `generate` reads it), overridden by
the caller. Logits processors run in `generate`'s order; greedy processes raw logits, beam
search log-probabilities, exactly as `generate` does. The beam search is a numpy port of
transformers' vectorised `_beam_search` for one sentence (batch 1), so finished hypotheses,
`length_penalty` and `early_stopping` (True / False / "never") behave the same.
"""

from __future__ import annotations

import logging
import numbers
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError, Text
from app.shared.events import StopReason

log = logging.getLogger(__name__)

NEG_INF = np.float32(-np.inf)
GENERATE_DEFAULTS = dict(max_length=20, min_length=0, num_beams=1, length_penalty=1.0, early_stopping=False,
                         no_repeat_ngram_size=0, repetition_penalty=1.0)


@dataclass(frozen=True)
class GenerationSettings:
    decoder_start_token_id: int
    eos_token_ids: tuple[int, ...]
    pad_token_id: int | None = None
    forced_bos_token_id: int | None = None
    forced_eos_token_ids: tuple[int, ...] = ()
    bad_words_ids: tuple[tuple[int, ...], ...] = ()
    max_length: int = 20  # whole decoder sequence, decoder_start_token_id included (as in generate)
    min_length: int = 0
    min_new_tokens: int = 0
    num_beams: int = 1
    length_penalty: float = 1.0
    early_stopping: bool | str = False
    no_repeat_ngram_size: int = 0
    repetition_penalty: float = 1.0
    suppress_tokens: tuple[int, ...] = ()
    begin_suppress_tokens: tuple[int, ...] = ()
    renormalize_logits: bool = False  # log-softmax again after the processors (opus-mt's configs set it)
    loop_window: int = 12  # loop guard: stop when the last N tokens are one block of <= 4 tokens repeated; 0 = off


# Sane ranges, checked before anything is allocated: the decoder's cache holds
# num_beams x max_length positions per layer, so an unbounded value exhausts memory.
INT_LIMITS = {
    "num_beams": (1, 16),
    "max_length": (2, 1024),  # the decoder start token and at least one more
    "max_new_tokens": (1, 1024),
    "min_length": (0, 1024),
    "min_new_tokens": (0, 1024),
    "no_repeat_ngram_size": (0, 32),
    "loop_window": (0, 1024),
}
FLOAT_LIMITS = {"length_penalty": (-10.0, 10.0), "repetition_penalty": (0.01, 10.0)}
TOKEN_KEYS = ("decoder_start_token_id", "bos_token_id", "pad_token_id", "forced_bos_token_id")
TOKEN_LIST_KEYS = ("eos_token_id", "forced_eos_token_id", "suppress_tokens", "begin_suppress_tokens")
MAX_BAD_WORDS = 10_000


def _ids(value) -> tuple[int, ...]:
    if value is None:
        return ()
    return tuple(value) if isinstance(value, (list, tuple)) else (int(value),)


def _is_int(value) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def check_setting(key: str, value, origin: str, vocab_size: int | None = None) -> None:
    """Raise a LiveTranslatorError naming `origin` (the file or option it came from) when a
    generation setting has the wrong type or lies outside its sane range."""

    def bad(why: Text) -> LiveTranslatorError:
        shown = repr(value)
        shown = shown if len(shown) <= 80 else shown[:60] + f"… ({len(shown)} characters)"
        return LiveTranslatorError(Text(QT_TRANSLATE_NOOP("Errors", "{origin}: {key} is {shown}; {why}."),
                                        {"origin": origin, "key": key, "shown": shown, "why": why}), _hint(origin, key))

    def check_token(token) -> None:
        if not _is_int(token) or token < 0:
            raise bad(Text(QT_TRANSLATE_NOOP("Errors", "token ids are whole numbers from 0")))
        if vocab_size and token >= vocab_size:
            raise bad(Text(QT_TRANSLATE_NOOP("Errors", "the model has only {count} tokens (ids 0 to {last})"),
                           {"count": vocab_size, "last": vocab_size - 1}))

    if key in INT_LIMITS:
        low, high = INT_LIMITS[key]
        if not _is_int(value) or not low <= value <= high:
            raise bad(Text(QT_TRANSLATE_NOOP("Errors", "it must be a whole number from {low} to {high}"), {"low": low, "high": high}))
    elif key in FLOAT_LIMITS:
        low, high = FLOAT_LIMITS[key]
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not low <= value <= high:
            raise bad(Text(QT_TRANSLATE_NOOP("Errors", "it must be a number from {low} to {high}"), {"low": f"{low:g}", "high": f"{high:g}"}))
    elif key == "early_stopping":
        if value not in (True, False, "never") or isinstance(value, (int, float)) and not isinstance(value, bool):
            raise bad(Text(QT_TRANSLATE_NOOP("Errors", 'it must be true, false or "never"')))
    elif key == "renormalize_logits":
        if not isinstance(value, bool):
            raise bad(Text(QT_TRANSLATE_NOOP("Errors", "it must be true or false")))
    elif key in TOKEN_KEYS:
        check_token(value)
    elif key in TOKEN_LIST_KEYS:
        tokens = value if isinstance(value, list) else [value]
        if key == "eos_token_id" and not tokens or len(tokens) > MAX_BAD_WORDS:
            raise bad(Text(QT_TRANSLATE_NOOP("Errors", "it must be a token id or a short list of them")))
        for token in tokens:
            check_token(token)
    elif key == "bad_words_ids":
        if not isinstance(value, list) or len(value) > MAX_BAD_WORDS or not all(
                isinstance(seq, list) and 0 < len(seq) <= 64 for seq in value):
            raise bad(Text(QT_TRANSLATE_NOOP("Errors", "it must be a list of up to {count} lists of token ids"), {"count": MAX_BAD_WORDS}))
        for seq in value:
            for token in seq:
                check_token(token)


def _hint(origin: str, key: str) -> Text:
    if origin.endswith(".json"):
        return Text(QT_TRANSLATE_NOOP("Errors", "Correct or delete {key} in the model's {origin} (the original model's file has a sane value)."),
                    {"key": key, "origin": origin})
    if origin.startswith("--"):
        return Text(QT_TRANSLATE_NOOP("Errors", "Give {origin} a value within the range."), {"origin": origin})
    return Text(QT_TRANSLATE_NOOP("Errors", "Give a {key} within the range."), {"key": key})


def resolve_settings(generation_config: dict, model_config: dict, overrides: dict, max_positions: int | None,
                     forced_bos_token_id: int | None = None, vocab_size: int | None = None,
                     override_origin: str = "the options given") -> GenerationSettings:
    """generation_config.json (else the generation keys of config.json, as transformers does),
    then `overrides` (non-None values). max_new_tokens wins over max_length, as in generate.
    Every value is checked (check_setting) and a bad one named with the file it came from."""
    generation_config = generation_config if isinstance(generation_config, dict) else {}
    model_config = model_config if isinstance(model_config, dict) else {}
    if generation_config:
        source, origin = dict(generation_config), dict.fromkeys(generation_config, "generation_config.json")
    else:
        source = {k: model_config[k] for k in list(GENERATE_DEFAULTS) + [
            "decoder_start_token_id", "eos_token_id", "pad_token_id", "bos_token_id", "forced_bos_token_id",
            "forced_eos_token_id", "bad_words_ids", "min_new_tokens", "max_new_tokens", "suppress_tokens",
            "begin_suppress_tokens", "renormalize_logits"] if k in model_config}
        origin = dict.fromkeys(source, "config.json")
    for key in ("decoder_start_token_id", "eos_token_id", "pad_token_id"):
        if source.get(key) is None and model_config.get(key) is not None:
            source[key], origin[key] = model_config[key], "config.json"
    for key, value in overrides.items():
        if value is not None:
            source[key], origin[key] = value, override_origin
    if forced_bos_token_id is not None:
        source["forced_bos_token_id"], origin["forced_bos_token_id"] = forced_bos_token_id, "the tokenizer"
    values = {**GENERATE_DEFAULTS, **{k: v for k, v in source.items() if v is not None}}
    for key, value in values.items():
        check_setting(key, value, origin.get(key, "the defaults"), vocab_size)
    start = values.get("decoder_start_token_id", values.get("bos_token_id"))
    eos = _ids(values.get("eos_token_id"))
    if start is None or not eos:
        missing = "decoder_start_token_id" if start is None else "eos_token_id"
        raise LiveTranslatorError(QT_TRANSLATE_NOOP("Errors", "Neither generation_config.json nor config.json names the model's {missing}."),
                                  QT_TRANSLATE_NOOP("Errors", "Copy config.json and generation_config.json of the original model ({missing} "
                                                     "is usually 0 or 2 for Marian, 2 for M2M100)."), missing=missing)
    max_length = int(values["max_length"])
    if values.get("max_new_tokens") is not None:
        max_length = int(values["max_new_tokens"]) + 1  # the decoder prompt is decoder_start_token_id
    if max_positions is not None:  # the decoder cannot look past its position table
        if not _is_int(max_positions) or max_positions < 2:
            raise LiveTranslatorError(QT_TRANSLATE_NOOP("Errors", "config.json: max_position_embeddings is {value}; it must be a whole number of at "
                                                                  "least 2."),
                                      _hint("config.json", "max_position_embeddings"), value=repr(max_positions))
        max_length = min(max_length, max_positions)
    bad = tuple(tuple(seq) for seq in values.get("bad_words_ids") or () if list(seq) not in [[e] for e in eos])
    return GenerationSettings(
        decoder_start_token_id=int(start), eos_token_ids=eos, pad_token_id=values.get("pad_token_id"),
        forced_bos_token_id=values.get("forced_bos_token_id"), forced_eos_token_ids=_ids(values.get("forced_eos_token_id")),
        bad_words_ids=bad, max_length=max(max_length, 1), min_length=int(values["min_length"] or 0),
        min_new_tokens=int(values.get("min_new_tokens") or 0), num_beams=max(int(values["num_beams"]), 1),
        length_penalty=float(values["length_penalty"]), early_stopping=values["early_stopping"],
        no_repeat_ngram_size=int(values["no_repeat_ngram_size"] or 0),
        repetition_penalty=float(values["repetition_penalty"] or 1.0),
        suppress_tokens=_ids(values.get("suppress_tokens")), begin_suppress_tokens=_ids(values.get("begin_suppress_tokens")),
        renormalize_logits=bool(values.get("renormalize_logits", False)),
        loop_window=int(values.get("loop_window", 12)),
    )


def log_softmax(x: np.ndarray) -> np.ndarray:
    """A new float32 array (in-place arithmetic: a beam step runs this on beams x vocab)."""
    out = np.array(x, dtype=np.float32)
    out -= out.max(axis=-1, keepdims=True)
    out -= np.log(np.exp(out).sum(axis=-1, keepdims=True))
    return out


TOP_K_GROUP = 256  # stable_top_k scans group maxima first: 65001 values -> 253 maxima


def stable_top_k(values: np.ndarray, k: int) -> np.ndarray:
    """`np.argsort(-values, kind="stable")[:k]` without sorting everything: beam search picks
    2*num_beams of num_beams*vocab candidates each step, and the diagnostics the 5 best of a
    vocab, and a full sort (or even an argpartition) of those was a large part of a step.
    Ties keep the lower index first and NaN ranks last, exactly as the stable sort does.

    The k-th largest of the groups' maxima is a threshold at least k values reach, so only
    the values at or above it are sorted."""
    values = values.reshape(-1)
    n, groups = values.size, values.size // TOP_K_GROUP
    if k >= n:
        return np.argsort(-values, kind="stable")[:k]
    if groups >= k:
        maxima = values[: groups * TOP_K_GROUP].reshape(groups, TOP_K_GROUP).max(axis=1)
        threshold = np.partition(maxima, groups - k)[groups - k]  # NaN maxima sort last
        if not np.isnan(threshold):
            chosen = np.flatnonzero(values >= threshold if threshold > -np.inf else values > -np.inf)
            if chosen.size >= k:  # else NaN groups were counted: fall through
                return chosen[np.argsort(-values[chosen], kind="stable")[:k]]
    top = values[np.argpartition(values, n - k)[n - k:]]
    if np.isnan(top).any():  # NaN partitions as the largest; the sort puts it last
        return np.argsort(-values, kind="stable")[:k]
    chosen = np.flatnonzero(values >= top.min())  # k of them, more only when others tie the k-th
    return chosen[np.argsort(-values[chosen], kind="stable")[:k]]


def process_scores(s: GenerationSettings, sequences: np.ndarray, scores: np.ndarray,
                   in_place: bool = False) -> np.ndarray:
    """generate's logits processors, in generate's order, for sequences (batch, cur_len).
    in_place: `scores` is a float32 array the caller hands over (no copy)."""
    scores = scores if in_place else scores.astype(np.float32, copy=True)
    cur_len = sequences.shape[1]
    if s.repetition_penalty != 1.0:
        for b, seq in enumerate(sequences):
            ids = np.unique(seq)
            picked = scores[b, ids]
            scores[b, ids] = np.where(picked < 0, picked * s.repetition_penalty, picked / s.repetition_penalty)
    n = s.no_repeat_ngram_size
    if n > 0 and cur_len + 1 >= n:
        for b, seq in enumerate(sequences.tolist()):
            prefix = tuple(seq[cur_len + 1 - n :])
            banned = {seq[i + n - 1] for i in range(cur_len - n + 1) if tuple(seq[i : i + n - 1]) == prefix}
            scores[b, list(banned)] = NEG_INF
    for bad in s.bad_words_ids:
        if len(bad) == 1:
            scores[:, bad[0]] = NEG_INF
        else:
            k = len(bad) - 1
            for b, seq in enumerate(sequences):
                if cur_len >= k and tuple(seq[cur_len - k :].tolist()) == bad[:-1]:
                    scores[b, bad[-1]] = NEG_INF
    if cur_len < s.min_length or cur_len - 1 < s.min_new_tokens:
        scores[:, list(s.eos_token_ids)] = NEG_INF
    if s.forced_bos_token_id is not None and cur_len == 1:
        scores[:] = NEG_INF
        scores[:, s.forced_bos_token_id] = 0
    if s.forced_eos_token_ids and cur_len == s.max_length - 1:
        scores[:] = NEG_INF
        scores[:, list(s.forced_eos_token_ids)] = 0
    if s.suppress_tokens:
        scores[:, list(s.suppress_tokens)] = NEG_INF
    if s.begin_suppress_tokens and cur_len == (1 if s.forced_bos_token_id is None else 2):
        scores[:, list(s.begin_suppress_tokens)] = NEG_INF
    if s.renormalize_logits:
        scores = log_softmax(scores)
    return scores


def find_loop(tokens: list[int], window: int, max_period: int = 4) -> tuple[int, ...] | None:
    """The repeating block if the last `window` tokens are one block of <= max_period tokens
    repeated (e.g. 12 x the same token, or 6 x a pair), else None."""
    if window <= 0 or len(tokens) < window:
        return None
    tail = tokens[-window:]
    for period in range(1, max_period + 1):
        if all(tail[i] == tail[i - period] for i in range(period, window)):
            return tuple(tail[-period:])
    return None


UNSURE_P = 0.5  # a generated token the decoder gave less than this probability is marked unsure


@dataclass
class StepRecord:
    """What one search step decided, for diagnostics."""

    token_id: int
    top: list[tuple[int, float]]
    logits: np.ndarray  # raw logits of this step (batch, vocab): verify compares them
    sequences: np.ndarray  # the sequences the logits were computed for (batch, cur_len)
    forced: bool = False  # a glossary constraint put this token here: it belongs to a term being written


StepFn = Callable[[np.ndarray], np.ndarray]  # sequences (batch, cur_len) -> last-position logits (batch, vocab)


class Search:
    """One sentence's search. Iterate `run()` for a StepRecord per decoder step; afterwards
    `sequence` (decoder_start_token_id first) and `stop_reason` hold the outcome, also when
    the caller stops iterating early (then call `stop("cancelled")`)."""

    def __init__(self, settings: GenerationSettings, step: StepFn, reorder: Callable[[np.ndarray], None],
                 top_k: int = 5, forced: Sequence[int] = ()):
        """forced: tokens the output must begin with (after the decoder prompt), e.g. the part of
        a live translation already shown; they go in with the prompt, as one decoder call."""
        self.s = settings
        self.step_fn = step
        self.reorder = reorder
        self.top_k = top_k
        self.prefix = [settings.decoder_start_token_id]
        # generate forces BOS on the first step; feeding it as part of the prefix gives the same
        # sequence and scores (forced tokens score 0) with one decoder call fewer.
        if settings.forced_bos_token_id is not None and settings.max_length > 2:
            self.prefix.append(settings.forced_bos_token_id)
        self.prefix += [int(t) for t in forced][:max(0, settings.max_length - len(self.prefix) - 1)]
        self.sequence: list[int] = list(self.prefix)
        self.stop_reason = StopReason.LENGTH
        self.loop: tuple[int, ...] | None = None
        # Per generated token of `sequence`: its log-probability (after the logits processors,
        # as the search scored it), and for the unsure ones (below `unsure_logprob`) the
        # alternatives the decoder considered at that position: {position: [(token, logprob)]}.
        self.token_logprobs: list[float] = []
        self.alternatives: dict[int, list[tuple[int, float]]] = {}
        self.unsure_logprob = float(np.log(UNSURE_P))

    def stop(self, reason: StopReason) -> None:
        self.stop_reason = reason

    def _top(self, row: np.ndarray, normalize: bool = False) -> list[tuple[int, float]]:
        """The top_k tokens of one row with their log-probabilities, best first. normalize: the
        row holds scores, not log-probabilities (greedy): only the k reported values are
        normalised, with the same arithmetic as log_softmax."""
        idx = stable_top_k(row, min(self.top_k, row.shape[0]))
        picked = row[idx].astype(np.float32)
        if normalize:
            row32 = row.astype(np.float32, copy=False)
            peak = row32.max()
            picked = (picked - peak) - np.log(np.exp(row32 - peak).sum())
        # tokens a processor banned (-inf) are not alternatives
        return [(int(i), float(v)) for i, v in zip(idx, picked) if np.isfinite(v)]

    def _eos_or_length(self) -> StopReason:
        """An EOS that forced_eos_token_id put on the last allowed position is a length stop."""
        ended = self.sequence[-1] in self.s.eos_token_ids
        forced = bool(self.s.forced_eos_token_ids) and len(self.sequence) >= self.s.max_length
        return StopReason.EOS if ended and not forced else StopReason.LENGTH

    def _loop_check(self, tokens: list[int]) -> bool:
        self.loop = find_loop(tokens[1:], self.s.loop_window)
        return self.loop is not None

    def run(self) -> Iterator[StepRecord]:
        if len(self.prefix) >= self.s.max_length:
            return
        yield from (self._greedy() if self.s.num_beams == 1 else self._beam())

    def _greedy(self) -> Iterator[StepRecord]:
        s, eos = self.s, set(self.s.eos_token_ids)
        seq = np.array([self.sequence], dtype=np.int64)
        while True:
            logits = self.step_fn(seq)
            scores = process_scores(s, seq, logits)
            token = int(np.argmax(scores[0]))
            seq = np.concatenate([seq, [[token]]], axis=1)
            self.sequence = seq[0].tolist()
            top = self._top(scores[0], normalize=True)
            chosen = next((lp for t, lp in top if t == token), 0.0)
            if chosen < self.unsure_logprob:
                self.alternatives[len(self.token_logprobs)] = top
            self.token_logprobs.append(chosen)
            yield StepRecord(token, top, logits, seq[:, :-1])
            if token in eos:
                self.stop_reason = self._eos_or_length()
                return
            if seq.shape[1] >= s.max_length:
                self.stop_reason = StopReason.LENGTH
                return
            if self._loop_check(self.sequence):
                self.stop_reason = StopReason.LOOP
                return

    def _beam(self) -> Iterator[StepRecord]:
        s = self.s
        k, prompt_len = s.num_beams, 1  # generate's decoder prompt: decoder_start_token_id
        eos = np.array(s.eos_token_ids)
        keep = max(2, 1 + len(eos)) * k
        top_mask = np.arange(keep) < k
        running = np.tile(np.array(self.prefix, dtype=np.int64), (k, 1))
        running_scores = np.full(k, -1e9, dtype=np.float32)
        running_scores[0] = 0
        finished = [running[0].copy() for _ in range(k)]
        # each beam's token log-probabilities and unsure positions' alternatives, as it grows
        running_lps = [() for _ in range(k)]
        running_alts: list[tuple] = [() for _ in range(k)]
        finished_lps, finished_alts = list(running_lps), list(running_alts)
        finished_scores = np.full(k, -1e9, dtype=np.float32)
        finished_flags = np.zeros(k, dtype=bool)
        improvable = True
        while True:
            cur_len = running.shape[1]
            logits = self.step_fn(running)
            logprobs = process_scores(s, running, log_softmax(logits), in_place=True)
            vocab = logprobs.shape[1]
            accumulated = (logprobs + running_scores[:, None]).reshape(-1)
            order = stable_top_k(accumulated, keep)
            cand_scores, parents, tokens = accumulated[order], order // vocab, order % vocab
            candidates = np.concatenate([running[parents], tokens[:, None]], axis=1)
            chosen = logprobs[parents, tokens]
            cand_lps = [running_lps[p] + (float(lp),) for p, lp in zip(parents, chosen)]
            cand_alts = [running_alts[p] + (((len(running_lps[p]), self._top(logprobs[p])),)
                                            if lp < self.unsure_logprob else ()) for p, lp in zip(parents, chosen)]
            hits = np.isin(tokens, eos) | (cur_len + 1 >= s.max_length)
            # next running beams: the best candidates that did not just finish
            running_pick = cand_scores + hits.astype(np.float32) * np.float32(-1e9)
            nxt = np.argsort(-running_pick, kind="stable")[:k]
            # finished hypotheses: length-penalised, only from the top num_beams candidates
            just_finished = hits & top_mask
            final = cand_scores / np.float32((cur_len + 1 - prompt_len) ** s.length_penalty)
            if finished_flags.all() and s.early_stopping is True:
                final = final + np.float32(-1e9)
            if not improvable:
                final = final + np.float32(-1e9)
            final = final + (~just_finished).astype(np.float32) * np.float32(-1e9)
            merged_scores = np.concatenate([finished_scores, final])
            merged_flags = np.concatenate([finished_flags, just_finished])
            merged = finished + list(candidates)
            best = np.argsort(-merged_scores, kind="stable")[:k]
            finished = [merged[i] for i in best]
            merged_lps, merged_alts = finished_lps + cand_lps, finished_alts + cand_alts
            finished_lps, finished_alts = [merged_lps[i] for i in best], [merged_alts[i] for i in best]
            finished_scores, finished_flags = merged_scores[best], merged_flags[best]

            lead = int(order[0] // vocab)
            self.sequence = candidates[0].tolist()
            yield StepRecord(int(tokens[0]), self._top(logprobs[lead]), logits, running)
            running, running_scores = candidates[nxt], running_pick[nxt]
            running_lps, running_alts = [cand_lps[i] for i in nxt], [cand_alts[i] for i in nxt]
            self.reorder(parents[nxt])
            cur_len += 1
            # generate's early-stop heuristic and stopping conditions
            if s.early_stopping == "never" and s.length_penalty > 0.0:
                best_len = s.max_length - prompt_len
            else:
                best_len = cur_len - prompt_len
            best_possible = running_scores[0] / np.float32(best_len ** s.length_penalty)
            worst = np.where(finished_flags, finished_scores.min(), np.float32(-1e9))
            improvable = improvable and bool(np.any(best_possible > worst))
            all_full = bool(finished_flags.all()) and s.early_stopping is True
            done = not improvable or all_full or bool(hits.all())
            self.sequence = (finished[0] if finished_flags[0] else running[0]).tolist()
            lps, alts = (finished_lps[0], finished_alts[0]) if finished_flags[0] else (running_lps[0], running_alts[0])
            self.token_logprobs, self.alternatives = list(lps), dict(alts)
            if done:
                self.stop_reason = self._eos_or_length()
                return
            if self._loop_check(running[0].tolist()):
                self.stop_reason = StopReason.LOOP
                return


@dataclass(frozen=True)
class Constraint:
    """One glossary term in target tokens: the output must contain one of `variants` (the ways
    the term tokenises: at a word start, straight after other text, ...)."""

    variants: tuple[tuple[int, ...], ...]
    label: str = ""


@dataclass(frozen=True)
class _Hyp:
    tokens: list[int]
    score: float  # sum of log-probabilities, as in beam search
    met: frozenset[int]  # constraints written (or being written: a started term is always finished)
    span: tuple[int, int, int] | None = None  # (constraint, variant, next position) while writing a term
    bank: int = 0  # constraint tokens written (see ConstrainedSearch)


@dataclass(frozen=True)
class _Candidate:
    score: float
    row: int
    token: int
    met: frozenset[int]
    span: tuple[int, int, int] | None
    forced: bool
    bank: int


DEAD = -1e9  # a row kept only to fill the batch
MAX_CONSTRAINED_ROWS = 8  # terms longer than this (in tokens, together) share rows between banks


def constrained_width(settings: GenerationSettings, constraints) -> int:
    """Rows a constrained search runs: the beam, and one per bank (terms' tokens written, 0..all),
    at most MAX_CONSTRAINED_ROWS unless the beam is wider. Greedy with a 2-token term: 3 rows."""
    banks = 1 + sum(min(len(v) for v in c.variants) for c in constraints if c.variants)
    return max(settings.num_beams, min(banks, MAX_CONSTRAINED_ROWS))


class ConstrainedSearch(Search):
    """Greedy or beam search whose output contains every constraint: dynamic beam allocation
    (Post & Vilar 2018) with forced spans. Hypotheses are grouped in banks by how many of the
    terms' tokens they have written, and each bank keeps its share of the rows: a hypothesis
    that has placed a term competes only with others that have placed it too (at other
    places), one still writing a term only with others as far into it. A term, once started,
    is written to its end. EOS is allowed only when every term is written, and a term is only
    started where it fits before max_length. With one row per bank, greedy search (num_beams 1)
    compares every placement of a term that the running hypotheses allow, and stops once no
    running hypothesis scores above the best complete one; beam search keeps the `num_beams`
    best complete hypotheses (length penalty as `generate`), see `_done` for when it stops."""

    def __init__(self, settings: GenerationSettings, step: StepFn, reorder: Callable[[np.ndarray], None],
                 constraints: list[Constraint], top_k: int = 5):
        super().__init__(settings, step, reorder, top_k)
        self.constraints = [c for c in constraints if c.variants]
        self.width = constrained_width(settings, self.constraints)
        self.lengths = [min(len(v) for v in c.variants) for c in self.constraints]  # a term's tokens, for banks
        self.banks = 1 + sum(self.lengths)
        self.met: frozenset[int] = frozenset()  # constraints in `sequence`
        ids = sorted({t for c in self.constraints for v in c.variants for t in v})
        self._columns = np.array(ids, dtype=np.int64)
        self._column_of = {t: i for i, t in enumerate(ids)}

    def run(self) -> Iterator[StepRecord]:
        if len(self.prefix) >= self.s.max_length:
            return
        yield from self._constrained()

    def _bank(self, met: frozenset[int], span: tuple[int, int, int] | None) -> int:
        done = sum(self.lengths[c] for c in met if span is None or c != span[0])
        return done + (min(span[2], self.lengths[span[0]] - 1) if span is not None else 0)

    def _starts(self, hyp: _Hyp, cur_len: int) -> dict[int, tuple[int, int]]:
        """First token -> (constraint, variant) of the terms this hypothesis may start now."""
        starts: dict[int, tuple[int, int]] = {}
        for c, constraint in enumerate(self.constraints):
            if c not in hyp.met:
                for v, variant in enumerate(constraint.variants):
                    if cur_len + len(variant) < self.s.max_length:  # the term and an EOS fit
                        starts.setdefault(variant[0], (c, v))
        return starts

    def _candidate(self, hyp: _Hyp, score: float, r: int, token: int, forced: bool,
                   start: tuple[int, int] | None = None) -> _Candidate:
        met, span = hyp.met, None
        if hyp.span is not None:
            c, v, pos = hyp.span
            span = (c, v, pos + 1) if pos + 1 < len(self.constraints[c].variants[v]) else None
        elif start is not None:
            c, v = start
            met, span = hyp.met | {c}, ((c, v, 1) if len(self.constraints[c].variants[v]) > 1 else None)
        return _Candidate(score, r, token, met, span, forced, self._bank(met, span))

    def _candidates(self, hyps: list[_Hyp], logprobs: np.ndarray, raw: np.ndarray, cur_len: int) -> list[_Candidate]:
        eos, everything = set(self.s.eos_token_ids), len(self.constraints)
        n_top = self.width + len(eos)
        out: list[_Candidate] = []
        for r, hyp in enumerate(hyps):
            if hyp.score <= DEAD / 2:
                continue
            row = logprobs[r]
            if hyp.span is not None:  # inside a term: its next token
                c, v, pos = hyp.span
                token = self.constraints[c].variants[v][pos]
                out.append(self._candidate(hyp, hyp.score + self._term_score(row, raw, r, token), r, token, True))
                continue
            for token in stable_top_k(row, min(n_top, row.shape[0])).tolist():
                if np.isfinite(row[token]) and (token not in eos or len(hyp.met) == everything):
                    out.append(self._candidate(hyp, hyp.score + float(row[token]), r, token, False))
            # starting a term here (also where the model writes its first token anyway: that
            # token may begin another word, so the free continuation above stays too)
            for token, start in self._starts(hyp, cur_len).items():
                out.append(self._candidate(hyp, hyp.score + self._term_score(row, raw, r, token), r, token, True, start))
        out.sort(key=lambda c: -c.score)
        return out

    def _term_score(self, row: np.ndarray, raw: np.ndarray, r: int, token: int) -> float:
        """A term's token that a processor banned (-inf) keeps the model's own log-probability."""
        value = row[token]
        return float(value if np.isfinite(value) else raw[r, self._column_of[token]])

    def _allocate(self, candidates: list[_Candidate]) -> list[_Candidate]:
        """`width` candidates: each bank its share, best first within a bank (the fullest banks
        get the rows that do not divide evenly); rows a bank cannot fill go to the next best
        of the fullest banks."""
        banks = self.banks
        by_bank: list[list[_Candidate]] = [[] for _ in range(banks)]
        for c in candidates:
            by_bank[c.bank].append(c)
        quota = [self.width // banks] * banks
        for i in range(self.width % banks):
            quota[banks - 1 - i] += 1
        chosen = [c for b in range(banks) for c in by_bank[b][: quota[b]]]
        rest = [c for b in reversed(range(banks)) for c in by_bank[b][quota[b]:]]
        chosen += rest[: self.width - len(chosen)]
        chosen.sort(key=lambda c: (-c.bank, -c.score))
        return chosen

    def _constrained(self) -> Iterator[StepRecord]:
        s, k, prompt_len = self.s, self.width, 1
        eos = set(s.eos_token_ids)
        everything = len(self.constraints)
        wanted = s.num_beams  # finished hypotheses to collect (see _done)
        hyps = [_Hyp(list(self.prefix), 0.0, frozenset())] + [_Hyp(list(self.prefix), DEAD, frozenset())] * (k - 1)
        finished: list[tuple[float, list[int], frozenset[int], float]] = []  # (final score, tokens, terms, log-prob)
        while True:
            running = np.array([h.tokens for h in hyps], dtype=np.int64)
            cur_len = running.shape[1]
            logits = self.step_fn(running)
            logprobs = log_softmax(logits)
            raw = logprobs[:, self._columns]  # before the processors (a copy)
            logprobs = process_scores(s, running, logprobs, in_place=True)
            candidates = self._candidates(hyps, logprobs, raw, cur_len)
            ends = cur_len + 1 >= s.max_length
            alive, complete = [], []
            for c in candidates:
                if c.token in eos or ends:
                    if len(c.met) == everything and c.span is None:  # greedy: no length penalty, as generate
                        length = (cur_len + 1 - prompt_len) ** s.length_penalty if wanted > 1 else 1.0
                        finished.append((c.score / length, hyps[c.row].tokens + [c.token], c.met, c.score))
                        complete.append(c)
                else:
                    alive.append(c)
            finished = sorted(finished, key=lambda f: -f[0])[: max(wanted, 1)]
            chosen = self._allocate(alive)
            # the step shows the hypothesis most likely to be the answer: the best of the fullest bank
            lead = (chosen or complete or candidates or [None])[0]
            new_hyps = [_Hyp(hyps[c.row].tokens + [c.token], c.score, c.met, c.span, c.bank) for c in chosen]
            if finished:
                self.sequence, self.met = list(finished[0][1]), finished[0][2]
            elif new_hyps:
                self.sequence, self.met = list(new_hyps[0].tokens), new_hyps[0].met
            elif candidates:  # no room left for a term: the fullest hypothesis, as far as it got
                last = max(candidates, key=lambda c: (c.bank, c.score))
                self.sequence, self.met = hyps[last.row].tokens + [last.token], last.met
            if lead is not None:
                yield StepRecord(lead.token, self._top(logprobs[lead.row]), logits, running, lead.forced)
            if not new_hyps or ends:
                break
            parents = [c.row for c in chosen]
            while len(new_hyps) < k:  # keep the batch full
                new_hyps.append(_Hyp(new_hyps[0].tokens, DEAD, new_hyps[0].met))
                parents.append(parents[0])
            self.reorder(np.array(parents))
            hyps = new_hyps
            if self._done(hyps, finished, wanted):
                break
            if self._loop_check(hyps[0].tokens):
                self.stop_reason = StopReason.LOOP
                return
        if not finished and len(self.met) < everything:
            log.info("constrained search: no hypothesis wrote every term within max_length")
        self.stop_reason = self._eos_or_length()

    def _done(self, hyps: list[_Hyp], finished: list, wanted: int) -> bool:
        """Greedy: no running hypothesis's log-probability is above the best finished one's (they
        only fall). Beam: num_beams complete hypotheses, and (unless early_stopping is True) no
        running one whose log-probability is above the worst of them. Not generate's rule, which
        compares length-normalised scores: the term's cost, spread over more tokens, makes every
        longer hypothesis look better under it, and the beam rambles on to max_length."""
        if not finished:
            return False
        best_running = max(h.score for h in hyps)
        if wanted == 1:
            return best_running <= finished[0][3]
        if len(finished) < wanted:
            return False
        return self.s.early_stopping is True or best_running <= min(f[3] for f in finished)
