"""Calm live text: provisional translations that settle instead of being redrawn whole.

Re-translating the growing partial source each time rewrites the whole translation, so text
jumps while people read it. Each token of a provisional decode is weighed on evidence that it
will stay (a ShowRule per live-text choice, tuned by bench/live_text.py):

- the decoder's confidence: a token it gives at least `sure_p` is shown at once;
- local agreement: a token the previous re-translation of the same utterance also wrote at the
  same place (their common token prefix) is shown when it is at least `agree_p` sure. Off the
  sentences a model knows by heart it is seldom sure of half a sentence, but two consecutive
  decodes agreeing is what stays (whisper_streaming's rule for recognition);
- a witness: an utterance's first text has no earlier decode to agree with, so while nothing of
  it is shown the translation stage also decodes the partial less its last two words; a token
  both wrote, at least `witness_p` sure, is shown (never settled by it);
- a lead limit: the sentence still being spoken shows at most `lead` times the tokens its source
  so far would give at the session's usual length ratio (LengthRatio, learnt from its finals). A
  model that writes a whole sentence from half of one is guessing the rest: models that snap to
  sentences they know are sure of, and agree with themselves on, guesses, so no evidence from
  the decoder alone tells those apart (mask-k and wait-k hold back the tail for this reason);
- what is shown stays while the newest decode still writes it: the evidence and the lead decide
  what is added, not what is taken back (a token that is less sure this time, or a whole sentence
  that the next partial joins to the words after it, would otherwise vanish and come back);
- a token agreed on and at least `settle_p` sure over `settle_agreements` consecutive
  agreements (two: three decodes) is *settled*: never changed or taken back until the final
  translation (which stays the plain decode of the whole sentence). Each provisional
  Translation says how many of its characters are settled (`stable`); reading mode shows only
  those, so it stays the calmest.

What follows the first token that is none of these is a guess: not shown, unless
`show_guesses` (live text "sooner"). With `grow_only` (live text "smoother") what is shown is
kept like settled text: an update that would take any of it back is held back, so the shown
text only grows until the final. How settled text is kept, by CalmMode:

- AGREE: re-translate freely; an update that contradicts the settled text is held back (the
  reader keeps what is shown) until the hypotheses agree with it again.
- FORCE: decode each update with the settled tokens forced as the start of its output (they go
  into the decoder with its prompt, one call), so updates extend what is shown by construction.
- OFF: nothing settled or held back (the behaviour before calm text).
"""

from __future__ import annotations

import math
import statistics
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from app.shared.live_text import LiveText


class CalmMode(StrEnum):
    OFF = "off"
    AGREE = "agree"
    FORCE = "force"


@dataclass(frozen=True)
class ShowRule:
    """When a token of a provisional translation is shown, and when it settles."""

    sure_p: float = 0.9  # shown at once when the decoder gave it this much
    agree_p: float = 1.01  # shown when the last decode agreed on it and it is this sure (> 1: never)
    witness_p: float = 1.01  # shown when a witness decode agreed on it and it is this sure (> 1: no witness)
    settle_p: float = 0.9  # settled when agreed on and this sure
    settle_agreements: int = 1  # consecutive agreements a settled token needs (1: two decodes)
    grow_only: bool = False  # shown text is kept like settled text: it only grows (until the final)
    show_guesses: bool = False  # the rest shown too (not settled)
    lead: float = math.inf  # the spoken sentence's share of its usual length shown at most (LengthRatio)


# Tuned on three models that know the talk by heart, its subjects, or none of it (bench/live_text.py,
# bench/live_text_replay.py; docs/performance.md, "Live text on any model").
# A half sentence shows at most 0.4 of the translation its source so far would usually get: on
# replays of the bench's runs a lead of 0.5 cut erasure 40-70% on the models that snap to sentences
# they know, and 0.4 with shown text kept cuts more.
# Balanced's witness vouches from p 0.3: it gives back the early text the lead takes (with 0.5 the
# model that knows the talk's subjects but none of its sentences showed 16-17 of 24 long
# utterances early; with 0.3, 20). Shown text stays while the newest decode writes it (update).
LEAD = 0.4
RULES = {
    LiveText.SMOOTHER: ShowRule(sure_p=0.99, agree_p=0.5, settle_p=0.9, settle_agreements=2, grow_only=True, lead=LEAD),
    LiveText.BALANCED: ShowRule(sure_p=0.9, agree_p=0.5, witness_p=0.3, settle_p=0.9, settle_agreements=2, lead=LEAD),
    LiveText.SOONER: ShowRule(sure_p=0.9, agree_p=0.0, settle_p=0.9, settle_agreements=2, show_guesses=True),
}


