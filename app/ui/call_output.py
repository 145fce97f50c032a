"""In a conversation: "Speak my translation into the call" — where my translated speech goes.

A check box, the device chooser (the app's virtual microphone on Linux, then every output, such
as a virtual cable on Windows/macOS), one line saying what to pick in the call app, and a meter
of what is being sent (SentLevel events). The window keeps the choice in `UiSettings.speak_into`
("" = off) and, when a conversation starts, `apply_to` routes my side of the speech output there.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLabel, QProgressBar, QWidget

from app.audio.outputs import list_output_devices
from app.audio.speech_targets import open_output
from app.audio.virtual_mic import our_sinks
from app.platform import call_microphone
from app.shared.audio import SpeechTarget
from app.shared.events import SentLevel, Speaker
from app.ui.i18n import translate


def list_outputs() -> list:
    """Every output device (runs on a worker: it asks the sound server)."""
    ours = our_sinks()
    return [d for d in list_output_devices() if d.id not in ours]


class CallOutputPanel(QWidget):
    """Where my translated speech goes in a conversation; `speak_into()` is "" when it stays off."""

    changed = Signal(str)  # the new speak_into value ("" = off)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.enabled = QCheckBox(translate("CallOutput", "Speak my translation into the call"))
        self.enabled.setToolTip(
            translate(
                "CallOutput",
                "My translated speech goes to the device chosen here, which the call app uses as its microphone",
            )
        )
        self.device = QComboBox()
        self.device.setAccessibleName(translate("CallOutput", "Device the call app uses as its microphone"))
        self.device.setMinimumWidth(220)
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        self.meter = QProgressBar()
        self.meter.setRange(0, 100)
        self.meter.setTextVisible(False)
        self.meter.setFixedWidth(110)
        self.meter.setToolTip(translate("CallOutput", "Level of what is sent into the call"))
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.enabled, self.device, self.meter):
            layout.addWidget(widget)
        layout.addWidget(self.hint, 1)
        self.set_outputs([])
        self.enabled.toggled.connect(self._changed)
        self.device.currentIndexChanged.connect(self._changed)

    def set_outputs(self, outputs: list, current: str = "") -> None:
        """The choices: the virtual microphone (Linux), then `outputs` (app.audio.outputs.OutputDevice)."""
        current = current or self.device.currentData() or ""
        self.device.blockSignals(True)
        self.device.clear()
        if call_microphone.app_makes_it():
            self.device.addItem(
                translate("CallOutput", "Virtual microphone (Live Translator microphone)"),
                SpeechTarget.VIRTUAL_MIC.value,
            )
        for output in outputs:
            self.device.addItem(translate("CallOutput", "Output: {name}").format(name=output.name), output.id)
        found = self.device.findData(current)
        self.device.setCurrentIndex(max(found, 0))
        self.device.blockSignals(False)
        self._show_hint()

    def set_choice(self, speak_into: str) -> None:
        """Show a stored choice ("" = off)."""
        self.enabled.blockSignals(True)
        self.enabled.setChecked(bool(speak_into))
        self.enabled.blockSignals(False)
        if speak_into and self.device.findData(speak_into) < 0:
            self.device.addItem(speak_into, speak_into)  # not listed (yet): keep it as it was chosen
        if speak_into:
            self.device.setCurrentIndex(self.device.findData(speak_into))
        self._show_hint()

    def speak_into(self) -> str:
        return (self.device.currentData() or "") if self.enabled.isChecked() else ""

    def apply_to(self, speech_output) -> None:
        """Route my side of `speech_output` (an app.tts.SpeechOutput, not started yet) to the choice."""
        output = open_output(self.speak_into() or None)
        if output is not None:
            speech_output.outputs[Speaker.ME] = output

    def show_level(self, event: SentLevel) -> None:
        self.meter.setValue(int(min(1.0, event.peak) * 100))

    def _changed(self) -> None:
        self._show_hint()
        self.changed.emit(self.speak_into())

    def _show_hint(self) -> None:
        choice = self.device.currentData()
        if choice == SpeechTarget.VIRTUAL_MIC.value:
            text = translate(
                "CallOutput", "In the call app, pick \u201cLive Translator microphone\u201d as the microphone."
            )
        else:
            text = translate(
                "CallOutput",
                "In the call app, pick this device's other end as the microphone "
                "(VB-CABLE: \u201cCABLE Output\u201d; BlackHole: \u201cBlackHole\u201d).",
            )
        self.hint.setText(text)
        self.hint.setEnabled(self.enabled.isChecked())
        self.device.setEnabled(self.enabled.isChecked())
        self.meter.setEnabled(self.enabled.isChecked())
