"""Every bench still runs: each module of bench/ imports, its command line parses (`--help`), and
each one's smallest mode runs as people run it (`python -m bench.NAME ...`, in its own process)
and prints its figures. A rename in app/ that a bench missed fails here instead of on the next
person who measures. One whose smallest run takes too long for CI's budget is named with the
reason; bench/README.md lists it too."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# Helpers the benches import; no command line.
LIBRARIES = {"_common", "bench_model", "busy", "causal", "degrade", "engines"}
BENCHES = sorted(p.stem for p in (ROOT / "bench").glob("*.py") if p.stem != "__init__" and p.stem not in LIBRARIES)

# The smallest run of each bench, longest first (they run two at a time): (arguments, a line of its
# figures that must be printed). `{work}` is a folder the runs share. `--small` is bench_model.py's
# small model, built once into the runs' shared cache by translation_speed (see AFTER).
QUICK = {
    "translation_speed": (
        ["--quick", "--small", "--engines", "ours", "--precisions", "fp32", "--no-first-load", "--sentences", "1"],
        "| fp32 | greedy | 20 |",
    ),
    "live_text": (
        ["--models", "phrasebook", "--sentences", "2", "--no-cpu", "--keep", "{work}/live_text"],
        "phrasebook shipped",
    ),
    "captions_load": (
        ["--rounds", "1", "--clients", "2", "--utterances", "1", "--asr-model", "tiny.en"],
        "with 2+1 pages",
    ),
    "conversation_latency": (["--small", "--turns", "2"], "one speaker alone (peer)"),
    "soak": (
        ["--minutes", "0.1", "--bucket", "0.1", "--paths", "cli", "--clients", "1", "--asr-model", "tiny.en"],
        "== cli: exit status 0",
    ),
    "guest_speech": (["--turns", "1", "--only", "phone", "--no-host"], "phone (Chromium, TLS)"),
    "face_to_face": (["--quick"], "ours in the recognizer (sides, hysteresis)"),
    "voices": (["--sentences", "1"], "| piper:en_US-joe-medium |"),
    "ui_responsiveness": (["--asr-model", "tiny.en", "--seconds", "0.5"], "running → first translation"),
    "call_latency": (["--sentences", "1"], "1 of 1 sentences translated"),
    "ui_overhead": (["--rounds", "1", "--sentences", "2"], "ratio"),
    "pipeline_latency": (["--small", "--utterances", "1", "--partials", "on", "--asr-models", "tiny.en"], "tiny.en + "),
    "int8_agreement": (["--quick"], "Overall token agreement int8 vs fp32"),
    "calm_text": (["--sentences", "3", "--modes", "off", "agree"], "agree  provisional"),
    "glossary": (["--scale", "--quick", "--sizes", "100"], "| 100 |"),
    "glossary_size": (["--sizes", "1000", "--rounds", "1", "--sentences", "1"], "| 1,000 |"),
    "provisional_cost": (["--models", "phrasebook", "--sentences", "1", "--repeats", "1"], "phrasebook"),
    "asr_latency": (["--models", "tiny.en", "--sentences", "1"], "tiny.en"),
    "tied_embedding": (["--small", "--rounds", "1", "--repeats", "1", "--tokens", "5"], "same token ids"),
    "live_text_replay": (
        ["{work}/live_text/phrasebook-shipped.jsonl", "--model", "phrasebook", "--rules", "shipped-*"],
        "shipped-balanced",
    ),
    "memory": (["--small", "--precisions", "fp32", "--asr-model", "tiny.en"], "| fp32 | + zh-en model, one sentence |"),
    "asr_accuracy": (
        ["--model", "tiny.en", "--languages", "en", "--variants", "shipped", "--sentences", "2"],
        "en   shipped",
    ),
    "short_phrases": (["--models", "tiny.en", "--min-windows", "10", "--phrases", "2"], "utterance, >= 10 s"),
    "recording_memory": (["--lengths", "1"], "| 1 min |"),
    "captions_scripts": (["--rounds", "1", "--pages", "2", "--updates", "40"], "median server CPU per update"),
    "weight_floor": (["--quick"], "GB/s"),
    # 4 utterances through four windows (one of 30 s) and two forced decodes of Whisper base: 12 s quiet.
    "language_signals": (["--quick"], "cost of decode: p50"),
    "forced_context": (["--quick"], "clean"),
}
# Runs that start once another has finished: it wrote what they read (live_text --keep), or built
# the small model they load (two builds at once would replace each other's folders).
AFTER = {
    "live_text_replay": "live_text",
    "memory": "translation_speed",
    "tied_embedding": "translation_speed",
    "pipeline_latency": "translation_speed",
    "conversation_latency": "translation_speed",
}
# Why the others run only as far as --help here.
NOT_RUN = {
    "rooms": "its --quick runs in tests/asr/test_rooms_bench.py",
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


class QuickRuns:
    """Every selected bench's smallest run, as people run it (`python -m bench.NAME ...`, its own
    process), two at a time: most of them spend their time waiting on audio played at speaking
    speed, so two keep both cores busy. A run named in AFTER starts once that one has finished."""

    def __init__(self, names: list[str], work: Path):
        self.work = work
        self.env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "LIVE_TRANSLATOR_BENCH_CACHE": str(work / "cache")}
        self.pool = ThreadPoolExecutor(max_workers=2)
        self.runs: dict[str, Future] = {}
        for name in QUICK:  # QUICK's order: the longest first
            if name in names or name in {AFTER.get(n) for n in names}:
                self.runs[name] = self.pool.submit(self.run, name)

    def run(self, name: str) -> subprocess.CompletedProcess:
        if name in AFTER:
            self.runs[AFTER[name]].result()
        args = [arg.format(work=self.work) for arg in QUICK[name][0]]
        command = [sys.executable, "-m", f"bench.{name}", *args]
        return subprocess.run(command, cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def quick_runs(request, tmp_path_factory):
    wanted = [
        item.callspec.params["name"]
        for item in request.session.items
        if getattr(item, "originalname", None) == "test_the_smallest_run_of_each_bench_prints_its_figures"
    ]
    runs = QuickRuns(wanted, tmp_path_factory.mktemp("bench-runs"))
    yield runs.runs
    runs.pool.shutdown(wait=True, cancel_futures=True)


@pytest.mark.parametrize("name", sorted(QUICK))
def test_the_smallest_run_of_each_bench_prints_its_figures(name, quick_runs):
    done = quick_runs[name].result()
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    assert QUICK[name][1] in done.stdout, done.stdout[-2000:]
