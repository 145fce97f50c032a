"""Greedy and beam search with the semantics of transformers' `generate` (4.57), plus a loop guard.

Settings come from the model's generation_config.json, overridden by the caller
(generation_settings.py). Logits processors run in `generate`'s order; greedy processes raw logits, beam
search log-probabilities, exactly as `generate` does. The beam search is a numpy port of
transformers' vectorised `_beam_search` for one sentence (batch 1), so finished hypotheses,
`length_penalty` and `early_stopping` (True / False / "never") behave the same.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace

import numpy as np

from app.shared.events import StopReason
from app.translation.generation_settings import GenerationSettings

log = logging.getLogger(__name__)

NEG_INF = np.float32(-np.inf)


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
    top = values[np.argpartition(values, n - k)[n - k :]]
    if np.isnan(top).any():  # NaN partitions as the largest; the sort puts it last
        return np.argsort(-values, kind="stable")[:k]
    chosen = np.flatnonzero(values >= top.min())  # k of them, more only when others tie the k-th
    return chosen[np.argsort(-values[chosen], kind="stable")[:k]]


def process_scores(
    s: GenerationSettings, sequences: np.ndarray, scores: np.ndarray, in_place: bool = False
) -> np.ndarray:
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


def longest_repetition(tokens: Sequence[int], max_period: int = 4) -> int:
    """The most tokens in one stretch of `tokens` that is a block of <= max_period tokens said
    again and again ("8 8 8 8", "9, 9, 9"), counted from the block's first occurrence; 0: none."""
    longest = 0
    for period in range(1, max_period + 1):
        run = 0  # tokens equal to the one `period` before, in a row
        for i in range(period, len(tokens)):
            run = run + 1 if tokens[i] == tokens[i - period] else 0
            if run >= period:  # the block came at least twice
                longest = max(longest, run + period)
    return longest


def loop_window_for(settings: GenerationSettings, source_ids: Sequence[int]) -> GenerationSettings:
    """`settings` for one sentence: a repetition the source holds (a number read out digit by
    digit, "no, no, no") is the speaker's, and its translation may hold it too, so the loop guard
    waits for twice as long a repetition before it calls the decode a loop."""
    held = longest_repetition(source_ids)
    if settings.loop_window <= 0 or 2 * held <= settings.loop_window:
        return settings
    return replace(settings, loop_window=2 * held)


