"""A banner for problems: what is wrong in words, what to do, and a way to dismiss it."""

from __future__ import annotations

import html

from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from app.shared.errors import LiveTranslatorError
from app.ui.i18n import error_texts, translate

STYLES = {
    "error": "background:#fdecea; color:#8e1c1c; border:1px solid #e57373;",
    "warning": "background:#fff6e0; color:#6d4c00; border:1px solid #ffb74d;",
    "info": "background:#e8f1fb; color:#0d3c61; border:1px solid #64b5f6;",
}


def describe(error: BaseException) -> tuple[str, str]:
    """(message, hint) for any exception, in the interface's language; LiveTranslatorError
    carries both (as templates the window translates); anything else is a bug, said as it is."""
    if isinstance(error, LiveTranslatorError):
        return error_texts(error)
    return f"{type(error).__name__}: {error}", translate("Alerts", "This is a bug; the window keeps running.")


class AlertBanner(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setOpenExternalLinks(False)
        self.close_button = QPushButton("✕")
        self.close_button.setToolTip(translate("Alerts", "Dismiss"))
        self.close_button.setAccessibleName(translate("Alerts", "Dismiss"))
        self.close_button.setFlat(True)
        self.close_button.setFixedWidth(28)
        self.close_button.clicked.connect(self.hide)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 4, 4)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.close_button)
        self.message, self.topic = "", ""
        self.hide()

    def show_message(self, message: str, hint: str = "", kind: str = "error", topic: str = "") -> None:
        """`topic` names what the message is about, so it can be withdrawn when that is fixed."""
        self.message, self.topic = message, topic
        text = f"<b>{html.escape(message)}</b>" + (f"<br>{html.escape(hint)}" if hint else "")
        self.label.setText(text)
        self.setStyleSheet(f"AlertBanner, QLabel {{ {STYLES[kind]} }} QLabel {{ border:none; }}")
        self.show()

    def show_error(self, error: BaseException) -> None:
        self.show_message(*describe(error))