@dataclass(frozen=True)
class DecodedSentence:
    """One sentence of a provisional decode: its tokens (no prompt, EOS or skipped ids), the
    probability the decoder gave each, and the character of the joined translation each ends at."""

    ids: list[int]
    p: list[float]
    ends: Sequence[int]  # a list, or PlacedEnds (each worked out when asked for)
    start: int  # where the sentence's text begins in the joined translation
    source_tokens: int = 0  # the tokens of its source (0: not known)


class LengthRatio:
    """A session's usual translation length against its source, in tokens, per direction: the
    median over its last finals. Models' vocabularies differ too much for one fixed ratio."""

    KEPT = 40  # finals remembered per direction

    def __init__(self):
        self._ratios: dict[str, deque[float]] = {}

    def learn(self, key: str, sentences: list[DecodedSentence]) -> None:
        ratios = self._ratios.setdefault(key, deque(maxlen=self.KEPT))
        ratios.extend(len(s.ids) / s.source_tokens for s in sentences if s.source_tokens)

    def limit(self, key: str, sentence: DecodedSentence, lead: float) -> int:
        """Tokens of `sentence` (its source still being spoken) shown at most; all before any final."""
        ratios = self._ratios.get(key)
        if math.isinf(lead) or not ratios or not sentence.source_tokens:
            return len(sentence.ids)
        return math.floor(lead * statistics.median(ratios) * sentence.source_tokens)


class PlacedEnds(Sequence[int]):
    """A sentence's token ends (a translator's TokenEnds) placed in the joined translation: the
    kept tokens' ends, moved to where the sentence starts, less its stripped leading space. Each
    is worked out when asked for: CalmText reads the few where it cuts."""

    def __init__(self, ends: Sequence[int], kept: list[int], start: int, lead: int, size: int):
        self.ends, self.kept, self.start, self.lead, self.size = ends, kept, start, lead, size

    def __len__(self) -> int:
        return len(self.kept)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        return self.start + min(max(self.ends[self.kept[index]] - self.lead, 0), self.size)

    def __eq__(self, other) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)


def common_prefix(a: Sequence, b: Sequence) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def leading(count: int, test: Callable[[int], bool]) -> int:
    """How many of positions 0..count-1 pass `test` before the first that does not."""
    n = 0
    while n < count and test(n):
        n += 1
    return n


def chars_of(sentences: list[DecodedSentence], counts: list[int], length: int) -> int:
    """Characters of the joined translation (`length` long) covered by each sentence's first
    `counts` tokens, sentences in order: it stops inside the first one not covered whole."""
    for sentence, n in zip(sentences, counts):
        if n < len(sentence.ids):
            return sentence.ends[n - 1] if n else sentence.start
    return length


