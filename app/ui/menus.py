"""The main window's menu bar: File, Session, View (with the reading options of ViewOptions and
the interface language) and Models, each entry a call on the window or one of its parts."""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QActionGroup, QKeySequence, QShortcut
from PySide6.QtWidgets import QMenu

from app.ui.i18n import LANGUAGES, NATIVE_NAMES, translate
from app.ui.view_options import ViewOptions


class WindowMenus(QObject):
    """Built once, by the window, after its parts: `view_options`, `show_diagnostics`,
    `serve_captions` and `language_actions` are the entries the window checks and unchecks."""

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        bar = window.menuBar()
        self._build_file(bar.addMenu(translate("MainWindow", "&File")))
        self._build_session(bar.addMenu(translate("MainWindow", "&Session")))
        self._build_view(bar.addMenu(translate("MainWindow", "&View")))
        self._build_models(bar.addMenu(translate("MainWindow", "&Models")))
        # F5 too: a key that works while a text panel has focus.
        QShortcut(QKeySequence("F5"), window, window.session_control.toggle)

    def _build_file(self, menu: QMenu) -> None:
        window, export = self.window, self.window.transcript_actions.export
        self._action(menu, translate("MainWindow", "Translate a &recording…"), window.choose_recording, "Ctrl+O")
        menu.addSeparator()
        self._action(menu, translate("MainWindow", "Export transcript as &text…"), lambda: export("txt"), "Ctrl+S")
        self._action(menu, translate("MainWindow", "Export transcript as S&RT…"), lambda: export("srt"), "Ctrl+Shift+S")
        self._action(menu, translate("MainWindow", "Export transcript as &WebVTT…"), lambda: export("vtt"))
        menu.addSeparator()
        self._action(menu, translate("MainWindow", "&Quit"), window.close, QKeySequence.StandardKey.Quit)

    def _build_session(self, menu: QMenu) -> None:
        window = self.window
        self._action(menu, translate("MainWindow", "&Start / stop"), window.session_control.toggle, "Ctrl+Return")
        self._action(menu, translate("MainWindow", "Swap &direction"), window.swap_direction, "Ctrl+D")
        self._action(menu, translate("MainWindow", "&Clear panels"), window.clear, "Ctrl+L")
        self._action(
            menu,
            translate("MainWindow", "Co&rrect the selected words…"),
            window.transcript_actions.correct_selection,
            "Ctrl+E",
        )

    def _build_view(self, menu: QMenu) -> None:
        window = self.window
        self.show_diagnostics = self._action(
            menu, translate("MainWindow", "&Diagnostics panel"), window.toggle_diagnostics, "Ctrl+I"
        )
        self.show_diagnostics.setCheckable(True)
        self.show_diagnostics.setChecked(True)
        self.serve_captions = self._action(
            menu, translate("MainWindow", "Live &captions in a browser"), window.toggle_captions, "Ctrl+B"
        )
        self.serve_captions.setCheckable(True)
        window.captions.serving_changed.connect(self.serve_captions.setChecked)
        self.view_options = ViewOptions(window, menu)
        self._build_language_menu(menu)

    def _build_language_menu(self, view: QMenu) -> None:
        """View -> Interface language: the system's, or one chosen; used from the next start."""
        window = self.window
        menu = view.addMenu(translate("MainWindow", "Interface &language"))
        group = QActionGroup(window)
        self.language_actions: dict[str, QAction] = {}
        for code in ("", *LANGUAGES):
            label = NATIVE_NAMES.get(code) or translate("MainWindow", "Follow the system")
            action = QAction(label, window, checkable=True)
            action.setChecked(code == window.settings.language)
            action.triggered.connect(lambda _=False, c=code: window.set_language(c))
            group.addAction(action)
            menu.addAction(action)
            self.language_actions[code] = action

    def _build_models(self, menu: QMenu) -> None:
        window = self.window
        self._action(
            menu,
            translate("MainWindow", "&Manage models…"),
            lambda: window.model_control.open_dialog(window.direction()),
            "Ctrl+M",
        )
        self._action(
            menu, translate("MainWindow", "&Glossary…"), window.transcript_actions.open_glossary_editor, "Ctrl+G"
        )

    def _action(self, menu: QMenu, text: str, slot, shortcut=None) -> QAction:
        action = QAction(text, self.window)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(slot)
        menu.addAction(action)
        return action
