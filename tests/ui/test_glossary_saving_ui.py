"""The window's glossary saves keep the user's file (issue 35): the editor changes only the
lines of the rows changed; a save on a full disk is shown, the file byte for byte as it was and
the dialog open; Correct… says which line a correction replaces; a correction that cannot be
saved is said to be not saved (real widgets, offscreen)."""

from __future__ import annotations

import errno
import os

from PySide6.QtCore import Qt

from app.shared import events as ev
from app.shared import files
from app.shared.glossary import Glossary
from app.ui.correction_dialog import CorrectionDialog, CorrectionKind
from app.ui.glossary_editor import CHINESE, ENGLISH, ON, GlossaryEditor, user_glossary_path

HAND_EDITED = (
    "# my terms\r\n"
    "Peking 北京\r\n"  # a line waiting for its TAB: the table cannot show it
    "teacher\t老师\r\n"
    "\r\n"
    "laptop\t电脑\r\n"
    "Jon\tJohn\theard\r\n"
    "spare\t备用\r\n"
).encode()


WRITE_ALL = files._write_all


def write_user_glossary(data: bytes):
    path = user_glossary_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def full_disk(monkeypatch) -> None:
    def no_space(fd, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(files, "_write_all", no_space)


def space_again(monkeypatch) -> None:  # not monkeypatch.undo(): that would move the settings folder too
    monkeypatch.setattr(files, "_write_all", WRITE_ALL)


def test_the_editor_changes_only_the_rows_changed(qtbot):
    path = write_user_glossary(HAND_EDITED)
    editor = GlossaryEditor()
    qtbot.addWidget(editor)
    assert editor.table.rowCount() == 3 and "2: expected english<TAB>chinese" in editor.problems.text()
    editor.table.item(1, CHINESE).setText("笔记本")  # laptop, edited
    editor.table.item(0, ON).setCheckState(Qt.CheckState.Unchecked)  # teacher, switched off
    editor.table.selectRow(2)
    editor.remove_selected()  # spare, removed
    row = editor.add_entry()
    editor.table.item(row, ENGLISH).setText("tea")
    editor.table.item(row, CHINESE).setText("茶")
    with qtbot.waitSignal(editor.saved):
        editor.save()
    assert path.read_bytes().decode() == (
        "# my terms\r\nPeking 北京\r\nteacher\t老师\toff\r\n\r\nlaptop\t笔记本\r\nJon\tJohn\theard\r\ntea\t茶\r\n"
    )


def test_an_editor_save_on_a_full_disk_is_shown_and_the_file_stays(qtbot, monkeypatch):
    path = write_user_glossary(HAND_EDITED)
    editor = GlossaryEditor()
    qtbot.addWidget(editor)
    editor.show()
    editor.table.item(0, CHINESE).setText("教师")
    full_disk(monkeypatch)
    saved = []
    editor.saved.connect(saved.append)
    editor.save()
    assert path.read_bytes() == HAND_EDITED and not saved and editor.isVisible()  # open: the edit is not lost
    assert "was not saved: No space left on device" in editor.problems.text()
    assert editor.table.item(0, CHINESE).text() == "教师"
    space_again(monkeypatch)  # Save works again
    editor.save()
    assert b"teacher\t\xe6\x95\x99\xe5\xb8\x88\r\n" in path.read_bytes() and saved and not editor.isVisible()


def test_correct_says_which_line_it_replaces(qtbot):
    write_user_glossary(HAND_EDITED)
    heard = CorrectionDialog(CorrectionKind.HEARD, "jon")
    qtbot.addWidget(heard)
    heard.right.setText("Jonathan")
    assert heard.note.isVisibleTo(heard)
    assert heard.note.text() == "⚠ Line 6 of the glossary writes “Jon” as “John”: this correction replaces that line."
    heard.right.setText("John")  # says the same as the line: nothing replaced
    assert not heard.note.isVisibleTo(heard)
    translation = CorrectionDialog(CorrectionKind.TRANSLATION, "电脑")
    qtbot.addWidget(translation)
    translation.spoken.setText("Laptop")
    translation.right.setText("笔记本电脑")
    assert "Line 5 of the glossary translates “laptop” as “电脑”" in translation.note.text()
    fresh = CorrectionDialog(CorrectionKind.HEARD, "Smith")
    qtbot.addWidget(fresh)
    fresh.right.setText("Smythe")
    assert not fresh.note.isVisibleTo(fresh)


def test_a_correction_on_a_full_disk_is_said_to_be_not_saved(qtbot, store, monkeypatch):
    from app.ui.main_window import MainWindow

    path = write_user_glossary(HAND_EDITED)
    window = MainWindow(store)
    qtbot.addWidget(window)
    window.event_presenter.on_events(
        [ev.SourceFinal(utterance_id=0, text="Smith is here.", start=0.0, end=1.0, speech_end_at=0.0)],
        window.session_control.session_number,
    )
    row = window.transcript_view.rows[(window.session_control.session_number, 0)]
    row.source.setSelection(0, 5)
    full_disk(monkeypatch)
    window.transcript_actions.correct_selection()
    window.transcript_actions.correction_dialog.right.setText("Smythe")
    window.transcript_actions.correction_dialog.accept()
    assert path.read_bytes() == HAND_EDITED  # not emptied, not cut half-way
    assert "was not saved" in window.alert.message and not window.alert.isHidden()
    assert row.source_text == "Smith is here."  # not shown as corrected
    space_again(monkeypatch)
    window.transcript_actions.correct_selection()
    window.transcript_actions.correction_dialog.right.setText("Smythe")
    window.transcript_actions.correction_dialog.accept()
    assert path.read_bytes() == HAND_EDITED + b"Smith\tSmythe\theard\r\n"
    assert Glossary.load(path).corrections()[-1].chinese == "Smythe"
