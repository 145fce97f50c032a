"""What a provisional translation costs: the translation stage's work for live text, timed.

The talk of bench/live_text.py, each sentence grown a word at a time from three words (the
partials recognition sends), decoded greedily as the translation stage decodes a partial and
put through CalmText (balanced, agree) as it is; then each whole sentence decoded as a final
(the model's own beam). Process CPU and wall time per decode and per output token, for each
model (bench/live_text.py's, and `random`: the full-size opus-mt-en-zh architecture with
random weights that bench/translation_speed.py builds, its output cut at 48 tokens).

`--root` times another checkout's code with the same script (an A/B against an earlier commit:
`git worktree add --detach /tmp/before COMMIT`, then `--root /tmp/before`).

    .venv/bin/python -m bench.provisional_cost [--models phrasebook memorised neighbours random]
        [--sentences 12] [--repeats 3] [--root DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

from bench._common import ROOT as HERE


def partials(sentences: list[str]) -> list[list[str]]:
    """Per sentence: the partials that grow it, three words first."""
    out = []
    for sentence in sentences:
        words = sentence.split()
        out.append([" ".join(words[:n]) for n in range(3, len(words) + 1)])
    return out


def folder(name: str) -> Path:
    if name == "random":
        return Path(os.path.expanduser("~/.cache/live-translator-bench/opus-mt-en-zh-random-v1/onnx-catalog-v2"))
    from bench.live_text import model_folder  # lazy: it imports app, which --root chose in main()

    return model_folder(name)


def one_pass(translator, grown: list[list[str]]) -> dict:
    """CPU and wall seconds of the provisional decodes (with CalmText) and of the finals."""
    from app.pipeline.calm import RULES, CalmText, latin_word_boundary  # lazy: the checkout --root chose
    from app.pipeline.translation import calm_sentences
    from app.shared.live_text import LiveText
    from app.translation import DecodeOptions
    from app.translation.results import join_translations

    calm = CalmText("agree", RULES[LiveText.BALANCED])
    greedy = DecodeOptions(num_beams=1, max_new_tokens=48)
    final = DecodeOptions(max_new_tokens=48)
    out = {"provisional": [0.0, 0.0, 0, 0], "final": [0.0, 0.0, 0, 0]}  # cpu, wall, decodes, tokens
    for uid, texts in enumerate(grown, 1):
        for text in texts:
            cpu, wall = time.process_time(), time.perf_counter()
            results = list(translator.stream(text, greedy))
            joined, _ = join_translations([(r.translation, r.low_confidence) for r in results], translator.joiner, True)
            sentences = calm_sentences(translator, results)
            calm.update(uid, sentences, joined, latin_word_boundary if translator.joiner else None)
            row = out["provisional"]
            row[0] += time.process_time() - cpu
            row[1] += time.perf_counter() - wall
            row[2] += 1
            row[3] += sum(len(r.token_ids) for r in results)
        cpu, wall = time.process_time(), time.perf_counter()
        result = translator.translate(texts[-1], final)
        calm.finish(uid)
        row = out["final"]
        row[0] += time.process_time() - cpu
        row[1] += time.perf_counter() - wall
        row[2] += 1
        row[3] += len(result.token_ids)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="+", default=["phrasebook", "memorised", "neighbours", "random"])
    parser.add_argument("--sentences", type=int, default=12)
    parser.add_argument("--repeats", type=int, default=3, help="passes; the median pass is reported")
    parser.add_argument("--root", type=Path, default=HERE, help="the checkout whose app/ is timed")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(args.root.resolve()))  # the timed checkout's app/ before this one's (an A/B)
    import app  # lazy: after --root put the timed checkout's app/ first
    from app.translation import Translator
    from bench.live_text import TALK

    grown = partials([s for s, _ in TALK[: args.sentences]])
    print(f"code: {Path(app.__file__).parent}; load average {os.getloadavg()[0]:.2f} at start")
    print(
        f"{'model':11} {'kind':11} {'decodes':>7} {'tokens':>6} {'cpu ms/decode':>13} {'wall ms/decode':>14} "
        f"{'cpu ms/token':>12}"
    )
    for name in args.models:
        translator = Translator.load(folder(name), "en-zh")
        one_pass(translator, grown[:1])  # warm up
        passes = [one_pass(translator, grown) for _ in range(args.repeats)]
        for kind in ("provisional", "final"):
            cpu = statistics.median(p[kind][0] for p in passes)
            wall = statistics.median(p[kind][1] for p in passes)
            _, _, decodes, tokens = passes[0][kind]
            print(
                f"{name:11} {kind:11} {decodes:7d} {tokens:6d} {cpu / decodes * 1000:13.2f} "
                f"{wall / decodes * 1000:14.2f} {cpu / max(tokens, 1) * 1000:12.3f}",
                flush=True,
            )
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
