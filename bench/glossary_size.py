"""How a large glossary weighs on a live session (issue 42): the delay of each final translation
after the speaker stopped, `run --input --realtime` with glossaries of 0 to 500,000 entries, in
alternating rounds; the process's peak memory; and, in this process, how long a glossary takes to
be in use (built on the `glossary-builder` thread, paced) and the longest any other thread waited
for Python's lock meanwhile.

    .venv/bin/python -m bench.glossary_size                 # 0, 50,000, 200,000, 500,000; 2 rounds
    .venv/bin/python -m bench.glossary_size --sizes 0 500000 --rounds 3
    .venv/bin/python -m bench.glossary_size --sizes 1000 --rounds 1 --sentences 1   # seconds: tries the bench

Speech: espeak-ng, the phrasebook's six English sentences 1.2 s apart (tests/pipeline/conftest.py);
Whisper tiny.en; the phrasebook en-zh model; the glossary's terms are made up (none is spoken)
plus `Kubernetes`. Medians, and the load average beside each (the machine is shared).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import soundfile as sf

from app.audio import SAMPLE_RATE
from app.audio.sources import FileSource
from app.pipeline.glossary_builder import GlossaryBuilder
from app.shared.glossary import Glossary
from bench._common import ROOT
from models.glossary_cases import Ticker, big_glossary
from models.phrasebook import SPOKEN_EN

PEAK_RSS = (
    "import resource, subprocess, sys; done = subprocess.run(sys.argv[1:]); "
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); sys.exit(done.returncode)"
)


def speech(folder: Path, sentences: int) -> Path:
    parts = [np.zeros(SAMPLE_RATE // 2, np.float32)]
    for n, text in enumerate(SPOKEN_EN[:sentences]):
        clip = folder / f"{n}.wav"
        subprocess.run(["espeak-ng", "-v", "en-us", "-w", str(clip), text], check=True)
        source = FileSource(clip, realtime=False)
        source.start()
        while (block := source.read()) is not None:
            parts.append(block)
        parts.append(np.zeros(int(1.2 * SAMPLE_RATE), np.float32))
    path = folder / "six.wav"
    sf.write(path, np.concatenate(parts), SAMPLE_RATE)
    return path


def one_run(wav: Path, glossary: Path | None, home: str) -> tuple[list[float], float]:
    """(each final's delay in s, peak RSS in MB) of one `run`."""
    command = [sys.executable, "-c", PEAK_RSS, sys.executable, "-m", "app", "run", "--direction", "en-zh"]
    command += ["--nmt-model", str(ROOT / "tests/fixtures/phrasebook/en-zh"), "--asr-model", "tiny.en"]
    command += ["--input", str(wav), "--realtime", "--no-tts", "--json"] + (
        ["--glossary", str(glossary)] if glossary else []
    )
    done = subprocess.run(
        command, capture_output=True, text=True, cwd=ROOT, env={**os.environ, "LIVE_TRANSLATOR_HOME": home}
    )
    if done.returncode != 0:
        raise SystemExit(f"run failed ({done.returncode}): {done.stderr[-2000:]}")
    events = [json.loads(line) for line in done.stdout.splitlines()]
    late = [e["latency_ms"] / 1000 for e in events if e["type"] == "translation" and not e["provisional"]]
    return late, int(done.stderr.strip().splitlines()[-1]) / 1024


def in_use(entries: int) -> tuple[float, float, float]:
    """(s to read, s until in use, longest wait of another thread in s) for a glossary of `entries`."""
    began = time.perf_counter()
    glossary = Glossary.parse(big_glossary(entries))
    read = time.perf_counter() - began
    ready = threading.Event()
    with Ticker() as ticker:
        began = time.perf_counter()
        GlossaryBuilder(lambda g: ready.set()).offer(glossary)
        ready.wait()
        built = time.perf_counter() - began
    return read, built, ticker.longest


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[0, 50_000, 200_000, 500_000])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--sentences", type=int, default=len(SPOKEN_EN), help="how many of the six sentences")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="glossary-size-"))
    wav = speech(folder, args.sentences)
    files = {}
    for size in args.sizes:
        if size:
            files[size] = folder / f"g{size}.tsv"
            files[size].write_text(big_glossary(size), encoding="utf-8")
    delays: dict[int, list[float]] = {size: [] for size in args.sizes}
    peaks: dict[int, list[float]] = {size: [] for size in args.sizes}
    loads = []
    for round_ in range(args.rounds):
        order = args.sizes if round_ % 2 == 0 else list(reversed(args.sizes))  # ABBA
        for size in order:
            late, peak = one_run(wav, files.get(size), str(folder / "home"))
            delays[size] += late
            peaks[size].append(peak)
            loads.append(os.getloadavg()[0])
            print(
                f"round {round_ + 1}, {size:,} entries: finals {[round(x, 2) for x in late]} s, "
                f"peak {peak:.0f} MB, load {loads[-1]:.1f}",
                flush=True,
            )
    print(
        f"\n`run --input` {args.sentences} sentences, --realtime, tiny.en; "
        f"load average {min(loads):.1f}-{max(loads):.1f}"
    )
    print("| glossary | finals, median s | finals, max s | finals | peak RSS MB |")
    print("|---|---|---|---|---|")
    for size in args.sizes:
        print(
            f"| {size:,} | {statistics.median(delays[size]):.2f} | {max(delays[size]):.2f} | "
            f"{len(delays[size])} | {statistics.median(peaks[size]):.0f} |"
        )
    print("\nIn this process: read, built until in use (paced), longest wait of another thread")
    print("| entries | read s | in use after s | longest wait s | load |")
    print("|---|---|---|---|---|")
    for size in args.sizes:
        if size:
            read, built, longest = in_use(size)
            print(f"| {size:,} | {read:.1f} | {built:.1f} | {longest:.2f} | {os.getloadavg()[0]:.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
