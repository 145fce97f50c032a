"""Banners for problems: what is wrong in words, what to do, and a way to dismiss each.

Several problems at once are all shown, one row each, newest last: a notice is never replaced
by another about something else. A row has a `topic` naming what it is about; a newer message
on the same topic takes its row, and a topic can be withdrawn when it is fixed. Messages without
a topic (an error of the session) keep at most MAX_UNTOPICED rows, the oldest going first.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QVBoxLayout, QWidget

from app.shared.errors import LiveTranslatorError
from app.ui.i18n import error_texts, translate

STYLES = {
    "error": "background:#fdecea; color:#8e1c1c; border:1px solid #e57373;",
    "warning": "background:#fff6e0; color:#6d4c00; border:1px solid #ffb74d;",
    "info": "background:#e8f1fb; color:#0d3c61; border:1px solid #64b5f6;",
}
MAX_UNTOPICED = 3
SESSION_TOPICS = ("", "model", "transcript")  # the last session's news, cleared when the next one starts


def describe(error: BaseException) -> tuple[str, str]:
    """(message, hint) for any exception, in the interface's language; LiveTranslatorError
    carries both (as templates the window translates); anything else is a bug, said as it is."""
    if isinstance(error, LiveTranslatorError):
        return error_texts(error)
    return f"{type(error).__name__}: {error}", translate("Alerts", "This is a bug; the window keeps running.")


class Alert(QWidget):
    """One problem: its words, and a button that dismisses it."""

    dismissed = Signal(object)  # this Alert

    def __init__(self, topic: str, parent=None):
        super().__init__(parent)
        self.topic, self.message = topic, ""
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setOpenExternalLinks(False)
        self.close_button = QToolButton()  # as wide as its ✕ needs, at any font size
        self.close_button.setText("✕")
        self.close_button.setToolTip(translate("Alerts", "Dismiss"))
        self.close_button.setAccessibleName(translate("Alerts", "Dismiss"))
        self.close_button.setAutoRaise(True)
        self.close_button.clicked.connect(lambda: self.dismissed.emit(self))
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 4, 4)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.close_button)

    def set_text(self, message: str, hint: str, kind: str) -> None:
        self.message = message
        self.label.setText(f"<b>{html.escape(message)}</b>" + (f"<br>{html.escape(hint)}" if hint else ""))
        self.setStyleSheet(f"Alert, QLabel {{ {STYLES[kind]} }} QLabel {{ border:none; }}")


class AlertBanner(QWidget):
    dismissed = Signal(str)  # the topic of an alert the user dismissed

    def __init__(self, parent=None):
        super().__init__(parent)
        self.alerts: list[Alert] = []  # oldest first
        self._rows = QVBoxLayout(self)
        self._rows.setContentsMargins(0, 0, 0, 0)
        self._rows.setSpacing(2)
        self.hide()

    # The newest alert's, as the single banner had them.
    @property
    def message(self) -> str:
        return self.alerts[-1].message if self.alerts else ""

    @property
    def topic(self) -> str:
        return self.alerts[-1].topic if self.alerts else ""

    @property
    def label(self) -> QLabel:
        return self.alerts[-1].label if self.alerts else QLabel()

    def find(self, topic: str) -> Alert | None:
        return next((alert for alert in self.alerts if alert.topic == topic), None)

    def show_message(self, message: str, hint: str = "", kind: str = "error", topic: str = "") -> None:
        """`topic` names what the message is about, so it can be withdrawn when that is fixed."""
        alert = self.find(topic) if topic else next((a for a in self.alerts if a.message == message), None)
        if alert is None:
            alert = Alert(topic, self)
            alert.dismissed.connect(self._dismiss)
            self.alerts.append(alert)
            self._rows.addWidget(alert)
            untopiced = [a for a in self.alerts if not a.topic]
            for old in untopiced[:-MAX_UNTOPICED]:
                self._remove(old)
        alert.set_text(message, hint, kind)
        alert.show()  # a child added to a shown widget is hidden until shown
        self.show()

    def show_error(self, error: BaseException) -> None:
        self.show_message(*describe(error))

    def withdraw(self, topic: str) -> None:
        """The alert on `topic`, if shown, goes: what it said no longer applies."""
        if (alert := self.find(topic)) is not None:
            self._remove(alert)

    def clear_session_news(self) -> None:
        """A session starts: the last session's errors and warnings go; notices of the app stay."""
        for alert in [a for a in self.alerts if a.topic in SESSION_TOPICS]:
            self._remove(alert)

    def _dismiss(self, alert: Alert) -> None:
        self._remove(alert)
        self.dismissed.emit(alert.topic)

    def _remove(self, alert: Alert) -> None:
        self.alerts.remove(alert)
        self._rows.removeWidget(alert)
        alert.hide()
        alert.deleteLater()
        if not self.alerts:
            self.hide()
