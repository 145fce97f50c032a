"""The caption server under load: does it slow the pipeline down? Does its memory grow?

A recording of espeak-ng speech is fed at speaking speed (as a microphone would deliver it)
through the whole pipeline (Silero VAD + Whisper base + the phrasebook translation model), in
rounds that alternate (ABBA): without the caption server, and with it serving 50 event-stream
clients that read everything plus one that never reads a byte (in a child process, as phones
and OBS are). Prints the median latency (end of speech -> final translation) of each kind of
run and their ratio, the process's memory (RSS) at the start and end of each run, and the CPU
time the server's thread used (a figure that a busy machine's noise does not blur).

    .venv/bin/python -m bench.captions_load [--rounds 3] [--clients 50] [--utterances 8] [--asr-model base]
    .venv/bin/python -m bench.captions_load --rounds 1 --clients 2 --utterances 1 --asr-model tiny.en  # seconds
"""

from __future__ import annotations

import argparse
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

from app.asr import StreamingRecognizer, load_whisper
from app.captions import CaptionServer
from app.pipeline import Pipeline, PipelineConfig
from app.shared.events import Translation
from bench._common import PHRASEBOOK, bench_command
from bench.pipeline_latency import make_recording


def stream(port: int, receive_buffer: int | None = None) -> socket.socket:
    sock = socket.socket()
    if receive_buffer:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.connect(("127.0.0.1", port))
    sock.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    return sock


def pages(port: int, clients: int) -> int:
    """The child process: `clients` pages that read everything and one that never reads, until
    stdin closes; prints how many bytes the readers got."""
    socks = [stream(port) for _ in range(clients)]
    stuck = stream(port, receive_buffer=4096)
    selector = selectors.DefaultSelector()
    for sock in socks:
        selector.register(sock, selectors.EVENT_READ)
    selector.register(sys.stdin, selectors.EVENT_READ)
    received = 0
    print("ready", flush=True)
    while True:
        for key, _ in selector.select():
            if key.fileobj is sys.stdin:
                print(received, flush=True)
                stuck.close()
                return 0
            data = key.fileobj.recv(1 << 16)
            if not data:
                selector.unregister(key.fileobj)
            received += len(data)


def run_once(wav: Path, recognizer, clients: int) -> dict:
    latencies: list[float] = []

    def collect(event) -> None:
        if isinstance(event, Translation) and not event.provisional and event.latency_ms is not None:
            latencies.append(event.latency_ms)

    observers = [collect]
    server = child = None
    if clients:  # the pages live in another process, as phones and OBS do
        server = CaptionServer(port=0)
        server.start()
        observers.append(server.on_event)
        child = subprocess.Popen(
            [*bench_command(__spec__.name), "--pages-for", str(server.port), "--clients", str(clients)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert child.stdout.readline().strip() == "ready"
        deadline = time.monotonic() + 10
        while server.stats()["clients"] < clients + 1 and time.monotonic() < deadline:
            time.sleep(0.05)
    config = PipelineConfig(
        direction="en-zh",
        input_path=wav,
        realtime=True,
        tts_enabled=False,
        save_transcript=False,
        nmt_models={"en-zh": PHRASEBOOK / "en-zh"},
    )

    def observe(event) -> None:
        for observer in observers:
            observer(event)

    pipeline = Pipeline(config, on_event=observe, recognizer=recognizer)
    rss_start = psutil.Process().memory_info().rss
    pipeline.start()
    pipeline.wait_until_done(600)
    pipeline.stop()
    rss_end = psutil.Process().memory_info().rss
    stats = {}
    if server is not None:
        stats = server.stats()
        native_id = server.thread_id
        times = next(t for t in psutil.Process().threads() if t.id == native_id)
        stats["server_cpu_s"] = times.user_time + times.system_time
        child.stdin.close()
        stats["bytes"] = int(child.stdout.readline())
        child.wait()
        server.stop()
    return {"latencies": latencies, "rss_start": rss_start, "rss_end": rss_end, **stats}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--utterances", type=int, default=8)
    parser.add_argument("--asr-model", default="base")
    parser.add_argument("--pages-for", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.pages_for:
        return pages(args.pages_for, args.clients)
    with tempfile.TemporaryDirectory() as folder:
        wav = make_recording(args.utterances, Path(folder))
        recognizer = StreamingRecognizer(load_whisper(args.asr_model), language="en")
        run_once(wav, recognizer, 0)  # warm-up: first-run costs (model loads, caches) out of the figures
        medians: dict[str, list[float]] = {"without": [], "with": []}
        growth: dict[str, list[float]] = {"without": [], "with": []}
        for round_ in range(args.rounds):
            order = (("without", 0), ("with", args.clients))
            for kind, clients in order if round_ % 2 == 0 else order[::-1]:  # ABBA: drift cancels
                result = run_once(wav, recognizer, clients)
                median = statistics.median(result["latencies"])
                medians[kind].append(median)
                growth[kind].append((result["rss_end"] - result["rss_start"]) / 2**20)
                extra = f"  RSS {result['rss_start'] / 2**20:.1f} -> {result['rss_end'] / 2**20:.1f} MB"
                if clients:
                    extra += (
                        f", server thread CPU {result['server_cpu_s'] * 1000:.0f} ms,"
                        f" {result['bytes'] / 1024:.0f} KB to the readers,"
                        f" pages open {result['clients']}, dropped {result['dropped']}"
                    )
                print(
                    f"round {round_ + 1} {kind:>7} pages: median latency {median:6.0f} ms"
                    f" ({len(result['latencies'])} finals){extra}",
                    flush=True,
                )
    without, with_ = statistics.median(medians["without"]), statistics.median(medians["with"])
    print(
        f"median latency without pages {without:.0f} ms, with {args.clients}+1 pages {with_:.0f} ms:"
        f" ratio {with_ / without:.3f}"
    )
    print(
        f"RSS growth per run: median {statistics.median(growth['without']):.1f} MB without pages,"
        f" {statistics.median(growth['with']):.1f} MB with them"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
