"""Does the window stay responsive while a session loads its models?

    .venv/bin/python -m bench.ui_responsiveness [--asr-model base] [--seconds 4]

A 10 ms QTimer on the window's thread records the gap between its ticks: first for a few
seconds with the window idle (the peer), then from pressing Start until the pipeline reports
it is running (Whisper and the translation model loading on the pipeline's threads), and
until the first translation of a short recording has been drawn. Printed: median, p95 and
largest gap for each phase. A frozen window would show gaps of seconds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from app.shared import events as ev
from bench._common import ROOT

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def summary(name: str, gaps: list[float]) -> str:
    ordered = sorted(gaps)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    return (
        f"{name:<28} ticks {len(gaps):5d}   median {statistics.median(gaps):6.1f} ms   "
        f"p95 {p95:6.1f} ms   max {ordered[-1]:7.1f} ms"
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--asr-model", default="base")
    parser.add_argument("--seconds", type=float, default=4.0, help="idle baseline length")
    args = parser.parse_args(argv)

    from PySide6.QtCore import QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    from app.ui.main_window import MainWindow  # lazy: PySide6 and the window, only when the bench runs

    work = Path(tempfile.mkdtemp(prefix="lt-bench-resp-"))
    os.environ["LIVE_TRANSLATOR_TRANSCRIPTS"] = str(work)
    recording = work / "speech.wav"
    subprocess.run(["espeak-ng", "-v", "en-us", "-w", str(recording), "Thank you very much."], check=True)
    app = QApplication.instance() or QApplication([])
    store = QSettings(str(work / "settings.ini"), QSettings.Format.IniFormat)
    store.setValue("nmt_en_zh", str(ROOT / "tests" / "fixtures" / "phrasebook" / "en-zh"))
    store.setValue("asr_model", args.asr_model)
    store.setValue("tts_enabled", False)
    window = MainWindow(store)
    window.show()

    phases = {"idle (peer)": [], "Start → running": [], "running → first translation": []}
    state = {"phase": None, "last": time.perf_counter(), "t0": 0.0}

    def tick():
        now = time.perf_counter()
        if state["phase"]:
            phases[state["phase"]].append((now - state["last"]) * 1000)
        state["last"] = now

    def on_batch(batch):
        for event in batch:
            if isinstance(event, ev.Status) and event.state == "running" and state["phase"] == "Start → running":
                state["phase"] = "running → first translation"
            if isinstance(event, ev.Translation) and not event.provisional:
                state["phase"] = None
                QTimer.singleShot(200, app.quit)

    def begin_idle():
        state["phase"] = "idle (peer)"
        QTimer.singleShot(int(args.seconds * 1000), press_start)

    def press_start():
        state["phase"] = "Start → running"
        state["t0"] = time.perf_counter()
        window.session_control.play_recording(str(recording))

    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(tick)
    timer.start()
    window.events_shown.connect(on_batch)
    # wait for the window's own start-up checks (model doctor, devices, voices) to finish
    QTimer.singleShot(3000, begin_idle)
    QTimer.singleShot(300_000, app.quit)
    app.exec()
    total = time.perf_counter() - state["t0"]
    window.close()

    print(
        f"Whisper {args.asr_model}, phrasebook en-zh, {os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.1f}; Start → first final translation {total:.1f} s"
    )
    for name, gaps in phases.items():
        if gaps:
            print(summary(name, gaps))
    return 0


if __name__ == "__main__":
    sys.exit(main())
