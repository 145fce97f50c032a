"""How robustly Whisper hears an espeak-ng phrase: before a test pins Whisper's text on it.

    .venv/bin/python tools/whisper_margin.py [--voice cmn-latn-pinyin] [--model base] PHRASE ...

Each phrase is said at 160, 175 and 190 words a minute and shifted by 0, 8, 16 and 24 ms (which
moves the VAD's frames), and read by the app's recogniser under every `pytest --cpu-isa`
profile this CPU can run (tests/cpu_isa.py), each in its own process. Prints, per phrase and
profile, how many of the 12 readings came back exactly; a test may pin text that came back
12 of 12 everywhere (docs/development.md, "Running the suite under another CPU instruction set").
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPEEDS = (160, 175, 190)
SHIFTS_MS = (0, 8, 16, 24)


def profiles() -> dict[str, dict[str, str]]:
    """The profiles of tests/cpu_isa.py this CPU can run, and this CPU's own."""
    spec = importlib.util.spec_from_file_location("cpu_isa", ROOT / "tests" / "cpu_isa.py")
    cpu_isa = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cpu_isa)
    flags = cpu_isa.cpu_flags()
    runnable = {name: env for name, (_, env, needs) in cpu_isa.PROFILES.items() if needs <= flags}
    return {"default": {}, **runnable}


def readings(model: str, voice: str, phrases: list[str]) -> dict[str, list[str]]:
    """phrase -> the recogniser's final text at every speed and shift (run in a child process)."""
    import numpy as np
    from faster_whisper import decode_audio

    from app.asr import StreamingRecognizer, load_whisper

    whisper, language = load_whisper(model), "zh" if voice.startswith("cmn") else "en"
    heard: dict[str, list[str]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for phrase in phrases:
            for speed in SPEEDS:
                wav = Path(folder, "phrase.wav")
                subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "-w", str(wav), phrase], check=True)
                clip = decode_audio(str(wav), sampling_rate=16000)
                for ms in SHIFTS_MS:
                    audio = np.concatenate([np.zeros(8000 + 16 * ms, np.float32), clip, np.zeros(19200, np.float32)])
                    recognizer = StreamingRecognizer(whisper, language=language)
                    events = [e for i in range(0, len(audio), 1600) for e in recognizer.feed(audio[i : i + 1600])]
                    finals = [e.text for e in events + recognizer.flush() if type(e).__name__ == "SourceFinal"]
                    heard.setdefault(phrase, []).append(" / ".join(finals))
    return heard


def exact(said: str, heard: str) -> bool:
    from app.shared.chinese import to_simplified

    def norm(text: str) -> str:
        return re.sub(r"[\W_]+", "", to_simplified(text).lower())

    return norm(said) == norm(heard)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("phrases", nargs="+")
    parser.add_argument("--voice", default="en-us", help="espeak-ng voice (cmn-latn-pinyin for Mandarin)")
    parser.add_argument("--model", default="base", help="Whisper model")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        json.dump(readings(args.model, args.voice, args.phrases), sys.stdout, ensure_ascii=False)
        return 0
    table: dict[str, dict[str, list[str]]] = {}
    for name, environment in profiles().items():
        child = [sys.executable, __file__, "--child", "--voice", args.voice, "--model", args.model, *args.phrases]
        done = subprocess.run(child, env={**os.environ, **environment}, capture_output=True, text=True, cwd=ROOT)
        if done.returncode != 0:
            sys.stderr.write(f"{name}: {done.stderr.strip()[-400:]}\n")
            return 1
        table[name] = json.loads(done.stdout)
    print("phrase".ljust(24) + "".join(name.rjust(11) for name in table))
    for phrase in args.phrases:
        scores = [f"{sum(exact(phrase, h) for h in heard[phrase])}/{len(heard[phrase])}" for heard in table.values()]
        print(phrase.ljust(24) + "".join(score.rjust(11) for score in scores))
        misheard = {h for heard in table.values() for h in heard[phrase] if not exact(phrase, h)}
        if misheard:
            print("    also heard: " + ", ".join(sorted(misheard)))
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    raise SystemExit(main())
