"""The window's reading options, in the View menu: the Chinese script, marks on unsure source words, ...

Kept out of main_window.py: the window only creates a ViewOptions and hands it its menu.
Each option is saved in UiSettings and applied to the running pipeline at once.
"""

from __future__ import annotations

from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QMainWindow, QMenu

from app.shared.chinese import ChineseScript
from app.ui.settings import save_settings


class ViewOptions:
    def __init__(self, window: QMainWindow, menu: QMenu):
        self.window = window
        menu.addSeparator()
        self.reading_mode = QAction("&Reading mode: settled text only", window, checkable=True)
        self.reading_mode.setToolTip("Live translations show only the part that will not change any more")
        self.reading_mode.setChecked(bool(window.settings.reading_mode))
        self.reading_mode.toggled.connect(self.set_reading_mode)
        window.transcript.reading_mode = self.reading_mode.isChecked()
        menu.addAction(self.reading_mode)
        scripts = menu.addMenu("Chinese &script")
        scripts.menuAction().setToolTip("How Chinese is written: recognised speech, translations, transcripts")
        self.script_group = QActionGroup(window)
        self.script_actions: dict[ChineseScript, QAction] = {}
        current = ChineseScript.parse(window.settings.chinese or None)
        for script in ChineseScript:
            action = QAction(script.label, window, checkable=True)
            action.setChecked(script is current)
            action.triggered.connect(lambda _=False, s=script: self.set_chinese(s))
            self.script_group.addAction(action)
            scripts.addAction(action)
            self.script_actions[script] = action
        self.mark_source = QAction("Mark words &Whisper was unsure of (slower finals)", window, checkable=True)
        self.mark_source.setToolTip("Underline recognised words Whisper gave a low probability; takes effect at the next start")
        self.mark_source.setChecked(bool(window.settings.mark_unsure_source))
        self.mark_source.toggled.connect(lambda on: self._save("mark_unsure_source", on))
        menu.addAction(self.mark_source)

    def set_reading_mode(self, on: bool) -> None:
        self.window.transcript.reading_mode = on
        self._save("reading_mode", on)

    def _save(self, name: str, value) -> None:
        setattr(self.window.settings, name, value)
        save_settings(self.window.settings, self.window.store)

    def set_chinese(self, script: ChineseScript | str) -> None:
        script = ChineseScript.parse(script)
        self.script_actions[script].setChecked(True)
        self.window.settings.chinese = script.value
        save_settings(self.window.settings, self.window.store)
        if self.window.pipeline is not None:
            self.window.pipeline.set_chinese(script.value)
