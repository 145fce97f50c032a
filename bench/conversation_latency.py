"""End of speech -> final translation shown, per speaker, in a conversation on this machine.

Two recordings stand in for the two sources, fed at speaking speed (as live sources deliver
them) into a Conversation: `me` speaks English (en->zh), `them` Mandarin (zh->en), taking turns
with a pause between turns. Both sides run Silero VAD + Whisper base (one model, shared) and
the full-size opus-mt architecture (random weights from bench/bench_model.py, int8, forced to
write `--tokens` tokens per sentence; the zh->en side loads its own copy, the same size as
opus-mt-zh-en). Prints, per speaker, p50 and p95 of the latency each final translation carries,
the process's peak RSS and its CPU use, and the same figures for one speaker alone (a single
pipeline on the `me` recording) as the peer.

Two designs: `two-pipelines` (the app's: each side translates on its own worker) and
`shared-worker` (the same, with one lock around every decode, so the sides' translations run
one at a time as they would on a single translation worker).

`--pulse`: the recordings are played into a private PulseAudio server (tests/asr/conftest.py's
SoundRoom: `mic` and `speakers` null sinks) and the conversation captures them as the app does, the
microphone and the system audio through PortAudio. `--busy-cores N` runs N busy-loop processes
beside (the call app, a browser).

    .venv/bin/python -m bench.conversation_latency [--turns 24] [--tokens 16] [--asr-model base] [--precision int8]
        [--designs two-pipelines shared-worker] [--pulse] [--busy-cores N]
    .venv/bin/python -m bench.conversation_latency --small --turns 2   # seconds: tries the bench
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
import soundfile as sf

from app.asr import load_whisper
from app.audio import SAMPLE_RATE, FileSource
from app.pipeline import Pipeline, PipelineConfig
from app.pipeline.conversation import Conversation, ConversationConfig
from app.shared.chinese import ChineseScript
from app.shared.events import Error, Speaker, State, Status, Translation
from app.translation import Translator
from bench import bench_model
from bench.busy import busy_cores
from models.phrasebook import SPOKEN_EN, SPOKEN_ZH

ENGLISH = SPOKEN_EN + ["Welcome to the meeting.", "We need more time."]
MANDARIN = SPOKEN_ZH + ["我们去吃饭吧。", "谢谢你的帮助。"]
VOICES = {"en": "en-us", "zh": "cmn-latn-pinyin"}


def clip(text: str, language: str, folder: Path, name: str) -> np.ndarray:
    from faster_whisper import decode_audio

    path = folder / f"{name}.wav"
    subprocess.run(["espeak-ng", "-v", VOICES[language], "-w", str(path), text], check=True)
    return decode_audio(str(path), sampling_rate=SAMPLE_RATE)


def make_turns(turns: int, folder: Path, gap_s: float = 1.5) -> tuple[Path, Path, float]:
    """Two tracks of equal length: me speaks on even turns, them on odd turns; the other is silent."""
    me, them = [np.zeros(int(0.5 * SAMPLE_RATE), np.float32)], [np.zeros(int(0.5 * SAMPLE_RATE), np.float32)]
    for turn in range(turns):
        mine = turn % 2 == 0
        text = ENGLISH[(turn // 2) % len(ENGLISH)] if mine else MANDARIN[(turn // 2) % len(MANDARIN)]
        speech = clip(text, "en" if mine else "zh", folder, f"t{turn}")
        pause = np.zeros(int(gap_s * SAMPLE_RATE), np.float32)
        silent = np.zeros_like(speech)
        me += [speech if mine else silent, pause]
        them += [silent if mine else speech, pause]
    paths = folder / "me.wav", folder / "them.wav"
    for path, parts in zip(paths, (me, them), strict=True):
        sf.write(path, np.concatenate(parts), SAMPLE_RATE)
    return paths[0], paths[1], sum(len(p) for p in me) / SAMPLE_RATE


def percentile(values: list[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else float("nan")


class Usage:
    """CPU seconds, wall time and the largest resident set size (sampled every 0.2 s) of this
    process between start and stop."""

    def __enter__(self):
        import psutil

        self.process = psutil.Process()
        self.peak_rss = self.process.memory_info().rss
        self._stop = threading.Event()
        self._sampler = threading.Thread(target=self._sample, daemon=True)
        self._sampler.start()
        self.cpu, self.wall = time.process_time(), time.monotonic()
        return self

    def _sample(self) -> None:
        while not self._stop.wait(0.2):
            self.peak_rss = max(self.peak_rss, self.process.memory_info().rss)

    def __exit__(self, *exc):
        self.cpu, self.wall = time.process_time() - self.cpu, time.monotonic() - self.wall
        self._stop.set()
        self._sampler.join()


def overrides(tokens: int) -> dict:
    return {"min_new_tokens": tokens, "max_new_tokens": tokens, "loop_window": 0}


class OneAtATime:
    """A Translator whose decodes take turns with every other one sharing `lock` (a PipelineTranslator)."""

    def __init__(self, translator, lock: threading.Lock):
        self.translator, self.lock = translator, lock
        self.joiner, self.codec = translator.joiner, translator.codec

    @property
    def chinese(self) -> ChineseScript:
        return self.translator.chinese

    @chinese.setter
    def chinese(self, script: ChineseScript) -> None:
        self.translator.chinese = script

    def stream(self, text: str, options=None, cancel=None, forced=(), on_step=None):
        with self.lock:
            yield from self.translator.stream(text, options, cancel, forced, on_step)


def conversation(
    me: Path, them: Path, translators: dict, asr_model: str, tokens: int, pulse: bool = False
) -> tuple[list, Usage]:
    events: list = []
    shared = PipelineConfig(
        direction="en-zh",
        asr_model=asr_model,
        tts_enabled=False,
        emit_steps=False,
        save_transcript=False,
        decode_overrides=overrides(tokens),
    )
    config = ConversationConfig(shared)
    if pulse:
        live = Conversation(config, on_event=events.append, translators=translators)  # microphone and system audio
        return played_into_pulse(me, them, live, events)
    talk = Conversation(
        config,
        on_event=events.append,
        translators=translators,
        sources={Speaker.ME: FileSource(me, realtime=True), Speaker.THEM: FileSource(them, realtime=True)},
    )
    with Usage() as usage:
        talk.start()
        talk.wait_until_done(1200)
        talk.stop()
    return events, usage


def played_into_pulse(me: Path, them: Path, talk: Conversation, events: list) -> tuple[list, Usage]:
    """`talk` on its live sources (microphone, system audio) in a private PulseAudio server, with
    `me` played into the microphone's sink and `them` into the speakers, at once."""
    from tests.asr.conftest import SoundRoom  # lazy: the tests' PulseAudio harness, for --pulse only

    room = SoundRoom()
    os.environ.update(PULSE_RUNTIME_PATH=room.runtime, PULSE_SERVER=room.env["PULSE_SERVER"])
    room.start()
    try:
        with Usage() as usage:
            talk.start()
            while len({e.speaker for e in list(events) if isinstance(e, Status) and e.state is State.RUNNING}) < 2:
                time.sleep(0.1)  # both sides listening
            time.sleep(2.5)  # the null sinks' monitors start delivering ~2 s after they are opened
            players = [room.play_to("mic", me), room.play_to("speakers", them)]
            for player in players:
                player.wait(timeout=1200)
            time.sleep(3.0)  # the last turn's final and translation
            talk.finish()
            talk.wait_until_done(120)
            talk.stop()
    finally:
        room.kill()
    return events, usage


