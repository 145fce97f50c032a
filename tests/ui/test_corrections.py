"""Correct once (issue 26): words selected in the window's panels -> Correct… -> the glossary file,
the running session's next utterance, and the corrected caption on a connected caption page.
The real window (offscreen), Whisper base, the phrasebook model, and Debian's Chromium."""

from __future__ import annotations

import os
import socket
import threading
from pathlib import Path

import pytest

from app.shared import events as ev
from app.shared.glossary import Glossary
from app.ui.correction_dialog import CorrectionDialog, CorrectionKind
from app.ui.glossary_editor import user_glossary_path
from app.ui.main_window import MainWindow
from tests.ui.conftest import nmt_model, speak
from tests.ui.test_window import TwoSpeakers, Watcher, finish, make_window, row_of

SAID = "The computer is broken."  # the phrasebook says 电脑坏了。


def show_jon_is_here(window: MainWindow, **said) -> None:
    """The window shows "Jon is here." heard and translated: utterance 0 of its session (`said`:
    the events' speaker fields)."""
    window.event_presenter.on_events(
        [
            ev.SourceFinal(utterance_id=0, text="Jon is here.", start=0.0, end=1.0, speech_end_at=0.0, **said),
            ev.Translation(
                utterance_id=0,
                source="Jon is here.",
                text="乔恩在这里。",
                provisional=False,
                direction="en-zh",
                latency_ms=1.0,
                **said,
            ),
        ],
        window.session_control.session_number,
    )


@pytest.fixture
def page(browser):  # tests/conftest.py: Debian's Chromium
    context = browser.new_context()
    yield context.new_page()
    context.close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.slow
def test_a_correction_mid_session_changes_the_next_utterance_and_the_caption_everywhere(qtbot, store, tmp_path, page):
    first, second = speak(tmp_path / "1.wav", SAID, "en"), speak(tmp_path / "2.wav", SAID, "en")
    gate = threading.Event()
    window = make_window(qtbot, store, direction="en-zh", nmt_en_zh=str(nmt_model("en-zh")))
    watch = Watcher(window)
    window.captions.port.setValue(free_port())
    window.menus.serve_captions.trigger()
    page.goto(window.captions.server.url + "?show=translation")
    window.session_control.audio_source = TwoSpeakers(first, second, gate)
    window.session_control.start()
    finals = lambda: [t for t in watch.of(ev.Translation) if not t.provisional]  # noqa: E731
    qtbot.waitUntil(lambda: len(finals()) == 1, timeout=120000)
    uid = finals()[0].utterance_id
    assert finals()[0].text == "电脑坏了。"
    qtbot.waitUntil(lambda: "电脑坏了。" in page.text_content("#captions"), timeout=10000)

    target = row_of(window, uid).target
    target.setSelection(target.text().index("电脑"), 2)
    window.transcript_actions.correct_selection()  # Session ▸ Correct the selected words (Ctrl+E)
    dialog = window.transcript_actions.correction_dialog
    assert dialog.kind is CorrectionKind.TRANSLATION and dialog.wrong.text() == "电脑"
    dialog.spoken.setText("computer")
    dialog.right.setText("老师")
    dialog.accept()
    assert dialog.result() == dialog.DialogCode.Accepted

    saved = Glossary.load(user_glossary_path())
    assert [(e.english, e.chinese) for e in saved.active()] == [("computer", "老师")]
    qtbot.waitUntil(lambda: bool(watch.of(ev.CaptionCorrected)), timeout=10000)
    assert "老师坏了。" in row_of(window, uid).target.text() and row_of(window, uid).corrected
    corrected = f".caption[data-id='{uid}'].corrected .translation"
    qtbot.waitUntil(
        lambda: page.query_selector(corrected) is not None and page.text_content(corrected) == "老师坏了。",
        timeout=10000,
    )

    gate.set()  # the speaker goes on: the next utterance is translated with the correction
    finish(qtbot, window)
    assert len(finals()) == 2 and "老师" in finals()[1].text, [t.text for t in finals()]
    qtbot.waitUntil(lambda: finals()[1].text in page.text_content("#captions"), timeout=10000)
    window.close()


def test_a_correction_with_an_empty_side_is_refused(qtbot):
    dialog = CorrectionDialog(CorrectionKind.HEARD, "Jon")
    qtbot.addWidget(dialog)
    dialog.open()
    dialog.right.setText("  ")
    dialog.accept()
    assert dialog.isVisible() and dialog.result() != dialog.DialogCode.Accepted
    assert "empty" in dialog.problem.text() and not dialog.problem.isHidden()
    dialog.right.setText("John")
    dialog.accept()
    assert dialog.result() == dialog.DialogCode.Accepted
    assert dialog.correction().entry().to_tsv() == "Jon\tJohn\theard"

    translation = CorrectionDialog(CorrectionKind.TRANSLATION, "乔恩")
    qtbot.addWidget(translation)
    translation.open()
    translation.right.setText("约翰")
    translation.accept()  # which spoken term is meant? it must be said
    assert translation.isVisible() and "empty" in translation.problem.text()
    translation.spoken.setText("Jon")
    translation.accept()
    assert translation.result() == translation.DialogCode.Accepted
    assert translation.correction().fix("乔恩来了") == "约翰来了"


