"""A long session as a person sees it (issue 46): after hundreds and thousands of sentences the
window's panels still draw the newest sentence where the reader looks, the overlay shows it,
and so does the caption page. The events reach the window as the pipeline's do: in batches,
through the session's `events` signal, so every part that observes a session draws them."""

from __future__ import annotations

import json
import socket
import urllib.request

import pytest
from PySide6.QtGui import QColor

from app.shared import events as ev
from app.shared.languages import Direction
from app.ui.main_window import MainWindow
from app.ui.transcript_rows import ink_share
from tests.ui.conftest import nmt_model

pytestmark = pytest.mark.slow
BATCH = 25  # sentences per batch: the bridge hands the window a batch every 25 ms


def sentence(n: int) -> tuple[str, str]:
    return f"Sentence {n} of the meeting, said clearly.", f"会议的第{n}句话，说得很清楚。"


def utterance_events(n: int) -> list:
    source, target = sentence(n)
    return [
        ev.SourcePartial(utterance_id=n, text=source[:12], committed="", start=n, end=n + 0.5),
        ev.SourceFinal(utterance_id=n, text=source, start=n, end=n + 1.0, speech_end_at=0.0),
        ev.Translation(
            utterance_id=n, source=source, text=target[:4], provisional=True, direction=Direction.EN_ZH, latency_ms=None
        ),
        ev.Translation(
            utterance_id=n, source=source, text=target, provisional=False, direction=Direction.EN_ZH, latency_ms=90.0
        ),
    ]


def talk(qtbot, window: MainWindow, start: int, stop: int) -> None:
    """Sentences start..stop-1 through the session's events signal, a batch at a time, each
    batch drawn before the next (the GUI thread gets to lay out, as between bridge ticks)."""
    session = window.session_control.session_number
    for first in range(start, stop, BATCH):
        batch = [e for n in range(first, min(first + BATCH, stop)) for e in utterance_events(n)]
        window.session_control.events.emit(batch, session)
        qtbot.wait(1)
    qtbot.wait(50)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def key(window: MainWindow, n: int) -> tuple:
    return (window.session_control.session_number, n)


def assert_newest_drawn(window: MainWindow, n: int) -> None:
    view = window.transcript_view
    row = view.rows[key(window, n)]
    assert row.source_final and row.source.text() == sentence(n)[0] and row.target.text() == sentence(n)[1]
    viewport = view.panel.viewport()
    for label in (row.source, row.target):
        place = label.geometry().translated(row.widget.mapTo(viewport, label.pos()) - label.pos())
        assert label.height() > 0 and viewport.rect().contains(place), (n, place, viewport.rect())
    assert view.panel.drawn(key(window, n)), f"sentence {n} has a place but the panel draws nothing there"
    assert ink_share(viewport.grab().toImage(), QColor("white")) > 0.01  # the panel is not blank


@pytest.fixture
def window(qtbot, store):
    store.setValue("nmt_en_zh", str(nmt_model("en-zh")))
    store.setValue("tts_enabled", False)
    window = MainWindow(store)
    qtbot.addWidget(window)
    window.resize(1200, 800)
    window.show()
    yield window
    window.captions.set_serving(False)


def test_the_newest_sentence_is_drawn_after_200_and_2000_sentences(qtbot, window):
    # Failed before: from ~128 rows on, a top-aligned grid gave every label an empty geometry.
    window.view_options.set_overlay_visible(True)
    talk(qtbot, window, 0, 230)
    assert_newest_drawn(window, 229)
    talk(qtbot, window, 230, 2000)
    assert_newest_drawn(window, 1999)
    view = window.transcript_view
    assert len(view.rows) == view.panel.max_rows and len(view.earlier) == 2000 - view.panel.max_rows
    assert view.panel.column.count() == view.panel.max_rows + 3  # placeholder, note, stretch: no leftovers

    overlay = window.view_options.overlay
    assert sentence(1999)[1] in overlay.label.text()
    assert ink_share(overlay.grab().toImage(), QColor(overlay.settings.background)) > 0.01

    # Scrolled back, the reader sees the rows there; the newest lines do not pull the view away.
    bar = view.panel.verticalScrollBar()
    bar.setValue(bar.maximum() // 2)
    qtbot.wait(20)
    seen = [k for k in view.rows if view.panel.drawn(k)]
    assert seen and all(k[1] < 1999 - 3 for k in seen)
    talk(qtbot, window, 2000, 2050)
    assert 0 < bar.value() < bar.maximum() and any(view.panel.drawn(k) for k in view.rows)
    bar.setValue(bar.maximum())  # back at the end it follows again
    talk(qtbot, window, 2050, 2100)
    assert_newest_drawn(window, 2099)


def test_the_caption_page_shows_the_newest_line_after_a_long_session(qtbot, window, browser):
    window.captions.port.setValue(free_port())
    window.captions.set_serving(True)
    server = window.captions.server
    assert server is not None and "?" not in server.url  # this computer only: no key
    page = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        page.goto(server.url)
        talk(qtbot, window, 0, 1000)
        newest = sentence(999)[1]
        page.wait_for_function("t => document.querySelector('#captions').textContent.includes(t)", arg=newest)
        box = page.locator(".caption", has_text=newest).last.bounding_box()
        assert box and box["height"] > 0 and 0 <= box["y"] and box["y"] + box["height"] <= 844 + 1
        with urllib.request.urlopen(server.url + "transcript", timeout=10) as response:
            assert newest in json.dumps(json.load(response), ensure_ascii=False)
    finally:
        page.close()
