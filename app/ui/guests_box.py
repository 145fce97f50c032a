"""The caption panel's guest speech (issue 43): a switch, the speaking link and its QR code, and the
guests speaking now, each to mute or remove.

The places guests speak from (app.audio.guest.GuestSource) belong to the window and outlive
sessions: the caption server feeds them, and a session started while guest speech is on reads
them in its guest lanes (app.pipeline.guests.WithGuests, through app.ui.sources.make_session).
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QCheckBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
)

from app.audio.guest import GuestSource
from app.captions.guest_speech import GuestSpeech
from app.pipeline.guests import MAX_GUESTS_SPEAKING
from app.ui.i18n import translate

REFRESH_MS = 1000  # the list of guests speaking, read from the server's thread this often


class GuestsBox(QGroupBox):
    """Allow guest speech (before serving); while serving: the speaking link, the guests, mute/remove."""

    def __init__(self, qr_pixmap, parent=None):
        super().__init__(translate("GuestsBox", "Guests speak from their phones"), parent)
        self.qr_pixmap = qr_pixmap
        self.places = [GuestSource(f"guest place {n + 1}") for n in range(MAX_GUESTS_SPEAKING)]
        self.speech: GuestSpeech | None = None  # the serving server's, when guest speech is on
        self.allow = QCheckBox(translate("GuestsBox", "Let guests speak through the page (a speaking link)"))
        self.link = QLabel()
        self.link.setWordWrap(True)
        self.link.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.qr = QLabel()
        self.qr.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.guests = QListWidget()
        self.guests.setAccessibleName(translate("GuestsBox", "Guests speaking"))
        self.mute = QPushButton(translate("GuestsBox", "Mute or unmute"))
        self.remove = QPushButton(translate("GuestsBox", "Remove"))
        self.mute.clicked.connect(self._toggle_mute)
        self.remove.clicked.connect(self._remove)
        buttons = QHBoxLayout()
        buttons.addWidget(self.mute)
        buttons.addWidget(self.remove)
        layout = QVBoxLayout(self)
        for widget in (self.allow, self.link, self.qr, self.guests):
            layout.addWidget(widget)
        layout.addLayout(buttons)
        self.timer = QTimer(self)
        self.timer.setInterval(REFRESH_MS)
        self.timer.timeout.connect(self.refresh)
        self.show_server(None)

    def speech_for_server(self) -> GuestSpeech | None:
        """A new server's guest speech: on the window's places, when allowed."""
        return GuestSpeech(self.places) if self.allow.isChecked() else None

    def places_for_session(self) -> list[GuestSource]:
        """What a session starting now listens to besides the host: the places, while guests may speak."""
        return list(self.places) if self.speech is not None else []

    def show_server(self, server) -> None:
        """The panel's server changed (None: not serving)."""
        self.speech = server.guest_speech if server is not None else None
        self.allow.setEnabled(server is None)
        on = self.speech is not None
        for widget in (self.link, self.qr, self.guests, self.mute, self.remove):
            widget.setVisible(on)
        if on:
            url = server.speak_url
            self.link.setText(
                html.escape(
                    translate(
                        "GuestsBox",
                        "Speaking link (HTTPS: a phone asks once to trust the app's own certificate). "
                        "Guests are heard from the next Start:",
                    )
                )
                + f'<br><a href="{url}">{url}</a>'
            )
            self.qr.setPixmap(self.qr_pixmap(url))
            self.timer.start()
        else:
            self.timer.stop()
            self.qr.clear()
        self.refresh()

    def refresh(self) -> None:
        speaking = self.speech.speaking() if self.speech is not None else []
        chosen = self._chosen()
        self.guests.clear()
        for guest in speaking:
            muted = translate("GuestsBox", " (muted)") if guest["muted"] else ""
            item = QListWidgetItem(f"{guest['name']}{muted} — {guest['peer']}")
            item.setData(Qt.ItemDataRole.UserRole, guest)
            self.guests.addItem(item)
            if chosen is not None and guest["id"] == chosen["id"]:
                self.guests.setCurrentItem(item)

    def _chosen(self) -> dict | None:
        item = self.guests.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item is not None else None

    def _toggle_mute(self) -> None:
        guest = self._chosen()
        if guest is not None and self.speech is not None:
            self.speech.mute(guest["id"], not guest["muted"])

    def _remove(self) -> None:
        guest = self._chosen()
        if guest is not None and self.speech is not None:
            self.speech.remove(guest["id"])
