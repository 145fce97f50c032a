"""faster-whisper's reading of a talk as a live reader could have it: each sentence read with
the audio up to its end only (and 0.5 s after, the pause a live final waits for), never the
sentences after it; or, `after` > 0, up to the end of the `after`-th sentence after it (what a
final corrected that many sentences later could have).

The whole-file pass bench/rooms.py compares the app with reads each sentence in a 30 s window
that holds the sentences after it too; a live app shows a sentence's final before those are
spoken. This reading (beam 5, VAD filter, previous text as context: the same defaults as the
whole file, with word timestamps to take the words of the sentence) says how much of the gap
to the whole file is that later audio (issue 41). It costs one transcribe per sentence.
"""

from __future__ import annotations

import numpy as np

from bench.degrade import RATE

_PAUSE_S = 0.5  # after the sentence's end: what a live final has heard when it is decoded


def causal_text(model, audio: np.ndarray, spans: list[tuple[float, float]], language: str, after: int = 0) -> str:
    """Each sentence of `audio` (`spans`: start, end in seconds) as faster-whisper reads it from
    the audio up to its end (or the end of the `after`-th sentence after it), joined."""
    joiner = "" if language == "zh" else " "
    return joiner.join(sentence_read_so_far(model, audio, spans, k, language, after) for k in range(len(spans)))


def sentence_read_so_far(
    model, audio: np.ndarray, spans: list[tuple[float, float]], k: int, language: str, after: int = 0
) -> str:
    """Sentence `k` of `audio` read from the audio up to its end (`after`: up to the end of the
    `after`-th sentence after it): the words that end nearest to its span. By their ends, not their
    middles: the first word after a pause is often stamped from inside the pause (我不知道 at
    3.7-5.5 s for a sentence spoken 5.0-6.3 s)."""
    last = min(k + after, len(spans) - 1)
    heard_so_far = audio[: int((spans[last][1] + _PAUSE_S) * RATE)]
    segments, _ = model.transcribe(heard_so_far, language=language, beam_size=5, vad_filter=True, word_timestamps=True)
    words = [w for segment in segments for w in segment.words or ()]
    return "".join(w.word for w in words if nearest_span(spans[: last + 1], w.end) == k).strip()


def nearest_span(spans: list[tuple[float, float]], t: float) -> int:
    """The index of the span `t` (seconds) is in, or nearest to."""
    return min(range(len(spans)), key=lambda i: max(spans[i][0] - t, t - spans[i][1], 0.0))
