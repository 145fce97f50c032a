"""The window set up for a conversation (me on the microphone, them on system audio) with the two
phrasebook models, and started: what tests/ui/test_sources.py and test_call_output.py share."""

from __future__ import annotations

from app.shared import events as ev
from app.ui.main_window import MainWindow
from tests.ui.conftest import nmt_model
from tests.ui.test_window import Watcher, make_window


def conversation_window(qtbot, store, **settings) -> MainWindow:
    """The window, its source a conversation, en-zh and zh-en the phrasebook models (and `settings`),
    once its start-up checks are done."""
    window = make_window(
        qtbot,
        store,
        direction="en-zh",
        nmt_en_zh=str(nmt_model("en-zh")),
        nmt_zh_en=str(nmt_model("zh-en")),
        source="conversation:",
        **settings,
    )
    qtbot.waitUntil(lambda: not window.pool.busy(), timeout=60000)
    return window


def start_both_sides(qtbot, window: MainWindow) -> Watcher:
    """Start pressed, and both sides (me, them) running: the events shown, watched from before Start."""
    watch = Watcher(window)
    window.controls.button.click()  # Start
    qtbot.waitUntil(
        lambda: {e.speaker for e in watch.of(ev.Status) if e.state == "running"} >= {"me", "them"}, timeout=180000
    )
    return watch
