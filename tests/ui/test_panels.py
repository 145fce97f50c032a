"""The panels on their own: what the window draws for given pipeline events."""

import dataclasses
import threading

from app.shared import events as ev
from app.ui.bridge import EventBridge
from app.ui.controls import meter_value
from app.ui.diagnostics import DiagnosticsPanel, Row, RowTableModel, sentence_row, step_row
from app.ui.transcript_view import TranscriptView

STEP = ev.DecodeStep(
    sentence_index=0,
    step=3,
    token_id=17,
    token="▁hello",
    top=[(17, "▁hello", -0.105), (4, "▁hi", -2.5)],
    self_kv_len=3,
    cross_kv_len=9,
    used_cache_branch=True,
    ms=1.234,
    max_abs_diff=None,
)


def test_provisional_source_is_grey_italic_and_final_is_plain(qtbot):
    view = TranscriptView()
    qtbot.addWidget(view)
    view.show_partial(1, "hello wor", "hello")
    html = view.rows[1].source.text()
    assert html.startswith("hello<span") and "italic" in html and "wor</span>" in html
    view.show_final(1, "hello world")
    assert view.rows[1].source.text() == "hello world"
    view.show_partial(1, "late partial", "")  # a partial after the final changes nothing
    assert view.rows[1].source.text() == "hello world"


def test_final_translation_is_drawn_once_and_never_replaced(qtbot):
    view = TranscriptView()
    qtbot.addWidget(view)
    view.show_translation(4, "你好", provisional=True)
    assert "italic" in view.rows[4].target.text()
    view.show_translation(4, "你好世界", provisional=False)
    view.show_translation(4, "别的", provisional=True)
    view.show_translation(4, "别的", provisional=False)
    assert view.rows[4].target.text() == "你好世界"
    assert view.rows[4].renders["target_after_final"] == 2


def test_rows_align_by_utterance_and_copy_clear(qtbot):
    view = TranscriptView()
    qtbot.addWidget(view)
    view.show_final(1, "one")
    view.show_translation(2, "二", provisional=False)  # a translation may come before its source
    view.show_final(2, "two")
    view.show_translation(1, "一", provisional=False)
    column = view.panel.column
    for row in view.rows.values():  # source and translation in one row widget, in arrival order
        assert row.source.parentWidget() is row.widget is row.target.parentWidget()
    assert [column.indexOf(row.widget) for row in view.rows.values()] == [2, 3]  # under placeholder, note
    assert view.text("source") == "one\ntwo" and view.text("target") == "一\n二"
    view.copy("target")
    from PySide6.QtGui import QGuiApplication

    assert QGuiApplication.clipboard().text() == "一\n二"
    view.clear()
    assert view.rows == {} and view.text("source") == ""


def test_step_row_shows_probabilities_cache_and_time():
    row = step_row(7, False, STEP)
    cells = dict(zip(["utt", "sent", "step", "token", "top", "self", "cross", "cache", "ms", "diff"], row.cells))
    assert cells["utt"] == "7" and cells["token"] == "▁hello"
    assert cells["top"] == "▁hello 0.90  ▁hi 0.08"  # exp(logprob)
    assert (cells["self"], cells["cross"], cells["cache"], cells["ms"]) == ("3", "9", "yes", "1.23")
    assert cells["diff"] == "" and row.warn_column == -1
    verified = step_row(7, False, dataclasses.replace(STEP, max_abs_diff=0.5))
    assert verified.cells[9] == "5.0e-01" and verified.warn_column == 9
    assert row.cells[10] == ""
    forced = step_row(7, False, dataclasses.replace(STEP, forced=True))  # a glossary constraint chose it
    assert forced.cells[10] == "forced" and forced.warn_column == 10


def test_loop_stop_stands_out(qtbot):
    panel = DiagnosticsPanel()
    qtbot.addWidget(panel)
    panel.add_sentence(
        3,
        False,
        {
            "encoder_ms": 4.0,
            "decode_ms": 40.0,
            "tokens_per_s": 250.0,
            "token_ids": [5] * 10,
            "stop_reason": "loop",
            "loop_detail": "token 5 repeated 8 times",
            "translation": "x x x",
        },
    )
    panel.flush()
    row = panel.sentences.rows[0]
    assert row.warn and row.cells[6] == "loop: token 5 repeated 8 times" and row.cells[4] == "10"
    assert not panel.banner.isHidden() and "utterance 3" in panel.banner.text()
    assert sentence_row(1, True, {"stop_reason": "eos"}).warn is False


def test_rows_are_inserted_per_tick_and_capped(qtbot):
    model = RowTableModel(["a"], max_rows=50)
    inserts = []
    model.rowsInserted.connect(lambda *_: inserts.append(1))
    for i in range(120):
        model.add(Row((str(i),)))
    assert model.rowCount() == 0  # nothing drawn until the tick
    assert model.flush() == 50
    assert len(inserts) == 1 and model.rowCount() == 50 and model.rows[0].cells == ("70",)
    for i in range(10):
        model.add(Row((f"n{i}",)))
    model.flush()
    assert model.rowCount() == 50 and model.rows[-1].cells == ("n9",) and model.dropped == 10


