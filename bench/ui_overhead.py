"""Does the window slow translation down? Translation time with vs without the window watching.

    .venv/bin/python -m bench.ui_overhead [--model DIR] [--rounds 6] [--sentences 8]
    .venv/bin/python -m bench.ui_overhead --full-size      # the opus-mt-en-zh architecture (bench_model.py)

The translation worker thread runs the real engine (Translator.stream) and reports every
decoder step and sentence exactly as the pipeline does (DecodeStepEvent / SentenceSummary
with the step's to_json()), to one of two observers:

  bare    a list append (the cheapest possible observer: the `run` command's peer)
  window  the real MainWindow's EventBridge, the window shown, the Qt event loop running on
          the main thread and drawing the source/target panels and the diagnostics tables

Modes alternate sentence by sentence (ABAB…, the order swapped every round) so background
load hits both alike. Printed: the median wall time of one sentence's translation on the
worker thread for each mode, their ratio, and how many diagnostics rows the window drew.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from app.shared.events import DecodeStepEvent, SentenceSummary
from app.translation import DecodeOptions, Translator
from bench._common import ROOT
from bench.bench_model import build

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

SENTENCES = [
    "Good morning everyone, and thank you for joining the meeting today.",
    "The weather will be cold tomorrow, so please bring a warm coat.",
    "Could you please tell me where the nearest hospital is?",
    "My friend from Beijing is visiting us next week.",
    "Please sit down and let me explain what happened yesterday.",
    "We are going to eat at the new restaurant near the station.",
    "I don't know whether the train leaves at nine or at ten.",
    "Thank you very much for your help.",
]


SETTLE_S = 0.25  # > the diagnostics panel's 100 ms tick


def default_model() -> Path:
    return ROOT / "tests" / "fixtures" / "nmt" / "marian-en-zh" / "merged"


def translate_once(translator, text, options, emit) -> tuple[float, float]:
    """One sentence on the calling thread, events emitted as the pipeline emits them.
    Returns (wall ms, this thread's CPU ms): the second is blind to waiting for the GIL but
    steadier when other processes load the machine."""

    def on_step(step) -> None:
        emit(DecodeStepEvent(utterance_id=0, provisional=False, step=step))

    start, cpu = time.perf_counter(), time.thread_time()
    for sentence in translator.stream(text, options=options, on_step=on_step):
        emit(SentenceSummary(utterance_id=0, provisional=False, summary=sentence.to_json(with_steps=False)))
    return (time.perf_counter() - start) * 1000, (time.thread_time() - cpu) * 1000


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, help="translation model folder (default: the en-zh test fixture)")
    parser.add_argument("--full-size", action="store_true", help="use bench_model.py's full-size opus-mt model")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--sentences", type=int, default=len(SENTENCES))
    parser.add_argument("--max-new-tokens", type=int, default=40)
    args = parser.parse_args(argv)

    from PySide6.QtCore import QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    from app.ui.main_window import MainWindow  # lazy: PySide6 and the window, only when the bench runs

    if args.full_size:
        model = build().onnx
    else:
        model = args.model or default_model()
    translator = Translator.load(model, direction="en-zh")
    # Random weights: fix the length (no EOS before it, no loop-guard stop).
    options = DecodeOptions(
        num_beams=1, max_new_tokens=args.max_new_tokens, min_new_tokens=args.max_new_tokens, loop_window=0
    )
    sentences = SENTENCES[: args.sentences]

    app = QApplication.instance() or QApplication([])
    work = tempfile.mkdtemp(prefix="lt-bench-ui-")
    os.environ["LIVE_TRANSLATOR_TRANSCRIPTS"] = work
    window = MainWindow(QSettings(f"{work}/settings.ini", QSettings.Format.IniFormat))
    window.resize(1280, 860)
    window.show()

    bare_sink: list = []
    observe = window.session_control.new_session().on_event  # what the window hands a pipeline as on_event
    sent_to_window = [0]

    def to_window(event):
        sent_to_window[0] += 1
        observe(event)

    times = {"bare": [], "window": []}
    cpu_times = {"bare": [], "window": []}
    translate_once(translator, sentences[0], options, bare_sink.append)  # warm-up

    def worker():
        for round_index in range(args.rounds):
            for i, text in enumerate(sentences):
                order = ("bare", "window") if (i + round_index) % 2 == 0 else ("window", "bare")
                for mode in order:
                    emit = bare_sink.append if mode == "bare" else to_window
                    wall, cpu = translate_once(translator, text, options, emit)
                    times[mode].append(wall)
                    cpu_times[mode].append(cpu)
                    bare_sink.clear()
                    time.sleep(SETTLE_S)  # the window's drawing of one sentence must not land in the next

    thread = threading.Thread(target=worker, name="bench-translation")
    poll = QTimer()
    poll.timeout.connect(lambda: None if thread.is_alive() else QTimer.singleShot(500, app.quit))
    QTimer.singleShot(300, lambda: (thread.start(), poll.start(100)))
    app.exec()  # the window draws while the worker translates; quits once it is done
    thread.join()
    window.diagnostics.flush()
    rows = (
        len(window.diagnostics.steps.rows)
        + window.diagnostics.steps.dropped
        + len(window.diagnostics.sentences.rows)
        + window.diagnostics.sentences.dropped
    )
    window.close()

    if os.environ.get("LT_BENCH_DEBUG"):
        print({k: [round(v) for v in vals] for k, vals in times.items()})
    bare, shown = statistics.median(times["bare"]), statistics.median(times["window"])
    print(f"model: {model}  ({translator.model_name if hasattr(translator, 'model_name') else ''})")
    print(f"{len(times['bare'])} sentences per mode, {args.max_new_tokens} tokens each, {os.cpu_count()} cores")
    print(f"median translation time  bare: {bare:.2f} ms   window watching: {shown:.2f} ms")
    print(
        f"ratio window/bare: {shown / bare:.3f}   (per step: bare {bare / args.max_new_tokens:.3f} ms, "
        f"window {shown / args.max_new_tokens:.3f} ms)"
    )
    cpu_bare, cpu_shown = statistics.median(cpu_times["bare"]), statistics.median(cpu_times["window"])
    print(
        f"median worker-thread CPU time  bare: {cpu_bare:.2f} ms   window watching: {cpu_shown:.2f} ms   "
        f"ratio {cpu_shown / cpu_bare:.3f}"
    )
    print(f"machine load average (1 min) at the end: {os.getloadavg()[0]:.1f}")
    print(
        f"diagnostics rows the window received: {rows} (of {sent_to_window[0]} events sent to it, steps and sentences)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
