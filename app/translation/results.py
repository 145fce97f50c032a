"""What a translation gives back: a `SentenceResult` per sentence (its tokens, why it stopped,
its timings and steps, the words the decoder was unsure of, the glossary terms it used) and
the `TranslationResult` of a whole text; and how sentences' translations are joined."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field

from app.shared.events import DecodeStep, StopReason

STOP_PRIORITY = (StopReason.CANCELLED, StopReason.LOOP, StopReason.LENGTH, StopReason.EOS)


@dataclass(frozen=True)
class GlossaryUse:
    """A glossary entry that matched a sentence's source, and whether its target is in the translation."""

    source: str
    target: str
    honoured: bool

    def to_json(self) -> dict:
        return {"source": self.source, "target": self.target, "honoured": self.honoured}


@dataclass(frozen=True)
class Unsure:
    """A stretch of a translation made of tokens the decoder gave a probability below UNSURE_P:
    characters [start, end) of the text, the lowest probability among them, and the decoder's
    alternatives at its least sure token (text, probability), best first."""

    start: int
    end: int
    p: float
    alternatives: tuple[tuple[str, float], ...] = ()

    def shifted(self, by: int) -> Unsure:
        return dataclasses.replace(self, start=self.start + by, end=self.end + by)


def join_translations(
    pieces: list[tuple[str, list[Unsure]]], joiner: str, strip: bool = False
) -> tuple[str, list[Unsure]]:
    """Sentences' translations joined as the app shows them, with their unsure spans moved along."""
    text, spans = "", []
    for piece, unsure in pieces:
        lead = len(piece) - len(piece.lstrip()) if strip else 0
        piece = piece.strip() if strip else piece
        if not piece:
            continue
        if text:
            text += joiner
        spans += [u.shifted(len(text) - lead) for u in unsure if u.start >= lead and u.end - lead <= len(piece)]
        text += piece
    return text, spans


def joined_sure_chars(sentences: list[tuple[str, int | None]], joiner: str) -> int | None:
    """Characters of the sentences' translations joined as join_translations(strip=True) joins
    them, before the first unsure token (each sentence's `sure_chars`); None when all are sure."""
    length = 0
    for piece, sure in sentences:
        body = piece.strip()
        if not body:
            continue
        if length:
            length += len(joiner)
        if sure is not None:
            lead = len(piece) - len(piece.lstrip())
            return length + min(max(sure - lead, 0), len(body))
        length += len(body)
    return None


@dataclass
class SentenceResult:
    index: int
    source: str
    translation: str
    token_ids: list[int]  # generated ids (generate's output without decoder_start_token_id)
    stop_reason: StopReason
    encoder_ms: float
    decode_ms: float
    steps: list[DecodeStep] = field(default_factory=list)
    loop_detail: str | None = None
    source_ids: list[int] = field(default_factory=list)
    glossary: list[GlossaryUse] = field(default_factory=list)
    # Character spans of `translation` the decoder was unsure of (UNSURE_P): the words to double-check
    low_confidence: list[Unsure] = field(default_factory=list)
    # Characters of `translation` before its first token below SURE_P (all of them: None)
    sure_chars: int | None = None
    # Per token of `token_ids`: the probability the decoder gave it (a forced token: 1.0), and the
    # characters of `translation` it ends at (what live text shows of a token prefix)
    token_p: list[float] = field(default_factory=list)
    token_ends: Sequence[int] = field(default_factory=list)  # a TokenEnds: each worked out when asked for

    @property
    def tokens_per_s(self) -> float:
        return len(self.steps) / (self.decode_ms / 1000) if self.decode_ms > 0 else 0.0

    @property
    def max_abs_diff(self) -> float | None:
        diffs = [s.max_abs_diff for s in self.steps if s.max_abs_diff is not None]
        return max(diffs) if diffs else None

    def to_json(self, with_steps: bool = True) -> dict:
        data = {
            k: getattr(self, k)
            for k in (
                "index",
                "source",
                "translation",
                "token_ids",
                "stop_reason",
                "loop_detail",
                "encoder_ms",
                "decode_ms",
                "tokens_per_s",
                "source_ids",
            )
        }
        data["tokens"] = len(self.steps)
        data["glossary"] = [use.to_json() for use in self.glossary]
        if self.max_abs_diff is not None:
            data["max_abs_diff"] = self.max_abs_diff
        if with_steps:
            data["steps"] = [s.to_json() for s in self.steps]
        return data


@dataclass
class TranslationResult:
    sentences: list[SentenceResult]
    joiner: str = ""

    @property
    def text(self) -> str:
        return self.joiner.join(s.translation for s in self.sentences if s.translation)

    @property
    def low_confidence(self) -> list[Unsure]:
        return join_translations([(s.translation, s.low_confidence) for s in self.sentences], self.joiner)[1]

    @property
    def stop_reason(self) -> StopReason:
        reasons = {s.stop_reason for s in self.sentences}
        return next((r for r in STOP_PRIORITY if r in reasons), StopReason.EOS)

    @property
    def token_ids(self) -> list[int]:
        return [t for s in self.sentences for t in s.token_ids]

    @property
    def steps(self) -> list[DecodeStep]:
        return [step for s in self.sentences for step in s.steps]

    @property
    def encoder_ms(self) -> float:
        return sum(s.encoder_ms for s in self.sentences)

    @property
    def decode_ms(self) -> float:
        return sum(s.decode_ms for s in self.sentences)

    def to_json(self) -> dict:
        """The `translate --json` object: one per input text."""
        return {
            "translation": self.text,
            "token_ids": self.token_ids,
            "stop_reason": self.stop_reason,
            "encoder_ms": round(self.encoder_ms, 3),
            "decode_ms": round(self.decode_ms, 3),
            "steps": [s.to_json() for s in self.steps],
            "sentences": [s.to_json(with_steps=False) for s in self.sentences],
            "low_confidence": [[u.start, u.end, u.p] for u in self.low_confidence],
            "alternatives": [[list(a) for a in u.alternatives] for u in self.low_confidence],
        }
