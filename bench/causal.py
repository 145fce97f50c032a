"""faster-whisper's reading of a talk as a live reader could have it: each sentence read with
the audio up to its end only (and 0.5 s after, the pause a live final waits for), never the
sentences after it.

The whole-file pass bench/rooms.py compares the app with reads each sentence in a 30 s window
that holds the sentences after it too; a live app shows a sentence's final before those are
spoken. This reading (beam 5, VAD filter, previous text as context: the same defaults as the
whole file, with word timestamps to take the words of the sentence) says how much of the gap
to the whole file is that later audio (issue 41). It costs one transcribe per sentence.
"""

from __future__ import annotations

import numpy as np

RATE = 16000
_PAUSE_S = 0.5  # after the sentence's end: what a live final has heard when it is decoded
_SLACK_S = 0.4  # a word whose middle is this close to the sentence's span is the sentence's


def causal_text(model, audio: np.ndarray, spans: list[tuple[float, float]], language: str) -> str:
    """Each sentence of `audio` (`spans`: start, end in seconds) as faster-whisper reads it from
    the audio up to its end, joined."""
    joiner = "" if language == "zh" else " "
    return joiner.join(sentence_read_so_far(model, audio, span, language) for span in spans)


def sentence_read_so_far(model, audio: np.ndarray, span: tuple[float, float], language: str) -> str:
    start, end = span
    heard_so_far = audio[: int((end + _PAUSE_S) * RATE)]
    segments, _ = model.transcribe(heard_so_far, language=language, beam_size=5, vad_filter=True, word_timestamps=True)
    words = [
        w.word
        for segment in segments
        for w in segment.words or ()
        if start - _SLACK_S <= (w.start + w.end) / 2 <= end + _SLACK_S
    ]
    return "".join(words).strip()
