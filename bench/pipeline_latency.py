"""End of speech -> final translation, through the whole live chain, on this machine.

Speech made with espeak-ng is fed at speaking speed (as a microphone would deliver it) into
the Pipeline: Silero VAD + Whisper base, then the full-size opus-mt-en-zh architecture
(random weights from bench/bench_model.py, exported through models/export.py), forced to
write `--tokens` output tokens per sentence. Prints the median and p95 of the latency the
pipeline stamps on each final translation, split into its recognition part (end of speech ->
final source text) and its translation part, with and without provisional translation of
partial text (fp32; int8 on request); the ratio is the whole chain against recognition alone,
measured in the same run.

    .venv/bin/python -m bench.pipeline_latency [--utterances 8] [--tokens 16] [--precision fp32 int8]
        [--partials on off] [--asr-models base tiny.en]
    .venv/bin/python -m bench.pipeline_latency --small --utterances 1 --partials on --asr-models tiny.en  # seconds
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import soundfile as sf

from app.audio import SAMPLE_RATE
from app.pipeline import Pipeline, PipelineConfig
from app.shared.events import Error, SourceFinal, Translation
from app.translation import Translator
from bench import bench_model
from models.phrasebook import SPOKEN_EN

SENTENCES = SPOKEN_EN + ["Welcome to the meeting.", "We need more time."]


def make_recording(count: int, folder: Path, gap_s: float = 1.5) -> Path:
    from faster_whisper import decode_audio

    parts = [np.zeros(int(0.5 * SAMPLE_RATE), np.float32)]
    for i in range(count):
        clip = folder / f"s{i}.wav"
        subprocess.run(["espeak-ng", "-v", "en-us", "-w", str(clip), SENTENCES[i % len(SENTENCES)]], check=True)
        parts += [decode_audio(str(clip), sampling_rate=SAMPLE_RATE), np.zeros(int(gap_s * SAMPLE_RATE), np.float32)]
    path = folder / "speech.wav"
    sf.write(path, np.concatenate(parts), SAMPLE_RATE)
    return path


def percentile(values: list[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else float("nan")


def measure(model_dir: Path, int8: bool, wav: Path, tokens: int, partials: bool, asr_model: str) -> dict:
    translator = Translator.load(model_dir, direction="en-zh", prefer_quantized=int8)
    events: list = []
    config = PipelineConfig(
        direction="en-zh",
        input_path=wav,
        realtime=True,
        asr_model=asr_model,
        tts_enabled=False,
        save_transcript=False,
        emit_steps=False,
        translate_partials=partials,
        decode_overrides={"min_new_tokens": tokens, "max_new_tokens": tokens, "loop_window": 0},
    )
    pipeline = Pipeline(config, on_event=events.append, translators={"en-zh": translator})
    pipeline.start()
    finished = pipeline.wait_until_done(600)
    pipeline.stop()
    finals = {e.utterance_id: e for e in events if isinstance(e, SourceFinal) and e.text.strip()}
    done = [e for e in events if isinstance(e, Translation) and not e.provisional]
    asr = [(finals[t.utterance_id].emitted_at - finals[t.utterance_id].speech_end_at) * 1000 for t in done]
    translation = [(t.emitted_at - finals[t.utterance_id].emitted_at) * 1000 for t in done]
    return {
        "model": f"{asr_model} + {translator.model_name}",
        "finished": finished,
        "utterances": len(finals),
        "translated": len(done),
        "errors": [e.text for e in events if isinstance(e, Error)],
        "total": [t.latency_ms for t in done],
        "asr": asr,
        "translation": translation,
        "provisional": sum(isinstance(e, Translation) and e.provisional for e in events),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--utterances", type=int, default=8)
    parser.add_argument("--tokens", type=int, default=16, help="output tokens forced per sentence (min=max)")
    parser.add_argument("--precision", nargs="+", default=["fp32"], choices=["fp32", "int8"])
    parser.add_argument(
        "--partials",
        nargs="+",
        default=["on", "off"],
        choices=["on", "off"],
        help="translate partial text provisionally (on), or only final text (off)",
    )
    parser.add_argument("--asr-models", nargs="+", default=["base"], help="Whisper models (tiny.en for a comparison)")
    bench_model.add_size_option(parser)
    args = parser.parse_args(argv)
    models = bench_model.build(log=lambda m: print(m, file=sys.stderr), size="small" if args.small else "full")
    with tempfile.TemporaryDirectory() as tmp:
        wav = make_recording(args.utterances, Path(tmp))
        duration = sf.info(wav).duration
        print(
            f"recording: {args.utterances} utterances, {duration:.1f} s, fed at speaking speed; "
            f"{args.tokens} output tokens per sentence; {models.shape.describe()}, exported by models.export; "
            f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at start"
        )
        print(
            f"{'model':<56} {'partials':>8} {'n':>5} {'median ms':>10} {'p95 ms':>8}   {'asr med':>8} {'nmt med':>8} {'ratio':>6}"  # noqa: E501
        )
        for asr_model, precision, partials in itertools.product(args.asr_models, args.precision, args.partials):
            r = measure(models.onnx, precision == "int8", wav, args.tokens, partials == "on", asr_model)
            med, p95 = statistics.median(r["total"]), percentile(r["total"], 95)
            asr_med, nmt_med = statistics.median(r["asr"]), statistics.median(r["translation"])
            print(
                f"{r['model'][:56]:<56} {partials:>8} {r['translated']:>2}/{r['utterances']:<2} {med:>10.0f} {p95:>8.0f}   "  # noqa: E501
                f"{asr_med:>8.0f} {nmt_med:>8.0f} {med / asr_med:>6.2f}",
                flush=True,
            )
            if r["errors"] or not r["finished"]:
                print(f"  finished={r['finished']} errors={r['errors'][:3]}")
        print(
            "median/p95: end of speech -> final translation; asr: -> final source text; nmt: final source -> "
            "translation; ratio: whole chain / recognition alone. Target: median <= 1000 ms, p95 <= 2000 ms."
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
