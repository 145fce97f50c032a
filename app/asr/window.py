"""Whisper on a window as long as the audio: a decode that costs what it hears.

faster-whisper's `transcribe` pads every stretch of audio to Whisper's 30 s window (3000 mel
frames, `pad_or_trim`), so re-reading a 2 s utterance costs the encoder as much as 30 s of
speech. CTranslate2's Whisper encodes fewer frames as well (CTranslate2 PR #1446): here the
features are cut to the audio plus a margin of padding, and the decode goes through
faster-whisper's own pieces (feature extractor, tokenizer, prompt, suppressed tokens) and
CTranslate2's `generate`, as `transcribe` would call them for one segment without timestamps.
The margin was chosen by measurement (docs/performance.md, "Recognition window").
"""

from __future__ import annotations

import functools
import hashlib
import threading
import weakref
from dataclasses import dataclass

import numpy as np

FULL_FRAMES = 3000  # Whisper's 30 s window, in mel frames (100 per second)
_TIMESTAMP_S = 0.02  # Whisper's timestamp tokens are this far apart
FRAME_STEP = 100  # windows are whole seconds: few distinct shapes, and the encoder's stride of 2 is kept


@dataclass(frozen=True)
class Decoded:
    """One decode of one window: what `transcribe` would report for its single segment."""

    text: str
    avg_logprob: float
    no_speech_prob: float
    words: tuple = ()  # never filled: word probabilities need transcribe's alignment pass
    hit_budget: bool = False  # the decoder wrote max_new_tokens without ending: it ran on (a loop)


