"""Film the real window: start the app under Xvfb, play a recording through it, save a PNG.

    .venv/bin/python tools/screenshot.py [--out docs/screenshot.png] [--direction en-zh]
        [--recording FILE.wav] [--nmt-model DIR] [--asr-model NAME|DIR] [--text "..."]
        [--verify] [--theme system|light|dark] [--overlay] [--lang en|zh_CN|zh_TW]

--overlay films the subtitle overlay over another window (a stand-in for a video call) instead
of the main window; under Xvfb it runs Debian's xcompmgr, so the overlay's translucency is
composited by a real compositing manager as on a desktop.

Without a display it re-runs itself under `xvfb-run` (Debian package xvfb). Without
--recording it speaks --text with espeak-ng into a temporary WAV. The window is the one
`python -m app` opens; only its settings live in a temporary file, so yours are untouched.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DEFAULT_TEXT = {
    "en-zh": "Good morning. Where is the station? Thank you very much. See you tomorrow.",
    "zh-en": "我爱你。我不知道。他是我的朋友。",
}
VOICE = {"en-zh": "en-us", "zh-en": "cmn-latn-pinyin"}
SIZE = (1280, 860)


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshot.png"))
    parser.add_argument("--direction", default="en-zh", choices=sorted(DEFAULT_TEXT))
    parser.add_argument("--recording", help="a WAV to play instead of espeak-ng speech")
    parser.add_argument("--text", help="what espeak-ng says (default: a few phrasebook lines)")
    parser.add_argument(
        "--nmt-model", help="translation model folder (default: the test phrasebook model, which knows these lines)"
    )
    parser.add_argument("--asr-model", default="base")
    parser.add_argument("--timeout", type=float, default=240.0)
    parser.add_argument("--verify", action="store_true", help="show the verify column filled in")
    parser.add_argument("--theme", default="light", choices=("system", "light", "dark"))
    parser.add_argument("--overlay", action="store_true", help="film the subtitle overlay over another window")
    parser.add_argument(
        "--lang", default="en", choices=("en", "zh_CN", "zh_TW"), help="the window's interface language"
    )
    return parser.parse_args(argv)


def speak(text: str, voice: str, path: Path) -> None:
    # Slow, with pauses between sentences: the voice detector then cuts clean utterances.
    subprocess.run(
        ["espeak-ng", "-v", voice, "-s", "140", "-g", "12", "-w", str(path), text], check=True, capture_output=True
    )


def video_stand_in():
    """Another application's window under the overlay: a drawn stand-in for a video call."""
    from PySide6.QtCore import QRectF, Qt
    from PySide6.QtGui import QColor, QFont, QLinearGradient, QPainter
    from PySide6.QtWidgets import QWidget

    class VideoCall(QWidget):
        def paintEvent(self, event):
            p = QPainter(self)
            p.setRenderHint(QPainter.RenderHint.Antialiasing)
            sky = QLinearGradient(0, 0, 0, self.height())
            sky.setColorAt(0, QColor("#5b8fb9"))
            sky.setColorAt(1, QColor("#e8d9b5"))
            p.fillRect(self.rect(), sky)
            p.setBrush(QColor("#3e5641"))
            p.setPen(Qt.PenStyle.NoPen)
            p.drawRect(0, int(self.height() * 0.62), self.width(), self.height())
            for i, color in enumerate(("#f2c39b", "#c68b59")):  # two people on a call
                x = self.width() * (0.3 + 0.4 * i)
                p.setBrush(QColor("#37474f"))
                p.drawRoundedRect(QRectF(x - 120, self.height() * 0.45, 240, 320), 60, 60)
                p.setBrush(QColor(color))
                p.drawEllipse(QRectF(x - 75, self.height() * 0.22, 150, 170))
            p.setPen(QColor("white"))
            p.setFont(QFont("Noto Sans", 16))
            p.drawText(24, 40, "A video call (another application's window)")

    widget = VideoCall()
    widget.setWindowTitle("Video call")
    return widget


def film(args) -> int:
    os.environ.setdefault("LIVE_TRANSLATOR_TRANSCRIPTS", tempfile.mkdtemp(prefix="lt-shot-"))
    from PySide6.QtCore import QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    from app.ui.main_window import MainWindow

    work = Path(tempfile.mkdtemp(prefix="lt-shot-"))
    recording = Path(args.recording) if args.recording else work / "speech.wav"
    if not args.recording:
        speak(args.text or DEFAULT_TEXT[args.direction], VOICE[args.direction], recording)

    app = QApplication.instance() or QApplication([sys.argv[0]])
    from app.ui.i18n import install_translators

    install_translators(args.lang)
    store = QSettings(str(work / "settings.ini"), QSettings.Format.IniFormat)
    store.setValue("direction", args.direction)
    store.setValue("tts_enabled", False)
    store.setValue("asr_model", args.asr_model)
    store.setValue("verify", args.verify)
    model = Path(args.nmt_model) if args.nmt_model else ROOT / "tests" / "fixtures" / "phrasebook" / args.direction
    store.setValue("nmt_" + args.direction.replace("-", "_"), str(model.resolve()))
    store.setValue("theme", args.theme)
    window = MainWindow(store)
    window.resize(*SIZE)
    window.move(0, 0)
    window.show()
    if args.overlay:
        backdrop = video_stand_in()
        backdrop.setGeometry(0, 0, *SIZE)
        backdrop.show()
        overlay = window.view_options.overlay
        overlay.settings.lines = 2
        overlay.settings.show_source = True
        overlay.apply_settings()
        overlay.setGeometry(140, SIZE[1] - 290, SIZE[0] - 280, 250)
        window.view_options.set_overlay_visible(True)

    deadline = time.monotonic() + args.timeout
    state = {"started": False}

    def tick():
        models_known = args.direction in window.models_bar.states
        if not state["started"] and models_known:
            state["started"] = True
            window.session_control.play_recording(str(recording))
        elif state["started"] and not window.session_control.running() or time.monotonic() > deadline:
            QTimer.singleShot(800, finish)  # let the last rows draw
            return
        QTimer.singleShot(200, tick)

    def finish():
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        # The X screen itself, as a person would see it (not an offscreen render).
        shot = app.primaryScreen().grabWindow(0, 0, 0, *SIZE)
        shot.save(str(out))
        rows = len(window.transcript_view.rows)
        print(
            f"saved {out} ({shot.width()}x{shot.height()}), {rows} utterances, "
            f"{len(window.diagnostics.steps.rows)} decoder steps shown"
        )
        window.close()
        app.quit()

    QTimer.singleShot(200, tick)
    app.exec()
    shutil.rmtree(work, ignore_errors=True)
    return 0


def main(argv=None) -> int:
    args = parse_args(argv)
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        if not shutil.which("xvfb-run"):
            print("error: no display and no xvfb-run; install Debian's xvfb", file=sys.stderr)
            return 2
        command = [
            "xvfb-run",
            "-a",
            "-s",
            f"-screen 0 {SIZE[0]}x{SIZE[1]}x24",
            sys.executable,
            __file__,
            *(argv if argv is not None else sys.argv[1:]),
        ]
        return subprocess.call(command)
    os.environ["QT_QPA_PLATFORM"] = "xcb"
    compositor = None
    if args.overlay and shutil.which("xcompmgr"):  # translucent windows need a compositing manager
        compositor = subprocess.Popen(["xcompmgr"], stderr=subprocess.DEVNULL)
    try:
        return film(args)
    finally:
        if compositor is not None:
            compositor.terminate()
            compositor.wait(10)


if __name__ == "__main__":
    sys.exit(main())