def test_bridge_delivers_events_from_other_threads_on_the_gui_thread(qtbot):
    bridge = EventBridge()
    received, threads = [], set()
    bridge.events.connect(lambda batch: (received.extend(batch), threads.add(threading.get_ident())))

    def produce():
        for i in range(500):
            bridge.on_event(ev.Level(rms=i / 500, peak=0.0))

    producers = [threading.Thread(target=produce) for _ in range(2)]
    for t in producers:
        t.start()
    for t in producers:
        t.join()
    qtbot.waitUntil(lambda: len(received) == 1000, timeout=5000)
    assert threads == {threading.get_ident()}


def test_meter_is_logarithmic():
    assert meter_value(0.0) == 0 and meter_value(1.0) == 100
    assert meter_value(10 ** (-30 / 20)) == 50 and meter_value(1e-5) == 0


def test_transcript_follows_the_talk_unless_scrolled_back(qtbot):
    view = TranscriptView()
    qtbot.addWidget(view)
    view.resize(600, 300)
    view.show()
    bar = view.panel.verticalScrollBar()
    for i in range(30):
        view.show_final(i, f"sentence number {i} " * 3)
        qtbot.wait(1)
    qtbot.waitUntil(lambda: bar.maximum() > 0)
    qtbot.waitUntil(lambda: bar.value() == bar.maximum())
    bar.setValue(0)  # the reader scrolls back: new text must not yank the view away
    view.show_final(99, "a new sentence")
    qtbot.wait(50)
    assert bar.value() == 0


def test_the_window_optimises_a_plain_model_on_its_check_and_says_so(qtbot, store, tmp_path, monkeypatch):
    """The models check optimises a plain optimum folder on first use (progress in the status
    bar, the outcome in the finding) and finds it in the cache the next time."""
    import shutil

    from app.ui.main_window import MainWindow
    from tests.ui.conftest import random_model

    monkeypatch.setenv("LIVE_TRANSLATOR_CACHE", str(tmp_path / "cache"))
    folder = tmp_path / "plain-en-zh"
    shutil.copytree(random_model("en-zh"), folder)
    store.setValue("nmt_en_zh", str(folder))
    store.setValue("nmt_zh_en", str(random_model("zh-en")))
    store.setValue("tts_enabled", False)
    messages = []
    window = MainWindow(store)
    qtbot.addWidget(window)
    window.statusBar().messageChanged.connect(messages.append)
    window.show()
    qtbot.waitUntil(lambda: len(window.models_bar.states) == 2, timeout=120000)
    assert any(m.startswith("Optimising plain-en-zh") for m in messages), messages
    assert "Optimised copy: in the cache" in window.models_bar.states["en-zh"].finding
    assert len(list((tmp_path / "cache" / "optimized").iterdir())) == 2  # one per direction's model
    messages.clear()
    window.model_control.refresh()
    qtbot.waitUntil(lambda: len(window.models_bar.states) == 2, timeout=120000)
    assert not any(m.startswith("Optimising") for m in messages)
    assert "Optimised copy: in the cache" in window.models_bar.states["en-zh"].finding


def test_a_meeting_keeps_a_bounded_number_of_rows_drawn_and_copy_keeps_every_line(qtbot):
    # ~90 KB of widgets per drawn row made the window grow ~75 MB an hour (issue 31).
    from PySide6.QtCore import QCoreApplication, QEvent
    from PySide6.QtWidgets import QLabel

    view = TranscriptView()
    qtbot.addWidget(view)
    view.panel.max_rows = 20
    for n in range(60):
        view.show_final(n, f"sentence {n}")
        view.show_translation(n, f"句子{n}", provisional=False)
    view.show_partial(60, "still speaking", "")  # an unfinished row is never retired
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
    assert len(view.rows) == 20 and 60 in view.rows
    assert len(view.panel.body.findChildren(QLabel)) <= 2 * 20 + 2  # the rows, the placeholder and the note
    assert "41 earlier lines" in view.panel.earlier_note.text()
    lines = view.text("source").splitlines()
    assert lines[0] == "sentence 0" and lines[59] == "sentence 59" and lines[-1] == "still speaking"
    view.show_translation(3, "迟到的", provisional=False)  # a late event for a retired row draws nothing
    view.show_corrected(4, "sentence four", "第四句")  # a correction of one still reaches Copy
    assert 3 not in view.rows and 4 not in view.rows
    assert "sentence four" in view.text("source") and "第四句" in view.text("target")
    view.clear()
    assert view.text("source") == "" and not view.earlier


def test_qt_warnings_fail_the_test_that_caused_them(request):
    # pyproject.toml: a Qt warning ("QObject: Cannot create children for a parent that is in a
    # different thread") fails its test, not a later one by a crash.
    assert request.config.getini("qt_log_level_fail") == "WARNING"
