"""What listeners' own Chinese scripts cost the caption server (issue 26).

The same stream of caption updates (provisional and final translations of a talk, in Simplified)
goes to 30 reading pages, in rounds that alternate (ABBA): every page reading the captions as
the app writes them, and the pages split over the three scripts (`?script=simplified`,
`traditional`, `hongkong`: each update converted by OpenCC once per script). Prints the CPU time
of the server's thread per update for each kind of round (medians) and their ratio, and the time
to download the whole session as SRT in Traditional (`/transcript?format=srt&script=...`).

    .venv/bin/python -m bench.captions_scripts [--rounds 4] [--pages 30] [--updates 2000]
"""

from __future__ import annotations

import argparse
import http.client
import selectors
import socket
import statistics
import sys
import threading
import time

import psutil

from app.captions import CaptionServer
from app.pipeline.caption_downloads import caption_writers
from app.shared.events import SourceFinal, Translation
from app.shared.languages import Direction

SENTENCES = [
    "这个软件很好用，我们下载以后就可以开始了。",
    "大家早上好，谢谢你们今天来参加会议。",
    "请打开你的电脑，然后登录网络。",
    "我们的团队在北京和香港都有办公室。",
]
SCRIPTS = ("simplified", "traditional", "hongkong")
BATCH = 40  # updates handed over at once, well below a page's queue (256)


def stream(port: int, script: str | None) -> socket.socket:
    sock = socket.socket()
    sock.connect(("127.0.0.1", port))
    query = f"?script={script}" if script else ""
    sock.sendall(f"GET /events{query} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    return sock


class Readers:
    """Reads every page's stream on one thread, counting the bytes."""

    def __init__(self, socks: list[socket.socket]):
        self.socks, self.received, self.stop = socks, 0, threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        selector = selectors.DefaultSelector()
        for sock in self.socks:
            selector.register(sock, selectors.EVENT_READ)
        while not self.stop.is_set():
            for key, _ in selector.select(0.05):
                self.received += len(key.fileobj.recv(1 << 16))
        selector.close()

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        for sock in self.socks:
            sock.close()


def updates(count: int):
    """A talk's caption updates: each utterance's provisional translations growing, then its final."""
    uid = 0
    while True:
        text = SENTENCES[uid % len(SENTENCES)]
        yield SourceFinal(
            utterance_id=uid, text=f"Sentence {uid}.", start=uid * 3.0, end=uid * 3.0 + 2.5, speech_end_at=0.0
        )
        for end in range(4, len(text), 4):
            yield Translation(
                utterance_id=uid,
                source=f"Sentence {uid}.",
                text=text[:end],
                provisional=True,
                direction=Direction.EN_ZH,
                latency_ms=None,
                stable=end - 4,
            )
        yield Translation(
            utterance_id=uid,
            source=f"Sentence {uid}.",
            text=text,
            provisional=False,
            direction=Direction.EN_ZH,
            latency_ms=100.0,
        )
        uid += 1
        if uid * 6 > count:
            return


def server_cpu_s(server: CaptionServer) -> float:
    times = next(t for t in psutil.Process().threads() if t.id == server.thread_id)
    return times.user_time + times.system_time


def one_round(pages: int, count: int, split: bool) -> dict:
    server = CaptionServer(port=0, writers=caption_writers())
    server.start()
    try:
        scripts = [SCRIPTS[i % 3] if split else None for i in range(pages)]
        readers = Readers([stream(server.port, s) for s in scripts])
        deadline = time.monotonic() + 10
        while len(server.clients) < pages and time.monotonic() < deadline:
            time.sleep(0.01)
        events = list(updates(count))
        before = server_cpu_s(server)
        for start in range(0, len(events), BATCH):  # a burst, then the pages catch up (as a talk's pace allows)
            batch = events[start : start + BATCH]
            expected = server.captions.seq + len(batch)  # every one of these events is one update
            for event in batch:
                server.on_event(event)
            while (server.captions.seq < expected or server.stats()["queued"]) and time.monotonic() < deadline + 120:
                time.sleep(0.002)
        done = server.captions.seq
        cpu = server_cpu_s(server) - before
        readers.close()
        started = time.perf_counter()
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        connection.request(
            "GET", "/transcript?format=srt&bilingual=1&script=traditional", headers={"Host": f"127.0.0.1:{server.port}"}
        )
        body = connection.getresponse().read()
        download_s = time.perf_counter() - started
        connection.close()
        return {
            "cpu_us_per_update": cpu / max(done, 1) * 1e6,
            "updates": done,
            "download_s": download_s,
            "download_bytes": len(body),
            "captions": len(server.captions.items),
            "dropped": server.dropped,
        }
    finally:
        server.stop()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=4, help="ABBA rounds (each: as written, then split)")
    parser.add_argument("--pages", type=int, default=30)
    parser.add_argument("--updates", type=int, default=2000)
    args = parser.parse_args(argv)
    results = {False: [], True: []}
    for round_number in range(args.rounds):
        order = (False, True) if round_number % 2 == 0 else (True, False)
        for split in order:
            result = one_round(args.pages, args.updates, split)
            results[split].append(result)
            print(
                f"round {round_number + 1} {'3 scripts' if split else 'as written'}: "
                f"{result['cpu_us_per_update']:.0f} µs server CPU per update ({result['updates']} updates, "
                f"{result['dropped']} pages dropped); SRT download of {result['captions']} captions in "
                f"Traditional: {result['download_s'] * 1000:.0f} ms",
                flush=True,
            )
    plain = statistics.median(r["cpu_us_per_update"] for r in results[False])
    split = statistics.median(r["cpu_us_per_update"] for r in results[True])
    download = statistics.median(r["download_s"] for r in results[False] + results[True])
    print(
        f"\nmedian server CPU per update, {args.pages} pages: as written {plain:.0f} µs, "
        f"split over 3 scripts {split:.0f} µs (ratio {split / max(plain, 1e-9):.2f})"
    )
    print(
        f"median SRT download (Traditional, bilingual) of a {results[True][0]['captions']}-caption session: "
        f"{download * 1000:.0f} ms"
    )
    print(f"load average: {' '.join(f'{x:.2f}' for x in psutil.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
