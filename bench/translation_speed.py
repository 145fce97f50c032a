"""Translation speed: our ONNX engine vs CTranslate2, PyTorch generate and optimum, interleaved.

    .venv/bin/python -m bench.translation_speed --quick     # a couple of minutes
    .venv/bin/python -m bench.translation_speed             # the table in docs/performance.md
    .venv/bin/python -m bench.translation_speed --quick --small --engines ours,ct2 --precisions fp32 --no-first-load
                                                            # seconds: tries the bench on a small model

Builds (once, cached) the full-size opus-mt-en-zh architecture with random weights, replicas
of what the catalog downloads (optimum's plain merged graphs under onnx/, the tied head reading
the embedding's transpose; int8 twins of all MatMuls, and twins of the weights only, the two
kinds transformers.js has made: rows "int8" and "int8-wo"), our own export of it and its
CTranslate2 conversion
(bench_model.py). "ours" runs the catalog replica (`--layout export`: our export), loaded as the
app loads it after a first load: optimised, from the cache. The first load (optimisation
included), a later load and the peak RSS of `python -m app translate` are measured first, in
their own processes, with an empty cache. Each engine runs in its own
worker process (so peak memory and load time are its own); the main process sends the same
sentence to each worker in turn, rotating the order, so background load hits all alike.
Output length is forced (min = max new tokens) because random weights make EOS meaningless.
Reported: medians of per-sentence latency and ms per output token (encoder included), ratios,
our step 5 vs step 100 time, load time and peak RSS. Ours is timed by what the product
reports (encoder_ms + decode_ms, as `python -m app translate --json` prints them).
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
import traceback
from pathlib import Path

from bench import engines
from bench._common import ROOT
from bench.bench_model import add_size_option, build

SENTENCES = [
    "Good morning everyone, and thank you for joining the meeting today.",
    "The weather will be cold tomorrow, so please bring a warm coat with you.",
    "I don't know whether the train leaves at nine or at ten in the evening.",
    "We are going to eat at the new restaurant near the station after work.",
    "Could you please tell me where the nearest hospital is?",
    "My friend from Beijing is visiting us next week for the first time.",
    "Please sit down and let me explain what happened yesterday at the office.",
    "It has been raining outside all day, and the streets are full of water.",
]
LABELS = {"ours": "ours", "ct2": "CTranslate2", "pytorch": "PyTorch", "optimum": "optimum"}
STEP_EARLY, STEP_LATE = 5, 100


def _worker(conn, engine: str, int8: bool, paths: dict) -> None:
    try:
        start = time.perf_counter()
        runner = engines.load(engine, int8, paths)
        conn.send({"load_ms": (time.perf_counter() - start) * 1000, "name": runner.name})
    except Exception:  # reported in the table as N/A, with the reason
        conn.send({"error": traceback.format_exc(limit=3)})
        return
    while (job := conn.recv()) is not None:
        try:
            cpu = time.process_time()
            result = runner.run(*job)
            result["cpu_ms"] = (time.process_time() - cpu) * 1000  # every thread of this process
            conn.send(result)
        except Exception:
            conn.send({"error": traceback.format_exc(limit=3)})
    conn.send({"peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024})


class Worker:
    def __init__(self, engine: str, int8: bool, paths: dict):
        self.engine = engine
        self.conn, child = mp.Pipe()
        self.process = mp.get_context("spawn").Process(target=_worker, args=(child, engine, int8, paths), daemon=True)
        self.process.start()
        self.info = self.conn.recv()  # load one worker at a time: load times do not contend
        self.error = self.info.get("error")

    def run(self, text: str, beams: int, tokens: int) -> dict:
        self.conn.send((text, beams, tokens))
        result = self.conn.recv()
        time.sleep(0.05)  # let this engine's spinning threads go idle before the next engine runs
        return result

    def close(self) -> None:
        if not self.error:
            self.conn.send(None)
            self.info.update(self.conn.recv())
        self.process.join(timeout=30)


def median(values):
    return statistics.median(values) if values else None


def fmt(value, digits=1):
    return "N/A" if value is None else f"{value:.{digits}f}"


# precision -> the replica "ours" runs (bench_model.BenchModels' field); both int8 kinds of twin
REPLICAS = {"fp32": "onnx_catalog", "int8": "onnx_catalog", "int8-wo": "onnx_catalog_q8"}
PRECISION_NOTES = {
    "int8": "int8 twins of all MatMuls (Xenova)",
    "int8-wo": "int8 twins of the weights only (MatMulConstBOnly: quantize_q8, onnx-community)",
}


def measure(precision: str, rows, sentences, repeats, paths, wanted) -> tuple[list, dict]:
    int8 = precision.startswith("int8")
    if paths["ours"] != "onnx":  # the catalog replicas: the one of this kind of int8 twin
        paths = {**paths, "ours": REPLICAS[precision]}
    workers = {}
    for engine in wanted:
        print(f"[{precision}] loading {engine} ...", file=sys.stderr, flush=True)
        workers[engine] = Worker(engine, int8, paths)
        if workers[engine].error:
            print(f"[{precision}] {engine} failed to load:\n{workers[engine].error}", file=sys.stderr)
    live = [w for w in workers.values() if not w.error]
    for w in live:  # warm-up: first calls allocate buffers and pick kernels
        for beams in sorted({b for b, _ in rows}):
            w.run(sentences[0], beams, 8)
    results = []
    turn = 0
    for beams, tokens in rows:
        samples = {w.engine: [] for w in live}
        errors = {}
        for _ in range(repeats):
            for text in sentences:
                turn += 1
                order = live[turn % len(live) :] + live[: turn % len(live)]
                for w in order:
                    r = w.run(text, beams, tokens)
                    if "error" in r:
                        errors[w.engine] = r["error"]
                    else:
                        samples[w.engine].append(r)
        for engine, error in errors.items():
            print(f"[{precision}] {engine} failed (beams {beams}, {tokens} tokens):\n{error}", file=sys.stderr)
        results.append({"precision": precision, "beams": beams, "tokens": tokens, "samples": samples})
        print(
            f"[{precision}] {row_line(results[-1], [e for e in wanted if e != 'ours'])}  "
            f"(load {os.getloadavg()[0]:.1f})",
            file=sys.stderr,
            flush=True,
        )
    for w in workers.values():
        w.close()
    return results, {e: w.info for e, w in workers.items()}


def per_token(samples, key="wall_ms"):
    """Median latency per sentence and per output token, from each sample's own token count."""
    if not samples:
        return None, None
    return (median([s[key] for s in samples]), median([s[key] / max(s["out_tokens"], 1) for s in samples]))


