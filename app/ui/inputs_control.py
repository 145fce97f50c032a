"""What the window listens to and speaks with: the source chooser's devices (scanned on a worker),
where my translation goes in a conversation (the call output), the voices for the target language,
and the banner's word when no microphone is there for a choice that needs one."""

from __future__ import annotations

from PySide6.QtCore import QObject

from app.shared.languages import Direction
from app.ui.call_output import list_outputs
from app.ui.i18n import translate
from app.ui.sources import NO_MICROPHONE, NO_MICROPHONE_HINT, chosen, source_choices
from app.ui.workers import Worker
from app.voice_list import list_voices


class InputsControl(QObject):
    def __init__(self, window):
        super().__init__(window)
        self.window = window  # a MainWindow: its settings, controls, call output, banner and worker pool
        self.voices: dict[str, list[tuple[str, str]]] = {}
        self.no_microphone = False  # the device scan found nothing to record from

    def load(self) -> None:
        """PortAudio's device scan and the voice list can take a moment: done on workers."""
        window = self.window
        worker = Worker(source_choices)
        worker.finished.connect(self._show_sources)
        window.pool.start(worker)
        outputs = Worker(list_outputs)
        outputs.finished.connect(lambda found: window.call_output.set_outputs(found, window.settings.speak_into))
        window.pool.start(outputs)
        voices = Worker(list_voices)
        voices.finished.connect(self.show_voices)
        window.pool.start(voices)

    def _show_sources(self, sources) -> None:
        window = self.window
        choice = chosen(window.settings)
        window.controls.set_devices(sources, choice.key)
        window.controls.set_conversation(choice.kind == "conversation", window.settings.spoken)
        window.call_output.setVisible(choice.kind == "conversation")
        self.no_microphone = sources.no_microphone
        self._say_if_no_microphone(choice.kind)

    def _say_if_no_microphone(self, kind: str) -> None:
        """No device to record from, and the choice needs one: said now, not at Start."""
        if self.no_microphone and kind in ("microphone", "conversation"):
            self.window.alert.show_message(
                translate("Sources", NO_MICROPHONE), translate("Sources", NO_MICROPHONE_HINT), "warning", "microphone"
            )
        else:
            self.window.alert.withdraw("microphone")

    def set_source(self, key: str) -> None:
        """The source chooser's pick: a microphone, system audio, or a conversation."""
        settings, window = self.window.settings, self.window
        settings.source = key
        kind, _, device = key.partition(":")
        if kind == "microphone":
            settings.input_device = device
        elif kind == "system":
            settings.system_device = device
        window.controls.set_conversation(kind == "conversation", settings.spoken)
        window.call_output.setVisible(kind == "conversation")
        self._say_if_no_microphone(kind)

    def set_speak_into(self, speak_into: str) -> None:
        """Where my translated speech goes in a conversation ("" = with theirs); from the next start.
        Sending it into the call means my translations are spoken: the spoken side includes me."""
        settings = self.window.settings
        settings.speak_into = speak_into
        if speak_into and settings.spoken == "them":
            self.window.controls.set_conversation(True, "me")
            self.window.session_control.set_spoken("me")

    def show_voices(self, voices: dict | None = None) -> None:
        """The voices of the chosen direction's target language (`voices`: the list, once found)."""
        if voices is not None:
            self.voices = voices
        language = Direction(self.window.direction()).target
        self.window.controls.set_voices(self.voices.get(language, []), self.window.settings.voice(language))