@dataclass
class _LiveTranslation:
    """One utterance's provisional translations so far."""

    previous_ids: list[list[int]] = field(default_factory=list)  # last update's tokens, per sentence
    agreed: list[list[int]] = field(default_factory=list)  # per sentence: agreed prefix lengths, newest last
    settled_ids: list[list[int]] = field(default_factory=list)  # settled tokens, per sentence
    settled_text: str = ""  # a prefix of every text shown from now on
    shown_text: str = ""  # the last text shown

    def agreements(self, sentences: list[DecodedSentence], depth: int) -> tuple[list[int], list[int]]:
        """Per sentence: tokens the last decode agreed on, and tokens the last `depth` decodes
        all agreed on; remembers this decode."""
        last, deep = [], []
        for i, sentence in enumerate(sentences):
            before = self.previous_ids[i] if i < len(self.previous_ids) else []
            history = self.agreed[i] if i < len(self.agreed) else []
            history = [*history, common_prefix(before, sentence.ids)][-depth:]
            if i < len(self.agreed):
                self.agreed[i] = history
            else:
                self.agreed.append(history)
            last.append(history[-1])
            deep.append(min(history) if len(history) == depth else 0)
        self.previous_ids = [list(s.ids) for s in sentences]
        return last, deep

    def settle(self, sentences: list[DecodedSentence], counts: list[int]) -> list[int]:
        """Extend each sentence's settled tokens to its first `counts` (when those continue
        them); per sentence, how many of the decode's tokens are settled."""
        out = []
        for i, (sentence, n) in enumerate(zip(sentences, counts)):
            if i >= len(self.settled_ids):
                self.settled_ids.append([])
            settled = self.settled_ids[i]
            if n > len(settled) and sentence.ids[: len(settled)] == settled:
                self.settled_ids[i] = settled = list(sentence.ids[:n])
            out.append(len(settled) if sentence.ids[: len(settled)] == settled else 0)
        return out


class CalmText:
    """The translation worker's memory of live translations (one thread uses it)."""

    def __init__(self, mode: CalmMode | str, rule: ShowRule | None = None):
        """mode: how settled text is kept (a session's is PipelineConfig.calm)."""
        self.mode = CalmMode(mode)
        self.rule = rule or RULES[LiveText.BALANCED]
        self._live: dict[int, _LiveTranslation] = {}
        self.ratio = LengthRatio()

    def forced(self, utterance_id: int) -> list[list[int]]:
        """Tokens each sentence's next provisional decode must begin with (FORCE only)."""
        live = self._live.get(utterance_id)
        if self.mode is not CalmMode.FORCE or live is None:
            return []
        return [list(ids) for ids in live.settled_ids]

    def update(
        self,
        utterance_id: int,
        sentences: list[DecodedSentence],
        text: str,
        at_word_boundary: Callable[[str, int], int] | None = None,
        witness: list[DecodedSentence] | None = None,
        key: str = "",
    ) -> tuple[str, int] | None:
        """A new provisional translation (`text`, and its sentences' tokens): (text to show,
        settled characters), or None to keep showing the last one. `witness`: a decode of the
        same source less its last words, made for this one (see wants_witness): what the two
        agree on counts as agreed for showing, not for settling. `key`: its direction (LengthRatio)."""
        live = self._live.setdefault(utterance_id, _LiveTranslation())
        rule = self.rule
        last, deep = live.agreements(sentences, rule.settle_agreements)  # every decode is evidence
        witnessed = [_agreed([w.ids for w in witness or []], i, s) for i, s in enumerate(sentences)]
        kept = live.shown_text if rule.grow_only else live.settled_text
        if self.mode is not CalmMode.OFF and not text.startswith(kept):
            return None  # it contradicts what the reader has already read: hold it back
        evidence = zip(sentences, last, witnessed)
        trusted = [len(s.ids) if rule.show_guesses else _trusted(s, n, w, rule) for s, n, w in evidence]
        trusted = self._within_lead(key, sentences, trusted)
        shown = _at(text, chars_of(sentences, trusted, len(text)), at_word_boundary)
        if self.mode is CalmMode.OFF:
            return self._shown(live, text, shown, 0)
        settled = [leading(n, lambda j, s=s: s.p[j] >= rule.settle_p) for s, n in zip(sentences, deep)]
        settled = self._within_lead(key, sentences, settled)
        stable = _at(text, chars_of(sentences, live.settle(sentences, settled), len(text)), at_word_boundary)
        stable = max(stable, len(live.settled_text))
        live.settled_text = text[:stable]
        still = _at(text, common_prefix(text, live.shown_text), at_word_boundary)
        return self._shown(live, text, max(shown, stable, len(kept), still), stable)

    def _within_lead(self, key: str, sentences: list[DecodedSentence], counts: list[int]) -> list[int]:
        """`counts` (tokens per sentence) with the last sentence's, the one still being spoken, kept
        within the rule's lead; the sentences before it are whole in the source."""
        if not sentences:
            return counts
        return [*counts[:-1], min(counts[-1], self.ratio.limit(key, sentences[-1], self.rule.lead))]

    def wants_witness(self, utterance_id: int, sentences: list[DecodedSentence], key: str = "") -> bool:
        """Whether a witness decode could show more of this update: nothing of the utterance is
        shown yet (its first text is what makes live text early) and the update's own evidence
        trusts less of it than the lead allows (`key`: its direction)."""
        live = self._live.get(utterance_id) or _LiveTranslation()
        if live.shown_text or self.rule.witness_p > 1 or self.rule.show_guesses or self.mode is CalmMode.OFF:
            return False
        agreed = [_agreed(live.previous_ids, i, s) for i, s in enumerate(sentences)]
        room = self._within_lead(key, sentences, [len(s.ids) for s in sentences])
        return any(_trusted(s, n, 0, self.rule) < r for s, n, r in zip(sentences, agreed, room))

    def _shown(self, live: _LiveTranslation, text: str, trusted: int, stable: int) -> tuple[str, int] | None:
        """What to show of an update: its trusted part; None when nothing would be left."""
        text = text[:trusted]
        if not text.strip():
            return None
        live.shown_text = text
        return text, stable

    def finish(self, utterance_id: int, final: list[DecodedSentence] | None = None, key: str = "") -> None:
        """The final translation is in: forget the utterance (its final replaces everything) and
        learn its length against its source (`final`: its sentences; `key`: its direction)."""
        if final:
            self.ratio.learn(key, final)
        for key in [k for k in self._live if k <= utterance_id]:
            del self._live[key]