def alone(me: Path, translators: dict, asr_model: str, tokens: int) -> tuple[list, Usage]:
    events: list = []
    config = PipelineConfig(
        direction="en-zh",
        input_path=me,
        realtime=True,
        asr_model=asr_model,
        tts_enabled=False,
        save_transcript=False,
        emit_steps=False,
        decode_overrides=overrides(tokens),
    )
    pipeline = Pipeline(config, on_event=events.append, translators={"en-zh": translators["en-zh"]})
    with Usage() as usage:
        pipeline.start()
        pipeline.wait_until_done(1200)
        pipeline.stop()
    return events, usage


def report(label: str, events: list, speaker: Speaker | None, usage: Usage, expected: int) -> None:
    done = [e.latency_ms for e in events if isinstance(e, Translation) and not e.provisional and e.speaker == speaker]
    p50, p95 = (statistics.median(done), percentile(done, 95)) if done else (float("nan"), float("nan"))
    verdict = "met" if p50 <= 1000 and p95 <= 1600 else "missed"
    print(
        f"{label:<30} {len(done):>3}/{expected:<3} {p50:>8.0f} {p95:>8.0f}   {verdict:<6} "
        f"{usage.cpu / usage.wall:>9.2f} {usage.wall:>7.1f} {usage.peak_rss / 2**20:>7.0f}",
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=24, help="turns in the conversation (half each)")
    parser.add_argument("--tokens", type=int, default=16, help="output tokens forced per sentence (min=max)")
    parser.add_argument("--asr-model", default="base")
    parser.add_argument("--precision", default="int8", choices=["fp32", "int8"])
    parser.add_argument("--designs", nargs="+", default=["two-pipelines"], choices=["two-pipelines", "shared-worker"])
    parser.add_argument("--pulse", action="store_true", help="play the tracks into a private PulseAudio server")
    parser.add_argument("--busy-cores", type=int, default=0, help="busy-loop processes running beside")
    bench_model.add_size_option(parser)
    args = parser.parse_args(argv)
    with busy_cores(args.busy_cores):
        return run(args)


