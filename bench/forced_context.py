"""What a final's context costs in Whisper's decoder, and three ways to give it (issue 41).

An English final is decoded with the utterances before it in its window and their text forced as
the decoder's prefix (app/asr/context.py). CTranslate2 steps its decoder once per forced token
(as many milliseconds as a written one), so ~30 tokens of context cost most of a final's decode.
Each sentence of the English talk of bench/rooms.py (from the fourth on), degraded as bench/degrade
does, is decoded greedily on a window holding the three sentences before it and the 3 s margin,
with the *reference* text of the sentences before as the context (the same text for every way,
so only the way differs):

- prefix: the three sentences' text forced after the task tokens, the three before them as the
  prompt (what the app does);
- timestamp: all six as the prompt, and one forced timestamp token where this sentence starts
  (the decoder writes from there; one forced token instead of ~30);
- hybrid: the last sentence's text forced after a timestamp at its start, the five before as
  the prompt. It holds here, where the timestamp stands 0.3 s before a clean sentence; on the
  app's windows Whisper base mostly ended after the forced text (docs/performance.md, "One
  forced timestamp"), so the app does not offer it.

Prints WER per condition and way, and the median seconds of `generate`.

    .venv/bin/python -m bench.forced_context [--conditions clean GSM] [--model base]
    .venv/bin/python -m bench.forced_context --quick   # clean, 5 sentences, tiny.en
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from app.asr import load_whisper
from app.asr.window import _suppressed, _tokenizer, encode_window
from bench import degrade, rooms
from bench.degrade import RATE

WAYS = ("prefix", "timestamp", "hybrid")
_BEFORE = 3  # sentences before in the window
_LEAD_S = 0.3  # audio kept before a sentence (the app's pad_s is 0.4)


def decode(model, encoded, tokens_in: list[int]) -> tuple[float, list[int]]:
    """Greedy `generate` from `tokens_in`: its seconds and the ids after the prompt's task tokens."""
    began = time.perf_counter()
    result = model.model.generate(
        encoded,
        [tokens_in],
        beam_size=1,
        max_length=model.max_length,  # not len + budget: CTranslate2 halves it (app.asr.window._max_length)
        return_scores=True,
        suppress_blank=True,
        suppress_tokens=list(_suppressed(model, "en")),
        max_initial_timestamp_index=1500,  # a forced timestamp may stand anywhere in the window
    )[0]
    return time.perf_counter() - began, result.sequences_ids[0]


def sentence_ways(model, audio: np.ndarray, talk: rooms.Talk, k: int) -> dict[str, tuple[str, float]]:
    """Sentence `k` decoded each way: (text, seconds)."""
    tok = _tokenizer(model, "en")
    spans, said = talk.spans(), talk.references
    first = spans[k - _BEFORE][0] - _LEAD_S
    window = audio[int(first * RATE) : int((spans[k][1] + _LEAD_S) * RATE)]
    encoded = encode_window(model, window, margin_s=3.0, min_s=10.0)

    def at(index: int) -> int:  # the timestamp token where sentence `index` starts in the window
        return tok.timestamp_begin + round((spans[index][0] - _LEAD_S - first) / 0.02)

    def words(text: str) -> list[int]:
        return tok.encode(" " + text) if text else []

    before, earlier = " ".join(said[k - _BEFORE : k]), " ".join(said[max(0, k - 2 * _BEFORE) : k - _BEFORE])
    ways = {
        "prefix": (model.get_prompt(tok, words(earlier), without_timestamps=True, prefix=before), len(words(before))),
        "timestamp": (model.get_prompt(tok, words(" ".join(said[max(0, k - 2 * _BEFORE) : k])), False) + [at(k)], 0),
        "hybrid": (
            model.get_prompt(tok, words(" ".join(said[max(0, k - 2 * _BEFORE) : k - 1])), False)
            + [at(k - 1)]
            + words(said[k - 1]),
            len(words(said[k - 1])) + 1,
        ),
    }
    out = {}
    for way, (tokens_in, forced) in ways.items():
        seconds, ids = decode(model, encoded, tokens_in)
        out[way] = (tok.decode([i for i in ids[forced:] if i < tok.eot]).strip(), seconds)
    return out


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="base")
    parser.add_argument("--conditions", nargs="+", default=list(degrade.CONDITIONS), choices=list(degrade.CONDITIONS))
    parser.add_argument("--sentences", type=int, default=None, help="the talk's first N sentences")
    parser.add_argument("--quick", action="store_true", help="clean, 5 sentences, tiny.en")
    args = parser.parse_args(argv)
    if args.quick:
        args.model, args.conditions, args.sentences = "tiny.en", ["clean"], 5
    model = load_whisper(args.model)
    print(f"Whisper {args.model}; load average {os.getloadavg()[0]:.1f}")
    print(f"{'condition':30} " + " ".join(f"{way:>18}" for way in WAYS) + "   (WER, median s of generate)")
    with tempfile.TemporaryDirectory() as tmp:
        talk = rooms.make_talk("en", Path(tmp), args.sentences, model)
    totals = dict.fromkeys(WAYS, 0.0)
    for condition in args.conditions:
        audio = talk.degraded(condition)
        heard = [sentence_ways(model, audio, talk, k) for k in range(_BEFORE, len(talk.clips))]
        cells = []
        for way in WAYS:
            wer = rooms.error_rate(talk.references[_BEFORE:], " ".join(h[way][0] for h in heard), "en")
            totals[way] += wer
            cells.append(f"{wer:.3f} {statistics.median(h[way][1] for h in heard):.3f} s".rjust(18))
        print(f"{condition:30} " + " ".join(cells), flush=True)
    print(f"{'sum':30} " + " ".join(f"{totals[way]:18.3f}" for way in WAYS))
    return totals


if __name__ == "__main__":
    main()
