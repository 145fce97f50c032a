"""Speech recognition speed on this machine: real-time factor and end-of-speech -> final delay.

For each Whisper model (tiny.en and base by default), on English sentences spoken by espeak-ng
with pauses between them:
- streaming RTF: the whole streaming path (VAD, partials every 0.5 s, finals) fed as fast as
  possible, compute seconds per audio second; its peer, measured in the same run, is
  faster-whisper's own batch transcription of the same file (vad_filter=True): the ratio says
  what the live partials cost;
- delay: the file fed at real-time pace, as a microphone would; for each final, emitted_at
  minus the moment speech ended (the capture clock of the last speech frame). It includes the
  0.5 s of silence that ends an utterance. Also the median gap between partials.

    .venv/bin/python -m bench.asr_latency [--models tiny.en base] [--sentences 4] [--language zh]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np
import soundfile as sf

from app.asr import StreamingRecognizer, load_whisper, recognize
from app.audio import SAMPLE_RATE, FileSource

SENTENCES = {
    "en": (
        "en",
        [
            "Hello everyone, welcome to the meeting.",
            "The weather is very nice today.",
            "Please open the window before we start.",
            "We will talk about the new project tomorrow.",
            "I would like a cup of coffee with milk.",
            "Thank you for coming to this presentation.",
        ],
    ),
    "zh": (
        "cmn-latn-pinyin",
        [
            "ta1 shi4 wo3 de5 peng2 you3.",
            "wo3 bu4 zhi1 dao4.",
            "wo3 ai4 ni3.",
            "wo3 men5 qu4 chi1 fan4 ba5.",
            "xie4 xie4 ni3 de5 bang1 zhu4.",
        ],
    ),
}


def make_audio(language: str, count: int, folder: Path) -> Path:
    from faster_whisper import decode_audio

    voice, texts = SENTENCES[language]
    gap = np.zeros(SAMPLE_RATE, np.float32)
    parts = [gap[: SAMPLE_RATE // 2]]
    for i, text in enumerate((texts * 3)[:count]):
        wav = folder / f"s{i}.wav"
        subprocess.run(["espeak-ng", "-v", voice, "-w", str(wav), text], check=True)
        parts += [decode_audio(str(wav)), gap]
    path = folder / "speech.wav"
    sf.write(str(path), np.concatenate(parts), SAMPLE_RATE)
    return path


def bench_model(name: str, language: str, path: Path) -> dict:
    model = load_whisper(name)
    duration = sf.info(str(path)).duration
    model.transcribe(str(path), language=language)  # warm-up

    t0 = time.perf_counter()
    segments, _ = model.transcribe(str(path), language=language, vad_filter=True, condition_on_previous_text=False)
    batch_text = " ".join(s.text.strip() for s in segments)
    batch_s = time.perf_counter() - t0

    t0 = time.perf_counter()
    fast = list(recognize(FileSource(path, realtime=False), StreamingRecognizer(model, language=language)))
    stream_s = time.perf_counter() - t0

    live = list(recognize(FileSource(path, realtime=True), StreamingRecognizer(model, language=language)))
    finals = [e for e in live if e.type == "final"]
    delays = [e.emitted_at - e.speech_end_at for e in finals]
    partial_times = {}
    for e in live:
        if e.type == "partial":
            partial_times.setdefault(e.utterance_id, []).append(e.emitted_at)
    gaps = [b - a for times in partial_times.values() for a, b in zip(times, times[1:])]
    return {
        "model": name,
        "audio_s": duration,
        "batch_rtf": batch_s / duration,
        "stream_rtf": stream_s / duration,
        "delay_median": statistics.median(delays) if delays else float("nan"),
        "delay_max": max(delays) if delays else float("nan"),
        "partial_gap_median": statistics.median(gaps) if gaps else float("nan"),
        "finals": len(finals),
        "partials": sum(len(t) for t in partial_times.values()),
        "stream_text": " | ".join(e.text for e in finals),
        "batch_text": batch_text,
        "fast_finals": sum(e.type == "final" for e in fast),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="+", default=["tiny.en", "base"])
    parser.add_argument("--language", choices=("en", "zh"), default="en")
    parser.add_argument("--sentences", type=int, default=4)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        path = make_audio(args.language, args.sentences, Path(tmp))
        rows = [bench_model(name, args.language, path) for name in args.models]
    print(f"\n{args.sentences} {args.language} sentences, {rows[0]['audio_s']:.1f} s of audio")
    print(
        f"{'model':8} {'batch RTF':>9} {'stream RTF':>10} {'stream/batch':>12} {'delay med':>9} {'delay max':>9} {'partial gap':>11}  finals"  # noqa: E501
    )
    for r in rows:
        print(
            f"{r['model']:8} {r['batch_rtf']:9.2f} {r['stream_rtf']:10.2f} {r['stream_rtf'] / r['batch_rtf']:12.1f}"
            f" {r['delay_median']:8.2f}s {r['delay_max']:8.2f}s {r['partial_gap_median']:10.2f}s  {r['finals']}"
        )
    if len(rows) > 1:
        a, b = rows[0], rows[1]
        print(
            f"{b['model']} / {a['model']}: stream RTF x{b['stream_rtf'] / a['stream_rtf']:.2f}, "
            f"median delay x{b['delay_median'] / a['delay_median']:.2f}"
        )
    for r in rows:
        print(f"\n{r['model']} live finals: {r['stream_text']}\n{r['model']} batch:       {r['batch_text']}")


if __name__ == "__main__":
    main()
