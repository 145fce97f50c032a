"""The tied embedding stored once vs twice: disk, resident memory and step time of the fp32 decoder.

    .venv/bin/python -m bench.tied_embedding [--rounds 3] [--repeats 6] [--tokens 40]
    .venv/bin/python -m bench.tied_embedding --small --rounds 1 --repeats 1 --tokens 5   # seconds: tries the bench

On the catalog replica (bench_model.py: the full-size opus-mt-en-zh architecture, vocab 65001),
the fp32 merged decoder is optimised as the app optimised it before (attention fused,
self-attention cache shared, weights external: "two copies") and as it does now (the same,
then `share_tied_embedding`: the LM head reads the embedding table's bytes, "one copy").
Memory: each variant loaded in its own process, alternately, `rounds` times: RSS after load,
after decoding, the process's peak, and the token ids (greedy and beam 4), compared. Speed:
both variants loaded in one process, taking turns sentence by sentence `repeats` times, so the
machine's other load falls on both alike: the median ms of a greedy and of a beam-4 step (the
first step excluded). Printed: medians, the ratio one/two, the decoder's size on disk, and the
load average.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

from bench._common import ROOT, bench_command
from bench.bench_model import add_size_option, build

DECODER = "decoder_model_merged.onnx"
ENCODER = "encoder_model.onnx"
SENTENCES = (
    "Good morning everyone, and thank you for joining the meeting today.",
    "Could you please tell me where the nearest hospital is?",
)


def rss_mb() -> float:
    return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def build_variants(catalog: Path, root: Path) -> dict[str, Path]:
    """root/two and root/one: the optimised fp32 decoder without and with the shared table (and
    the encoder, external, in root/encoder)."""
    from app.model_store.graph_tools import externalize  # lazy: in the child processes whose memory is measured
    from app.model_store.optimize import fuse_attention
    from app.model_store.self_cache import share_self_cache
    from app.model_store.tied_embedding import share_tied_embedding

    done = root / ".done"
    if not done.exists():
        shutil.rmtree(root, ignore_errors=True)
        for name in ("two", "one", "encoder"):
            (root / name).mkdir(parents=True)
        heads = json.loads((catalog / "config.json").read_text(encoding="utf-8"))["decoder_attention_heads"]
        two = root / "two" / DECODER
        shutil.copyfile(catalog / "onnx" / DECODER, two)
        fuse_attention(two, heads)
        share_self_cache(two)
        shutil.copyfile(two, root / "one" / DECODER)
        externalize(two)
        if not share_tied_embedding(root / "one" / DECODER):
            raise SystemExit("share_tied_embedding found no tied head in the replica's decoder")
        externalize(catalog / "onnx" / ENCODER, root / "encoder" / ENCODER)
        done.write_text("ok\n")
    return {"two": root / "two" / DECODER, "one": root / "one" / DECODER, "encoder": root / "encoder" / ENCODER}


def load(catalog: Path, decoder: Path, encoder: Path):
    from app.translation import Translator  # lazy: in the child processes whose memory is measured

    return Translator.load(catalog, "en-zh", graphs={"decoder_model_merged": decoder, "encoder_model": encoder})


def decode(translator, beams: int, tokens: int, text: str):
    from app.translation import DecodeOptions  # lazy: in the child processes whose memory is measured

    options = DecodeOptions(num_beams=beams, max_new_tokens=tokens, min_new_tokens=tokens, loop_window=0)
    return translator.translate(text, options)


def memory_child(catalog: Path, decoder: Path, encoder: Path, tokens: int) -> None:
    """One variant in this process: RSS after load, after decoding, the peak; the token ids."""
    import onnxruntime  # noqa: F401  (its import is not the model's memory)

    base = rss_mb()
    translator = load(catalog, decoder, encoder)
    out = {"load_mb": rss_mb() - base}
    ids = [decode(translator, beams, tokens, text).token_ids for beams in (1, 4) for text in SENTENCES]
    out["after_mb"] = rss_mb() - base
    out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out["ids"] = hashlib.sha256(json.dumps(ids).encode()).hexdigest()[:12]
    print(json.dumps(out), flush=True)


def speed_child(catalog: Path, two: Path, one: Path, encoder: Path, tokens: int, repeats: int) -> None:
    """Both variants in this process, taking turns sentence by sentence (the order alternating),
    so the other helpers' load falls on both alike: every step's ms (the first step excluded)."""
    translators = {"two": load(catalog, two, encoder), "one": load(catalog, one, encoder)}
    ms = {(which, beams): [] for which in translators for beams in (1, 4)}
    for repeat in range(repeats):
        for beams in (1, 4):
            for text in SENTENCES:
                for which in ("two", "one") if repeat % 2 == 0 else ("one", "two"):
                    ms[which, beams] += [s.ms for s in decode(translators[which], beams, tokens, text).steps[1:]]
    print(json.dumps({f"{which} {beams}": statistics.median(v) for (which, beams), v in ms.items()}), flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="memory: processes per variant")
    parser.add_argument("--repeats", type=int, default=6, help="speed: passes over the sentences")
    parser.add_argument("--tokens", type=int, default=40)
    parser.add_argument("--memory-child", nargs=3, help=argparse.SUPPRESS)
    parser.add_argument("--speed-child", nargs=4, help=argparse.SUPPRESS)
    add_size_option(parser)
    args = parser.parse_args(argv)
    os.environ.setdefault("USE_TORCH", "0")  # as the app's commands run
    if args.memory_child:
        memory_child(*map(Path, args.memory_child), args.tokens)
        return 0
    if args.speed_child:
        speed_child(*map(Path, args.speed_child), args.tokens, args.repeats)
        return 0

    models = build(log=lambda m: print(m, file=sys.stderr, flush=True), size="small" if args.small else "full")
    catalog = models.onnx_catalog_copied_head  # two tables as downloaded: the "before" of this bench
    paths = build_variants(catalog, models.hf.parent / "tied-embedding-v1")
    print(f"{models.shape.describe()}; load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")

    def child(*extra) -> dict:
        command = [*bench_command(__spec__.name), "--tokens", str(args.tokens), "--repeats", str(args.repeats), *extra]
        done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
        if done.returncode != 0:
            raise SystemExit(f"{extra[0]} failed:\n{done.stderr}")
        return json.loads(done.stdout.strip().splitlines()[-1])

    runs = {"two": [], "one": []}
    for round_ in range(args.rounds):
        for which in ("two", "one") if round_ % 2 == 0 else ("one", "two"):
            runs[which].append(child("--memory-child", str(catalog), str(paths[which]), str(paths["encoder"])))
            print(f"  round {round_ + 1} {which}: {runs[which][-1]}", file=sys.stderr, flush=True)
    speed = child("--speed-child", str(catalog), str(paths["two"]), str(paths["one"]), str(paths["encoder"]))

    def size(decoder: Path) -> float:
        return sum(p.stat().st_size for p in decoder.parent.glob(decoder.name + "*")) / 2**20

    print(
        "\n| fp32 decoder | on disk MiB | RSS after load MB | RSS after decoding MB | peak RSS MB | "
        "greedy ms/step | beam 4 ms/step |"
    )
    print("|---|---|---|---|---|---|---|")
    rows = {}
    for which, label in (
        ("two", "embedding + transposed head (before)"),
        ("one", "one table, FusedMatMul transB (now)"),
    ):
        rows[which] = {
            key: statistics.median(r[key] for r in runs[which]) for key in ("load_mb", "after_mb", "peak_mb")
        }
        rows[which].update(disk=size(paths[which]), beam1=speed[f"{which} 1"], beam4=speed[f"{which} 4"])
        r = rows[which]
        print(
            f"| {label} | {r['disk']:.0f} | {r['load_mb']:.0f} | {r['after_mb']:.0f} | {r['peak_mb']:.0f} | "
            f"{r['beam1']:.2f} | {r['beam4']:.2f} |"
        )
    ratio = {key: rows["one"][key] / rows["two"][key] for key in rows["one"]}
    print(
        f"| ratio now / before | {ratio['disk']:.2f} | {ratio['load_mb']:.2f} | {ratio['after_mb']:.2f} | "
        f"{ratio['peak_mb']:.2f} | {ratio['beam1']:.2f} | {ratio['beam4']:.2f} |"
    )
    same = {r["ids"] for r in runs["two"] + runs["one"]}
    print(f"\nsame token ids (greedy and beam 4, {args.tokens} tokens, {len(SENTENCES)} sentences): {len(same) == 1}")
    print(
        f"memory: {args.rounds} process(es) per variant, alternating; speed: both in one process, taking turns "
        f"sentence by sentence, {args.repeats} passes; load average at end: "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
