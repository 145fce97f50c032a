"""The control bar: direction, start/stop, the source (microphone, system audio, or both as a
conversation) and its level, speech output and voice."""

from __future__ import annotations

import math

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from app.shared.languages import AUTO_DIRECTION, Direction
from app.ui.i18n import QT_TRANSLATE_NOOP, translate
from app.ui.sources import SourceChooser, SourceList

METER_FLOOR_DB = -60.0


ROOM_PROBLEM_COLOUR = "#d08000"  # amber: the input has a problem (a Room event), not an error


def meter_value(rms: float) -> int:
    """0..100 on a dB scale: speech at -30 dBFS fills half the bar, silence none."""
    if rms <= 0:
        return 0
    db = 20 * math.log10(rms)
    return round(100 * min(1.0, max(0.0, (db - METER_FLOOR_DB) / -METER_FLOOR_DB)))


class Controls(QWidget):
    start_stop = Signal()
    direction_changed = Signal(str)
    device_changed = Signal(str)
    tts_toggled = Signal(bool)
    voice_changed = Signal(str)
    spoken_changed = Signal(str)  # a conversation's spoken side: "them", "me" or "both"

    def __init__(self, parent=None):
        super().__init__(parent)
        self.direction = QComboBox()
        for direction in Direction:
            self.direction.addItem(direction.label, direction.value)
        # Face to face: each sentence's language decided, translated the other way (app/ui/face_to_face.py)
        self.direction.addItem(translate("Controls", "Auto (English ⇄ 中文)"), AUTO_DIRECTION)
        self.direction.setToolTip(translate("Controls", "Translation direction (Ctrl+D swaps)"))
        self.direction.currentIndexChanged.connect(lambda _i: self.direction_changed.emit(self.direction.currentData()))
        self.button = QPushButton(translate("Controls", "Start"))
        self.button.setToolTip(translate("Controls", "Start or stop listening (Ctrl+Return)"))
        self.button.setMinimumWidth(96)
        self.button.clicked.connect(self.start_stop)
        self.device = SourceChooser()
        self.device.currentIndexChanged.connect(lambda _i: self.device_changed.emit(self.device.choice().key))
        self.level = self._meter(translate("Controls", "Level of the source listened to (in a conversation: mine)"))
        self.level_them = self._meter(translate("Controls", "Conversation: level of system audio (theirs)"))
        self.level_them.hide()
        self.tts = QCheckBox(translate("Controls", "Speak"))
        self.tts.setToolTip(translate("Controls", "Speak each final translation aloud"))
        self.tts.toggled.connect(self.tts_toggled)
        self.spoken = QComboBox()
        for label, side in (
            (QT_TRANSLATE_NOOP("Controls", "their words"), "them"),
            (QT_TRANSLATE_NOOP("Controls", "my words"), "me"),
            (QT_TRANSLATE_NOOP("Controls", "both"), "both"),
        ):
            self.spoken.addItem(translate("Controls", label), side)
        self.spoken.setToolTip(translate("Controls", "Conversation: whose translations are spoken"))
        self.spoken.currentIndexChanged.connect(lambda _i: self.spoken_changed.emit(self.spoken.currentData()))
        self.spoken.hide()
        self.voice = QComboBox()
        self.voice.setToolTip(translate("Controls", "Voice for the translation's language"))
        self.voice.setMinimumWidth(140)
        self.voice.currentIndexChanged.connect(lambda _i: self.voice_changed.emit(self.voice.currentData() or ""))

        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.direction)
        layout.addWidget(self.button)
        layout.addSpacing(12)
        layout.addWidget(QLabel(translate("Controls", "Listen to")))
        layout.addWidget(self.device)
        layout.addWidget(self.level)
        layout.addWidget(self.level_them)
        layout.addSpacing(12)
        layout.addWidget(self.tts)
        layout.addWidget(self.spoken)
        layout.addWidget(self.voice)
        layout.addStretch()

    def current_direction(self) -> str:
        return self.direction.currentData()

    def set_direction(self, code: str) -> None:
        index = self.direction.findData(code)
        if index >= 0:
            self.direction.setCurrentIndex(index)

    @staticmethod
    def _meter(tip: str) -> QProgressBar:
        meter = QProgressBar()
        meter.setRange(0, 100)
        meter.setTextVisible(False)
        meter.setFixedWidth(110)
        meter.setToolTip(tip)
        return meter

    def set_devices(self, sources: SourceList, current_key: str) -> None:
        self.device.set_sources(sources, current_key)

    def set_voices(self, voices: list[tuple[str, str]], current: str) -> None:
        """`voices`: (id, label) pairs for the current target language."""
        self.voice.blockSignals(True)
        self.voice.clear()
        self.voice.addItem(translate("Controls", "Default voice"), "")
        for voice_id, label in voices:
            self.voice.addItem(label, voice_id)
        self.voice.setCurrentIndex(max(0, self.voice.findData(current)))
        self.voice.blockSignals(False)

    def set_running(self, running: bool, busy: str = "") -> None:
        """`busy`: a word for the button while it cannot be pressed ("Stopping…")."""
        self.button.setText(busy or (translate("Controls", "Stop") if running else translate("Controls", "Start")))
        self.button.setEnabled(not busy)
        self.device.setEnabled(not running and not busy)
        if not running:
            self.level.setValue(0)
            self.level_them.setValue(0)

    def set_level(self, rms: float, them: bool = False) -> None:
        (self.level_them if them else self.level).setValue(meter_value(rms))

    def show_room(self, problem: str, them: bool = False) -> None:
        """A problem with the input (a Room event's text, in the interface's language) on its
        meter: amber, the text as its tooltip; "" puts the meter back as it was."""
        meter = self.level_them if them else self.level
        if not meter.property("normal_tip"):
            meter.setProperty("normal_tip", meter.toolTip())
        meter.setToolTip(problem or meter.property("normal_tip"))
        meter.setAccessibleDescription(problem)
        meter.setStyleSheet(f"QProgressBar::chunk {{ background: {ROOM_PROBLEM_COLOUR}; }}" if problem else "")
        meter.setProperty("room_problem", problem)

    def set_conversation(self, on: bool, spoken: str = "them") -> None:
        """A conversation shows a second meter (theirs, system audio, beside mine) and whose
        translations are spoken."""
        self.level_them.setVisible(on)
        self.spoken.setVisible(on)
        self.spoken.blockSignals(True)
        self.spoken.setCurrentIndex(max(0, self.spoken.findData(spoken)))
        self.spoken.blockSignals(False)
