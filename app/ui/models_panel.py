"""The models strip: which models are in use, and a clear state when one is missing."""

from __future__ import annotations

import html

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from app.shared.languages import Direction
from app.ui.i18n import direction_words, translate
from app.ui.model_state import ModelState


class ModelsBar(QWidget):
    manage = Signal(str)  # direction whose model the user wants to get or change

    def __init__(self, parent=None):
        super().__init__(parent)
        self.states: dict[str, ModelState] = {}
        self.labels: dict[str, QLabel] = {}
        self.buttons: dict[str, QPushButton] = {}
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for direction in Direction:
            label = QLabel()
            button = QPushButton(translate("ModelsBar", "Get model…"))
            button.clicked.connect(lambda _=False, d=direction: self.manage.emit(d))
            self.labels[direction], self.buttons[direction] = label, button
            layout.addWidget(label)
            layout.addWidget(button)
            layout.addSpacing(16)
        self.asr = QLabel()
        layout.addWidget(self.asr)
        layout.addStretch()

    def set_checking(self, direction: str, path: str | None) -> None:
        self.states.pop(direction, None)
        self.labels[direction].setText(
            translate("ModelsBar", "{direction}: checking…").format(direction=Direction(direction).short_label)
        )
        self.labels[direction].setToolTip(path or "")

    def set_state(self, state: ModelState) -> None:
        self.states[state.direction] = state
        label, button = self.labels[state.direction], self.buttons[state.direction]
        short = Direction(state.direction).short_label
        if state.can_run:
            label.setText(f'{short}: <span style="color:#2e7d32">✔ {html.escape(state.name)}</span>')
            button.setText(translate("ModelsBar", "Change…"))
        else:
            word = translate("ModelsBar", "missing") if state.missing else translate("ModelsBar", "unusable")
            label.setText(f'{short}: <span style="color:#c62828; font-weight:bold">✖ {word}</span>')
            button.setText(translate("ModelsBar", "Get model…"))
        label.setToolTip(f"{direction_words(state.direction)}\n{state.headline}\n{state.hint}".strip())

    def set_asr(self, name: str) -> None:
        self.asr.setText(translate("ModelsBar", "Speech recognition: Whisper {name}").format(name=html.escape(name)))