def tokens_per_s(samples, key):
    return median([s["out_tokens"] / (s[key] / 1000) for s in samples]) if samples else None


def row_line(row, others) -> str:
    s = row["samples"]
    ours_sent, ours_tok = per_token(s.get("ours"), "product_ms")
    _, ours_wall = per_token(s.get("ours"))
    peer = {e: per_token(s.get(e))[1] for e in others}
    lengths = {e: sorted({x["out_tokens"] for x in v}) for e, v in s.items()}
    flag = "" if all(v == [row["tokens"]] for v in lengths.values()) else f" (lengths differ: {lengths})"
    ratio = lambda a, b: None if a is None or b is None else a / b  # noqa: E731
    cells = [
        row["precision"],
        "greedy" if row["beams"] == 1 else f"beam {row['beams']}",
        f"{row['tokens']}{flag}",
        fmt(ours_sent),
        fmt(ours_tok, 2),
        fmt(ours_wall, 2),
    ]
    cells += [fmt(peer[e], 2) for e in others]
    cells += [
        fmt(ratio(ours_tok, peer.get("ct2")), 2),
        fmt(ratio(peer.get("pytorch"), ours_tok), 2),
        fmt(ratio(peer.get("optimum"), ours_tok), 2),
    ]
    return "| " + " | ".join(cells) + " |"


