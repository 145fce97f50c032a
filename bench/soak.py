"""A meeting-length run: a long talk played at speaking speed through the window and the command line.

    .venv/bin/python -m bench.soak [--minutes 60] [--bucket 10] [--paths window,cli] [--clients 10]
                                   [--away-every MINUTES] [--unplug-at MINUTES] [--asr-model base] [--nmt-model DIR]

The talk is the 24 sentences of bench/live_text.py's held-out talk, spoken by espeak-ng, over
and over with pauses between them (each a new utterance) until it lasts --minutes. It is played
at speaking speed through
  (a) `window`: the real window under Xvfb (started here), subtitle overlay and diagnostics shown,
      File ▸ Translate a recording (`SessionControl.play_recording`);
  (b) `cli`: `python -m app run --realtime --json --serve` with --clients caption-page clients
      reading /events the whole time (and coming back if dropped); with --away-every, half of
      them leave that often for 5 s and come back as the page does (/transcript first).
Each path runs in its own process, one after the other; this one samples it every few seconds
(psutil: RSS, threads, open files, CPU time). Prints, per --bucket minutes of the run: end of
speech -> final translation p50 / p95, RSS, threads, open files, CPU seconds per audio second;
and at the end: utterances spoken, finals, translations, transcript lines, caption events and
final captions each client received, error events, the exit status. The window path also says,
every bucket and at the end, whether the newest final is drawn where a person looks (inside the
transcript panel's visible part, ink in a grab of it) and on the overlay; a blank one fails the
run. Latencies come from the events themselves (the window's saved session transcript; `run --json`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import psutil

from bench._common import PHRASEBOOK as PHRASEBOOKS
from bench._common import ROOT, bench_command
from bench.live_text import TALK

RATE = 16000
PHRASEBOOK = PHRASEBOOKS / "en-zh"  # the en-zh model of the phrasebook pair
SAMPLE_EVERY_S = 5.0
AWAY_S = 5.0  # how long a page that leaves (--away-every) stays away
UNPLUGGED_S = 10.0  # how long the microphone stays unplugged (--unplug-at)


# -- the talk --------------------------------------------------------------------------------------
def make_talk(minutes: float, folder: Path) -> tuple[Path, int]:
    """A WAV of the talk's sentences repeated (pauses 1.0-1.6 s) to `minutes`; (path, utterances)."""
    import soundfile as sf
    from faster_whisper import decode_audio

    folder.mkdir(parents=True, exist_ok=True)
    clips = []
    for i, (sentence, _) in enumerate(TALK):
        wav = folder / f"s{i}.wav"
        subprocess.run(["espeak-ng", "-v", "en-us", "-s", "160", "-w", str(wav), sentence], check=True)
        clips.append(decode_audio(str(wav), sampling_rate=RATE))
    path, spoken, samples = folder / "talk.wav", 0, 0
    with sf.SoundFile(str(path), "w", RATE, 1, subtype="PCM_16") as out:
        out.write(np.zeros(RATE, np.float32))
        while samples < minutes * 60 * RATE:
            clip = clips[spoken % len(clips)]
            pause = np.zeros(int((1.0 + 0.2 * (spoken % 4)) * RATE), np.float32)
            out.write(clip)
            out.write(pause)
            samples += len(clip) + len(pause)
            spoken += 1
        out.write(np.zeros(2 * RATE, np.float32))
    return path, spoken


# -- what a run gives ------------------------------------------------------------------------------
@dataclass
class Sample:
    at: float  # time.monotonic(): the clock of the events' emitted_at (system-wide on Linux)
    rss_mb: float
    threads: int
    open_files: int
    cpu_s: float
    load: float = float("nan")  # the machine's 1-minute load average: was the run alone?


