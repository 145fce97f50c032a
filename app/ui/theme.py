"""Light and dark: the window follows the system's colour scheme where Qt can tell
(QStyleHints.colorScheme, Qt 6.5+), or the one the user chose in View -> Theme."""

from __future__ import annotations

from enum import StrEnum

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication


class Theme(StrEnum):
    SYSTEM = "system"
    LIGHT = "light"
    DARK = "dark"

    @classmethod
    def parse(cls, value) -> Theme:
        try:
            return cls(value or "system")
        except ValueError:
            return cls.SYSTEM


def system_is_dark(scheme: Qt.ColorScheme | None = None) -> bool:
    """True when the platform says its colour scheme is dark (unknown counts as light)."""
    return (scheme if scheme is not None else QGuiApplication.styleHints().colorScheme()) == Qt.ColorScheme.Dark


def is_dark(theme: Theme, scheme: Qt.ColorScheme | None = None) -> bool:
    return theme is Theme.DARK or (theme is Theme.SYSTEM and system_is_dark(scheme))


def dark_palette() -> QPalette:
    palette = QPalette()
    colors = {
        QPalette.ColorRole.Window: "#1f2327",
        QPalette.ColorRole.WindowText: "#e6e9eb",
        QPalette.ColorRole.Base: "#16191c",
        QPalette.ColorRole.AlternateBase: "#23282d",
        QPalette.ColorRole.Text: "#e6e9eb",
        QPalette.ColorRole.Button: "#2a2f34",
        QPalette.ColorRole.ButtonText: "#e6e9eb",
        QPalette.ColorRole.ToolTipBase: "#2a2f34",
        QPalette.ColorRole.ToolTipText: "#e6e9eb",
        QPalette.ColorRole.Highlight: "#3d7bd9",
        QPalette.ColorRole.HighlightedText: "#ffffff",
        QPalette.ColorRole.Link: "#80b4ff",
        QPalette.ColorRole.PlaceholderText: "#8a9299",
        QPalette.ColorRole.BrightText: "#ff6b6b",
    }
    for role, color in colors.items():
        palette.setColor(role, QColor(color))
    for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText):
        palette.setColor(QPalette.ColorGroup.Disabled, role, QColor("#6b7278"))
    return palette


def apply_theme(theme: Theme, transcript=None, scheme: Qt.ColorScheme | None = None) -> bool:
    """Set the application's palette for `theme` (`scheme`: the system's, when just changed);
    returns whether it is dark."""
    app = QApplication.instance()
    dark = is_dark(theme, scheme)
    app.setStyle("Fusion")  # the one style that takes a palette alike on every platform
    app.setPalette(dark_palette() if dark else app.style().standardPalette())
    if transcript is not None:
        transcript.set_dark(dark)
    return dark
