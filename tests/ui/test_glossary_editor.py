"""The glossary editor (offscreen Qt): add, edit, remove, import, export, per-entry on/off,
stored in the settings folder, and used by the window's pipeline."""

from PySide6.QtCore import Qt

from app.shared.glossary import Glossary
from app.ui.glossary_editor import CASE, CHINESE, ENGLISH, ON, GlossaryEditor, load_user_glossary, user_glossary_path


def test_editor_adds_edits_removes_imports_exports_and_saves(qtbot, tmp_path):
    editor = GlossaryEditor()
    qtbot.addWidget(editor)
    assert editor.path == user_glossary_path() and editor.table.rowCount() == 0
    for english, chinese in (("Peking", "北京"), ("laptop", "电脑"), ("spare", "备用")):
        row = editor.add_entry()
        editor.table.item(row, ENGLISH).setText(english)
        editor.table.item(row, CHINESE).setText(chinese)
    editor.table.item(1, CASE).setCheckState(Qt.CheckState.Checked)
    editor.table.item(1, ON).setCheckState(Qt.CheckState.Unchecked)  # kept, not used
    editor.table.selectRow(2)
    qtbot.mouseClick(editor.buttons["Remove"], Qt.MouseButton.LeftButton)
    assert editor.table.rowCount() == 2

    imported = tmp_path / "terms.tsv"
    imported.write_text("# team terms\nKubernetes\t库伯内特斯\nno tab here\nApple\t苹果\tcase\n", encoding="utf-8")
    assert editor.import_file(imported) == 2
    assert f"{imported}:3: expected english<TAB>chinese" in editor.problems.text()  # the bad line, by number
    assert editor.problems.isVisibleTo(editor)

    exported = tmp_path / "out.tsv"
    editor.export_file(exported)
    again = Glossary.load(exported)
    assert [(e.english, e.chinese, e.case_sensitive, e.enabled) for e in again.entries] == [
        ("Peking", "北京", False, True),
        ("laptop", "电脑", True, False),
        ("Kubernetes", "库伯内特斯", False, True),
        ("Apple", "苹果", True, True),
    ]

    with qtbot.waitSignal(editor.saved) as saved:
        qtbot.mouseClick(editor.buttons["Save"], Qt.MouseButton.LeftButton)
    assert saved.args[0].terms("en") == ["Peking", "Kubernetes", "Apple"]  # the unticked entry is not used
    assert load_user_glossary().to_tsv() == again.to_tsv()
    reopened = GlossaryEditor()
    qtbot.addWidget(reopened)
    assert reopened.table.rowCount() == 4 and reopened.table.item(1, ON).checkState() == Qt.CheckState.Unchecked


def test_an_unreadable_glossary_file_is_explained_and_the_editor_opens(qtbot):
    path = user_glossary_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"caf\xe9\t\xe5\n")
    editor = GlossaryEditor()
    qtbot.addWidget(editor)
    assert editor.table.rowCount() == 0 and "not UTF-8" in editor.problems.text()
    assert load_user_glossary().entries == []  # the window runs without it


def test_a_row_that_is_not_an_entry_is_shown_and_not_saved(qtbot):
    editor = GlossaryEditor()
    qtbot.addWidget(editor)
    row = editor.add_entry()
    editor.table.item(row, ENGLISH).setText("北京")  # Chinese in the English column
    editor.table.item(row, CHINESE).setText("Beijing")
    editor.save()
    assert "first column holds Chinese" in editor.problems.text()
    assert not user_glossary_path().exists()
    editor.table.item(row, ENGLISH).setText("Beijing")
    editor.table.item(row, CHINESE).setText("北京")
    editor.save()
    assert load_user_glossary().terms("zh") == ["北京"]


def test_the_window_opens_the_editor_and_its_pipeline_uses_the_glossary(qtbot, store):
    from app.ui.main_window import MainWindow
    from tests.ui.conftest import random_model
    from tests.ui.test_window import make_window

    window: MainWindow = make_window(
        qtbot, store, direction="en-zh", nmt_en_zh=str(random_model("en-zh")), input_device="no such microphone"
    )
    action = next(a for menu in window.menuBar().actions() for a in menu.menu().actions() if "Glossary" in a.text())
    action.trigger()
    editor = window.transcript_actions.glossary_editor
    assert editor.isVisible()
    row = editor.add_entry()
    editor.table.item(row, ENGLISH).setText("Peking")
    editor.table.item(row, CHINESE).setText("北京")
    editor.save()
    assert not editor.isVisible()
    qtbot.waitUntil(lambda: not window.pool.busy(), timeout=60000)
    window.controls.button.click()  # Start: the pipeline gets the saved glossary
    assert window.session_control.running_session.config.glossary.terms("en") == ["Peking"]
    window.controls.button.click()  # Stop
    qtbot.waitUntil(
        lambda: not window.session_control.stopping and window.controls.button.text() == "Start", timeout=90000
    )