def _agreed(other: list[list[int]], index: int, sentence: DecodedSentence) -> int:
    """Tokens sentence `index` of another decode (its sentences' ids) shares with `sentence` from its start."""
    return common_prefix(other[index], sentence.ids) if index < len(other) else 0


def _trusted(sentence: DecodedSentence, agreed: int, witnessed: int, rule: ShowRule) -> int:
    """Tokens of the sentence the evidence says will stay: each sure, or agreed on (by the last
    decode, or by a witness) and sure enough."""
    p = sentence.p

    def stays(j: int) -> bool:
        return (
            p[j] >= rule.sure_p or (j < agreed and p[j] >= rule.agree_p) or (j < witnessed and p[j] >= rule.witness_p)
        )

    return leading(len(sentence.ids), stays)


def _at(text: str, chars: int, at_word_boundary: Callable[[str, int], int] | None) -> int:
    return at_word_boundary(text, chars) if at_word_boundary is not None and chars < len(text) else chars


def decoded_sentences(
    pieces: list[tuple[str, list[int], list[float], Sequence[int], int]], joiner: str, skipped
) -> list:
    """Each sentence's (translation, token ids, token probabilities, token ends, source tokens) as the joined
    translation (join_translations(strip=True)) places them, skipped ids left out. Without
    per-token evidence (a translator that gives none) a sentence counts as sure throughout."""
    out, length = [], 0
    for piece, ids, p, ends, source_tokens in pieces:
        body = piece.strip()
        if not body:
            continue
        if length:
            length += len(joiner)
        lead = len(piece) - len(piece.lstrip())
        if len(p) != len(ids) or len(ends) != len(ids):
            p, ends = [1.0] * len(ids), [len(piece)] * len(ids)
        kept = [j for j, t in enumerate(ids) if t not in skipped]
        at = PlacedEnds(ends, kept, length, lead, len(body))
        out.append(DecodedSentence([ids[j] for j in kept], [p[j] for j in kept], at, length, source_tokens))
        length += len(body)
    return out


def latin_word_boundary(text: str, stable: int) -> int:
    """Back `stable` off to the start of the word it cuts (a settled half word reads badly)."""
    if stable <= 0 or stable >= len(text) or text[stable].isspace() or text[stable - 1].isspace():
        return stable
    while stable > 0 and not text[stable - 1].isspace():
        stable -= 1
    return stable
