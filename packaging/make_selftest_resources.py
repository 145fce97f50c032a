"""Make the self-test's inputs once: resources/selftest/{hello.wav,translation/}.

    python packaging/make_selftest_resources.py    # needs espeak-ng and the `export` extra

hello.wav: espeak-ng reading expected.json's recognition text, 16 kHz mono (~110 kB).
translation/: the phrasebook en->zh model (models/phrasebook.py; ~3.5 MB), which knows
expected.json's translation by heart, so the self-test can require an exact answer.
The files are committed; run this again only to change them.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import soundfile

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(1, str(ROOT))
OUT = ROOT / "resources" / "selftest"


def make_recording(text: str, path: Path) -> None:
    with tempfile.TemporaryDirectory() as work:
        raw = Path(work) / "speech.wav"
        subprocess.run(["espeak-ng", "-v", "en-us", "-s", "150", "-w", str(raw), text], check=True)
        audio, rate = soundfile.read(raw, dtype="float32")
    # 16 kHz is what Whisper hears; linear interpolation is plenty for synthetic speech.
    times = np.arange(0, len(audio) / rate, 1 / 16000)
    soundfile.write(path, np.interp(times, np.arange(len(audio)) / rate, audio), 16000, subtype="PCM_16")


def make_translation_model(out: Path) -> None:
    from models.phrasebook import main as build_phrasebook

    with tempfile.TemporaryDirectory() as work:
        build_phrasebook(["--out", work, "--directions", "en-zh"])
        shutil.rmtree(out, ignore_errors=True)
        shutil.copytree(Path(work) / "en-zh", out)


def main() -> int:
    expected = json.loads((OUT / "expected.json").read_text(encoding="utf-8"))
    make_recording(expected["recognition"]["text"], OUT / expected["recording"])
    make_translation_model(OUT / expected["translation"]["model"])
    for path in sorted(OUT.rglob("*")):
        if path.is_file():
            print(f"{path.relative_to(ROOT)}  {path.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