@dataclass
class RunRecord:
    name: str
    samples: list[Sample] = field(default_factory=list)
    latencies: list[tuple[float, float]] = field(default_factory=list)  # (emitted_at, latency s)
    finals: int = 0
    translations: int = 0
    transcript_lines: int = 0
    errors: list[str] = field(default_factory=list)
    clients: list[dict] = field(default_factory=list)
    exit_status: int | None = None
    started_at: float | None = None  # monotonic time the session began running (events' clock)
    spoken: int | None = None  # utterances played, when not the whole talk's (the mic path's two parts)
    seen: list[str] = field(default_factory=list)  # the window path: what its panels showed, per bucket


def sample_process(pid: int, record: RunRecord, stop: threading.Event) -> None:
    process = psutil.Process(pid)
    while not stop.wait(SAMPLE_EVERY_S):
        try:
            with process.oneshot():
                cpu = process.cpu_times()
                record.samples.append(
                    Sample(
                        time.monotonic(),
                        process.memory_info().rss / 1e6,
                        process.num_threads(),
                        process.num_fds(),
                        cpu.user + cpu.system + cpu.children_user + cpu.children_system,
                        os.getloadavg()[0],
                    )
                )
        except psutil.Error:
            return


def report_as_it_goes(record: RunRecord, events_so_far, bucket_s: float, stop: threading.Event) -> None:
    """Every bucket, one line on stderr for the bucket just ended: a long run can be read (or
    cut short) while it runs."""
    while not stop.wait(bucket_s):
        partial = RunRecord(record.name, samples=list(record.samples))
        take_events(partial, events_so_far())
        done = [s for at, s in partial.latencies if at >= time.monotonic() - bucket_s]
        last = partial.samples[-1] if partial.samples else Sample(0, float("nan"), 0, 0, 0)
        print(
            f"[{record.name} {(time.monotonic() - (partial.started_at or time.monotonic())) / 60:.0f} min] "
            f"translations {partial.translations}, errors {len(partial.errors)}; last bucket p50 "
            f"{percentile(done, 50):.2f} s p95 {percentile(done, 95):.2f} s; RSS {last.rss_mb:.0f} MB, "
            f"threads {last.threads}, files {last.open_files}, load {last.load:.1f}",
            file=sys.stderr,
            flush=True,
        )


def take_events(record: RunRecord, events) -> None:
    """Fold a run's events (dicts, as JSON and the transcript carry them) into its record."""
    finals: dict = {}
    for event in events:
        kind, key = event.get("type"), (event.get("speaker"), event.get("utterance_id"))
        if kind == "status" and event.get("state") == "running" and record.started_at is None:
            record.started_at = event["emitted_at"]
        elif kind == "final" and event.get("text", "").strip():
            finals[key] = event
            record.finals += 1
        elif kind == "translation" and not event.get("provisional"):
            record.translations += 1
            if event.get("latency_ms") is not None:
                record.latencies.append((event["emitted_at"], event["latency_ms"] / 1000))
        elif kind == "error":
            record.errors.append(f"{event.get('stage')}: {event.get('text')}")


class RunChild:
    """`python -m app run --json` on the talk, watched as it runs: its events read as they come,
    its process sampled, a line on stderr per bucket, the tail of its stderr kept."""

    def __init__(self, args, record: RunRecord, extra: list[str], env: dict, home: Path):
        command = [sys.executable, "-m", "app", "run", *extra, "--json", "--no-tts", "--direction", "en-zh"]
        command += ["--nmt-model", str(args.nmt_model), "--asr-model", args.asr_model]
        self.record, self.home, self.events, self.stderr_tail = record, home, [], []
        env = {**env, "LIVE_TRANSLATOR_HOME": str(home)}
        self.child = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        self.stop = threading.Event()
        threading.Thread(target=sample_process, args=(self.child.pid, record, self.stop), daemon=True).start()
        threading.Thread(target=lambda: self.stderr_tail.extend(self.child.stderr), daemon=True).start()
        self.reader = threading.Thread(target=read_json_lines, args=(self.child.stdout, self.events), daemon=True)
        self.reader.start()
        watch = (record, lambda: list(self.events), args.bucket * 60, self.stop)
        threading.Thread(target=report_as_it_goes, args=watch, daemon=True).start()

    def wait_until_running(self) -> None:
        while not any(e.get("type") == "status" and e.get("state") == "running" for e in list(self.events)):
            if self.child.poll() is not None:
                raise RuntimeError("".join(self.stderr_tail[-20:]) or "`run` ended before it was listening")
            time.sleep(0.2)

    def finish(self) -> RunRecord:
        """After the child has exited: its record, complete."""
        self.record.exit_status = self.child.wait()
        self.reader.join(30)  # the last lines of its stdout
        self.stop.set()
        take_events(self.record, self.events)
        transcripts = (self.home / "transcripts").glob("*.jsonl")
        self.record.transcript_lines = sum(count_final_lines(path) for path in transcripts)
        if self.record.exit_status:
            print("".join(self.stderr_tail[-20:]), file=sys.stderr)
        return self.record


