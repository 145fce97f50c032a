"""What the decoder's own probabilities say about a finished translation: where each token ends
in the written text (`TokenEnds`), the words it was unsure of, how much of it is sure, each
token's probability. Live text and the window's unsure words read these."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from app.shared.chinese import map_offset
from app.translation.results import Unsure
from app.translation.search import SURE_P, Search
from app.translation.tokenization import PromptCodec


class TokenEnds(Sequence[int]):
    """Per token of a translation, the characters of its written text (Chinese in the chosen
    script) that the tokens up to it decode to. Each prefix is decoded when first asked for and
    kept: live text cuts a provisional translation at a token or two, unsure spans need their
    tokens' ends, and a final needs no others; decoding every prefix of every translation cost a
    tenth of the decode (O(n²) characters per sentence)."""

    def __init__(self, token_ids: list[int], decoded: str, codec: PromptCodec, written, script):
        self.token_ids, self.decoded, self.codec, self.script = token_ids, decoded, codec, script
        converted = written(decoded)
        self.converted = converted if converted != decoded else None  # None: offsets carry over as they are
        self._lengths = {0: 0, len(token_ids): len(decoded)}

    def decoded_length(self, count: int) -> int:
        """Characters of the decoded text (before any change of script) the first `count` tokens make."""
        if count not in self._lengths:
            self._lengths[count] = len(self.codec.decode(self.token_ids[:count]))
        return self._lengths[count]

    def written_offset(self, offset: int) -> int:
        """Where character `offset` of the decoded text lands in the written text."""
        return offset if self.converted is None else map_offset(self.decoded, offset, self.script, self.converted)

    def __len__(self) -> int:
        return len(self.token_ids)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        count = range(1, len(self) + 1)[index]  # IndexError past the end, as a list
        return self.written_offset(self.decoded_length(count))

    def __eq__(self, other) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    def __repr__(self) -> str:
        return f"TokenEnds({list(self)})"


def unsure_spans(search: Search, forced: int, ends: TokenEnds, written) -> list[Unsure]:
    """Character spans of the (written) translation whose tokens the decoder was unsure of (of
    those after the `forced` first ones, which were not its choice); neighbouring unsure
    tokens (pieces of one word) make one span. `written` turns decoded text into the text shown
    (Chinese in the chosen script)."""
    spans: list[Unsure] = []
    codec, decoded = ends.codec, ends.decoded
    for position, (token, logprob) in enumerate(zip(ends.token_ids[forced:], search.token_logprobs)):
        if position not in search.alternatives or token in codec.skipped_ids:
            continue
        at = forced + position
        start, end = ends.decoded_length(at), ends.decoded_length(at + 1)
        while start < end and decoded[start].isspace():
            start += 1
        if start >= end:
            continue  # a token that adds no character (EOS, a lone space)
        start, end = ends.written_offset(start), ends.written_offset(end)  # Chinese in another script
        p = round(float(np.exp(logprob)), 3)
        alternatives = tuple(
            (written(codec.decode([t])), round(float(np.exp(lp)), 3))
            for t, lp in search.alternatives[position]
            if t != token and t not in codec.skipped_ids
        )
        if spans and spans[-1].end >= start:
            last = spans[-1]
            keep = last.alternatives if last.p <= p else alternatives
            spans[-1] = Unsure(last.start, max(end, last.end), min(last.p, p), keep)
        else:
            spans.append(Unsure(start, end, p, alternatives))
    return spans


def sure_chars(search: Search, forced: int, ends: TokenEnds) -> int | None:
    """Characters of the (written) translation before the first token the decoder gave less
    than SURE_P (the `forced` first tokens were not its choice: sure); None when it was sure
    of every token."""
    for position, (token, logprob) in enumerate(zip(ends.token_ids[forced:], search.token_logprobs)):
        if logprob < np.log(SURE_P) and token not in ends.codec.skipped_ids:
            return ends.written_offset(ends.decoded_length(forced + position))
    return None


def token_probabilities(search: Search, token_ids: list[int], forced: int) -> list[float]:
    """Each token's probability, from the search's own per-step log-probabilities (forced ones
    1.0: the reader has them)."""
    chosen = [float(np.exp(lp)) for lp in search.token_logprobs]
    p = ([1.0] * forced + chosen)[: len(token_ids)]
    return p + [1.0] * (len(token_ids) - len(p))
