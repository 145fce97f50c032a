"""Glossary terms in the decoder: how often the term is in the translation, with and without the
glossary, and what the constrained search costs per token against the unconstrained one.

    .venv/bin/python -m bench.glossary               # phrasebook + fixtures, then the full-size model
    .venv/bin/python -m bench.glossary --quick       # fewer repeats
    .venv/bin/python -m bench.glossary --scale       # translate time per sentence, 10 / 10,000 / 100,000 entries
    .venv/bin/python -m bench.glossary --scale --quick --sizes 100   # the smallest run (tests/test_benches.py)

Term success: the held-out sentences of models/glossary_cases.py (fixture
and phrasebook models: sentences whose glossary term the model does not write on its own),
greedy and beam 4. Cost: the full-size opus-mt-en-zh architecture with random weights
(bench_model.py, fp32, our export), 8 sentences with a glossary term each, output length forced
to --tokens (random weights make EOS meaningless), unconstrained and constrained runs of the
same sentence interleaved; reported: medians of decode ms per output token and their ratio.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

from app.shared.glossary import Glossary
from app.translation import DecodeOptions, Translator
from bench._common import ROOT
from bench.bench_model import build
from bench.translation_speed import SENTENCES
from models.glossary_cases import GLOSSARY, HELD_OUT, reference_matches

# For the full-size model: English terms -> Chinese targets
# its (padded, fixture-corpus) target vocabulary can write.
SPEED_GLOSSARY = (
    "meeting\t会议\nweather\t天气\ntrain\t火车\nrestaurant\t饭店\nhospital\t医院\nBeijing\t北京\n"
    "office\t工作\nwater\t水\n"
)
SPEED_SENTENCES = SENTENCES  # the speed bench's sentences, each with a term of SPEED_GLOSSARY


def term_success() -> None:
    print("Term success (held-out sentences, terms the model does not write on its own)")
    print("| model | sentences | terms | beams | without glossary | with glossary | decoder steps without / with |")
    print("|---|---|---|---|---|---|---|")
    by_model: dict[tuple[str, str], list] = {}
    for folder, direction, text, targets in HELD_OUT:
        by_model.setdefault((str(folder), direction), []).append((text, targets))
    for (folder, direction), cases in by_model.items():
        t = Translator.load(folder, direction)
        for beams in (1, 4):
            hits, steps = {False: 0, True: 0}, {False: 0, True: 0}
            terms = 0
            for text, targets in cases:
                for use_glossary in (False, True):
                    out = t.translate(text, DecodeOptions(num_beams=beams, glossary=GLOSSARY if use_glossary else None))
                    hits[use_glossary] += sum(target in out.text for target in targets)
                    steps[use_glossary] += len(out.steps)
                terms += len(targets)
            name = f"{Path(folder).parent.name}/{Path(folder).name} {direction}"
            print(
                f"| {name} | {len(cases)} | {terms} | {beams} | {hits[False]}/{terms} | {hits[True]}/{terms} | "
                f"{steps[False]} / {steps[True]} |",
                flush=True,
            )


def speed(repeats: int, tokens: int) -> None:
    onnx = build(log=lambda m: print(m, file=sys.stderr, flush=True)).onnx  # only our export of the full-size model
    t = Translator.load(onnx, "en-zh")
    glossary = Glossary.parse(SPEED_GLOSSARY)
    for m in [m for s in SPEED_SENTENCES for m in glossary.matches(s, "en-zh")]:
        if not t.codec.term_variants(m.target):
            print(f"note: the bench model's vocabulary cannot write {m.target!r}", file=sys.stderr)
    print(
        f"\nCost per token: {t.model_name}, fp32, {tokens} tokens forced, {repeats} x {len(SPEED_SENTENCES)} "
        f"sentences, load {os.getloadavg()[0]:.1f} at the start"
    )
    print(
        "| beams | unconstrained ms/token | constrained ms/token | ratio (median of per-sentence ratios) | target | "
        "term in output: without / with |"
    )
    print("|---|---|---|---|---|---|")
    for beams in (1, 4):
        base = DecodeOptions(num_beams=beams, min_new_tokens=tokens, max_new_tokens=tokens, loop_window=0)
        constrained = DecodeOptions(
            num_beams=beams, min_new_tokens=tokens, max_new_tokens=tokens, loop_window=0, glossary=glossary
        )
        t.translate(SPEED_SENTENCES[0], base)  # warm-up
        t.translate(SPEED_SENTENCES[0], constrained)
        plain_ms, glossary_ms, ratios, found = [], [], [], {False: 0, True: 0}
        for r in range(repeats):
            for i, text in enumerate(SPEED_SENTENCES):
                runs = {}
                for use in (False, True) if (r + i) % 2 == 0 else (True, False):  # alternate who goes first
                    out = t.translate(text, constrained if use else base)
                    runs[use] = out.decode_ms / max(len(out.steps), 1)
                    if r == 0:
                        found[use] += (
                            all(u.target in out.text for u in glossary.matches(text, "en-zh"))
                            if use
                            else all(m.target in out.text for m in glossary.matches(text, "en-zh"))
                        )
                plain_ms.append(runs[False])
                glossary_ms.append(runs[True])
                ratios.append(runs[True] / runs[False])
        target = 1.3 if beams == 1 else 1.5
        ratio = statistics.median(ratios)
        n = len(SPEED_SENTENCES)
        print(
            f"| {beams} | {statistics.median(plain_ms):.2f} | {statistics.median(glossary_ms):.2f} | {ratio:.2f}x | "
            f"<= {target}x ({'met' if ratio <= target else 'missed'}) | {found[False]}/{n} / {found[True]}/{n} |",
            flush=True,
        )


def scale(repeats: int, sizes: list[int]) -> None:
    """Translate time per sentence with 10, 10,000 and 100,000 entries (the sentences' own terms
    plus made-up ones), on the committed fixture model (small: the glossary's share shows); the
    peer, in the same run: the matching the app did before (one expression per entry per sentence)."""
    folder = ROOT / "tests" / "fixtures" / "nmt" / "marian-en-zh" / "merged"
    t = Translator.load(folder, "en-zh")
    rng = random.Random(27)
    letters, han = (
        "abcdefghijklmnopqrstuvwxyz",
        "的一是不了人我在有他这中大来上个国到说们为子和你地出道也时年得就那要下以生会",
    )
    print(
        f"\nGlossary size: translate time per sentence ({t.model_name}, {len(SPEED_SENTENCES)} sentences x {repeats}, "
        f"greedy, 16 tokens at most), load {os.getloadavg()[0]:.1f} at the start"
    )
    print(
        "| entries | file | load ms | first sentence ms (builds the automaton) | ms/sentence, median | "
        "matching ms/sentence | before (one expression per entry) ms/sentence |"
    )
    print("|---|---|---|---|---|---|---|")
    for size in sizes:
        made = [
            "".join(rng.choices(letters, k=rng.randint(5, 12))) + f" x{n}\t" + "".join(rng.choices(han, k=5))
            for n in range(size - 8)
        ]
        text = SPEED_GLOSSARY + "\n".join(made) + "\n"
        started = time.perf_counter()
        glossary = Glossary.parse(text)
        load_ms = (time.perf_counter() - started) * 1000
        options = DecodeOptions(max_new_tokens=16, glossary=glossary)
        started = time.perf_counter()
        t.translate(SPEED_SENTENCES[0], options)
        first_ms = (time.perf_counter() - started) * 1000
        took, matching = [], []
        for _ in range(repeats):
            for sentence in SPEED_SENTENCES:
                started = time.perf_counter()
                t.translate(sentence, options)
                took.append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                glossary.matches(sentence, "en-zh")
                matching.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()  # the old way: once, on one sentence (22 s at 100,000 entries)
        reference_matches(glossary, SPEED_SENTENCES[0], "en-zh")
        before_ms = (time.perf_counter() - started) * 1000
        print(
            f"| {size:,} | {len(text.encode()) / 1e6:.1f} MB | {load_ms:.0f} | {first_ms:.0f} | "
            f"{statistics.median(took):.1f} | {statistics.median(matching):.2f} | {before_ms:.0f} |",
            flush=True,
        )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 repeats instead of 5")
    parser.add_argument("--tokens", type=int, default=16, help="output tokens per sentence (forced)")
    parser.add_argument("--skip-success", action="store_true", help="only the cost per token")
    parser.add_argument("--scale", action="store_true", help="only the time per sentence by glossary size")
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 10_000, 100_000], help="--scale's glossary sizes")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    if args.scale:
        scale(2 if args.quick else 5, args.sizes)
        return 0
    if not args.skip_success:
        term_success()
    speed(2 if args.quick else 5, args.tokens)
    print(f"\n({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
