"""The control bar: direction, start/stop, microphone and its level, speech output and voice."""

from __future__ import annotations

import math

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from app.shared.languages import Direction

DEFAULT_DEVICE = "System default microphone"
METER_FLOOR_DB = -60.0


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

    def __init__(self, parent=None):
        super().__init__(parent)
        self.direction = QComboBox()
        for direction in Direction:
            self.direction.addItem(direction.label, direction.value)
        self.direction.setToolTip("Translation direction (Ctrl+D swaps)")
        self.direction.currentIndexChanged.connect(
            lambda _i: self.direction_changed.emit(self.direction.currentData()))
        self.button = QPushButton("Start")
        self.button.setToolTip("Start or stop listening (Ctrl+Return)")
        self.button.setMinimumWidth(96)
        self.button.clicked.connect(self.start_stop)
        self.device = QComboBox()
        self.device.setMinimumWidth(200)
        self.device.setToolTip("Microphone")
        self.device.currentIndexChanged.connect(
            lambda _i: self.device_changed.emit(self.device.currentData() or ""))
        self.level = QProgressBar()
        self.level.setRange(0, 100)
        self.level.setTextVisible(False)
        self.level.setFixedWidth(110)
        self.level.setToolTip("Microphone level")
        self.tts = QCheckBox("Speak")
        self.tts.setToolTip("Speak each final translation aloud")
        self.tts.toggled.connect(self.tts_toggled)
        self.voice = QComboBox()
        self.voice.setToolTip("Voice for the translation's language")
        self.voice.setMinimumWidth(140)
        self.voice.currentIndexChanged.connect(
            lambda _i: self.voice_changed.emit(self.voice.currentData() or ""))

        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.direction)
        layout.addWidget(self.button)
        layout.addSpacing(12)
        layout.addWidget(QLabel("Mic"))
        layout.addWidget(self.device)
        layout.addWidget(self.level)
        layout.addSpacing(12)
        layout.addWidget(self.tts)
        layout.addWidget(self.voice)
        layout.addStretch()

    def current_direction(self) -> str:
        return self.direction.currentData()

    def set_direction(self, code: str) -> None:
        index = self.direction.findData(code)
        if index >= 0:
            self.direction.setCurrentIndex(index)

    def set_devices(self, names: list[str], current: str) -> None:
        self.device.blockSignals(True)
        self.device.clear()
        self.device.addItem(DEFAULT_DEVICE, "")
        for name in names:
            self.device.addItem(name, name)
        index = self.device.findData(current)
        self.device.setCurrentIndex(max(0, index))
        self.device.blockSignals(False)

    def set_voices(self, voices: list[tuple[str, str]], current: str) -> None:
        """`voices`: (id, label) pairs for the current target language."""
        self.voice.blockSignals(True)
        self.voice.clear()
        self.voice.addItem("Default voice", "")
        for voice_id, label in voices:
            self.voice.addItem(label, voice_id)
        self.voice.setCurrentIndex(max(0, self.voice.findData(current)))
        self.voice.blockSignals(False)

    def set_running(self, running: bool, busy: str = "") -> None:
        """`busy`: a word for the button while it cannot be pressed ("Stopping…")."""
        self.button.setText(busy or ("Stop" if running else "Start"))
        self.button.setEnabled(not busy)
        self.device.setEnabled(not running and not busy)
        if not running:
            self.level.setValue(0)

    def set_level(self, rms: float) -> None:
        self.level.setValue(meter_value(rms))
