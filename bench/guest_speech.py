"""The guest's phone against the laptop's microphone (issue 43): end of speech -> final translation
and accuracy for the same talk through both paths, and with the host speaking at the same time.

The talk: Mandarin phrases (espeak-ng, the phrasebook's, cycled) with pauses. Three runs, each in
a private PulseAudio server (tests/asr/conftest.py's SoundRoom) and this process:

- `microphone`: the talk played into the microphone (paplay into the `mic` null sink), a zh-en
  Pipeline capturing it through PortAudio as `run` does.
- `phone`: a session with guests (app.pipeline.guests.WithGuests, the host an en-zh Pipeline on the
  quiet microphone) and the caption server with guest speech; Debian's Chromium (Playwright) is the
  phone: its fake microphone plays the talk (--use-file-for-fake-audio-capture), the page's Speak
  button is pressed, and the audio goes through getUserMedia, the AudioWorklet and the WebSocket
  over TLS (loopback) into the guest's lane.
- `phone + host speaking`: the same, with an English talk played into the microphone at once.

Translation is the phrasebook models (tests/fixtures/phrasebook: tiny; what the paths differ in is
capture and recognition, which run the real Whisper). `latency_ms` is the app's own figure: end of
speech (the capture time of the audio that ended it; for the phone, its arrival at the app, so the
phone's own capture buffer and the network are not in it: ~40 ms frames on loopback) -> final
translation. CER: edit distance over the recognised finals against the phrases spoken (punctuation
left out). CPU: this process's CPU time / wall time (the phone's browser is another machine's).

    .venv/bin/python -m bench.guest_speech [--turns 12] [--asr-model base] [--only microphone|phone] [--no-host]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np
import soundfile as sf

from app.asr import load_whisper
from app.audio.guest import GuestSource
from app.captions import CaptionServer
from app.captions.guest_speech import GuestSpeech
from app.pipeline import Pipeline, PipelineConfig
from app.pipeline.guests import WithGuests
from app.shared.events import Error, SourceFinal, Speaker, State, Status, Translation
from bench._common import PHRASEBOOK
from bench.conversation_latency import Usage, clip, percentile
from models.phrasebook import SPOKEN_EN, SPOKEN_ZH

SR = 16_000


def talk(phrases: list[str], language: str, folder: Path, name: str, lead_s: float, gap_s: float = 1.5) -> Path:
    parts = [np.zeros(int(lead_s * SR), np.float32)]
    for n, text in enumerate(phrases):
        parts += [clip(text, language, folder, f"{name}{n}"), np.zeros(int(gap_s * SR), np.float32)]
    path = folder / f"{name}.wav"
    sf.write(path, np.concatenate(parts), SR)
    return path


def config(direction: str, asr_model: str) -> PipelineConfig:
    return PipelineConfig(
        direction=direction,
        asr_model=asr_model,
        tts_enabled=False,
        emit_steps=False,
        save_transcript=False,
        nmt_models={"en-zh": PHRASEBOOK / "en-zh", "zh-en": PHRASEBOOK / "zh-en"},
    )


def wait_running(events: list, count: int) -> None:
    while sum(1 for e in list(events) if isinstance(e, Status) and e.state is State.RUNNING) < count:
        time.sleep(0.1)
    time.sleep(2.5)  # the null sinks' monitors start delivering ~2 s after they are opened


def microphone(room, zh: Path, asr_model: str) -> tuple[list, Usage]:
    events: list = []
    pipeline = Pipeline(config("zh-en", asr_model), on_event=events.append)
    with Usage() as usage:
        pipeline.start()
        wait_running(events, 1)
        room.play_to("mic", zh).wait(timeout=600)
        time.sleep(3.0)
        pipeline.finish()
    return events, usage


def phone(room, zh: Path, en: Path | None, asr_model: str, folder: Path, keep: Path | None) -> tuple[list, Usage]:
    from playwright.sync_api import sync_playwright

    events: list = []
    place = GuestSource("place 1")
    received: list[bytes] = []
    feed = place.feed
    arrivals: list[float] = []
    place.feed = lambda pcm: (
        received.append(pcm),
        arrivals.append(time.monotonic()),
        feed(pcm),
    )  # what reached the app
    session = WithGuests(
        config("en-zh", asr_model),
        lambda host, observer, ids: Pipeline(host, on_event=observer, utterance_ids=ids),
        [place],
        on_event=events.append,
    )
    server = CaptionServer(port=0, guest_speech=GuestSpeech([place], tls_folder=folder / "tls"))
    server.start()
    flags = ["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream", "--ignore-certificate-errors"]
    try:
        with sync_playwright() as playwright, Usage() as usage:
            browser = playwright.chromium.launch(
                executable_path=os.environ.get("LT_TEST_CHROMIUM", "/usr/bin/chromium"),
                args=["--no-sandbox", *flags, f"--use-file-for-fake-audio-capture={zh}%noloop"],
                # The phone is not in the laptop's sound server: its audio graph must not run on the
                # clock of the room's null sinks (their irregular timer made it drop input here).
                env={k: v for k, v in os.environ.items() if not k.startswith("PULSE_")},
            )
            page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
            page.goto(server.speak_url)
            page.fill("#speak-name", "Bench")
            session.start()
            wait_running(events, 2)
            host = room.play_to("mic", en) if en is not None else None
            page.click("#speak")
            time.sleep(sf.info(zh).duration + 3.0)
            page.click("#speak")
            if host is not None:
                host.wait(timeout=600)
            time.sleep(2.0)
            session.finish()
            browser.close()
    finally:
        server.stop()
    arrived = np.frombuffer(b"".join(received), "<i2").astype(np.float32) / 32768
    span = arrivals[-1] - arrivals[0] if arrivals else 0.0
    gap = max(np.diff(arrivals), default=0.0)
    print(
        f"  audio arrived: {len(arrived) / SR:.1f} s in {span:.1f} s, longest gap between frames {gap * 1000:.0f} ms; "
        f"alike the talk: {alike(arrived, zh):.3f}; stalls: {server.guest_speech.stalls}"
    )
    if keep is not None:
        sf.write(keep / f"arrived-{'with-host' if en else 'alone'}.wav", arrived, SR)
    return events, usage


def alike(arrived: np.ndarray, path: Path) -> float:
    """Correlation of the audio that arrived with the talk, best aligned (1.0: the same samples)."""
    talk = sf.read(path, dtype="float32")[0]
    n = len(arrived) + len(talk)
    lag = int(np.argmax(np.fft.irfft(np.fft.rfft(arrived, n) * np.conj(np.fft.rfft(talk, n)), n)))
    if lag > len(arrived):  # the talk started before the first frame arrived
        talk, lag = talk[n - lag :], 0
    part = arrived[lag : lag + len(talk)]
    size = min(len(part), len(talk))
    return float(np.corrcoef(part[:size], talk[:size])[0, 1]) if size > SR else float("nan")


def cer(heard: str, said: str) -> float:
    a, b = re.sub(r"\W", "", heard), re.sub(r"\W", "", said)
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (x != y))
    return row[-1] / max(len(b), 1)


def report(label: str, events: list, speaker, spoken: list[str], usage: Usage) -> None:
    finals = [e for e in events if isinstance(e, Translation) and not e.provisional and e.speaker == speaker]
    latencies = [e.latency_ms for e in finals if e.latency_ms is not None]
    heard = " / ".join(e.text for e in events if isinstance(e, SourceFinal) and e.speaker == speaker and e.text)
    p50, p95 = percentile(latencies, 50), percentile(latencies, 95)
    print(
        f"{label:<26} {len(finals):>3}/{len(spoken):<3} {p50:>7.0f} {p95:>7.0f} {cer(heard, ''.join(spoken)):>6.3f} "
        f"{usage.cpu / usage.wall:>9.2f} {usage.wall:>7.1f}",
        flush=True,
    )
    print(f"  heard: {heard}")
    errors = [e.text for e in events if isinstance(e, Error)]
    if errors:
        print(f"  errors: {errors[:3]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=12, help="Mandarin phrases in the talk")
    parser.add_argument("--asr-model", default="base")
    parser.add_argument("--keep", type=Path, help="a folder to save the audio that arrived from the phone in")
    parser.add_argument("--only", choices=("microphone", "phone"), help="run one path only")
    parser.add_argument("--no-host", action="store_true", help="leave out the phone run with the host speaking")
    args = parser.parse_args(argv)
    from tests.asr.conftest import SoundRoom  # lazy: the tests' PulseAudio harness (imports pytest)

    load_whisper(args.asr_model)
    spoken = [SPOKEN_ZH[n % len(SPOKEN_ZH)] for n in range(args.turns)]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        zh = talk(spoken, "zh", folder, "zh", lead_s=1.0)
        english = [SPOKEN_EN[n % len(SPOKEN_EN)] for n in range(args.turns)]
        en = talk(english, "en", folder, "en", lead_s=0.7)
        print(
            f"guest speech: {args.turns} Mandarin phrases, {sf.info(zh).duration:.1f} s; Whisper {args.asr_model}; "
            f"phrasebook translation; {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at start"
        )
        print(f"{'path':<26} {'n':>7} {'p50 ms':>7} {'p95 ms':>7} {'CER':>6} {'CPU cores':>9} {'wall s':>7}")
        room = SoundRoom()
        os.environ.update(PULSE_RUNTIME_PATH=room.runtime, PULSE_SERVER=room.env["PULSE_SERVER"])
        room.start()
        try:
            if args.only != "phone":
                events, usage = microphone(room, zh, args.asr_model)
                report("microphone (PulseAudio)", events, None, spoken, usage)
            if args.only == "microphone":
                return 0
            events, usage = phone(room, zh, None, args.asr_model, folder, args.keep)
            report("phone (Chromium, TLS)", events, Speaker.GUEST, spoken, usage)
            if args.no_host:
                return 0
            events, usage = phone(room, zh, en, args.asr_model, folder, args.keep)
            report("phone + host speaking", events, Speaker.GUEST, spoken, usage)
            report("  the host meanwhile", events, None, english, usage)
        finally:
            room.kill()
        print(f"Load average {os.getloadavg()[0]:.1f} at the end.")
    subprocess.run(["uptime"], check=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