def window_frames(samples: int, margin_s: float, min_s: float = 0.0, hop: int = 160) -> int:
    """Mel frames to encode for `samples` of 16 kHz audio and a margin (at least `min_s`):
    whole seconds, at most 30 s."""
    wanted = max(samples // hop + 1 + round(margin_s * 100), round(min_s * 100))
    return min(FULL_FRAMES, -(-wanted // FRAME_STEP) * FRAME_STEP)


@functools.lru_cache(maxsize=8)
def _tokenizer(model, language: str):
    from faster_whisper.tokenizer import Tokenizer

    return Tokenizer(model.hf_tokenizer, model.model.is_multilingual, task="transcribe", language=language)


@functools.lru_cache(maxsize=8)
def _suppressed(model, language: str) -> tuple[int, ...]:
    from faster_whisper.transcribe import get_suppressed_tokens

    return get_suppressed_tokens(_tokenizer(model, language), [-1])  # transcribe's default, -1


class _HandedOver:
    """One encoder output handed from a look at a window (the language detection of a face-to-face
    session, app.asr.language) or a final decode to the decode of the same window right after it
    (a final read again): the encoder is most of a short decode's cost, so the look or the
    re-read adds little. Taken once; a decode hashes its audio only when a kept window of its
    length waits (a few milliseconds)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._slot: tuple | None = None  # (model ref, frames, audio digest, encoder output)

    @staticmethod
    def _digest(audio: np.ndarray) -> bytes:
        return hashlib.blake2b(np.ascontiguousarray(audio).tobytes(), digest_size=16).digest()

    def keep(self, model, frames: int, audio: np.ndarray, encoded) -> None:
        with self._lock:
            self._slot = (weakref.ref(model), frames, self._digest(audio), encoded)

    def take(self, model, frames: int, audio: np.ndarray):
        """The encoder output kept for exactly this model, window and audio, else None."""
        with self._lock:
            slot, self._slot = self._slot, None
        if slot is None or slot[0]() is not model or slot[1] != frames or slot[2] != self._digest(audio):
            return None
        return slot[3]


_HANDED_OVER = _HandedOver()


def encode_window(model, audio: np.ndarray, *, margin_s: float, min_s: float = 0.0, hand_over: bool = False):
    """Whisper's encoder output for `audio` through the window decode_window reads (its length +
    `margin_s`, at least `min_s`): the one handed over for it, if any. hand_over: keep it for the
    next decode_window of the same audio."""
    from faster_whisper.audio import pad_or_trim

    frames = window_frames(len(audio), margin_s, min_s)
    encoded = _HANDED_OVER.take(model, frames, audio)
    if encoded is None:
        features = pad_or_trim(model.feature_extractor(audio), frames)  # zero-padded, as transcribe pads
        encoded = model.encode(features)
    if hand_over:
        _HANDED_OVER.keep(model, frames, audio, encoded)
    return encoded


def decode_window(
    model,
    audio: np.ndarray,
    language: str,
    *,
    margin_s: float,
    beam_size: int,
    max_new_tokens: int,
    min_s: float = 0.0,
    prompt: str | None = None,
    prefix: str | None = None,
    hotwords: str | None = None,
    keep_encoded: bool = False,
    start_s: float | None = None,
) -> Decoded:
    """Decode `audio` (16 kHz, at most 30 s) through a window of its length + `margin_s` of padding
    (at least `min_s` long). keep_encoded: hand the encoder output over to the next decode of the
    same audio (a final read again costs its decoder only). start_s: the decoder writes from this
    second of the window on (a timestamp token forced after the task tokens; the text it writes has
    no timestamps): the audio before is context, its text given as the `prompt` (not a prefix).

    `model` is a faster_whisper.WhisperModel. Greedy when beam_size is 1; temperature 0, no
    fallback, no timestamps; the prompt (earlier text), prefix and hotwords are built as
    `transcribe` builds them, and `avg_logprob` / `no_speech_prob` mean what they mean there.
    """
    encoded = encode_window(model, audio, margin_s=margin_s, min_s=min_s, hand_over=keep_encoded)
    tokenizer = _tokenizer(model, language)
    tokens_in, forced = _forced_tokens(model, tokenizer, prompt, prefix, hotwords, start_s)
    result = model.model.generate(
        encoded,
        [tokens_in],
        beam_size=beam_size,
        patience=1,
        length_penalty=1,
        repetition_penalty=1,
        no_repeat_ngram_size=0,
        max_length=_max_length(model, len(tokens_in) - forced, forced + max_new_tokens),
        return_scores=True,
        return_no_speech_prob=True,
        suppress_blank=True,
        suppress_tokens=list(_suppressed(model, language)),
        max_initial_timestamp_index=50 if start_s is None else FULL_FRAMES // 2,  # in 0.02 s: anywhere
    )[0]
    tokens = result.sequences_ids[0]
    avg_logprob = result.scores[0] * len(tokens) / (len(tokens) + 1)  # as transcribe recovers it
    return Decoded(
        tokenizer.decode(tokens),
        float(avg_logprob),
        float(result.no_speech_prob),
        hit_budget=len(tokens) - forced >= max_new_tokens,  # the result holds the forced tokens too
    )


def _forced_tokens(model, tokenizer, prompt, prefix, hotwords, start_s) -> tuple[list[int], int]:
    """The decoder's start for decode_window, as `transcribe` builds it, and how many of its tokens
    are forced into the result (the prefix's, or a timestamp's: the tokenizer leaves timestamps out
    of the text). With `start_s`, one timestamp token where the decoder writes from: a forced
    prefix costs CTranslate2 a decoder step per token, a forced timestamp one."""
    previous = tokenizer.encode(" " + prompt.strip()) if prompt else []
    if start_s is None:
        tokens = model.get_prompt(tokenizer, previous, without_timestamps=True, prefix=prefix, hotwords=hotwords)
        return tokens, min(len(tokenizer.encode(" " + prefix.strip())), model.max_length // 2 - 1) if prefix else 0
    if prefix:
        # Text forced after the timestamp (bench/forced_context's "hybrid"): Whisper base often wrote
        # nothing after it, ending the segment (docs/performance.md, "One forced timestamp").
        raise ValueError("a forced timestamp takes the context's text as the prompt, not as a prefix")
    tokens = model.get_prompt(tokenizer, previous, without_timestamps=False, hotwords=hotwords)
    return [*tokens, tokenizer.timestamp_begin + round(start_s / _TIMESTAMP_S)], 1


def _max_length(model, start: int, result: int) -> int:
    """CTranslate2's `max_length` for a Whisper result of `result` tokens (forced ones included)
    after `start` tokens (the prompt and task tokens): it caps a result at min(max_length / 2,
    max_length - start) (whisper.cc), so `len(prompt) + max_new_tokens` let a decode with 30
    tokens of context forced write 10 ("... by Monday morning" for "... by Monday morning at
    nine."). At most Whisper's 448 positions."""
    return min(model.max_length, max(2 * result, start + result))
