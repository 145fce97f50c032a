"""Short phrases decoded alone: Whisper's 30 s window against the utterance's window.

The phrasebook's English phrases (models/phrasebook.py; most 1-2.5 s, the kind people say to
each other in a call: "Good morning.", "Thank you very much.") are spoken by espeak-ng and each
decoded alone, cut as the recognizer cuts a final (0.4 s before, 0.2 s after), beam 5: through
faster-whisper's transcribe (30 s) and through app.asr.window with the margin of 3 s and several
minimum window lengths. Prints per model and window: phrases heard exactly, heard word for word
(case and punctuation aside), WER, and the misheard ones.

    .venv/bin/python -m bench.short_phrases [--models base tiny.en] [--min-windows 10 20 30] [--phrases N]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import tempfile
from pathlib import Path

import jiwer
import numpy as np

from app.asr import load_whisper
from app.asr.window import decode_window
from app.shared.audio import SAMPLE_RATE
from models.phrasebook import PHRASES


def spoken(texts: list[str], folder: Path) -> list[np.ndarray]:
    from faster_whisper import decode_audio

    clips = []
    for i, text in enumerate(texts):
        path = folder / f"phrase{i}.wav"
        subprocess.run(["espeak-ng", "-v", "en-us", "-w", str(path), text], check=True)
        speech = decode_audio(str(path), sampling_rate=SAMPLE_RATE)
        clips.append(np.concatenate([np.zeros(int(0.4 * SAMPLE_RATE), np.float32), speech, np.zeros(3200, np.float32)]))
    return clips


def words(text: str) -> str:
    return " ".join(re.sub(r"[^\w' ]", " ", text.lower()).split())


def heard(model, clip: np.ndarray, min_window: float | None) -> str:
    if min_window is None:
        segments, _ = model.transcribe(
            clip, language="en", beam_size=5, without_timestamps=True, temperature=0.0, condition_on_previous_text=False
        )
        return " ".join(s.text.strip() for s in segments)
    return decode_window(model, clip, "en", margin_s=3.0, min_s=min_window, beam_size=5, max_new_tokens=40).text.strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="+", default=["base", "tiny.en"])
    parser.add_argument("--min-windows", nargs="+", type=float, default=[10.0, 20.0, 30.0])
    parser.add_argument("--phrases", type=int, default=None, help="the first N phrases only (default: all)")
    args = parser.parse_args(argv)
    texts = sorted({english for english, _ in PHRASES})[: args.phrases]
    with tempfile.TemporaryDirectory() as tmp:
        clips = spoken(texts, Path(tmp))
    seconds = np.median([len(c) / SAMPLE_RATE for c in clips])
    print(f"{len(texts)} phrases, median {seconds:.1f} s with the cut's padding; beam 5; margin 3 s")
    print(f"{'model':8} {'window':>16} {'exact':>6} {'words':>6} {'WER':>6}  misheard")
    for name in args.models:
        model = load_whisper(name)
        for min_window in [None, *args.min_windows]:
            got = [heard(model, clip, min_window) for clip in clips]
            exact = sum(g == t for g, t in zip(got, texts))
            same = sum(words(g) == words(t) for g, t in zip(got, texts))
            wer = jiwer.wer([words(t) for t in texts], [words(g) or "-" for g in got])
            label = "30 s (transcribe)" if min_window is None else f"utterance, >= {min_window:.0f} s"
            wrong = [g for g, t in zip(got, texts) if words(g) != words(t)]
            print(f"{name:8} {label:>16} {exact:>6} {same:>6} {wer:6.3f}  {wrong}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
