"""Peak resident memory of `transcribe` on a 1-minute and a 1-hour recording: a recording is
decoded as it is played, so the peak should not grow with its length.

    .venv/bin/python -m bench.recording_memory [--model tiny.en] [--lengths 1,60] [--format flac]

The recordings are made here at run time: one spoken sentence (espeak-ng) at the start of each
minute, silence for the rest of it (16 kHz mono; FLAC by default, WAV with --format wav).
Each `python -m app transcribe FILE --model M` runs in its own process; its peak RSS comes
from the kernel (os.wait4's ru_maxrss). The peer, in the same run: the same process reading
the recording whole as the app did before (faster_whisper.decode_audio) without transcribing.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from bench._common import ROOT

RATE = 16000
SENTENCE = "Good morning everyone, the meeting starts at nine o'clock."
WHOLE = "import sys; from faster_whisper import decode_audio; a = decode_audio(sys.argv[1]); print(len(a))"


def make_recording(folder: Path, minutes: int, fmt: str) -> Path:
    import soundfile as sf

    said = folder / "said.wav"
    subprocess.run(["espeak-ng", "-v", "en-us", "-w", str(said), SENTENCE], check=True)
    speech, rate = sf.read(str(said), dtype="float32")
    if rate != RATE:  # espeak-ng writes 22,050 Hz: to 16 kHz, simply (this is a load, not a quality test)
        speech = np.interp(np.arange(int(len(speech) * RATE / rate)) * rate / RATE, np.arange(len(speech)), speech)
    minute = np.zeros(RATE * 60, np.float32)
    minute[RATE : RATE + len(speech)] = speech[: RATE * 58]
    path = folder / f"{minutes}min.{fmt}"
    with sf.SoundFile(str(path), "w", RATE, 1, format=fmt.upper(), subtype="PCM_16") as out:
        for _ in range(minutes):
            out.write(minute)
    return path


def peak_rss(command: list[str]) -> tuple[float, float, int]:
    """(peak RSS in MB, seconds, exit status) of one process."""
    started = time.perf_counter()
    child = subprocess.Popen(
        command,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_maxrss / 1024, time.perf_counter() - started, child.returncode


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="tiny.en", help="Whisper model (default tiny.en)")
    parser.add_argument("--lengths", default="1,60", help="recording lengths in minutes (default 1,60)")
    parser.add_argument("--format", default="flac", choices=("flac", "wav"))
    args = parser.parse_args(argv)
    print(
        f"transcribe --model {args.model}: peak RSS by recording length ({args.format}), "
        f"load {open('/proc/loadavg').read().split()[0]} at the start"
    )
    print("| recording | file | transcribe peak RSS | transcribe time | decoded whole (before), peak RSS |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for minutes in (int(m) for m in args.lengths.split(",")):
            path = make_recording(Path(tmp), minutes, args.format)
            rss, took, status = peak_rss([sys.executable, "-m", "app", "transcribe", str(path), "--model", args.model])
            whole, _, _ = peak_rss([sys.executable, "-c", WHOLE, str(path)])
            note = "" if status == 0 else f" (exit {status})"
            print(
                f"| {minutes} min | {path.stat().st_size / 1e6:.1f} MB | {rss:.0f} MB{note} | {took:.0f} s | "
                f"{whole:.0f} MB |",
                flush=True,
            )
            path.unlink()
    print(f"(load {open('/proc/loadavg').read().split()[0]} at the end)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
