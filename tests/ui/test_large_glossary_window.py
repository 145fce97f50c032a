"""The window with a large glossary (issue 42): Start reads it on a `glossary-reader` thread and
the session uses it once built, where Start used to read it on the GUI thread (500,000 entries:
the window stood still 9-17 s) and the first final built its automata."""

from __future__ import annotations

import time

from app.shared import events as ev
from app.shared import paths
from app.ui.glossary_editor import user_glossary_path
from tests.pipeline.test_glossary_size import big_glossary
from tests.ui.conftest import nmt_model
from tests.ui.test_window import Watcher, finish, make_window


def test_start_with_a_large_glossary_returns_at_once_and_the_glossary_comes_into_use(qtbot, store):
    path = user_glossary_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(big_glossary(200_000), encoding="utf-8")
    window = make_window(qtbot, store, direction="en-zh", nmt_en_zh=str(nmt_model("en-zh")))
    watch = Watcher(window)
    window.session_control.realtime = False
    began = time.perf_counter()
    window.session_control.play_recording(str(paths.resource("selftest", "hello.wav")))
    took = time.perf_counter() - began
    session = window.session_control.running_session
    assert took < 0.5, f"Start took {took:.2f} s"  # reading 200,000 entries here took 1.3-4 s
    qtbot.waitUntil(lambda: session.config.glossary is not None, timeout=300_000)
    assert len(session.config.glossary.entries) == 200_000
    finish(qtbot, window)
    assert [t for t in watch.of(ev.Translation) if not t.provisional], "the recording was translated"