def report(results, infos, wanted, args, models) -> None:
    ours = (
        "the catalog replica (optimum's merged graphs, transformers.js int8 twins), optimised by the app on first load"
        if args.layout == "catalog"
        else "exported by models.export (merged, fused attention, shared self-attention cache)"
    )
    print(
        f"\nModel: {models.shape.describe()}, random weights; ours: {ours}; optimum's graphs by optimum (split); "
        f"{engines.THREADS} intra-op threads everywhere; {len(args.sentences)} sentences x {args.repeats} "
        f"repeats, interleaved; load average at start {args.load_at_start}; peers' threads "
        f"{'passive (no spinning)' if args.passive_peers else 'as they come (spinning)'}."
    )
    for precision, note in PRECISION_NOTES.items():
        print(f"{precision}: ours on the replica with {note}; CTranslate2 int8 either way.")
    print("ms/tok = median over sentences of (sentence latency incl. encoder / forced output tokens).")
    print(
        "ours = encoder_ms + decode_ms as the engine reports them (python -m app translate --json); "
        "ours wall = the whole translate() call incl. tokenization.\n"
    )
    others = [e for e in wanted if e != "ours"]
    head = ["precision", "search", "tokens", "ours ms/sent", "ours ms/tok", "ours wall ms/tok"]
    head += [f"{LABELS[e]} ms/tok" for e in others]
    head += ["ours/CTranslate2", "PyTorch/ours", "optimum/ours"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for row in results:
        print(row_line(row, others))

    print(
        "\nOutput tokens per second (median over sentences of tokens / sentence latency, encoder included; "
        "ours from encoder_ms + decode_ms):\n"
    )
    print("| precision | search | tokens | " + " | ".join(LABELS[e] for e in wanted) + " |")
    print("|---|---|---|" + "---|" * len(wanted))
    for row in results:
        rates = {e: tokens_per_s(row["samples"].get(e), "product_ms" if e == "ours" else "wall_ms") for e in wanted}
        search = "greedy" if row["beams"] == 1 else f"beam {row['beams']}"
        print(
            f"| {row['precision']} | {search} | {row['tokens']} | "
            + " | ".join(fmt(rates[e], 0) for e in wanted)
            + " |"
        )

    print(
        "\nCPU time per output token (ms, median; the process's CPU time over all its threads, so "
        "waiting for a core does not count, but spinning threads do; use --passive-peers for a fair view):\n"
    )
    print("| precision | search | tokens | " + " | ".join(LABELS[e] for e in wanted) + " | ours/CTranslate2 |")
    print("|---|---|---|" + "---|" * (len(wanted) + 1))
    for row in results:
        cpu = {
            e: per_token(row["samples"].get(e), "cpu_ms")[1]
            if all("cpu_ms" in x for x in row["samples"].get(e, []))
            else None
            for e in wanted
        }
        ratio = None if cpu.get("ours") is None or cpu.get("ct2") is None else cpu["ours"] / cpu["ct2"]
        search = "greedy" if row["beams"] == 1 else f"beam {row['beams']}"
        print(
            f"| {row['precision']} | {search} | {row['tokens']} | "
            + " | ".join(fmt(cpu[e], 2) for e in wanted)
            + f" | {fmt(ratio, 2)} |"
        )

    print(
        "\nOur decoder step time, median ms (a working cache keeps step 100 close to step 5). wall = "
        "DecodeStep.ms; CPU = process CPU time of the step (all threads), blind to waiting for a core:\n"
    )
    print("| precision | search | wall step 5 | wall step 100 | wall 100/5 | CPU step 5 | CPU step 100 | CPU 100/5 |")
    print("|---|---|---|---|---|---|---|---|")
    for row in results:
        ours = [x for x in row["samples"].get("ours", []) if len(x.get("step_ms", [])) > STEP_LATE]
        if ours:
            cells = []
            for key in ("step_ms", "step_cpu_ms"):
                early = median([x[key][STEP_EARLY] for x in ours])
                late = median([x[key][STEP_LATE] for x in ours])
                cells += [f"{early:.2f}", f"{late:.2f}", f"{late / early:.2f}"]
            search = "greedy" if row["beams"] == 1 else f"beam {row['beams']}"
            print(f"| {row['precision']} | {search} | " + " | ".join(cells) + " |")

    print("\nLoad time and peak memory (each engine in its own process; RSS includes Python and libraries):\n")
    print("| precision | engine | load s | peak RSS MB |")
    print("|---|---|---|---|")
    for precision, per_engine in infos.items():
        for engine, info in per_engine.items():
            name = info.get("name", LABELS[engine])
            load_s = None if "load_ms" not in info else info["load_ms"] / 1000
            print(f"| {precision} | {name} | {fmt(load_s, 2)} | {fmt(info.get('peak_rss_mb'), 0)} |")


def first_loads(folders: dict[str, Path], precisions: list[str]) -> list[dict]:
    """`python -m app translate` on the folder with an empty optimisation cache, twice per
    precision: the first load (optimises), then a later one (from the cache); wall time and the
    process's peak RSS."""
    cache = Path(os.environ["LIVE_TRANSLATOR_CACHE"])
    shutil.rmtree(cache / "optimized", ignore_errors=True)
    code = (
        "import resource, sys; from app.cli import main; rc = main(sys.argv[1:]); "
        "sys.stderr.write(f'PEAK_RSS_KB {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}\\n'); sys.exit(rc)"
    )
    rows = []
    for precision in precisions:
        int8, folder = precision.startswith("int8"), folders[precision]
        weights = sum(
            p.stat().st_size
            for p in (folder / "onnx").glob("*_quantized.onnx" if int8 else "*.onnx")
            if int8 or not p.stem.endswith("_quantized")
        )
        for which in ("first load (optimises)", "later load (cache)"):
            command = [
                sys.executable,
                "-c",
                code,
                "translate",
                "--model",
                str(folder),
                "--direction",
                "en-zh",
                "--max-new-tokens",
                "8",
                "--json",
                SENTENCES[0],
            ] + (["--quantized"] if int8 else [])
            start = time.perf_counter()
            done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
            seconds = time.perf_counter() - start
            if done.returncode != 0:
                print(f"[{precision}] translate failed:\n{done.stderr}", file=sys.stderr)
                continue
            peak = next(int(line.split()[1]) for line in done.stderr.splitlines() if line.startswith("PEAK_RSS_KB"))
            rows.append(
                {
                    "precision": precision,
                    "which": which,
                    "s": seconds,
                    "peak_rss_mb": peak / 1024,
                    "weights_mb": weights / 2**20,
                    "stderr": done.stderr.strip().splitlines()[:-1],
                }
            )
            print(f"[{precision}] {which}: {seconds:.1f} s, peak RSS {peak / 1024:.0f} MB", file=sys.stderr, flush=True)
    return rows


def report_first_loads(rows) -> None:
    print(
        "\n`python -m app translate` (8 tokens) on the catalog replica, each in its own process; the process's "
        "wall time (Python start-up and imports included) and peak RSS; target RSS = 1.2 x weights + 150 MB:\n"
    )
    print("| precision | load | s | peak RSS MB | weights on disk MiB | target MB | what it said |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        said = "; ".join(line for line in r["stderr"] if not line.startswith(("WARNING", "INFO")))[:120]
        print(
            f"| {r['precision']} | {r['which']} | {r['s']:.1f} | {r['peak_rss_mb']:.0f} | {r['weights_mb']:.0f} | "
            f"{1.2 * r['weights_mb'] * 2**20 / 1e6 + 150:.0f} | {said} |"
        )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 sentences, 1 repeat, fewer rows")
    parser.add_argument(
        "--engines", default=",".join(engines.ENGINES), help="comma list of " + ",".join(engines.ENGINES)
    )
    parser.add_argument(
        "--precisions",
        default="fp32,int8,int8-wo",
        help="fp32; int8: the twins of all MatMuls; int8-wo: the twins of the weights only "
        "(both against CTranslate2 int8)",
    )
    parser.add_argument("--sentences", type=int, default=None, help="how many sentences (default 4, quick 2)")
    parser.add_argument("--repeats", type=int, default=None, help="passes over the sentences (default 1)")
    parser.add_argument(
        "--passive-peers",
        action="store_true",
        help="peers' threads sleep instead of spinning too (OMP_WAIT_POLICY=PASSIVE for "
        "CTranslate2/PyTorch, allow_spinning=0 for optimum): fairer on a busy machine",
    )
    parser.add_argument(
        "--layout",
        choices=("catalog", "export"),
        default="catalog",
        help="what 'ours' runs: the catalog replica, optimised on first load (default), or our export",
    )
    parser.add_argument("--no-first-load", action="store_true", help="skip the first-load and memory rows")
    add_size_option(parser)
    args = parser.parse_args(argv)
    os.environ["OMP_NUM_THREADS"] = str(engines.THREADS)  # before any worker imports torch / CTranslate2
    if args.passive_peers:
        os.environ["OMP_WAIT_POLICY"] = "PASSIVE"
    models = build(log=lambda m: print(m, file=sys.stderr, flush=True), size="small" if args.small else "full")
    # The app's cache (optimised graphs) for this benchmark only; the workers inherit it.
    os.environ["LIVE_TRANSLATOR_CACHE"] = str(models.hf.parent / "app-cache")
    paths = {
        "hf": models.hf,
        "onnx": models.onnx,
        "onnx_optimum": models.onnx_optimum,
        "onnx_catalog": models.onnx_catalog,
        "onnx_catalog_q8": models.onnx_catalog_q8,
        "ct2_fp32": models.ct2_fp32,
        "ct2_int8": models.ct2_int8,
        "ours": "onnx_catalog" if args.layout == "catalog" else "onnx",
    }
    precisions = [p for p in args.precisions.split(",") if args.layout == "catalog" or p != "int8-wo"]
    folders = {p: getattr(models, REPLICAS[p]) for p in precisions}
    loads = [] if args.no_first_load or args.layout != "catalog" else first_loads(folders, precisions)
    wanted = [e for e in args.engines.split(",") if e]
    long = STEP_LATE + 4  # long enough to time step 100
    if args.quick:
        rows = [(1, 20), (4, 20), (1, long)]
        n_sentences, args.repeats = args.sentences or 2, args.repeats or 1
    else:
        rows = [(1, 20), (4, 20), (1, long), (4, long)]
        n_sentences, args.repeats = args.sentences or 4, args.repeats or 1
    args.sentences = SENTENCES[:n_sentences]
    args.load_at_start = " ".join(f"{x:.2f}" for x in os.getloadavg())
    results, infos = [], {}
    for precision in precisions:
        r, infos[precision] = measure(precision, rows, args.sentences, args.repeats, paths, wanted)
        results += r
    report(results, infos, wanted, args, models)
    if loads:
        report_first_loads(loads)
    print(f"\nload average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
