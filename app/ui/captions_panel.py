"""The window's side of the caption server: a toggle, the page's URL and a QR code for phones.

The server itself (app.captions) knows nothing of Qt; the window hands it the events it has
drawn (`observe`), and tells it when a new session starts, so the page clears.
"""

from __future__ import annotations

import html
import io

import segno
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QGuiApplication, QPixmap
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
)

from app.captions import CaptionServer
from app.pipeline.caption_downloads import caption_writers
from app.shared.errors import LiveTranslatorError
from app.ui.guests_box import GuestsBox
from app.ui.i18n import QT_TRANSLATE_NOOP, error_texts, translate

DEFAULT_PORT = 8765
WHO = [
    (QT_TRANSLATE_NOOP("CaptionsPanel", "This computer only (OBS, a second screen)"), "127.0.0.1"),
    (QT_TRANSLATE_NOOP("CaptionsPanel", "Phones and computers on this network (with an access key)"), "0.0.0.0"),
]  # translated where shown


def qr_pixmap(text: str, scale: int = 6) -> QPixmap:
    """A QR code of `text` (segno), as a pixmap."""
    buffer = io.BytesIO()
    segno.make(text, error="m").save(buffer, kind="png", scale=scale, border=2)
    pixmap = QPixmap()
    pixmap.loadFromData(buffer.getvalue(), "PNG")
    return pixmap


class CaptionsPanel(QDialog):
    """Start/stop the caption server; shows its URL and a QR code while it serves."""

    serving_changed = Signal(bool)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWindowTitle(translate("CaptionsPanel", "Live captions in a browser"))
        self.server: CaptionServer | None = None

        self.who = QComboBox()
        for label, host in WHO:
            self.who.addItem(translate("CaptionsPanel", label), host)
        self.port = QSpinBox()
        self.port.setRange(1024, 65535)
        self.port.setValue(DEFAULT_PORT)
        self.who.setAccessibleName(translate("CaptionsPanel", "Who can open the captions"))
        self.port.setAccessibleName(translate("CaptionsPanel", "Caption server port"))
        self.toggle = QPushButton(translate("CaptionsPanel", "Start serving captions"))
        self.toggle.setCheckable(True)
        self.toggle.toggled.connect(self.set_serving)
        self.url = QLabel()
        self.url.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.url.setOpenExternalLinks(True)
        self.url.setWordWrap(True)
        self.copy = QPushButton(translate("CaptionsPanel", "Copy URL"))
        self.copy.clicked.connect(lambda: QGuiApplication.clipboard().setText(self.server.url if self.server else ""))
        self.qr = QLabel()
        self.qr.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.note = QLabel(
            translate(
                "CaptionsPanel",
                "Page options: ?show=translation|source|both &lines=N "
                "&size=48 &font=… &bg=transparent &script=simplified|traditional|hongkong. "
                "Each listener can also choose on the page (⚙).",
            )
        )
        self.note.setWordWrap(True)
        self.note.setStyleSheet("color: palette(mid)")
        self.guests = GuestsBox(qr_pixmap)  # guest speech: the speaking link, the guests speaking

        form = QFormLayout()
        form.addRow(translate("CaptionsPanel", "Who can open the page:"), self.who)
        form.addRow(translate("CaptionsPanel", "Port:"), self.port)
        url_row = QHBoxLayout()
        url_row.addWidget(self.url, 1)
        url_row.addWidget(self.copy)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.toggle)
        layout.addLayout(url_row)
        layout.addWidget(self.qr)
        layout.addWidget(self.note)
        layout.addWidget(self.guests)
        self._show_state()

    # --- the window's calls ------------------------------------------------------------------
    def observe(self, events: list) -> None:
        """Pipeline events the window has drawn; the server takes them on its own thread."""
        if self.server is not None:
            for event in events:
                self.server.on_event(event)

    def new_session(self) -> None:
        if self.server is not None:
            self.server.new_session()

    def shutdown(self) -> None:
        self.set_serving(False)

    # --- the toggle --------------------------------------------------------------------------
    @property
    def serving(self) -> bool:
        return self.server is not None

    def set_serving(self, on: bool) -> None:
        if on == self.serving:
            self._show_state()
            return
        if on:
            server = CaptionServer(
                self.who.currentData(),
                self.port.value(),
                writers=caption_writers(),
                guest_speech=self.guests.speech_for_server(),
            )
            try:
                server.start()  # binding is quick: the serving itself runs on the server's thread
            except LiveTranslatorError as error:
                message, hint = error_texts(error)
                self.url.setText(f'<span style="color:#c62828">{html.escape(message)}</span><br>{html.escape(hint)}')
                self.toggle.blockSignals(True)
                self.toggle.setChecked(False)
                self.toggle.blockSignals(False)
                return
            self.server = server
        else:
            server, self.server = self.server, None
            server.stop()
        self._show_state()
        self.serving_changed.emit(self.serving)

    def _show_state(self) -> None:
        serving = self.serving
        self.toggle.blockSignals(True)
        self.toggle.setChecked(serving)
        self.toggle.blockSignals(False)
        self.toggle.setText(
            translate("CaptionsPanel", "Stop serving captions")
            if serving
            else translate("CaptionsPanel", "Start serving captions")
        )
        self.who.setEnabled(not serving)
        self.port.setEnabled(not serving)
        self.guests.show_server(self.server)
        self.copy.setEnabled(serving)
        if serving:
            url = self.server.url
            self.url.setText(f'<a href="{url}">{url}</a>')
            self.qr.setPixmap(qr_pixmap(url))
            self.qr.setToolTip(translate("CaptionsPanel", "Scan with a phone on the same network"))
        else:
            self.url.setText(
                translate("CaptionsPanel", "Not serving. Start to get a page address for a browser, OBS or phones.")
            )
            self.qr.clear()
