"""The quality cost of int8: token agreement of our engine's int8 and fp32 outputs on the fixtures.

    .venv/bin/python -m bench.int8_agreement [--quick]

For each committed fixture model in the layout `models export` writes (tests/fixtures/nmt/<name>/
merged-fused: fused attention, shared self-attention cache), quantizes a copy with the
project's own `models.export.quantize_dynamic_folder`, then translates every reference text
of every greedy/beam case with the fp32 and the int8 files and compares the generated ids.
Agreement = matching positions / the longer output; also the share of outputs that are
identical. The fixtures have random weights with small margins between tokens, so this is a
pessimistic view of what int8 does to a trained model.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import shutil
import sys
import tempfile
from pathlib import Path

from app.translation import DecodeOptions, Translator
from bench._common import FIXTURES
from models.export import quantize_dynamic_folder


def agreement(a: list[int], b: list[int]) -> float:
    return sum(x == y for x, y in zip(a, b)) / max(len(a), len(b), 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one fixture model, its first case in each direction")
    args = parser.parse_args(argv)
    fields = {f.name for f in dataclasses.fields(DecodeOptions)}
    print("| model | direction | case | outputs | identical | token agreement |")
    print("|---|---|---|---|---|---|")
    totals = []
    for refs in sorted(FIXTURES.glob("*/references.json"))[: 1 if args.quick else None]:
        family_dir = refs.parent
        with tempfile.TemporaryDirectory(prefix="lt-int8-") as tmp:
            folder = Path(tmp) / family_dir.name
            shutil.copytree(family_dir / "merged-fused", folder)
            quantize_dynamic_folder(folder)
            for direction in json.loads(refs.read_text())["directions"]:
                fp32 = Translator.load(folder, direction["direction"])
                int8 = Translator.load(folder, direction["direction"], prefer_quantized=True)
                for case in direction["cases"][: 1 if args.quick else None]:
                    options = DecodeOptions(**{k: v for k, v in case["settings"].items() if k in fields})
                    scores, same = [], 0
                    for item in case["results"]:
                        a = fp32.translate(item["text"], options).token_ids
                        b = int8.translate(item["text"], options).token_ids
                        scores.append(agreement(a, b))
                        same += a == b
                    totals += scores
                    n = len(scores)
                    print(
                        f"| {family_dir.name} | {direction['direction']} | {case['name']} | {n} | "
                        f"{same}/{n} | {100 * sum(scores) / n:.1f}% |",
                        flush=True,
                    )
    print(f"\nOverall token agreement int8 vs fp32: {100 * sum(totals) / len(totals):.1f}% over {len(totals)} outputs.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
