"""Overlay settings: font, size, colours, background opacity, line count, source above."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import (
    QCheckBox,
    QColorDialog,
    QDialog,
    QDialogButtonBox,
    QFontComboBox,
    QFormLayout,
    QPushButton,
    QSlider,
    QSpinBox,
)

from app.ui.i18n import translate
from app.ui.overlay import SubtitleOverlay, save_overlay_settings


class OverlayDialog(QDialog):
    """Changes show on the overlay at once; Close keeps them (they are saved as they change)."""

    def __init__(self, overlay: SubtitleOverlay, parent=None):
        super().__init__(parent)
        self.overlay = overlay
        self.setWindowTitle(translate("OverlayDialog", "Subtitle overlay settings"))
        s = overlay.settings
        self.font_box = QFontComboBox()
        self.font_box.setCurrentFont(QFont(s.font_family))
        self.size = QSpinBox(minimum=8, maximum=96, value=s.font_size, suffix=translate("OverlayDialog", " pt"))
        self.text_color = QPushButton()
        self.source_color = QPushButton()
        self.background = QPushButton()
        self.opacity = QSlider(Qt.Orientation.Horizontal, minimum=0, maximum=100, value=round(s.opacity * 100))
        self.lines = QSpinBox(minimum=1, maximum=3, value=s.lines)
        self.show_source = QCheckBox(
            translate("OverlayDialog", "Show the source text above the translation"), checked=s.show_source
        )
        for widget, name in (
            (self.font_box, translate("OverlayDialog", "Font")),
            (self.size, translate("OverlayDialog", "Font size")),
            (self.text_color, translate("OverlayDialog", "Text colour")),
            (self.source_color, translate("OverlayDialog", "Source text colour")),
            (self.background, translate("OverlayDialog", "Background colour")),
            (self.opacity, translate("OverlayDialog", "Background opacity")),
            (self.lines, translate("OverlayDialog", "Lines shown")),
            (self.show_source, translate("OverlayDialog", "Show source text")),
        ):
            widget.setAccessibleName(name)
        form = QFormLayout(self)
        form.addRow(translate("OverlayDialog", "Font"), self.font_box)
        form.addRow(translate("OverlayDialog", "Size"), self.size)
        form.addRow(translate("OverlayDialog", "Text colour"), self.text_color)
        form.addRow(translate("OverlayDialog", "Source colour"), self.source_color)
        form.addRow(translate("OverlayDialog", "Background"), self.background)
        form.addRow(translate("OverlayDialog", "Background opacity"), self.opacity)
        form.addRow(translate("OverlayDialog", "Lines"), self.lines)
        form.addRow(self.show_source)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        buttons.button(QDialogButtonBox.StandardButton.Close).setAccessibleName(translate("OverlayDialog", "Close"))
        form.addRow(buttons)
        self._show_colors()
        self.font_box.currentFontChanged.connect(lambda f: self.set("font_family", f.family()))
        self.size.valueChanged.connect(lambda v: self.set("font_size", v))
        self.opacity.valueChanged.connect(lambda v: self.set("opacity", v / 100))
        self.lines.valueChanged.connect(lambda v: self.set("lines", v))
        self.show_source.toggled.connect(lambda on: self.set("show_source", on))
        for button, name in (
            (self.text_color, "text_color"),
            (self.source_color, "source_color"),
            (self.background, "background"),
        ):
            button.clicked.connect(lambda _=False, n=name: self.choose_color(n))

    def set(self, name: str, value) -> None:
        setattr(self.overlay.settings, name, value)
        save_overlay_settings(self.overlay.settings, self.overlay.store)
        self.overlay.apply_settings()
        self._show_colors()

    def choose_color(self, name: str) -> None:
        color = QColorDialog.getColor(
            QColor(getattr(self.overlay.settings, name)), self, translate("OverlayDialog", "Choose a colour")
        )
        if color.isValid():
            self.set(name, color.name())

    def _show_colors(self) -> None:
        for button, name in (
            (self.text_color, "text_color"),
            (self.source_color, "source_color"),
            (self.background, "background"),
        ):
            value = getattr(self.overlay.settings, name)
            button.setText(value)
            button.setStyleSheet(f"background:{value}; color:{'#000' if QColor(value).lightness() > 128 else '#fff'};")
