"""The window's reading options, in the View menu: the subtitle overlay, text size, theme,
reading mode, the Chinese script, marks on unsure source words, live text smoother <-> sooner.

Kept out of main_window.py: the window's menus (menus.py) create a ViewOptions and hand it the View menu.
Each option is saved (UiSettings; the overlay's own under "overlay/") and applied at once.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QActionGroup, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu

from app.shared.chinese import ChineseScript
from app.shared.live_text import LiveText
from app.ui.accessibility import name_controls
from app.ui.i18n import QT_TRANSLATE_NOOP, translate
from app.ui.overlay import SubtitleOverlay
from app.ui.overlay_dialog import OverlayDialog
from app.ui.theme import Theme, apply_theme

OVERLAY_SHORTCUT = "Ctrl+Shift+O"
CLICK_THROUGH_SHORTCUT = "Ctrl+Shift+T"  # application-wide: works while any of our windows is active


class ViewOptions(QObject):
    def __init__(self, window: QMainWindow, menu: QMenu):
        super().__init__(window)
        self.window = window
        menu.addSeparator()
        self._build_overlay(menu)
        menu.addSeparator()
        self._build_text(menu)
        self.reading_mode = QAction(
            translate("ViewOptions", "&Reading mode: settled text only"), window, checkable=True
        )
        self.reading_mode.setToolTip(
            translate("ViewOptions", "Live translations show only the part that will not change any more")
        )
        self.reading_mode.setChecked(bool(window.settings.reading_mode))
        self.reading_mode.toggled.connect(self.set_reading_mode)
        window.transcript_view.reading_mode = self.reading_mode.isChecked()
        menu.addAction(self.reading_mode)
        scripts = menu.addMenu(translate("ViewOptions", "Chinese &script"))
        scripts.menuAction().setToolTip(
            translate("ViewOptions", "How Chinese is written: recognised speech, translations, transcripts")
        )
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
        self.mark_source = QAction(
            translate("ViewOptions", "Mark words &Whisper was unsure of (slower finals)"), window, checkable=True
        )
        self.mark_source.setToolTip(
            translate(
                "ViewOptions",
                "Underline recognised words Whisper gave a low probability; takes effect at the next start",
            )
        )
        self.mark_source.setChecked(bool(window.settings.mark_unsure_source))
        self.mark_source.toggled.connect(lambda on: self._save("mark_unsure_source", on))
        menu.addAction(self.mark_source)
        self._build_live_text(menu)

    def _build_live_text(self, menu: QMenu) -> None:
        """Live text: smoother <-> sooner (PipelineConfig.live_text), from the next start on."""
        window = self.window
        pace = menu.addMenu(translate("ViewOptions", "Live te&xt"))
        pace.menuAction().setToolTip(
            translate(
                "ViewOptions",
                "How often live text is updated while people speak: "
                "smoother changes less, sooner shows words earlier; "
                "takes effect at the next start",
            )
        )
        self.live_text_group = QActionGroup(window)
        self.live_text_actions: dict[LiveText, QAction] = {}
        current = LiveText.parse(window.settings.live_text)
        for choice, label in (
            (LiveText.SMOOTHER, QT_TRANSLATE_NOOP("ViewOptions", "S&moother")),
            (LiveText.BALANCED, QT_TRANSLATE_NOOP("ViewOptions", "&Balanced")),
            (LiveText.SOONER, QT_TRANSLATE_NOOP("ViewOptions", "&Sooner")),
        ):
            action = QAction(translate("ViewOptions", label), window, checkable=True)
            action.setChecked(choice is current)
            action.triggered.connect(lambda _=False, c=choice: self._save("live_text", c.value))
            self.live_text_group.addAction(action)
            pace.addAction(action)
            self.live_text_actions[choice] = action

    def set_reading_mode(self, on: bool) -> None:
        self.window.transcript_view.reading_mode = on
        self.overlay.reading_mode = on
        self.overlay.render()
        self._save("reading_mode", on)

    def _save(self, name: str, value) -> None:
        setattr(self.window.settings, name, value)
        self.window.save_settings()

    def set_chinese(self, script: ChineseScript | str) -> None:
        script = ChineseScript.parse(script)
        self.script_actions[script].setChecked(True)
        self.window.settings.chinese = script.value
        self.window.save_settings()
        self.window.session_control.set_chinese(script.value)

    # --- subtitle overlay --------------------------------------------------------------------
    def _build_overlay(self, menu: QMenu) -> None:
        window = self.window
        self.overlay = SubtitleOverlay(window.store)
        self.overlay.reading_mode = bool(window.settings.reading_mode)
        window.events_shown.connect(self.overlay.on_events)
        self.show_overlay = self._action(
            menu, translate("ViewOptions", "Subtitle &overlay"), OVERLAY_SHORTCUT, checkable=True
        )
        self.show_overlay.setToolTip(
            translate("ViewOptions", "Translations in a small always-on-top window over other windows")
        )
        self.show_overlay.toggled.connect(self.set_overlay_visible)
        self.click_through = self._action(
            menu,
            translate("ViewOptions", "Overlay &click-through (mouse goes to the window below)"),
            CLICK_THROUGH_SHORTCUT,
            checkable=True,
        )
        self.click_through.setShortcutContext(Qt.ShortcutContext.ApplicationShortcut)
        self.click_through.setChecked(self.overlay.settings.click_through)
        self.click_through.toggled.connect(self.overlay.set_click_through)
        self.overlay.click_through_changed.connect(self.click_through.setChecked)
        settings = self._action(menu, translate("ViewOptions", "Overlay &settings…"))
        settings.triggered.connect(self.open_overlay_settings)
        if self.overlay.settings.visible:
            self.show_overlay.setChecked(True)

    def set_overlay_visible(self, visible: bool) -> None:
        self.show_overlay.setChecked(visible)
        self.overlay.setVisible(visible)
        if visible:
            self.overlay.raise_()

    def open_overlay_settings(self) -> None:
        self.overlay_dialog = OverlayDialog(self.overlay, self.window)
        name_controls(self.overlay_dialog)
        self.overlay_dialog.show()

    def window_closing(self) -> None:
        """The main window closes (its closeEvent calls this): the overlay closes with it and
        comes back next time. A direct call, not an event filter: a filter ran Python on every
        event of the window, and one segfaulted when it ran while a window was torn down."""
        self.overlay.close_with_app()

    # --- text size, theme, accessibility -----------------------------------------------------
    def _build_text(self, menu: QMenu) -> None:
        window = self.window
        size = int(window.settings.text_size or window.transcript_view.point_size)
        window.transcript_view.set_point_size(size)
        self._action(menu, translate("ViewOptions", "&Larger text"), QKeySequence.StandardKey.ZoomIn).triggered.connect(
            lambda: self.zoom(+2)
        )
        self._action(
            menu, translate("ViewOptions", "S&maller text"), QKeySequence.StandardKey.ZoomOut
        ).triggered.connect(lambda: self.zoom(-2))
        themes = menu.addMenu(translate("ViewOptions", "&Theme"))
        self.theme_group = QActionGroup(window)
        self.theme_actions: dict[Theme, QAction] = {}
        current = Theme.parse(window.settings.theme)
        for theme, label in (
            (Theme.SYSTEM, QT_TRANSLATE_NOOP("ViewOptions", "Follow the &system")),
            (Theme.LIGHT, QT_TRANSLATE_NOOP("ViewOptions", "&Light")),
            (Theme.DARK, QT_TRANSLATE_NOOP("ViewOptions", "&Dark")),
        ):
            action = QAction(translate("ViewOptions", label), window, checkable=True)
            action.setChecked(theme is current)
            action.triggered.connect(lambda _=False, t=theme: self.set_theme(t))
            self.theme_group.addAction(action)
            themes.addAction(action)
            self.theme_actions[theme] = action
        self.dark = apply_theme(current, window.transcript_view)
        QGuiApplication.styleHints().colorSchemeChanged.connect(self._system_scheme_changed)
        name_controls(window)

    def zoom(self, by: int) -> None:
        self.window.transcript_view.set_point_size(self.window.transcript_view.point_size + by)
        self._save("text_size", self.window.transcript_view.point_size)

    def set_theme(self, theme: Theme) -> None:
        self.theme_actions[theme].setChecked(True)
        self._save("theme", theme.value)
        self.dark = apply_theme(theme, self.window.transcript_view)

    def _system_scheme_changed(self, scheme) -> None:
        if Theme.parse(self.window.settings.theme) is Theme.SYSTEM:
            self.dark = apply_theme(Theme.SYSTEM, self.window.transcript_view, scheme)

    def _action(self, menu: QMenu, text: str, shortcut=None, checkable: bool = False) -> QAction:
        action = QAction(text, self.window, checkable=checkable)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        menu.addAction(action)
        self.window.addAction(action)  # shortcuts work while the menu is closed
        return action
