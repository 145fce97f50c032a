"""Every control gets an accessible name, so screen readers can say what it is."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSlider,
    QAbstractSpinBox,
    QComboBox,
    QLineEdit,
    QProgressBar,
    QScrollBar,
    QWidget,
)

from app.ui.i18n import translate  # noqa: E402

CONTROLS = (QAbstractButton, QComboBox, QAbstractSlider, QAbstractSpinBox, QLineEdit, QProgressBar)


def name_controls(root: QWidget) -> list[QWidget]:
    """Give each control under `root` without an accessible name one from its text, tooltip or
    object name; returns the controls that still have none."""
    unnamed = []
    for widget in root.findChildren(QWidget):
        if not isinstance(widget, CONTROLS) or widget.accessibleName():
            continue
        text = widget.text() if isinstance(widget, QAbstractButton) else ""
        name = text.replace("&", "").strip() or widget.toolTip().split("\n")[0].strip()
        parent = widget.parentWidget()
        if not name and parent is not None and parent.accessibleName():
            name = parent.accessibleName()  # the editor inside a spin box or an editable combo box, ...
        if not name:  # Qt's own object names ("qt_spinbox_lineedit") are a last resort
            name = widget.objectName().replace("_", " ").strip()
        if not name and isinstance(widget, QScrollBar):
            name = (
                translate("Accessibility", "Vertical scroll bar")
                if widget.orientation() == Qt.Orientation.Vertical
                else translate("Accessibility", "Horizontal scroll bar")
            )
        if name:
            widget.setAccessibleName(name)
        else:
            unnamed.append(widget)
    return unnamed