def run(args: argparse.Namespace) -> int:
    models = bench_model.build(log=lambda m: print(m, file=sys.stderr), size="small" if args.small else "full")
    int8 = args.precision == "int8"
    # Two copies, as a conversation with two Marian folders loads (same size as opus-mt-zh-en).
    translators = {
        d: Translator.load(models.onnx, direction="en-zh", prefer_quantized=int8) for d in ("en-zh", "zh-en")
    }
    load_whisper(args.asr_model)
    with tempfile.TemporaryDirectory() as tmp:
        me, them, duration = make_turns(args.turns, Path(tmp))
        mine, theirs = (args.turns + 1) // 2, args.turns // 2
        print(
            f"conversation: {args.turns} turns, {duration:.1f} s per track, fed at speaking speed; Whisper "
            f"{args.asr_model}; {models.shape.describe()}, {args.precision}, {args.tokens} tokens per sentence; "
            f"{'through PulseAudio; ' if args.pulse else ''}{args.busy_cores} busy-loop processes beside; "
            f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at start"
        )
        print(
            f"{'run':<30} {'n':>7} {'p50 ms':>8} {'p95 ms':>8}   {'target':<6} {'CPU cores':>9} {'wall s':>7} "
            f"{'RSS MB':>7}"
        )
        for design in args.designs:
            lock = threading.Lock()
            used = (
                translators if design == "two-pipelines" else {d: OneAtATime(t, lock) for d, t in translators.items()}
            )
            events, usage = conversation(me, them, used, args.asr_model, args.tokens, args.pulse)
            report(f"{design}: me (en-zh)", events, Speaker.ME, usage, mine)
            report(f"{design}: them (zh-en)", events, Speaker.THEM, usage, theirs)
            errors = [e.text for e in events if isinstance(e, Error)]
            if errors:
                print(f"  errors: {errors[:3]}")
        events, usage = alone(me, translators, args.asr_model, args.tokens)
        report("one speaker alone (peer)", events, None, usage, mine)
        print(
            f"RSS MB: the process's largest resident set during the run (Whisper, both translation models "
            f"loaded throughout). CPU cores: process CPU time / wall time. Target per speaker (issue 22, quiet): "
            f"p50 <= 1000 ms, p95 <= 1600 ms (one core busy: p50 <= 1500 ms). "
            f"Load average {os.getloadavg()[0]:.1f} at the end."
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
