"""Runs one hot path of a C extension many times in a fresh interpreter and prints how far the
reference counts of True, False and None moved (JSON on stdout): tests/test_refcounts.py.

A C extension that drops a reference it does not own (PySide6 6.12.0 on every signal carrying a
bool) makes the count fall by one per call; on Python 3.11, where booleans are not immortal,
the interpreter aborts once it reaches zero ("deallocating True or False"). Usage:
    python tests/refcount_probe.py PROBE
"""

from __future__ import annotations

import gc
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def qt_signals() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QObject, Signal
    from PySide6.QtWidgets import QApplication, QCheckBox

    app = QApplication.instance() or QApplication([])

    class Emitter(QObject):
        flag = Signal(bool)
        anything = Signal(object)
        pair = Signal(object, object)

    emitter, box, seen = Emitter(), QCheckBox(), []
    emitter.flag.connect(seen.append)
    emitter.anything.connect(seen.append)
    emitter.pair.connect(lambda a, b: seen.append(a))
    box.toggled.connect(seen.append)  # Qt's own C++ signal carrying a bool into Python
    calls = 0
    for i in range(5000):
        emitter.flag.emit(i % 2 == 0)
        emitter.anything.emit(True)
        emitter.anything.emit(None)
        emitter.pair.emit(False, None)
        box.setChecked(i % 2 == 0)
        calls += 1
        seen.clear()
    app.processEvents()
    return calls


def onnxruntime_translation() -> int:
    from app.translation.translator import Translator

    translator = Translator.load(ROOT / "tests/fixtures/phrasebook/en-zh", "en-zh")
    for _ in range(60):  # each: an encoder run, decoder steps with the bool use_cache_branch, numpy
        translator.translate("Hello, everyone. Welcome to the meeting.")
    return 60


def ctranslate2_whisper() -> int:
    import numpy as np
    import soundfile

    from app.asr.whisper_models import load_whisper

    model = load_whisper("tiny.en")
    audio, _ = soundfile.read(ROOT / "resources/selftest/hello.wav", dtype="float32")
    audio = np.asarray(audio, dtype=np.float32)
    # 24 calls: a per-call leak moves a count by 24 or more, well past the few Nones faster-whisper's
    # own objects hold or free between readings (−3 to −6 seen at 12 calls, against a limit of 6).
    for _ in range(24):
        segments, _info = model.transcribe(audio, language="en", beam_size=1, word_timestamps=True)
        list(segments)
    return 24


def ahocorasick_matching() -> int:
    import ahocorasick

    automaton = ahocorasick.Automaton()
    for word in ("meeting", "Beijing", "北京", "会议"):
        automaton.add_word(word, (word, True))
    automaton.make_automaton()
    for _ in range(20000):
        automaton.exists("meeting")
        automaton.get("nothing", False)
        list(automaton.iter("welcome to the meeting in 北京"))
    return 20000


def sounddevice_callbacks() -> int:
    """A real PortAudio input stream (the PulseAudio server the test started) for 200 callbacks."""
    import sounddevice

    calls = []
    with sounddevice.InputStream(
        device="pulse", samplerate=16000, channels=1, blocksize=160, callback=lambda *args: calls.append(1)
    ):
        # 200 callbacks (two seconds of audio), however late a loaded PulseAudio server starts the
        # stream: CI once saw 3 in a fixed two-second sleep.
        deadline = time.monotonic() + 30.0
        while len(calls) < 200 and time.monotonic() < deadline:
            time.sleep(0.05)
    return len(calls)


PROBES = {
    f.__name__: f
    for f in (qt_signals, onnxruntime_translation, ctranslate2_whisper, ahocorasick_matching, sounddevice_callbacks)
}


def settled_counts() -> list[int]:
    # Cyclic garbage freed at a random moment drops None's count by the Nones it held (CI saw −6 over
    # 12 Whisper calls once): collect it before each reading, so only what the calls keep or drop shows.
    gc.collect()
    return [sys.getrefcount(x) for x in (True, False, None)]


def main() -> None:
    """Prints, for True, False and None, the smaller move of two measured rounds: a leak moves a
    count in every round, a cache filling up (objects holding None) in the first only."""
    probe = PROBES[sys.argv[1]]
    probe()  # a first round: caches and lazy imports settle
    rounds = []
    for _ in range(2):
        before = settled_counts()
        calls = probe()
        rounds.append([a - b for a, b in zip(settled_counts(), before)])
    moved = {name: min((r[i] for r in rounds), key=abs) for i, name in enumerate(("true", "false", "none"))}
    print(json.dumps({"calls": calls, **moved}))


if __name__ == "__main__":
    main()