UNSURE_P = 0.5  # a generated token the decoder gave less than this probability is marked unsure
# A provisional translation is trusted up to its first token below this: past it, the decoder is
# guessing at words the speaker has not said yet (bench/live_text.py, docs/performance.md "Live text").
SURE_P = 0.9


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

    def __init__(
        self,
        settings: GenerationSettings,
        step: StepFn,
        reorder: Callable[[np.ndarray], None],
        top_k: int = 5,
        forced: Sequence[int] = (),
    ):
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
        self.prefix += [int(t) for t in forced][: max(0, settings.max_length - len(self.prefix) - 1)]
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

    def _extended(self, running_lps, running_alts, logprobs, parents, tokens) -> tuple[list, list]:
        """Each candidate's token log-probabilities and unsure positions' alternatives: its
        parent beam's, and the new token's."""
        chosen = logprobs[parents, tokens]
        cand_lps = [running_lps[p] + (float(lp),) for p, lp in zip(parents, chosen)]
        cand_alts = [
            running_alts[p] + (((len(running_lps[p]), self._top(logprobs[p])),) if lp < self.unsure_logprob else ())
            for p, lp in zip(parents, chosen)
        ]
        return cand_lps, cand_alts

    def _beam(self) -> Iterator[StepRecord]:
        s = self.s
        k, prompt_len = s.num_beams, 1  # generate's decoder prompt: decoder_start_token_id
        eos = np.array(s.eos_token_ids)
        keep = max(2, 1 + len(eos)) * k
        top_mask = np.arange(keep) < k
        running = np.tile(np.array(self.prefix, dtype=np.int64), (k, 1))
        running_scores = np.full(k, -1e9, dtype=np.float32)
        running_scores[0] = 0
        # each beam's token log-probabilities and unsure positions' alternatives, as it grows
        running_lps = [() for _ in range(k)]
        running_alts: list[tuple] = [() for _ in range(k)]
        finished = _Finished.empty(running[0], k)
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
            cand_lps, cand_alts = self._extended(running_lps, running_alts, logprobs, parents, tokens)
            hits = np.isin(tokens, eos) | (cur_len + 1 >= s.max_length)
            # next running beams: the best candidates that did not just finish
            running_pick = cand_scores + hits.astype(np.float32) * np.float32(-1e9)
            nxt = np.argsort(-running_pick, kind="stable")[:k]
            # finished hypotheses: length-penalised, only from the top num_beams candidates
            just_finished = hits & top_mask
            final = cand_scores / np.float32((cur_len + 1 - prompt_len) ** s.length_penalty)
            if finished.flags.all() and s.early_stopping is True:
                final = final + np.float32(-1e9)
            if not improvable:
                final = final + np.float32(-1e9)
            final = final + (~just_finished).astype(np.float32) * np.float32(-1e9)
            finished = finished.merged(candidates, cand_lps, cand_alts, final, just_finished)

            lead = int(order[0] // vocab)
            self.sequence = candidates[0].tolist()
            yield StepRecord(int(tokens[0]), self._top(logprobs[lead]), logits, running)
            running, running_scores = candidates[nxt], running_pick[nxt]
            running_lps, running_alts = [cand_lps[i] for i in nxt], [cand_alts[i] for i in nxt]
            self.reorder(parents[nxt])
            cur_len += 1
            improvable = improvable and finished.improvable_by(running_scores[0], s, cur_len - prompt_len)
            all_full = bool(finished.flags.all()) and s.early_stopping is True
            done = not improvable or all_full or bool(hits.all())
            best = finished.flags[0]
            self.sequence = (finished.sequences[0] if best else running[0]).tolist()
            lps, alts = (finished.lps[0], finished.alts[0]) if best else (running_lps[0], running_alts[0])
            self.token_logprobs, self.alternatives = list(lps), dict(alts)
            if done:
                self.stop_reason = self._eos_or_length()
                return
            if self._loop_check(running[0].tolist()):
                self.stop_reason = StopReason.LOOP
                return


@dataclass
class _Finished:
    """The best num_beams finished hypotheses so far (generate's beam_hyps), with each one's token
    log-probabilities and alternatives."""

    sequences: list
    lps: list
    alts: list
    scores: np.ndarray
    flags: np.ndarray  # which slots hold a finished hypothesis yet

    @classmethod
    def empty(cls, prefix: np.ndarray, k: int) -> _Finished:
        return cls(
            [prefix.copy() for _ in range(k)],
            [() for _ in range(k)],
            [() for _ in range(k)],
            np.full(k, -1e9, dtype=np.float32),
            np.zeros(k, dtype=bool),
        )

    def merged(self, candidates, cand_lps, cand_alts, final: np.ndarray, just_finished: np.ndarray) -> _Finished:
        """These and the candidates that just finished (`final`: their scores, -1e9 for the rest):
        the best num_beams of them."""
        scores = np.concatenate([self.scores, final])
        flags = np.concatenate([self.flags, just_finished])
        sequences, lps, alts = self.sequences + list(candidates), self.lps + cand_lps, self.alts + cand_alts
        best = np.argsort(-scores, kind="stable")[: len(self.sequences)]
        return _Finished(
            [sequences[i] for i in best], [lps[i] for i in best], [alts[i] for i in best], scores[best], flags[best]
        )

    def improvable_by(self, best_running: float, s: GenerationSettings, generated: int) -> bool:
        """generate's early-stop heuristic: can the best running beam still beat the worst finished one?"""
        if s.early_stopping == "never" and s.length_penalty > 0.0:
            best_len = s.max_length - 1  # the decoder prompt is one token
        else:
            best_len = generated
        best_possible = best_running / np.float32(best_len**s.length_penalty)
        worst = np.where(self.flags, self.scores.min(), np.float32(-1e9))
        return bool(np.any(best_possible > worst))
