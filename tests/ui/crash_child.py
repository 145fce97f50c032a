"""The app's window in a child process for tests/ui/test_crash_trace.py, opened as `python -m app`
opens it (app.ui.main_window.open_window: the run traced), then either crashing at once
(`segfault`) or translating a recording and printing each final translation as it is shown
(`play FILE.wav NMT_DIR`), until the test kills it."""

import faulthandler
import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from app.shared.events import Translation  # noqa: E402
from app.ui.main_window import open_window  # noqa: E402
from app.ui.settings import qsettings  # noqa: E402


def main() -> int:
    app = QApplication([sys.argv[0]])
    mode = sys.argv[1]
    if mode == "play":
        store = qsettings()
        store.setValue("tts_enabled", False)
        store.setValue("asr_model", "tiny.en")
        store.setValue("nmt_en_zh", sys.argv[3])
        store.sync()
    window = open_window()
    if mode == "segfault":
        QTimer.singleShot(300, faulthandler._sigsegv)
        return app.exec()

    def shown(batch) -> None:
        for event in batch:
            if isinstance(event, Translation) and not event.provisional:
                print(f"FINAL {event.text}", flush=True)

    window.events_shown.connect(shown)

    def begin() -> None:
        if "en-zh" in window.models_bar.states:
            window.session_control.play_recording(sys.argv[2])
        else:
            QTimer.singleShot(200, begin)

    QTimer.singleShot(200, begin)
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
