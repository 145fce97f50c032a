"""End of my speech -> first sound of its translation in the virtual microphone (the call set-up:
`run --conversation --speak me --speak-into virtual-mic`), on this machine.

A private PulseAudio server of its own (own runtime folder; the user's sound server is never
touched): a `mic` null sink whose monitor is the default source (my microphone) and a `speakers`
null sink whose monitor is system audio (their side). A Conversation in the call set-up (en->zh
for me, Whisper base) listens to both. Translation: `--nmt-model` folders (opus-mt-en-zh and
opus-mt-zh-en, int8 graphs preferred: `python -m app models download`), else the committed
phrasebook models (tests/fixtures/phrasebook: real sentences of natural length, but a tiny
model; the full-size int8 model's own translation time is bench/conversation_latency.py's).
`--bench-model` uses bench/bench_model.py's full-size random-weight model instead: realistic
compute, but its forced tokens are spoken as ~30 s of nonsense, which backs the speech up. English
sentences are played into `mic` one at a time, each once the previous translation was spoken;
a recorder on `live_translator_mic` (where the call app listens) stamps when sound arrives.

Per sentence: the end of my speech (SourceFinal.speech_end_at, the capture time at which the VAD
closed the utterance), the final translation (the pipeline's own latency: the peer, measured in
the same run), and the first voiced 20 ms in live_translator_mic after it. Prints p50 and p95
of end->translation, end->first sound, and their difference (speech rendering and the sound
server's path into the call).

    .venv/bin/python -m bench.call_latency [--sentences 12] [--tokens 16] [--asr-model base] [--precision int8]
        [--nmt-model DIR --nmt-model DIR | --bench-model]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

from app.asr import load_whisper
from app.audio.system import connected_soundcard
from app.pipeline import PipelineConfig
from app.pipeline.conversation import Conversation, ConversationConfig
from app.shared.events import Event, SourceFinal, Speaker, Speech, Translation
from app.translation import Translator
from bench import bench_model
from bench._common import PHRASEBOOK

RATE = 16_000
BLOCK, FRAME = RATE // 20, RATE // 50
ENGLISH = [
    "Good morning.",
    "Thank you very much.",
    "Where is the station?",
    "I love you.",
    "Welcome to the meeting.",
    "We need more time.",
    "How much is this?",
    "I don't know.",
]


class SoundServer:
    """A PulseAudio server of our own, with `mic` (default source: its monitor) and `speakers` sinks."""

    def __init__(self):
        self.runtime = tempfile.mkdtemp(prefix="lt-bench-pulse-")
        os.environ["PULSE_RUNTIME_PATH"] = self.runtime
        os.environ["PULSE_SERVER"] = f"unix:{self.runtime}/native"

    def __enter__(self) -> SoundServer:
        subprocess.run(
            [
                "pulseaudio",
                "--daemonize=yes",
                "--exit-idle-time=-1",
                "-n",
                "--use-pid-file=yes",
                "--load=module-null-sink sink_name=speakers",
                "--load=module-null-sink sink_name=mic",
                f"--load=module-native-protocol-unix socket={self.runtime}/native auth-anonymous=1",
            ],
            check=True,
            capture_output=True,
        )
        for _ in range(100):
            if subprocess.run(["pactl", "info"], capture_output=True).returncode == 0:
                break
            time.sleep(0.05)
        subprocess.run(["pactl", "set-default-sink", "speakers"], check=True)
        subprocess.run(["pactl", "set-default-source", "mic.monitor"], check=True)
        return self

    def __exit__(self, *exc) -> None:
        pid = Path(self.runtime, "pid")
        if pid.exists():
            # after this process has gone: libpulse (soundcard's connection) aborts the process
            # when its server vanishes under it. Not on our output: whoever reads it to its end
            # (subprocess.run) would wait for this, which waits for them to reap us.
            subprocess.Popen(
                [
                    "sh",
                    "-c",
                    f"while kill -0 {os.getpid()} 2>/dev/null; do sleep 0.2; done; kill -9 {int(pid.read_text())}",
                ],
                start_new_session=True,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )

    @staticmethod
    def play_into_mic(path: Path) -> None:
        subprocess.run(["paplay", "--device=mic", str(path)], check=True)


class Recorder(threading.Thread):
    """Records a source in 50 ms blocks, each stamped with when it was recorded (monotonic seconds):
    the first block's arrival, then the samples counted since (the server records without gaps;
    arrival times alone would be late whenever this thread waits for the GIL)."""

    def __init__(self, source: str):
        super().__init__(daemon=True)
        self.source, self.blocks, self.quit, self.ready = source, [], threading.Event(), threading.Event()

    def run(self) -> None:
        microphone = connected_soundcard().get_microphone(self.source, include_loopback=True)
        with microphone.recorder(samplerate=RATE, channels=1, blocksize=BLOCK) as recorder:
            self.ready.set()
            first = recorder.record(numframes=BLOCK)[:, 0]
            clock, self.blocks = time.monotonic(), [(time.monotonic(), first)]
            while not self.quit.is_set():
                block = recorder.record(numframes=BLOCK)[:, 0]
                clock += len(block) / RATE
                self.blocks.append((clock, block))

    def first_sound_after(self, moment: float, threshold: float = 0.02) -> float | None:
        for arrived, block in list(self.blocks):
            start = arrived - len(block) / RATE
            for i in range(0, len(block) - FRAME + 1, FRAME):
                at = start + i / RATE
                if at >= moment and np.sqrt(np.mean(block[i : i + FRAME] ** 2)) > threshold:
                    return at
        return None


def percentile(values: list[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else float("nan")


def translators_for(args) -> tuple[dict, dict, str]:
    """(nmt_models, translators, description) for the conversation."""
    int8 = args.precision == "int8"
    if not args.nmt_model and not args.bench_model:
        folders = {d: PHRASEBOOK / d for d in ("en-zh", "zh-en")}
        translators = {d: Translator.load(f, direction=d) for d, f in folders.items()}
        return folders, translators, "the phrasebook fixture models (tiny; --nmt-model for opus-mt int8)"
    if args.nmt_model:
        folders = dict(zip(("en-zh", "zh-en"), args.nmt_model * (2 if len(args.nmt_model) == 1 else 1), strict=False))
        translators = {d: Translator.load(f, direction=d, prefer_quantized=int8) for d, f in folders.items()}
        return folders, translators, f"{args.nmt_model} ({args.precision})"

    models = bench_model.build(log=lambda m: print(m, file=sys.stderr))
    translators = {
        d: Translator.load(models.onnx, direction="en-zh", prefer_quantized=int8) for d in ("en-zh", "zh-en")
    }
    return (
        {d: models.onnx for d in translators},
        translators,
        f"full-size opus-mt architecture (random weights) {args.precision}, {args.tokens} tokens per sentence",
    )


def run_call(args, folder: Path) -> tuple[list[tuple[float, float, float | None]], str]:
    """(speech end, translation, first sound) per sentence, and what translated."""
    nmt_models, translators, described = translators_for(args)
    load_whisper(args.asr_model)
    events: list[Event] = []
    forced = {"min_new_tokens": args.tokens, "max_new_tokens": args.tokens, "loop_window": 0}
    overrides = forced if args.bench_model else {}
    shared = PipelineConfig(
        direction="en-zh",
        nmt_models=nmt_models,
        asr_model=args.asr_model,
        emit_steps=False,
        speak_into="virtual-mic",
        save_transcript=False,
        decode_overrides=overrides,
    )
    config = ConversationConfig(shared, spoken=frozenset({Speaker.ME}))
    conversation = Conversation(config, on_event=events.append, translators=translators)
    conversation.start()
    recorder = Recorder("live_translator_mic")
    try:
        deadline = time.monotonic() + 120
        while sum(1 for e in events if getattr(e, "state", None) == "running") < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(2.5)  # a null sink's monitor delivers its first audio ~2 s after it is opened
        recorder.start()
        recorder.ready.wait(10)
        for i in range(args.sentences):
            clip = folder / f"s{i}.wav"
            subprocess.run(["espeak-ng", "-v", "en-us", "-w", str(clip), ENGLISH[i % len(ENGLISH)]], check=True)
            spoken = sum(isinstance(e, Speech) for e in events)
            SoundServer.play_into_mic(clip)
            deadline = time.monotonic() + 30
            while sum(isinstance(e, Speech) for e in events) <= spoken and time.monotonic() < deadline:
                time.sleep(0.05)
            time.sleep(1.0)
    finally:
        conversation.stop()
        recorder.quit.set()
        recorder.join(5)
    finals = {e.utterance_id: e for e in events if isinstance(e, SourceFinal) and e.speaker is Speaker.ME}
    shown = {
        e.utterance_id: e
        for e in events
        if isinstance(e, Translation) and not e.provisional and e.speaker is Speaker.ME
    }
    spoken = sorted(e.emitted_at for e in events if isinstance(e, Speech))
    rows = []
    for uid, final in sorted(finals.items()):
        if uid in shown:
            end = final.speech_end_at
            # the sound of the sentence before has ended once it was reported spoken
            after = max([end] + [t for t in spoken if t < shown[uid].emitted_at])
            rows.append((end, shown[uid].emitted_at, recorder.first_sound_after(after)))
    return rows, described


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=int, default=12)
    parser.add_argument("--tokens", type=int, default=16, help="output tokens forced per sentence (--bench-model only)")
    parser.add_argument("--asr-model", default="base")
    parser.add_argument("--precision", default="int8", choices=["fp32", "int8"])
    parser.add_argument("--nmt-model", action="append", default=[], help="real model folders (en-zh, then zh-en)")
    parser.add_argument(
        "--bench-model", action="store_true", help="bench/bench_model.py's full-size random-weight model"
    )
    args = parser.parse_args(argv)
    with SoundServer(), tempfile.TemporaryDirectory() as tmp:
        load = os.getloadavg()[0]
        rows, described = run_call(args, Path(tmp))
    shown = [(t - end) * 1000 for end, t, _ in rows]
    sound = [(s - end) * 1000 for end, _, s in rows if s is not None]
    extra = [(s - t) * 1000 for _, t, s in rows if s is not None]
    print(
        f"call set-up: {len(rows)} of {args.sentences} sentences translated, {len(sound)} heard in "
        f"live_translator_mic; Whisper {args.asr_model}; {described}; {os.cpu_count()} cores, load average "
        f"{load:.1f} at start, {os.getloadavg()[0]:.1f} at the end"
    )
    print(f"{'latency':<44} {'p50 ms':>8} {'p95 ms':>8}")
    for label, values in (
        ("end of speech -> final translation (peer)", shown),
        ("end of speech -> first sound in the call", sound),
        ("final translation -> first sound", extra),
    ):
        print(f"{label:<44} {percentile(values, 50):>8.0f} {percentile(values, 95):>8.0f}")
    if sound:
        print(
            f"first sound / translation p50 ratio: {statistics.median(sound) / statistics.median(shown):.2f}; "
            f"target: end of speech -> first sound p50 <= 1500 ms (quiet 2-core machine, int8 model)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
