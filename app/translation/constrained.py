"""Glossary-constrained search: greedy or beam search (search.py) whose output contains every
glossary term's target, by dynamic beam allocation with forced spans (docs/glossary.md).
A sentence without a term never comes here: it runs search.py's `Search`, exactly `generate`'s.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from app.shared.events import StopReason
from app.translation.generation_settings import GenerationSettings
from app.translation.search import (
    Search,
    StepFn,
    StepRecord,
    log_softmax,
    process_scores,
    stable_top_k,
)

log = logging.getLogger(__name__)


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

    def __init__(
        self,
        settings: GenerationSettings,
        step: StepFn,
        reorder: Callable[[np.ndarray], None],
        constraints: list[Constraint],
        top_k: int = 5,
    ):
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

    def _candidate(
        self, hyp: _Hyp, score: float, r: int, token: int, forced: bool, start: tuple[int, int] | None = None
    ) -> _Candidate:
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
                out.append(
                    self._candidate(hyp, hyp.score + self._term_score(row, raw, r, token), r, token, True, start)
                )
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
        rest = [c for b in reversed(range(banks)) for c in by_bank[b][quota[b] :]]
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