def test_a_heard_correction_in_the_window_is_saved_and_resent_after_the_session(qtbot, store):
    window = MainWindow(store)
    qtbot.addWidget(window)
    key = (window.session_control.session_number, 0)
    show_jon_is_here(window)
    source = window.transcript_view.rows[key].source
    source.setSelection(0, 3)
    seen = []
    window.events_shown.connect(seen.extend)
    window.transcript_actions.correct_selection()
    window.transcript_actions.correction_dialog.right.setText("John")
    window.transcript_actions.correction_dialog.accept()
    assert window.transcript_view.rows[key].source_text == "John is here."
    assert [e.source for e in seen if isinstance(e, ev.CaptionCorrected)] == ["John is here."]
    assert Glossary.load(user_glossary_path()).corrections()[0].to_tsv() == "Jon\tJohn\theard"


def test_an_unreadable_glossary_file_is_not_overwritten_by_a_correction(qtbot, store):
    window = MainWindow(store)
    qtbot.addWidget(window)
    path = user_glossary_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\xff\xfe\x00garbage")
    from app.ui.correction_dialog import Correction

    assert not window.transcript_actions.apply_correction(
        (window.session_control.session_number, 0), Correction(CorrectionKind.HEARD, "Jon", "John")
    )
    assert path.read_bytes() == b"\xff\xfe\x00garbage" and not window.alert.isHidden()


def test_a_translation_correction_reaches_the_overlay_marked(qtbot, store):
    window = MainWindow(store)
    qtbot.addWidget(window)
    window.view_options.set_overlay_visible(True)
    overlay = window.view_options.overlay
    show_jon_is_here(window)
    assert "乔恩在这里。" in overlay.label.text() and "✓" not in overlay.label.text()
    target = window.transcript_view.rows[(window.session_control.session_number, 0)].target
    target.setSelection(0, 2)
    window.transcript_actions.correct_selection()
    window.transcript_actions.correction_dialog.spoken.setText("Jon")
    window.transcript_actions.correction_dialog.right.setText("约翰")
    window.transcript_actions.correction_dialog.accept()
    assert "约翰在这里。" in overlay.label.text() and "✓" in overlay.label.text()
    assert [(e.english, e.chinese) for e in Glossary.load(user_glossary_path()).active()] == [("Jon", "约翰")]


def test_the_glossary_editor_keeps_heard_corrections_when_it_saves(qtbot, tmp_path):
    from app.ui.glossary_editor import GlossaryEditor

    path = tmp_path / "terms.tsv"
    path.write_text("computer\t老师\nJon\tJohn\theard\n", encoding="utf-8")
    imported = tmp_path / "more.tsv"
    imported.write_text("王伟\t王薇\theard\n", encoding="utf-8")
    editor = GlossaryEditor(path)
    qtbot.addWidget(editor)
    assert editor.table.rowCount() == 1  # the table shows the translation entries
    assert editor.import_file(imported) == 1 and editor.table.rowCount() == 1
    editor.save()
    saved = Glossary.load(path)
    assert [e.to_tsv() for e in saved.entries] == ["computer\t老师", "Jon\tJohn\theard", "王伟\t王薇\theard"]


def test_correction_dialog_picture(qtbot, tmp_path):
    """The dialog as people see it (LT_CORRECTION_SCREENSHOT=docs/correction.png writes the README's)."""
    dialog = CorrectionDialog(CorrectionKind.TRANSLATION, "电脑")
    qtbot.addWidget(dialog)
    dialog.spoken.setText("computer")
    dialog.right.setText("")
    dialog.accept()  # refused: the picture shows why
    dialog.show()
    qtbot.waitExposed(dialog)
    out = Path(os.environ.get("LT_CORRECTION_SCREENSHOT") or tmp_path / "correction.png")
    assert dialog.grab().save(str(out)) and out.stat().st_size > 5_000


def test_the_glossary_editor_saves_into_the_running_session(qtbot, store):
    from app.pipeline import Pipeline, PipelineConfig

    window = MainWindow(store)
    qtbot.addWidget(window)
    # a session (not started: no audio needed)
    window.session_control.running_session = Pipeline(PipelineConfig(tts_enabled=False))
    window.transcript_actions.open_glossary_editor()
    editor = window.transcript_actions.glossary_editor
    row = editor.add_entry()
    editor.table.item(row, 1).setText("computer")
    editor.table.item(row, 2).setText("老师")
    editor.save()
    assert window.session_control.running_session.config.glossary.terms("zh") == ["老师"]
    window.session_control.running_session = None


def test_a_guests_row_shows_the_guests_name_and_its_correction_keeps_it(qtbot, store):
    """Guest speech (issue 43): the row says the name the guest typed; correcting it (which once
    read the row's label as a Speaker, and a name is none) sends the caption again as the guest's."""
    window = MainWindow(store)
    qtbot.addWidget(window)
    number = window.session_control.session_number
    said = {"speaker": ev.Speaker.GUEST, "speaker_name": "Mei"}
    show_jon_is_here(window, **said)
    row = window.transcript_view.rows[(number, 0)]
    assert row.speaker == "Mei"
    seen = []
    window.events_shown.connect(seen.extend)
    window.transcript_actions.open_correction((number, 0), "source", "Jon")
    window.transcript_actions.correction_dialog.right.setText("John")
    window.transcript_actions.correction_dialog.accept()
    (corrected,) = [e for e in seen if isinstance(e, ev.CaptionCorrected)]
    assert (corrected.source, corrected.speaker, corrected.speaker_name) == ("John is here.", ev.Speaker.GUEST, "Mei")