# -- (b) the command line with caption-page clients ------------------------------------------------
async def caption_client(port: int, tally: dict, stop: asyncio.Event, away_every_s: float = 0.0) -> None:
    """A page reading /events the whole time; it comes back when dropped, as a page does. With
    away_every_s it also leaves that often (a laptop closed, a phone out of Wi-Fi) for AWAY_S,
    and on coming back reads /transcript first, as the page does, for what it missed."""
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(0.5)
            continue
        if tally["connections"]:
            await catch_up(port, tally)
        tally["connections"] += 1
        writer.write(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        leave_at = time.monotonic() + away_every_s if away_every_s else float("inf")
        try:
            await read_events(reader, tally, stop, leave_at)
        except (ConnectionError, json.JSONDecodeError):
            pass
        writer.close()
        if time.monotonic() >= leave_at and not stop.is_set():
            tally["left"] += 1
            await asyncio.sleep(AWAY_S)


async def read_events(reader, tally: dict, stop: asyncio.Event, leave_at: float) -> None:
    while not stop.is_set() and time.monotonic() < leave_at:
        try:
            line = await asyncio.wait_for(reader.readline(), 1.0)
        except TimeoutError:
            continue  # nothing in a second: read on (or notice the end)
        if not line:
            return  # dropped by the server: come back
        if line.startswith(b"data: "):
            update = json.loads(line[6:])
            tally["events"] += 1
            if update.get("type") == "caption" and update.get("translation_final"):
                tally["final_ids"].add(update["id"])


async def catch_up(port: int, tally: dict) -> None:
    """What a returning page reads first: the session so far (its final captions)."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"GET /transcript HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
        body = (await reader.read()).split(b"\r\n\r\n", 1)[1]
        writer.close()
        doc = json.loads(body)
    except (OSError, IndexError, json.JSONDecodeError):
        return  # the app is gone (the end of the run): nothing to catch up with
    tally["final_ids"].update(c["id"] for c in doc["captions"] if c.get("translation_final"))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def run_cli(args, talk: Path, work: Path) -> RunRecord:
    record, port = RunRecord("cli"), free_port()
    extra = ["--input", str(talk), "--realtime", "--serve", f"127.0.0.1:{port}"]
    run = RunChild(args, record, extra, dict(os.environ), work / "cli-home")
    tallies = [{"connections": 0, "left": 0, "events": 0, "final_ids": set()} for _ in range(args.clients)]
    # Half the pages leave and come back every --away-every minutes, each at its own moment.
    away = [args.away_every * 60 * (1 + i / args.clients) if i % 2 else 0.0 for i in range(args.clients)]
    loop_stop: list = []

    def clients() -> None:
        async def main() -> None:
            stop = asyncio.Event()
            loop_stop.append((asyncio.get_running_loop(), stop))
            await asyncio.gather(*(caption_client(port, t, stop, a) for t, a in zip(tallies, away, strict=True)))

        asyncio.run(main())

    client_thread = threading.Thread(target=clients, daemon=True)
    client_thread.start()
    run.finish()
    if loop_stop:
        loop, stop = loop_stop[0]
        loop.call_soon_threadsafe(stop.set)
    client_thread.join(10)
    record.clients = [
        {k: t[k] for k in ("events", "connections", "left")} | {"final_captions": len(t["final_ids"])} for t in tallies
    ]
    return record


# -- (c) the command line on a microphone in a private PulseAudio server ------------------------------
def run_mic(args, talk: Path, work: Path) -> RunRecord:
    """The talk into the microphone; with --unplug-at, in two parts with the microphone unplugged
    and plugged back between them (in a pause: nothing is said while it is away)."""
    from tests.asr.conftest import SoundRoom  # lazy: the tests' PulseAudio harness, for --paths mic only

    record = RunRecord("mic")
    parts = [talk]
    if args.unplug_at:
        halves = [make_talk(args.unplug_at, work / "first"), make_talk(args.minutes - args.unplug_at, work / "rest")]
        parts, record.spoken = [path for path, _ in halves], sum(n for _, n in halves)
    room = SoundRoom()
    room.start()
    run = RunChild(args, record, ["--source", "microphone"], {**os.environ, **room.env}, work / "mic-home")
    try:
        run.wait_until_running()
        time.sleep(2.5)  # a null sink's monitor delivers its first audio ~2 s after it is opened
        for i, part in enumerate(parts):
            if i:
                unplug_and_plug_back(room)
            room.play_to("mic", part).wait()
        time.sleep(5.0)  # the last utterance's final and translation
        run.child.terminate()  # SIGTERM: `run` finishes what it heard and exits
        run.child.wait(120)
    finally:
        run.child.kill()
        room.kill()
    return run.finish()


def read_json_lines(stream, events: list) -> None:
    for line in stream:
        if line.startswith("{"):
            events.append(json.loads(line))


def unplug_and_plug_back(room) -> None:
    room.unplug_mic()
    print(f"[mic] unplugged at {time.strftime('%H:%M:%S')}", file=sys.stderr, flush=True)
    time.sleep(UNPLUGGED_S)
    room.plug_mic_back()
    print(f"[mic] plugged back at {time.strftime('%H:%M:%S')}", file=sys.stderr, flush=True)
    time.sleep(2.5)  # the new monitor delivers its first audio ~2 s after it is opened


def count_final_lines(path: Path) -> int:
    """Utterances with a final translation in a saved session (what `export` writes)."""
    lines = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            event = json.loads(line)
        except json.JSONDecodeError:
            continue
        lines += event.get("type") == "translation" and not event.get("provisional")
    return lines


# -- (a) the window under Xvfb ---------------------------------------------------------------------
def start_xvfb() -> tuple[subprocess.Popen, str]:
    read, write = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1400x900x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as displays:
        display = displays.readline().strip()
    return xvfb, f":{display}"


def run_window(args, talk: Path, work: Path) -> RunRecord:
    record = RunRecord("window")
    xvfb, display = start_xvfb()
    home = work / "window-home"
    env = {**os.environ, "DISPLAY": display, "QT_QPA_PLATFORM": "xcb", "LIVE_TRANSLATOR_HOME": str(home)}
    command = [*bench_command(__spec__.name), "--window-child", str(talk), "--asr-model", args.asr_model]
    command += ["--nmt-model", str(args.nmt_model), "--bucket", str(args.bucket)]
    child = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    stop_sampling = threading.Event()
    sampler = threading.Thread(target=sample_process, args=(child.pid, record, stop_sampling), daemon=True)
    sampler.start()
    watch = (record, lambda: read_transcripts(home), args.bucket * 60, stop_sampling)
    threading.Thread(target=report_as_it_goes, args=watch, daemon=True).start()
    out, err = child.communicate()
    record.exit_status = child.returncode
    stop_sampling.set()
    xvfb.terminate()
    xvfb.wait(10)
    take_events(record, read_transcripts(home))
    record.transcript_lines = sum(count_final_lines(path) for path in sorted((home / "transcripts").glob("*.jsonl")))
    if record.exit_status:
        print(err[-3000:], file=sys.stderr)
    record.seen = [line for line in out.splitlines() if line.startswith(SEEN)]
    print(out.strip(), file=sys.stderr)
    return record


def read_transcripts(home: Path) -> list[dict]:
    """The events of the window's saved sessions (written as it goes: complete to the last final)."""
    events = []
    for path in sorted((home / "transcripts").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                events.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    return events


SEEN = "seen: "  # the window child's lines on what a person sees
BLANK = "BLANK"  # in such a line: something a person should see is not drawn


def what_is_seen(window, when: str) -> str:
    """One line on what the window shows: is the newest final drawn inside the transcript
    panel's visible part (with ink there), and is its translation on the overlay (drawn)?"""
    from PySide6.QtGui import QColor, QTextDocument

    from app.ui.transcript_rows import ink_share  # lazy: PySide6, only in the window's child process

    view, overlay = window.transcript_view, window.view_options.overlay
    finals = [row for row in view.rows.values() if row.source_final and row.target_final]
    if not finals:
        return f"{SEEN}{when}: no translated final yet"
    newest = max(finals, key=lambda row: row.key)
    panel = "drawn" if view.panel.drawn(newest.key) else BLANK
    shown = QTextDocument()
    shown.setHtml(overlay.label.text())  # the words, without the marks of unsure ones
    words = " ".join(shown.toPlainText().split())
    inked = ink_share(overlay.grab().toImage(), QColor(overlay.settings.background)) > 0.01
    later = any(row.key > newest.key and row.translation for row in view.rows.values())  # replaced it there
    on_overlay = "drawn" if inked and (" ".join(newest.translation.split()) in words or later) else BLANK
    return (
        f"{SEEN}{when}: newest translated final (utterance {newest.key[1]}) in the panel {panel}, on the "
        f"overlay {on_overlay}{'' if on_overlay == 'drawn' else f' (it shows {words[-80:]!r})'}; "
        f"{len(view.rows)} rows drawn, {len(view.earlier)} earlier"
    )


def window_child(args) -> int:
    """In the child: the real window, overlay and diagnostics shown, translating the talk; every
    bucket (and at the end) a line on what a person sees (`what_is_seen`)."""
    from PySide6.QtCore import QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    from app.ui.main_window import MainWindow  # lazy: PySide6, only in the window's child process

    app = QApplication([sys.argv[0]])
    work = Path(tempfile.mkdtemp(prefix="lt-soak-"))
    store = QSettings(str(work / "settings.ini"), QSettings.Format.IniFormat)
    store.setValue("direction", "en-zh")
    store.setValue("tts_enabled", False)
    store.setValue("asr_model", args.asr_model)
    store.setValue("nmt_en_zh", str(Path(args.nmt_model).resolve()))
    window = MainWindow(store)
    window.resize(1400, 900)
    window.show()
    window.view_options.set_overlay_visible(True)
    state = {"started": False, "checks": 0}
    started = time.monotonic()

    def tick() -> None:
        minutes = (time.monotonic() - started) / 60
        if not state["started"] and "en-zh" in window.models_bar.states:
            state["started"] = True
            window.session_control.play_recording(args.window_child)
        elif state["started"] and not window.session_control.running():
            print(what_is_seen(window, "the end"), flush=True)
            QTimer.singleShot(1000, window.close)
            return
        elif minutes >= (state["checks"] + 1) * args.bucket:
            state["checks"] += 1
            print(what_is_seen(window, f"minute {minutes:.1f}"), flush=True)
        QTimer.singleShot(500, tick)

    QTimer.singleShot(500, tick)
    return app.exec()


# -- the report ------------------------------------------------------------------------------------
def percentile(values: list[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else float("nan")


def report(record: RunRecord, spoken: int, bucket_s: float) -> None:
    """Buckets from the moment the session ran (models loaded), on the events' clock."""
    print(f"\n== {record.name}: exit status {record.exit_status}")
    print("minutes     p50 s   p95 s   RSS MB  threads  files  CPU s/s  load")
    origin = record.started_at or (record.samples[0].at if record.samples else 0.0)
    running = [s for s in record.samples if s.at >= origin]
    end_at = max([s.at for s in running] + [at for at, _ in record.latencies] + [origin])
    for start in np.arange(origin, end_at, bucket_s):
        lat = [s for at, s in record.latencies if start <= at < start + bucket_s]
        inside = [s for s in running if start <= s.at < start + bucket_s]
        cpu = (inside[-1].cpu_s - inside[0].cpu_s) / (inside[-1].at - inside[0].at) if len(inside) > 1 else float("nan")
        last = inside[-1] if inside else Sample(0, float("nan"), 0, 0, 0)
        load = statistics.mean(s.load for s in inside) if inside else float("nan")
        print(
            f"{(start - origin) / 60:4g}-{(start - origin + bucket_s) / 60:<5g} {percentile(lat, 50):7.2f} "
            f"{percentile(lat, 95):7.2f} {last.rss_mb:8.0f} {last.threads:8d} {last.open_files:6d} {cpu:8.2f} "
            f"{load:5.1f}"
        )
    print(
        f"utterances spoken {spoken}, finals {record.finals}, translations {record.translations}, "
        f"transcript lines {record.transcript_lines}, error events {len(record.errors)}"
    )
    for error in record.errors[:10]:
        print(f"  error: {error}")
    for line in record.seen:
        print(f"  {line}")
    for i, client in enumerate(record.clients):
        print(
            f"  page client {i}: {client['events']} caption events, {client['final_captions']} final captions, "
            f"{client['connections']} connection(s), left and came back {client['left']} time(s)"
        )
    # Growth is read while the session runs (to the last translation): once it has stopped,
    # its threads and buffers are gone and RSS falls.
    last_translation = max((at for at, _ in record.latencies), default=end_at)
    during = [s for s in running if s.at <= last_translation]
    after_one = [s for s in during if s.at >= origin + 60]
    after_ten = [s for s in during if s.at >= origin + min(600, (last_translation - origin) / 2)]
    if len(after_ten) > 1 and after_ten[-1].at > after_ten[0].at:
        hours = (after_ten[-1].at - after_ten[0].at) / 3600
        growth = (after_ten[-1].rss_mb - after_ten[0].rss_mb) / hours
        print(f"RSS growth after the first ten minutes: {growth:.1f} MB/hour")
    if after_one:
        first, last = after_one[0], after_one[-1]
        print(
            f"threads {first.threads} after the first minute, {last.threads} at the end of the talk; "
            f"open files {first.open_files} -> {last.open_files}"
        )
    if record.latencies:
        print(f"latency p50 over the whole run {statistics.median([s for _, s in record.latencies]):.2f} s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=60.0, help="length of the talk (default 60)")
    parser.add_argument("--bucket", type=float, default=10.0, help="minutes per reported bucket (default 10)")
    parser.add_argument(
        "--paths", default="window,cli", help="which runs, in order: window, cli, mic (default the first two)"
    )
    parser.add_argument("--clients", type=int, default=10, help="caption-page clients of the cli run (default 10)")
    parser.add_argument(
        "--away-every", type=float, default=0.0, help="minutes: half the clients leave this often and come back"
    )
    parser.add_argument(
        "--unplug-at", type=float, default=0.0, help="minutes: the mic path's microphone unplugged then (and back)"
    )
    parser.add_argument("--asr-model", default="base")
    parser.add_argument("--nmt-model", default=str(PHRASEBOOK))
    parser.add_argument("--window-child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.window_child:
        return window_child(args)
    work = Path(tempfile.mkdtemp(prefix="lt-soak-"))
    talk, spoken = make_talk(args.minutes, work)
    print(f"talk: {args.minutes:g} min, {spoken} utterances; load average {os.getloadavg()}")
    status = 0
    for name in args.paths.split(","):
        record = {"window": run_window, "cli": run_cli, "mic": run_mic}[name](args, talk, work)
        report(record, record.spoken or spoken, args.bucket * 60)
        blank = any(BLANK in line for line in record.seen) or (name == "window" and not record.seen)
        status = status or int(record.exit_status != 0 or bool(record.errors) or blank)
    print(f"\nload average at the end {os.getloadavg()}")
    return status


if __name__ == "__main__":
    sys.exit(main())
