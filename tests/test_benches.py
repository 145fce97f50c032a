"""Every bench still runs: each module of bench/ imports, its command line parses (`--help`), and
each one's smallest mode runs as people run it (`python -m bench.NAME ...`, in its own process)
and prints its figures. A rename in app/ that a bench missed fails here instead of on the next
person who measures. Benches whose smallest run still takes minutes (a full-size model built,
an hour of speech, a browser) are named with the reason; bench/README.md lists them too."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LIBRARIES = {"_common", "bench_model", "busy", "degrade", "engines"}  # helpers the benches import; no command line
BENCHES = sorted(p.stem for p in (ROOT / "bench").glob("*.py") if p.stem != "__init__" and p.stem not in LIBRARIES)

# The smallest run of each bench that has one in seconds: (arguments, a line of its figures that must be printed).
QUICK = {
    "weight_floor": (["--quick"], "GB/s"),
    "live_text": (["--models", "phrasebook", "--sentences", "2", "--no-cpu"], "phrasebook shipped"),
    "recording_memory": (["--lengths", "1"], "| 1 min |"),
    "calm_text": (["--sentences", "3", "--modes", "off", "agree"], "agree  provisional"),
    "int8_agreement": (["--quick"], "Overall token agreement int8 vs fp32"),
    "captions_scripts": (["--rounds", "1", "--pages", "2", "--updates", "40"], "median server CPU per update"),
    "glossary": (["--scale", "--quick", "--sizes", "100"], "| 100 |"),
    "provisional_cost": (["--models", "phrasebook", "--sentences", "1", "--repeats", "1"], "phrasebook"),
    "ui_overhead": (["--rounds", "1", "--sentences", "2"], "ratio"),
    "asr_latency": (["--models", "tiny.en", "--sentences", "1"], "tiny.en"),
    "short_phrases": (["--models", "tiny.en", "--min-windows", "10", "--phrases", "2"], "utterance, >= 10 s"),
}
# Why the others run only as far as --help here.
NOT_RUN = {
    "rooms": "its --quick runs in tests/asr/test_rooms_bench.py",
    "translation_speed": "builds the full-size opus-mt replica (minutes, once per machine)",
    "memory": "the full-size replica, both directions and the window",
    "tied_embedding": "the full-size replica",
    "pipeline_latency": "the full-size replica",
    "conversation_latency": "the full-size replica",
    "call_latency": "a private PulseAudio server and a conversation of Whisper base",
    "voices": "a private PulseAudio server and the piper voice, then Whisper base",
    "guest_speech": "PulseAudio, Chromium and a session with guests",
    "soak": "a talk of minutes through the window or `run`",
    "live_text_replay": "reads the events a live_text run kept (--keep)",
    "captions_load": "rounds of a talk at speaking speed through the pipeline",
    "glossary_size": "`run --realtime` with glossaries of 50,000 entries and more",
    "asr_accuracy": "44 sentences through every variant",
    "face_to_face": "40 clips decided in turn, Whisper base",
    "language_signals": "72 + 40 clips through several windows",
    "ui_responsiveness": "Whisper base and a translation model loading into the window",
}


def test_every_bench_is_either_run_or_says_why_not():
    assert sorted([*QUICK, *NOT_RUN]) == BENCHES
    assert not set(QUICK) & set(NOT_RUN)


@pytest.mark.parametrize("name", sorted(LIBRARIES | set(BENCHES)))
def test_every_module_of_bench_imports(name):
    module = importlib.import_module(f"bench.{name}")
    assert module.__doc__, f"bench/{name}.py says what it measures in its docstring"


@pytest.mark.parametrize("name", BENCHES)
def test_every_bench_parses_its_command_line(name, capsys):
    module = importlib.import_module(f"bench.{name}")
    with pytest.raises(SystemExit) as stopped:
        module.main(["--help"])
    assert stopped.value.code == 0
    assert "usage:" in capsys.readouterr().out


@pytest.mark.parametrize("name", sorted(QUICK))
def test_the_smallest_run_of_each_bench_prints_its_figures(name, tmp_path):
    args, figures = QUICK[name]
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "LIVE_TRANSLATOR_BENCH_CACHE": str(tmp_path / "cache")}
    done = subprocess.run(
        [sys.executable, "-m", f"bench.{name}", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    assert figures in done.stdout, done.stdout[-2000:]
