"""A stage that dies mid-session (issue 31): the window says which and stops the session with it,
so the user sees a stopped app and an error, never a half-working one waiting for Stop."""

from app.audio import FileSource
from app.shared import events as ev
from app.ui.main_window import MainWindow
from tests.ui.conftest import nmt_model, speak


class Broken(BaseException):
    """What kills a thread: no `except Exception` takes it (a bug in a driver's callback)."""


class DyingSource(FileSource):
    """A real recording whose read() breaks `at_s` seconds in."""

    def __init__(self, path, at_s: float):
        super().__init__(path, realtime=False)
        self.at = int(at_s * 16000)

    def read(self, timeout=0.1):
        if self._pos >= self.at:
            raise Broken("the audio driver broke")
        return super().read(timeout)


def test_a_dead_capture_stage_is_named_and_the_window_stops_its_session(qtbot, store, tmp_path):
    recording = speak(tmp_path / "talk.wav", "Good morning. Thank you very much. I love you.", "en")
    store.setValue("nmt_en_zh", str(nmt_model("en-zh")))
    store.setValue("tts_enabled", False)
    window = MainWindow(store)
    qtbot.addWidget(window)
    window.show()
    errors = []
    window.events_shown.connect(lambda batch: errors.extend(e for e in batch if isinstance(e, ev.Error)))
    qtbot.waitUntil(lambda: len(window.models_bar.states) == 2, timeout=60000)
    window.session_control.audio_source = DyingSource(recording, at_s=1.0)
    window.session_control.start()
    qtbot.waitUntil(lambda: any(e.stage == "capture" for e in errors), timeout=180000)
    qtbot.waitUntil(lambda: not window.session_control.running() and not window.session_control.stopping, timeout=60000)
    assert window.alert.isVisible() and window.alert.message
    assert window.controls.button.text() == "Start" and window.controls.button.isEnabled()  # not a Stop that waits
